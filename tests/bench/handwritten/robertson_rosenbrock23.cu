// Hand-written reference for the stiff benchmark (issue 36): Robertson's equations
//   y1' = -k1 y1 + k3 y2 y3,  y2' = k1 y1 - k3 y2 y3 - k2 y2^2,  y3' = k2 y2^2
// with k3 swept per system, integrated from t = 0 to t_end by the Shampine-Reichelt Rosenbrock23
// (MATLAB's ode23s; the same formulas as kernels/bif/steppers/rosenbrock23.h: W = I - h d J,
// three solves, err = h/6 (k1 - 2 k2 + k3), FSAL). Autonomous: df/dt = 0. The step control is the
// same algorithm as Bifscope's (so that both take the same steps): sc_i = atol + rtol max(|y_i|,
// |y_new_i|), RMS norm, I controller h_new = h clamp(0.9 err^(-1/3), shrink, 5) with the power in single
// precision (__powf), no growth after a rejection, the last step shortened to land on t_end
// (stretched by up to 1%), a rejection below max(min_step, 16 ulp of t) a failure, a step shrinking
// by at most s.shrink. Compiled after stiff_support.cuh (settings, outcome, the register-resident
// LU with partial pivoting). Writes y at t_end, the accepted and rejected step counts and a status
// (0 ok, 1 step underflow, 2 non-finite, 3 step budget).

template <class Real>
__device__ __forceinline__ void robertson_rhs(Real k1, Real k2, Real k3, const Real* y, Real* f) {
    f[0] = -k1 * y[0] + k3 * y[1] * y[2];
    f[1] = k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1];
    f[2] = k2 * y[1] * y[1];
}

template <class Real>
__device__ void robertson_rosenbrock23(const Real* __restrict__ k3_values, Real* __restrict__ out,
                                       unsigned int* __restrict__ counts, unsigned long long n, Real k1,
                                       Real k2, const StiffSettings<Real> s) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Real k3 = k3_values[i];
    const Real d = Real(1) / (Real(2) + sqrt(Real(2)));
    const Real e32 = Real(6) + sqrt(Real(2));
    const Real eps = sizeof(Real) == 4 ? Real(1.1920929e-7) : Real(2.220446049250313e-16);
    Real y[3] = {Real(1), Real(0), Real(0)};
    Real f0[3];
    robertson_rhs(k1, k2, k3, y, f0);
    Real t = 0, h = s.h0;
    bool rejected_last = false;
    unsigned int accepted = 0, rejected = 0, status = 0;
    for (int attempt = 0; t < s.t_end; ++attempt) {
        if (attempt >= s.max_attempts) {
            status = 3;
            break;
        }
        const bool last = t + Real(1.01) * h >= s.t_end;
        const Real hs = last ? s.t_end - t : h;
        // W = I - hs d J
        const Real jd = hs * d;
        Real w[9] = {Real(1) + jd * k1,
                     -jd * k3 * y[2],
                     -jd * k3 * y[1],
                     -jd * k1,
                     Real(1) + jd * (k3 * y[2] + Real(2) * k2 * y[1]),
                     jd * k3 * y[1],
                     Real(0),
                     -jd * Real(2) * k2 * y[1],
                     Real(1)};
        int piv[3];
        Real inv[3];
        Real err = Real(1e30);
        Real y_new[3], f1[3], k1v[3], k2v[3], k3v[3];
        bool finite = false;
        if (hand_lu_factor<3>(w, piv, inv)) {
#pragma unroll
            for (int c = 0; c < 3; ++c)
                k1v[c] = f0[c];
            hand_lu_solve<3>(w, piv, inv, k1v);
            Real tmp[3];
#pragma unroll
            for (int c = 0; c < 3; ++c)
                tmp[c] = y[c] + Real(0.5) * hs * k1v[c];
            robertson_rhs(k1, k2, k3, tmp, k3v); // F1
#pragma unroll
            for (int c = 0; c < 3; ++c)
                k2v[c] = k3v[c] - k1v[c];
            hand_lu_solve<3>(w, piv, inv, k2v);
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                k2v[c] += k1v[c];
                y_new[c] = y[c] + hs * k2v[c];
            }
            robertson_rhs(k1, k2, k3, y_new, f1); // F2
#pragma unroll
            for (int c = 0; c < 3; ++c)
                k3v[c] = f1[c] - e32 * (k2v[c] - k3v[c]) - Real(2) * (k1v[c] - f0[c]);
            hand_lu_solve<3>(w, piv, inv, k3v);
            Real sum = 0;
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                const Real e = (hs / Real(6)) * (k1v[c] - Real(2) * k2v[c] + k3v[c]);
                const Real sc = s.atol + s.rtol * fmax(fabs(y[c]), fabs(y_new[c]));
                const Real r = e / sc;
                sum += r * r;
            }
            err = sqrt(sum * (Real(1) / Real(3)));
            finite = isfinite(err) && isfinite(y_new[0]) && isfinite(y_new[1]) && isfinite(y_new[2]);
        }
        if (finite && err <= Real(1)) {
            Real fac = Real(0.9) * Real(__powf(float(fmax(err, Real(1e-10))), -1.0f / 3.0f));
            fac = fmin(fmax(fac, s.shrink), Real(5));
            if (rejected_last) fac = fmin(fac, Real(1));
            rejected_last = false;
            const Real h_next = hs * fac;
            const bool reached_end = last && hs == s.t_end - t;
            t = reached_end ? s.t_end : t + hs;
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                y[c] = y_new[c];
                f0[c] = f1[c];
            }
            h = (reached_end && h_next >= hs) ? fmax(h_next, h) : h_next;
            ++accepted;
        } else {
            rejected_last = true;
            const Real fac = finite ? Real(0.9) * Real(__powf(float(err), -1.0f / 3.0f)) : s.shrink;
            h = hs * fmin(fmax(fac, s.shrink), Real(1));
            ++rejected;
            if (h < fmax(s.min_step, Real(16) * eps * fabs(t)) || t + h == t) {
                status = finite ? 1 : 2;
                break;
            }
        }
    }
    out[i] = y[0];
    out[i + n] = y[1];
    out[i + 2 * n] = y[2];
    counts[i] = accepted;
    counts[i + n] = rejected;
    counts[i + 2 * n] = status;
}

extern "C" __global__ void __launch_bounds__(128)
    hand_robertson_rosenbrock23_double(const double* k3, double* out, unsigned int* counts,
                                       unsigned long long n, double k1, double k2,
                                       const StiffSettings<double> s) {
    robertson_rosenbrock23(k3, out, counts, n, k1, k2, s);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_robertson_rosenbrock23_float(const float* k3, float* out, unsigned int* counts, unsigned long long n,
                                      float k1, float k2, const StiffSettings<float> s) {
    robertson_rosenbrock23(k3, out, counts, n, k1, k2, s);
}
