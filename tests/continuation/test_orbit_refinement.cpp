// Orbit refinement after a brute-force diagram (kernels/bif/study/orbit_refine.h through the CPU
// backend) on the MPGOS Duffing case, against independent references:
//   - engine/continuation's Newton on the stroboscopic map (orbit_stroboscopic, Dopri5 on the
//     evaluator, multipliers from factored QR products) from the same guesses: the same orbit and
//     the same multipliers, for orbits of period 1, 2, 4 and 8;
//   - Liouville's formula: the Jacobian's trace is -k everywhere, so the multipliers' product is
//     det M = exp(-k p T) exactly, whatever the orbit;
//   - an unstable orbit among the guesses (a diagram started on the saddle orbit near the hilltop,
//     recorded before it can leave) reported unstable, with the reference's multipliers;
//   - the real Hessenberg QR of the kernels against Eigen's eigenvalues on random matrices.
#include "../analysis/analysis_support.h"
#include "bif/study/orbit_refine.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_stroboscopic.h"
#include "engine/study/orbit_columns.h"
#include "engine/study/result_csv.h"
#include "engine/study/study_json.h"
#include "orbit_test_support.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

using namespace bif;
using namespace bif::cont;

namespace {

constexpr double pi = 3.14159265358979323846;

std::string duffing_study(double k_from, double k_to, int count, int transient, int recorded,
                          const std::string& initial = "", double period_tolerance = 1e-6) {
    char json[2048];
    std::snprintf(json, sizeof json, R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"b": 0.3, "delta": 1, "omega": 1}, %s
        "sweep": [{"parameter": "k", "from": %.17g, "to": %.17g, "count": %d}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": %d, "recorded_sections": %d, "record": ["y1", "y2"],
                     "orbits": {"refine": true, "max_period": 8, "tolerance": 1e-11,
                                "period_tolerance": %.17g}},
        "solver": {"method": "rkck45", "rtol": 1e-11, "atol": 1e-11, "initial_step": 1e-2},
        "precision": "double"})",
                  initial.c_str(), k_from, k_to, count, transient, recorded, period_tolerance);
    return json;
}

double column(const study::Result& r, const std::string& name, std::size_t system) {
    const study::NumberColumn* c = r.scalar(name);
    REQUIRE(c);
    return c->values[system];
}

// One system's refined orbit as the result holds it.
struct Refined {
    int status = 0, period = 0;
    Eigen::Vector2d point;
    std::complex<double> mu[2];
    double max_modulus = 0;
    bool stable = false;
};

Refined refined(const study::Result& r, std::size_t s) {
    Refined o;
    // NaN (a system without a value) as -1: converting NaN to int is undefined
    const auto whole = [](double v) { return std::isnan(v) ? -1 : int(v); };
    o.status = whole(column(r, "orbit_status", s));
    o.period = whole(column(r, "orbit_period", s));
    o.point = {column(r, "orbit_y1", s), column(r, "orbit_y2", s)};
    for (int k = 0; k < 2; ++k)
        o.mu[k] = {column(r, "orbit_mu" + std::to_string(k + 1) + "_re", s),
                   column(r, "orbit_mu" + std::to_string(k + 1) + "_im", s)};
    o.max_modulus = column(r, "orbit_max_modulus", s);
    o.stable = column(r, "orbit_stable", s) == 1.0;
    return o;
}

// engine/continuation's orbit of period p at damping k from `guess`.
struct Reference {
    std::vector<Eigen::VectorXd> points; // the orbit's p section points
    OrbitStability stability;
};

Reference reference_orbit(double k_value, int period, const Eigen::VectorXd& guess) {
    static const auto m = orbit_test::load_bundled("duffing.ode");
    std::vector<double> user = m.parameters;
    user[std::size_t(m.parameter("b"))] = 0.3;
    user[std::size_t(m.parameter("delta"))] = 1.0;
    user[std::size_t(m.parameter("omega"))] = 1.0;
    FlowSettings flow;
    flow.rtol = 1e-12;
    flow.atol = 1e-12;
    const ModelParameters parameters(*m.host, user, m.parameter("k"));
    const StroboscopicOrbit orbit(
        *m.host, parameters, [](const std::vector<double>&) { return 2 * pi; }, period, flow, 2);
    OrbitNewtonSettings newton;
    newton.tolerance = 1e-12;
    OrbitPoint p;
    std::string why;
    const bool solved = solve_orbit(orbit, guess, k_value, newton, p, why);
    INFO(why);
    REQUIRE(solved);
    Reference ref;
    ref.stability = p.stability;
    Eigen::VectorXd x = p.u;
    for (int j = 0; j < period; ++j) {
        ref.points.push_back(x);
        FlowResult next;
        REQUIRE(flow_span(*m.host, parameters.slots(k_value), 0.0, x, 2 * pi, 1, false, flow, next, why));
        x = next.end;
    }
    return ref;
}

