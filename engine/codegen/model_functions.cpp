#include "engine/codegen/model_functions.h"

#include <stdexcept>
#include <string>
#include <unordered_set>

namespace bif::codegen::detail {

namespace {

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("codegen request: " + what);
}

void require_node(const sym::ExprPool& pool, sym::NodeId id, const char* what) {
    require(id < pool.size(), std::string(what) + " refers to a node outside the model's pool");
}

// Every State and Param leaf reachable from the roots must name an existing slot, or the generated
// code would read outside y or p.
void require_slots_in_range(const ModelFunctions& f, const std::vector<sym::NodeId>& roots) {
    std::vector<char> seen(f.pool.size(), 0);
    std::vector<sym::NodeId> todo(roots.begin(), roots.end());
    while (!todo.empty()) {
        const sym::NodeId id = todo.back();
        todo.pop_back();
        if (seen[id]) continue;
        seen[id] = 1;
        const sym::Node& n = f.pool.node(id);
        if (n.op == sym::Op::State)
            require(n.index < static_cast<std::uint32_t>(f.num_states), "state slot out of range");
        if (n.op == sym::Op::Param) {
            require(n.index < static_cast<std::uint32_t>(f.num_param_slots), "parameter slot out of range");
        }
        for (int i = 0; i < sym::arity(n.op); ++i)
            todo.push_back(n.args[i]);
    }
}

// reads[j] != 0 when State j is a leaf of the expression.
std::vector<char> states_read(const sym::ExprPool& pool, sym::NodeId root, int num_states) {
    std::vector<char> reads(static_cast<std::size_t>(num_states), 0);
    std::vector<sym::NodeId> todo{root};
    std::unordered_set<sym::NodeId> seen;
    while (!todo.empty()) {
        const sym::NodeId id = todo.back();
        todo.pop_back();
        if (!seen.insert(id).second) continue;
        const sym::Node& n = pool.node(id);
        if (n.op == sym::Op::State && n.index < reads.size()) reads[n.index] = 1;
        for (int i = 0; i < sym::arity(n.op); ++i)
            todo.push_back(n.args[i]);
    }
    return reads;
}

EventSaltation event_saltation(sym::ExprPool& pool, int n, sym::NodeId condition,
                               const std::vector<model::Reset>& resets) {
    EventSaltation s;
    for (const model::Reset& r : resets)
        s.maps_tangent = s.maps_tangent || r.target != model::Reset::Target::Stop;
    if (!s.maps_tangent) return s;
    auto derivatives = [&](sym::NodeId e, std::vector<sym::NodeId>& out) {
        for (int l = 0; l < n; ++l)
            out.push_back(pool.derivative(e, pool.state(static_cast<std::uint32_t>(l))));
        out.push_back(pool.derivative(e, pool.time()));
    };
    derivatives(condition, s.gradient);
    for (const model::Reset& r : resets) {
        if (r.target != model::Reset::Target::State) continue;
        s.rows.push_back(r.index);
        derivatives(r.value, s.reset_rows);
    }
    return s;
}

// u_i = sum_j J_ij v_j with v_j = y[N + j], then its derivatives in y and t.
void tangent_derivatives(ModelFunctions& f) {
    sym::ExprPool& pool = f.pool;
    const auto n = static_cast<std::size_t>(f.num_states);
    for (std::size_t i = 0; i < n; ++i) {
        sym::NodeId u = pool.constant(0.0);
        for (std::size_t j = 0; j < n; ++j) {
            const sym::NodeId v = pool.state(static_cast<std::uint32_t>(n + j));
            u = pool.binary(sym::Op::Add, u, pool.binary(sym::Op::Mul, f.jacobian[i * n + j], v));
        }
        for (std::size_t l = 0; l < n; ++l)
            f.hessian_vector.push_back(pool.derivative(u, pool.state(static_cast<std::uint32_t>(l))));
        f.jacobian_time_vector.push_back(pool.derivative(u, pool.time()));
    }
}

} // namespace

