#include "engine/continuation/branch_tests.h"

#include "engine/continuation/bordered_newton.h"

namespace bif::cont::detail {

BranchTests::BranchTests(const ContinuationProblem& problem, const ContinuationSettings& settings,
                         int parameter)
    : problem_(problem), settings_(settings), parameter_(parameter) {
    auto add = [&](Kind kind, std::string label, int index) {
        kinds_.push_back(kind);
        labels_.push_back(std::move(label));
        problem_index_.push_back(index);
    };
    if (settings.detect_folds) add(Kind::Fold, "LP", -1);
    if (settings.detect_branch_points) add(Kind::BranchPoint, "BP", -1);
    for (int k = 0; k < problem.test_function_count(); ++k)
        add(Kind::Problem, problem.test_function_label(k), k);
    for (std::size_t b = 0; b < settings.box.size(); ++b) {
        add(Kind::BoxEdge, "EP", int(b));
        add(Kind::BoxEdge, "EP", int(b));
    }
}

Vector BranchTests::evaluate(const Vector& x, const Matrix& j, const Vector& tangent) const {
    Vector values(size());
    Vector own;
    if (problem_.test_function_count() > 0) problem_.test_functions(x, j, tangent, own);
    int box_side = 0;
    for (int k = 0; k < size(); ++k) {
        switch (kinds_[std::size_t(k)]) {
        case Kind::Fold:
            values[k] = tangent[parameter_];
            break;
        case Kind::BranchPoint:
            values[k] = bordered_determinant(j, tangent);
            break;
        case Kind::Problem:
            values[k] = own[problem_index(k)];
            break;
        case Kind::BoxEdge: {
            const Bound& b = settings_.box[std::size_t(problem_index(k))];
            values[k] = box_side++ % 2 == 0 ? x[b.component] - b.min : b.max - x[b.component];
            break;
        }
        }
    }
    return values;
}

} // namespace bif::cont::detail