double distance_to_orbit(const Eigen::Vector2d& point, const Reference& ref) {
    double best = INFINITY;
    for (const Eigen::VectorXd& q : ref.points)
        best = std::min(best, (q - point).lpNorm<Eigen::Infinity>());
    return best;
}

// The refined multipliers against the reference's, and Liouville's det M = exp(-k p 2 pi).
void check_multipliers(const Refined& o, const Reference& ref, double k_value) {
    REQUIRE(ref.stability.multipliers.size() == 2);
    for (int j = 0; j < 2; ++j) {
        const std::complex<double> want = ref.stability.multipliers[std::size_t(j)].value;
        INFO("multiplier " << j << ": " << o.mu[j] << " against " << want);
        // the monodromy's entries carry the integration's error (tolerance 1e-11, grown over the
        // periods), absolute: a multiplier far below 1 (a period-4 focus, |mu| = 0.005) to 1e-8
        CHECK(std::abs(o.mu[j] - want) <= 1e-7 * std::abs(want) + 1e-8);
    }
    const double liouville = std::exp(-k_value * o.period * 2 * pi);
    const std::complex<double> product = o.mu[0] * o.mu[1];
    INFO("product " << product << ", exp(-k p T) = " << liouville);
    CHECK(std::abs(product.real() - liouville) <= 1e-8 * liouville);
    CHECK(std::abs(product.imag()) <= 1e-8 * liouville);
    CHECK(o.max_modulus == Approx(std::abs(o.mu[0])).epsilon(1e-12));
    CHECK(o.stable == (o.max_modulus < 1.0));
}

} // namespace

TEST_CASE(
    "Duffing orbits of period 1, 2, 4 and 8 refined after the diagram agree with the continuation's Newton",
    "[orbit][refine]") {
    // k in [0.41, 0.44] in steps of 0.002: period 1 above the period-1 orbit's doubling (k = 0.4337),
    // period 2 down to 0.42, then the cascade's 4 (0.418) and 8 (0.416), and a period-3 window (0.414)
    const int count = analysis_test::sanitized ? 4 : 16;
    const auto resolved = analysis_test::resolve(duffing_study(0.41, 0.44, count, 600, 16));
    const study::Result r = analysis_test::run(*resolved, false);
    REQUIRE(study::first_orbit_column(r) >= 0);
    std::vector<int> seen;
    for (std::size_t s = 0; s < r.system_count; ++s) {
        const double k_value = r.axes[0].values[s];
        const Refined o = refined(r, s);
        INFO("k = " << k_value << ": status " << o.status << ", period " << o.period);
        if (o.status == int(study::OrbitStatus::NoPeriod)) continue;
        REQUIRE(o.status == int(study::OrbitStatus::Converged));
        // the guess: the diagram's last recorded row
        const std::size_t last = r.points.rows_filled[s] - 1;
        Eigen::VectorXd guess(2);
        guess << r.points.value(s, last, 0), r.points.value(s, last, 1);
        const Reference ref = reference_orbit(k_value, o.period, guess);
        CHECK(distance_to_orbit(o.point, ref) <= 1e-8);
        // the reported point is the orbit's section point with the smallest y1
        double lowest = INFINITY;
        for (const Eigen::VectorXd& q : ref.points)
            lowest = std::min(lowest, q[0]);
        CHECK(o.point[0] == Approx(lowest).margin(1e-8));
        check_multipliers(o, ref, k_value);
        CHECK(o.stable); // a diagram's attractor
        seen.push_back(o.period);
    }
    if (!analysis_test::sanitized)
        for (int period : {1, 2, 4, 8}) {
            INFO("period " << period);
            CHECK(std::count(seen.begin(), seen.end(), period) >= 1);
        }
}

TEST_CASE("An unstable orbit among the diagram's guesses is refined and reported unstable",
          "[orbit][refine]") {
    // the saddle orbit of period 1 near the hilltop y1 = 0, by the continuation's Newton
    const double k_value = 0.25;
    Eigen::VectorXd origin = Eigen::VectorXd::Zero(2);
    const Reference saddle = reference_orbit(k_value, 1, origin);
    REQUIRE_FALSE(saddle.stability.stable());
    // a diagram started on it: two recorded periods, before the integration's errors (1e-11, times
    // the unstable multiplier, about 250, per period) grow away from it; period 1 within 1e-4
    char initial[256];
    std::snprintf(initial, sizeof initial, R"("initial": {"y1": %.17g, "y2": %.17g},)", saddle.points[0][0],
                  saddle.points[0][1]);
    const auto resolved = analysis_test::resolve(duffing_study(k_value, k_value, 1, 0, 2, initial, 1e-4));
    for (bool native : {false, true}) {
        INFO((native ? "native" : "evaluator"));
        const study::Result r = analysis_test::run(*resolved, native);
        const Refined o = refined(r, 0);
        REQUIRE(o.status == int(study::OrbitStatus::Converged));
        CHECK(o.period == 1);
        CHECK(distance_to_orbit(o.point, saddle) <= 1e-9);
        CHECK_FALSE(o.stable);
        CHECK(o.max_modulus > 1.0);
        check_multipliers(o, saddle, k_value);
        // one orbit in the deduplicated view, with its columns in the CSV
        const std::vector<study::RefinedOrbit> orbits = study::distinct_orbits(*resolved, r);
        REQUIRE(orbits.size() == 1);
        CHECK_FALSE(orbits[0].stable);
        std::ostringstream csv;
        study::write_result_csv(csv, r, "{}");
        CHECK(csv.str().find(
                  "orbit_status,orbit_period,orbit_iterations,orbit_max_modulus,orbit_stable,orbit_y1,"
                  "orbit_y2,orbit_mu1_re,orbit_mu1_im,orbit_mu2_re,orbit_mu2_im") != std::string::npos);
    }
}

