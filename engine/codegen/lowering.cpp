#include "engine/codegen/lowering.h"

#include <algorithm>
#include <unordered_map>

namespace bif::codegen::detail {

using sym::NodeId;
using sym::Op;

PowForm pow_form(const sym::ExprPool& pool, const sym::Node& pow_node) {
    const sym::Node& exponent = pool.node(pow_node.args[1]);
    if (exponent.op != Op::Constant) return PowForm::General;
    const double c = exponent.value;
    if (c == 2.0) return PowForm::Square;
    if (c == 3.0) return PowForm::Cube;
    if (c == 4.0) return PowForm::Fourth;
    if (c == -1.0) return PowForm::Reciprocal;
    if (c == -2.0) return PowForm::ReciprocalSquare;
    if (c == 0.5) return PowForm::Sqrt;
    if (c == -0.5) return PowForm::ReciprocalSqrt;
    return PowForm::General;
}

bool needs_statements(const Block& block) {
    for (const Step& s : block.steps) {
        if (s.named) return true;
        for (const Block& b : s.branches) {
            if (needs_statements(b)) return true;
        }
    }
    return false;
}

namespace {

bool is_leaf(const sym::Node& n) {
    return sym::arity(n.op) == 0;
}

class Lowerer {
  public:
    explicit Lowerer(const sym::ExprPool& pool) : pool_(pool), available_(pool.size(), 0) {}

    // Lowers the nodes that `roots` need and enclosing blocks do not provide. `used_outside`
    // collects the enclosing blocks' nodes that this block or its sub-blocks read.
    Block lower_block(const std::vector<NodeId>& roots, bool roots_are_results,
                      std::vector<NodeId>& used_outside) {
        std::vector<NodeId> members = collect_members(roots, used_outside);
        // Children are built before parents in the pool, so ascending ids are a dependency order.
        std::sort(members.begin(), members.end());
        for (NodeId m : members)
            available_[m] = 1;

        std::unordered_map<NodeId, int> uses;
        for (NodeId r : roots)
            uses[r] += roots_are_results ? 2 : 1;
        for (NodeId m : members)
            count_uses(m, uses);

        Block block;
        block.result = roots.empty() ? 0 : roots.front();
        for (NodeId m : members) {
            Step step;
            step.node = m;
            const sym::Node& n = pool_.node(m);
            if (n.op == Op::IfThenElse) {
                for (int k = 1; k <= 2; ++k) {
                    std::vector<NodeId> inner_uses;
                    step.branches.push_back(lower_block({n.args[k]}, false, inner_uses));
                    for (NodeId u : inner_uses) {
                        if (available_[u] == 1 && std::binary_search(members.begin(), members.end(), u)) {
                            uses[u] += 2; // read from inside a branch: must be named
                        } else {
                            used_outside.push_back(u);
                        }
                    }
                }
            }
            block.steps.push_back(std::move(step));
        }
        for (Step& s : block.steps) {
            s.named = uses[s.node] >= 2;
            if (!s.branches.empty() && (needs_statements(s.branches[0]) || needs_statements(s.branches[1]))) {
                s.named = true;
            }
            limit_nesting(s);
        }
        for (NodeId m : members)
            available_[m] = 0;
        return block;
    }

  private:
    // Nodes reachable from the roots without entering an if() branch, minus leaves and what an
    // enclosing block already computes.
    std::vector<NodeId> collect_members(const std::vector<NodeId>& roots, std::vector<NodeId>& used_outside) {
        std::vector<NodeId> members;
        std::vector<NodeId> todo(roots.begin(), roots.end());
        std::unordered_map<NodeId, char> seen;
        while (!todo.empty()) {
            const NodeId id = todo.back();
            todo.pop_back();
            if (!seen.emplace(id, 1).second) continue;
            const sym::Node& n = pool_.node(id);
            if (is_leaf(n)) continue;
            if (available_[id]) {
                used_outside.push_back(id);
                continue;
            }
            members.push_back(id);
            const int unconditional = n.op == Op::IfThenElse ? 1 : sym::arity(n.op);
            for (int i = 0; i < unconditional; ++i)
                todo.push_back(n.args[i]);
        }
        return members;
    }

    // Written inline, a chain of single-use nodes nests parentheses as deep as the chain is long
    // (a sum of many terms); compilers limit that nesting (clang: 256 by default). A step whose
    // inline text would nest deeper than kMaxInlineDepth is named instead. Steps come in
    // dependency order, so the depths of their arguments are known.
    void limit_nesting(Step& s) {
        constexpr int kMaxInlineDepth = 24;
        const sym::Node& n = pool_.node(s.node);
        int deepest = 0;
        auto consider = [&](NodeId arg) {
            if (auto it = inline_depth_.find(arg); it != inline_depth_.end())
                deepest = std::max(deepest, it->second);
        };
        for (int i = 0; i < sym::arity(n.op); ++i)
            consider(n.args[i]);
        if (!s.named && deepest + 1 > kMaxInlineDepth) s.named = true;
        inline_depth_[s.node] = s.named ? 0 : deepest + 1;
    }

    // Counts how often the block's own steps read each node; an expanded power reads its base
    // more than once (x*x), so that base must be named.
    void count_uses(NodeId m, std::unordered_map<NodeId, int>& uses) const {
        const sym::Node& n = pool_.node(m);
        if (n.op == Op::IfThenElse) {
            uses[n.args[0]] += 1;
            return;
        }
        if (n.op == Op::Pow) {
            const PowForm form = pow_form(pool_, n);
            const bool repeats = form == PowForm::Square || form == PowForm::Cube ||
                                 form == PowForm::Fourth || form == PowForm::ReciprocalSquare;
            uses[n.args[0]] += repeats ? 2 : 1;
            if (form == PowForm::General) uses[n.args[1]] += 1;
            return;
        }
        for (int i = 0; i < sym::arity(n.op); ++i)
            uses[n.args[i]] += 1;
    }

    const sym::ExprPool& pool_;
    std::vector<char> available_; // 1 while an enclosing block (or this one) computes the node
    // Nesting depth of each step's inline text (0 when named). A node lowered in two sibling
    // branches keeps the later value; the bound stays approximate there, which is all it needs.
    std::unordered_map<NodeId, int> inline_depth_;
};

} // namespace

Block lower(const sym::ExprPool& pool, const std::vector<NodeId>& roots) {
    Lowerer lowerer(pool);
    std::vector<NodeId> unused;
    return lowerer.lower_block(roots, true, unused);
}

} // namespace bif::codegen::detail
