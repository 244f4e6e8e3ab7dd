#include "engine/model/lexer.h"

#include "engine/model/diagnostic_sink.h"
#include "engine/model/text.h"

#include <charconv>

namespace bif::model::detail {

const char* token_kind_name(TokenKind kind) {
    switch (kind) {
    case TokenKind::Number:
        return "number";
    case TokenKind::Name:
        return "name";
    case TokenKind::Plus:
        return "`+`";
    case TokenKind::Minus:
        return "`-`";
    case TokenKind::Star:
        return "`*`";
    case TokenKind::Slash:
        return "`/`";
    case TokenKind::Caret:
        return "`^`";
    case TokenKind::Less:
        return "`<`";
    case TokenKind::LessEqual:
        return "`<=`";
    case TokenKind::Greater:
        return "`>`";
    case TokenKind::GreaterEqual:
        return "`>=`";
    case TokenKind::EqualEqual:
        return "`==`";
    case TokenKind::NotEqual:
        return "`!=`";
    case TokenKind::Ampersand:
        return "`&`";
    case TokenKind::Bar:
        return "`|`";
    case TokenKind::LeftParen:
        return "`(`";
    case TokenKind::RightParen:
        return "`)`";
    case TokenKind::Comma:
        return "`,`";
    case TokenKind::LeftBrace:
        return "`{`";
    case TokenKind::RightBrace:
        return "`}`";
    case TokenKind::Semicolon:
        return "`;`";
    case TokenKind::Equal:
        return "`=`";
    case TokenKind::Prime:
        return "`'`";
    case TokenKind::Bang:
        return "`!`";
    case TokenKind::End:
        return "end of formula";
    case TokenKind::Error:
        return "invalid text";
    }
    return "token";
}

namespace {

struct Spelling {
    const char* text;
    TokenKind kind;
};

// Longest first, so that `**` wins over `*` and `<=` over `<`.
constexpr Spelling kOperators[] = {
    {"**", TokenKind::Caret},      {"<=", TokenKind::LessEqual}, {">=", TokenKind::GreaterEqual},
    {"==", TokenKind::EqualEqual}, {"!=", TokenKind::NotEqual},  {"+", TokenKind::Plus},
    {"-", TokenKind::Minus},       {"*", TokenKind::Star},       {"/", TokenKind::Slash},
    {"^", TokenKind::Caret},       {"<", TokenKind::Less},       {">", TokenKind::Greater},
    {"&", TokenKind::Ampersand},   {"|", TokenKind::Bar},        {"(", TokenKind::LeftParen},
    {")", TokenKind::RightParen},  {",", TokenKind::Comma},      {"{", TokenKind::LeftBrace},
    {"}", TokenKind::RightBrace},  {";", TokenKind::Semicolon},  {"=", TokenKind::Equal},
    {"'", TokenKind::Prime},       {"!", TokenKind::Bang},
};

std::string describe_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 32 && u < 127) return std::string("`") + c + "`";
    static const char* hex = "0123456789abcdef";
    return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

} // namespace

std::vector<Token> tokenize(const LogicalLine& line, DiagnosticSink* sink) {
    std::vector<Token> tokens;
    const std::string& s = line.text;
    std::size_t i = 0;
    auto fail = [&](std::size_t at, const char* code, std::string message) {
        if (sink) sink->error(code, line.pos(at), std::move(message));
        tokens.push_back({TokenKind::Error, s.substr(at, 1), 0.0, at});
        return tokens;
    };
    while (i < s.size()) {
        const char c = s[i];
        if (is_blank(c)) {
            ++i;
            continue;
        }
        if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
            const std::size_t n = decimal_number_length(std::string_view(s).substr(i), false);
            const std::size_t end = i + n;
            if (end < s.size() && (is_name_char(s[end]) || s[end] == '.')) {
                return fail(i, "E-number",
                            "malformed number `" + s.substr(i, end - i + 1) + "`" +
                                (is_name_start(s[end]) ? " (no implicit multiplication: write `*`)" : ""));
            }
            double value = 0.0;
            const auto r = std::from_chars(s.data() + i, s.data() + end, value);
            if (r.ec != std::errc() || r.ptr != s.data() + end) {
                return fail(i, "E-number", "number `" + s.substr(i, n) + "` is out of range");
            }
            tokens.push_back({TokenKind::Number, s.substr(i, n), value, i});
            i = end;
            continue;
        }
        if (is_name_start(c)) {
            std::size_t end = i;
            while (end < s.size() && is_name_char(s[end]))
                ++end;
            tokens.push_back({TokenKind::Name, s.substr(i, end - i), 0.0, i});
            i = end;
            continue;
        }
        bool matched = false;
        for (const Spelling& op : kOperators) {
            const std::string_view text(op.text);
            if (s.compare(i, text.size(), text) == 0) {
                tokens.push_back({op.kind, std::string(text), 0.0, i});
                i += text.size();
                matched = true;
                break;
            }
        }
        if (!matched) return fail(i, "E-character", "unexpected " + describe_char(c) + " in a formula");
    }
    tokens.push_back({TokenKind::End, "", 0.0, s.size()});
    return tokens;
}

} // namespace bif::model::detail
