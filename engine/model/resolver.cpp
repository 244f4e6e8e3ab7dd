#include "engine/model/resolver.h"

#include "engine/model/builtins.h"
#include "engine/model/text.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace bif::model::detail {

namespace {

sym::Op binary_op(AstOp op) {
    switch (op) {
    case AstOp::Add:
        return sym::Op::Add;
    case AstOp::Sub:
        return sym::Op::Sub;
    case AstOp::Mul:
        return sym::Op::Mul;
    case AstOp::Div:
        return sym::Op::Div;
    case AstOp::Pow:
        return sym::Op::Pow;
    case AstOp::Lt:
        return sym::Op::Lt;
    case AstOp::Le:
        return sym::Op::Le;
    case AstOp::Gt:
        return sym::Op::Gt;
    case AstOp::Ge:
        return sym::Op::Ge;
    case AstOp::Eq:
        return sym::Op::Eq;
    case AstOp::Ne:
        return sym::Op::Ne;
    case AstOp::And:
        return sym::Op::And;
    case AstOp::Or:
        return sym::Op::Or;
    case AstOp::None:
    case AstOp::Neg:
        break;
    }
    return sym::Op::Add;
}

} // namespace

Resolver::Resolver(sym::ExprPool& pool, Scope& scope, DiagnosticSink& sink)
    : pool_(pool), scope_(scope), sink_(sink), active_functions_(scope.functions.size(), false) {}

std::optional<sym::NodeId> Resolver::resolve(const Ast& ast, FormulaContext context) {
    if (ast.root < 0) return std::nullopt;
    const FormulaContext saved_context = context_;
    const Frame* saved_frame = frame_;
    const bool saved_failed = failed_;
    context_ = context;
    frame_ = nullptr;
    failed_ = false;
    const sym::NodeId result = node(ast, ast.root);
    const bool ok = !failed_;
    context_ = saved_context;
    frame_ = saved_frame;
    failed_ = saved_failed;
    if (!ok) return std::nullopt;
    return result;
}

std::optional<sym::NodeId> Resolver::fixed_variable(std::size_t index, SourcePos used_at) {
    FixedVariable& f = scope_.fixed[index];
    using Status = FixedVariable::Status;
    switch (f.status) {
    case Status::Done:
        return f.node;
    case Status::Failed:
        return std::nullopt;
    case Status::InProgress:
        sink_.error("E-fixed-cycle", used_at,
                    "fixed variable " + quoted(f.name) +
                        " is defined in terms of itself (directly or through "
                        "other fixed variables)");
        return std::nullopt;
    case Status::Pending:
        break;
    }
    if (!f.formula) {
        f.status = Status::Failed;
        return std::nullopt;
    }
    if (inline_nesting_ >= kMaxInlineNesting) {
        sink_.error("E-too-deep", used_at,
                    "fixed variables and functions nested more than " + std::to_string(kMaxInlineNesting) +
                        " levels deep");
        return std::nullopt;
    }
    f.status = Status::InProgress;
    ++inline_nesting_;
    const auto node = resolve(*f.formula, {FormulaContext::Kind::Fixed, index});
    --inline_nesting_;
    f.status = node ? Status::Done : Status::Failed;
    if (node) f.node = *node;
    return node;
}

void Resolver::check_function(std::size_t index) {
    const UserFunctionEntry& f = scope_.functions[index];
    if (!f.body || f.recursive) return;
    Frame frame{&f, std::vector<sym::NodeId>(f.arguments.size(), pool_.constant(0.0))};
    const Frame* saved_frame = frame_;
    const FormulaContext saved_context = context_;
    const bool saved_failed = failed_;
    frame_ = &frame;
    context_ = {};
    active_functions_[index] = true;
    node(*f.body, f.body->root);
    active_functions_[index] = false;
    frame_ = saved_frame;
    context_ = saved_context;
    failed_ = saved_failed;
}

