// Generated C++ compiled into this test (see CMakeLists.txt: codegen_generate_headers writes one
// header per model and precision) against the compiler-free host evaluator built from the same
// Request: two independent back ends over the same formulas must agree at random points.
#include "bif/model_contract.h"
#include "engine/codegen/host_model.h"
#include "generated_registry.h"
#include "tests/codegen/sampling.h"
#include "tests/codegen/test_models.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

using bif::codegen::HostModel;
using bif::codegen::Precision;
using namespace bif::codegen_test;

namespace {

constexpr int kPoints = 1000;
constexpr double kRel = 1e-13;
constexpr double kAbs = 1e-15;

struct Mismatches {
    int count = 0;
    std::string first;
    template <class A, class B>
    void check(const char* what, const A* generated, const B* host, std::size_t n, double rel, double abs) {
        const int i = first_mismatch(generated, host, n, rel, abs);
        if (i < 0) return;
        if (count++ == 0) {
            std::ostringstream s;
            s.precision(17);
            s << what << "[" << i << "]: generated " << generated[i] << ", host " << host[i];
            first = s.str();
        }
    }
};

double scale_of(const std::vector<double>& v) {
    double s = 0.0;
    for (double x : v) {
        if (std::isfinite(x)) s = std::fmax(s, std::fabs(x));
    }
    return s;
}

template <class D>
void check_double(const std::string& key, bif::model::Model& m, const HostModel& host, std::size_t seed) {
    const std::size_t N = m.num_states(), S = m.num_param_slots(), E = host.event_count(),
                      A = host.aux_count(), O = host.observable_count();
    PointSampler sampler(m, seed);
    std::vector<double> y, p, ph, out_g(N * N + E + A + O + N), out_h(out_g.size());
    double t = 0.0;
    Mismatches bad;
    for (int point = 0; point < kPoints; ++point) {
        sampler.next(y, p, t);
        ph = p;
        D::complete_parameters(p.data());
        host.complete_parameters(ph.data());
        bad.check("complete_parameters", p.data(), ph.data(), S, kRel, kAbs);
        D::rhs(t, y.data(), p.data(), out_g.data());
        host.rhs(t, y.data(), p.data(), out_h.data());
        bad.check("rhs", out_g.data(), out_h.data(), N, kRel, kAbs);
        D::jacobian(t, y.data(), p.data(), out_g.data());
        host.jacobian(t, y.data(), p.data(), out_h.data());
        bad.check("jacobian", out_g.data(), out_h.data(), N * N, kRel, kAbs);
        D::time_derivative(t, y.data(), p.data(), out_g.data());
        host.time_derivative(t, y.data(), p.data(), out_h.data());
        bad.check("time_derivative", out_g.data(), out_h.data(), N, kRel, kAbs);
        D::events(t, y.data(), p.data(), out_g.data());
        host.events(t, y.data(), p.data(), out_h.data());
        bad.check("events", out_g.data(), out_h.data(), E, kRel, kAbs);
        D::aux(t, y.data(), p.data(), out_g.data());
        host.aux(t, y.data(), p.data(), out_h.data());
        bad.check("aux", out_g.data(), out_h.data(), A, kRel, kAbs);
        D::observables(t, y.data(), p.data(), out_g.data());
        host.observables(t, y.data(), p.data(), out_h.data());
        bad.check("observables", out_g.data(), out_h.data(), O, kRel, kAbs);
        for (std::size_t k = 0; k < E; ++k) {
            std::vector<double> yg = y, pg = p, yh = y, phk = p;
            const double stop_g = D::apply_reset(static_cast<int>(k), t, yg.data(), pg.data()) ? 1.0 : 0.0;
            const double stop_h = host.apply_reset(static_cast<int>(k), t, yh.data(), phk.data()) ? 1.0 : 0.0;
            bad.check("apply_reset stop", &stop_g, &stop_h, 1, 0.0, 0.0);
            bad.check("apply_reset y", yg.data(), yh.data(), N, kRel, kAbs);
            bad.check("apply_reset p", pg.data(), phk.data(), S, kRel, kAbs);
        }
    }
    INFO(key << ": " << bad.count << " mismatches; first: " << bad.first);
    CHECK(bad.count == 0);
}

// The float struct computes in float throughout: a few points, compared with the double host
// evaluator relative to each result vector's size.
template <class F>
void check_float(const std::string& key, bif::model::Model& m, const HostModel& host, std::size_t seed) {
    using real = typename F::real;
    static_assert(std::is_same_v<real, float>);
    const std::size_t N = m.num_states(), E = host.event_count(), A = host.aux_count(),
                      O = host.observable_count();
    PointSampler sampler(m, seed);
    std::vector<double> y, p, h(N * N + E + A + O + N);
    double t = 0.0;
    Mismatches bad;
    for (int point = 0; point < 5; ++point) {
        sampler.next(y, p, t);
        std::vector<float> yf(y.begin(), y.end()), pf(p.begin(), p.end()), g(h.size());
        F::complete_parameters(pf.data());
        host.complete_parameters(p.data());
        const float tf = static_cast<float>(t);
        auto compare = [&](const char* what, std::size_t n) {
            const double scale = scale_of(std::vector<double>(h.begin(), h.begin() + static_cast<long>(n)));
            bad.check(what, g.data(), h.data(), n, 2e-3, 1e-3 * scale + 1e-6);
        };
        F::rhs(tf, yf.data(), pf.data(), g.data());
        host.rhs(t, y.data(), p.data(), h.data());
        compare("rhs", N);
        F::jacobian(tf, yf.data(), pf.data(), g.data());
        host.jacobian(t, y.data(), p.data(), h.data());
        compare("jacobian", N * N);
        F::events(tf, yf.data(), pf.data(), g.data());
        host.events(t, y.data(), p.data(), h.data());
        compare("events", E);
        F::aux(tf, yf.data(), pf.data(), g.data());
        host.aux(t, y.data(), p.data(), h.data());
        compare("aux", A);
        F::observables(tf, yf.data(), pf.data(), g.data());
        host.observables(t, y.data(), p.data(), h.data());
        compare("observables", O);
    }
    INFO(key << " (float): " << bad.count << " mismatches; first: " << bad.first);
    CHECK(bad.count == 0);
}

// A model that declares nonfinite_persists must mean it: with any one state infinite or NaN (the
// others at sampled points), some component of rhs is not finite.
template <class M>
void check_nonfinite_persists(const std::string& key, bif::model::Model& m, std::size_t seed) {
    using real = typename M::real;
    if constexpr (M::nonfinite_persists) {
        PointSampler sampler(m, seed);
        std::vector<double> y, p;
        double t = 0.0;
        const real bad_values[] = {std::numeric_limits<real>::infinity(),
                                   -std::numeric_limits<real>::infinity(),
                                   std::numeric_limits<real>::quiet_NaN()};
        for (int point = 0; point < 20; ++point) {
            sampler.next(y, p, t);
            std::vector<real> yr(y.begin(), y.end()), pr(p.begin(), p.end()), f(y.size());
            M::complete_parameters(pr.data());
            for (std::size_t j = 0; j < yr.size(); ++j)
                for (const real bad : bad_values) {
                    std::vector<real> yj = yr;
                    yj[j] = bad;
                    M::rhs(real(t), yj.data(), pr.data(), f.data());
                    const bool stays =
                        std::any_of(f.begin(), f.end(), [](real v) { return !std::isfinite(v); });
                    INFO(key << ": state " << j << " = " << bad << " gives a finite next state");
                    REQUIRE(stays);
                }
        }
    }
}

template <class Pair>
void check_model(std::size_t index) {
    using D = typename Pair::Double;
    using F = typename Pair::Float;
    static_assert(bif::GeneratedModel<D> && bif::GeneratedModel<F>);
    static_assert(D::dimension() == D::num_states && F::event_count() == F::num_events);
    const std::string key = generated::keys[index];
    INFO(key);
    std::string error;
    std::optional<bif::model::Model> loaded = load_test_model(key, &error);
    REQUIRE(loaded);
    bif::model::Model m = std::move(*loaded);
    const HostModel host(make_test_request(m, Precision::Double, "Host"));
    CHECK(D::num_states == host.dimension());
    CHECK(D::num_params == host.param_count());
    CHECK(D::num_param_slots == host.param_slot_count());
    CHECK(D::num_events == host.event_count());
    CHECK(D::num_aux == host.aux_count());
    CHECK(D::num_observables == host.observable_count());
    for (int k = 0; k < host.event_count(); ++k)
        CHECK(D::event_direction(k) == host.event_direction(k));
    check_double<D>(key, m, host, 1000 + index);
    check_float<F>(key, m, host, 2000 + index);
    static_assert(D::nonfinite_persists == F::nonfinite_persists);
    check_nonfinite_persists<D>(key, m, 3000 + index);
    check_nonfinite_persists<F>(key, m, 4000 + index);
}

} // namespace

