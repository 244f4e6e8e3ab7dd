// Helpers shared by the GUI tests: screenshots of real widgets, waiting on the event loop, the
// bundled resources' paths, and answering a modal question.
#pragma once

#include <QImage>
#include <QMessageBox>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <string>

class QChart;

namespace bif::ui {
class PhasePlanePanel;
}
namespace bif::study {
struct Study;
}

namespace bif::test {

// Grabs the widget (its current size; shown offscreen if needed) and saves it as
// BIFSCOPE_SCREENSHOT_DIR/<name>.png; returns the image.
QImage save_screenshot(QWidget& widget, const QString& name);

// Runs the event loop until `done` holds or `timeout_ms` passed; returns whether it held.
bool wait_until(const std::function<bool()>& done, int timeout_ms);

QString source_path(const QString& relative); // BIFSCOPE_SOURCE_DIR/relative

// A Qt chart's tick labels as drawn (every visible text item of its scene left of the plot area,
// y, or below it, x), to check that none is elided to "…".
struct ChartLabels {
    QStringList y, x;
};
ChartLabels chart_labels(const QChart& chart);
bool elided(const QString& label);

// A window's title as the window system shows it: Qt turns "[*]" into "*" while the window is
// modified and drops it otherwise.
QString shown_title(const QWidget& window);

// Whether the phase plane finished its work within 20 s.
bool settled(const ui::PhasePlanePanel& panel);

// The study's value for parameter `name`; a test failure where the study sets none.
double parameter(const study::Study& s, const std::string& name);

// Answers the next modal message box (a save question, say) with `button` once it is shown, and keeps
// whether it was asked and its text. Create it before the call that opens the box.
class PromptAnswer {
  public:
    explicit PromptAnswer(QMessageBox::StandardButton button);

    bool asked = false;
    QString text;

  private:
    QTimer timer_;
};

// Closes `window` and answers its save question with Cancel: checks that it asked and that the
// window refused to close; returns the question's text.
QString cancelled_close(QWidget& window);

} // namespace bif::test
