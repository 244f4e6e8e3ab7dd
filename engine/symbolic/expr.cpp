// ExprPool: interning, the builders and their local simplifications.
#include "engine/symbolic/expr.h"

#include "engine/symbolic/scalar_ops.h"

#include <bit>
#include <stdexcept>

namespace bif::sym {

int arity(Op op) {
    switch (op) {
    case Op::Constant:
    case Op::State:
    case Op::Param:
    case Op::Time:
        return 0;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Pow:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
    case Op::Atan2:
    case Op::Mod:
    case Op::Min:
    case Op::Max:
    case Op::BesselJ:
    case Op::BesselY:
        return 2;
    case Op::IfThenElse:
        return 3;
    default:
        return 1;
    }
}

const char* spelling(Op op) {
    switch (op) {
    case Op::Constant:
        return "constant";
    case Op::State:
        return "y";
    case Op::Param:
        return "p";
    case Op::Time:
        return "t";
    case Op::Neg:
        return "-";
    case Op::Add:
        return "+";
    case Op::Sub:
        return "-";
    case Op::Mul:
        return "*";
    case Op::Div:
        return "/";
    case Op::Pow:
        return "^";
    case Op::Lt:
        return "<";
    case Op::Le:
        return "<=";
    case Op::Gt:
        return ">";
    case Op::Ge:
        return ">=";
    case Op::Eq:
        return "==";
    case Op::Ne:
        return "!=";
    case Op::And:
        return "&";
    case Op::Or:
        return "|";
    case Op::Not:
        return "not";
    case Op::IfThenElse:
        return "if";
    case Op::Sin:
        return "sin";
    case Op::Cos:
        return "cos";
    case Op::Tan:
        return "tan";
    case Op::Asin:
        return "asin";
    case Op::Acos:
        return "acos";
    case Op::Atan:
        return "atan";
    case Op::Sinh:
        return "sinh";
    case Op::Cosh:
        return "cosh";
    case Op::Tanh:
        return "tanh";
    case Op::Exp:
        return "exp";
    case Op::Log:
        return "ln";
    case Op::Log10:
        return "log10";
    case Op::Sqrt:
        return "sqrt";
    case Op::Abs:
        return "abs";
    case Op::Heav:
        return "heav";
    case Op::Sign:
        return "sign";
    case Op::Floor:
        return "flr";
    case Op::Ceil:
        return "ceil";
    case Op::Erf:
        return "erf";
    case Op::Erfc:
        return "erfc";
    case Op::LGamma:
        return "lgamma";
    case Op::Table:
        return "table";
    case Op::TableSlope:
        return "table_slope";
    case Op::BesselJ:
        return "besselj";
    case Op::BesselY:
        return "bessely";
    case Op::Atan2:
        return "atan2";
    case Op::Mod:
        return "mod";
    case Op::Min:
        return "min";
    case Op::Max:
        return "max";
    }
    return "?";
}

std::size_t ExprPool::KeyHash::operator()(const Key& k) const {
    // 64-bit mix (splitmix64 finaliser) over the packed fields.
    auto mix = [](std::uint64_t h, std::uint64_t v) {
        h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h ^= h >> 30;
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 27;
        return h;
    };
    std::uint64_t h = static_cast<std::uint64_t>(k.op) | (static_cast<std::uint64_t>(k.index) << 8);
    h = mix(h, k.value_bits);
    h = mix(h, (static_cast<std::uint64_t>(k.a0) << 32) | k.a1);
    h = mix(h, k.a2);
    return static_cast<std::size_t>(h);
}

ExprPool::ExprPool() {
    // Node 0 is the constant 0 and node 1 the constant 1, so that a default NodeId means zero.
    constant(0.0);
    constant(1.0);
}

NodeId ExprPool::intern(const Node& n) {
    const Key key{n.op, n.index, std::bit_cast<std::uint64_t>(n.value), n.args[0], n.args[1], n.args[2]};
    if (auto it = index_.find(key); it != index_.end()) return it->second;
    const auto id = static_cast<NodeId>(nodes_.size());
    nodes_.push_back(n);
    index_.emplace(key, id);
    return id;
}

NodeId ExprPool::constant(double value) {
    Node n;
    n.op = Op::Constant;
    n.value = value;
    return intern(n);
}

NodeId ExprPool::state(std::uint32_t index) {
    Node n;
    n.op = Op::State;
    n.index = index;
    return intern(n);
}

NodeId ExprPool::param(std::uint32_t index) {
    Node n;
    n.op = Op::Param;
    n.index = index;
    return intern(n);
}

NodeId ExprPool::time() {
    Node n;
    n.op = Op::Time;
    return intern(n);
}

bool ExprPool::is_constant(NodeId id, double value) const {
    const Node& n = nodes_[id];
    return n.op == Op::Constant && n.value == value;
}

namespace {
constexpr NodeId kNotFolded = 0xffffffffu;
}

// Local simplification of op(args) whose arguments are already simplified; kNotFolded when the
// node has to be built as it is.
NodeId ExprPool::fold(Op op, const NodeId* args, std::uint32_t index) {
    const int k = arity(op);
    const Node a = nodes_[args[0]]; // a copy: building nodes below may grow nodes_
    if (op == Op::Table || op == Op::TableSlope) {
        if (a.op != Op::Constant) return kNotFolded;
        const Table& t = tables_.at(index);
        return constant(op == Op::Table ? table_value(t, a.value) : table_slope(t, a.value));
    }
    if (op == Op::IfThenElse) {
        if (a.op == Op::Constant) return a.value != 0.0 ? args[1] : args[2];
        if (args[1] == args[2]) return args[1];
        return kNotFolded;
    }
    const bool a_const = a.op == Op::Constant;
    const bool b_const = k == 2 && nodes_[args[1]].op == Op::Constant;
    if (a_const && (k == 1 || b_const)) {
        return constant(apply_op(op, a.value, k == 2 ? nodes_[args[1]].value : 0.0));
    }
    const NodeId x = args[0];
    const NodeId y = k == 2 ? args[1] : 0;
    switch (op) {
    case Op::Neg:
        if (a.op == Op::Neg) return a.args[0];
        break;
    case Op::Add:
        if (is_constant(x, 0.0)) return y;
        if (is_constant(y, 0.0)) return x;
        break;
    case Op::Sub:
        if (is_constant(y, 0.0)) return x;
        if (is_constant(x, 0.0)) return unary(Op::Neg, y);
        break;
    case Op::Mul:
        if (is_constant(x, 0.0) || is_constant(y, 0.0)) return constant(0.0);
        if (is_constant(x, 1.0)) return y;
        if (is_constant(y, 1.0)) return x;
        if (is_constant(x, -1.0)) return unary(Op::Neg, y);
        if (is_constant(y, -1.0)) return unary(Op::Neg, x);
        break;
    case Op::Div:
        if (is_constant(y, 1.0)) return x;
        if (is_constant(x, 0.0)) return constant(0.0);
        break;
    case Op::Pow:
        if (is_constant(y, 0.0)) return constant(1.0);
        if (is_constant(y, 1.0)) return x;
        if (is_constant(x, 1.0)) return constant(1.0);
        break;
    case Op::And:
        if ((a_const && a.value == 0.0) || (b_const && nodes_[y].value == 0.0)) return constant(0.0);
        break;
    case Op::Or:
        if ((a_const && a.value != 0.0) || (b_const && nodes_[y].value != 0.0)) return constant(1.0);
        break;
    default:
        break;
    }
    return kNotFolded;
}

NodeId ExprPool::make(Op op, const std::vector<NodeId>& args, std::uint32_t index) {
    const int k = arity(op);
    if (k == 0 || static_cast<int>(args.size()) != k) {
        throw std::invalid_argument(std::string("ExprPool::make: wrong argument count for ") + spelling(op));
    }
    for (NodeId a : args) {
        if (a >= nodes_.size()) throw std::out_of_range("ExprPool::make: unknown node");
    }
    const bool tabulated = op == Op::Table || op == Op::TableSlope;
    if (tabulated && index >= tables_.size()) throw std::out_of_range("ExprPool::make: unknown table");
    NodeId folded = fold(op, args.data(), index);
    if (folded != kNotFolded) return folded;
    Node n;
    n.op = op;
    n.index = tabulated ? index : 0;
    for (int i = 0; i < k; ++i)
        n.args[i] = args[i];
    return intern(n);
}

std::uint32_t ExprPool::add_table(Table table) {
    if (table.y.size() < 2 || !(table.xlo < table.xhi))
        throw std::invalid_argument("ExprPool::add_table: a table needs two points and xlo < xhi");
    for (std::size_t i = 0; i < tables_.size(); ++i)
        if (tables_[i] == table) return static_cast<std::uint32_t>(i);
    tables_.push_back(std::move(table));
    return static_cast<std::uint32_t>(tables_.size() - 1);
}

NodeId ExprPool::unary(Op op, NodeId a) {
    return make(op, {a});
}

NodeId ExprPool::binary(Op op, NodeId a, NodeId b) {
    return make(op, {a, b});
}

NodeId ExprPool::if_then_else(NodeId condition, NodeId then_value, NodeId else_value) {
    return make(Op::IfThenElse, {condition, then_value, else_value});
}

} // namespace bif::sym
