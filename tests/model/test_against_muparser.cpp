// Random formulas, evaluated by Bifscope and by muparser (an independent parser that follows
// ordinary precedence: comparisons below + -, ^ right-associative, -2^2 = -4):
//  - fully parenthesised as Bifscope read them (XPPAUT's reading), the values must agree;
//  - where Bifscope gave no precedence warning, the formula as written must agree too.
#include "engine/model/diagnostic_sink.h"
#include "engine/model/expression_parser.h"
#include "engine/model/precedence_check.h"
#include "model_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <muParser.h>
#include <random>

using namespace bif::model;

namespace {

class FormulaGenerator {
  public:
    explicit FormulaGenerator(unsigned seed) : rng_(seed) {}

    std::string formula(int depth = 0) {
        const int choice = pick(depth > 3 ? 3 : 10);
        if (choice < 3) return leaf();
        if (choice < 5) return parenthesised(formula(depth + 1));
        // one call per statement: the order of the random draws must not depend on the compiler
        if (choice < 6) {
            const std::string function = unary();
            return function + parenthesised(formula(depth + 1));
        }
        if (choice < 7) return std::string(1, '-').append(operand(depth + 1));
        const std::string left = formula(depth + 1);
        const std::string op = binary();
        return left + op + operand(depth + 1);
    }

  private:
    std::string operand(int depth) { return pick(4) == 0 ? parenthesised(formula(depth)) : leaf(); }

    static std::string parenthesised(const std::string& s) {
        return std::string(1, '(').append(s).append(1, ')');
    }

    std::string leaf() {
        static const char* leaves[] = {"a", "b", "c", "2", "0.5", "3", "1.25", "0"};
        return leaves[pick(8)];
    }

    std::string unary() {
        static const char* functions[] = {"sin", "cos", "abs", "exp", "sqrt", "tanh"};
        return functions[pick(6)];
    }

    std::string binary() {
        static const char* ops[] = {"+", "-", "*", "/", "^", "<", ">", "<=", ">=", "==", "!=", "&", "|"};
        return ops[pick(13)];
    }

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

    std::mt19937 rng_;
};

// muparser's && and || truncate their operands to integers (0.5&&2 is 0); XPPAUT, like
// Bifscope, takes any nonzero value as true. So the test gives muparser operators of its own,
// `and` and `or`, at the precedence of its && and ||.
double logical_and(double a, double b) {
    return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
}

double logical_or(double a, double b) {
    return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
}

std::string for_muparser(const std::string& formula) {
    std::string out;
    for (char ch : formula) {
        if (ch == '&')
            out += " and ";
        else if (ch == '|')
            out += " or ";
        else
            out += ch;
    }
    return out;
}

double muparser_value(const std::string& formula, double a, double b, double c) {
    mu::Parser p;
    p.DefineOprt("and", logical_and, mu::prLAND);
    p.DefineOprt("or", logical_or, mu::prLOR);
    p.DefineVar("a", &a);
    p.DefineVar("b", &b);
    p.DefineVar("c", &c);
    p.SetExpr(for_muparser(formula));
    return p.Eval();
}

bool same_value(double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    if (std::isinf(x) || std::isinf(y)) return x == y;
    return std::fabs(x - y) <= 1e-9 * std::max(1.0, std::max(std::fabs(x), std::fabs(y)));
}

} // namespace

TEST_CASE("Bifscope agrees with muparser on 3000 random formulas", "[model][muparser]") {
    ParseResult r = parse_model("par a=1.5, b=-0.75, c=2\nx'=0\n", "ctx.ode");
    REQUIRE(r.model);
    Model& m = *r.model;
    const double a = 1.5, b = -0.75, c = 2;
    FormulaGenerator gen(20261121);
    int compared_as_written = 0;
    for (int i = 0; i < 3000; ++i) {
        const std::string formula = gen.formula();
        INFO(formula);
        const ExpressionResult e = parse_expression(m, formula);
        REQUIRE(e.node);
        const double ours = test::evaluate_at_start(m, *e.node);

        detail::DiagnosticSink sink("f", {formula});
        const auto ast = detail::parse_formula(detail::LogicalLine::from_text(formula, 1), sink);
        REQUIRE(ast);
        const std::string as_read = detail::render(*ast, ast->root);
        INFO("read as " << as_read);
        CHECK(same_value(ours, muparser_value(as_read, a, b, c)));
        if (e.diagnostics.empty()) {
            ++compared_as_written;
            CHECK(same_value(ours, muparser_value(formula, a, b, c)));
        }
    }
    CHECK(compared_as_written > 1000);
}
