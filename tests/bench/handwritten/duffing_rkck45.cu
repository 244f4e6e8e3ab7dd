// Hand-written reference for the Duffing RKCK45 benchmark, double precision:
//   y1' = y2,  y2' = delta y1 - y1^3 - k y2 + B cos(omega t)
// One thread per system (k swept), Cash-Karp 4(5) (Cash & Karp 1990, Table 5), integrated period by
// period to t = n T exactly (T = 2 pi / omega) with the step size carried across periods, and the
// state written at the end. The step control is the same algorithm as Bifscope's (so that both take
// the same steps): sc_i = atol + rtol max(|y_i|, |y_new_i|), RMS norm, elementary controller
// h_new = h clamp(0.9 err^(-1/5), shrink, 5) with err^(-1/5) in single precision (__powf, as
// bif/step_size.h: a heuristic factor), no growth after a rejection, the last step of a
// period shortened to land on its end (stretched by up to 1%). Constants are kernel arguments.

struct DuffingSettings {
    double delta, B, omega, rtol, atol, h0, shrink;
    int periods;
};

__device__ __forceinline__ void duffing_rhs(const DuffingSettings& s, double k, double t, double y1,
                                            double y2, double& d1, double& d2) {
    d1 = y2;
    d2 = s.delta * y1 - y1 * y1 * y1 - k * y2 + s.B * cos(s.omega * t);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_duffing_rkck45(const double* __restrict__ k_values, double* __restrict__ out, unsigned long long n,
                        const DuffingSettings s) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double k = k_values[i];
    const double T = 2.0 * 3.14159265358979323846 / s.omega;
    double t = 0.0, y1 = 0.1, y2 = 0.0, h = s.h0;
    bool rejected_last = false;
    double f1, f2;
    duffing_rhs(s, k, t, y1, y2, f1, f2);
    for (int period = 1; period <= s.periods; ++period) {
        const double t_end = T * period;
        while (t < t_end) {
            const bool last = t + 1.01 * h >= t_end;
            const double hs = last ? t_end - t : h;
            double a2, b2, a3, b3, a4, b4, a5, b5, a6, b6;
            duffing_rhs(s, k, t + 0.2 * hs, y1 + hs * (0.2 * f1), y2 + hs * (0.2 * f2), a2, b2);
            duffing_rhs(s, k, t + 0.3 * hs, y1 + hs * (3.0 / 40 * f1 + 9.0 / 40 * a2),
                        y2 + hs * (3.0 / 40 * f2 + 9.0 / 40 * b2), a3, b3);
            duffing_rhs(s, k, t + 0.6 * hs, y1 + hs * (0.3 * f1 - 0.9 * a2 + 1.2 * a3),
                        y2 + hs * (0.3 * f2 - 0.9 * b2 + 1.2 * b3), a4, b4);
            duffing_rhs(s, k, t + hs,
                        y1 + hs * (-11.0 / 54 * f1 + 2.5 * a2 - 70.0 / 27 * a3 + 35.0 / 27 * a4),
                        y2 + hs * (-11.0 / 54 * f2 + 2.5 * b2 - 70.0 / 27 * b3 + 35.0 / 27 * b4), a5, b5);
            duffing_rhs(s, k, t + 0.875 * hs,
                        y1 + hs * (1631.0 / 55296 * f1 + 175.0 / 512 * a2 + 575.0 / 13824 * a3 +
                                   44275.0 / 110592 * a4 + 253.0 / 4096 * a5),
                        y2 + hs * (1631.0 / 55296 * f2 + 175.0 / 512 * b2 + 575.0 / 13824 * b3 +
                                   44275.0 / 110592 * b4 + 253.0 / 4096 * b5),
                        a6, b6);
            const double n1 =
                y1 + hs * (37.0 / 378 * f1 + 250.0 / 621 * a3 + 125.0 / 594 * a4 + 512.0 / 1771 * a6);
            const double n2 =
                y2 + hs * (37.0 / 378 * f2 + 250.0 / 621 * b3 + 125.0 / 594 * b4 + 512.0 / 1771 * b6);
            constexpr double e1 = 37.0 / 378 - 2825.0 / 27648, e3 = 250.0 / 621 - 18575.0 / 48384,
                             e4 = 125.0 / 594 - 13525.0 / 55296, e5 = -277.0 / 14336,
                             e6 = 512.0 / 1771 - 0.25;
            const double r1 = hs * (e1 * f1 + e3 * a3 + e4 * a4 + e5 * a5 + e6 * a6) /
                              (s.atol + s.rtol * fmax(fabs(y1), fabs(n1)));
            const double r2 = hs * (e1 * f2 + e3 * b3 + e4 * b4 + e5 * b5 + e6 * b6) /
                              (s.atol + s.rtol * fmax(fabs(y2), fabs(n2)));
            const double err = sqrt(0.5 * (r1 * r1 + r2 * r2));
            if (err <= 1.0) {
                double fac = fmin(fmax(0.9 * double(__powf(float(fmax(err, 1e-10)), -0.2f)), s.shrink), 5.0);
                if (rejected_last) fac = fmin(fac, 1.0);
                rejected_last = false;
                const double h_next = hs * fac;
                const bool reached_end = last && hs == t_end - t;
                t = reached_end ? t_end : t + hs;
                y1 = n1;
                y2 = n2;
                duffing_rhs(s, k, t, y1, y2, f1, f2);
                h = (reached_end && h_next >= hs) ? fmax(h_next, h) : h_next;
            } else {
                rejected_last = true;
                h = hs * fmin(fmax(0.9 * double(__powf(float(err), -0.2f)), s.shrink), 1.0);
                if (!(h > 1e-14)) break;
            }
        }
    }
    out[i] = y1;
    out[i + n] = y2;
}
