#include "engine/model/model_builder.h"

#include "engine/model/builtins.h"
#include "engine/model/expression_parser.h"
#include "engine/model/function_graph.h"
#include "engine/model/resolver.h"
#include "engine/model/table_file.h"
#include "engine/model/text.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace bif::model::detail {

namespace {

class ModelBuilder {
  public:
    ModelBuilder(const Declarations& d, Model& m, DiagnosticSink& sink) : d_(d), model_(m), sink_(sink) {}

    void run() {
        register_names();
        scope_.num_parameters = static_cast<std::uint32_t>(model_.parameters.size());
        scope_.num_states = static_cast<std::uint32_t>(model_.states.size());
        resolver_.emplace(model_.pool, scope_, sink_);
        apply_initial_values();
        build_derived();
        check_functions();
        build_tables();
        build_networks();
        build_fixed();
        build_odes();
        build_aux();
        build_events();
        copy_options_and_text();
        model_.kind = d_.map_form ? ModelKind::Map : ModelKind::Flow;
        if (d_.odes.empty() && !sink_.has_errors()) {
            sink_.error("E-no-ode", {}, "the model has no differential equation (x'=... or dx/dt=...)");
        }
    }

  private:
    struct Named {
        const std::string& name;
        SourcePos where;
        SymbolKind kind;
    };

    Named named(const DefinitionRef& ref) const {
        switch (ref.kind) {
        case DefinitionKind::State:
            return {d_.odes[ref.index].name, d_.odes[ref.index].where, SymbolKind::State};
        case DefinitionKind::Parameter:
            return {d_.parameters[ref.index].name, d_.parameters[ref.index].where, SymbolKind::Parameter};
        case DefinitionKind::Number:
            return {d_.numbers[ref.index].name, d_.numbers[ref.index].where, SymbolKind::Number};
        case DefinitionKind::Derived:
            return {d_.derived[ref.index].name, d_.derived[ref.index].where, SymbolKind::Derived};
        case DefinitionKind::Fixed:
            return {d_.fixed[ref.index].name, d_.fixed[ref.index].where, SymbolKind::Fixed};
        case DefinitionKind::Aux:
            return {d_.aux[ref.index].name, d_.aux[ref.index].where, SymbolKind::Aux};
        case DefinitionKind::Function:
            return {d_.functions[ref.index].name, d_.functions[ref.index].where, SymbolKind::Function};
        case DefinitionKind::Table:
            return {d_.tables[ref.index].name, d_.tables[ref.index].where, SymbolKind::Table};
        case DefinitionKind::Special:
            return {d_.specials[ref.index].name, d_.specials[ref.index].where, SymbolKind::Network};
        }
        static const std::string none;
        return {none, {}, SymbolKind::State};
    }

    void register_names() {
        for (const DefinitionRef& ref : d_.definitions) {
            const Named n = named(ref);
            const std::string lower = to_lower(n.name);
            if (is_reserved_name(lower)) {
                sink_.error("E-reserved", n.where,
                            quoted(n.name) + (lower == "t" ? " is time and cannot be redefined"
                                              : lower == "pi"
                                                  ? " is the constant pi and cannot be redefined"
                                                  : " is a built-in name and cannot be redefined"));
                continue;
            }
            if (n.name.size() > kXppautMaxNameLength && n.kind != SymbolKind::Aux) {
                sink_.warning("W-long-name", n.where,
                              quoted(n.name) + " has " + std::to_string(n.name.size()) +
                                  " characters; XPPAUT 6.11 cannot use names of 11 or more characters in "
                                  "formulas");
            }
            if (!may_define(lower, n)) continue;
            add(ref, lower, n);
        }
    }

    // Whether the name is free; aux names may reuse fixed-variable and function names with
    // XPPAUT's "duplicate name" warning.
    bool may_define(const std::string& lower, const Named& n) {
        const bool is_aux = n.kind == SymbolKind::Aux;
        const Symbol* same = is_aux ? scope_.find_aux(lower) : scope_.find(lower);
        const Symbol* other = is_aux ? scope_.find(lower) : scope_.find_aux(lower);
        auto duplicate = [&](const Symbol& s) {
            sink_.error("E-duplicate", n.where,
                        quoted(n.name) + " is already defined as a " + symbol_kind_name(s.kind) + " (line " +
                            std::to_string(s.where.line) + ")");
            return false;
        };
        if (same) return duplicate(*same);
        if (!other) return true;
        const SymbolKind shared = is_aux ? other->kind : n.kind;
        if (shared != SymbolKind::Fixed && shared != SymbolKind::Function) return duplicate(*other);
        sink_.warning("W-duplicate-name", n.where,
                      quoted(n.name) + " names both an aux quantity and a " +
                          symbol_kind_name(is_aux ? other->kind : n.kind) +
                          "; XPPAUT warns \"duplicate name\" and runs, and formulas use the " +
                          symbol_kind_name(shared));
        return true;
    }

