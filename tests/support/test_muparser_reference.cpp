// Checks the muparser reference evaluator against values computed here by hand from the
// published equations, so that later tests can trust it as an independent reference.
#include "tests/support/muparser_reference.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>
#include <vector>

using bif::testsupport::MuparserReference;

namespace {

MuparserReference load_bundled(const std::string& file) {
    std::string error;
    auto model = MuparserReference::load(std::string(BIFSCOPE_MODELS_DIR) + "/" + file, &error);
    INFO(error);
    REQUIRE(model);
    return std::move(*model);
}

MuparserReference from_text(const std::string& text) {
    std::string error;
    auto model = MuparserReference::from_text(text, &error);
    INFO(error);
    REQUIRE(model);
    return std::move(*model);
}

double evaluate(MuparserReference& model, const std::string& formula) {
    const auto y = model.initial_state();
    const auto p = model.default_parameters();
    std::string error;
    const auto value = model.evaluate(formula, 0.0, y.data(), p.data(), &error);
    INFO(formula << ": " << error);
    REQUIRE(value);
    return *value;
}

} // namespace

TEST_CASE("Lorenz right-hand side matches the equations of Lorenz (1963)", "[muparser_reference]") {
    auto model = load_bundled("lorenz.ode");
    CHECK(model.state_names() == std::vector<std::string>{"x", "y", "z"});
    CHECK(model.parameter_names() == std::vector<std::string>{"sigma", "rho", "beta"});
    const auto p = model.default_parameters();
    CHECK(p[0] == 10.0);
    CHECK(p[1] == 28.0);
    CHECK(p[2] == Approx(8.0 / 3.0).epsilon(1e-15));
    CHECK(model.initial_state() == std::vector<double>{1.0, 1.0, 1.0});

    const double y[] = {1.5, -2.0, 20.0};
    const double q[] = {10.0, 28.0, 8.0 / 3.0};
    double dydt[3];
    model.rhs(0.0, y, q, dydt);
    CHECK(dydt[0] == Approx(10.0 * (-2.0 - 1.5)));
    CHECK(dydt[1] == Approx(1.5 * (28.0 - 20.0) + 2.0));
    CHECK(dydt[2] == Approx(1.5 * -2.0 - 8.0 / 3.0 * 20.0));
}

TEST_CASE("Duffing right-hand side matches MPGOS Eqs. (1)-(2)", "[muparser_reference]") {
    auto model = load_bundled("duffing.ode");
    CHECK(model.state_names() == std::vector<std::string>{"y1", "y2"});
    CHECK(model.parameter_names() == std::vector<std::string>{"k", "b", "delta", "omega"});
    const double y[] = {0.7, -0.4};
    const double p[] = {0.25, 0.3, 1.0, 1.0};
    const double t = 1.3;
    double dydt[2];
    model.rhs(t, y, p, dydt);
    CHECK(dydt[0] == Approx(-0.4));
    CHECK(dydt[1] == Approx(0.7 - 0.7 * 0.7 * 0.7 - 0.25 * -0.4 + 0.3 * std::cos(1.3)).epsilon(1e-14));
}

// Physical constants and excitation of the Keller-Miksis test, in SI units.
struct BubbleCase {
    double pa1 = 0.8e5, pa2 = 0.4e5, w1 = 2 * std::numbers::pi * 150e3, w2 = 2 * std::numbers::pi * 310e3;
    double theta = 0.3, re = 8e-6, pinf = 1.1e5, gamma = 1.33;
    double pv = 3166.8, rho = 997.1, mu = 8.902e-4, sigma = 0.072, cl = 1497.3;
};