ModelFunctions collect_model_functions(const Request& request) {
    require(request.model != nullptr, "no model");
    const model::Model& m = *request.model;
    ModelFunctions f;
    f.pool = m.pool;
    sym::ExprPool& pool = f.pool;
    f.num_states = static_cast<int>(m.num_states());
    f.num_params = static_cast<int>(m.num_parameters());
    f.num_param_slots = static_cast<int>(m.num_param_slots());

    std::vector<sym::NodeId> all_roots;
    for (const model::DerivedParameter& d : m.derived)
        all_roots.push_back(d.formula);
    for (const model::StateVariable& s : m.states)
        all_roots.push_back(s.rhs);
    for (const model::Event& e : m.events) {
        all_roots.push_back(e.condition);
        for (const model::Reset& r : e.resets)
            all_roots.push_back(r.value);
    }
    for (const StudyEvent& e : request.study_events)
        all_roots.push_back(e.condition);
    for (const model::NamedFormula& a : m.aux)
        all_roots.push_back(a.formula);
    all_roots.insert(all_roots.end(), request.observables.begin(), request.observables.end());
    for (sym::NodeId id : all_roots)
        require_node(pool, id, "a formula");
    require_slots_in_range(f, all_roots);

    for (const model::DerivedParameter& d : m.derived) {
        require_node(pool, d.formula, "a derived parameter");
        require(d.slot >= m.num_parameters() && d.slot < m.num_param_slots(),
                "derived parameter slot out of range");
        require(!pool.depends_on_state_or_time(d.formula),
                "a derived parameter depends on a state or on time");
        f.derived.push_back({d.slot, d.formula});
    }
    for (const model::StateVariable& s : m.states) {
        require_node(pool, s.rhs, "a right-hand side");
        f.rhs.push_back(s.rhs);
    }
    const sym::NodeId time = pool.time();
    const sym::NodeId zero = pool.constant(0.0);
    for (sym::NodeId r : f.rhs) {
        // d r / d y_j is 0 for the states r does not read: big models read a few of thousands
        const std::vector<char> reads = states_read(pool, r, f.num_states);
        for (int j = 0; j < f.num_states; ++j) {
            f.jacobian.push_back(reads[static_cast<std::size_t>(j)]
                                     ? pool.derivative(r, pool.state(static_cast<std::uint32_t>(j)))
                                     : zero);
        }
        f.time_derivative.push_back(pool.derivative(r, time));
    }
    for (const model::Event& e : m.events) {
        require_node(pool, e.condition, "an event condition");
        require(e.direction >= -1 && e.direction <= 1, "model event direction must be -1, 0 or +1");
        for (const model::Reset& r : e.resets) {
            require_node(pool, r.value, "a reset");
            if (r.target == model::Reset::Target::State)
                require(r.index < m.num_states(), "reset of a state out of range");
            if (r.target == model::Reset::Target::Param) {
                require(r.index < m.num_param_slots(), "reset of a parameter out of range");
            }
        }
        f.events.push_back(e.condition);
        f.event_directions.push_back(e.direction);
        f.resets.push_back(e.resets);
        f.saltation.push_back(event_saltation(pool, f.num_states, e.condition, e.resets));
    }
    for (const StudyEvent& e : request.study_events) {
        require_node(pool, e.condition, "a study event");
        require(e.direction == 1 || e.direction == -1 || e.direction == 2,
                "study event direction must be +1, -1 or 2");
        f.events.push_back(e.condition);
        f.event_directions.push_back(e.direction);
        f.resets.emplace_back();
        f.saltation.emplace_back();
    }
    for (const model::NamedFormula& a : m.aux) {
        require_node(pool, a.formula, "an aux quantity");
        f.aux.push_back(a.formula);
    }
    for (sym::NodeId o : request.observables) {
        require_node(pool, o, "an observable");
        f.observables.push_back(o);
    }
    if (request.tangent_derivatives) tangent_derivatives(f);
    return f;
}

} // namespace bif::codegen::detail
