#include "engine/model/expression_parser.h"

#include "engine/model/diagnostic_sink.h"
#include "engine/model/precedence_check.h"
#include "engine/model/text.h"

#include <algorithm>

namespace bif::model::detail {

namespace {

AstOp binary_op(TokenKind k) {
    switch (k) {
    case TokenKind::Plus:
        return AstOp::Add;
    case TokenKind::Minus:
        return AstOp::Sub;
    case TokenKind::Star:
        return AstOp::Mul;
    case TokenKind::Slash:
        return AstOp::Div;
    case TokenKind::Caret:
        return AstOp::Pow;
    case TokenKind::Less:
        return AstOp::Lt;
    case TokenKind::LessEqual:
        return AstOp::Le;
    case TokenKind::Greater:
        return AstOp::Gt;
    case TokenKind::GreaterEqual:
        return AstOp::Ge;
    case TokenKind::EqualEqual:
        return AstOp::Eq;
    case TokenKind::NotEqual:
        return AstOp::Ne;
    case TokenKind::Ampersand:
        return AstOp::And;
    case TokenKind::Bar:
        return AstOp::Or;
    default:
        return AstOp::None;
    }
}

bool is_comparison(AstOp op) {
    return op == AstOp::Lt || op == AstOp::Le || op == AstOp::Gt || op == AstOp::Ge || op == AstOp::Eq ||
           op == AstOp::Ne;
}

class Parser {
  public:
    Parser(const std::vector<Token>& tokens, const LogicalLine& line, Grammar grammar, DiagnosticSink* sink)
        : tokens_(tokens), line_(line), grammar_(grammar), sink_(sink) {}

    std::optional<Ast> run() {
        if (tokens_.empty() || tokens_.back().kind == TokenKind::Error) return std::nullopt;
        if (peek().kind == TokenKind::End) {
            error("E-empty-formula", 0, "empty formula");
            return std::nullopt;
        }
        ast_.root = expression();
        if (failed_) return std::nullopt;
        if (peek().kind != TokenKind::End) {
            trailing();
            return std::nullopt;
        }
        return std::move(ast_);
    }

  private:
    // expression = xppaut_sum | ordinary_disjunction
    int expression() {
        DepthGuard guard(*this);
        if (failed_) return -1;
        return grammar_ == Grammar::Xppaut ? xppaut_sum() : ordinary_disjunction();
    }

    // ---- XPPAUT 6.11 -------------------------------------------------------------------------

    /* xppaut_sum = xppaut_product { ("+" | "-" | "|") xppaut_product } */
    int xppaut_sum() {
        int left = xppaut_product();
        while (!failed_ && is_any(TokenKind::Plus, TokenKind::Minus, TokenKind::Bar)) {
            const std::size_t op = pos_++;
            left = binary(op, left, xppaut_product());
        }
        return left;
    }

    /* xppaut_product = xppaut_negation { ("*" | "/" | "&") xppaut_negation } */
    int xppaut_product() {
        int left = xppaut_negation();
        while (!failed_ && is_any(TokenKind::Star, TokenKind::Slash, TokenKind::Ampersand)) {
            const std::size_t op = pos_++;
            left = binary(op, left, xppaut_negation());
        }
        return left;
    }

    /* xppaut_negation = "-" xppaut_negation | xppaut_power */
    int xppaut_negation() {
        if (failed_) return -1;
        if (peek().kind == TokenKind::Minus) {
            DepthGuard guard(*this);
            const std::size_t op = pos_++;
            return negation(op, xppaut_negation());
        }
        return xppaut_power();
    }

    /* xppaut_power = xppaut_operand { ("^" | "**" | ">" | "<" | ">=" | "<=" | "==" | "!=") xppaut_operand }
     */
    int xppaut_power() {
        int left = xppaut_operand();
        while (!failed_ && (peek().kind == TokenKind::Caret || is_comparison(binary_op(peek().kind)))) {
            const std::size_t op = pos_++;
            left = binary(op, left, xppaut_operand());
        }
        return left;
    }

    /* xppaut_operand = "-" xppaut_operand | primary      (6.11 rejects the minus: x^-2) */
    int xppaut_operand() {
        if (failed_) return -1;
        if (peek().kind == TokenKind::Minus) {
            DepthGuard guard(*this);
            const std::size_t op = pos_++;
            return negation(op, xppaut_operand());
        }
        return primary();
    }

