// The generated text itself: literals, expanded powers, shared and branch-local temporaries, no
// user text, determinism, request validation.
#include "engine/codegen/codegen.h"
#include "engine/codegen/cpp_writer.h"
#include "engine/codegen/host_model.h"
#include "tests/codegen/model_keys.h"
#include "tests/codegen/test_models.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

using bif::codegen::generate_source;
using bif::codegen::Precision;
using bif::codegen::Request;
using bif::sym::NodeId;
using bif::sym::Op;
using namespace bif::codegen_test;

namespace {

// A model whose only right-hand side is `rhs_of(pool, x)`, x = y[0].
template <class F>
bif::model::Model one_state(F&& rhs_of) {
    bif::model::Model m;
    m.parameters.push_back({"a", 2.0, {}});
    m.states.push_back({"x", 1.0, 0, {}});
    m.states[0].rhs = rhs_of(m.pool, m.pool.state(0));
    return m;
}

std::string source_of(const bif::model::Model& m, Precision precision = Precision::Double) {
    Request r;
    r.model = &m;
    r.precision = precision;
    return generate_source(r);
}

// The text of one member function, from its signature to its closing brace.
std::string function_text(const std::string& source, const std::string& name) {
    const std::size_t begin = source.find(" " + name + "(");
    REQUIRE(begin != std::string::npos);
    return source.substr(begin, source.find("\n    }\n", begin) - begin);
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// Floating literals (digits with a '.' or an exponent) that do not end in 'f'.
std::vector<std::string> double_literals(const std::string& text) {
    std::vector<std::string> found;
    for (std::size_t i = 0; i < text.size();) {
        const bool starts =
            std::isdigit(static_cast<unsigned char>(text[i])) &&
            (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'));
        if (!starts) {
            ++i;
            continue;
        }
        std::size_t j = i;
        bool floating = false;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.' ||
                                   ((text[j] == '+' || text[j] == '-') && (text[j - 1] == 'e')))) {
            floating = floating || text[j] == '.' || text[j] == 'e';
            ++j;
        }
        const std::string token = text.substr(i, j - i);
        if (floating && token.back() != 'f') found.push_back(token);
        i = j;
    }
    return found;
}

} // namespace

TEST_CASE("literals read back as the exact value and never as integers", "[codegen][literal]") {
    using bif::codegen::detail::real_literal;
    const double inf = std::numeric_limits<double>::infinity();
    struct Row {
        double value;
        Precision precision;
        const char* text;
    };
    const Row rows[] = {
        {2.0, Precision::Double, "2.0"},
        {2.0, Precision::Float, "2.0f"},
        {0.1, Precision::Double, "0.1"},
        {0.1, Precision::Float, "0.1f"},
        {-1.5, Precision::Double, "(-1.5)"},
        {-1.5, Precision::Float, "(-1.5f)"},
        {1e300, Precision::Double, "1e+300"},
        {1e300, Precision::Float, "(real(1) / real(0))"}, // beyond float: what float arithmetic gives
        {123456789.0, Precision::Double, "123456789.0"},
        {1.0 / 3.0, Precision::Double, "0.3333333333333333"},
        {inf, Precision::Double, "(real(1) / real(0))"},
        {-inf, Precision::Float, "(-(real(1) / real(0)))"},
        {std::nan(""), Precision::Double, "(real(0) / real(0))"},
        {-0.0, Precision::Double, "(-0.0)"},
    };
    for (const Row& r : rows)
        CHECK(real_literal(r.value, r.precision) == r.text);

    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
    std::uniform_int_distribution<int> exponent(-300, 300);
    for (int i = 0; i < 2000; ++i) {
        const double v = std::ldexp(mantissa(rng), exponent(rng) / 4);
        std::string d = real_literal(v, Precision::Double);
        std::string f = real_literal(v, Precision::Float);
        auto strip = [](std::string s) {
            if (s.front() == '(') s = s.substr(1, s.size() - 2);
            if (s.back() == 'f') s.pop_back();
            return s;
        };
        INFO(v << " -> " << d << " / " << f);
        CHECK(std::strtod(strip(d).c_str(), nullptr) == v);
        if (std::isfinite(static_cast<float>(v)))
            CHECK(std::strtof(strip(f).c_str(), nullptr) == static_cast<float>(v));
    }
}