sym::NodeId Resolver::node(const Ast& ast, int index) {
    const AstNode& n = ast.at(index);
    if (recursion_ >= kMaxRecursion)
        return error("E-too-deep", n.where, "formula too deeply nested after inlining");
    struct Depth {
        int& r;
        explicit Depth(int& r_) : r(++r_) {}
        ~Depth() { --r; }
    } depth(recursion_);
    switch (n.kind) {
    case AstKind::Number:
        return pool_.constant(n.value);
    case AstKind::Name:
        return name(n);
    case AstKind::Unary:
        return checked(pool_.unary(sym::Op::Neg, node(ast, n.children[0])), n);
    case AstKind::Binary: {
        const sym::NodeId a = node(ast, n.children[0]);
        const sym::NodeId b = node(ast, n.children[1]);
        return checked(pool_.binary(binary_op(n.op), a, b), n);
    }
    case AstKind::If: {
        const sym::NodeId c = node(ast, n.children[0]);
        const sym::NodeId a = node(ast, n.children[1]);
        const sym::NodeId b = node(ast, n.children[2]);
        return checked(pool_.if_then_else(c, a, b), n);
    }
    case AstKind::Call:
        return call(ast, n);
    case AstKind::Sum:
        return sum(ast, n);
    case AstKind::SumIndex:
        return sum_index(n);
    }
    return failed();
}

// A formula that must fold to a number (sum bounds, shift offsets), truncated toward zero as
// XPPAUT's (int) does.
std::optional<long> Resolver::integer_constant(const Ast& ast, int index, const char* code,
                                               const char* what) {
    const sym::NodeId id = node(ast, index);
    if (failed_) return std::nullopt;
    const sym::Node& value = pool_.node(id);
    if (value.op != sym::Op::Constant || !(std::fabs(value.value) < 1e9)) {
        error(code, ast.at(index).where,
              std::string(what) + " must be a number here (a formula of numbers and i'), not one that "
                                  "depends on parameters, states or time");
        return std::nullopt;
    }
    return static_cast<long>(value.value);
}

// sum(lo,hi)of(body) = body(lo) + ... + body(hi), added in that order as XPPAUT adds them.
sym::NodeId Resolver::sum(const Ast& ast, const AstNode& n) {
    const auto lo = integer_constant(ast, n.children[0], "E-sum", "the lower bound of a sum");
    const auto hi = integer_constant(ast, n.children[1], "E-sum", "the upper bound of a sum");
    if (!lo || !hi) return failed();
    if (*hi - *lo >= kMaxSumTerms) {
        return error("E-sum", n.where,
                     "this sum has " + std::to_string(*hi - *lo + 1) + " terms; at most " +
                         std::to_string(kMaxSumTerms) + " are supported");
    }
    sum_terms_ += std::max(0L, *hi - *lo + 1);
    if (sum_terms_ > kMaxAllSumTerms) {
        return error("E-sum", n.where,
                     "the sums of this file unroll to more than " + std::to_string(kMaxAllSumTerms) +
                         " terms");
    }
    sym::NodeId total = pool_.constant(0.0);
    for (long i = *lo; i <= *hi && !failed_; ++i) {
        sum_indices_.push_back(i);
        const sym::NodeId term = node(ast, n.children[2]);
        sum_indices_.pop_back();
        total = checked(pool_.binary(sym::Op::Add, total, term), n);
    }
    return failed_ ? failed() : total;
}

sym::NodeId Resolver::sum_index(const AstNode& n) {
    if (sum_indices_.empty())
        return error("E-sum", n.where, "i' is the index of sum(lo,hi)of(...) and means nothing outside one");
    return pool_.constant(static_cast<double>(sum_indices_.back()));
}

