// The app's look: Qt's Fusion style with a dark or a light palette that follows the desktop. Qt 6.4
// has no QStyleHints::colorScheme, so the choice is read from BIFSCOPE_THEME=dark|light (an override),
// then the platform palette's window lightness, then the GTK and KDE settings a desktop leaves.
#pragma once

#include <QPalette>

class QApplication;

namespace bif::ui {

enum class ThemeMode { Light, Dark };

ThemeMode detect_theme_mode(); // from the override, platform palette and desktop hints
QPalette theme_palette(ThemeMode mode);

void applyTheme(QApplication& app); // the detected mode
void applyTheme(QApplication& app, ThemeMode mode);
// Whether the palette in use is dark; before applyTheme, what applyTheme would choose. Plots read it
// to pick their own colours.
bool isDark();

} // namespace bif::ui
