#include "gui_test_support.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QThread>

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

} // namespace bif::test
