// Hand-written Rodas4 for the stiff benchmark (issue 36), for autonomous models (no df/dt terms),
// one thread per system; prepended after stiff_support.cuh to a model's kernel file. The method: E. Hairer
// and G. Wanner, Solving ODEs II, Sect. VI.4, RODAS with the coefficients of their rodas.f (METH = 1)
// in its transformed variables, gamma = 1/4:
//   (1/(h gamma) I - J) k_i = f(y + sum_{j<i} a_ij k_j) + sum_{j<i} (c_ij / h) k_j
//   y_emb = y + sum_j a_5j k_j + k5 (stage 6 is evaluated there),  y_new = y_emb + k6,  err = k6
// The step control is the same algorithm as Bifscope's (kernels/bif/step_size.h, integrate.h), so
// that both take the same steps: sc_i = atol + rtol max(|y_i|, |y_new_i|), RMS norm, I controller
// h_new = h clamp(0.9 err^(-1/4), shrink, 5) with the power in single precision (__powf), no growth
// after a rejection, the last step shortened to land on t_end (stretched by up to 1%), a rejection
// below max(min_step, 16 ulp of t) a failure. f(y_new) is evaluated once a step is accepted.
//
// Model: static constexpr int n; __device__ void rhs(const Real* y, Real* f) const;
//        __device__ void jacobian(const Real* y, Real* J) const  (row-major n x n).

