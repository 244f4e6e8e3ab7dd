#include "ui/shell/theme.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStyleFactory>
#include <optional>

namespace bif::ui {

namespace {

std::optional<ThemeMode> applied_mode;

std::optional<ThemeMode> from_override() {
    const QByteArray value = qgetenv("BIFSCOPE_THEME").trimmed().toLower();
    if (value == "dark") return ThemeMode::Dark;
    if (value == "light") return ThemeMode::Light;
    return std::nullopt;
}

bool names_dark(const QString& name) {
    return name.contains("dark", Qt::CaseInsensitive);
}

// GTK_THEME ("Adwaita:dark"), GTK 3/4 settings.ini (prefer-dark, or a "...-dark" theme name), and
// KDE's kdeglobals colour scheme ("BreezeDark").
bool desktop_hints_dark() {
    if (names_dark(qEnvironmentVariable("GTK_THEME"))) return true;
    QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (config.isEmpty()) config = QDir::homePath() + "/.config";
    for (const char* file : {"/gtk-4.0/settings.ini", "/gtk-3.0/settings.ini"}) {
        if (!QFile::exists(config + file)) continue;
        const QSettings gtk(config + file, QSettings::IniFormat);
        if (gtk.value("Settings/gtk-application-prefer-dark-theme").toString() == "1" ||
            gtk.value("Settings/gtk-application-prefer-dark-theme").toString() == "true")
            return true;
        if (names_dark(gtk.value("Settings/gtk-theme-name").toString())) return true;
    }
    if (QFile::exists(config + "/kdeglobals")) {
        const QSettings kde(config + "/kdeglobals", QSettings::IniFormat);
        if (names_dark(kde.value("General/ColorScheme").toString())) return true;
    }
    return false;
}

// Fusion's colours but with every role set, so that nothing falls back to the other theme.
QPalette make_palette(const QColor& window, const QColor& base, const QColor& alternate_base,
                      const QColor& text, const QColor& button, const QColor& highlight, const QColor& link,
                      const QColor& disabled_text) {
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, alternate_base);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, button);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::red);
    palette.setColor(QPalette::ToolTipBase, base);
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, disabled_text);
    palette.setColor(QPalette::Highlight, highlight);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, link);
    palette.setColor(QPalette::LinkVisited, link.darker(115));
    palette.setColor(QPalette::Light, button.lighter(150));
    palette.setColor(QPalette::Midlight, button.lighter(125));
    palette.setColor(QPalette::Mid, button.darker(130));
    palette.setColor(QPalette::Dark, button.darker(170));
    palette.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, disabled_text);
    palette.setColor(QPalette::Disabled, QPalette::Highlight, button.darker(110));
    return palette;
}

} // namespace

ThemeMode detect_theme_mode() {
    if (std::optional<ThemeMode> forced = from_override()) return *forced;
    // QGuiApplication::palette() before applyTheme: the platform theme's, dark where the desktop is.
    if (QGuiApplication::palette().color(QPalette::Window).lightness() < 128) return ThemeMode::Dark;
    return desktop_hints_dark() ? ThemeMode::Dark : ThemeMode::Light;
}

QPalette theme_palette(ThemeMode mode) {
    if (mode == ThemeMode::Dark)
        return make_palette(QColor(45, 45, 48), QColor(30, 30, 32), QColor(40, 40, 44), QColor(230, 230, 230),
                            QColor(56, 56, 60), QColor(42, 110, 200), QColor(110, 170, 255),
                            QColor(130, 130, 130));
    return make_palette(QColor(239, 239, 239), QColor(255, 255, 255), QColor(245, 245, 245),
                        QColor(20, 20, 20), QColor(230, 230, 230), QColor(40, 104, 190), QColor(0, 80, 180),
                        QColor(130, 130, 130));
}

void applyTheme(QApplication& app) {
    applyTheme(app, applied_mode ? *applied_mode : detect_theme_mode());
}

void applyTheme(QApplication& app, ThemeMode mode) {
    app.setStyle(QStyleFactory::create("Fusion"));
    app.setPalette(theme_palette(mode));
    applied_mode = mode;
}

bool isDark() {
    return (applied_mode ? *applied_mode : detect_theme_mode()) == ThemeMode::Dark;
}

} // namespace bif::ui
