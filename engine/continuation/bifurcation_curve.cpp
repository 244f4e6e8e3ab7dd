#include "engine/continuation/bifurcation_curve.h"

#include <stdexcept>

namespace bif::cont {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The index of the pair (p, q), p > q, in the order (1,0), (2,0), (2,1), (3,0), ...
Eigen::Index pair_index(Eigen::Index p, Eigen::Index q) {
    return p * (p - 1) / 2 + q;
}

class CurveProblem : public ContinuationProblem {
  public:
    CurveProblem(const ModelEquations& eq, CurveKind kind, std::vector<double> user_values)
        : eq_(eq), kind_(kind), user_values_(std::move(user_values)) {
        if (eq.differentiated_parameters().size() < 2)
            throw std::invalid_argument("a bifurcation curve needs two parameters");
        if (kind == CurveKind::Hopf && eq.dimension() < 2)
            throw std::invalid_argument("a Hopf curve needs at least two states");
    }

    int equation_count() const override { return eq_.dimension() + 1; }

    // M at x = (y, alpha, beta): J or 2J (.) I.
    Eigen::MatrixXd defining_matrix(const Vector& x) const {
        const int n = eq_.dimension();
        const std::vector<double> p = slots(x);
        RowMajor j(n, n);
        eq_.jacobian(x.data(), p.data(), j.data());
        return kind_ == CurveKind::Fold ? Eigen::MatrixXd(j) : bialternate_product(j);
    }

    // The borders: M's singular vectors of its smallest singular value at the start.
    void choose_borders(const Vector& x) {
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(defining_matrix(x),
                                                    Eigen::ComputeFullU | Eigen::ComputeFullV);
        const Eigen::Index last = svd.singularValues().size() - 1;
        b_ = svd.matrixU().col(last);
        c_ = svd.matrixV().col(last);
    }

    bool residual(const Vector& x, Vector& f) const override {
        const int n = eq_.dimension();
        const std::vector<double> p = slots(x);
        f.resize(n + 1);
        eq_.rhs(x.data(), p.data(), f.data());
        // [M b; c^T 0] [v; g] = [0; 1]
        const Eigen::MatrixXd m = defining_matrix(x);
        const Eigen::Index k = m.rows();
        Eigen::MatrixXd bordered = Eigen::MatrixXd::Zero(k + 1, k + 1);
        bordered.topLeftCorner(k, k) = m;
        bordered.topRightCorner(k, 1) = b_;
        bordered.bottomLeftCorner(1, k) = c_.transpose();
        const Vector rhs = Vector::Unit(k + 1, k);
        f[n] = bordered.partialPivLu().solve(rhs)[k];
        return f.allFinite();
    }

    std::vector<double> slots(const Vector& x) const {
        const int n = eq_.dimension();
        std::vector<double> values = user_values_;
        values[std::size_t(eq_.differentiated_parameters()[0])] = x[n];
        values[std::size_t(eq_.differentiated_parameters()[1])] = x[n + 1];
        return eq_.slots(values);
    }

  private:
    const ModelEquations& eq_;
    CurveKind kind_;
    std::vector<double> user_values_;
    Vector b_, c_;
};

} // namespace

Eigen::MatrixXd bialternate_product(const Eigen::MatrixXd& a) {
    const Eigen::Index n = a.rows(), m = n * (n - 1) / 2;
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m, m);
    // (2A (.) I)_{(p,q),(r,s)}: a_pp + a_qq on the diagonal; a_pr (s = q, r != p), a_qs (r = p, s != q),
    // -a_ps (r = q), -a_qr (s = p); zero elsewhere (Govaerts 2000, Kuznetsov 2004, sec. 10.2).
    for (Eigen::Index p = 1; p < n; ++p)
        for (Eigen::Index q = 0; q < p; ++q) {
            const Eigen::Index row = pair_index(p, q);
            for (Eigen::Index r = 1; r < n; ++r)
                for (Eigen::Index s = 0; s < r; ++s) {
                    double v = 0.0;
                    if (r == p && s == q)
                        v = a(p, p) + a(q, q);
                    else if (r == q)
                        v = -a(p, s);
                    else if (s == q)
                        v = a(p, r);
                    else if (r == p)
                        v = a(q, s);
                    else if (s == p)
                        v = -a(q, r);
                    out(row, pair_index(r, s)) = v;
                }
        }
    return out;
}

BifurcationCurve continue_bifurcation_curve(const ModelEquations& eq, CurveKind kind,
                                            const std::vector<double>& user_values,
                                            const std::vector<double>& state, ParameterRange alpha,
                                            ParameterRange beta, ContinuationSettings settings) {
    const int n = eq.dimension();
    if (int(state.size()) != n)
        throw std::invalid_argument("the start state needs " + std::to_string(n) + " values");
    CurveProblem problem(eq, kind, user_values);
    Vector start(n + 2);
    for (int i = 0; i < n; ++i)
        start[i] = state[std::size_t(i)];
    start[n] = user_values[std::size_t(eq.differentiated_parameters()[0])];
    start[n + 1] = user_values[std::size_t(eq.differentiated_parameters()[1])];
    problem.choose_borders(start);
    settings.parameter = n + 1;
    settings.box = {{n, alpha.min, alpha.max}, {n + 1, beta.min, beta.max}};
    settings.detect_folds = false;
    settings.detect_branch_points = false;
    const Branch branch = continue_branch(problem, start, settings);

    BifurcationCurve out;
    out.stop = branch.stop;
    out.message = branch.message;
    for (const ContinuationPoint& c : branch.points) {
        CurvePoint p;
        p.state.assign(c.x.data(), c.x.data() + n);
        p.alpha = c.x[n];
        p.beta = c.x[n + 1];
        p.arclength = c.arclength;
        p.label = c.label;
        out.points.push_back(std::move(p));
    }
    return out;
}

} // namespace bif::cont
