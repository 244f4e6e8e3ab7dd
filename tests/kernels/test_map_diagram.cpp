// The map-diagram pass (bif/study/map_diagram.h) against the section program it stands in for: the
// same systems run once through advance_sections alone and once through advance_program (the pass
// first) must leave the same rows, statuses, rows filled and final states, bit for bit. The studies
// cover what the pass takes (the logistic map's diagram, one and two recorded observables, no
// transient) and what it must leave to the section program: orbits that leave the bound in the
// transient or mid-record, overflow to infinity, a period other than 1, and too few steps allowed.
#include "bif/study/entry.h"
#include "test_models.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

using namespace bif::ensemble;

// Parts every map below shares: observables are the states and then the period, parameter `T`.
template <class Real, int States, int Params>
struct MapDefaults : testmodels::DefaultsFor<Real> {
    using real = Real;
    static constexpr int num_states = States;
    static constexpr int num_params = Params;
    static constexpr int num_param_slots = Params;
    static constexpr int num_observables = States + 1;
    static constexpr int dimension() { return States; }
    static constexpr int param_slot_count() { return Params; }
    static constexpr int observable_count() { return States + 1; }
    static void observables(real, const real* y, const real* p, real* o) {
        for (int i = 0; i < States; ++i)
            o[i] = y[i];
        o[States] = p[Params - 1];
    }
};

// x -> r x (1 - x); parameters r, T. Products only, declared as the code generator declares them:
// with no bound its chunks are proved by their last state (bif/study/map_iterates.h).
template <class Real>
struct Logistic : MapDefaults<Real, 1, 2> {
    static constexpr bool nonfinite_persists = true;
    static void rhs(Real, const Real* y, const Real* p, Real* f) { f[0] = p[0] * y[0] * (Real(1) - y[0]); }
};

// The same maps with the generated models' observable_state: their diagrams of one state store the
// state itself (StateRows) instead of choosing it among the observables.
template <class Map>
struct NamingStates : Map {
    static constexpr int observable_state(int k) { return k < Map::num_states ? k : -1; }
};

// (x, y) -> (1 - a x^2 + y, b x); parameters a, b, T. Beyond a ~ 1.43 (b = 0.3) orbits escape.
template <class Real>
struct Henon : MapDefaults<Real, 2, 3> {
    static constexpr bool nonfinite_persists = true;
    static void rhs(Real, const Real* y, const Real* p, Real* f) {
        f[0] = Real(1) - p[0] * y[0] * y[0] + y[1];
        f[1] = p[1] * y[0];
    }
};

// x -> g x^2 (and the time, so that t matters): overflows to infinity for |x| > 1/g.
template <class Real>
struct Squaring : MapDefaults<Real, 1, 2> {
    static void rhs(Real t, const Real* y, const Real* p, Real* f) {
        f[0] = p[0] * y[0] * y[0] + Real(1e-3) * std::sin(t);
    }
};

struct Setup {
    std::vector<double> initial, parameters;
    std::vector<double> swept; // axis 0, parameter slot 0
    int transient = 0, recorded = 1;
    std::vector<int> recorded_states{0};
    double bound = 0;
    long long max_steps = 100000000;
};

template <class Model>
struct Outputs {
    using real = typename Model::real;
    std::vector<real> axis, points, final_state;
    std::vector<unsigned int> carry;
    std::vector<int> status, rows;
    View<real> view;

    Outputs(const Setup& s, int columns) {
        const std::size_t n = s.swept.size(),
                          words = std::size_t(program_carry_words<program_sections, Model>());
        for (double value : s.swept)
            axis.push_back(real(value));
        points.assign(n * std::size_t(columns) * std::size_t(s.recorded),
                      std::numeric_limits<real>::quiet_NaN());
        final_state.assign(n * Model::num_states, real(0));
        carry.assign(n * words, 0u);
        status.assign(n, outcome_not_run);
        rows.assign(n, 0);
        view.stride = n;
        view.axis_values = axis.data();
        view.carry = carry.data();
        view.points = points.data();
        view.point_columns = columns;
        view.point_rows = s.recorded;
        view.status = status.data();
        view.rows_filled = rows.data();
        view.final_state = final_state.data();
    }
};

