// XPPAUT's sum(lo,hi)of(...) with shift(), the functions besselj/bessely/lgamma, tables (formula and
// file), bracket forms outside array lines and the `special` network operators: each checked
// against closed forms or a direct computation of XPPAUT's definition (simplenet.c, tabular.c).
#include "tests/model/model_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace bif::model;
using namespace bif::model::test;

namespace {

Model parsed(const std::string& text, const std::string& file = "test.ode") {
    ParseResult r = parse_model(text, file);
    INFO(all_diagnostics(r.diagnostics));
    REQUIRE(r.model.has_value());
    return std::move(*r.model);
}

double aux_value(const Model& m, const std::string& name, const std::vector<double>& y = {}, double t = 0.0) {
    const NamedFormula* a = aux_named(m, name);
    REQUIRE(a != nullptr);
    Point pt = initial_point(m);
    for (std::size_t i = 0; i < y.size(); ++i)
        pt.y[i] = y[i];
    return m.pool.evaluate(a->formula, pt.y.data(), pt.p.data(), t);
}

} // namespace

TEST_CASE("sum(lo,hi)of(...) unrolls over i' with closed-form values", "[model][sum]") {
    const Model m = parsed("x'=0\n"
                           "aux squares=sum(1,4)of(i'^2)\n"
                           "aux geometric=sum(0,10)of(0.5^i')\n"
                           "aux empty=sum(3,2)of(i')\n"
                           "aux truncated=sum(0.9,3.7)of(1)\n");
    CHECK(aux_value(m, "squares") == 30.0);
    CHECK(aux_value(m, "geometric") == Approx(2.0 - std::pow(0.5, 10)).epsilon(1e-15));
    CHECK(aux_value(m, "empty") == 0.0);
    CHECK(aux_value(m, "truncated") == 4.0); // bounds truncated like XPPAUT's (int): 0..3
}

TEST_CASE("shift(x,k) names the variable k places after x: states, then fixed variables", "[model][sum]") {
    const Model m = parsed("u[0..3]'=0\n"
                           "w[0..2]=10*[j]+u0\n"
                           "aux total=sum(0,3)of(shift(u0,i'))\n"
                           "aux weighted=sum(0,3)of(i'*shift(u0,i'))\n"
                           "aux into_fixed=shift(u3,2)\n"
                           "aux fixed=sum(0,2)of(shift(w0,i'))\n");
    const std::vector<double> y{1.0, 2.0, 3.0, 4.0};
    CHECK(aux_value(m, "total", y) == 10.0);
    CHECK(aux_value(m, "weighted", y) == 0 * 1 + 1 * 2 + 2 * 3 + 3 * 4);
    CHECK(aux_value(m, "into_fixed", y) == 10.0 + 1.0); // u3 -> w0 -> w1
    CHECK(aux_value(m, "fixed", y) == 0 + 10 + 20 + 3 * 1.0);
}

TEST_CASE("besselj, bessely and lgamma take XPPAUT's values", "[model][functions]") {
    const Model m = parsed("x'=0\n"
                           "aux j0=besselj(0,0)\n"
                           "aux j1=besselj(1.7,2.5)\n"
                           "aux y2=bessely(2.9,2.5)\n"
                           "aux lg=lgamma(5)\n"
                           "aux lgneg=lgamma(-2.5)\n");
    CHECK(aux_value(m, "j0") == 1.0);
    // XPPAUT 6.11 prints 0.49709409 and -0.38133585 (the order truncated), 8 digits
    CHECK(aux_value(m, "j1") == Approx(0.4970941024642741).epsilon(1e-14));
    CHECK(aux_value(m, "y2") == Approx(-0.3813358492).epsilon(1e-9));
    CHECK(aux_value(m, "lg") == Approx(std::log(24.0)).epsilon(1e-15));
    // Gamma(-2.5) = -8 sqrt(pi) / 15
    CHECK(aux_value(m, "lgneg") == Approx(std::log(8.0 * std::sqrt(M_PI) / 15.0)).epsilon(1e-14));
}

TEST_CASE("the symbolic derivatives of the new functions match finite differences", "[model][functions]") {
    Model m = parsed("x'=besselj(2,x)+bessely(1,x)+lgamma(x)\n"
                     "table f % 5 0 2 t^3\n"
                     "y'=f(x*y)\n"
                     "init x=1.3 y=0.7\n");
    for (std::size_t s = 0; s < m.states.size(); ++s) {
        const bif::sym::NodeId dfdx = m.pool.derivative(m.states[s].rhs, m.pool.state(0));
        const double h = 1e-6;
        const double y0[] = {1.3, 0.7}, y1[] = {1.3 + h, 0.7}, ym[] = {1.3 - h, 0.7};
        const double fd = (m.pool.evaluate(m.states[s].rhs, y1, nullptr, 0.0) -
                           m.pool.evaluate(m.states[s].rhs, ym, nullptr, 0.0)) /
                          (2 * h);
        CHECK(m.pool.evaluate(dfdx, y0, nullptr, 0.0) == Approx(fd).epsilon(1e-7));
    }
}

