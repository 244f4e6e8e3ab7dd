// Stage 6 of the front end: syntax trees -> expression DAG nodes in the model's pool.
//
// Names become slots (states, parameters, derived parameters), numbers are folded, sums
// sum(lo,hi)of(...) are unrolled (shift(x,k) then names a variable), fixed variables and user
// functions are inlined (a function's arguments shadow global names; a call
// with the same arguments in the same context is built once, so nested calls cannot blow up).
// The rules of the context apply: a derived parameter may use parameters, numbers and earlier
// derived parameters only; a fixed variable that uses a later one gets XPPAUT's stale-value
// warning; aux names cannot be used in formulas.
#pragma once

#include "engine/model/diagnostic_sink.h"
#include "engine/model/network.h"
#include "engine/model/scope.h"

#include <map>
#include <optional>
#include <vector>

namespace bif::model::detail {

struct FormulaContext {
    enum class Kind { General, Fixed, Derived, Table } kind = Kind::General; // Table: a table's formula
    std::size_t index = 0; // of the fixed variable or derived parameter being defined
};

class Resolver {
  public:
    Resolver(sym::ExprPool& pool, Scope& scope, DiagnosticSink& sink);

    // The formula's node; nullopt when an error was reported in it (or in what it uses).
    std::optional<sym::NodeId> resolve(const Ast& ast, FormulaContext context);
    std::optional<sym::NodeId> fixed_variable(std::size_t index, SourcePos used_at);
    // Checks a function body once, its arguments standing for 0, so that mistakes in functions
    // that are never called are reported too.
    void check_function(std::size_t index);
    // The checked networks of `special` lines, by their symbol index (nullopt where wrong).
    void set_networks(std::vector<std::optional<Network>> networks);

    static constexpr int kMaxRecursion = 4000;    // resolver stack frames, inlining included
    static constexpr int kMaxInlineNesting = 100; // functions and fixed variables inside each other
    static constexpr std::uint32_t kMaxNodeHeight = 5000;
    static constexpr long kMaxSumTerms = 100000;     // terms of one sum(lo,hi)of(...), unrolled
    static constexpr long kMaxAllSumTerms = 2000000; // of all sums of the file together

  private:
    struct Frame {
        const UserFunctionEntry* function = nullptr;
        std::vector<sym::NodeId> arguments;
    };

    sym::NodeId node(const Ast& ast, int index);
    sym::NodeId name(const AstNode& n);
    sym::NodeId symbol(const Symbol& s, const AstNode& n);
    sym::NodeId call(const Ast& ast, const AstNode& n);
    sym::NodeId table(std::uint32_t index, const std::vector<sym::NodeId>& args, const AstNode& n);
    sym::NodeId sum(const Ast& ast, const AstNode& n);
    sym::NodeId sum_index(const AstNode& n);
    sym::NodeId shift(const Ast& ast, const AstNode& n);
    sym::NodeId network(std::uint32_t index, const std::vector<sym::NodeId>& args, const AstNode& n);
    sym::NodeId network_output(const Network& net, long i, const AstNode& n);
    sym::NodeId variable_at(long position, const AstNode& n);
    std::optional<long> integer_constant(const Ast& ast, int index, const char* code, const char* what);
    sym::NodeId user_function(std::size_t index, std::vector<sym::NodeId> arguments, const AstNode& n);
    sym::NodeId checked(sym::NodeId id, const AstNode& n);
    sym::NodeId error(const char* code, SourcePos where, std::string message);
    sym::NodeId failed();
    std::uint32_t height(sym::NodeId id);

    sym::ExprPool& pool_;
    Scope& scope_;
    DiagnosticSink& sink_;
    FormulaContext context_;
    const Frame* frame_ = nullptr;
    bool failed_ = false;
    int recursion_ = 0;
    int inline_nesting_ = 0;
    std::vector<bool> active_functions_;
    std::map<std::vector<std::uint64_t>, std::optional<sym::NodeId>> call_memo_;
    std::vector<std::uint32_t> heights_;
    std::vector<long> sum_indices_; // the value of i' in the sums being unrolled, innermost last
    long sum_terms_ = 0;            // unrolled so far, against kMaxAllSumTerms
    std::vector<std::optional<Network>> networks_;
    std::map<std::pair<std::uint32_t, long>, sym::NodeId> network_outputs_; // unrolled once each
};

} // namespace bif::model::detail