TEST_CASE("every test model loads", "[codegen][generated]") {
    for (const generated::Failure* f = generated::failures; f->key != nullptr; ++f) {
        FAIL_CHECK(f->key << " did not load: " << f->error);
    }
}

TEST_CASE("the bundled maps that cannot come back from infinity are known as such", "[codegen][generated]") {
    // logistic r x (1 - x), Henon 1 - a x^2 + y and b x, the coupled logistic map: products and
    // sums only; the standard map's sine and mod bring an infinite angle back (sin(inf) is NaN,
    // but mod, like a division, can make a finite value of an infinite one)
    std::map<std::string, bool> persists;
    constexpr std::size_t count = std::tuple_size_v<generated::Models>;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((persists[std::filesystem::path(generated::keys[I]).filename().string()] =
              std::tuple_element_t<I, generated::Models>::Double::nonfinite_persists),
         ...);
    }
    (std::make_index_sequence<count>{});
    CHECK(persists.at("logistic.ode"));
    CHECK(persists.at("henon.ode"));
    CHECK(persists.at("coupled_logistic.ode"));
    CHECK_FALSE(persists.at("standard_map.ode"));
}

TEST_CASE("generated double code agrees with the host evaluator; float code is close",
          "[codegen][generated]") {
    constexpr std::size_t count = std::tuple_size_v<generated::Models>;
    REQUIRE(count >= builtin_model_keys().size());
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        (check_model<std::tuple_element_t<I, generated::Models>>(I), ...);
    }
    (std::make_index_sequence<count>{});
}