    void add(const DefinitionRef& ref, const std::string& lower, const Named& n) {
        std::uint32_t index = 0;
        switch (ref.kind) {
        case DefinitionKind::State:
            index = static_cast<std::uint32_t>(model_.states.size());
            model_.states.push_back({n.name, 0.0, 0, n.where});
            state_decl_.push_back(ref.index);
            break;
        case DefinitionKind::Parameter:
            index = static_cast<std::uint32_t>(model_.parameters.size());
            model_.parameters.push_back({n.name, d_.parameters[ref.index].value, n.where});
            break;
        case DefinitionKind::Number:
            index = static_cast<std::uint32_t>(scope_.numbers.size());
            scope_.numbers.push_back(d_.numbers[ref.index].value);
            model_.numbers.push_back({n.name, d_.numbers[ref.index].value, n.where});
            break;
        case DefinitionKind::Derived:
            index = static_cast<std::uint32_t>(derived_decl_.size());
            derived_decl_.push_back(ref.index);
            break;
        case DefinitionKind::Fixed: {
            index = static_cast<std::uint32_t>(scope_.fixed.size());
            const auto& f = d_.fixed[ref.index];
            scope_.fixed.push_back({f.name, f.formula ? &*f.formula : nullptr, f.where});
            break;
        }
        case DefinitionKind::Function: {
            index = static_cast<std::uint32_t>(scope_.functions.size());
            const auto& f = d_.functions[ref.index];
            scope_.functions.push_back({f.name, f.arguments, f.formula ? &*f.formula : nullptr, f.where});
            function_decl_.push_back(ref.index);
            break;
        }
        case DefinitionKind::Aux:
            index = static_cast<std::uint32_t>(aux_decl_.size());
            aux_decl_.push_back(ref.index);
            break;
        case DefinitionKind::Table:
            index = static_cast<std::uint32_t>(table_decl_.size());
            table_decl_.push_back(ref.index);
            scope_.tables.emplace_back();
            break;
        case DefinitionKind::Special:
            index = static_cast<std::uint32_t>(special_decl_.size());
            special_decl_.push_back(ref.index);
            break;
        }
        scope_.define(lower, {n.kind, index, n.where});
    }

    void apply_initial_values() {
        for (const ValueDeclaration& v : d_.initial_values) {
            const Symbol* s = scope_.find(to_lower(v.name));
            if (s && s->kind == SymbolKind::State) {
                model_.states[s->index].initial = v.value;
                continue;
            }
            sink_.error("E-init-target", v.where,
                        s ? quoted(v.name) + " is a " + symbol_kind_name(s->kind) +
                                "; initial values are for state variables"
                          : quoted(v.name) + " is not a state variable (there is no " + v.name + "'=...)");
        }
    }

    void build_derived() {
        for (std::size_t k = 0; k < derived_decl_.size(); ++k) {
            const FormulaDeclaration& f = d_.derived[derived_decl_[k]];
            if (!f.formula) continue;
            const auto node = resolver_->resolve(*f.formula, {FormulaContext::Kind::Derived, k});
            if (!node) continue;
            const auto slot = static_cast<std::uint32_t>(model_.parameters.size() + k);
            model_.derived.push_back({f.name, *node, slot, f.where});
        }
    }

