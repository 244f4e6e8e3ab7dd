// Stages 3-4: tokens, the two grammars, and the warnings where XPPAUT's precedence differs from
// ordinary mathematics.
#include "engine/model/diagnostic_sink.h"
#include "engine/model/expression_parser.h"
#include "engine/model/precedence_check.h"

#include <catch2/catch.hpp>

using namespace bif::model;
using namespace bif::model::detail;

namespace {

LogicalLine line_of(const std::string& text) {
    return LogicalLine::from_text(text, 1);
}

// The tree a grammar builds, fully parenthesised; "" when it does not parse.
std::string reading(const std::string& text, Grammar grammar) {
    const LogicalLine line = line_of(text);
    const auto tokens = tokenize(line, nullptr);
    const auto ast = parse_tokens(tokens, line, grammar, nullptr);
    return ast ? render(*ast, ast->root) : std::string();
}

std::vector<Diagnostic> warnings_of(const std::string& text) {
    DiagnosticSink sink("f", {text});
    parse_formula(line_of(text), sink);
    return sink.take();
}

} // namespace

TEST_CASE("numbers in all their spellings", "[model][lexer]") {
    const auto tokens = tokenize(line_of("1 1. .5 1e-3 2.5E+4 7e2"), nullptr);
    REQUIRE(tokens.size() == 7);
    const double expected[] = {1.0, 1.0, 0.5, 1e-3, 2.5e4, 700.0};
    for (int i = 0; i < 6; ++i) {
        CHECK(tokens[i].kind == TokenKind::Number);
        CHECK(tokens[i].value == expected[i]);
    }
    CHECK(tokens[6].kind == TokenKind::End);
}

TEST_CASE("names keep their spelling; operators of two characters win", "[model][lexer]") {
    const auto tokens = tokenize(line_of("Vm_1**2<=x!=y==z>=w"), nullptr);
    std::vector<TokenKind> kinds;
    for (const auto& t : tokens)
        kinds.push_back(t.kind);
    CHECK(kinds == std::vector<TokenKind>{TokenKind::Name, TokenKind::Caret, TokenKind::Number,
                                          TokenKind::LessEqual, TokenKind::Name, TokenKind::NotEqual,
                                          TokenKind::Name, TokenKind::EqualEqual, TokenKind::Name,
                                          TokenKind::GreaterEqual, TokenKind::Name, TokenKind::End});
    CHECK(tokens[0].text == "Vm_1");
    CHECK(tokens[3].offset == 7);
}

TEST_CASE("XPPAUT's grammar: ^ and comparisons bind tightest, all left-associative", "[model][parser]") {
    const std::pair<const char*, const char*> cases[] = {
        {"1+1>2", "1+(1>2)"},
        {"2^3^2", "(2^3)^2"},
        {"-2^2", "-(2^2)"},
        {"a*b>c", "a*(b>c)"},
        {"a>b^c", "(a>b)^c"},
        {"3<2<1", "(3<2)<1"},
        {"-x>0", "-(x>0)"},
        {"a&b*c", "(a&b)*c"},
        {"a+b&c", "a+(b&c)"},
        {"a|b&c", "a|(b&c)"},
        {"x*-y", "x*(-y)"},
        {"x^-2", "x^(-2)"},
        {"a-b-c", "(a-b)-c"},
        {"a/b/c", "(a/b)/c"},
        {"if(a)then(b)else(c)+1", "if(a)then(b)else(c)+1"},
        {"f(a,b+c)*2", "f(a,b+c)*2"},
        {"not(a)*b", "not(a)*b"},
        {"a**2", "a^2"},
    };
    for (auto [source, expected] : cases) {
        INFO(source);
        CHECK(reading(source, Grammar::Xppaut) == expected);
    }
}

TEST_CASE("ordinary grammar: comparisons below + -, ^ right-associative above unary minus",
          "[model][parser]") {
    const std::pair<const char*, const char*> cases[] = {
        {"1+1>2", "(1+1)>2"}, {"2^3^2", "2^(3^2)"}, {"-2^2", "-(2^2)"}, {"a*b>c", "(a*b)>c"},
        {"-x>0", "(-x)>0"},   {"a&b*c", "a&(b*c)"}, {"x^-2", "x^(-2)"}, {"a<b&c<d|e", "((a<b)&(c<d))|e"},
    };
    for (auto [source, expected] : cases) {
        INFO(source);
        CHECK(reading(source, Grammar::Ordinary) == expected);
    }
}

TEST_CASE("a precedence warning points at the operator ordinary precedence applies last", "[model][parser]") {
    struct Case {
        const char* source;
        int column;
    };
    for (const Case& c : {Case{"1+1>2", 4}, Case{"2^3^2", 2}, Case{"a>b^c", 2}, Case{"-x>0", 3},
                          Case{"a&b*c", 2}, Case{"y+(a*b>c)", 7}}) {
        INFO(c.source);
        const auto ds = warnings_of(c.source);
        REQUIRE(ds.size() == 1);
        CHECK(ds[0].code == "W-precedence");
        CHECK(ds[0].column == c.column);
    }
    const auto ds = warnings_of("1+1>2");
    CHECK(ds[0].message.find("1+(1>2)") != std::string::npos);
}

TEST_CASE("no warning where the readings agree", "[model][parser]") {
    for (const char* source : {"a+b*c", "-x^2", "x^2*3", "a<b&c<d", "a|b&c", "(a+b)>c", "x*-y", "2^(3^2)",
                               "-a*b", "a-b+c", "if(x>0)then(1)else(2)", "3<2<1", "x^-2*y"}) {
        INFO(source);
        CHECK(warnings_of(source).empty());
    }
}

TEST_CASE("two precedence differences in one formula give two warnings", "[model][parser]") {
    const auto ds = warnings_of("max(1+1>2,2^3^2)");
    CHECK(ds.size() == 2);
}

TEST_CASE("nesting is bounded with a diagnostic, never by the stack", "[model][parser]") {
    const std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
    auto ds = warnings_of(deep);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].code == "E-nesting");
    std::string minus(100000, '-');
    ds = warnings_of(minus + "1");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].code == "E-nesting");
    std::string chain = "1";
    for (int i = 0; i < 5000; ++i)
        chain += "+1";
    ds = warnings_of(chain);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].code == "E-nesting");
}
