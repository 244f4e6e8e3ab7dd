// Refinement of a diagram's periodic orbits, one system per thread: from a guess x (a section point
// of the diagram) and its detected period p, Newton's method on the period-p stroboscopic map
//   G(x) = phi(t0 + p T; t0, x) - x,   dG/dx = M - I,   M = A_p ... A_2 A_1,
// A_k the Jacobian of the flow over forcing period k, from the variational equations integrated
// beside the state (bif/lyapunov.h's TangentModel: resets map the tangent vectors through their
// saltation matrices). Then the Floquet multipliers, the eigenvalues of M, and a status.
//
// Integration: the study's own method and solver settings (the ones its diagram ran with), the
// tangent components at the tolerances of their states (widen_settings). The map is evaluated to the
// tolerance the diagram's points have, and with an adaptive method its error is controlled per step:
// the refined point is accurate to about tol / |1 - mu| where a multiplier mu is near 1 (the Newton
// matrix M - I is then nearly singular: a fold, reported as singular when it is singular to
// working precision). A fixed-step RK4 study gets a fixed-step refinement of the same step.
//
// Multipliers of small systems (N <= 2) in closed form, arranged so that their spread does not cost
// accuracy. For N = 2, mu_1,2 are the roots of mu^2 - tr(M) mu + det(M). det(M) is the product of
// the periods' det(A_k) (each of a 2x2 matrix whose entries are all of the period's own size, so
// exact to a few roundings of its own size), never det of the product: M's explicit entries carry an
// absolute error of about eps |A_p| ... |A_1|, which would swamp a multiplier below eps times the
// largest. tr(M) is used only for the larger root, mu_big = (tr + sign(tr) sqrt(tr^2 - 4 det)) / 2,
// whose error is relative eps; the smaller root is det / mu_big, relative eps too, however many
// orders of magnitude below mu_big it lies. A complex pair has |mu|^2 = det and re = tr / 2: its
// moduli are equal, so there is no spread to lose. (For Duffing the Liouville formula
// det M = exp(-k p T) checks this independently: tests/continuation/test_orbit_refinement.cpp.)
// Larger N: the real Hessenberg QR algorithm (Francis double shifts) on the explicit product, whose
// multipliers are accurate relative to the largest, eps |M|: enough for the stability of the orbit
// (max |mu| against 1), not for multipliers many orders below the largest (engine/continuation's
// factored QR products are there for that).
//
// The reported point: of the orbit's p section points the one with the smallest first state (found
// on the last evaluation's way round the orbit and moved with the last Newton step through the
// Jacobian of the flow up to it), so that systems that started on different points of one orbit
// report the same point (engine/study/orbit_columns.h's distinct_orbits compares them). Being a
// section point of a T-periodic flow, it is a fixed point of the same map started at t0.
//
// Status per system (OrbitStatusCode): converged, not converged within max_iterations, singular
// (M - I singular to working precision), the integration failed (the system's own failure alone:
// nothing is shared between systems), no period (the diagram found none for this system, or it
// exceeds max_period). Only a converged system's outputs are written; the others stay NaN.
#pragma once

#include "bif/linalg.h"
#include "bif/study/common.h"
#include "bif/study/methods.h"

