// Writes lowered blocks as C++ statements and expressions over `real`, y[i], p[i] and t.
//
// Named steps become `const real vK = ...;`, other steps are written inline where they are used;
// an if() whose branches need statements becomes `real vK; if (...) {...} else {...}`, any other
// if() an inline `c ? a : b`. Only numbers and operators are written, never a name from the model.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/codegen/lowering.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bif::codegen::detail {

// A literal of the precision's type that reads back as exactly the value (for float: the value
// rounded to float); non-finite values are written as divisions of typed zeros and ones.
std::string real_literal(double value, Precision precision);

class CppWriter {
  public:
    CppWriter(const sym::ExprPool& pool, Precision precision) : pool_(pool), precision_(precision) {}

    // Appends the block's named steps as statements, each line starting with `indent`. The names
    // stay visible (for value()) until end_scope() with the returned mark.
    // `after_step`, when given, is called with each named step's node right after its statement.
    std::size_t write_block(const Block& block, const std::string& indent, std::string& out,
                            const std::function<void(sym::NodeId)>& after_step = {});
    void end_scope(std::size_t mark);

    // The value of a node as an expression: a temporary's name, a leaf, a literal, or the node's
    // operation written inline.
    std::string value(sym::NodeId id);

    // Binds a fresh temporary to an expression (used for values that must be read before
    // anything is assigned) and returns its name.
    std::string bind(const std::string& expression, const std::string& indent, std::string& out);

    bool used_time() const { return used_time_; }
    bool used_states() const { return used_states_; }
    bool used_params() const { return used_params_; }
    void reset_usage() { used_time_ = used_states_ = used_params_ = false; }
    void reset_temporaries() { next_temp_ = 0; }

  private:
    std::string operation(sym::NodeId id);
    std::string condition(sym::NodeId id);
    std::string power(const sym::Node& n);
    std::string literal(double v) const { return real_literal(v, precision_); }
    std::string fresh_name() { return std::string("v").append(std::to_string(next_temp_++)); }

    const sym::ExprPool& pool_;
    Precision precision_;
    std::unordered_map<sym::NodeId, std::string> names_;
    std::vector<sym::NodeId> scope_; // named nodes in the order they were bound, for end_scope
    int next_temp_ = 0;
    bool used_time_ = false, used_states_ = false, used_params_ = false;
};

} // namespace bif::codegen::detail
