#include "engine/continuation/orbit_curve.h"

#include "engine/continuation/floquet_multipliers.h"
#include "engine/continuation/orbit_curve_tests.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace bif::cont {

namespace {

// The index of the pair (p, q), p > q, in the order (1,0), (2,0), (2,1), (3,0), ...
Eigen::Index pair_index(Eigen::Index p, Eigen::Index q) {
    return p * (p - 1) / 2 + q;
}

// [A b; c^T 0]
Eigen::MatrixXd bordered(const Eigen::MatrixXd& a, const Vector& b, const Vector& c) {
    const Eigen::Index k = a.rows();
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(k + 1, k + 1);
    out.topLeftCorner(k, k) = a;
    out.topRightCorner(k, 1) = b;
    out.bottomLeftCorner(1, k) = c.transpose();
    return out;
}

class OrbitCurveProblem : public ContinuationProblem {
  public:
    OrbitCurveProblem(const OrbitFactory& factory, OrbitBifurcation kind, const OrbitCurveStart& start)
        : factory_(factory), kind_(kind), user_(start.user_values), beta_(start.beta),
          m_(int(start.u.size())), reference_(start.u) {
        const std::unique_ptr<OrbitProblem> probe = orbit_at(user_[std::size_t(beta_)]);
        if (probe->unknowns() != m_)
            throw std::invalid_argument("orbit curve: the start does not fit the orbit's unknowns");
        trivial_ = probe->has_trivial_multiplier();
        if (kind == OrbitBifurcation::NeimarkSacker && probe->state_dimension() < 2)
            throw std::invalid_argument("a Neimark-Sacker curve needs an orbit of at least two states");
    }

    int equation_count() const override { return m_ + 1; }

    bool residual(const Vector& x, Vector& f) const override {
        OrbitEvaluation e;
        double g = 0.0;
        if (!evaluate(x, false, e) || !test_equation(defining_matrix(e), g)) return false;
        f.resize(m_ + 1);
        f.head(m_) = e.residual;
        f[m_] = g;
        return f.allFinite();
    }

    bool jacobian(const Vector& x, Matrix& j) const override {
        OrbitEvaluation e;
        if (!evaluate(x, true, e)) return false;
        j = Matrix::Zero(m_ + 1, m_ + 2);
        j.topLeftCorner(m_, m_) = e.jacobian;
        j.block(0, m_, m_, 1) = e.parameter_derivative;
        // dG/dbeta ~ (G(beta + h) - G(beta - h)) / 2h, h as OrbitProblem takes it for alpha
        const double h = 1e-5 * std::max(1.0, std::abs(x[m_ + 1]));
        Vector up, down;
        std::string why;
        if (!orbit_at(x[m_ + 1] + h)->residual(x.head(m_), x[m_], up, why) ||
            !orbit_at(x[m_ + 1] - h)->residual(x.head(m_), x[m_], down, why))
            return false;
        j.block(0, m_ + 1, m_, 1) = (up - down) / (2 * h);
        cached_x_ = x;
        cached_a_ = defining_matrix(e);
        cached_segments_ = std::move(e.segments);
        // dg/dx_i by central differences with the borders fixed
        const double base = std::cbrt(std::numeric_limits<double>::epsilon());
        for (int i = 0; i < m_ + 2; ++i) {
            const double hi = base * (1.0 + std::abs(x[i]));
            Vector xp = x, xm = x;
            xp[i] += hi;
            xm[i] -= hi;
            double gp = 0.0, gm = 0.0;
            if (!test_equation_at(xp, gp) || !test_equation_at(xm, gm)) return false;
            j(m_, i) = (gp - gm) / (2 * hi);
        }
        return j.allFinite();
    }

    int test_function_count() const override { return int(codim2_labels(kind_).size()); }
    std::string test_function_label(int k) const override { return codim2_labels(kind_)[std::size_t(k)]; }

    void test_functions(const Vector& x, const Matrix&, const Vector&, Vector& values) const override {
        const OrbitStability s = stability_at(x);
        tested_.emplace_back(x, s);
        values = codim2_tests(kind_, s);
    }

    bool accept_special_point(int k, const Vector& x, const Matrix&, const Vector&) const override {
        return accept_codim2(kind_, k, stability_at(x));
    }

    // The borders follow the null vectors of A, and a shooting orbit's phase condition its last
    // solution (both leave the zeros of F where they are).
    void point_accepted(const Vector& x) const override {
        reference_ = x.head(m_);
        Eigen::MatrixXd a;
        if (cached_x_.size() == x.size() && cached_x_ == x) {
            a = cached_a_;
        } else {
            OrbitEvaluation e;
            if (!evaluate(x, false, e)) return;
            a = defining_matrix(e);
        }
        const Eigen::Index k = a.rows();
        const Vector rhs = Vector::Unit(k + 1, k);
        const Vector v = bordered(a, b_, c_).partialPivLu().solve(rhs).head(k);
        const Vector w = bordered(a.transpose(), c_, b_).partialPivLu().solve(rhs).head(k);
        if (v.allFinite() && w.allFinite() && v.norm() > 0 && w.norm() > 0) {
            c_ = v.normalized();
            b_ = w.normalized();
        }
    }

    // The first borders: A's singular vectors of its smallest singular value at x.
    bool choose_borders(const Vector& x) {
        OrbitEvaluation e;
        if (!evaluate(x, false, e)) return false;
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(defining_matrix(e),
                                                    Eigen::ComputeFullU | Eigen::ComputeFullV);
        const Eigen::Index last = svd.singularValues().size() - 1;
        b_ = svd.matrixU().col(last);
        c_ = svd.matrixV().col(last);
        return true;
    }