namespace bif::ensemble {

enum OrbitStatusCode : int {
    orbit_not_run = 0,
    orbit_converged = 1,
    orbit_not_converged = 2,
    orbit_singular = 3,
    orbit_integration_failed = 4,
    orbit_no_period = 5,
};

// The refinement's arrays, structure of arrays as View: element c of system s at [s + c * stride].
//   axis_values  [a]     the system's swept values (as the diagram's View)
//   guess        [i]     the state at a section point of the diagram (N values)
//   period       one     the detected period in forcing periods (<= 0: none)
//   point        [i]     the refined fixed point of the period-p map (N values)
//   multipliers  [2k], [2k + 1]   real and imaginary part of multiplier k, by decreasing modulus
//   max_modulus  one     the largest |mu|
//   iterations   one     Newton iterations taken
//   status       one     OrbitStatusCode
template <class Real>
struct OrbitView {
    index_t stride = 0;
    const Real* axis_values = nullptr;
    const Real* guess = nullptr;
    const int* period = nullptr;
    Real* point = nullptr;
    Real* multipliers = nullptr;
    Real* max_modulus = nullptr;
    int* iterations = nullptr;
    int* status = nullptr;
};

struct OrbitSettings {
    int max_iterations = 8;
    int max_period = 8;
    double tolerance = 1e-9; // on the Newton step: |dx|_inf <= tolerance (1 + |x|_inf)
};

namespace orbit_detail {

// The eigenvalues of the 2x2 system whose trace is `tr` and determinant `det` (see the top).
template <class Real>
BIF_HD void multipliers_2x2(Real tr, Real det, Real* re, Real* im) {
    const Real disc = tr * tr - Real(4) * det;
    if (disc >= Real(0)) {
        const Real root = m::sqrt(disc);
        const Real big = Real(0.5) * (tr + (tr < Real(0) ? -root : root));
        const Real small = big != Real(0) ? det / big : Real(0);
        re[0] = big;
        re[1] = small;
        im[0] = im[1] = Real(0);
    } else {
        re[0] = re[1] = Real(0.5) * tr;
        im[0] = Real(0.5) * m::sqrt(-disc);
        im[1] = -im[0];
    }
}

// The eigenvalues of the n x n matrix a (row-major, overwritten): reduction to upper Hessenberg form
// by Gaussian elimination with partial pivoting, then QR iterations with Francis double shifts,
// deflating from the bottom (Wilkinson & Reinsch, Handbook for Automatic Computation II (1971),
// elmhes and hqr). Returns false when an eigenvalue took more than 30 iterations.
template <int N, class Real>
BIF_HD bool hessenberg_eigenvalues(Real* a, int n, Real* re, Real* im) {
#define BIF_A(r, c) a[(r)*n + (c)]
    for (int k = 1; k < n - 1; ++k) { // elimination below the subdiagonal of column k - 1
        int piv = k;
        for (int r = k + 1; r < n; ++r)
            if (abs_of(BIF_A(r, k - 1)) > abs_of(BIF_A(piv, k - 1))) piv = r;
        if (piv != k) { // a similarity: swap rows and columns piv and k
            for (int c = k - 1; c < n; ++c) {
                const Real t = BIF_A(piv, c);
                BIF_A(piv, c) = BIF_A(k, c);
                BIF_A(k, c) = t;
            }
            for (int r = 0; r < n; ++r) {
                const Real t = BIF_A(r, piv);
                BIF_A(r, piv) = BIF_A(r, k);
                BIF_A(r, k) = t;
            }
        }
        const Real pivot = BIF_A(k, k - 1);
        if (pivot == Real(0)) continue;
        for (int r = k + 1; r < n; ++r) {
            const Real l = BIF_A(r, k - 1) / pivot;
            if (l == Real(0)) continue;
            for (int c = k - 1; c < n; ++c) // row r -= l row k
                BIF_A(r, c) -= l * BIF_A(k, c);
            for (int q = 0; q < n; ++q) // column k += l column r (the inverse transformation)
                BIF_A(q, k) += l * BIF_A(q, r);
        }
    }
    for (int r = 2; r < n; ++r)
        for (int c = 0; c < r - 1; ++c)
            BIF_A(r, c) = Real(0);

    Real norm = Real(0);
    for (int r = 0; r < n; ++r)
        for (int c = r > 0 ? r - 1 : 0; c < n; ++c)
            norm += abs_of(BIF_A(r, c));
    int hi = n - 1;
    int its = 0;
    Real shift = Real(0);
    while (hi >= 0) {
        // the lowest l with a negligible subdiagonal element a(l, l - 1)
        int l = hi;
        for (; l > 0; --l) {
            const Real s = abs_of(BIF_A(l - 1, l - 1)) + abs_of(BIF_A(l, l));
            if (abs_of(BIF_A(l, l - 1)) <= epsilon<Real>() * (s == Real(0) ? norm : s)) {
                BIF_A(l, l - 1) = Real(0);
                break;
            }
        }
        const Real x = BIF_A(hi, hi);
        if (l == hi) { // one root
            re[hi] = x + shift;
            im[hi] = Real(0);
            --hi;
            its = 0;
            continue;
        }
        const Real y = BIF_A(hi - 1, hi - 1);
        const Real w = BIF_A(hi, hi - 1) * BIF_A(hi - 1, hi);
        if (l == hi - 1) { // two roots of the trailing 2x2 block
            const Real p = Real(0.5) * (y - x);
            const Real q = p * p + w;
            const Real z = m::sqrt(abs_of(q));
            const Real xs = x + shift;
            if (q >= Real(0)) {
                const Real zz = p + (p < Real(0) ? -z : z);
                re[hi - 1] = re[hi] = xs + zz;
                if (zz != Real(0)) re[hi] = xs - w / zz;
                im[hi - 1] = im[hi] = Real(0);
            } else {
                re[hi - 1] = re[hi] = xs + p;
                im[hi - 1] = z;
                im[hi] = -z;
            }
            hi -= 2;
            its = 0;
            continue;
        }
        if (its == 30) return false;
        Real sx = x, sy = y, sw = w;
        if (its == 10 || its == 20) { // exceptional shift
            shift += x;
            for (int i = 0; i <= hi; ++i)
                BIF_A(i, i) -= x;
            const Real s = abs_of(BIF_A(hi, hi - 1)) + abs_of(BIF_A(hi - 1, hi - 2));
            sx = sy = Real(0.75) * s;
            sw = Real(-0.4375) * s * s;
        }
        ++its;
        // the first column of (H - s1 I)(H - s2 I), from the lowest row mm where it may start
        int mm = hi - 2;
        Real p = Real(0), q = Real(0), r = Real(0);
        for (; mm >= l; --mm) {
            const Real z = BIF_A(mm, mm);
            const Real rr = sx - z, ss = sy - z;
            p = (rr * ss - sw) / BIF_A(mm + 1, mm) + BIF_A(mm, mm + 1);
            q = BIF_A(mm + 1, mm + 1) - z - rr - ss;
            r = BIF_A(mm + 2, mm + 1);
            const Real s = abs_of(p) + abs_of(q) + abs_of(r);
            p /= s;
            q /= s;
            r /= s;
            if (mm == l) break;
            const Real u = abs_of(BIF_A(mm, mm - 1)) * (abs_of(q) + abs_of(r));
            const Real v =
                abs_of(p) * (abs_of(BIF_A(mm - 1, mm - 1)) + abs_of(z) + abs_of(BIF_A(mm + 1, mm + 1)));
            if (u <= epsilon<Real>() * v) break;
        }
        for (int i = mm + 2; i <= hi; ++i) {
            BIF_A(i, i - 2) = Real(0);
            if (i != mm + 2) BIF_A(i, i - 3) = Real(0);
        }
        // the double-shift QR step as Householder reflections of 3 (the last 2) rows, chased down
        for (int k = mm; k <= hi - 1; ++k) {
            if (k != mm) {
                p = BIF_A(k, k - 1);
                q = BIF_A(k + 1, k - 1);
                r = k != hi - 1 ? BIF_A(k + 2, k - 1) : Real(0);
                const Real s = abs_of(p) + abs_of(q) + abs_of(r);
                if (s == Real(0)) continue;
                p /= s;
                q /= s;
                r /= s;
            }
            const Real mag = m::sqrt(p * p + q * q + r * r);
            const Real s = p < Real(0) ? -mag : mag;
            if (s == Real(0)) continue;
            if (k == mm) {
                if (l != mm) BIF_A(k, k - 1) = -BIF_A(k, k - 1);
            } else {
                BIF_A(k, k - 1) = -s * (abs_of(BIF_A(k, k - 1)) + abs_of(BIF_A(k + 1, k - 1)) +
                                        (k != hi - 1 ? abs_of(BIF_A(k + 2, k - 1)) : Real(0)));
            }
            p += s;
            const Real hx = p / s, hy = q / s, hz = r / s;
            q /= p;
            r /= p;
            for (int c = k; c < n; ++c) { // rows k, k+1, k+2 from the left
                Real t = BIF_A(k, c) + q * BIF_A(k + 1, c);
                if (k != hi - 1) {
                    t += r * BIF_A(k + 2, c);
                    BIF_A(k + 2, c) -= t * hz;
                }
                BIF_A(k + 1, c) -= t * hy;
                BIF_A(k, c) -= t * hx;
            }
            const int last = hi < k + 3 ? hi : k + 3;
            for (int i = 0; i <= last; ++i) { // columns k, k+1, k+2 from the right
                Real t = hx * BIF_A(i, k) + hy * BIF_A(i, k + 1);
                if (k != hi - 1) {
                    t += hz * BIF_A(i, k + 2);
                    BIF_A(i, k + 2) -= t * r;
                }
                BIF_A(i, k + 1) -= t * q;
                BIF_A(i, k) -= t;
            }
        }
    }
    return true;
#undef BIF_A
}

// Sorts the n values (re, im) by decreasing modulus (insertion sort: n is a handful).
template <class Real>
BIF_HD void sort_by_modulus(Real* re, Real* im, int n) {
    for (int i = 1; i < n; ++i) {
        const Real r = re[i], c = im[i], mod = r * r + c * c;
        int j = i - 1;
        while (j >= 0 && re[j] * re[j] + im[j] * im[j] < mod) {
            re[j + 1] = re[j];
            im[j + 1] = im[j];
            --j;
        }
        re[j + 1] = r;
        im[j + 1] = c;
    }
}

} // namespace orbit_detail

template <class Model, class Method>
struct OrbitRefinement {
    using real = typename Model::real;
    using TM = TangentModel<Model, Model::num_states>;
    static constexpr int N = Model::num_states;

