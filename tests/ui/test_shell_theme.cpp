// The dark and light themes: different, readable (WCAG contrast of text on its background at least
// 4.5), and the override BIFSCOPE_THEME decides.
#include "gui_test_support.h"
#include "ui/shell/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <catch2/catch.hpp>
#include <cmath>

using bif::ui::ThemeMode;

namespace {

// WCAG 2.x relative luminance and contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
double luminance(const QColor& color) {
    auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) +
           0.0722 * channel(color.blueF());
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// A few common widgets, for a look at each theme.
std::unique_ptr<QWidget> sample_widget() {
    auto widget = std::make_unique<QWidget>();
    auto* layout = new QVBoxLayout(widget.get());
    auto* group = new QGroupBox("Sweep", widget.get());
    auto* group_layout = new QVBoxLayout(group);
    group_layout->addWidget(new QLabel("Parameter k from 0.2 to 0.3"));
    auto* edit = new QLineEdit("2*pi/omega");
    group_layout->addWidget(edit);
    auto* check = new QCheckBox("Continuation");
    check->setChecked(true);
    group_layout->addWidget(check);
    layout->addWidget(group);
    auto* list = new QListWidget;
    list->addItems({"duffing.ode", "lorenz.ode", "rossler.ode"});
    list->setCurrentRow(1);
    layout->addWidget(list);
    auto* disabled = new QPushButton("Cancel (disabled)");
    disabled->setEnabled(false);
    layout->addWidget(disabled);
    layout->addWidget(new QLabel("<a href='x'>a link</a> in a label"));
    layout->addWidget(new QPushButton("Run"));
    widget->resize(320, 340);
    return widget;
}

// Mean colour of the image: how dark the widget really is on screen.
double mean_lightness(const QImage& image) {
    double sum = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            sum += QColor(image.pixel(x, y)).lightnessF();
    return sum / (image.width() * image.height());
}

} // namespace

TEST_CASE("dark and light palettes differ and keep text readable", "[shell][theme]") {
    const QPalette dark = bif::ui::theme_palette(ThemeMode::Dark);
    const QPalette light = bif::ui::theme_palette(ThemeMode::Light);
    CHECK(dark.color(QPalette::Window).lightness() < 100);
    CHECK(light.color(QPalette::Window).lightness() > 200);
    for (const QPalette& palette : {dark, light}) {
        CHECK(contrast(palette.color(QPalette::WindowText), palette.color(QPalette::Window)) >= 4.5);
        CHECK(contrast(palette.color(QPalette::Text), palette.color(QPalette::Base)) >= 4.5);
        CHECK(contrast(palette.color(QPalette::ButtonText), palette.color(QPalette::Button)) >= 4.5);
        CHECK(contrast(palette.color(QPalette::HighlightedText), palette.color(QPalette::Highlight)) >= 4.5);
        CHECK(contrast(palette.color(QPalette::ToolTipText), palette.color(QPalette::ToolTipBase)) >= 4.5);
        CHECK(contrast(palette.color(QPalette::Link), palette.color(QPalette::Base)) >= 4.5);
        // Disabled text is meant to recede, but must still be legible (WCAG's 3:1 for large text).
        CHECK(contrast(palette.color(QPalette::Disabled, QPalette::ButtonText),
                       palette.color(QPalette::Button)) >= 3.0);
    }
}

TEST_CASE("BIFSCOPE_THEME overrides the detected theme", "[shell][theme]") {
    qputenv("BIFSCOPE_THEME", "dark");
    CHECK(bif::ui::detect_theme_mode() == ThemeMode::Dark);
    qputenv("BIFSCOPE_THEME", "light");
    CHECK(bif::ui::detect_theme_mode() == ThemeMode::Light);
    qunsetenv("BIFSCOPE_THEME");
}

TEST_CASE("applied themes colour real widgets", "[shell][theme]") {
    auto& app = *qApp;
    bif::ui::applyTheme(app, ThemeMode::Dark);
    CHECK(bif::ui::isDark());
    CHECK(app.style()->name().compare("fusion", Qt::CaseInsensitive) == 0);
    auto dark_widget = sample_widget();
    const QImage dark = bif::test::save_screenshot(*dark_widget, "shell_theme_dark");

    bif::ui::applyTheme(app, ThemeMode::Light);
    CHECK(!bif::ui::isDark());
    auto light_widget = sample_widget();
    const QImage light = bif::test::save_screenshot(*light_widget, "shell_theme_light");

    CHECK(mean_lightness(dark) < 0.35);
    CHECK(mean_lightness(light) > 0.75);
}