    void check_functions() {
        std::vector<std::vector<std::size_t>> calls(scope_.functions.size());
        for (std::size_t i = 0; i < scope_.functions.size(); ++i) {
            const Ast* body = scope_.functions[i].body;
            if (!body) continue;
            for (const AstNode& n : body->nodes) {
                if (n.kind != AstKind::Call) continue;
                const Symbol* s = scope_.find(to_lower(n.text));
                if (s && s->kind == SymbolKind::Function) calls[i].push_back(s->index);
            }
        }
        const std::vector<bool> recursive = functions_on_cycles(calls);
        for (std::size_t i = 0; i < scope_.functions.size(); ++i) {
            UserFunctionEntry& f = scope_.functions[i];
            if (recursive[i]) {
                f.recursive = true;
                sink_.error("E-recursion", f.where,
                            "function " + quoted(f.name) +
                                " is recursive (it calls itself, directly or through other functions); "
                                "Bifscope inlines functions and cannot do that");
            }
        }
        for (std::size_t i = 0; i < scope_.functions.size(); ++i) {
            resolver_->check_function(i);
            const UserFunctionEntry& f = scope_.functions[i];
            if (f.body && !f.recursive) {
                model_.functions.push_back(
                    {f.name, f.arguments, d_.functions[function_decl_[i]].body, f.where});
            }
        }
    }