    const Model& m;
    const Block<Model>& b;
    real p[capacity(Model::num_param_slots)] = {};
    real forcing_period = real(0);
    real det_product = real(1); // of the periods' Jacobians (N = 2)
    real monodromy[N * N] = {};
    // The orbit's section point with the smallest first state, and the Jacobian of the flow from x
    // to it: the point a converged x is reported as (the same whichever point a system started from).
    real lowest[N] = {};
    real lowest_jacobian[N * N] = {};

    // x_end = phi(t0 + periods T; t0, x) with the monodromy (row-major); false when it fails.
    BIF_HD bool period_map(const real* x, int periods, real* x_end) {
        const int n = m.dimension();
        const TM tm{m};
        SolverSettings<real, TM::num_states> set;
        widen_settings(b.solver, n, tm.dimension(), set);
        set.max_steps = b.max_steps < 1000000000LL ? int(b.max_steps) : 1000000000;
        typename Method::template stepper<TM> st;
        real y[TM::num_states];
        copy_n(x, n, y);
        lyapunov_start(tm, y);
        SystemState<TM> s = make_state<TM>(b.t0, y, tm.dimension());
        real running[N * N], next[N * N]; // the product A_k ... A_1, row-major
        for (int i = 0; i < n * n; ++i)
            running[i] = i / n == i % n ? real(1) : real(0);
        copy_n(x, n, lowest);
        copy_n(running, n * n, lowest_jacobian);
        det_product = real(1);
        real q[capacity(Model::num_param_slots)];
        copy_n(p, m.param_slot_count(), q); // a reset may change parameters: a copy per evaluation
        for (int k = 1; k <= periods; ++k) {
            NoObserver obs;
            const Status r = integrate(tm, st, s, q, b.t0 + real(k) * forcing_period, set, b.events, obs);
            if (r != Status::Ok || !all_finite(s.y, tm.dimension())) return false;
            // A_k's column c is tangent vector c: s.y[n + c n + i] = (A_k)_ic
            for (int i = 0; i < n; ++i)
                for (int c = 0; c < n; ++c) {
                    real acc = real(0);
                    for (int j = 0; j < n; ++j)
                        acc += s.y[n + j * n + i] * running[j * n + c];
                    next[i * n + c] = acc;
                }
            copy_n(next, n * n, running);
            if (k < periods && s.y[0] < lowest[0]) {
                copy_n(s.y, n, lowest);
                copy_n(running, n * n, lowest_jacobian);
            }
            if (n == 2) det_product *= s.y[2] * s.y[5] - s.y[4] * s.y[3];
            lyapunov_start(tm, s.y);
            state_changed(s, st);
        }
        copy_n(s.y, n, x_end);
        copy_n(running, n * n, monodromy);
        return true;
    }

