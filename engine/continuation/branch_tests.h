// The test functions evaluated along one branch, in a fixed order: the fold test (the tangent's
// parameter component), the branch-point test (det [dF/dx; t^T]), the problem's own tests, then two
// per box bound (x_c - min and max - x_c, whose sign change is where the branch leaves the box).
#pragma once

#include "engine/continuation/continuation_problem.h"
#include "engine/continuation/pseudo_arclength.h"

#include <string>
#include <vector>

namespace bif::cont::detail {

class BranchTests {
  public:
    enum class Kind { Fold, BranchPoint, Problem, BoxEdge };

    BranchTests(const ContinuationProblem& problem, const ContinuationSettings& settings, int parameter);

    int size() const { return static_cast<int>(kinds_.size()); }
    Kind kind(int k) const { return kinds_[std::size_t(k)]; }
    const std::string& label(int k) const { return labels_[std::size_t(k)]; }
    int problem_index(int k) const { return problem_index_[std::size_t(k)]; }

    Vector evaluate(const Vector& x, const Matrix& j, const Vector& tangent) const;

  private:
    const ContinuationProblem& problem_;
    const ContinuationSettings& settings_;
    int parameter_;
    std::vector<Kind> kinds_;
    std::vector<std::string> labels_;
    std::vector<int> problem_index_; // the problem's test index, or the bound's index for BoxEdge
};

} // namespace bif::cont::detail
