// The CPU backend's own promises: the compiler-free evaluator and the native path compute the same
// results; a cancel is honoured within 100 ms; a system that blows up gets a failure status while
// its neighbours are exact; progress only grows; the result says which code path ran.
#include "analysis_support.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

using namespace bif;

namespace {

const char* duffing_bifurcation = R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
    "parameters": {"b": 0.3, "delta": 1, "omega": 1},
    "sweep": [{"parameter": "k", "from": 0.212, "to": 0.222, "count": 6}],
    "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                 "transient_sections": 200, "recorded_sections": 6,
                 "record": ["y1", "y2", {"expression": "y1", "name": "max y1", "value": "max_between"}]},
    "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}})";

} // namespace

TEST_CASE("evaluator and native code agree", "[engine][cpu]") {
    struct Case {
        const char* what;
        std::string json;
    };
    const Case cases[] = {
        {"bifurcation, periodic Duffing", duffing_bifurcation},
        {"van der Pol spectrum, rodas4", R"({"bifscope_study": 1, "model": {"path": "vanderpol.ode"},
            "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 20, "averaging_time": 100,
                         "renormalization_interval": 1},
            "solver": {"method": "rodas4", "rtol": 1e-8, "atol": 1e-8}})"},
        {"relief valve map with accessories and event counts", R"({"bifscope_study": 1,
            "model": {"path": "relief_valve.ode"}, "parameters": {"kappa": 1.25, "delta": 10, "beta": 20},
            "sweep": [{"parameter": "q", "from": 3, "to": 8, "count": 3}, {"parameter": "r", "from": 0.8, "to": 0.8, "count": 1}],
            "analysis": {"kind": "map", "section": {"kind": "event", "condition": "y2", "direction": "falling"},
                         "transient_sections": 50, "recorded_sections": 8, "count_events": true,
                         "accessories": [{"name": "top", "expression": "y1", "reduce": "max", "over": "sections"},
                                         {"name": "low", "expression": "y1", "reduce": "min", "over": "steps"},
                                         {"name": "mean", "expression": "y3", "reduce": "mean", "over": "steps"}]},
            "solver": {"method": "dopri5", "rtol": 1e-10, "atol": 1e-10}})"},
        {"Lorenz trajectory, rkc", R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
            "analysis": {"kind": "trajectory", "t_end": 2, "output_count": 21},
            "solver": {"method": "rkc", "rtol": 1e-9, "atol": 1e-9}})"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        const auto s = analysis_test::resolve(c.json);
        const study::Result native = analysis_test::run(*s, true, 2);
        const study::Result evaluator = analysis_test::run(*s, false, 2);
        CHECK(evaluator.info.code_path == study::CodePath::Evaluator);
        if (native.info.code_path != study::CodePath::NativeCompiled) continue;
        REQUIRE(native.status == evaluator.status);
        REQUIRE(native.points.rows_filled == evaluator.points.rows_filled);
        for (std::size_t i = 0; i < native.points.values.size(); ++i)
            if (!std::isnan(native.points.values[i]))
                CHECK(evaluator.points.values[i] ==
                      Approx(native.points.values[i]).epsilon(1e-7).margin(1e-9));
        REQUIRE(native.scalars.size() == evaluator.scalars.size());
        for (std::size_t c = 0; c < native.scalars.size(); ++c)
            for (std::size_t i = 0; i < native.system_count; ++i) {
                INFO(native.scalars[c].name << " of system " << i);
                const double a = native.scalars[c].values[i], b = evaluator.scalars[c].values[i];
                CHECK(std::isnan(a) == std::isnan(b));
                // exponents near zero are compared absolutely: the evaluator's spectrum carries zero
                // tangent vectors up to its capacity, which dilutes the RMS error norm a little
                if (!std::isnan(a) && native.scalars[c].name != "lambda_change")
                    CHECK(b == Approx(a).epsilon(1e-6).margin(1e-6));
            }
    }
}