TEST_CASE("Keller-Miksis coefficients follow MPGOS Eqs. (16)-(28)", "[muparser_reference]") {
    auto model = load_bundled("keller_miksis.ode");
    const BubbleCase b;
    // pa1, pa2 [bar]; f1, f2 [kHz]; theta; re [um]; pinf [bar]; gam; pv; rho; mu; sigma; cl.
    const std::vector<double> p = {0.8,  0.4,    150,   310,      0.3,   8,     1.1,
                                   1.33, 3166.8, 997.1, 8.902e-4, 0.072, 1497.3};
    REQUIRE(model.parameter_names().size() == p.size());
    const auto derived = model.derived_values(p.data());
    auto value = [&](const std::string& name) {
        for (std::size_t i = 0; i < derived.size(); ++i)
            if (model.derived_names()[i] == name) return derived[i];
        FAIL("no derived parameter " << name);
        return 0.0;
    };
    const double pi = std::numbers::pi;
    const double s = 2 * pi / (b.re * b.w1); // the recurring factor 2*pi/(R_E*omega1)
    const double pg0 = b.pinf - b.pv + 2 * b.sigma / b.re;
    CHECK(value("c0") == Approx(pg0 * s * s / b.rho).epsilon(1e-12));
    CHECK(value("c1") == Approx((1 - 3 * b.gamma) / (b.rho * b.cl) * pg0 * s).epsilon(1e-12));
    CHECK(value("c2") == Approx((b.pinf - b.pv) / b.rho * s * s).epsilon(1e-12));
    CHECK(value("c3") == Approx(2 * b.sigma / (b.rho * b.re) * s * s).epsilon(1e-12));
    CHECK(value("c4") == Approx(4 * b.mu / (b.rho * b.re * b.re) * 2 * pi / b.w1).epsilon(1e-12));
    CHECK(value("c5") == Approx(b.pa1 / b.rho * s * s).epsilon(1e-12));
    CHECK(value("c6") == Approx(b.pa2 / b.rho * s * s).epsilon(1e-12));
    CHECK(value("c7") == Approx(b.re * b.w1 * b.pa1 / (b.rho * b.cl) * s * s).epsilon(1e-12));
    // omega2, not the preprint's misprinted omega1: the derivative of P_A2*sin(omega2*t+theta).
    CHECK(value("c8") == Approx(b.re * b.w2 * b.pa2 / (b.rho * b.cl) * s * s).epsilon(1e-12));
    CHECK(value("c9") == Approx(b.re * b.w1 / (2 * pi * b.cl)).epsilon(1e-12));
    CHECK(value("c10") == Approx(3 * b.gamma).epsilon(1e-12));
    CHECK(value("c11") == Approx(310.0 / 150.0).epsilon(1e-12));
    CHECK(value("c12") == Approx(0.3).epsilon(1e-12));
}

// Keller-Miksis Eq. (8) in physical units, solved for R'' with the derivative of the liquid
// pressure p_L(R, R') (Eqs. 10-11) taken by hand: independent of the coefficients C0..C12.
double physical_radial_acceleration(const BubbleCase& b, double t, double r, double rdot) {
    const double pg0 = b.pinf - b.pv + 2 * b.sigma / b.re;
    const double gas = pg0 * std::pow(b.re / r, 3 * b.gamma);
    const double p_liquid = gas + b.pv - 2 * b.sigma / r - 4 * b.mu * rdot / r;
    const double dp_dr = -3 * b.gamma * gas / r + 2 * b.sigma / (r * r) + 4 * b.mu * rdot / (r * r);
    const double dp_drdot = -4 * b.mu / r;
    const double p_far = b.pinf + b.pa1 * std::sin(b.w1 * t) + b.pa2 * std::sin(b.w2 * t + b.theta);
    const double dp_far = b.pa1 * b.w1 * std::cos(b.w1 * t) + b.pa2 * b.w2 * std::cos(b.w2 * t + b.theta);
    const double lhs_factor = (1 - rdot / b.cl) * r - r / (b.rho * b.cl) * dp_drdot;
    const double rest = -(1 - rdot / (3 * b.cl)) * 1.5 * rdot * rdot +
                        (1 + rdot / b.cl) * (p_liquid - p_far) / b.rho +
                        r / (b.rho * b.cl) * (dp_dr * rdot - dp_far);
    return rest / lhs_factor;
}