    // ---- ordinary mathematics -----------------------------------------------------------------

    /* ordinary_disjunction = ordinary_conjunction { "|" ordinary_conjunction } */
    int ordinary_disjunction() {
        int left = ordinary_conjunction();
        while (!failed_ && peek().kind == TokenKind::Bar) {
            const std::size_t op = pos_++;
            left = binary(op, left, ordinary_conjunction());
        }
        return left;
    }

    /* ordinary_conjunction = ordinary_comparison { "&" ordinary_comparison } */
    int ordinary_conjunction() {
        int left = ordinary_comparison();
        while (!failed_ && peek().kind == TokenKind::Ampersand) {
            const std::size_t op = pos_++;
            left = binary(op, left, ordinary_comparison());
        }
        return left;
    }

    /* ordinary_comparison = ordinary_sum { (">" | "<" | ">=" | "<=" | "==" | "!=") ordinary_sum } */
    int ordinary_comparison() {
        int left = ordinary_sum();
        while (!failed_ && is_comparison(binary_op(peek().kind))) {
            const std::size_t op = pos_++;
            left = binary(op, left, ordinary_sum());
        }
        return left;
    }

    /* ordinary_sum = ordinary_product { ("+" | "-") ordinary_product } */
    int ordinary_sum() {
        int left = ordinary_product();
        while (!failed_ && is_any(TokenKind::Plus, TokenKind::Minus)) {
            const std::size_t op = pos_++;
            left = binary(op, left, ordinary_product());
        }
        return left;
    }

    /* ordinary_product = ordinary_negation { ("*" | "/") ordinary_negation } */
    int ordinary_product() {
        int left = ordinary_negation();
        while (!failed_ && is_any(TokenKind::Star, TokenKind::Slash)) {
            const std::size_t op = pos_++;
            left = binary(op, left, ordinary_negation());
        }
        return left;
    }

    /* ordinary_negation = "-" ordinary_negation | ordinary_power */
    int ordinary_negation() {
        if (failed_) return -1;
        if (peek().kind == TokenKind::Minus) {
            DepthGuard guard(*this);
            const std::size_t op = pos_++;
            return negation(op, ordinary_negation());
        }
        return ordinary_power();
    }

    /* ordinary_power = primary [ ("^" | "**") ordinary_negation ]      (right-associative) */
    int ordinary_power() {
        const int base = primary();
        if (failed_ || peek().kind != TokenKind::Caret) return base;
        const std::size_t op = pos_++;
        return binary(op, base, ordinary_negation());
    }

    // ---- shared -------------------------------------------------------------------------------

    /* primary = number | name | call | if | "(" expression ")"
       call    = name "(" [ expression { "," expression } ] ")"
       if      = "if" "(" expression ")" "then" "(" expression ")" "else" "(" expression ")"
       (sum and i' are read by name_or_call) */
    int primary() {
        if (failed_) return -1;
        const Token& t = peek();
        switch (t.kind) {
        case TokenKind::Number: {
            AstNode n = leaf(AstKind::Number);
            n.value = t.value;
            ++pos_;
            return ast_.add(std::move(n));
        }
        case TokenKind::Name:
            return name_or_call();
        case TokenKind::LeftParen: {
            const std::size_t open = pos_++;
            const int inner = expression();
            close_paren(open);
            return inner;
        }
        default:
            expected_value();
            return -1;
        }
    }

    int name_or_call() {
        const Token& t = peek();
        const std::string name = to_lower(t.text);
        const TokenKind next = peek(1).kind;
        if (name == "if" && next == TokenKind::LeftParen) return if_then_else();
        if (name == "sum" && next == TokenKind::LeftParen) return sum();
        if (name == "i" && next == TokenKind::Prime) return sum_index();
        AstNode n = leaf(next == TokenKind::LeftParen ? AstKind::Call : AstKind::Name);
        ++pos_;
        if (n.kind == AstKind::Name) return ast_.add(std::move(n));
        const std::size_t open = pos_++;
        if (peek().kind != TokenKind::RightParen) {
            n.children.push_back(expression());
            while (!failed_ && peek().kind == TokenKind::Comma) {
                ++pos_;
                n.children.push_back(expression());
            }
        }
        close_paren(open);
        return failed_ ? -1 : add_checked(std::move(n));
    }

