#include "engine/continuation/first_lyapunov.h"

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <limits>

namespace bif::cont {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using CVector = Eigen::VectorXcd;

// The multilinear forms of f at y from the exact Jacobian J:
//   B(u, v)    = D_v J(y) u                ~ [J(y + h v) - J(y - h v)] u / 2h
//   C(u, v, w) = D_w D_v J(y) u            ~ [J(y+hv+hw) - J(y+hv-hw) - J(y-hv+hw) + J(y-hv-hw)] u / 4h^2
class Forms {
  public:
    Forms(const ModelEquations& eq, const double* p, const Eigen::VectorXd& y) : eq_(eq), p_(p), y_(y) {
        h_ = 1e-4 * (1.0 + y.lpNorm<Eigen::Infinity>());
    }

    Eigen::VectorXd b(const Eigen::VectorXd& u, const Eigen::VectorXd& v) const {
        return (jacobian(y_ + h_ * v) - jacobian(y_ - h_ * v)) * u / (2.0 * h_);
    }
    Eigen::VectorXd c(const Eigen::VectorXd& u, const Eigen::VectorXd& v, const Eigen::VectorXd& w) const {
        const Eigen::MatrixXd d = jacobian(y_ + h_ * (v + w)) - jacobian(y_ + h_ * (v - w)) -
                                  jacobian(y_ - h_ * (v - w)) + jacobian(y_ - h_ * (v + w));
        return d * u / (4.0 * h_ * h_);
    }
    // B extended to complex arguments by bilinearity.
    CVector b(const CVector& u, const CVector& v) const {
        const Eigen::VectorXd ur = u.real(), ui = u.imag(), vr = v.real(), vi = v.imag();
        const Eigen::VectorXd re = b(ur, vr) - b(ui, vi), im = b(ur, vi) + b(ui, vr);
        return re.cast<std::complex<double>>() + std::complex<double>(0, 1) * im.cast<std::complex<double>>();
    }
    // C(q, q, conj q) for q = a + i b, by trilinearity and symmetry:
    //   C(a,a,a) + C(a,b,b) + i (C(a,a,b) + C(b,b,b))
    CVector c_qqq(const CVector& q) const {
        const Eigen::VectorXd a = q.real(), bb = q.imag();
        const Eigen::VectorXd re = c(a, a, a) + c(a, bb, bb), im = c(a, a, bb) + c(bb, bb, bb);
        return re.cast<std::complex<double>>() + std::complex<double>(0, 1) * im.cast<std::complex<double>>();
    }

  private:
    Eigen::MatrixXd jacobian(const Eigen::VectorXd& at) const {
        RowMajor j(at.size(), at.size());
        eq_.jacobian(at.data(), p_, j.data());
        return j;
    }
    const ModelEquations& eq_;
    const double* p_;
    Eigen::VectorXd y_;
    double h_;
};

// The eigenvector of m for its eigenvalue closest to `target`.
CVector eigenvector_near(const Eigen::MatrixXd& m, std::complex<double> target) {
    Eigen::EigenSolver<Eigen::MatrixXd> solver(m);
    Eigen::Index best = 0;
    for (Eigen::Index i = 1; i < solver.eigenvalues().size(); ++i)
        if (std::abs(solver.eigenvalues()[i] - target) < std::abs(solver.eigenvalues()[best] - target))
            best = i;
    return solver.eigenvectors().col(best);
}

// (i w - A)^-1 b through the real system of twice the size, as
// (i w - A)(xr + i xi) = (-A xr - w xi) + i (w xr - A xi). Eigen's complex LU would compile its
// complex matrix kernels into this file, which made it the slowest file of the whole build.
CVector solve_shifted(const Eigen::MatrixXd& a, double w, const CVector& b) {
    const Eigen::Index n = a.rows();
    Eigen::MatrixXd m(2 * n, 2 * n);
    m << -a, -w * Eigen::MatrixXd::Identity(n, n), w * Eigen::MatrixXd::Identity(n, n), -a;
    Eigen::VectorXd rhs(2 * n);
    rhs << b.real(), b.imag();
    const Eigen::VectorXd x = m.partialPivLu().solve(rhs);
    CVector out(n);
    out.real() = x.head(n);
    out.imag() = x.tail(n);
    return out;
}

} // namespace

double first_lyapunov_coefficient(const ModelEquations& eq, const double* p,
                                  const std::vector<double>& state) {
    const Eigen::Index n = Eigen::Index(state.size());
    const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(state.data(), n);
    RowMajor a(n, n);
    eq.jacobian(y.data(), p, a.data());
    const Eigen::VectorXcd mu = Eigen::EigenSolver<Eigen::MatrixXd>(a, false).eigenvalues();
    double omega = 0.0, closest = INFINITY;
    for (const std::complex<double>& m : mu)
        if (m.imag() > 0 && std::abs(m.real()) < closest) {
            closest = std::abs(m.real());
            omega = m.imag();
        }
    const double scale = std::max(1.0, mu.cwiseAbs().maxCoeff());
    if (!(omega > 1e-8 * scale) || closest > 1e-5 * scale) return std::numeric_limits<double>::quiet_NaN();

    const std::complex<double> i_omega(0.0, omega);
    CVector q = eigenvector_near(a, i_omega);
    q /= q.norm();
    CVector pv = eigenvector_near(a.transpose(), -i_omega);
    pv /= std::conj(pv.dot(q)); // Eigen's dot conjugates its left side: <p, q> = 1
    const Forms forms(eq, p, y);
    const CVector cq = q.conjugate();
    const CVector b_qq = forms.b(q, q), b_qqc = forms.b(q, cq);
    const CVector r = -solve_shifted(a, 0.0, b_qqc);       // A^-1 B(q, conj q)
    const CVector s = solve_shifted(a, 2.0 * omega, b_qq); // (2 i omega - A)^-1 B(q, q)
    const std::complex<double> g =
        pv.dot(forms.c_qqq(q)) - 2.0 * pv.dot(forms.b(q, r)) + pv.dot(forms.b(cq, s));
    return g.real() / (2.0 * omega);
}

} // namespace bif::cont