TEST_CASE("Keller-Miksis dimensionless right-hand side equals the physical equation",
          "[muparser_reference]") {
    auto model = load_bundled("keller_miksis.ode");
    const BubbleCase b;
    const std::vector<double> p = {0.8,  0.4,    150,   310,      0.3,   8,     1.1,
                                   1.33, 3166.8, 997.1, 8.902e-4, 0.072, 1497.3};
    const double period = 2 * std::numbers::pi / b.w1; // the time unit: t = tau*period
    const auto [y1, y2, tau] = GENERATE(table<double, double, double>(
        {{1.0, 0.0, 0.0}, {1.7, 2.5, 0.37}, {0.4, -6.0, 1.81}, {2.9, -0.3, 4.02}}));
    const double y[] = {y1, y2};
    double dydt[2];
    model.rhs(tau, y, p.data(), dydt);
    const double rddot = physical_radial_acceleration(b, tau * period, b.re * y1, b.re * y2 / period);
    CHECK(dydt[0] == y2);
    CHECK(dydt[1] == Approx(rddot * period * period / b.re).epsilon(1e-10));
}

TEST_CASE("Relief valve impact law resets as MPGOS Eqs. (32)-(34)", "[muparser_reference]") {
    auto model = load_bundled("relief_valve.ode");
    REQUIRE(model.num_events() == 1);
    CHECK(model.event_direction(0) == -1);
    double y[] = {-1e-9, -3.0, 12.0};
    auto p = model.default_parameters(); // q, kappa, delta, beta, r
    double condition = 0.0;
    model.events(0.0, y, p.data(), &condition);
    CHECK(condition == -1e-9);
    model.apply_event(0, 0.0, y, p.data());
    CHECK(y[0] == 0.0);
    CHECK(y[1] == Approx(0.8 * 3.0));
    CHECK(y[2] == 12.0);
}

TEST_CASE("Event resets follow XPPAUT 6.11: states at once, parameters at the end", "[muparser_reference]") {
    // Observed with XPPAUT 6.11: {x=0;y=x+1} leaves y = 1, {a=0;b=a+1} leaves b = old a + 1.
    auto model = from_text("# t\nx'=1\ny'=0\npar a=3,b=0\nglobal 1 x-0.55 {x=0;y=x+1;a=0;b=a+1}\n");
    double y[] = {0.55, 5.0};
    double p[] = {3.0, 0.0};
    model.apply_event(0, 0.55, y, p);
    CHECK(y[0] == 0.0);
    CHECK(y[1] == 1.0);
    CHECK(p[0] == 0.0);
    CHECK(p[1] == 4.0);
}

TEST_CASE("Pleiades: arrays and user functions give Newtonian gravity with masses i",
          "[muparser_reference]") {
    auto model = load_bundled("pleiades.ode");
    REQUIRE(model.state_names().size() == 28);
    CHECK(model.state_names()[0] == "x1");
    CHECK(model.state_names()[7] == "y1");
    CHECK(model.state_names()[14] == "u1");
    CHECK(model.state_names()[27] == "v7");
    const auto y = model.initial_state();
    std::vector<double> dydt(28);
    model.rhs(0.0, y.data(), nullptr, dydt.data());
    for (int i = 0; i < 7; ++i) {
        double ax = 0.0, ay = 0.0;
        for (int j = 0; j < 7; ++j) {
            if (j == i) continue;
            const double dx = y[j] - y[i], dy = y[7 + j] - y[7 + i];
            const double r3 = std::pow(dx * dx + dy * dy, 1.5);
            ax += (j + 1) * dx / r3;
            ay += (j + 1) * dy / r3;
        }
        CHECK(dydt[i] == y[14 + i]);
        CHECK(dydt[7 + i] == y[21 + i]);
        CHECK(dydt[14 + i] == Approx(ax).epsilon(1e-13));
        CHECK(dydt[21 + i] == Approx(ay).epsilon(1e-13));
    }
}

