// Explicit Runge-Kutta stages applied from a Butcher tableau by one template (the idea of
// Boost.Odeint's generic explicit stepper), compiled to what one writes by hand for that tableau:
// stage indices are template arguments (loops over stages unroll, k arrays are addressed with
// constants: registers on a GPU), zero coefficients are skipped at compile time (x + 0.0 k is not
// foldable in IEEE arithmetic) and a coefficient 1 multiplies nothing. Results depend bit for bit
// on the order of the operations, which is fixed (every sum runs left to right):
//   stage i > 1  at t + c_i h (t + h for c_i = 1), from Y_i = y + (c_i h) k_j where a_ij is the
//                row's only nonzero (then a_ij = c_i), else from Y_i = y + h (a_i1 k_1 + a_i2 k_2 + ...)
//   solution     y_new = y + (h / b_divisor) (b_1 k_1 + b_2 k_2 + ...);  FSAL: k_{s+1} = f(t + h, y_new)
//   error        err = h (e_1 k_1 + ... + e_{s+1} k_{s+1}),  e = b - b*
// A tableau is a struct of double constants, each fraction rounded once as printed: stages (s),
// c[s], a[s][s], b[s], b_divisor (b over a common denominator, RK4's (1, 2, 2, 1)/6; else 1),
// e[s + 1] (all zero: no estimate), fsal, and optionally d[s + 1] (dense-output weights).
#pragma once

#include "bif/kernel_support.h"

namespace bif {

// Ids of the weighted sums of a tableau besides its stage rows 1..s-1 (0-based, the rows of a).
enum TableauRow : int { row_solution = -1, row_error = -2, row_dense = -3 };

// The weight of stage j (0-based) in row Row; evaluated at compile time only.
template <class T, int Row>
BIF_HD constexpr double tableau_weight(int j) {
    if constexpr (Row == row_solution) return j < T::stages ? T::b[j] : 0.0;
    if constexpr (Row == row_error) return T::e[j];
    if constexpr (Row == row_dense) return T::d[j];
    if constexpr (Row >= 0) return j < Row ? T::a[Row][j] : 0.0;
}

// The last stage before j with a nonzero weight in row Row (-1: none).
template <class T, int Row>
BIF_HD constexpr int previous_term(int j) {
    for (int i = j - 1; i >= 0; --i)
        if (tableau_weight<T, Row>(i) != 0.0) return i;
    return -1;
}

// Whether the tableau estimates an error (some e_j is nonzero).
template <class T>
BIF_HD constexpr bool has_error_estimate() {
    return previous_term<T, row_error>(T::stages + 1) >= 0;
}

// h and its products with the tableau's constants, formed where they are used. A fixed-step
// stepper may keep them across steps instead (Rk4) by passing its own type with these members.
template <class T, class Real>
struct TableauStepFactors {
    Real h;

    // c_i h, the offset of stage I
    template <int I>
    BIF_HD BIF_FORCEINLINE Real node() const {
        constexpr Real c = Real(T::c[I]);
        if constexpr (T::c[I] == 1.0) return h;
        return c * h;
    }
    // h / b_divisor, the factor of the solution sum
    BIF_HD BIF_FORCEINLINE Real solution() const {
        if constexpr (T::b_divisor == 1) return h;
        return h / Real(T::b_divisor);
    }
};

// One step of an explicit tableau T on a model: the stages k_2..k_s (k_1 = f(t, y) is the
// stepper's f0; k_{s+1} of an FSAL method goes to its f1), then y_new and the error. Made and
// used within one attempt.
template <class T, class Model>
struct ExplicitStages {
    using real = typename Model::real;
    static constexpr int S = T::stages;
    static constexpr int N = Model::num_states;
    static_assert(S >= 2, "a tableau with at least two stages");
    static_assert(T::fsal || tableau_weight<T, row_error>(S) == 0.0, "k_{s+1} exists only for FSAL methods");

    const real* k1; // f(t, y)
    real* k_last;   // f(t + h, y_new), evaluated here for FSAL methods
    real k[S - 1][N];
    real input[N]; // Y_i, the argument of stage i
    // Without an error estimate no k is read after the solution sum, so the sum is kept as the
    // stages arrive and each k dies once the next stage's input is formed (RK4: one sum instead
    // of three k arrays, registers on a GPU). With one, every k is kept for the error sum anyway.
    static constexpr bool running_sum = !has_error_estimate<T>();
    real sum[N]; // the solution sum up to the last stage kept, when running_sum