    // The multipliers of `monodromy` into re, im (n each) by decreasing modulus; false when the
    // QR iterations of a larger system did not converge.
    BIF_HD bool multipliers(real* re, real* im) {
        const int n = m.dimension();
        bool ok = true;
        if (n == 1) {
            re[0] = monodromy[0];
            im[0] = real(0);
        } else if (n == 2) {
            orbit_detail::multipliers_2x2(monodromy[0] + monodromy[3], det_product, re, im);
        } else {
            real a[N * N];
            copy_n(monodromy, n * n, a);
            ok = orbit_detail::hessenberg_eigenvalues<N>(a, n, re, im);
        }
        orbit_detail::sort_by_modulus(re, im, n);
        return ok;
    }
};

// Refines system `system` of the view (see the top); writes its status and, converged, its outputs.
template <class Model, class Method>
BIF_HD void refine_orbit(const Model& m, const Block<Model>& b, const OrbitView<typename Model::real>& v,
                         const OrbitSettings& settings, index_t system) {
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    constexpr int O = capacity(Model::num_observables);
    const int n = m.dimension();
    const int periods = v.period[system];
    v.iterations[system] = 0;
    if (!(periods >= 1 && periods <= settings.max_period)) {
        v.status[system] = orbit_no_period;
        return;
    }
    OrbitRefinement<Model, Method> r{m, b};
    real x[N];
    {
        View<real> inputs; // the diagram's parameter values, the guess as the initial state
        inputs.stride = v.stride;
        inputs.axis_values = v.axis_values;
        inputs.initial_override = v.guess;
        system_inputs(m, b, inputs, system, r.p, x);
    }
    real o[O] = {};
    m.observables(b.t0, x, r.p, o);
    r.forcing_period = pick(o, b.period_observable, O);
    if (!(r.forcing_period > real(0)) || !m::is_finite(r.forcing_period) || !all_finite(x, n)) {
        v.status[system] = orbit_integration_failed;
        return;
    }
    // a float run refines to what float resolves: a step below 64 ulp is rounding
    const real tolerance = max_of(real(settings.tolerance), real(64) * epsilon<real>());
    int status = orbit_not_converged;
    int it = 0;
    real reported[N] = {};
    while (status == orbit_not_converged && it < settings.max_iterations) {
        ++it;
        real x_end[N];
        if (!r.period_map(x, periods, x_end)) {
            status = orbit_integration_failed;
            break;
        }
        // (M - I) dx = -(x_end - x)
        real a[N * N], dx[N];
        int piv[N];
        for (int i = 0; i < n * n; ++i)
            a[i] = r.monodromy[i] - (i / n == i % n ? real(1) : real(0));
        for (int i = 0; i < n; ++i)
            dx[i] = x[i] - x_end[i];
        real scale = real(0);
        for (int i = 0; i < n * n; ++i)
            scale = max_of(scale, abs_of(a[i]));
        if (!lu_factor<N>(a, n, piv)) {
            status = orbit_singular;
            break;
        }
        real smallest_pivot = abs_of(a[0]);
        for (int i = 1; i < n; ++i)
            smallest_pivot = min_of(smallest_pivot, abs_of(a[i * n + i]));
        if (smallest_pivot <= real(64) * epsilon<real>() * scale) {
            status = orbit_singular;
            break;
        }
        lu_solve<N>(a, n, piv, dx);
        real step = real(0), size = real(0);
        for (int i = 0; i < n; ++i) {
            x[i] += dx[i];
            step = max_of(step, abs_of(dx[i]));
            size = max_of(size, abs_of(x[i]));
            // the lowest point moves with x, to first order: by its Jacobian times dx
            real moved = r.lowest[i];
            for (int j = 0; j < n; ++j)
                moved += r.lowest_jacobian[i * n + j] * dx[j];
            reported[i] = moved;
        }
        if (!all_finite(x, n)) {
            status = orbit_not_converged;
            break;
        }
        if (step <= tolerance * (real(1) + size)) status = orbit_converged;
    }
    v.iterations[system] = it;
    v.status[system] = status;
    if (status != orbit_converged) return;
    // The multipliers of the last evaluation, one Newton step (within the tolerance) from x; the
    // reported point is the orbit's lowest, moved with that step to first order (an error of the
    // order of the step squared).
    real re[N], im[N];
    if (!r.multipliers(re, im)) {
        v.status[system] = orbit_not_converged;
        return;
    }
    for (int i = 0; i < n; ++i) {
        v.point[index_t(i) * v.stride + system] = reported[i];
        v.multipliers[index_t(2 * i) * v.stride + system] = re[i];
        v.multipliers[index_t(2 * i + 1) * v.stride + system] = im[i];
    }
    v.max_modulus[system] = m::sqrt(re[0] * re[0] + im[0] * im[0]);
}

} // namespace bif::ensemble
