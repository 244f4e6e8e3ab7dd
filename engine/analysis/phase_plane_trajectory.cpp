#include "engine/analysis/phase_plane_trajectory.h"

#include "bif/integrate.h"
#include "bif/steppers/dopri5.h"

#include <algorithm>
#include <cmath>

namespace bif::analysis {

namespace {

// The planar system as a model of kernels/bif/model_contract.h, run in time s >= 0 at model time
// t0 + sign * s: backward integration is forward integration of -f.
struct PlanarModel {
    using real = double;
    static constexpr int num_states = 2;
    [[maybe_unused]] static constexpr int num_params = 0;
    static constexpr int num_param_slots = 0;
    static constexpr int num_events = 0;
    [[maybe_unused]] static constexpr int num_aux = 0;
    [[maybe_unused]] static constexpr int num_observables = 0;
    static constexpr int dimension() { return 2; }
    static constexpr int event_count() { return 0; }
    static constexpr int param_slot_count() { return 0; }
    static constexpr int aux_count() { return 0; }
    static constexpr int observable_count() { return 0; }

    const PlanarSystem* system;
    double sign;

    static void complete_parameters(real*) {}
    void rhs(real s, const real* y, const real*, real* f) const {
        system->field_at(system->time() + sign * s, y[0], y[1], f);
        f[0] *= sign;
        f[1] *= sign;
    }
    void jacobian(real, const real* y, const real*, real* J) const {
        system->jacobian(y[0], y[1], J);
        for (int k = 0; k < 4; ++k)
            J[k] *= sign;
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0.0; }
    static void events(real, const real*, const real*, real*) {}
    static int event_direction(int) { return 1; }
    static bool apply_reset(int, real, real*, real*) { return false; }
    static void aux(real, const real*, const real*, real*) {}
    static void observables(real, const real*, const real*, real*) {}
};

// Collects each accepted step's end, with dense samples inside steps longer than `spacing` in the
// plane so that the drawn curve follows the solution rather than its chords.
struct Recorder {
    double spacing;
    std::vector<PlanePoint>* points;
    std::vector<double>* times;

    template <class View>
    void on_step(const View& v) {
        const double length = std::hypot(v.y1[0] - v.y0[0], v.y1[1] - v.y0[1]);
        // clamped as a double: a step that ends far out (before the bound stops it) must not overflow int
        const double wanted = std::ceil(length / spacing);
        const int pieces = wanted >= 1.0 && wanted <= 32.0 ? static_cast<int>(wanted)
                           : wanted > 32.0                 ? 32
                                                           : 1;
        double y[2];
        for (int k = 1; k < pieces; ++k) {
            const double t = v.t0 + (v.t1 - v.t0) * k / pieces;
            v.state_at(t, y);
            points->push_back({y[0], y[1]});
            times->push_back(t);
        }
        points->push_back({v.y1[0], v.y1[1]});
        times->push_back(v.t1);
    }
    template <class Hit>
    void on_event(const Hit&) {}
};

void integrate_one_way(const PlanarSystem& system, PlanePoint start, double sign,
                       const PlanarTrajectorySettings& s, std::vector<PlanePoint>& points,
                       std::vector<double>& times) {
    const PlanarModel model{&system, sign};
    const double y0[2] = {start.x, start.y};
    auto state = make_state<PlanarModel>(0.0, y0, 2);
    Dopri5<PlanarModel> stepper;
    auto settings = make_settings<double, 2>(s.rtol, s.atol);
    const PlaneWindow& w = s.window;
    const double extent = std::max({std::abs(w.x_from), std::abs(w.x_to), std::abs(w.y_from),
                                    std::abs(w.y_to), w.x_to - w.x_from, w.y_to - w.y_from});
    settings.bound = s.bound > 0 ? s.bound : 10 * extent;
    settings.max_steps = 200000;
    EventSettings<double, 0> events;
    Recorder recorder{std::hypot(w.x_to - w.x_from, w.y_to - w.y_from) / 400, &points, &times};
    double no_parameters[1] = {0.0};
    integrate(model, stepper, state, no_parameters, s.duration, settings, events, recorder);
}

} // namespace

PlanarTrajectory integrate_trajectory(const PlanarSystem& system, PlanePoint start,
                                      const PlanarTrajectorySettings& s) {
    PlanarTrajectory out;
    out.start = start;
    std::vector<PlanePoint> back, forth;
    std::vector<double> back_t, forth_t;
    if (s.duration > 0) {
        integrate_one_way(system, start, -1.0, s, back, back_t);
        integrate_one_way(system, start, 1.0, s, forth, forth_t);
    }
    out.points.assign(back.rbegin(), back.rend());
    for (auto it = back_t.rbegin(); it != back_t.rend(); ++it)
        out.t.push_back(-*it);
    out.start_index = out.points.size();
    out.points.push_back(start);
    out.t.push_back(0.0);
    out.points.insert(out.points.end(), forth.begin(), forth.end());
    out.t.insert(out.t.end(), forth_t.begin(), forth_t.end());
    return out;
}

} // namespace bif::analysis
