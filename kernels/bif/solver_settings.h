// Settings shared by every system of an ensemble (one copy per launch, never per thread).
// Tolerances are per component; set_tolerances() fills them with scalars. The struct is
// trivially copyable so that it can be passed by value as a CUDA kernel argument.
#pragma once

#include "bif/config.h"

namespace bif {

enum class ErrorNorm : unsigned char {
    Rms, // sqrt(mean((err_i / sc_i)^2)), Hairer's DOPRI5/RODAS and Sommeijer's RKC
    Max, // max |err_i / sc_i|, MPGOS
};

// N = Model::num_states (the array capacity).
template <class Real, int N>
struct SolverSettings {
    Real rtol[N] = {};
    Real atol[N] = {};
    Real initial_step = Real(0); // 0: estimated (Hairer, Norsett & Wanner I, II.4); fixed step size otherwise
    Real min_step = Real(0);     // below this (or below 16 ulp of t) a rejected step reports StepUnderflow
    Real max_step = Real(0);     // 0: unbounded
    Real safety = Real(0.9);     // h_new = safety * h * err^(-1/(q+1))
    Real max_growth = Real(5);   // h_new <= max_growth * h
    Real max_shrink = Real(0.2); // h_new >= max_shrink * h
    Real pi_beta = Real(0);      // Gustafsson PI controller weight of the previous error (0: I controller)
    int max_steps = 1000000;     // attempted steps (accepted + rejected) allowed in one integrate() call
    bool adaptive = true;        // false: every method steps with initial_step, no error control
    ErrorNorm norm = ErrorNorm::Rms;
    // XPPAUT's BOUND: a positive bound ends a system whose state leaves the box |y_i| <= bound at
    // the end of an accepted step or iterate (Status::Escaped, the state kept at that step's end).
    // Only the first `bounded` components are tested: a tangent extension's vectors are not state.
    Real bound = Real(0); // 0: none
    int bounded = N;
    // The fixed step (initial_step within max_step; 0 for none) and its half and sixth, the
    // fractions the classical RK4 steps with, worked out once by fill_fixed_step() where settings
    // are made for a run. A GPU step loop takes them from the settings in constant memory as
    // warp-uniform operands; a product computed in the loop would be one more ordinary register per
    // thread, read at every use (tests/bench/README.md: 2-5% of an RK4 Lorenz step). Settings made
    // without it keep 0 and the steppers compute the fractions themselves, to the same values.
    Real fixed_step = Real(0);
    Real fixed_half = Real(0);
    Real fixed_sixth = Real(0);

    BIF_HD void set_tolerances(Real relative, Real absolute) {
        for (int i = 0; i < N; ++i) {
            rtol[i] = relative;
            atol[i] = absolute;
        }
    }
};

template <class Real, int N>
BIF_HD void fill_fixed_step(SolverSettings<Real, N>& s) {
    const Real h = s.max_step > Real(0) && s.max_step < s.initial_step ? s.max_step : s.initial_step;
    s.fixed_step = h > Real(0) ? h : Real(0);
    s.fixed_half = Real(0.5) * s.fixed_step;
    s.fixed_sixth = s.fixed_step / Real(6);
}

template <class Real, int N>
BIF_HD SolverSettings<Real, N> make_settings(Real relative, Real absolute) {
    SolverSettings<Real, N> s;
    s.set_tolerances(relative, absolute);
    return s;
}

template <class Real, int N>
BIF_HD SolverSettings<Real, N> fixed_step_settings(Real h) {
    SolverSettings<Real, N> s;
    s.set_tolerances(Real(1), Real(1));
    s.adaptive = false;
    s.initial_step = h;
    fill_fixed_step(s);
    return s;
}

} // namespace bif
