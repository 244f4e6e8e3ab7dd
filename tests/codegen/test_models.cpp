#include "tests/codegen/test_models.h"

#include "engine/model/parse.h"

#include <cmath>
#include <limits>

namespace bif::codegen_test {

using model::Reset;
using sym::NodeId;
using sym::Op;

namespace {

// Small helpers so that the formulas below read like formulas.
struct Builder {
    sym::ExprPool& e;
    NodeId c(double v) { return e.constant(v); }
    NodeId add(NodeId a, NodeId b) { return e.binary(Op::Add, a, b); }
    NodeId sub(NodeId a, NodeId b) { return e.binary(Op::Sub, a, b); }
    NodeId mul(NodeId a, NodeId b) { return e.binary(Op::Mul, a, b); }
    NodeId div(NodeId a, NodeId b) { return e.binary(Op::Div, a, b); }
    NodeId pow(NodeId a, double k) { return e.binary(Op::Pow, a, c(k)); }
    NodeId f(Op op, NodeId a) { return e.unary(op, a); }
    NodeId f(Op op, NodeId a, NodeId b) { return e.binary(op, a, b); }
    NodeId sum(std::initializer_list<NodeId> terms) {
        NodeId s = c(0.0);
        for (NodeId t : terms)
            s = add(s, t);
        return s;
    }
};

void add_state(model::Model& m, const std::string& name, double initial, NodeId rhs) {
    m.states.push_back({name, initial, rhs, {}});
}

// prefix followed by the number, e.g. "y12"
std::string numbered(const char* prefix, std::size_t i) {
    return std::string(prefix).append(std::to_string(i));
}

Reset reset(Reset::Target target, std::uint32_t index, NodeId value) {
    return Reset{target, index, value};
}

// Every operation, every power form, derived parameters that depend on each other, events of
// every direction with state, parameter and stop resets, and if() branches with shared
// subexpressions inside them.
model::Model all_operations_model() {
    model::Model m;
    m.file = "all_operations";
    Builder b{m.pool};
    sym::ExprPool& e = m.pool;
    m.parameters = {{"a", 1.3, {}}, {"b", 0.7, {}}, {"c", -0.4, {}}};
    const NodeId a = e.param(0), bb = e.param(1), cc = e.param(2), d1 = e.param(3), d2 = e.param(4);
    m.derived.push_back({"d1", b.mul(a, bb), 3, {}});
    m.derived.push_back({"d2", b.add(d1, b.f(Op::Exp, a)), 4, {}});
    const NodeId x = e.state(0), v = e.state(1), z = e.state(2), t = e.time();

    const NodeId x_exp = b.f(Op::Exp, x);
    const NodeId branchy =
        e.if_then_else(b.f(Op::Gt, x, b.c(0.5)), b.mul(b.mul(x_exp, b.add(x_exp, b.c(1.0))), b.c(0.01)),
                       b.f(Op::Neg, b.pow(x, 3.0)));
    const NodeId xz = b.f(Op::Sin, b.mul(x, z));
    const NodeId nested =
        e.if_then_else(b.f(Op::Lt, v, b.c(0.0)),
                       e.if_then_else(b.f(Op::Gt, z, b.c(0.0)), b.mul(xz, xz), b.f(Op::Cos, b.mul(xz, v))),
                       b.f(Op::Exp, b.mul(b.c(-0.5), b.pow(v, 2.0))));
    add_state(m, "x", 0.3, v);
    add_state(m, "v", -0.2,
              b.sum({b.mul(b.f(Op::Neg, a), v), b.f(Op::Neg, b.f(Op::Sin, x)),
                     b.mul(bb, b.f(Op::Cos, b.mul(t, d1))), branchy, b.mul(b.f(Op::Heav, x), b.c(0.1)),
                     b.mul(b.f(Op::Sign, v), b.c(-0.05)), b.mul(b.f(Op::Mod, t, b.c(1.5)), b.c(0.01)),
                     b.mul(b.f(Op::Floor, x), b.c(0.01)), b.mul(b.f(Op::Ceil, v), b.c(0.01)),
                     b.mul(nested, b.c(0.1))}));
    const NodeId logic = b.f(Op::Or, b.f(Op::And, b.f(Op::Gt, x, v), b.f(Op::Lt, z, b.c(1.0))),
                             b.f(Op::Not, b.f(Op::Ge, x, b.c(0.0))));
    const NodeId compare =
        b.sum({b.f(Op::Le, x, z), b.f(Op::Eq, b.f(Op::Floor, v), b.c(0.0)), b.f(Op::Ne, x, b.c(0.25))});
    const NodeId one_plus = b.add(b.c(1.0), b.pow(x, 2.0));
    add_state(m, "z", 0.1,
              b.sum({b.f(Op::Tanh, z),
                     b.f(Op::Atan2, x, b.add(b.c(1.5), b.pow(v, 2.0))),
                     b.f(Op::Min, x, v),
                     b.f(Op::Neg, b.f(Op::Max, z, a)),
                     b.f(Op::Sqrt, one_plus),
                     b.f(Op::Log, b.add(b.c(1.0), b.pow(v, 2.0))),
                     b.f(Op::Log10, b.add(b.c(2.0), b.pow(z, 2.0))),
                     b.f(Op::Abs, b.sub(x, v)),
                     b.f(Op::Erf, x),
                     b.f(Op::Erfc, v),
                     b.f(Op::Tan, b.mul(b.c(0.3), x)),
                     b.f(Op::Asin, b.f(Op::Tanh, x)),
                     b.f(Op::Acos, b.mul(b.c(0.5), b.f(Op::Tanh, v))),
                     b.f(Op::Atan, z),
                     b.f(Op::Sinh, b.mul(b.c(0.3), z)),
                     b.f(Op::Cosh, b.mul(b.c(0.2), x)),
                     b.mul(b.c(0.01), b.pow(x, 4.0)),
                     b.pow(one_plus, -1.0),
                     b.pow(b.add(b.c(1.0), b.pow(v, 2.0)), -2.0),
                     b.pow(b.add(b.c(1.0), b.pow(z, 2.0)), 0.5),
                     b.pow(b.add(b.c(2.0), b.pow(x, 2.0)), -0.5),
                     b.mul(b.c(0.01), b.pow(b.add(b.c(1.0), b.pow(z, 2.0)), 1.7)),
                     e.binary(Op::Pow, d2, b.mul(b.c(0.1), x)),
                     e.binary(Op::Pow, b.add(b.c(2.0), b.pow(v, 2.0)), z),
                     b.mul(logic, b.c(0.1)),
                     b.mul(compare, b.c(0.01)),
                     b.div(cc, b.add(b.c(3.0), b.pow(z, 2.0)))}));

    model::Event up;
    up.direction = 1;
    up.condition = b.sub(x, b.c(1.0));
    up.resets = {reset(Reset::Target::State, 0, b.c(0.5)),
                 reset(Reset::Target::State, 1, b.mul(b.c(-0.8), v)),
                 reset(Reset::Target::Param, 0, b.add(a, b.c(0.01)))};
    model::Event exact;
    exact.direction = 0;
    exact.condition = v;
    exact.resets = {reset(Reset::Target::Stop, 0, b.sub(t, b.c(50.0)))};
    model::Event down;
    down.direction = -1;
    down.condition = b.sub(z, b.c(2.0));
    down.resets = {reset(Reset::Target::State, 0, z), reset(Reset::Target::State, 2, x),
                   reset(Reset::Target::Stop, 0, b.sub(x, b.c(10.0)))};
    model::Event quiet; // an event without resets: only located
    quiet.direction = 1;
    quiet.condition = b.f(Op::Sin, b.mul(b.c(3.0), t));
    m.events = {up, exact, down, quiet};
    m.aux.push_back({"energy", b.add(b.mul(b.c(0.5), b.pow(v, 2.0)), b.sub(b.c(1.0), b.f(Op::Cos, x))), {}});
    m.aux.push_back(
        {"branch",
         e.if_then_else(b.f(Op::Gt, z, x), b.mul(xz, d2), b.f(Op::Log, b.add(b.c(1.0), b.pow(z, 2.0)))),
         {}});
    return m;
}

model::Model minimal_model() {
    model::Model m;
    m.file = "minimal";
    add_state(m, "u", 1.0, m.pool.unary(Op::Neg, m.pool.state(0)));
    return m;
}

// Lorenz-96 with 40 states: y_i' = (y_{i+1} - y_{i-2}) y_{i-1} - y_i + F.
model::Model lorenz96_model() {
    model::Model m;
    m.file = "lorenz96";
    Builder b{m.pool};
    const int n = 40;
    m.parameters = {{"forcing", 8.0, {}}};
    for (int i = 0; i < n; ++i) {
        auto y = [&](int k) { return m.pool.state(static_cast<std::uint32_t>((k + n) % n)); };
        add_state(m, numbered("y", i), 8.0 + (i == 0 ? 0.01 : 0.0),
                  b.add(b.sub(b.mul(b.sub(y(i + 1), y(i - 2)), y(i - 1)), y(i)), m.pool.param(0)));
    }
    return m;
}

// Right-hand sides that are long chains of single-use nodes (a sum and a product of 300 terms):
// written inline they would nest parentheses 300 deep.
model::Model long_chain_model() {
    model::Model m;
    m.file = "long_chain";
    Builder b{m.pool};
    const NodeId x = m.pool.state(0), w = m.pool.state(1);
    NodeId sum = b.c(0.0), product = b.c(1.0);
    for (int k = 1; k <= 300; ++k) {
        sum = b.add(sum, b.mul(b.c(1.0 / k), b.f(Op::Sin, b.mul(b.c(k), x))));
        product = b.mul(product, b.add(b.c(1.0), b.mul(b.c(1e-3 / k), w)));
    }
    add_state(m, "x", 0.5, b.sub(sum, w));
    add_state(m, "w", 0.1, b.sub(product, x));
    return m;
}

} // namespace

model::Model hostile_model() {
    model::Model m;
    m.file = "evil */ #define main int\n";
    Builder b{m.pool};
    sym::ExprPool& e = m.pool;
    const char* state_names[] = {"__asm__", "#define", "*/", "y"};
    const char* param_names[] = {"main", "std", "p", "t", "real", "int", "\"); system(\"rm -rf /\"); //"};
    double value = 0.5;
    for (const char* name : param_names)
        m.parameters.push_back({name, value += 0.25, {}});
    const auto P = static_cast<std::uint32_t>(m.parameters.size());
    m.derived.push_back({"#include <cstdlib>", b.mul(e.param(0), e.param(1)), P, {}});
    const NodeId y0 = e.state(0), y1 = e.state(1), y2 = e.state(2), y3 = e.state(3);
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Non-finite and signed-zero constants must be spelled so that they compile and keep value.
    add_state(m, state_names[0], 0.1, b.add(y1, b.f(Op::Min, y0, b.c(inf))));
    add_state(
        m, state_names[1], 0.2,
        b.sub(b.mul(e.param(2), y0), e.if_then_else(b.f(Op::Ne, y1, y1), b.c(nan), b.mul(b.c(-0.0), y2))));
    add_state(m, state_names[2], 0.3,
              b.add(b.mul(e.param(P), y3), b.f(Op::Max, b.c(-inf), b.mul(e.param(6), e.time()))));
    add_state(m, state_names[3], 0.4, b.sub(b.mul(e.param(3), y2), b.mul(b.c(1e30), b.mul(b.c(1e-30), y3))));
    model::Event ev;
    ev.text = "*/ } int main() { /*";
    ev.condition = b.sub(y0, e.param(4));
    ev.resets = {reset(Reset::Target::Param, 5, b.add(e.param(5), y1))};
    m.events.push_back(ev);
    m.aux.push_back({"std::exit(1);", b.add(y0, e.param(P)), {}});
    m.fixed.push_back({"return", y0, {}});
    m.comments.push_back("#error hostile");
    return m;
}

model::Model renamed(const model::Model& original) {
    model::Model m = original;
    m.file = "renamed";
    for (std::size_t i = 0; i < m.states.size(); ++i)
        m.states[i].name = numbered("s", i);
    for (std::size_t i = 0; i < m.parameters.size(); ++i)
        m.parameters[i].name = numbered("q", i);
    for (std::size_t i = 0; i < m.derived.size(); ++i)
        m.derived[i].name = numbered("d", i);
    for (std::size_t i = 0; i < m.aux.size(); ++i)
        m.aux[i].name = numbered("a", i);
    for (std::size_t i = 0; i < m.fixed.size(); ++i)
        m.fixed[i].name = numbered("f", i);
    for (model::Event& ev : m.events)
        ev.text = "event";
    m.comments.clear();
    return m;
}

std::vector<std::string> builtin_model_keys() {
    return {"builtin:all_operations", "builtin:minimal", "builtin:lorenz96", "builtin:hostile",
            "builtin:long_chain"};
}

std::optional<model::Model> load_test_model(const std::string& key, std::string* error) {
    if (key == "builtin:all_operations") return all_operations_model();
    if (key == "builtin:minimal") return minimal_model();
    if (key == "builtin:lorenz96") return lorenz96_model();
    if (key == "builtin:hostile") return hostile_model();
    if (key == "builtin:long_chain") return long_chain_model();
    model::ParseResult parsed = model::load_model_file(key);
    if (!parsed.model) {
        *error = parsed.diagnostics.empty() ? "no model" : parsed.diagnostics.front().format();
        return std::nullopt;
    }
    return std::move(parsed.model);
}

codegen::Request make_test_request(model::Model& m, codegen::Precision precision,
                                   const std::string& type_name) {
    Builder b{m.pool};
    codegen::Request r;
    r.model = &m;
    r.precision = precision;
    r.type_name = type_name;
    const auto n = static_cast<std::uint32_t>(m.num_states());
    if (n > 0) {
        NodeId squares = b.c(0.0);
        for (std::uint32_t i = 0; i < n; ++i)
            squares = b.add(squares, b.pow(m.pool.state(i), 2.0));
        r.observables = {m.pool.state(0), squares};
        r.study_events.push_back({b.sub(m.pool.state(0), b.c(m.states[0].initial)), 2});
    }
    r.observables.push_back(m.num_parameters() > 0 ? b.mul(m.pool.param(0), m.pool.time()) : m.pool.time());
    if (n > 1) r.study_events.push_back({m.pool.state(1), -1});
    return r;
}

} // namespace bif::codegen_test