TEST_CASE("a formula table is XPPAUT's linear interpolation, extended beyond its ends", "[model][table]") {
    // t^2 at 0, 0.5, 1, 1.5, 2
    const Model m = parsed("x'=0\n"
                           "table sq % 5 0 2 t^2\n"
                           "aux at=sq(x)\n");
    REQUIRE(m.tables.size() == 1);
    const auto at = [&](double x) { return aux_value(m, "at", {x}); };
    CHECK(at(1.0) == 1.0);
    CHECK(at(0.75) == Approx(0.25 + 0.5 * 0.75).epsilon(1e-15)); // between 0.25 and 1
    CHECK(at(2.0) == 4.0);
    CHECK(at(2.5) == Approx(4.0 + (4.0 - 2.25) * 1.0).epsilon(1e-15)); // last segment extended
    CHECK(at(-0.25) == Approx(-0.25 * 0.5).epsilon(1e-15));            // first segment extended
    CHECK(at(-3.0) == Approx(-3.0 * 0.5).epsilon(1e-15));
    CHECK(std::isnan(at(std::nan(""))));
}

TEST_CASE("a table's formula may use parameters, numbers, functions and earlier tables", "[model][table]") {
    ParseResult r = parse_model("x'=0\n"
                                "f(u)=2*u\n"
                                "number two=2\n"
                                "table a % 3 0 1 f(t)+two\n"
                                "table b % 3 0 1 a(t)*k\n"
                                "par k=3\n"
                                "aux v=b(0.5)\n",
                                "t.ode");
    REQUIRE(r.model);
    CHECK(aux_value(*r.model, "v") == (2 * 0.5 + 2) * 3);
    const Diagnostic* w = find_diagnostic(r.diagnostics, "W-table-parameters");
    REQUIRE(w != nullptr);
    CHECK(w->line == 5);
    CHECK(find_diagnostic(parse_model("x'=0\ntable a % 3 0 1 b(t)\ntable b % 3 0 1 t\n", "t.ode").diagnostics,
                          "E-table") != nullptr);
}

TEST_CASE("a file table is read beside the .ode file", "[model][table]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("bifscope-table-" + std::to_string(getpid()));
    fs::create_directories(dir / "data");
    std::ofstream(dir / "data" / "ramp.tab") << "4\n0\n3\n0\n10\n20\n40\n";
    std::ofstream(dir / "data" / "spline.tab") << "s4\n0\n3\n0\n10\n20\n40\n";
    const Model m = parsed("x'=0\ntable r data/ramp.tab\naux v=r(x)\n", (dir / "m.ode").string());
    CHECK(aux_value(m, "v", {1.5}) == 15.0);
    CHECK(aux_value(m, "v", {2.5}) == 30.0);
    const ParseResult spline = parse_model("x'=0\ntable r data/spline.tab\n", (dir / "m.ode").string());
    const Diagnostic* e = find_diagnostic(spline.diagnostics, "E-table");
    REQUIRE(e != nullptr);
    CHECK(e->line == 2);
    CHECK(e->column == 9);
    fs::remove_all(dir);
}

TEST_CASE("brackets of numbers work on any line; int[...] is left to the Volterra check", "[model][array]") {
    const Model m = parsed("flux[1..3]=[j]*b[j]\n"
                           "b[0..2]'=flux[j+1]\n"
                           "b3'=-flux[3]\n");
    REQUIRE(m.states.size() == 4);
    CHECK(m.states[3].name == "b3");
    const double y[] = {1, 2, 3, 4};
    CHECK(m.pool.evaluate(m.states[3].rhs, y, nullptr, 0.0) == -12.0);
    const ParseResult volterra = parse_model("x'=1\nz(t)=int[.5]{exp(-t)#x}\n", "v.ode");
    CHECK(find_diagnostic(volterra.diagnostics, "E-volterra") != nullptr);
    CHECK(find_diagnostic(volterra.diagnostics, "E-array") == nullptr);
}

