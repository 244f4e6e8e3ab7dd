// Numbers as the study panel writes them into its fields: the shortest text that reads back to the
// same double, so that a study put into the panel and read out again is bit for bit the same.
#pragma once

#include <QString>
#include <optional>

namespace bif::ui {

QString number_text(double value);
// A plain number ("1e-9", "0.5", "-3"), or nothing when the text is anything else.
std::optional<double> plain_number(const QString& text);

} // namespace bif::ui
