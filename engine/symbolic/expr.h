// Symbolic expressions as a hash-consed DAG.
//
// Every formula of a model (right-hand sides, events, resets, aux quantities, derived parameters,
// study expressions) lives in one ExprPool. Nodes are immutable and interned: building the same
// (op, arguments) twice returns the same NodeId, so common subexpressions are shared for free and
// code generation can emit each shared node once as a temporary.
//
// The builders simplify locally as they build: constant folding of pure operations, the 0/1
// identities of + - * / ^, double negation, if() with a constant condition. They never change the
// value of an expression at finite points (0*x is folded to 0, as every symbolic system does).
//
// Variables are resolved slots, never names: states y[i], parameter slots p[i] (user parameters
// first, then derived ones) and time t. Names stay in the model (engine/model/model.h).
#pragma once

#include "engine/symbolic/table.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bif::sym {

using NodeId = std::uint32_t;

enum class Op : std::uint8_t {
    // leaves
    Constant,
    State, // y[index]
    Param, // p[index]
    Time,  // t
    // arithmetic
    Neg,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    // comparisons and logic: results are 1 or 0; any nonzero value is true
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Not,
    IfThenElse, // only the taken branch is evaluated
    // functions of one argument
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log, // natural logarithm (XPPAUT's ln and log)
    Log10,
    Sqrt,
    Abs,
    Heav,  // heav(x) = x >= 0 ? 1 : 0 (XPPAUT: heav(0) = 1)
    Sign,  // sign(0) = 0
    Floor, // XPPAUT's flr
    Ceil,
    Erf,
    Erfc,
    LGamma,     // log |Gamma(x)|
    Table,      // the tabulated function `index` (ExprPool::table) at the argument
    TableSlope, // its derivative: the slope of the segment in use
    // functions of two arguments
    Atan2,
    Mod, // a - b*floor(a/b): result in [0, b) for b > 0 (XPPAUT's mod)
    Min,
    Max,
    BesselJ, // XPPAUT's besselj(n, x) = J_n(x), the order truncated to an integer
    BesselY, // bessely(n, x) = Y_n(x), likewise
};

// Number of arguments an operation takes (0 for leaves).
int arity(Op op);
// The operation's spelling for messages and printing ("+", "sin", "if", ...).
const char* spelling(Op op);

struct Node {
    Op op = Op::Constant;
    std::uint32_t index = 0; // slot for State/Param
    double value = 0.0;      // for Constant
    NodeId args[3] = {0, 0, 0};
};

class ExprPool {
  public:
    ExprPool();

    NodeId constant(double value);
    NodeId state(std::uint32_t index);
    NodeId param(std::uint32_t index);
    NodeId time();

    NodeId unary(Op op, NodeId a);
    NodeId binary(Op op, NodeId a, NodeId b);
    NodeId if_then_else(NodeId condition, NodeId then_value, NodeId else_value);
    // Any operation by arity; args.size() must equal arity(op). Table operations need `index`.
    NodeId make(Op op, const std::vector<NodeId>& args, std::uint32_t index = 0);
    // Tables are stored once in the pool; a lookup node refers to one by index.
    std::uint32_t add_table(Table table);
    const Table& table(std::uint32_t index) const { return tables_.at(index); }
    std::size_t table_count() const { return tables_.size(); }
    NodeId table_lookup(std::uint32_t table, NodeId x) { return make(Op::Table, {x}, table); }

    const Node& node(NodeId id) const { return nodes_[id]; }
    std::size_t size() const { return nodes_.size(); }
    bool is_constant(NodeId id, double value) const;

    // d e / d var, simplified. var must be a State, Param or Time leaf. Operations that are
    // piecewise constant (comparisons, heav, sign, floor, ceil) have derivative 0 almost
    // everywhere; abs' = sign, min/max/if pick the derivative of the active branch.
    NodeId derivative(NodeId e, NodeId var);

    // Replaces leaves: every State/Param/Time leaf for which map_leaf returns a node is replaced
    // by that node (used to inline fixed variables and to build tangent systems).
    template <class F>
    NodeId substitute(NodeId e, F&& map_leaf);

    // Evaluates by recursion (slow, for tests and constant folding of whole formulas).
    double evaluate(NodeId e, const double* y, const double* p, double t) const;

    // Whether the expression depends on any State or Time leaf.
    bool depends_on_state_or_time(NodeId e) const;

    // Fully parenthesised infix text with y[i], p[i], t; for debugging and test messages.
    std::string to_string(NodeId e) const;

  private:
    struct Key {
        Op op;
        std::uint32_t index;
        std::uint64_t value_bits;
        NodeId a0, a1, a2;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    NodeId intern(const Node& n);
    NodeId fold(Op op, const NodeId* args, std::uint32_t index);

    std::vector<Node> nodes_;
    std::vector<Table> tables_;
    std::unordered_map<Key, NodeId, KeyHash> index_;
    std::unordered_map<std::uint64_t, NodeId> derivative_cache_;
};

template <class F>
NodeId ExprPool::substitute(NodeId e, F&& map_leaf) {
    std::unordered_map<NodeId, NodeId> done;
    auto rec = [&](auto&& self, NodeId id) -> NodeId {
        if (auto it = done.find(id); it != done.end()) return it->second;
        const Node n = nodes_[id];
        NodeId out = id;
        if (n.op == Op::State || n.op == Op::Param || n.op == Op::Time) {
            if (auto r = map_leaf(n); r) out = *r;
        } else if (int k = arity(n.op); k > 0) {
            std::vector<NodeId> args(n.args, n.args + k);
            for (auto& a : args)
                a = self(self, a);
            out = make(n.op, args, n.index);
        }
        done.emplace(id, out);
        return out;
    };
    return rec(rec, e);
}

} // namespace bif::sym
