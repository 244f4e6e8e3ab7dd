// The status bar's run display: the backend in use (and why the GPU is not, when it is not), the
// phase, a progress bar, systems per second, the elapsed time and a Cancel button. While a run is
// in flight the elapsed time ticks on its own, so a long compile never looks frozen. Beside them: how
// the current plot is drawn (OpenGL or QPainter, with the reason) and how far its tiles are.
#pragma once

#include "engine/study/backend.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace bif::ui {

class StatusPanel : public QWidget {
    Q_OBJECT
  public:
    explicit StatusPanel(QWidget* parent = nullptr);

    // "GPU: NVIDIA H100" / "CPU: 2 threads"; the tooltip says why the GPU is not used.
    void setBackend(const QString& text, const QString& why);
    void runStarted(const QString& what);
    void showProgress(const study::Progress& progress);
    void showPhase(const QString& phase);
    // `systems` finished in `seconds` (0: unknown) give the final rate.
    void runEnded(const QString& outcome, std::size_t systems = 0, double seconds = 0.0);
    // PlotView::renderPath() of the current plot ("OpenGL 3.3 (host upload)", "QPainter: <reason>"),
    // shown as "Drawing: …"; empty hides it (no plot in view).
    void setDrawing(const QString& render_path);
    // The tiled map's progress ("Tiles: 3 of 12"); empty hides it.
    void setTiles(const QString& text);

    QString phaseText() const;
    QString backendText() const;
    QString drawingText() const;
    QString tilesText() const;
    double progressFraction() const;
    bool running() const { return running_; }

  signals:
    void cancelRequested();

  private:
    void tick();

    QLabel* backend_;
    QLabel* drawing_;
    QLabel* tiles_;
    QLabel* phase_;
    QProgressBar* bar_;
    QLabel* rate_;
    QLabel* elapsed_;
    QToolButton* cancel_;
    QTimer ticker_;
    QElapsedTimer clock_;
    bool running_ = false;
    std::size_t systems_done_ = 0;
};

} // namespace bif::ui
