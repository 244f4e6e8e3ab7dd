// The symbolic Jacobian and df/dt of every model against central differences of the evaluator's
// right-hand side. Points where the difference quotient is not converged (a kink of heav, flr,
// mod, if() or abs within the step) are skipped; most points must be usable.
#include "engine/codegen/host_model.h"
#include "tests/codegen/model_keys.h"
#include "tests/codegen/sampling.h"

#include <catch2/catch.hpp>
#include <limits>

using bif::codegen::HostModel;
using bif::codegen::Precision;
using namespace bif::codegen_test;

namespace {

struct Counts {
    int checked = 0, skipped = 0, failed = 0;
    std::string first_failure;
};

double max_abs(const std::vector<double>& v) {
    double m = 0.0;
    for (double x : v)
        m = std::fmax(m, std::fabs(x));
    return m;
}

// Compares one column of derivatives (d f / d var) with central differences of f in var,
// where `eval(h, out)` evaluates f with var shifted by h.
template <class Eval>
void compare_column(const char* what, std::size_t column, const std::vector<double>& symbolic, double var,
                    Eval&& eval, Counts& c) {
    const std::size_t n = symbolic.size();
    const double h = 1e-6 * (1.0 + std::fabs(var));
    std::vector<double> up(n), down(n), up2(n), down2(n);
    eval(h, up);
    eval(-h, down);
    eval(h / 4, up2);
    eval(-h / 4, down2);
    const double f_scale = std::fmax(max_abs(up), max_abs(down));
    constexpr double eps = std::numeric_limits<double>::epsilon();
    for (std::size_t i = 0; i < n; ++i) {
        const double fd = (up[i] - down[i]) / (2 * h);
        const double fd2 = (up2[i] - down2[i]) / (h / 2);
        // rounding of the quotient, plus a relative term for the O(h^2) truncation
        const double noise = 50 * eps * f_scale / h;
        const double tol = 1e-6 * std::fmax(std::fabs(fd), std::fabs(symbolic[i])) + noise + 1e-10;
        if (!std::isfinite(fd) || !std::isfinite(fd2) || std::fabs(fd - fd2) > 4 * tol + 4 * noise) {
            ++c.skipped;
            continue;
        }
        ++c.checked;
        if (std::fabs(fd - symbolic[i]) > tol) {
            if (c.failed++ == 0) {
                c.first_failure = std::string(what) + " row " + std::to_string(i) + " column " +
                                  std::to_string(column) + ": symbolic " + std::to_string(symbolic[i]) +
                                  ", differences " + std::to_string(fd);
            }
        }
    }
}

// Above this many states a model is checked at a few points only (bundled: Pleiades has 28).
constexpr std::size_t big_model_states = 40;

} // namespace

TEST_CASE("Jacobian and df/dt agree with central differences", "[codegen][derivative]") {
    for (const std::string& key : all_model_keys()) {
        std::string error;
        auto loaded = load_test_model(key, &error);
        if (!loaded) continue; // reported by test_codegen_compiled
        bif::model::Model m = std::move(*loaded);
        const HostModel host(make_test_request(m, Precision::Double, "H"));
        const std::size_t N = m.num_states();
        PointSampler sampler(m, 77);
        std::vector<double> y, p, J(N * N), dfdt(N), column(N);
        double t = 0.0;
        Counts c;
        // the big chains (202 and 1000 states, a sparse Jacobian written entry by entry) at a few
        // points: each costs 2N right-hand sides of N terms
        const int points = N > big_model_states ? 3 : 200;
        for (int point = 0; point < points; ++point) {
            sampler.next(y, p, t);
            host.complete_parameters(p.data());
            host.jacobian(t, y.data(), p.data(), J.data());
            host.time_derivative(t, y.data(), p.data(), dfdt.data());
            for (std::size_t j = 0; j < N; ++j) {
                for (std::size_t i = 0; i < N; ++i)
                    column[i] = J[i * N + j];
                compare_column(
                    "J", j, column, y[j],
                    [&](double h, std::vector<double>& out) {
                        std::vector<double> shifted = y;
                        shifted[j] += h;
                        host.rhs(t, shifted.data(), p.data(), out.data());
                    },
                    c);
            }
            compare_column(
                "df/dt", 0, dfdt, t,
                [&](double h, std::vector<double>& out) { host.rhs(t + h, y.data(), p.data(), out.data()); },
                c);
        }
        INFO(key << ": " << c.checked << " entries checked, " << c.skipped << " skipped, " << c.failed
                 << " failed; first: " << c.first_failure);
        CHECK(c.failed == 0);
        CHECK(c.checked >= 4 * c.skipped);
    }
}

