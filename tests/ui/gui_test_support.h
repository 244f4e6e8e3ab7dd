// Helpers shared by the GUI tests: screenshots of real widgets, waiting on the event loop, and the
// bundled resources' paths.
#pragma once

#include <QImage>
#include <QString>
#include <QWidget>
#include <functional>

namespace bif::test {

// Grabs the widget (its current size; shown offscreen if needed) and saves it as
// BIFSCOPE_SCREENSHOT_DIR/<name>.png; returns the image.
QImage save_screenshot(QWidget& widget, const QString& name);

// Runs the event loop until `done` holds or `timeout_ms` passed; returns whether it held.
bool wait_until(const std::function<bool()>& done, int timeout_ms);

QString source_path(const QString& relative); // BIFSCOPE_SOURCE_DIR/relative

} // namespace bif::test
