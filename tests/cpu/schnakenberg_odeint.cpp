#include "tests/cpu/schnakenberg_odeint.h"

#include <boost/numeric/odeint.hpp>

namespace bif::test {

namespace {

namespace ublas = boost::numeric::ublas;
using Vector = ublas::vector<double>;
using Matrix = ublas::matrix<double>;
constexpr int kCells = static_cast<int>(kSchnakenbergCells);
constexpr double a = 0.1, b = 0.9, du = 25.0, dv = 1000.0;

// x_{j-1} - 2 x_j + x_{j+1} of component c (0: u, 1: v), no flux at the ends
double laplacian(const Vector& x, int j, int c) {
    const double left = j > 0 ? x[2 * (j - 1) + c] : x[2 * j + c];
    const double right = j + 1 < kCells ? x[2 * (j + 1) + c] : x[2 * j + c];
    return left - 2.0 * x[2 * j + c] + right;
}

// u' = a - u + u^2 v + du lap u,  v' = b - u^2 v + dv lap v
struct System {
    void operator()(const Vector& x, Vector& dxdt, double) const {
        for (int j = 0; j < kCells; ++j) {
            const double u = x[2 * j], v = x[2 * j + 1];
            dxdt[2 * j] = a - u + u * u * v + du * laplacian(x, j, 0);
            dxdt[2 * j + 1] = b - u * u * v + dv * laplacian(x, j, 1);
        }
    }
};

struct Jacobian {
    void operator()(const Vector& x, Matrix& J, double, Vector& dfdt) const {
        J.clear();
        dfdt.clear();
        for (int j = 0; j < kCells; ++j) {
            const double u = x[2 * j], v = x[2 * j + 1];
            const int iu = 2 * j, iv = 2 * j + 1;
            const int neighbours = (j > 0 ? 1 : 0) + (j + 1 < kCells ? 1 : 0);
            J(iu, iu) = -1.0 + 2.0 * u * v - du * neighbours;
            J(iu, iv) = u * u;
            J(iv, iu) = -2.0 * u * v;
            J(iv, iv) = -u * u - dv * neighbours;
            if (j > 0) {
                J(iu, iu - 2) = du;
                J(iv, iv - 2) = dv;
            }
            if (j + 1 < kCells) {
                J(iu, iu + 2) = du;
                J(iv, iv + 2) = dv;
            }
        }
    }
};

} // namespace

std::vector<double> schnakenberg_chain_odeint(const std::vector<double>& x0, double t_end) {
    namespace odeint = boost::numeric::odeint;
    Vector x(x0.size());
    std::copy(x0.begin(), x0.end(), x.begin());
    odeint::integrate_adaptive(odeint::make_controlled(1e-11, 1e-11, odeint::rosenbrock4<double>()),
                               std::make_pair(System(), Jacobian()), x, 0.0, t_end, 1e-6);
    return std::vector<double>(x.begin(), x.end());
}

} // namespace bif::test
