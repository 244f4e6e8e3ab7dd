#include "xpp_to_muparser.h"

#include <cctype>

namespace bif::testsupport {
namespace {

struct TranslateFailure {
    std::string message;
};

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Index of the ')' matching the '(' at `open`.
std::size_t matching_paren(const std::string& s, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) return i;
    }
    throw TranslateFailure{"unbalanced parentheses in: " + s};
}

// The parenthesised group that must start at `pos` right after `keyword`; returns its contents
// and moves `pos` past the ')'.
std::string keyword_group(const std::string& s, std::size_t& pos, const std::string& keyword) {
    if (s.compare(pos, keyword.size() + 1, keyword + "(") != 0)
        throw TranslateFailure{"expected " + keyword + "(...) in: " + s};
    const std::size_t open = pos + keyword.size();
    const std::size_t close = matching_paren(s, open);
    pos = close + 1;
    return s.substr(open + 1, close - open - 1);
}

std::string translate(const std::string& s) {
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t end = i;
            while (end < s.size() && is_name_char(s[end]))
                ++end;
            const std::string name = s.substr(i, end - i);
            const bool called = end < s.size() && s[end] == '(';
            if (name == "if" && called) {
                std::size_t pos = i;
                const std::string condition = keyword_group(s, pos, "if");
                const std::string then_value = keyword_group(s, pos, "then");
                const std::string else_value = keyword_group(s, pos, "else");
                out += "((" + translate(condition) + ")?(" + translate(then_value) + "):(" +
                       translate(else_value) + "))";
                i = pos;
                continue;
            }
            out += (name == "log" && called) ? std::string("ln") : name;
            i = end;
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            // A number, exponent included, so that the 'e' of 1e-3 is not read as a name.
            std::size_t end = i;
            while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.'))
                ++end;
            if (end < s.size() && (s[end] == 'e') && end + 1 < s.size() &&
                (std::isdigit(static_cast<unsigned char>(s[end + 1])) ||
                 ((s[end + 1] == '-' || s[end + 1] == '+') && end + 2 < s.size() &&
                  std::isdigit(static_cast<unsigned char>(s[end + 2]))))) {
                end += 2;
                while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
                    ++end;
            }
            out += s.substr(i, end - i);
            i = end;
        } else if (c == '*' && i + 1 < s.size() && s[i + 1] == '*') {
            out += '^';
            i += 2;
        } else if (c == '&' || c == '|') {
            out += c;
            out += c;
            ++i;
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

} // namespace

std::optional<std::string> xpp_to_muparser(const std::string& formula, std::string* error) {
    try {
        return translate(formula);
    } catch (const TranslateFailure& failure) {
        if (error) *error = failure.message;
        return std::nullopt;
    }
}

} // namespace bif::testsupport
