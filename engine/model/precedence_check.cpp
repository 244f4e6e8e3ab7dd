#include "engine/model/precedence_check.h"

#include "engine/model/diagnostic_sink.h"

namespace bif::model::detail {

namespace {

constexpr std::size_t kMaxShownLength = 60;

bool same_shape(const AstNode& a, const AstNode& b) {
    return a.kind == b.kind && a.op == b.op && a.token == b.token && a.children.size() == b.children.size();
}

std::string render_operand(const Ast& ast, int node) {
    const AstNode& n = ast.at(node);
    const bool atomic = n.kind == AstKind::Number || n.kind == AstKind::Name || n.kind == AstKind::Call ||
                        n.kind == AstKind::If || n.kind == AstKind::Sum || n.kind == AstKind::SumIndex;
    const std::string text = render(ast, node);
    return atomic ? text : "(" + text + ")";
}

class Comparer {
  public:
    Comparer(const Ast& x, const Ast& o, DiagnosticSink& sink) : x_(x), o_(o), sink_(sink) {}

    void compare(int xi, int oi) {
        // An explicit stack: trees can be deep and this must not recurse without bound.
        std::vector<std::pair<int, int>> todo{{xi, oi}};
        while (!todo.empty()) {
            auto [a, b] = todo.back();
            todo.pop_back();
            const AstNode& xn = x_.at(a);
            const AstNode& on = o_.at(b);
            if (!same_shape(xn, on)) {
                warn(a, b);
                continue;
            }
            for (std::size_t k = 0; k < xn.children.size(); ++k)
                todo.emplace_back(xn.children[k], on.children[k]);
        }
    }

  private:
    void warn(int a, int b) {
        const AstNode& on = o_.at(b);
        const std::string xs = render(x_, a);
        const std::string os = render(o_, b);
        std::string message;
        if (xs.size() <= kMaxShownLength && os.size() <= kMaxShownLength) {
            message = "XPPAUT reads this as " + xs + ", not " + os;
        } else {
            message = "XPPAUT applies `" + std::string(op_spelling(on.op)) +
                      "` before the operators around it, unlike ordinary precedence";
        }
        sink_.warning("W-precedence", on.where, message + "; add parentheses to make the meaning explicit");
    }

    const Ast& x_;
    const Ast& o_;
    DiagnosticSink& sink_;
};

} // namespace

std::string render(const Ast& ast, int node) {
    const AstNode& n = ast.at(node);
    switch (n.kind) {
    case AstKind::Number:
    case AstKind::Name:
        return n.text;
    case AstKind::Unary:
        return std::string(1, '-').append(render_operand(ast, n.children[0]));
    case AstKind::Binary:
        return render_operand(ast, n.children[0]) + op_spelling(n.op) + render_operand(ast, n.children[1]);
    case AstKind::Call: {
        std::string s = n.text + "(";
        for (std::size_t k = 0; k < n.children.size(); ++k) {
            if (k > 0) s += ',';
            s += render(ast, n.children[k]);
        }
        return s + ")";
    }
    case AstKind::If:
        return "if(" + render(ast, n.children[0]) + ")then(" + render(ast, n.children[1]) + ")else(" +
               render(ast, n.children[2]) + ")";
    case AstKind::Sum:
        return "sum(" + render(ast, n.children[0]) + "," + render(ast, n.children[1]) + ")of(" +
               render(ast, n.children[2]) + ")";
    case AstKind::SumIndex:
        return "i'";
    }
    return {};
}

void warn_precedence_differences(const Ast& xppaut, const Ast& ordinary, DiagnosticSink& sink) {
    Comparer(xppaut, ordinary, sink).compare(xppaut.root, ordinary.root);
}

} // namespace bif::model::detail
