#include "gui_test_support.h"

#include "engine/study/study.h"
#include "ui/phase/phase_plane_panel.h"

#include <QAbstractButton>
#include <QApplication>
#include <QChart>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QThread>
#include <QWindow>
#include <catch2/catch.hpp>

namespace bif::test {

QImage save_screenshot(QWidget& widget, const QString& name) {
    if (!widget.isVisible()) widget.show();
    // Views coalesce repaints on short timers (~40 ms): let them fire, so the picture is current.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 150)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QDir().mkpath(BIFSCOPE_SCREENSHOT_DIR);
    QImage image = widget.grab().toImage();
    image.save(QString(BIFSCOPE_SCREENSHOT_DIR) + "/" + name + ".png");
    return image;
}

bool wait_until(const std::function<bool()>& done, int timeout_ms) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeout_ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return true;
}

QString source_path(const QString& relative) {
    return QString(BIFSCOPE_SOURCE_DIR) + "/" + relative;
}

ChartLabels chart_labels(const QChart& chart) {
    ChartLabels labels;
    if (!chart.scene()) return labels;
    const QRectF plot = chart.plotArea();
    for (QGraphicsItem* child : chart.scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(child);
        if (!text || !text->isVisible() || text->toPlainText().isEmpty()) continue;
        const QRectF box = text->sceneBoundingRect();
        if (box.right() <= plot.left() + 1 && box.center().y() >= plot.top() - box.height() &&
            box.center().y() <= plot.bottom() + box.height())
            labels.y << text->toPlainText();
        else if (box.top() >= plot.bottom() - 1)
            labels.x << text->toPlainText();
    }
    return labels;
}

bool elided(const QString& label) {
    return label.contains(QChar(0x2026)) || label.contains(QStringLiteral("..."));
}

QString shown_title(const QWidget& window) {
    return window.windowHandle()->title();
}

bool settled(const ui::PhasePlanePanel& panel) {
    return wait_until([&] { return !panel.busy(); }, 20000);
}

double parameter(const study::Study& s, const std::string& name) {
    for (const auto& [n, v] : s.parameters)
        if (n == name) return v;
    FAIL("no value of " << name);
    return 0;
}

PromptAnswer::PromptAnswer(QMessageBox::StandardButton button) {
    QObject::connect(&timer_, &QTimer::timeout, &timer_, [this, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || !box->button(button)) return;
        timer_.stop();
        asked = true;
        text = box->text();
        box->button(button)->click();
    });
    timer_.start(20);
}

QString cancelled_close(QWidget& window) {
    PromptAnswer cancel(QMessageBox::Cancel);
    CHECK_FALSE(window.close());
    CHECK(cancel.asked);
    return cancel.text;
}

} // namespace bif::test