    int if_then_else() {
        AstNode n = leaf(AstKind::If);
        ++pos_;
        n.children.push_back(parenthesised("if"));
        keyword("then", "E-then", "`if(c)` must be followed by `then(a)else(b)`");
        n.children.push_back(parenthesised("then"));
        keyword("else", "E-else", "`if(c)then(a)` must be followed by `else(b)`");
        n.children.push_back(parenthesised("else"));
        return failed_ ? -1 : add_checked(std::move(n));
    }

    /* sum = "sum" "(" expression "," expression ")" "of" "(" expression ")"      (XPPAUT cannot nest sums) */
    int sum() {
        AstNode n = leaf(AstKind::Sum);
        if (in_sum_) {
            error("E-sum", pos_, "sums cannot be nested (XPPAUT 6.11 refuses them too)");
            return -1;
        }
        ++pos_;
        const std::size_t open = pos_++;
        n.children.push_back(expression());
        if (!failed_ && peek().kind != TokenKind::Comma) {
            error("E-sum", pos_, "a sum is written sum(lo,hi)of(formula in i')");
            return -1;
        }
        ++pos_;
        n.children.push_back(expression());
        close_paren(open);
        keyword("of", "E-sum", "`sum(lo,hi)` must be followed by `of(formula in i')`");
        in_sum_ = true;
        n.children.push_back(parenthesised("of"));
        in_sum_ = false;
        return failed_ ? -1 : add_checked(std::move(n));
    }

    /* sum_index = "i" "'"      (only inside the body of a sum) */
    int sum_index() {
        if (!in_sum_) {
            error("E-sum", pos_, "i' is the index of sum(lo,hi)of(...) and means nothing outside one");
            return -1;
        }
        AstNode n = leaf(AstKind::SumIndex);
        n.text = "i'";
        pos_ += 2;
        return ast_.add(std::move(n));
    }

    void keyword(const char* word, const char* code, const char* message) {
        if (failed_) return;
        if (peek().kind == TokenKind::Name && iequals(peek().text, word)) {
            ++pos_;
            return;
        }
        error(code, pos_, message);
    }

    int parenthesised(const char* after) {
        if (failed_) return -1;
        if (peek().kind != TokenKind::LeftParen) {
            error("E-syntax", pos_, std::string("expected `(` after `") + after + "`");
            return -1;
        }
        const std::size_t open = pos_++;
        const int inner = expression();
        close_paren(open);
        return inner;
    }

    void close_paren(std::size_t open) {
        if (failed_) return;
        if (peek().kind == TokenKind::RightParen) {
            ++pos_;
            return;
        }
        if (peek().kind == TokenKind::End) {
            error("E-unbalanced", open, "this `(` is never closed");
            return;
        }
        error("E-syntax", pos_,
              std::string("expected `)` or an operator, found ") + describe(peek()) +
                  " (the `(` opened at column " + std::to_string(line_.pos(tokens_[open].offset).column) +
                  ")");
    }

    void expected_value() {
        const Token& t = peek();
        if (t.kind == TokenKind::End) {
            error("E-expected-operand", pos_, "the formula ends where a value is expected");
        } else {
            error("E-expected-operand", pos_, "expected a value, found " + describe(t));
        }
    }

    void trailing() {
        const Token& t = peek();
        if (t.kind == TokenKind::RightParen) {
            error("E-unbalanced", pos_, "`)` without a matching `(`");
        } else if (t.kind == TokenKind::Name || t.kind == TokenKind::Number ||
                   t.kind == TokenKind::LeftParen) {
            error("E-trailing", pos_, "missing operator before " + describe(t));
        } else if (t.kind == TokenKind::Equal) {
            error("E-trailing", pos_, "unexpected `=` in a formula (comparison is `==`)");
        } else {
            error("E-trailing", pos_, "unexpected " + describe(t) + " after a complete formula");
        }
    }

    static std::string describe(const Token& t) {
        if (t.kind == TokenKind::Name || t.kind == TokenKind::Number) return "`" + t.text + "`";
        return token_kind_name(t.kind);
    }