TEST_CASE("float code carries no double literal", "[codegen][literal]") {
    for (const std::string& key : builtin_model_keys()) {
        std::string error;
        auto m = load_test_model(key, &error);
        REQUIRE(m);
        const Request r = make_test_request(*m, Precision::Float, "F");
        const std::string source = generate_source(r);
        INFO(key);
        CHECK(double_literals(source).empty());
        CHECK(source.find("using real = float;") != std::string::npos);
        // the same model in double does contain floating literals, so the scan sees them
        const Request rd = make_test_request(*m, Precision::Double, "D");
        if (key == "builtin:all_operations") CHECK(!double_literals(generate_source(rd)).empty());
    }
}

TEST_CASE("small integer and half powers are expanded, others call pow", "[codegen][power]") {
    for (double k : {2.0, 3.0, 4.0, -1.0, -2.0, 0.5, -0.5}) {
        const auto m = one_state([&](bif::sym::ExprPool& e, NodeId x) {
            return e.binary(Op::Pow, e.binary(Op::Add, x, e.param(0)), e.constant(k));
        });
        const std::string rhs = function_text(source_of(m), "rhs");
        INFO("exponent " << k << "\n" << rhs);
        CHECK(rhs.find("pow(") == std::string::npos);
        // the base is computed once and named
        CHECK(count_of(rhs, "(y[0] + p[0])") == 1);
    }
    const auto general =
        one_state([](bif::sym::ExprPool& e, NodeId x) { return e.binary(Op::Pow, x, e.constant(1.7)); });
    CHECK(function_text(source_of(general), "rhs").find("bif::m::pow(y[0], 1.7)") != std::string::npos);
}

TEST_CASE("a map is known to keep non-finite states only when its formulas show it", "[codegen][nonfinite]") {
    const auto persists = [](const bif::model::Model& m) {
        const std::string source = source_of(m);
        const bool yes = source.find("nonfinite_persists = true;") != std::string::npos;
        REQUIRE((yes || source.find("nonfinite_persists = false;") != std::string::npos));
        return yes;
    };
    using Pool = bif::sym::ExprPool;
    // products, sums, negation, |x| and positive integer powers keep inf and NaN
    CHECK(persists(one_state([](Pool& e, NodeId x) {
        return e.binary(Op::Mul, e.binary(Op::Mul, e.param(0), x), e.binary(Op::Sub, e.constant(1), x));
    })));
    CHECK(persists(one_state([](Pool& e, NodeId x) {
        return e.binary(Op::Sub, e.unary(Op::Abs, x), e.binary(Op::Pow, e.unary(Op::Neg, x), e.constant(3)));
    })));
    // each of these can make a finite value of an infinite one
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId x) { return e.binary(Op::Div, e.param(0), x); })));
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId x) { return e.unary(Op::Exp, e.unary(Op::Neg, x)); })));
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId x) { return e.unary(Op::Tanh, x); })));
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId x) { return e.binary(Op::Pow, x, e.constant(-1)); })));
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId x) { return e.binary(Op::Pow, x, e.constant(0.5)); })));
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId x) {
        return e.if_then_else(e.binary(Op::Gt, x, e.constant(1)), e.constant(0), x);
    })));
    CHECK_FALSE(persists(one_state([](Pool& e, NodeId) { return e.param(0); })));
    // a state that no formula of the kind reads: x' = 2 x, y' = 1 / x leaves an infinite y behind
    bif::model::Model two = one_state([](Pool& e, NodeId x) { return e.binary(Op::Mul, e.constant(2), x); });
    two.states.push_back({"y", 1.0, 0, {}});
    two.states[1].rhs = two.pool.binary(Op::Div, two.pool.constant(1), two.pool.state(0));
    CHECK_FALSE(persists(two));
    two.states[1].rhs = two.pool.binary(Op::Add, two.pool.state(1), two.pool.state(0));
    CHECK(persists(two));
}

