// The pseudo-arclength core on problems whose branches and special points are known in closed form.
#include "engine/continuation/pseudo_arclength.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif::cont;

namespace {

// x^2 + y^2 = 1, continued in x (component 0): folds at (1, 0) and (-1, 0). Jacobian by finite
// differences (the default).
struct UnitCircle : ContinuationProblem {
    int equation_count() const override { return 1; }
    bool residual(const Vector& x, Vector& f) const override {
        f.resize(1);
        f[0] = x[0] * x[0] + x[1] * x[1] - 1.0;
        return true;
    }
};

// u' = lambda u - u^2 in x = (u, lambda): the branches u = 0 and u = lambda cross at the origin (a
// transcritical branch point). The exact Jacobian, and a test function of its own: u - 1/4 (zero at
// lambda = 1/4 on the branch u = lambda).
struct Transcritical : ContinuationProblem {
    int equation_count() const override { return 1; }
    bool residual(const Vector& x, Vector& f) const override {
        f.resize(1);
        f[0] = x[1] * x[0] - x[0] * x[0];
        return true;
    }
    bool jacobian(const Vector& x, Matrix& j) const override {
        j.resize(1, 2);
        j(0, 0) = x[1] - 2.0 * x[0];
        j(0, 1) = x[0];
        return true;
    }
    int test_function_count() const override { return 1; }
    std::string test_function_label(int) const override { return "Q"; }
    void test_functions(const Vector& x, const Matrix&, const Vector&, Vector& values) const override {
        values.resize(1);
        values[0] = x[0] - 0.25;
    }
};

std::vector<const ContinuationPoint*> labelled(const Branch& b, const std::string& label) {
    std::vector<const ContinuationPoint*> out;
    for (const auto& p : b.points)
        if (p.label == label) out.push_back(&p);
    return out;
}

} // namespace

TEST_CASE("a circle is followed through both folds, each located", "[continuation][core]") {
    UnitCircle circle;
    ContinuationSettings s;
    s.parameter = 0;
    s.initial_step = 0.05;
    s.max_step = 0.2;
    s.max_points = 80;
    Vector start(2);
    start << 0.1, 0.9; // off the circle: corrected at x = 0.1 to y = sqrt(0.99)
    const Branch b = continue_branch(circle, start, s);
    REQUIRE(b.points.size() == 80);
    CHECK(b.points.front().x[1] == Approx(std::sqrt(0.99)).epsilon(1e-12));
    for (const auto& p : b.points)
        CHECK(std::abs(p.x.squaredNorm() - 1.0) < 1e-9);
    const auto folds = labelled(b, "LP");
    REQUIRE(folds.size() >= 2);
    // First the fold at x = 1 (the parameter increases first), then the one at x = -1.
    CHECK(folds[0]->x[0] == Approx(1.0).epsilon(1e-12));
    CHECK(std::abs(folds[0]->x[1]) < 1e-6);
    CHECK(folds[1]->x[0] == Approx(-1.0).epsilon(1e-12));
    CHECK(labelled(b, "BP").empty());
    // The arclength grows along the branch and the steps grow from the initial one to the maximum.
    for (std::size_t i = 1; i < b.points.size(); ++i)
        CHECK(b.points[i].arclength >= b.points[i - 1].arclength);
    CHECK(b.points[1].arclength - b.points[0].arclength == Approx(0.05));
    CHECK(b.points.back().arclength > 2.0 * M_PI); // once round the circle and more
}

TEST_CASE("a transcritical branch point, a problem's own test and the box's end", "[continuation][core]") {
    Transcritical problem;
    ContinuationSettings s;
    s.initial_step = 0.03;
    s.max_step = 0.1;
    s.box = {{1, -0.5, 0.5}};
    SECTION("the trivial branch u = 0 crosses the other branch at lambda = 0") {
        Vector start(2);
        start << 0.01, -0.4; // corrected onto u = 0 at lambda = -0.4
        const Branch b = continue_branch(problem, start, s);
        CHECK(b.stop == StopReason::LeftBox);
        const auto bp = labelled(b, "BP");
        REQUIRE(bp.size() == 1);
        CHECK(std::abs(bp[0]->x[1]) < 1e-10);
        CHECK(labelled(b, "LP").empty());
        CHECK(labelled(b, "Q").empty());
        REQUIRE(b.points.back().label == "EP");
        CHECK(b.points.back().x[1] == Approx(0.5).epsilon(1e-12));
    }
    SECTION("on u = lambda the problem's test is located at lambda = 1/4, the branch point again at 0") {
        Vector start(2);
        start << -0.3, -0.3;
        const Branch b = continue_branch(problem, start, s);
        const auto q = labelled(b, "Q");
        REQUIRE(q.size() == 1);
        CHECK(q[0]->x[1] == Approx(0.25).epsilon(1e-12));
        CHECK(q[0]->x[0] == Approx(0.25).epsilon(1e-12));
        const auto bp = labelled(b, "BP");
        REQUIRE(bp.size() == 1);
        CHECK(std::abs(bp[0]->x[1]) < 1e-10);
    }
    SECTION("decreasing the parameter from the start") {
        s.direction = -1;
        Vector start(2);
        start << 0.0, 0.2;
        const Branch b = continue_branch(problem, start, s);
        CHECK(b.points[1].x[1] < 0.2);
        CHECK(b.points.back().x[1] == Approx(-0.5).epsilon(1e-12));
    }
}

TEST_CASE("bounded points, a start without a branch, bad settings", "[continuation][core]") {
    UnitCircle circle;
    ContinuationSettings s;
    s.parameter = 0;
    s.max_points = 7;
    Vector start(2);
    start << 0.0, 1.0;
    CHECK(continue_branch(circle, start, s).points.size() == 7);
    start << 2.0, 0.0; // no point of the circle at x = 2
    const Branch none = continue_branch(circle, start, s);
    CHECK(none.stop == StopReason::StartNotConverged);
    CHECK(none.points.empty());
    CHECK_THROWS_AS(continue_branch(circle, Vector::Zero(3), s), std::invalid_argument);
    s.min_step = 0.0;
    CHECK_THROWS_AS(continue_branch(circle, Vector::Zero(2), s), std::invalid_argument);
}