    AstNode leaf(AstKind kind) const {
        AstNode n;
        n.kind = kind;
        n.text = peek().text;
        n.token = pos_;
        n.where = line_.pos(peek().offset);
        return n;
    }

    int binary(std::size_t op_token, int left, int right) {
        if (failed_) return -1;
        AstNode n;
        n.kind = AstKind::Binary;
        n.op = binary_op(tokens_[op_token].kind);
        n.token = op_token;
        n.where = line_.pos(tokens_[op_token].offset);
        n.children = {left, right};
        return add_checked(std::move(n));
    }

    int negation(std::size_t op_token, int operand) {
        if (failed_) return -1;
        AstNode n;
        n.kind = AstKind::Unary;
        n.op = AstOp::Neg;
        n.token = op_token;
        n.where = line_.pos(tokens_[op_token].offset);
        n.children = {operand};
        return add_checked(std::move(n));
    }

    // Adds an inner node, keeping the tree's height bounded.
    int add_checked(AstNode n) {
        for (int c : n.children)
            n.depth = std::max(n.depth, ast_.at(c).depth + 1);
        if (n.depth > kMaxTreeHeight) {
            error("E-nesting", n.token,
                  "formula too long or nested too deeply (more than " + std::to_string(kMaxTreeHeight) +
                      " levels); split it with fixed variables");
            return -1;
        }
        return ast_.add(std::move(n));
    }

    const Token& peek(std::size_t ahead = 0) const {
        const std::size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
        return tokens_[i];
    }

    template <class... Kinds>
    bool is_any(Kinds... kinds) const {
        const TokenKind k = peek().kind;
        return ((k == kinds) || ...);
    }

    void error(const char* code, std::size_t token, std::string message) {
        if (failed_) return;
        failed_ = true;
        if (sink_)
            sink_->error(code, line_.pos(tokens_[std::min(token, tokens_.size() - 1)].offset),
                         std::move(message));
    }

    struct DepthGuard {
        explicit DepthGuard(Parser& p) : p_(p) {
            if (++p_.depth_ > kMaxNesting)
                p_.error("E-nesting", p_.pos_,
                         "formula nested more than " + std::to_string(kMaxNesting) + " levels deep");
        }
        ~DepthGuard() { --p_.depth_; }
        Parser& p_;
    };

    const std::vector<Token>& tokens_;
    const LogicalLine& line_;
    Grammar grammar_;
    DiagnosticSink* sink_;
    Ast ast_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    bool failed_ = false;
    bool in_sum_ = false;
};

} // namespace

std::optional<Ast> parse_tokens(const std::vector<Token>& tokens, const LogicalLine& formula, Grammar grammar,
                                DiagnosticSink* sink) {
    return Parser(tokens, formula, grammar, sink).run();
}

namespace {

// Volterra integrals int{kernel#u} hold characters no formula has, so they are recognised before
// tokenizing.
bool refuse_volterra(const LogicalLine& formula, DiagnosticSink& sink) {
    const std::string& s = formula.text;
    for (std::size_t i = s.find_first_of("iI"); i != std::string::npos; i = s.find_first_of("iI", i + 1)) {
        if (i > 0 && is_name_char(s[i - 1])) continue;
        if (istarts_with(std::string_view(s).substr(i), "int{") ||
            istarts_with(std::string_view(s).substr(i), "int[")) {
            sink.error("E-volterra", formula.pos(i),
                       "Volterra integrals int{...} are not supported by Bifscope yet");
            return true;
        }
    }
    return false;
}

} // namespace

std::optional<Ast> parse_formula(const LogicalLine& formula, DiagnosticSink& sink) {
    if (refuse_volterra(formula, sink)) return std::nullopt;
    const std::vector<Token> tokens = tokenize(formula, &sink);
    auto xppaut = parse_tokens(tokens, formula, Grammar::Xppaut, &sink);
    if (!xppaut) return std::nullopt;
    if (auto ordinary = parse_tokens(tokens, formula, Grammar::Ordinary, nullptr)) {
        warn_precedence_differences(*xppaut, *ordinary, sink);
    }
    return xppaut;
}

} // namespace bif::model::detail