TEST_CASE("a subexpression used twice is computed once", "[codegen][cse]") {
    const auto m = one_state([](bif::sym::ExprPool& e, NodeId x) {
        const NodeId s = e.unary(Op::Sin, e.binary(Op::Mul, x, e.param(0)));
        return e.binary(Op::Add, e.binary(Op::Mul, s, s), e.unary(Op::Exp, s));
    });
    const std::string rhs = function_text(source_of(m), "rhs");
    INFO(rhs);
    CHECK(count_of(rhs, "bif::m::sin(") == 1);
    CHECK(count_of(rhs, "bif::m::exp(") == 1);
}

TEST_CASE("what only one branch of if() needs is computed inside that branch", "[codegen][branch]") {
    const auto m = one_state([](bif::sym::ExprPool& e, NodeId x) {
        const NodeId ex = e.unary(Op::Exp, x); // used twice, but only in the then branch
        return e.if_then_else(e.binary(Op::Gt, x, e.constant(0.0)), e.binary(Op::Mul, ex, ex),
                              e.unary(Op::Cos, x));
    });
    const std::string rhs = function_text(source_of(m), "rhs");
    INFO(rhs);
    CHECK(count_of(rhs, "bif::m::exp(") == 1);
    CHECK(rhs.find("bif::m::exp(") > rhs.find("if ("));
    CHECK(rhs.find("bif::m::cos(") > rhs.find("} else {"));

    // a node needed outside the if() too is computed once, before it
    const auto shared = one_state([](bif::sym::ExprPool& e, NodeId x) {
        const NodeId s = e.unary(Op::Sin, x);
        return e.binary(
            Op::Add, s,
            e.if_then_else(e.binary(Op::Gt, x, e.constant(0.0)), e.binary(Op::Mul, s, x), e.constant(1.0)));
    });
    const std::string text = function_text(source_of(shared), "rhs");
    INFO(text);
    CHECK(count_of(text, "bif::m::sin(") == 1);
    CHECK(text.find("bif::m::sin(") < text.find("?"));
}

TEST_CASE("parentheses never nest deeper than compilers accept", "[codegen][nesting]") {
    for (const std::string& key : all_model_keys()) {
        std::string error;
        auto m = load_test_model(key, &error);
        if (!m) continue;
        const std::string source = generate_source(make_test_request(*m, Precision::Double, "M"));
        int depth = 0, deepest = 0;
        for (char ch : source) {
            depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
            deepest = std::max(deepest, depth);
        }
        INFO(key);
        CHECK(depth == 0);
        CHECK(deepest <= 64); // clang's default limit is 256
    }
}

TEST_CASE("no name or text from the model reaches the source", "[codegen][hostile]") {
    const bif::model::Model hostile = hostile_model();
    for (Precision precision : {Precision::Double, Precision::Float}) {
        const std::string source = source_of(hostile, precision);
        INFO(source);
        for (const char* forbidden : {"__asm__", "#define", "*/", "/*", "main", "std", "system", "exit",
                                      "evil", "cstdlib", "#error", "rm -rf"}) {
            CHECK(source.find(forbidden) == std::string::npos);
        }
        // the only preprocessor line and the only string literal are the include
        CHECK(count_of(source, "#") == 1);
        CHECK(count_of(source, "\"") == 2);
    }
}

TEST_CASE("the source of every model depends on its formulas only, not on its names", "[codegen][hostile]") {
    for (const std::string& key : all_model_keys()) {
        std::string error;
        auto m = load_test_model(key, &error);
        INFO(key << " " << error);
        if (!m) {
            CHECK(key.rfind("builtin:", 0) != 0); // only .ode files may fail, reported by the compiled test
            continue;
        }
        for (Precision precision : {Precision::Double, Precision::Float}) {
            CHECK(source_of(*m, precision) == source_of(renamed(*m), precision));
        }
    }
}

