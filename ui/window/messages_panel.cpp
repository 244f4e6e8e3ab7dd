#include "ui/window/messages_panel.h"

#include <QTime>

namespace bif::ui {

MessagesPanel::MessagesPanel(QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setMaximumBlockCount(5000);
    setPlaceholderText(tr("Messages from runs appear here."));
}

void MessagesPanel::add(Level level, const QString& text) {
    ++counts_[int(level)];
    // The palette's own text colour for information keeps it readable in the dark and the light look.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    QString colour = palette().color(QPalette::Text).name();
    if (level == Level::Warning) colour = dark ? "#f0b060" : "#9a5b00";
    if (level == Level::Error) colour = dark ? "#ff7b72" : "#b3261e";
    const char* tag = level == Level::Error ? "error: " : level == Level::Warning ? "warning: " : "";
    appendHtml(QString("<span style='color:%1'>%2 &nbsp;%3%4</span>")
                   .arg(colour, QTime::currentTime().toString("HH:mm:ss"), tag, text.toHtmlEscaped()));
}

} // namespace bif::ui