TEST_CASE("Systems on one orbit at one parameter value report it once", "[orbit][refine]") {
    // a continuation sweep: each k twice (up and down), both on the period-2 attractor, unique there
    std::string json = duffing_study(0.424, 0.432, 3, 400, 8);
    json.replace(json.find(R"("record": ["y1", "y2"],)"), 23,
                 R"("record": ["y1", "y2"], "continuation": true,)");
    const auto resolved = analysis_test::resolve(json);
    const study::Result r = analysis_test::run(*resolved, false);
    REQUIRE(r.system_count == 6);
    const std::vector<study::RefinedOrbit> orbits = study::distinct_orbits(*resolved, r);
    std::size_t converged = 0;
    for (std::size_t s = 0; s < r.system_count; ++s)
        converged += column(r, "orbit_status", s) == 1.0;
    int systems = 0;
    for (const study::RefinedOrbit& o : orbits) {
        systems += o.systems;
        for (const study::RefinedOrbit& other : orbits)
            if (&other != &o && other.parameters == o.parameters && other.period == o.period)
                CHECK(std::abs(other.point[0] - o.point[0]) + std::abs(other.point[1] - o.point[1]) > 1e-6);
    }
    // every converged system is counted once, and the way down found the way up's orbits again
    CHECK(std::size_t(systems) == converged);
    CHECK(converged == 6);
    CHECK(orbits.size() == 3);
}

TEST_CASE("The kernels' Hessenberg QR eigenvalues agree with Eigen's", "[orbit][eigen]") {
    std::mt19937 random(12345);
    std::uniform_real_distribution<double> uniform(-2.0, 2.0);
    for (int n = 3; n <= 6; ++n)
        for (int trial = 0; trial < 50; ++trial) {
            Eigen::MatrixXd a(n, n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    a(i, j) = uniform(random);
            const std::size_t size = std::size_t(n);
            std::vector<double> rowmajor(size * size), re(size), im(size);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    rowmajor[std::size_t(i * n + j)] = a(i, j);
            REQUIRE(
                ensemble::orbit_detail::hessenberg_eigenvalues<8>(rowmajor.data(), n, re.data(), im.data()));
            Eigen::EigenSolver<Eigen::MatrixXd> eig(a, false);
            for (int k = 0; k < n; ++k) {
                const std::complex<double> want = eig.eigenvalues()(k);
                double nearest = INFINITY;
                for (int j = 0; j < n; ++j)
                    nearest = std::min(
                        nearest,
                        std::abs(std::complex<double>(re[std::size_t(j)], im[std::size_t(j)]) - want));
                INFO("n = " << n << ", trial " << trial << ", eigenvalue " << want);
                CHECK(nearest <= 1e-10 * (1.0 + a.norm()));
            }
        }
}

TEST_CASE("A study that cannot refine its orbits says why, at the setting", "[orbit][refine][study]") {
    struct Case {
        std::string from, to, path, words;
    };
    const std::string base = duffing_study(0.41, 0.44, 4, 10, 16);
    const Case cases[] = {
        {R"("record": ["y1", "y2"])", R"("record": ["y1", "y1 + y2"])", "analysis.orbits.refine",
         "missing: y2"},
        {R"({"kind": "stroboscopic", "period": "2*pi/omega"})", R"({"kind": "event", "condition": "y2"})",
         "analysis.orbits.refine", "stroboscopic"},
        {R"("max_period": 8)", R"("max_period": 0)", "analysis.orbits.max_period", "at least 1"},
    };
    for (const Case& c : cases) {
        std::string json = base;
        REQUIRE(json.find(c.from) != std::string::npos);
        json.replace(json.find(c.from), c.from.size(), c.to);
        INFO(json);
        const study::StudyReadResult read = study::read_study_json(json);
        REQUIRE(read.study);
        const study::ResolveResult resolved = study::resolve_study(*read.study, BIFSCOPE_MODELS_DIR);
        bool found = false;
        for (const study::Problem& p : resolved.problems) {
            UNSCOPED_INFO(p.format());
            found = found || (p.path == c.path && p.message.find(c.words) != std::string::npos &&
                              p.severity == study::ProblemSeverity::Error);
        }
        CHECK(found);
        CHECK_FALSE(resolved.resolved);
    }
}
