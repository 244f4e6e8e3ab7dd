// The section program's fast map loop (bif/study/map_iterates.h) against the plain loop it replaces:
// iterate, test every component against the limit, stop before the first iterate that leaves. The
// maps chosen leave the limit and come back within one untested chunk, sit exactly at the limit, and
// turn into infinities and NaNs, in float and double; the fast loop must stop at the same iterate
// with the same state, bit for bit.
#include "bif/study/map_iterates.h"
#include "test_models.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace {

// Two components: x follows a rotation scaled by p[0] (so |x| swings up to p[0] and back every few
// iterates), y = p[1] * y * y grows to infinity (p[1] > 1, |y| > 1) and on through inf * inf.
template <class Real>
struct Swinging : testmodels::Defaults {
    using real = Real;
    static constexpr int num_states = 2;
    static constexpr int num_params = 3;
    static constexpr int num_param_slots = 3;
    static constexpr int dimension() { return 2; }
    static void rhs(real t, const real* y, const real* p, real* f) {
        f[0] = p[0] * std::sin(real(0.9) * t + p[2]);
        f[1] = p[1] * y[1] * y[1];
    }
};

// The reference: one iterate at a time, each component tested.
template <class Model, class Real>
long long plain_iterates(const Model& m, const Real* p, Real t0, Real limit, Real* y, int section,
                         long long count) {
    long long used = 0;
    for (; used < count; ++used) {
        Real next[2];
        m.rhs(t0 + Real(section + int(used)), y, p, next);
        bool inside = true;
        for (int i = 0; i < 2; ++i)
            inside = inside && std::fabs(next[i]) <= limit;
        if (!inside) break;
        y[0] = next[0], y[1] = next[1];
    }
    return used;
}

template <class Real>
void check_against_plain(Real amplitude, Real growth, Real y1, Real limit, int section, long long count) {
    using M = Swinging<Real>;
    const M m{};
    const Real p[3] = {amplitude, growth, Real(0.3)};
    const Real t0 = Real(0.5);
    const bif::ensemble::MapIterates<M> fast{m, p, t0, limit, bif::magnitude_key_inside(limit), 2};
    Real y_fast[2] = {Real(0), y1}, y_plain[2] = {Real(0), y1};
    const long long taken = fast.unrecorded(y_fast, section, count);
    const long long expected = plain_iterates(m, p, t0, limit, y_plain, section, count);
    CAPTURE(amplitude, growth, y1, limit, section, count);
    REQUIRE(taken == expected);
    CHECK(y_fast[0] == y_plain[0]);
    CHECK(y_fast[1] == y_plain[1]);
}

// A visit that keeps rows as SectionProgram's RecordedRows does (a row per iterate, rewound and
// blanked as the fast loop asks), and counts every visit: retaken chunks are visited twice.
template <class Real>
struct RowsKept {
    std::vector<Real> rows; // x of iterate k at rows[k - 1], NaN where none is filled
    long long next = 0;
    long long visits = 0;
    explicit RowsKept(long long count) : rows(std::size_t(count), std::numeric_limits<Real>::quiet_NaN()) {}
    void operator()(long long taken, const Real* y) {
        REQUIRE(taken == next + 1);
        rows.at(std::size_t(next++)) = y[0];
        ++visits;
    }
    void rewind(long long taken) { next = taken; }
    void clear(long long from, long long to) {
        for (long long k = from; k < to; ++k)
            rows.at(std::size_t(k)) = std::numeric_limits<Real>::quiet_NaN();
    }
};

// The rows the fast loop leaves against the plain loop's iterates: equal up to where it stopped,
// missing (NaN) after. Returns the visits.
template <class Real>
long long check_rows_against_plain(Real amplitude, Real growth, Real y1, Real limit, int section,
                                   long long count) {
    using M = Swinging<Real>;
    const M m{};
    const Real p[3] = {amplitude, growth, Real(0.3)};
    const Real t0 = Real(0.5);
    const bif::ensemble::MapIterates<M> fast{m, p, t0, limit, bif::magnitude_key_inside(limit), 2};
    Real y_fast[2] = {Real(0), y1}, y_plain[2] = {Real(0), y1};
    RowsKept<Real> kept(count);
    const long long taken = fast.iterates(y_fast, section, count, kept);
    CAPTURE(amplitude, growth, y1, limit, section, count);
    REQUIRE(taken == plain_iterates(m, p, t0, limit, y_plain, section, count));
    Real y_step[2] = {Real(0), y1};
    for (long long k = 0; k < count; ++k) {
        if (k < taken) {
            plain_iterates(m, p, t0, limit, y_step, section + int(k), 1);
            REQUIRE(kept.rows[std::size_t(k)] == y_step[0]);
        } else {
            REQUIRE(std::isnan(kept.rows[std::size_t(k)]));
        }
    }
    CHECK(y_fast[0] == y_plain[0]);
    CHECK(y_fast[1] == y_plain[1]);
    return kept.visits;
}

