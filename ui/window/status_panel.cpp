#include "ui/window/status_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace bif::ui {

namespace {

QString rate_text(double per_second) {
    if (per_second >= 1e6) return QString("%1 M systems/s").arg(per_second / 1e6, 0, 'f', 2);
    if (per_second >= 1e3) return QString("%1 k systems/s").arg(per_second / 1e3, 0, 'f', 1);
    return QString("%1 systems/s").arg(per_second, 0, 'f', 0);
}

QString seconds_text(double seconds) {
    if (seconds < 60) return QString("%1 s").arg(seconds, 0, 'f', 1);
    const int s = int(seconds);
    return QString("%1:%2 min").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

} // namespace

StatusPanel::StatusPanel(QWidget* parent)
    : QWidget(parent), backend_(new QLabel(this)), drawing_(new QLabel(this)), tiles_(new QLabel(this)),
      phase_(new QLabel(tr("Ready"), this)), bar_(new QProgressBar(this)), rate_(new QLabel(this)),
      elapsed_(new QLabel(this)), cancel_(new QToolButton(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(backend_);
    layout->addSpacing(12);
    layout->addWidget(drawing_);
    layout->addSpacing(12);
    layout->addWidget(tiles_);
    layout->addSpacing(12);
    layout->addWidget(phase_, 1);
    bar_->setRange(0, 1000);
    bar_->setTextVisible(true);
    bar_->setFixedWidth(180);
    bar_->setFormat("%p%");
    layout->addWidget(bar_);
    layout->addWidget(rate_);
    layout->addWidget(elapsed_);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the run (Esc); what is finished stays on screen"));
    layout->addWidget(cancel_);
    connect(cancel_, &QToolButton::clicked, this, &StatusPanel::cancelRequested);
    connect(&ticker_, &QTimer::timeout, this, &StatusPanel::tick);
    ticker_.setInterval(200);
    bar_->setVisible(false);
    cancel_->setEnabled(false);
    drawing_->setVisible(false);
    tiles_->setVisible(false);
}

void StatusPanel::setBackend(const QString& text, const QString& why) {
    backend_->setText(text);
    backend_->setToolTip(why);
}

void StatusPanel::runStarted(const QString& what) {
    running_ = true;
    systems_done_ = 0;
    phase_->setText(what);
    bar_->setValue(0);
    bar_->setVisible(true);
    rate_->clear();
    cancel_->setEnabled(true);
    clock_.start();
    ticker_.start();
    tick();
}

void StatusPanel::showProgress(const study::Progress& p) {
    if (!running_) return;
    systems_done_ = p.systems_done;
    bar_->setValue(int(p.fraction * 1000.0));
    phase_->setText(QString::fromStdString(p.phase.empty() ? "running" : p.phase));
    const double seconds = clock_.elapsed() / 1000.0;
    if (seconds > 0.05 && p.systems_done > 0) rate_->setText(rate_text(double(p.systems_done) / seconds));
}

void StatusPanel::showPhase(const QString& phase) {
    if (running_) phase_->setText(phase);
}

void StatusPanel::runEnded(const QString& outcome, std::size_t systems, double seconds) {
    if (running_) tick();
    if (systems > 0 && seconds > 0.0) rate_->setText(rate_text(double(systems) / seconds));
    running_ = false;
    ticker_.stop();
    phase_->setText(outcome);
    bar_->setVisible(false);
    cancel_->setEnabled(false);
}

void StatusPanel::setDrawing(const QString& render_path) {
    // "QPainter: why" reads as a fallback with its reason: "Drawing: QPainter — why".
    QString text = render_path;
    if (const int colon = text.indexOf(QStringLiteral(": ")); text.startsWith("QPainter") && colon > 0)
        text = text.left(colon) + QString::fromUtf8(" \u2014 ") + text.mid(colon + 2);
    drawing_->setText(text.isEmpty() ? QString() : tr("Drawing: %1").arg(text));
    drawing_->setToolTip(
        tr("How the plot is drawn: OpenGL where an OpenGL 3.3 context runs (the window system's, "
           "or where it has none an EGL device's on the GPU, read back), else QPainter"));
    drawing_->setVisible(!text.isEmpty());
}

void StatusPanel::setTiles(const QString& text) {
    tiles_->setText(text);
    tiles_->setVisible(!text.isEmpty());
}

void StatusPanel::tick() {
    elapsed_->setText(seconds_text(clock_.elapsed() / 1000.0));
}

QString StatusPanel::phaseText() const {
    return phase_->text();
}
QString StatusPanel::backendText() const {
    return backend_->text();
}
QString StatusPanel::drawingText() const {
    return drawing_->text();
}
QString StatusPanel::tilesText() const {
    return tiles_->text();
}
double StatusPanel::progressFraction() const {
    return bar_->value() / 1000.0;
}

} // namespace bif::ui