// shift(x,k): the variable k places after x in XPPAUT's list of variables (the states in file
// order, then the fixed variables in file order); k must be a number once sums are unrolled.
sym::NodeId Resolver::shift(const Ast& ast, const AstNode& n) {
    if (n.children.size() != 2)
        return error("E-arity", n.where, "`shift` takes 2 arguments, shift(variable,offset)");
    const AstNode& base = ast.at(n.children[0]);
    const Symbol* s = base.kind == AstKind::Name ? scope_.find(to_lower(base.text)) : nullptr;
    if (!s || (s->kind != SymbolKind::State && s->kind != SymbolKind::Fixed)) {
        return error("E-shift", base.where,
                     "the first argument of shift() must be the name of a state or fixed variable");
    }
    const auto offset = integer_constant(ast, n.children[1], "E-shift", "the offset of shift()");
    if (!offset) return failed();
    const long position = *variable_position(scope_, to_lower(base.text)) + *offset;
    if (position < 0 || position >= variable_count(scope_)) {
        return error("E-shift", n.where,
                     "shift(" + base.text + "," + std::to_string(*offset) +
                         ") is outside the list of state and fixed variables");
    }
    return variable_at(position, base);
}

// The variable at a position of XPPAUT's list (states, then fixed variables); position is valid.
sym::NodeId Resolver::variable_at(long position, const AstNode& n) {
    const bool state = position < long(scope_.num_states);
    const auto index = static_cast<std::uint32_t>(state ? position : position - long(scope_.num_states));
    const SourcePos where = state ? SourcePos{} : scope_.fixed[index].where;
    return symbol(Symbol{state ? SymbolKind::State : SymbolKind::Fixed, index, where}, n);
}

void Resolver::set_networks(std::vector<std::optional<Network>> networks) {
    networks_ = std::move(networks);
}

// z(i) of `special z=...`: XPPAUT's network_value takes (int)i and gives 0 outside 0..n-1.
sym::NodeId Resolver::network(std::uint32_t index, const std::vector<sym::NodeId>& args, const AstNode& n) {
    if (args.size() != 1) {
        return error("E-arity", n.where,
                     "network " + quoted(n.text) + " takes 1 argument, not " + std::to_string(args.size()));
    }
    if (failed_ || index >= networks_.size() || !networks_[index]) return failed();
    const sym::Node& arg = pool_.node(args[0]);
    if (arg.op != sym::Op::Constant) {
        return error("E-special", n.where,
                     "the argument of network " + quoted(n.text) +
                         " must be a number, such as z([j]) on an array line; Bifscope unrolls networks");
    }
    if (!(arg.value > -1.0 && arg.value < double(networks_[index]->outputs))) return pool_.constant(0.0);
    const long i = static_cast<long>(arg.value);
    if (auto it = network_outputs_.find({index, i}); it != network_outputs_.end()) return it->second;
    // Networks are evaluated after all fixed variables (my_rhs.c): no stale-value warnings apply.
    const FormulaContext saved = context_;
    if (context_.kind == FormulaContext::Kind::Fixed) context_ = {};
    const sym::NodeId value = network_output(*networks_[index], i, n);
    context_ = saved;
    if (!failed_) network_outputs_.emplace(std::pair(index, i), value);
    return value;
}

sym::NodeId Resolver::network_output(const Network& net, long i, const AstNode& n) {
    sym::NodeId total = pool_.constant(0.0);
    for (const NetworkTerm& term : network_terms(net, i)) {
        sym::NodeId x = variable_at(term.input, n);
        if (net.function) x = user_function(*net.function, {x, variable_at(term.self, n)}, n);
        if (failed_) return failed();
        total = checked(
            pool_.binary(sym::Op::Add, total, pool_.binary(sym::Op::Mul, pool_.constant(term.weight), x)), n);
    }
    return total;
}