template <class Real>
struct LogisticMap : testmodels::Defaults {
    using real = Real;
    static constexpr int num_states = 1;
    static constexpr int num_params = 1;
    static constexpr int num_param_slots = 1;
    static constexpr int dimension() { return 1; }
    static void rhs(real, const real* y, const real* p, real* f) { f[0] = p[0] * y[0] * (real(1) - y[0]); }
};

// Visits of the fast loop over the chaotic logistic map (values in (0, 1)), every row checked
// against the plain recurrence.
template <class Real>
long long logistic_visits(long long count) {
    const LogisticMap<Real> m{};
    const Real p[1] = {Real(3.9)};
    const Real limit = std::numeric_limits<Real>::max();
    const bif::ensemble::MapIterates<LogisticMap<Real>> fast{
        m, p, Real(0), limit, bif::magnitude_key_inside(limit), 1};
    Real y[1] = {Real(0.3)};
    RowsKept<Real> kept(count);
    REQUIRE(fast.iterates(y, 0, count, kept) == count);
    Real x = Real(0.3);
    for (long long k = 0; k < count; ++k) {
        x = p[0] * x * (Real(1) - x);
        REQUIRE(kept.rows[std::size_t(k)] == x);
    }
    return kept.visits;
}

// Products only, so an infinite or NaN state stays so (as the code generator proves for such
// formulas): x = p0 x (1 - x) runs off to -inf from x > 1, y = p1 y^2 overflows for |y| > 1 / p1.
template <class Real>
struct Exploding : testmodels::Defaults {
    using real = Real;
    static constexpr int num_states = 2;
    static constexpr int num_params = 2;
    static constexpr int num_param_slots = 2;
    static constexpr bool nonfinite_persists = true;
    static constexpr int dimension() { return 2; }
    static void rhs(real, const real* y, const real* p, real* f) {
        f[0] = p[0] * y[0] * (real(1) - y[0]);
        f[1] = p[1] * y[1] * y[1];
    }
};

// With no bound, a chunk of a map that keeps non-finite states is proved by its last state alone:
// the run must still stop at the first non-finite iterate, and keep the rows up to it.
template <class Real>
void check_unbounded_exploding(Real r, Real x0, Real growth, Real y0, long long count) {
    using M = Exploding<Real>;
    static_assert(bif::ensemble::keeps_nonfinite<M>::value);
    const M m{};
    const Real p[2] = {r, growth};
    const Real limit = std::numeric_limits<Real>::max();
    const bif::ensemble::MapIterates<M> fast{m, p, Real(0), limit, bif::magnitude_key_inside(limit), 2, true};
    Real y_fast[2] = {x0, y0}, y_plain[2] = {x0, y0};
    RowsKept<Real> kept(count);
    const long long taken = fast.iterates(y_fast, 0, count, kept);
    CAPTURE(r, x0, growth, y0, count);
    REQUIRE(taken == plain_iterates(m, p, Real(0), limit, y_plain, 0, count));
    CHECK(y_fast[0] == y_plain[0]);
    CHECK(y_fast[1] == y_plain[1]);
    Real y_step[2] = {x0, y0};
    for (long long k = 0; k < count; ++k) {
        if (k < taken) {
            plain_iterates(m, p, Real(0), limit, y_step, int(k), 1);
            REQUIRE(kept.rows[std::size_t(k)] == y_step[0]);
        } else {
            REQUIRE(std::isnan(kept.rows[std::size_t(k)]));
        }
    }
}