namespace {

// XPPAUT's conv (simplenet.c) computed directly: value[i] = sum_j w[j+ncon] y[k(i+j)].
double conv_reference(char type, const std::vector<double>& w, const std::vector<double>& y, long ncon,
                      long i) {
    const long n = static_cast<long>(y.size());
    double sum = 0.0;
    for (long j = -ncon; j <= ncon; ++j) {
        long k = i + j;
        if (type == 'e') {
            k = std::labs(k);
            if (k >= 2 * n) continue;
            if (k >= n) k = std::labs(2 * n - 2 - k);
        } else if (type == '0') {
            if (k < 0 || k >= n) continue;
        } else {
            k = (2 * n + k) % n;
        }
        sum += w[static_cast<std::size_t>(j + ncon)] * y[static_cast<std::size_t>(k)];
    }
    return sum;
}

// name + index, as array expansion writes it (appended: GCC 12 warns falsely on "e" + to_string)
std::string indexed(const char* name, long i) {
    std::string s = name;
    s += std::to_string(i);
    return s;
}

} // namespace

TEST_CASE("special conv with even, zero and periodic ends is XPPAUT's sum", "[model][special]") {
    const Model m = parsed("u[0..5]'=0\n"
                           "table w % 5 -2 2 1+t+t^2/10\n"
                           "special ze=conv(even,6,2,w,u0)\n"
                           "special zz=conv(0,6,2,w,u0)\n"
                           "special zp=conv(periodic,6,2,w,u0)\n"
                           "aux e[0..5]=ze([j])\n"
                           "aux z[0..5]=zz([j])\n"
                           "aux p[0..5]=zp([j])\n"
                           "aux outside=ze(6)+ze(-1)\n");
    const std::vector<double> y{1.5, -2.0, 0.25, 3.0, 7.0, -1.0};
    std::vector<double> w;
    for (int k = -2; k <= 2; ++k)
        w.push_back(1 + k + k * k / 10.0);
    for (long i = 0; i < 6; ++i) {
        INFO("i=" << i);
        CHECK(aux_value(m, indexed("e", i), y) == Approx(conv_reference('e', w, y, 2, i)).epsilon(1e-15));
        CHECK(aux_value(m, indexed("z", i), y) == Approx(conv_reference('0', w, y, 2, i)).epsilon(1e-15));
        CHECK(aux_value(m, indexed("p", i), y) == Approx(conv_reference('p', w, y, 2, i)).epsilon(1e-15));
    }
    CHECK(aux_value(m, "outside", y) == 0.0); // XPPAUT's network_value gives 0 outside 0..n-1
}

TEST_CASE("special mmult, sparse and fconv follow simplenet.c", "[model][special]") {
    const Model m = parsed("x[0..2]'=0\n"
                           "table w % 6 0 5 t+1\n"          // 1..6
                           "table idx % 4 0 3 2-flr(t/2)\n" // 2 2 1 1
                           "f(a,b)=a*10+b\n"
                           "special mm=mmult(3,2,w,x0)\n"
                           "special sp=sparse(2,2,w,idx,x0)\n"
                           "special fc=fconv(0,3,1,w,x0,x0,f)\n"
                           "aux m0=mm(0)\naux m1=mm(1)\n"
                           "aux s0=sp(0)\naux s1=sp(1)\n"
                           "aux c1=fc(1)\n");
    const std::vector<double> y{2.0, 3.0, 5.0};
    // mmult(n=3 inputs, m=2 outputs): out[j] = sum_i w[j*3+i] x[i]
    CHECK(aux_value(m, "m0", y) == 1 * 2 + 2 * 3 + 3 * 5);
    CHECK(aux_value(m, "m1", y) == 4 * 2 + 5 * 3 + 6 * 5);
    // sparse: out[i] = sum_j w[i*2+j] x[idx[i*2+j]]
    CHECK(aux_value(m, "s0", y) == 1 * 5 + 2 * 5);
    CHECK(aux_value(m, "s1", y) == 3 * 3 + 4 * 3);
    // fconv zero ends: out[1] = sum_j w[j+1] f(x[1+j], x[1])
    CHECK(aux_value(m, "c1", y) == 1 * (20 + 3) + 2 * (30 + 3) + 3 * (50 + 3));
}

TEST_CASE("network arguments must be numbers once arrays are expanded", "[model][special]") {
    const ParseResult r = parse_model("x'=z(x)\ntable w % 3 -1 1 1\nspecial z=conv(0,1,1,w,x)\n", "n.ode");
    const Diagnostic* e = find_diagnostic(r.diagnostics, "E-special");
    REQUIRE(e != nullptr);
    CHECK(e->line == 1);
    CHECK(e->column == 4);
}