TEST_CASE("a cancel is honoured within 100 ms and keeps what was done", "[engine][cpu]") {
    for (const bool native : {true, false}) {
        INFO((native ? "native" : "evaluator"));
        // far more work than the test waits for
        const auto s = analysis_test::resolve(R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
            "parameters": {"b": 0.3, "delta": 1, "omega": 1},
            "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 20000}],
            "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                         "transient_sections": 1024, "recorded_sections": 32},
            "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9}})");
        auto backend = cpu::make_cpu_backend(analysis_test::backend_options(native));
        std::atomic<bool> cancel{false};
        std::mutex mutex;
        std::vector<std::size_t> done;
        study::RunControl control(
            cancel,
            [&](const study::Progress& p) {
                std::lock_guard lock(mutex);
                done.push_back(p.systems_done);
            },
            2, 0, std::chrono::milliseconds(1));
        study::Result result;
        std::chrono::steady_clock::time_point returned;
        std::thread worker([&] {
            result = backend->run(*s, control);
            returned = std::chrono::steady_clock::now();
        });
        // let it pass the compile and run a while
        for (int i = 0; i < 600; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            std::lock_guard lock(mutex);
            if (!done.empty() && done.back() > 0) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const auto cancelled = std::chrono::steady_clock::now();
        cancel.store(true);
        worker.join();
        const double latency = std::chrono::duration<double>(returned - cancelled).count();
        CHECK(latency < 0.1);
        CHECK_FALSE(result.info.complete);
        CHECK(result.count(study::SystemStatus::NotRun) > 0);
        CHECK(result.count(study::SystemStatus::Ok) > 0);
        for (std::size_t i = 0; i < result.system_count; ++i)
            if (result.status[i] == study::SystemStatus::Ok) CHECK(result.points.rows_filled[i] == 32);
        std::lock_guard lock(mutex);
        CHECK(std::is_sorted(done.begin(), done.end()));
    }
}

TEST_CASE("a system that blows up fails alone; its neighbours are exact", "[engine][cpu]") {
    // x' = a x^2, x(0) = 1: x(t) = 1 / (1 - a t), infinite at t = 1/a for a > 0
    for (const bool native : {true, false}) {
        INFO((native ? "native" : "evaluator"));
        const study::Result r = analysis_test::run(R"({"bifscope_study": 1,
            "model": {"text": "x'=a*x^2\npar a=0\ninit x=1\ndone\n"},
            "sweep": [{"parameter": "a", "from": -1, "to": 1, "count": 9}],
            "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                         "recorded_sections": 4, "record": ["x"]},
            "solver": {"method": "dopri5", "rtol": 1e-10, "atol": 1e-12}})",
                                                   native);
        for (std::size_t s = 0; s < r.system_count; ++s) {
            const double a = r.axes[0].values[s];
            INFO("a = " << a << ", status " << study::name_of(r.status[s]));
            if (a < 0.2) {
                REQUIRE(r.status[s] == study::SystemStatus::Ok);
                for (std::size_t n = 1; n <= 4; ++n)
                    CHECK(r.points.value(s, n - 1, 0) == Approx(1 / (1 - a * double(n))).epsilon(1e-8));
            } else if (a > 0.3) {
                CHECK(study::is_failure(r.status[s]));
                // the section points before the blow-up are kept
                const std::size_t before = std::size_t(std::ceil(1 / a)) - 1;
                CHECK(r.points.rows_filled[s] == before);
                for (std::size_t n = 1; n <= before; ++n)
                    CHECK(r.points.value(s, n - 1, 0) == Approx(1 / (1 - a * double(n))).epsilon(1e-8));
            }
        }
    }
}

TEST_CASE("continuation: each system starts where its neighbour ended", "[engine][cpu]") {
    // x' = -(x - a), one section at t = 1: x(1) = a + (x_start - a) / e, x_start the final state of the
    // system before it in the chain (up: a = 0, 1, 2, 3, then down: 3, 2, 1, 0), the model's x = 0 first.
    const study::Result r = analysis_test::run(R"({"bifscope_study": 1,
        "model": {"text": "x'=-(x-a)\npar a=0\ninit x=0\ndone\n"},
        "sweep": [{"parameter": "a", "from": 0, "to": 3, "count": 4}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                     "recorded_sections": 1, "record": ["x"], "continuation": true},
        "solver": {"method": "dopri5", "rtol": 1e-12, "atol": 1e-12}})");
    REQUIRE(r.system_count == 8);
    const auto& a = r.axes[0].values;
    double x = 0;
    for (std::size_t s = 0; s < 8; ++s) {
        x = a[s] + (x - a[s]) / std::exp(1.0);
        REQUIRE(r.status[s] == study::SystemStatus::Ok);
        CHECK(r.points.value(s, 0, 0) == Approx(x).epsilon(1e-9));
    }
    CHECK(a[4] == 3);
    CHECK(r.scalar("direction")->values[0] == 1);
    CHECK(r.scalar("direction")->values[7] == -1);
}

TEST_CASE("the same study gives the same numbers on any thread count", "[engine][cpu]") {
    // A slice restarts the stepper, which can change the last digits downstream; slices are counted in
    // steps, not timed, so neither the thread count nor the machine's load may show in the result.
    const std::string json = R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 6},
                  {"parameter": "b", "from": 0.25, "to": 0.35, "count": 4}],
        "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 60, "recorded_sections": 40, "detect_period": true,
                     "largest_exponent": true},
        "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8}})";
    const study::Result one = analysis_test::run(json, true, 1);
    const study::Result two = analysis_test::run(json, true, 2);
    REQUIRE(one.scalars.size() == two.scalars.size());
    for (std::size_t c = 0; c < one.scalars.size(); ++c)
        for (std::size_t i = 0; i < one.system_count; ++i) {
            const double a = one.scalars[c].values[i], b = two.scalars[c].values[i];
            INFO(one.scalars[c].name << " of system " << i);
            CHECK(((std::isnan(a) && std::isnan(b)) || a == b));
        }
}