    BIF_HD BIF_FORCEINLINE ExplicitStages(const real* f0, real* f1) : k1(f0), k_last(f1) {}

    template <int J>
    BIF_HD BIF_FORCEINLINE const real* stage() const {
        if constexpr (J == 0)
            return k1;
        else if constexpr (J == S)
            return k_last;
        else
            return k[J - 1];
    }

    // w_J k_J[i], with no multiplication by a weight of 1
    template <int Row, int J>
    BIF_HD BIF_FORCEINLINE real term(int i) const {
        constexpr double weight = tableau_weight<T, Row>(J);
        constexpr real w = real(weight);
        if constexpr (weight == 1.0) return stage<J>()[i];
        return w * stage<J>()[i];
    }

    // The row's sum over its nonzero terms up to stage J (a nonzero term), left to right; with
    // Running, the solution sum up to the term before J is read from `sum` where it was kept.
    template <int Row, int J, bool Running = false>
    BIF_HD BIF_FORCEINLINE real partial(int i) const {
        constexpr int before = previous_term<T, Row>(J);
        if constexpr (before < 0)
            return term<Row, J>(i);
        else if constexpr (Running && previous_term<T, Row>(before) >= 0)
            return sum[i] + term<Row, J>(i);
        else
            return partial<Row, before, Running>(i) + term<Row, J>(i);
    }

    // The whole sum of a row: sum_j w_j k_j[i] (no factor h)
    template <int Row>
    BIF_HD BIF_FORCEINLINE real weighted(int i) const {
        return partial<Row, previous_term<T, Row>(S + 1)>(i);
    }

    // The stages, y_new, k_{s+1} for an FSAL method, err (times h) when T has an estimate, and
    // `also(i)` per component after the error (further sums of the same stages: dense output).
    template <class Factors, class Also>
    BIF_HD BIF_FORCEINLINE void step(const Model& m, real t, const real* y, const real* p, const Factors& hf,
                                     real* y_new, real* err, Also also) {
        const int n = m.dimension();
        stages_from<1>(m, t, y, p, hf, n);
        constexpr int last_b = previous_term<T, row_solution>(S);
        const real hb = hf.solution();
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            y_new[i] = y[i] + hb * partial<row_solution, last_b, running_sum>(i);
            if constexpr (!T::fsal && has_error_estimate<T>()) err[i] = hf.h * weighted<row_error>(i);
        }
        if constexpr (T::fsal) {
            m.rhs(t + hf.h, y_new, p, k_last);
            BIF_UNROLL
            for (int i = 0; i < n; ++i) {
                if constexpr (has_error_estimate<T>()) err[i] = hf.h * weighted<row_error>(i);
                also(i);
            }
        }
    }

  private:
    template <int I, class Factors>
    BIF_HD BIF_FORCEINLINE void stages_from(const Model& m, real t, const real* y, const real* p,
                                            const Factors& hf, int n) {
        if constexpr (I < S) {
            constexpr int last = previous_term<T, I>(I);
            constexpr bool single = previous_term<T, I>(last) < 0;
            static_assert(!single || T::a[I][last] == T::c[I], "a single-term row has a_ij = c_i");
            constexpr int kept = I - 1; // the stage whose solution term joins the running sum now
            constexpr bool keep = running_sum && tableau_weight<T, row_solution>(kept) != 0.0 &&
                                  previous_term<T, row_solution>(kept) >= 0 &&
                                  kept != previous_term<T, row_solution>(S);
            const real hc = hf.template node<I>();
            BIF_UNROLL
            for (int i = 0; i < n; ++i) {
                if constexpr (keep) sum[i] = partial<row_solution, kept, true>(i);
                if constexpr (single)
                    input[i] = y[i] + hc * stage<last>()[i];
                else
                    input[i] = y[i] + hf.h * partial<I, last>(i);
            }
            m.rhs(t + hc, input, p, k[I - 1]);
            stages_from<I + 1>(m, t, y, p, hf, n);
        }
    }
};

} // namespace bif
