// Stage 3 of the front end: the tokens of a formula (or of the left side of a line).
//
// Numbers: 1  1.  .5  1e-3  2.5E+4. Names: a letter or `_`, then letters, digits and `_`; the
// spelling is kept, lookups fold case. Operators: + - * / ^ ** > < >= <= == != & | and the
// punctuation ( ) , { } ; = ' !. A malformed number or an unknown character is reported once and
// ends the token stream with an Error token.
#pragma once

#include "engine/model/source_text.h"

#include <string>
#include <vector>

namespace bif::model::detail {

class DiagnosticSink;

enum class TokenKind {
    Number,
    Name,
    Plus,
    Minus,
    Star,
    Slash,
    Caret, // ^ and **
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    EqualEqual,
    NotEqual,
    Ampersand,
    Bar,
    LeftParen,
    RightParen,
    Comma,
    LeftBrace,
    RightBrace,
    Semicolon,
    Equal,
    Prime,
    Bang,
    End,
    Error,
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text; // as written
    double value = 0.0;
    std::size_t offset = 0; // in the logical line
};

// Tokens of line.text; always ends with an End or an Error token.
std::vector<Token> tokenize(const LogicalLine& line, DiagnosticSink* sink);

const char* token_kind_name(TokenKind kind);

} // namespace bif::model::detail
