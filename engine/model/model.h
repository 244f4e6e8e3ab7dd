// A resolved model: what the language front end produces and every later stage consumes.
//
// Names are resolved to slots: states y[0..N), parameter slots p[0..P+D) — the P user parameters
// first, then the D derived parameters (XPPAUT's `!name=formula`) in dependency order. User
// functions and fixed variables are inlined into the formulas (the pool shares the common nodes);
// `number` constants are folded. All formulas live in `pool`.
#pragma once

#include "engine/symbolic/expr.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bif::model {

struct SourcePos {
    int line = 0;
    int column = 0;
};

struct StateVariable {
    std::string name;     // as first written (display); lookups are case-insensitive
    double initial = 0.0; // XPPAUT: unset initial values are 0
    sym::NodeId rhs = 0;  // dy/dt; in a map, the next value y(t+1)
    SourcePos where;
};

struct Parameter {
    std::string name;
    double value = 0.0;
    SourcePos where;
};

struct DerivedParameter {
    std::string name;
    sym::NodeId formula = 0; // over Param leaves of user parameters and earlier derived ones
    std::uint32_t slot = 0;  // its index in the parameter slots
    SourcePos where;
};

// A named formula kept for display and recording: aux quantities and fixed variables.
struct NamedFormula {
    std::string name;
    sym::NodeId formula = 0;
    SourcePos where;
};

struct Reset {
    enum class Target { State, Param, Stop };
    Target target = Target::State;
    std::uint32_t index = 0; // state or parameter slot; unused for Stop (XPPAUT's arret)
    sym::NodeId value = 0;   // for Stop: the system stops when value > 0
};

// XPPAUT `global sign condition {resets}`.
struct Event {
    int direction = 1; // +1: - to +; -1: + to -; 0: XPPAUT's exact-zero test
    sym::NodeId condition = 0;
    std::vector<Reset> resets; // all values are evaluated before any assignment
    // XPPAUT's out_put: a row of the batch output at each firing, holding the state before the
    // resets, or after them when a state reset is written before out_put (XPPAUT's reading order).
    bool output = false;
    bool output_after_resets = false;
    std::string text; // the condition as written, for display
    SourcePos where;
};

// One `@ name=value` pair.
struct Option {
    std::string name;    // canonical lower-case name ("total", "dt", "meth", "poimap", ...)
    std::string written; // as written
    std::string value;   // as written
    bool used_by_bifscope = false;
    SourcePos where;
};

// A user function `f(a,b)=body`, kept as text so that later expressions (study formulas) can
// call it too; its uses are inlined.
struct UserFunction {
    std::string name;
    std::vector<std::string> arguments; // lower-case
    std::string body;                   // as written
    SourcePos where;
};

// `table name ...`: a tabulated function of one argument, its values in pool.table(index).
struct TabulatedFunction {
    std::string name;
    std::uint32_t table = 0;
    SourcePos where;
};

// `set name {a=1,x=0,dt=.25}`: kept as text pairs, applied on request.
struct ParameterSet {
    std::string name;
    std::vector<std::pair<std::string, std::string>> assignments;
    SourcePos where;
};

// A flow is a system of ODEs; a map is a difference equation y(t+1) = f(t, y), written x(t+1)=...
// or x'=... with `@ meth=discrete` (XPPAUT's reading), whose time counts iterates.
enum class ModelKind { Flow, Map };

struct Model {
    std::string file;
    ModelKind kind = ModelKind::Flow;
    sym::ExprPool pool;
    std::vector<StateVariable> states;
    std::vector<Parameter> parameters;
    std::vector<DerivedParameter> derived;
    std::vector<Parameter> numbers;  // `number` constants: folded into the formulas, kept for
                                     // study expressions and user-function bodies
    std::vector<NamedFormula> fixed; // fixed variables, file order
    std::vector<NamedFormula> aux;
    std::vector<Event> events;
    std::vector<UserFunction> functions;
    std::vector<TabulatedFunction> tables;
    std::vector<Option> options;
    std::vector<ParameterSet> sets;
    std::vector<std::string> comments; // `"` lines, active comments included, as text

    bool is_map() const { return kind == ModelKind::Map; }
    std::size_t num_states() const { return states.size(); }
    std::size_t num_parameters() const { return parameters.size(); }
    std::size_t num_param_slots() const { return parameters.size() + derived.size(); }

    // Case-insensitive lookups; -1 when absent.
    int state_index(std::string_view name) const;
    int parameter_index(std::string_view name) const; // user parameters only
    const Option* option(std::string_view canonical_name) const;
};

} // namespace bif::model
