// An independent reference evaluator for XPPAUT .ode models, built on muparser.
//
// Tests use it to check the project's parser, expression pool and generated code against a
// second implementation that shares nothing with engine/: its own line reader
// (ode_text_reader.h), its own syntax translation (xpp_to_muparser.h) and one mu::Parser per
// formula. It covers the subset of the language that the bundled models use.
//
// Order and meaning of the slots (the project parser uses the same orders):
//   y: states in the order of their ODE lines;
//   p: user parameters in the order of their `par` lines (the first mention fixes the place);
//   derived parameters (`!name=`) are computed inside every call from p, in file order;
//   fixed variables are evaluated in file order at every call, then ODEs, aux and events.
// Semantics follow XPPAUT where the bundled models rely on them: unset initial values are 0,
// sign(0) = 0, heav(0) = 1, mod(a,b) = a - b*floor(a/b), log is the natural logarithm.
// Not emulated: XPPAUT's operator precedence quirks and its guarded division by zero.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bif::testsupport {

class MuparserReference {
  public:
    // Reads and compiles a model; on failure returns nothing and sets *error (with a line number
    // where one applies).
    static std::optional<MuparserReference> load(const std::string& path, std::string* error);
    static std::optional<MuparserReference> from_text(const std::string& text, std::string* error);

    MuparserReference(MuparserReference&&) noexcept;
    MuparserReference& operator=(MuparserReference&&) noexcept;
    ~MuparserReference();

    // Lower-case names.
    const std::vector<std::string>& state_names() const;
    const std::vector<std::string>& parameter_names() const;
    const std::vector<std::string>& derived_names() const;
    const std::vector<std::string>& fixed_names() const;
    const std::vector<std::string>& aux_names() const;

    std::vector<double> default_parameters() const;
    std::vector<double> initial_state() const;

    // p points to the user parameters (parameter_names() order) throughout.
    std::vector<double> derived_values(const double* p);
    void rhs(double t, const double* y, const double* p, double* dydt);
    void fixed(double t, const double* y, const double* p, double* out);
    void aux(double t, const double* y, const double* p, double* out);

    // `global` events in file order: condition values and XPPAUT's sign (1, -1 or 0).
    std::size_t num_events() const;
    int event_direction(std::size_t k) const;
    void events(double t, const double* y, const double* p, double* conditions);
    // Applies the resets of event k as XPPAUT 6.11 does (checked by running it): in written
    // order, a state reset takes effect at once, so later resets see it ({x=0;y=x+1} gives y=1),
    // while parameter resets are all computed first and assigned at the end ({a=0;b=a+1} gives
    // b = old a + 1). Targets are states (y) or user parameters (p).
    void apply_event(std::size_t k, double t, double* y, double* p);

    // Evaluates any XPPAUT formula in the model's context (states, parameters, derived and fixed
    // quantities, numbers, user functions); nothing, with *error set, if it does not compile.
    std::optional<double> evaluate(const std::string& formula, double t, const double* y, const double* p,
                                   std::string* error);

  private:
    struct Impl;
    explicit MuparserReference(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace bif::testsupport