sym::NodeId Resolver::name(const AstNode& n) {
    const std::string lower = to_lower(n.text);
    if (frame_) {
        const auto& args = frame_->function->arguments;
        for (std::size_t i = 0; i < args.size(); ++i)
            if (args[i] == lower) return frame_->arguments[i];
    }
    const bool derived = context_.kind == FormulaContext::Kind::Derived;
    if (lower == "t") {
        if (derived) {
            return error(
                "E-derived-state", n.where,
                "a derived parameter cannot depend on time `t`; it is computed once from the parameters");
        }
        return pool_.time();
    }
    if (lower == "pi") return pool_.constant(std::numbers::pi);
    if (const Symbol* s = scope_.find(lower)) return symbol(*s, n);
    if (scope_.find_aux(lower)) {
        return error("E-aux-reference", n.where,
                     quoted(n.text) +
                         " is an aux quantity; formulas cannot use aux names (make it a fixed "
                         "variable `" +
                         n.text + "=...` and write `aux name=" + n.text + "`)");
    }
    if (find_builtin(lower) || find_refused_function(lower)) {
        return error("E-unknown-name", n.where, quoted(n.text) + " is a function; call it with arguments");
    }
    if (lower == "e") {
        return error("E-unknown-name", n.where, "unknown name `e`: XPPAUT has no constant e; write exp(1)");
    }
    return error("E-unknown-name", n.where, "unknown name " + quoted(n.text));
}

sym::NodeId Resolver::symbol(const Symbol& s, const AstNode& n) {
    const bool derived = context_.kind == FormulaContext::Kind::Derived;
    switch (s.kind) {
    case SymbolKind::State:
    case SymbolKind::Fixed:
        if (context_.kind == FormulaContext::Kind::Table) {
            return error("E-table", n.where,
                         "a table's formula may use t, parameters and numbers, not the " +
                             std::string(symbol_kind_name(s.kind)) + " " + quoted(n.text));
        }
        if (derived) {
            return error(
                "E-derived-state", n.where,
                "a derived parameter may use only parameters, numbers and earlier derived parameters, "
                "not the " +
                    std::string(symbol_kind_name(s.kind)) + " " + quoted(n.text));
        }
        if (s.kind == SymbolKind::State) return pool_.state(s.index);
        if (context_.kind == FormulaContext::Kind::Fixed && s.index > context_.index) {
            sink_.warning("W-fixed-order", n.where,
                          "fixed variable " + quoted(n.text) + " is defined later (line " +
                              std::to_string(s.where.line) +
                              "): XPPAUT would use its value from the previous evaluation; Bifscope uses its "
                              "definition");
        }
        if (auto id = fixed_variable(s.index, n.where)) return *id;
        return failed();
    case SymbolKind::Parameter:
        return pool_.param(s.index);
    case SymbolKind::Derived:
        if (derived && s.index >= context_.index) {
            return error("E-derived-order", n.where,
                         s.index == context_.index
                             ? "derived parameter " + quoted(n.text) + " is defined in terms of itself"
                             : "derived parameter " + quoted(n.text) +
                                   " is defined later; a derived parameter may use only earlier ones");
        }
        return pool_.param(scope_.num_parameters + s.index);
    case SymbolKind::Number:
        return pool_.constant(scope_.numbers[s.index]);
    case SymbolKind::Function:
    case SymbolKind::Table:
    case SymbolKind::Network:
        return error("E-unknown-name", n.where,
                     quoted(n.text) + " is a " + symbol_kind_name(s.kind) + "; call it with arguments");
    case SymbolKind::Aux:
        break;
    }
    return failed();
}

sym::NodeId Resolver::call(const Ast& ast, const AstNode& n) {
    const std::string lower = to_lower(n.text);
    if (lower == "shift") return shift(ast, n);
    if (const RefusedFunction* r = find_refused_function(lower)) {
        return error(r->code, n.where,
                     std::string(r->what) + " (" + n.text + ") are not supported by Bifscope yet");
    }
    std::vector<sym::NodeId> args;
    for (int c : n.children)
        args.push_back(node(ast, c));
    if (const BuiltinFunction* b = find_builtin(lower)) {
        if (static_cast<int>(args.size()) != b->arity) {
            return error("E-arity", n.where,
                         quoted(n.text) + " takes " + std::to_string(b->arity) + " argument" +
                             (b->arity == 1 ? "" : "s") + ", not " + std::to_string(args.size()));
        }
        if (failed_) return failed();
        return checked(pool_.make(b->op, args), n);
    }
    const Symbol* s = scope_.find(lower);
    if (s && s->kind == SymbolKind::Function) return user_function(s->index, std::move(args), n);
    if (s && s->kind == SymbolKind::Table) return table(s->index, args, n);
    if (s && s->kind == SymbolKind::Network) return network(s->index, args, n);
    if (s || scope_.find_aux(lower)) {
        const char* kind = s ? symbol_kind_name(s->kind) : "aux quantity";
        return error("E-not-a-function", n.where, quoted(n.text) + " is a " + kind + ", not a function");
    }
    return error("E-unknown-function", n.where, "unknown function " + quoted(n.text));
}