template <class Real>
bool same_bits(const std::vector<Real>& a, const std::vector<Real>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

// Runs the study both ways and compares; returns how many systems the pass took (and the rows in
// `points` when given).
template <class Model>
std::size_t check_pass_against_sections(const Setup& s, std::vector<typename Model::real>* points = nullptr) {
    using Iteration = methods::Iteration;
    const int states = Model::num_states;
    std::vector<double> tolerances(states, 1e-6);
    std::vector<int> observed = s.recorded_states, modes(s.recorded_states.size(), record_at_section);
    StudySpec spec;
    spec.analysis = analysis_bifurcation;
    spec.rtol = spec.atol = tolerances.data();
    spec.initial_step = 1;
    spec.adaptive = 0;
    spec.max_steps = s.max_steps;
    spec.bound = s.bound;
    spec.parameters = s.parameters.data();
    spec.parameter_count = int(s.parameters.size());
    spec.initial = s.initial.data();
    spec.axis_count = 1;
    spec.section_kind = section_stroboscopic;
    spec.period_observable = states; // parameter T
    spec.transient_sections = s.transient;
    spec.recorded_sections = s.recorded;
    spec.record_count = int(observed.size());
    spec.record_observable = observed.data();
    spec.record_mode = modes.data();
    const Model m{};
    const Block<Model> b = make_block(m, spec);
    const int columns = spec.record_count;

    Outputs<Model> sections(s, columns), passed(s, columns);
    std::size_t taken = 0;
    for (index_t system = 0; system < s.swept.size(); ++system) {
        while (!advance_sections<Model, Iteration, 0>(m, b, sections.view, system, slice_steps)) {
        }
        taken +=
            map_diagram_applies(b) && map_diagram_system(m, b, passed.view, system, map_diagram_iterates);
        while (!advance_program<program_sections, Iteration>(m, b, passed.view, system, slice_steps)) {
        }
    }
    CHECK(passed.status == sections.status);
    CHECK(passed.rows == sections.rows);
    CHECK(same_bits(passed.points, sections.points));
    CHECK(same_bits(passed.final_state, sections.final_state));
    if (points) *points = passed.points;
    return taken;
}

std::vector<double> spread(double from, double to, int count) {
    std::vector<double> values;
    for (int i = 0; i < count; ++i)
        values.push_back(from + (to - from) * i / (count - 1));
    return values;
}

// The logistic diagram over r in [2.5, 4] from x = 0.2, a section at every iterate (T = 1).
Setup logistic_diagram(int transient, int recorded) {
    Setup s;
    s.initial = {0.2};
    s.parameters = {3.0, 1.0};
    s.swept = spread(2.5, 4.0, 41);
    s.transient = transient;
    s.recorded = recorded;
    return s;
}

// The Henon diagram over `count` values of a in [from, to] (b = 0.3) from (0.1, 0.1).
Setup henon_diagram(double from, double to, int count, int transient, int recorded) {
    Setup s;
    s.initial = {0.1, 0.1};
    s.parameters = {1.4, 0.3, 1.0};
    s.swept = spread(from, to, count);
    s.transient = transient;
    s.recorded = recorded;
    return s;
}

template <class Real>
void check_logistic() {
    Setup s = logistic_diagram(1000, 300);
    CHECK(check_pass_against_sections<Logistic<Real>>(s) == s.swept.size());
    s.transient = 0; // every iterate recorded
    CHECK(check_pass_against_sections<Logistic<Real>>(s) == s.swept.size());
    s.parameters = {3.0, 2.0}; // sections every second iterate: all left to the section program
    CHECK(check_pass_against_sections<Logistic<Real>>(s) == 0);
    s.parameters = {3.0, 1.0};
    s.max_steps = 299; // fewer steps than iterates: each system ends with its budget spent
    CHECK(check_pass_against_sections<Logistic<Real>>(s) == 0);
}

} // namespace

TEST_CASE("the map-diagram pass leaves the logistic diagram the section program leaves", "[map_diagram]") {
    SECTION("double") {
        check_logistic<double>();
    }
    SECTION("float") {
        check_logistic<float>();
    }
}

TEST_CASE("a diagram of one state stores the state the observables would give", "[map_diagram]") {
    const Setup logistic = logistic_diagram(100, 300);
    std::vector<double> chosen, stored;
    check_pass_against_sections<Logistic<double>>(logistic, &chosen);
    check_pass_against_sections<NamingStates<Logistic<double>>>(logistic, &stored);
    CHECK(same_bits(chosen, stored));
    // y of the Henon map (the second of two states), orbits that leave the bound mid-record included
    Setup henon = henon_diagram(1.3, 1.6, 31, 2, 200);
    henon.recorded_states = {1};
    henon.bound = 50;
    std::vector<float> chosen_y, stored_y;
    check_pass_against_sections<Henon<float>>(henon, &chosen_y);
    check_pass_against_sections<NamingStates<Henon<float>>>(henon, &stored_y);
    CHECK(same_bits(chosen_y, stored_y));
    CHECK(std::count_if(stored_y.begin(), stored_y.end(), [](float v) { return std::isnan(v); }) > 0);
}

TEST_CASE("the map-diagram pass leaves escaping and overflowing orbits to the section program",
          "[map_diagram]") {
    Setup henon = henon_diagram(1.0, 1.6, 61, 200, 400); // bounded orbits, then orbits that leave the bound
    henon.recorded_states = {0, 1};
    henon.bound = 50;
    const std::size_t taken = check_pass_against_sections<Henon<double>>(henon);
    CHECK(taken > 20);
    CHECK(taken < henon.swept.size());
    // leaving mid-record: a short transient, so that orbits leave while rows are written
    henon.transient = 2;
    henon.swept = spread(1.45, 1.6, 31);
    check_pass_against_sections<Henon<double>>(henon);
    check_pass_against_sections<Henon<float>>(henon);
    // no bound: escaping orbits overflow to infinity inside chunks proved by their last state
    henon.bound = 0;
    CHECK(check_pass_against_sections<Henon<double>>(henon) < henon.swept.size());
    check_pass_against_sections<Henon<float>>(henon);

    Setup squaring; // no bound: x overflows to infinity for g x0 > 1
    squaring.initial = {0.5};
    squaring.parameters = {1.0, 1.0};
    squaring.swept = spread(0.5, 2.5, 21);
    squaring.transient = 10;
    squaring.recorded = 100;
    const std::size_t finite = check_pass_against_sections<Squaring<double>>(squaring);
    CHECK(finite > 0);
    CHECK(finite < squaring.swept.size());
    check_pass_against_sections<Squaring<float>>(squaring);
}