TEST_CASE("XPPAUT built-ins and syntax are translated to muparser", "[muparser_reference]") {
    auto model = from_text("# t\nx'=-x\npar a=2\nf(x,b)=x*b+a\ng(u)=f(u,u)\ndone\n");
    const auto [formula, expected] = GENERATE(table<std::string, double>({
        {"if(a>1)then(3)else(4)", 3.0},
        {"if(a<1)then(3)else(if(a==2)then(5)else(6))", 5.0},
        {"2**3", 8.0},
        {"(a>1)&(a<3)", 1.0},
        {"(a<1)|(a>3)", 0.0},
        {"heav(0)", 1.0},
        {"heav(-1e-300)", 0.0},
        {"sign(0)", 0.0},
        {"sign(-2)", -1.0},
        {"mod(-1,3)", 2.0},
        {"flr(-0.5)", -1.0},
        {"log(exp(2))", 2.0},
        {"ln(exp(2))", 2.0},
        {"not(0)", 1.0},
        {"atan2(1,1)", std::numbers::pi / 4},
        {"max(a,3)+min(a,3)", 5.0},
        {"2.5e-1*4", 1.0},
        {"f(3,4)", 14.0}, // the argument x shadows the state x; a is the parameter
        {"g(3)", 11.0},   // functions call other functions
        {"X+A", 2.0},     // names are case-insensitive; x(0) = 0
    }));
    INFO(formula);
    CHECK(evaluate(model, formula) == Approx(expected).epsilon(1e-14));
}

TEST_CASE("File order, fixed variables, derived parameters, init and arrays", "[muparser_reference]") {
    auto model = from_text("# t\n"
                           "par b=3, a = 2\n"
                           "!d=a*b\n"
                           "w=d+x1\n"
                           "x[1..3]'=w*[j]+x[j-1]\\\n"
                           "   *0\n"
                           "x0'=1\n"
                           "x2(0)=5\n"
                           "init x3=7\n"
                           "aux total=x1+x2+x3\n"
                           "global 1 {x1-1} {x1=0;a=a+1}\n"
                           "done\n"
                           "x9'=1\n");
    CHECK(model.state_names() == std::vector<std::string>{"x1", "x2", "x3", "x0"});
    CHECK(model.parameter_names() == std::vector<std::string>{"b", "a"});
    CHECK(model.default_parameters() == std::vector<double>{3.0, 2.0});
    CHECK(model.initial_state() == std::vector<double>{0.0, 5.0, 7.0, 0.0});
    double y[] = {0.5, 5.0, 7.0, 1.0};
    double p[] = {3.0, 2.0};
    double dydt[4];
    model.rhs(0.0, y, p, dydt);
    CHECK(dydt[0] == Approx(6.5 * 1));
    CHECK(dydt[1] == Approx(6.5 * 2));
    CHECK(dydt[2] == Approx(6.5 * 3));
    double total = 0.0;
    model.aux(0.0, y, p, &total);
    CHECK(total == 12.5);
    model.apply_event(0, 0.0, y, p);
    CHECK(y[0] == 0.0);
    CHECK(p[1] == 3.0);
    CHECK(model.derived_values(p) == std::vector<double>{9.0});
}

TEST_CASE("Errors are reported with their line", "[muparser_reference]") {
    const auto [text, expected] = GENERATE(table<std::string, std::string>({
        {"# t\nx'=y+\n", "muparser"},
        {"# t\nx'=1\npar a=2*3\n", "line 3"},
        {"# t\nx'=if(x>0)then(1)\n", "line 2"},
        {"# t\nx'=1\ninit z=1\n", "not a state"},
        {"# t\nx'=1\nx'=2\n", "line 3"},
        {"# t\nx(t+2)=x\n", "line 2"},
        {"# t\nx'=1\nglobal 1 x-1\n", "line 3"},
    }));
    std::string error;
    CHECK_FALSE(MuparserReference::from_text(text, &error));
    CHECK_THAT(error, Catch::Matchers::Contains(expected));
}

TEST_CASE("Every bundled model loads and is finite at its initial state", "[muparser_reference]") {
    for (const auto& entry : std::filesystem::directory_iterator(BIFSCOPE_MODELS_DIR)) {
        if (entry.path().extension() != ".ode") continue;
        INFO(entry.path().filename().string());
        // XPPAUT's array blocks (%[i..j] ... %) are outside this reader; test_model_vs_xppaut covers
        // the chains written with them
        std::ifstream text(entry.path());
        const std::string content((std::istreambuf_iterator<char>(text)), std::istreambuf_iterator<char>());
        if (content.find("\n%[") != std::string::npos) continue;
        auto model = load_bundled(entry.path().filename().string());
        const auto y = model.initial_state();
        const auto p = model.default_parameters();
        std::vector<double> dydt(y.size());
        model.rhs(0.0, y.data(), p.data(), dydt.data());
        for (double v : dydt)
            CHECK(std::isfinite(v));
    }
}