template <class Model, class Real>
__device__ __forceinline__ StiffCounts hand_rodas4(const Model& m, Real* y, const StiffSettings<Real>& s) {
    constexpr int N = Model::n;
    constexpr Real gamma = Real(0.25);
    constexpr Real a21 = Real(1.544);
    constexpr Real a31 = Real(0.9466785280815826), a32 = Real(0.2557011698983284);
    constexpr Real a41 = Real(3.314825187068521), a42 = Real(2.896124015972201),
                   a43 = Real(0.9986419139977817);
    constexpr Real a51 = Real(1.221224509226641), a52 = Real(6.019134481288629),
                   a53 = Real(12.53708332932087), a54 = Real(-0.6878860361058950);
    constexpr Real c21 = Real(-5.6688);
    constexpr Real c31 = Real(-2.430093356833875), c32 = Real(-0.2063599157091915);
    constexpr Real c41 = Real(-0.1073529058151375), c42 = Real(-9.594562251023355),
                   c43 = Real(-20.47028614809616);
    constexpr Real c51 = Real(7.496443313967647), c52 = Real(-10.24680431464352),
                   c53 = Real(-33.99990352819905), c54 = Real(11.70890893206160);
    constexpr Real c61 = Real(8.083246795921522), c62 = Real(-7.981132988064893),
                   c63 = Real(-31.52159432874371), c64 = Real(16.31930543123136),
                   c65 = Real(-6.058818238834054);
    constexpr Real eps = sizeof(Real) == 4 ? Real(1.1920929e-7) : Real(2.220446049250313e-16);

    Real f0[N];
    m.rhs(y, f0);
    Real t = 0, h = s.h0;
    bool rejected_last = false;
    StiffCounts out{0, 0, 0};
    for (int attempt = 0; t < s.t_end; ++attempt) {
        if (attempt >= s.max_attempts) {
            out.status = 3;
            break;
        }
        const bool last = t + Real(1.01) * h >= s.t_end;
        const Real hs = last ? s.t_end - t : h;
        // E = 1/(h gamma) I - J
        Real e[N * N], inv[N];
        int piv[N];
        m.jacobian(y, e);
        const Real diag = Real(1) / (hs * gamma);
#pragma unroll
        for (int i = 0; i < N * N; ++i)
            e[i] = (i % (N + 1) == 0 ? diag : Real(0)) - e[i];
        Real y_new[N], k6[N];
        Real err = Real(0);
        bool finite = hand_lu_factor<N>(e, piv, inv);
        if (finite) {
            const Real ih = Real(1) / hs;
            Real k1[N], k2[N], k3[N], k4[N], k5[N], u[N];
#pragma unroll
            for (int i = 0; i < N; ++i)
                k1[i] = f0[i];
            hand_lu_solve<N>(e, piv, inv, k1);
#pragma unroll
            for (int i = 0; i < N; ++i)
                u[i] = y[i] + a21 * k1[i];
            m.rhs(u, k2);
#pragma unroll
            for (int i = 0; i < N; ++i)
                k2[i] += ih * (c21 * k1[i]);
            hand_lu_solve<N>(e, piv, inv, k2);
#pragma unroll
            for (int i = 0; i < N; ++i)
                u[i] = y[i] + a31 * k1[i] + a32 * k2[i];
            m.rhs(u, k3);
#pragma unroll
            for (int i = 0; i < N; ++i)
                k3[i] += ih * (c31 * k1[i] + c32 * k2[i]);
            hand_lu_solve<N>(e, piv, inv, k3);
#pragma unroll
            for (int i = 0; i < N; ++i)
                u[i] = y[i] + a41 * k1[i] + a42 * k2[i] + a43 * k3[i];
            m.rhs(u, k4);
#pragma unroll
            for (int i = 0; i < N; ++i)
                k4[i] += ih * (c41 * k1[i] + c42 * k2[i] + c43 * k3[i]);
            hand_lu_solve<N>(e, piv, inv, k4);
#pragma unroll
            for (int i = 0; i < N; ++i)
                u[i] = y[i] + a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i];
            m.rhs(u, k5);
#pragma unroll
            for (int i = 0; i < N; ++i)
                k5[i] += ih * (c51 * k1[i] + c52 * k2[i] + c53 * k3[i] + c54 * k4[i]);
            hand_lu_solve<N>(e, piv, inv, k5);
#pragma unroll
            for (int i = 0; i < N; ++i)
                u[i] += k5[i]; // y_emb
            m.rhs(u, k6);
#pragma unroll
            for (int i = 0; i < N; ++i)
                k6[i] += ih * (c61 * k1[i] + c62 * k2[i] + c63 * k3[i] + c64 * k4[i] + c65 * k5[i]);
            hand_lu_solve<N>(e, piv, inv, k6);
            Real sum = 0;
#pragma unroll
            for (int i = 0; i < N; ++i) {
                y_new[i] = u[i] + k6[i];
                const Real r = k6[i] / (s.atol + s.rtol * fmax(fabs(y[i]), fabs(y_new[i])));
                sum += r * r;
            }
            err = sqrt(sum * (Real(1) / Real(N)));
            finite = isfinite(err);
#pragma unroll
            for (int i = 0; i < N; ++i)
                finite = finite && isfinite(y_new[i]);
        }
        if (finite && err <= Real(1)) {
            Real fac = Real(0.9) * Real(__powf(float(fmax(err, Real(1e-10))), -0.25f));
            fac = fmin(fmax(fac, s.shrink), Real(5));
            if (rejected_last) fac = fmin(fac, Real(1));
            rejected_last = false;
            const Real h_next = hs * fac;
            const bool reached_end = last && hs == s.t_end - t;
            t = reached_end ? s.t_end : t + hs;
#pragma unroll
            for (int i = 0; i < N; ++i)
                y[i] = y_new[i];
            m.rhs(y, f0);
            h = (reached_end && h_next >= hs) ? fmax(h_next, h) : h_next;
            ++out.accepted;
        } else {
            rejected_last = true;
            const Real fac = finite ? Real(0.9) * Real(__powf(float(err), -0.25f)) : s.shrink;
            h = hs * fmin(fmax(fac, s.shrink), Real(1));
            ++out.rejected;
            if (h < fmax(s.min_step, Real(16) * eps * fabs(t)) || t + h == t) {
                out.status = finite ? 1 : 2;
                break;
            }
        }
    }
    return out;
}