sym::NodeId Resolver::table(std::uint32_t index, const std::vector<sym::NodeId>& args, const AstNode& n) {
    if (args.size() != 1) {
        return error("E-arity", n.where,
                     "table " + quoted(n.text) + " takes 1 argument, not " + std::to_string(args.size()));
    }
    if (failed_) return failed();
    const std::optional<std::uint32_t> pool_table = scope_.tables[index];
    if (!pool_table) {
        return error("E-table", n.where,
                     "table " + quoted(n.text) +
                         " is defined later (or has errors); a table's formula may use "
                         "only tables defined before it");
    }
    return checked(pool_.table_lookup(*pool_table, args[0]), n);
}

sym::NodeId Resolver::user_function(std::size_t index, std::vector<sym::NodeId> args, const AstNode& n) {
    const UserFunctionEntry& f = scope_.functions[index];
    if (args.size() != f.arguments.size()) {
        return error("E-arity", n.where,
                     quoted(n.text) + " takes " + std::to_string(f.arguments.size()) + " argument" +
                         (f.arguments.size() == 1 ? "" : "s") + ", not " + std::to_string(args.size()));
    }
    if (f.recursive || !f.body || failed_) return failed();
    if (active_functions_[index]) {
        return error("E-recursion", n.where,
                     "function " + quoted(f.name) + " calls itself; recursion is not supported");
    }
    if (inline_nesting_ >= kMaxInlineNesting) {
        return error("E-too-deep", n.where,
                     "fixed variables and functions nested more than " + std::to_string(kMaxInlineNesting) +
                         " levels deep");
    }
    std::vector<std::uint64_t> key{index, static_cast<std::uint64_t>(context_.kind), context_.index};
    key.insert(key.end(), args.begin(), args.end());
    if (auto it = call_memo_.find(key); it != call_memo_.end()) {
        return it->second ? *it->second : failed();
    }
    Frame frame{&f, std::move(args)};
    const Frame* saved_frame = frame_;
    frame_ = &frame;
    active_functions_[index] = true;
    ++inline_nesting_;
    const sym::NodeId result = node(*f.body, f.body->root);
    --inline_nesting_;
    active_functions_[index] = false;
    frame_ = saved_frame;
    call_memo_[key] = failed_ ? std::nullopt : std::optional<sym::NodeId>(result);
    return result;
}

sym::NodeId Resolver::checked(sym::NodeId id, const AstNode& n) {
    if (failed_) return id;
    if (height(id) > kMaxNodeHeight) {
        return error("E-too-deep", n.where,
                     "formula too deeply nested after inlining fixed variables and functions (more than " +
                         std::to_string(kMaxNodeHeight) + " levels)");
    }
    return id;
}

sym::NodeId Resolver::error(const char* code, SourcePos where, std::string message) {
    sink_.error(code, where, std::move(message));
    return failed();
}

sym::NodeId Resolver::failed() {
    failed_ = true;
    return pool_.constant(0.0);
}

std::uint32_t Resolver::height(sym::NodeId id) {
    // Nodes are interned after their arguments, so arguments have smaller ids: one pass in id
    // order computes every height from already known ones.
    while (heights_.size() <= id) {
        const sym::Node& n = pool_.node(static_cast<sym::NodeId>(heights_.size()));
        std::uint32_t h = 1;
        for (int k = 0; k < sym::arity(n.op); ++k)
            h = std::max(h, heights_[n.args[k]] + 1);
        heights_.push_back(h);
    }
    return heights_[id];
}

} // namespace bif::model::detail