    OrbitStability stability_at(const Vector& x) const {
        for (auto it = tested_.rbegin(); it != tested_.rend(); ++it)
            if (it->first == x) return it->second;
        if (cached_x_.size() == x.size() && cached_x_ == x)
            return orbit_stability(cached_segments_, trivial_);
        OrbitEvaluation e;
        if (!evaluate(x, false, e)) return {};
        return orbit_stability(e.segments, trivial_);
    }

    double period_at(const Vector& x) const { return orbit_at(x[m_ + 1])->period(x.head(m_), x[m_]); }

  private:
    std::unique_ptr<OrbitProblem> orbit_at(double beta) const {
        std::vector<double> user = user_;
        user[std::size_t(beta_)] = beta;
        std::unique_ptr<OrbitProblem> orbit = factory_(user);
        if (!orbit) throw std::invalid_argument("orbit curve: the factory made no orbit problem");
        orbit->set_reference(reference_);
        return orbit;
    }

    bool evaluate(const Vector& x, bool parameter_derivative, OrbitEvaluation& e) const {
        std::string why;
        return orbit_at(x[m_ + 1])->evaluate(x.head(m_), x[m_], parameter_derivative, e, why) &&
               e.residual.allFinite() && e.jacobian.allFinite();
    }

    Eigen::MatrixXd defining_matrix(const OrbitEvaluation& e) const {
        switch (kind_) {
        case OrbitBifurcation::Fold:
            return e.jacobian;
        case OrbitBifurcation::PeriodDoubling: {
            const Eigen::MatrixXd m = monodromy_matrix(e.segments);
            return m + Eigen::MatrixXd::Identity(m.rows(), m.cols());
        }
        case OrbitBifurcation::NeimarkSacker: {
            const Eigen::MatrixXd c = second_compound(monodromy_matrix(e.segments));
            return c - Eigen::MatrixXd::Identity(c.rows(), c.cols());
        }
        }
        return e.jacobian;
    }

    // g from [A b; c^T 0] [v; g] = [0; 1]
    bool test_equation(const Eigen::MatrixXd& a, double& g) const {
        const Eigen::Index k = a.rows();
        g = bordered(a, b_, c_).partialPivLu().solve(Vector::Unit(k + 1, k))[k];
        return std::isfinite(g);
    }

    bool test_equation_at(const Vector& x, double& g) const {
        OrbitEvaluation e;
        return evaluate(x, false, e) && test_equation(defining_matrix(e), g);
    }

    const OrbitFactory& factory_;
    OrbitBifurcation kind_;
    std::vector<double> user_;
    int beta_;
    int m_;
    bool trivial_ = false;
    mutable Vector reference_;
    mutable Vector b_, c_;
    // The Jacobian's evaluation at its base point, for the borders and the tests that follow it.
    mutable Vector cached_x_;
    mutable Eigen::MatrixXd cached_a_;
    mutable std::vector<Eigen::MatrixXd> cached_segments_;
    mutable std::vector<std::pair<Vector, OrbitStability>> tested_;
};

} // namespace

Eigen::MatrixXd second_compound(const Eigen::MatrixXd& m) {
    const Eigen::Index n = m.rows(), size = n * (n - 1) / 2;
    Eigen::MatrixXd out(size, size);
    for (Eigen::Index p = 1; p < n; ++p)
        for (Eigen::Index q = 0; q < p; ++q)
            for (Eigen::Index r = 1; r < n; ++r)
                for (Eigen::Index s = 0; s < r; ++s)
                    out(pair_index(p, q), pair_index(r, s)) = m(p, r) * m(q, s) - m(p, s) * m(q, r);
    return out;
}

OrbitCurve continue_orbit_curve(const OrbitFactory& factory, OrbitBifurcation kind,
                                const OrbitCurveStart& start, ParameterInterval alpha, ParameterInterval beta,
                                ContinuationSettings settings) {
    const int p = int(start.user_values.size());
    if (start.alpha < 0 || start.alpha >= p || start.beta < 0 || start.beta >= p || start.alpha == start.beta)
        throw std::invalid_argument("orbit curve: alpha and beta must be two different user parameters");
    OrbitCurveStart s = start;
    s.user_values[std::size_t(s.alpha)] = s.alpha_value;
    OrbitCurveProblem problem(factory, kind, s);
    const int m = int(s.u.size());
    Vector x(m + 2);
    x << s.u, s.alpha_value, s.user_values[std::size_t(s.beta)];
    OrbitCurve out;
    if (!problem.choose_borders(x)) {
        out.stop = StopReason::StartNotConverged;
        out.message = "the orbit cannot be evaluated at the start";
        return out;
    }
    settings.parameter = m + 1;
    settings.box.push_back({m, alpha.min, alpha.max});
    settings.box.push_back({m + 1, beta.min, beta.max});
    settings.detect_folds = false;
    settings.detect_branch_points = false;
    const Branch branch = continue_branch(problem, x, settings);
    out.stop = branch.stop;
    out.message = branch.message;
    for (const ContinuationPoint& c : branch.points) {
        OrbitCurvePoint q;
        q.unknowns.assign(c.x.data(), c.x.data() + m);
        q.alpha = c.x[m];
        q.beta = c.x[m + 1];
        q.period = problem.period_at(c.x);
        q.stability = problem.stability_at(c.x);
        q.label = c.label;
        q.arclength = c.arclength;
        out.points.push_back(std::move(q));
    }
    return out;
}

} // namespace bif::cont