    // Tables in file order, each from its file or its formula at t = xlo + k dx. XPPAUT evaluates a
    // formula table when the file is loaded and again whenever a parameter changes; Bifscope
    // evaluates it once, from the file's parameter values, and says so where the formula uses any.
    void build_tables() {
        if (table_decl_.empty()) return;
        // A model with errors may hold a derived formula over slots that were never filled: those
        // stay NaN rather than being read past the end.
        std::vector<double> p(model_.num_param_slots(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t i = 0; i < model_.parameters.size(); ++i)
            p[i] = model_.parameters[i].value;
        for (const DerivedParameter& d : model_.derived)
            if (d.slot < p.size() && reads_only_slots(d.formula, p.size()))
                p[d.slot] = model_.pool.evaluate(d.formula, nullptr, p.data(), 0.0);
        for (std::size_t k = 0; k < table_decl_.size(); ++k) {
            const TableDeclaration& t = d_.tables[table_decl_[k]];
            std::optional<sym::Table> table = t.file.empty() ? formula_table(t, k, p) : file_table(t);
            if (!table) continue;
            const std::uint32_t id = model_.pool.add_table(std::move(*table));
            scope_.tables[k] = id;
            model_.tables.push_back({t.name, id, t.where});
        }
    }

    std::optional<sym::Table> formula_table(const TableDeclaration& t, std::size_t k,
                                            const std::vector<double>& p) {
        if (!t.formula) return std::nullopt;
        const auto node = resolver_->resolve(*t.formula, {FormulaContext::Kind::Table, k});
        if (!node || !reads_only_slots(*node, p.size())) return std::nullopt;
        if (uses_parameters(*node)) {
            sink_.warning("W-table-parameters", t.where,
                          "table " + quoted(t.name) +
                              " uses parameters: XPPAUT recomputes it when they change, Bifscope computes it "
                              "once from the file's values (a study that varies them does not change it)");
        }
        sym::Table table;
        table.xlo = t.xlo;
        table.xhi = t.xhi;
        const double dx = (t.xhi - t.xlo) / double(t.points - 1);
        for (long i = 0; i < t.points; ++i)
            table.y.push_back(model_.pool.evaluate(*node, nullptr, p.data(), dx * double(i) + t.xlo));
        return table;
    }

    std::optional<sym::Table> file_table(const TableDeclaration& t) {
        TableFile file = read_table_file(path_beside(model_.file, t.file));
        if (!file.table) sink_.error("E-table", t.file_where, file.failure);
        return std::move(file.table);
    }

    // The highest parameter slot a formula reads, if it reads any. (The resolver refuses states in
    // the formulas of tables and derived parameters.)
    std::optional<std::size_t> highest_slot_read(sym::NodeId root) const {
        std::optional<std::size_t> highest;
        std::vector<sym::NodeId> todo{root};
        std::vector<char> seen(model_.pool.size(), 0);
        while (!todo.empty()) {
            const sym::Node& n = model_.pool.node(todo.back());
            todo.pop_back();
            if (n.op == sym::Op::Param) highest = std::max<std::size_t>(highest.value_or(0), n.index);
            for (int i = 0; i < sym::arity(n.op); ++i)
                if (!seen[n.args[i]]) {
                    seen[n.args[i]] = 1;
                    todo.push_back(n.args[i]);
                }
        }
        return highest;
    }

    bool uses_parameters(sym::NodeId root) const { return highest_slot_read(root).has_value(); }

    bool reads_only_slots(sym::NodeId root, std::size_t count) const {
        const auto highest = highest_slot_read(root);
        return !highest || *highest < count;
    }

    void build_networks() {
        std::vector<std::optional<Network>> networks;
        for (std::size_t index : special_decl_)
            networks.push_back(check_network(d_.specials[index], scope_, model_.pool, sink_));
        resolver_->set_networks(std::move(networks));
    }

    void build_fixed() {
        for (std::size_t k = 0; k < scope_.fixed.size(); ++k) {
            const FixedVariable& f = scope_.fixed[k];
            if (const auto node = resolver_->fixed_variable(k, f.where)) {
                model_.fixed.push_back({f.name, *node, f.where});
            }
        }
    }

    void build_odes() {
        for (std::size_t i = 0; i < model_.states.size(); ++i) {
            const FormulaDeclaration& ode = d_.odes[state_decl_[i]];
            if (!ode.formula) continue;
            if (const auto node = resolver_->resolve(*ode.formula, {})) model_.states[i].rhs = *node;
        }
    }

    void build_aux() {
        for (std::size_t index : aux_decl_) {
            const FormulaDeclaration& a = d_.aux[index];
            if (!a.formula) continue;
            if (const auto node = resolver_->resolve(*a.formula, {}))
                model_.aux.push_back({a.name, *node, a.where});
        }
    }

    void build_events() {
        for (const EventDeclaration& e : d_.events) {
            Event event;
            event.direction = e.direction;
            event.text = e.text;
            event.where = e.where;
            std::optional<sym::NodeId> condition;
            if (e.condition) condition = resolver_->resolve(*e.condition, {});
            for (const ResetDeclaration& r : e.resets) {
                if (iequals(r.target, "out_put")) {
                    read_output(r, event);
                    continue;
                }
                if (auto reset = build_reset(r)) event.resets.push_back(*reset);
            }
            apply_state_assignments_in_order(event.resets);
            if (!condition) continue;
            event.condition = *condition;
            model_.events.push_back(std::move(event));
        }
    }

    // XPPAUT 6.11 assigns a state variable as soon as its reset is read ({x=0;y=x+1} sets y to 1)
    // but parameters only after all resets (measured; tests/models_xpp). The contract evaluates every
    // value before any assignment, so later values get the earlier state assignments substituted.
    void apply_state_assignments_in_order(std::vector<Reset>& resets) {
        std::vector<std::pair<std::uint32_t, sym::NodeId>> assigned;
        for (Reset& r : resets) {
            if (!assigned.empty()) {
                r.value =
                    model_.pool.substitute(r.value, [&](const sym::Node& leaf) -> std::optional<sym::NodeId> {
                        if (leaf.op != sym::Op::State) return std::nullopt;
                        for (auto it = assigned.rbegin(); it != assigned.rend(); ++it)
                            if (it->first == leaf.index) return it->second;
                        return std::nullopt;
                    });
            }
            if (r.target == Reset::Target::State) assigned.emplace_back(r.index, r.value);
        }
    }

    // XPPAUT's out_put=value: a row of its batch output at each firing where value > 0.
    void read_output(const ResetDeclaration& r, Event& event) {
        if (!r.value) return;
        const auto value = resolver_->resolve(*r.value, {});
        if (!value) return;
        const sym::Node& node = model_.pool.node(*value);
        if (node.op == sym::Op::Constant) {
            event.output = node.value > 0.0;
        } else {
            event.output = true;
            sink_.warning("W-output-formula", r.where,
                          "out_put is honoured as a constant: Bifscope writes a row at every firing of this "
                          "event, XPPAUT only where the value is > 0");
        }
        event.output_after_resets = false;
        for (const Reset& earlier : event.resets)
            event.output_after_resets = event.output_after_resets || earlier.target == Reset::Target::State;
    }

    std::optional<Reset> build_reset(const ResetDeclaration& r) {
        const std::string lower = to_lower(r.target);
        if (lower == "no_interp") {
            sink_.warning("W-ignored-reset", r.where,
                          quoted(r.target) + " changes only XPPAUT's output; Bifscope ignores it");
            return std::nullopt;
        }
        Reset reset;
        const Symbol* s = scope_.find(lower);
        if (lower == "arret") {
            reset.target = Reset::Target::Stop;
        } else if (s && s->kind == SymbolKind::State) {
            reset.target = Reset::Target::State;
            reset.index = s->index;
        } else if (s && s->kind == SymbolKind::Parameter) {
            reset.target = Reset::Target::Param;
            reset.index = s->index;
        } else {
            sink_.error("E-reset-target", r.where,
                        s ? quoted(r.target) + " is a " + symbol_kind_name(s->kind) +
                                "; an event can set state variables, parameters and arret"
                          : "unknown name " + quoted(r.target) +
                                ": an event can set state variables, "
                                "parameters and arret");
            return std::nullopt;
        }
        if (!r.value) return std::nullopt;
        const auto value = resolver_->resolve(*r.value, {});
        if (!value) return std::nullopt;
        reset.value = *value;
        return reset;
    }

    void copy_options_and_text() {
        model_.options = d_.options;
        model_.sets = d_.sets;
        model_.comments = d_.comments;
        std::vector<std::string> ignored;
        SourcePos first;
        for (const Option& o : model_.options) {
            if (o.used_by_bifscope || std::find(ignored.begin(), ignored.end(), o.name) != ignored.end())
                continue;
            if (ignored.empty()) first = o.where;
            ignored.push_back(o.name);
        }
        if (ignored.empty()) return;
        std::string list;
        for (const std::string& name : ignored)
            list += (list.empty() ? "" : ", ") + name;
        sink_.note("N-options-ignored", first, "Bifscope ignores these options: " + list);
    }

    const Declarations& d_;
    Model& model_;
    DiagnosticSink& sink_;
    Scope scope_;
    std::optional<Resolver> resolver_;
    std::vector<std::size_t> state_decl_;    // model state -> ODE declaration
    std::vector<std::size_t> derived_decl_;  // derived index -> declaration
    std::vector<std::size_t> function_decl_; // scope function -> declaration
    std::vector<std::size_t> aux_decl_;      // registered aux -> declaration
    std::vector<std::size_t> table_decl_;    // scope table -> declaration
    std::vector<std::size_t> special_decl_;  // network -> declaration
};

} // namespace

void build_model(const Declarations& declarations, Model& model, DiagnosticSink& sink) {
    ModelBuilder(declarations, model, sink).run();
}

Scope scope_of(const Model& model) {
    Scope scope;
    scope.num_parameters = static_cast<std::uint32_t>(model.parameters.size());
    scope.num_states = static_cast<std::uint32_t>(model.states.size());
    auto define = [&](const std::string& name, SymbolKind kind, std::size_t index, SourcePos where) {
        scope.define(to_lower(name), {kind, static_cast<std::uint32_t>(index), where});
    };
    for (std::size_t i = 0; i < model.states.size(); ++i)
        define(model.states[i].name, SymbolKind::State, i, model.states[i].where);
    for (std::size_t i = 0; i < model.parameters.size(); ++i)
        define(model.parameters[i].name, SymbolKind::Parameter, i, model.parameters[i].where);
    for (std::size_t i = 0; i < model.derived.size(); ++i)
        define(model.derived[i].name, SymbolKind::Derived, model.derived[i].slot - scope.num_parameters,
               model.derived[i].where);
    for (std::size_t i = 0; i < model.numbers.size(); ++i) {
        scope.numbers.push_back(model.numbers[i].value);
        define(model.numbers[i].name, SymbolKind::Number, i, model.numbers[i].where);
    }
    for (std::size_t i = 0; i < model.fixed.size(); ++i) {
        const NamedFormula& f = model.fixed[i];
        scope.fixed.push_back({f.name, nullptr, f.where, FixedVariable::Status::Done, f.formula});
        define(f.name, SymbolKind::Fixed, i, f.where);
    }
    for (std::size_t i = 0; i < model.functions.size(); ++i) {
        const UserFunction& f = model.functions[i];
        const LogicalLine body = LogicalLine::from_text(f.body, 0).slice(0, f.body.size(), true);
        DiagnosticSink quiet("", {});
        auto ast = parse_formula(body, quiet);
        const Ast* parsed = nullptr;
        if (ast) parsed = &scope.owned_asts.emplace_back(std::move(*ast));
        scope.functions.push_back({f.name, f.arguments, parsed, f.where});
        define(f.name, SymbolKind::Function, i, f.where);
    }
    for (std::size_t i = 0; i < model.tables.size(); ++i) {
        scope.tables.emplace_back(model.tables[i].table);
        define(model.tables[i].name, SymbolKind::Table, i, model.tables[i].where);
    }
    for (std::size_t i = 0; i < model.aux.size(); ++i)
        define(model.aux[i].name, SymbolKind::Aux, i, model.aux[i].where);
    return scope;
}

} // namespace bif::model::detail
