#include "gui_test_support.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QThread>

namespace bif::test {

QImage save_screenshot(QWidget& widget, const QString& name) {
    if (!widget.isVisible()) widget.show();
    QCoreApplication::processEvents();
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
