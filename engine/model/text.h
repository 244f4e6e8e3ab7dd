// Small text helpers shared by the stages of the model language front end.
#pragma once

#include <string>
#include <string_view>

namespace bif::model::detail {

// XPPAUT names are case-insensitive: lookups use the lower-case form, display keeps the spelling.
std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view s, std::string_view prefix);

bool is_blank(char c);
bool is_digit(char c);
bool is_name_start(char c);
bool is_name_char(char c);
bool is_name(std::string_view s);

std::string_view trim(std::string_view s);

// XPPAUT 6.11's formula reader stops names at 10 characters: a formula that uses a name of 11 or
// more fails to compile ("illegal expression"), although the definition itself is accepted
// (measured with xppaut 6.11 -silent).
constexpr std::size_t kXppautMaxNameLength = 10;

// How XPPAUT reads a value in `par`, `init`, `number` and `x(0)=`: with C's atof, which takes the
// longest leading decimal number and ignores the rest (`2*3` reads as 2, `a` as 0).
struct LeadingNumber {
    enum class Kind { Whole, Prefix, None };
    Kind kind = Kind::None;
    double value = 0.0;
};
LeadingNumber read_leading_number(std::string_view s);

// The name or text in backquotes, as messages show it: `x`.
std::string quoted(std::string_view s);

// Shortest round-trip-ish text of a number for messages ("2", "0.5", "1e-20"); locale-independent.
std::string format_number(double value);

// Length of the decimal number at the start of s ([+-]? digits [. digits] [e [+-] digits]); 0 if none.
std::size_t decimal_number_length(std::string_view s, bool allow_sign);

} // namespace bif::model::detail