template <class Real>
void check_cases() {
    const Real most = std::numeric_limits<Real>::max();
    // nothing leaves: every chunk untested, a remainder shorter than a chunk
    check_against_plain<Real>(Real(2), Real(0.5), Real(0.5), Real(100), 0, 1003);
    // |x| swings above the limit for one or two iterates of a chunk and back: the first such
    // iterate ends the run, wherever it falls in the chunk
    for (int section = 0; section <= bif::ensemble::MapIterates<Swinging<Real>>::chunk; ++section)
        for (Real amplitude : {Real(10.5), Real(10.001), Real(30)})
            check_against_plain<Real>(amplitude, Real(0.5), Real(0.5), Real(10), section, 400);
    // values with the limit's own high word (a double's conservative key) that stay inside
    check_against_plain<Real>(Real(10), Real(0.5), Real(0.5), Real(10), 0, 400);
    check_against_plain<Real>(Real(10) * (Real(1) - std::numeric_limits<Real>::epsilon()), Real(0.5),
                              Real(0.5), Real(10), 3, 400);
    // no bound (the largest finite value): y overflows to infinity, then inf * inf stays infinite
    check_against_plain<Real>(Real(2), Real(1.5), Real(2), most, 0, 400);
    // a NaN: y = 0 * inf after the overflow is never reached, so make one from the start
    check_against_plain<Real>(Real(2), std::numeric_limits<Real>::quiet_NaN(), Real(2), most, 0, 400);
}

} // namespace

TEST_CASE("the fast map loop stops where the iterate-by-iterate test stops", "[map_iterates]") {
    SECTION("double") {
        check_cases<double>();
    }
    SECTION("float") {
        check_cases<float>();
    }
}

TEST_CASE("the fast map loop's recorded rows are the iterates up to where it stops", "[map_iterates]") {
    constexpr int chunk = bif::ensemble::MapIterates<Swinging<double>>::chunk;
    SECTION("a chunk that leaves is retaken: rows up to the stop, none after") {
        for (int section = 0; section <= chunk; ++section)
            for (double amplitude : {10.5, 30.0})
                check_rows_against_plain<double>(amplitude, 0.5, 0.5, 10.0, section, 400);
        check_rows_against_plain<float>(10.5f, 0.5f, 0.5f, 10.0f, 7, 400);
        check_rows_against_plain<double>(2.0, 1.5, 2.0, std::numeric_limits<double>::max(), 0, 400);
    }
}

TEST_CASE("with no bound, a map that keeps non-finite states stops at its first non-finite iterate",
          "[map_iterates]") {
    constexpr int chunk = bif::ensemble::MapIterates<Exploding<double>>::chunk;
    const auto cases = []<class Real>(Real) {
        // x overflows at iterates that fall anywhere in a chunk (the larger x0, the sooner)
        for (Real x0 : {Real(1.5), Real(2), Real(3), Real(10), Real(1e3), Real(1e8), Real(1e15)})
            for (long long count : {5LL, chunk - 1LL, chunk + 0LL, chunk + 1LL, 3LL * chunk + 7})
                check_unbounded_exploding<Real>(Real(4), x0, Real(0.5), Real(0.5), count);
        // y overflows while x stays in (0, 1); then a NaN parameter, non-finite from the first iterate
        check_unbounded_exploding<Real>(Real(3.9), Real(0.3), Real(1.5), Real(2), 400);
        check_unbounded_exploding<Real>(std::numeric_limits<Real>::quiet_NaN(), Real(0.3), Real(0.5),
                                        Real(0.5), 100);
        // nothing leaves: every chunk proved by its last state
        check_unbounded_exploding<Real>(Real(3.9), Real(0.3), Real(0.5), Real(0.5), 1000);
    };
    SECTION("double") {
        cases(0.0);
    }
    SECTION("float") {
        cases(0.0f);
    }
}

TEST_CASE("magnitude keys order values by |x| and prove a value inside the limit", "[map_iterates]") {
    const double limits[] = {1e-300, 0.75, 10, 1000, 1e300, std::numeric_limits<double>::max()};
    const double values[] = {0,
                             -0.0,
                             1e-310,
                             0.5,
                             -0.75,
                             9.999999,
                             10,
                             10.000001,
                             -1e5,
                             1e300,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
    for (double limit : limits)
        for (double x : values) {
            CAPTURE(limit, x);
            // a key at or below the inside key proves |x| <= limit; NaN and beyond are never proved
            if (bif::magnitude_key(x) <= bif::magnitude_key_inside(limit)) CHECK(std::fabs(x) <= limit);
            const float lf = float(std::fmin(limit, double(std::numeric_limits<float>::max())));
            const float xf = float(x);
            // float keys are exact: proved exactly when inside
            CHECK((bif::magnitude_key(xf) <= bif::magnitude_key_inside(lf)) == (std::fabs(xf) <= lf));
        }
}