TEST_CASE("generation is deterministic and the hash is FNV-1a", "[codegen][determinism]") {
    // published FNV-1a 64-bit test vectors
    CHECK(bif::codegen::source_hash("") == "cbf29ce484222325");
    CHECK(bif::codegen::source_hash("a") == "af63dc4c8601ec8c");
    CHECK(bif::codegen::source_hash("foobar") == "85944171f73967e8");
    for (const std::string& key : all_model_keys()) {
        std::string error;
        auto first = load_test_model(key, &error);
        auto second = load_test_model(key, &error);
        if (!first || !second) continue;
        INFO(key);
        const std::string a = generate_source(make_test_request(*first, Precision::Double, "M"));
        const std::string b = generate_source(make_test_request(*second, Precision::Double, "M"));
        CHECK(a == b);
        CHECK(generate_source(make_test_request(*first, Precision::Double, "M")) == a);
        CHECK(bif::codegen::source_hash(a) == bif::codegen::source_hash(b));
        const std::string f = generate_source(make_test_request(*second, Precision::Float, "M"));
        CHECK(bif::codegen::source_hash(f) != bif::codegen::source_hash(a));
    }
}

TEST_CASE("malformed requests are rejected", "[codegen][validation]") {
    auto m = one_state([](bif::sym::ExprPool& e, NodeId x) { return e.unary(Op::Neg, x); });
    Request r;
    CHECK_THROWS_AS(generate_source(r), std::invalid_argument); // no model
    r.model = &m;
    for (const char* bad : {"", "1abc", "a b", "x;y", "a::b"}) {
        r.type_name = bad;
        CHECK_THROWS_AS(generate_source(r), std::invalid_argument);
    }
    r.type_name = "Ok_1";
    CHECK_NOTHROW(generate_source(r));

    auto bad_state = m;
    bad_state.states[0].rhs = bad_state.pool.state(3);
    r.model = &bad_state;
    CHECK_THROWS_AS(generate_source(r), std::invalid_argument);
    CHECK_THROWS_AS(bif::codegen::HostModel(r), std::invalid_argument);

    auto bad_reset = m;
    bif::model::Event ev;
    ev.condition = bad_reset.pool.state(0);
    ev.resets.push_back({bif::model::Reset::Target::Param, 5, bad_reset.pool.constant(1.0)});
    bad_reset.events.push_back(ev);
    r.model = &bad_reset;
    CHECK_THROWS_AS(generate_source(r), std::invalid_argument);

    auto bad_derived = m;
    bad_derived.derived.push_back({"d", bad_derived.pool.state(0), 1, {}});
    r.model = &bad_derived;
    CHECK_THROWS_AS(generate_source(r), std::invalid_argument);

    r.model = &m;
    r.study_events.push_back({m.pool.state(0), 0});
    CHECK_THROWS_AS(generate_source(r), std::invalid_argument);
    r.study_events.back().direction = 2;
    CHECK_NOTHROW(generate_source(r));
    r.observables.push_back(static_cast<NodeId>(m.pool.size() + 10));
    CHECK_THROWS_AS(generate_source(r), std::invalid_argument);
}

TEST_CASE("HostModelView gives a HostModel compile-time capacities", "[codegen][host]") {
    auto m = load_test_model("builtin:all_operations", nullptr);
    REQUIRE(m);
    const bif::codegen::HostModel host(make_test_request(*m, Precision::Double, "H"));
    using View = bif::codegen::HostModelView<8, 8, 8, 8, 8>;
    REQUIRE(View::fits(host));
    CHECK_FALSE((bif::codegen::HostModelView<2>::fits(host)));
    const View view(host);
    CHECK(view.dimension() == 3);
    CHECK(view.event_count() == host.event_count());
    double y[View::num_states] = {0.3, -0.2, 0.1}, p[View::num_param_slots] = {1.3, 0.7, -0.4}, a[3], b[3];
    view.complete_parameters(p);
    view.rhs(0.5, y, p, a);
    host.rhs(0.5, y, p, b);
    CHECK(std::equal(a, a + 3, b));
}