TEST_CASE("tangent second derivatives agree with central differences of J v",
          "[codegen][derivative][tangent]") {
    for (const std::string& key : all_model_keys()) {
        std::string error;
        auto loaded = load_test_model(key, &error);
        if (!loaded) continue;
        bif::model::Model m = std::move(*loaded);
        if (m.num_states() > big_model_states) continue; // N^3 work; the chains' J is checked above
        bif::codegen::Request request = make_test_request(m, Precision::Double, "H");
        request.tangent_derivatives = true;
        const HostModel host(request);
        REQUIRE(host.has_tangent_derivatives());
        const std::size_t N = m.num_states();
        PointSampler sampler(m, 78);
        std::vector<double> y, p, yv(2 * N), Hv(N * N), Jtv(N), J(N * N), column(N);
        double t = 0.0;
        Counts c;
        // (J(y) v)_i as the function whose derivatives hessian_vector and jacobian_time_vector are
        auto jv = [&](double at, const std::vector<double>& state, std::vector<double>& out) {
            host.jacobian(at, state.data(), p.data(), J.data());
            for (std::size_t i = 0; i < N; ++i) {
                out[i] = 0.0;
                for (std::size_t j = 0; j < N; ++j)
                    out[i] += J[i * N + j] * yv[N + j];
            }
        };
        for (int point = 0; point < 100; ++point) {
            sampler.next(y, p, t);
            host.complete_parameters(p.data());
            for (std::size_t i = 0; i < N; ++i) {
                yv[i] = y[i];
                yv[N + i] = std::sin(1.7 * double(i + 1) + point); // a fixed tangent vector
            }
            host.hessian_vector(t, yv.data(), p.data(), Hv.data());
            host.jacobian_time_vector(t, yv.data(), p.data(), Jtv.data());
            for (std::size_t l = 0; l < N; ++l) {
                for (std::size_t i = 0; i < N; ++i)
                    column[i] = Hv[i * N + l];
                compare_column(
                    "d(Jv)/dy", l, column, y[l],
                    [&](double h, std::vector<double>& out) {
                        std::vector<double> shifted = y;
                        shifted[l] += h;
                        jv(t, shifted, out);
                    },
                    c);
            }
            compare_column(
                "d(Jv)/dt", 0, Jtv, t, [&](double h, std::vector<double>& out) { jv(t + h, y, out); }, c);
        }
        INFO(key << ": " << c.checked << " entries checked, " << c.skipped << " skipped, " << c.failed
                 << " failed; first: " << c.first_failure);
        CHECK(c.failed == 0);
        CHECK(c.checked >= 4 * c.skipped);
    }
}

TEST_CASE("reset Jacobians and event gradients agree with central differences",
          "[codegen][derivative][saltation]") {
    int checked = 0; // over all models: the bundled impact models have resets
    for (const std::string& key : all_model_keys()) {
        std::string error;
        auto loaded = load_test_model(key, &error);
        if (!loaded) continue;
        bif::model::Model m = std::move(*loaded);
        if (m.num_states() > big_model_states) continue; // the big chains have no events
        const HostModel host(make_test_request(m, Precision::Double, "H"));
        const std::size_t N = m.num_states(), E = static_cast<std::size_t>(host.event_count());
        PointSampler sampler(m, 79);
        std::vector<double> y, p, DR(N * N), dRdt(N), grad(N + 1), g(E), column(N);
        double t = 0.0;
        Counts c;
        for (int point = 0; point < 50; ++point) {
            sampler.next(y, p, t);
            host.complete_parameters(p.data());
            for (std::size_t k = 0; k < E; ++k) {
                if (!host.reset_jacobian(int(k), t, y.data(), p.data(), DR.data(), dRdt.data())) continue;
                host.event_gradient(int(k), t, y.data(), p.data(), grad.data());
                // R(t, y): the state after the reset (parameters changed by it are not compared)
                auto reset = [&](double at, const std::vector<double>& state, std::vector<double>& out) {
                    std::vector<double> after = state, pk = p;
                    host.apply_reset(int(k), at, after.data(), pk.data());
                    out = after;
                };
                auto event = [&](double at, const std::vector<double>& state, std::vector<double>& out) {
                    host.events(at, state.data(), p.data(), g.data());
                    out.assign(1, g[k]);
                };
                for (std::size_t l = 0; l < N; ++l) {
                    for (std::size_t i = 0; i < N; ++i)
                        column[i] = DR[i * N + l];
                    auto shifted = [&, l](double h) {
                        std::vector<double> s = y;
                        s[l] += h;
                        return s;
                    };
                    compare_column(
                        "DR", l, column, y[l],
                        [&](double h, std::vector<double>& out) { reset(t, shifted(h), out); }, c);
                    compare_column(
                        "dg/dy", l, std::vector<double>{grad[l]}, y[l],
                        [&](double h, std::vector<double>& out) { event(t, shifted(h), out); }, c);
                }
                compare_column(
                    "dR/dt", 0, dRdt, t, [&](double h, std::vector<double>& out) { reset(t + h, y, out); },
                    c);
                compare_column(
                    "dg/dt", 0, std::vector<double>{grad[N]}, t,
                    [&](double h, std::vector<double>& out) { event(t + h, y, out); }, c);
            }
        }
        INFO(key << ": " << c.checked << " entries checked, " << c.skipped << " skipped, " << c.failed
                 << " failed; first: " << c.first_failure);
        CHECK(c.failed == 0);
        CHECK(c.checked >= 4 * c.skipped);
        checked += c.checked;
    }
    CHECK(checked > 1000);
}
