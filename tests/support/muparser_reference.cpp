#include "muparser_reference.h"

#include "ode_text_reader.h"
#include "xpp_to_muparser.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <fstream>
#include <map>
#include <muParser.h>
#include <numbers>
#include <set>
#include <sstream>
#include <utility>

namespace bif::testsupport {
namespace {

struct BuildFailure {
    std::string message;
};

// XPPAUT built-ins that muparser lacks or defines differently.
double xpp_heav(double x) {
    return x >= 0.0 ? 1.0 : 0.0;
}
double xpp_sign(double x) {
    return double(x > 0.0) - double(x < 0.0);
}
double xpp_flr(double x) {
    return std::floor(x);
}
double xpp_ceil(double x) {
    return std::ceil(x);
}
double xpp_mod(double a, double b) {
    return a - b * std::floor(a / b);
}
double xpp_atan2(double a, double b) {
    return std::atan2(a, b);
}
double xpp_not(double x) {
    return x == 0.0 ? 1.0 : 0.0;
}
double xpp_pow(double a, double b) {
    return std::pow(a, b);
}
double xpp_erf(double x) {
    return std::erf(x);
}
double xpp_erfc(double x) {
    return std::erfc(x);
}

// XPPAUT's Bessel functions truncate the order to an integer.
double xpp_besselj(double n, double x) {
    return ::jn(static_cast<int>(n), x);
}
double xpp_bessely(double n, double x) {
    return ::yn(static_cast<int>(n), x);
}
double xpp_lgamma(double x) {
    return std::lgamma(x);
}

void define_builtins(mu::Parser& parser) {
    parser.DefineFun("heav", xpp_heav);
    parser.DefineFun("sign", xpp_sign);
    parser.DefineFun("flr", xpp_flr);
    parser.DefineFun("ceil", xpp_ceil);
    parser.DefineFun("mod", xpp_mod);
    parser.DefineFun("atan2", xpp_atan2);
    parser.DefineFun("not", xpp_not);
    parser.DefineFun("pow", xpp_pow);
    parser.DefineFun("erf", xpp_erf);
    parser.DefineFun("erfc", xpp_erfc);
    parser.DefineFun("besselj", xpp_besselj);
    parser.DefineFun("bessely", xpp_bessely);
    parser.DefineFun("lgamma", xpp_lgamma);
    parser.DefineConst("pi", std::numbers::pi);
}

// A user function `f(a,b)=body`: its own parser, whose argument variables shadow the globals.
struct UserFunction {
    std::string name;
    std::vector<std::string> arguments;
    std::vector<double> argument_values;
    std::unique_ptr<mu::Parser> body;
    int active_calls = 0;

    double call(const double* values) {
        // XPPAUT forbids recursion; a recursive definition yields NaN instead of overflowing the stack.
        if (active_calls > 0) return std::nan("");
        for (std::size_t i = 0; i < argument_values.size(); ++i)
            argument_values[i] = values[i];
        ++active_calls;
        const double value = body->Eval();
        --active_calls;
        return value;
    }
};

template <std::size_t>
using as_double = double;

template <class Indices>
struct Trampoline;

// One muparser callback per arity, so that muparser itself checks the argument count.
template <std::size_t... I>
struct Trampoline<std::index_sequence<I...>> {
    static double call(void* user, as_double<I>... args) {
        const double values[] = {args...};
        return static_cast<UserFunction*>(user)->call(values);
    }
};

constexpr std::size_t max_arguments = 10; // muparser's limit for callbacks with user data

template <std::size_t... N>
void define_with_arity(mu::Parser& parser, UserFunction& f, std::index_sequence<N...>) {
    const std::size_t arity = f.arguments.size();
    // Only the N matching the arity defines anything; optimisation off since bodies read globals.
    ((arity == N + 1 ? parser.DefineFunUserData(f.name, &Trampoline<std::make_index_sequence<N + 1>>::call,
                                                static_cast<void*>(&f), false)
                     : void()),
     ...);
}

} // namespace

struct MuparserReference::Impl {
    OdeText text;
    std::vector<std::string> states, parameters, derived, fixed, aux;
    std::vector<double> default_parameters, initial_state;

    // Every global name (t, states, parameters, derived, fixed, numbers) has one stable slot.
    std::deque<double> slots;
    std::map<std::string, double*> globals;
    double* t_slot = nullptr;
    std::vector<double*> state_slots, parameter_slots, derived_slots, fixed_slots;

    std::vector<std::unique_ptr<UserFunction>> functions;
    std::vector<std::unique_ptr<mu::Parser>> derived_parsers, fixed_parsers, ode_parsers, aux_parsers,
        event_parsers;
    struct Reset {
        double* target;
        std::unique_ptr<mu::Parser> value;
    };
    std::vector<std::vector<Reset>> resets;

    double* add_global(const std::string& name, int line) {
        if (globals.count(name))
            throw BuildFailure{"line " + std::to_string(line) + ": '" + name + "' defined twice"};
        slots.push_back(0.0);
        globals[name] = &slots.back();
        return &slots.back();
    }

    void declare_names() {
        t_slot = add_global("t", 0);
        for (const auto& ode : text.odes) {
            states.push_back(ode.name);
            state_slots.push_back(add_global(ode.name, ode.line));
        }
        std::map<std::string, double> values;
        for (const auto& par : text.parameters) {
            if (!values.count(par.name)) {
                parameters.push_back(par.name);
                parameter_slots.push_back(add_global(par.name, 0));
            }
            values[par.name] = par.value;
        }
        for (const auto& name : parameters)
            default_parameters.push_back(values[name]);
        for (const auto& number : text.numbers)
            *add_global(number.name, 0) = number.value;
        for (const auto& d : text.derived) {
            derived.push_back(d.name);
            derived_slots.push_back(add_global(d.name, d.line));
        }
        for (const auto& f : text.fixed) {
            fixed.push_back(f.name);
            fixed_slots.push_back(add_global(f.name, f.line));
        }
        for (const auto& a : text.aux)
            aux.push_back(a.name);
    }

    void set_initial_state() {
        initial_state.assign(states.size(), 0.0);
        for (const auto& init : text.initial_values) {
            bool found = false;
            for (std::size_t i = 0; i < states.size(); ++i)
                if (states[i] == init.name) initial_state[i] = init.value, found = true;
            if (!found) throw BuildFailure{"initial value for '" + init.name + "', which is not a state"};
        }
    }

    void define_context(mu::Parser& parser, const std::set<std::string>& shadowed) {
        define_builtins(parser);
        for (auto& [name, slot] : globals)
            if (!shadowed.count(name)) parser.DefineVar(name, slot);
        for (auto& f : functions)
            define_with_arity(parser, *f, std::make_index_sequence<max_arguments>{});
    }

    std::unique_ptr<mu::Parser> compile(const std::string& formula, int line) {
        std::string error;
        const auto translated = xpp_to_muparser(formula, &error);
        if (!translated) throw BuildFailure{"line " + std::to_string(line) + ": " + error};
        auto parser = std::make_unique<mu::Parser>();
        define_context(*parser, {});
        parser->SetExpr(*translated);
        return parser;
    }

    void build_functions() {
        for (const auto& f : text.functions) {
            if (f.arguments.empty() || f.arguments.size() > max_arguments)
                throw BuildFailure{"line " + std::to_string(f.line) + ": function " + f.name +
                                   " needs 1 to 10 arguments"};
            auto user = std::make_unique<UserFunction>();
            user->name = f.name;
            user->arguments = f.arguments;
            user->argument_values.assign(f.arguments.size(), 0.0);
            functions.push_back(std::move(user));
        }
        // Bodies are compiled once every function is known: functions may call later ones.
        for (std::size_t i = 0; i < functions.size(); ++i) {
            UserFunction& user = *functions[i];
            std::string error;
            const auto translated = xpp_to_muparser(text.functions[i].body, &error);
            if (!translated)
                throw BuildFailure{"line " + std::to_string(text.functions[i].line) + ": " + error};
            user.body = std::make_unique<mu::Parser>();
            define_context(*user.body, {user.arguments.begin(), user.arguments.end()});
            for (std::size_t a = 0; a < user.arguments.size(); ++a)
                user.body->DefineVar(user.arguments[a], &user.argument_values[a]);
            user.body->SetExpr(*translated);
        }
    }

    double* reset_target(const std::string& name, int line) {
        for (std::size_t i = 0; i < states.size(); ++i)
            if (states[i] == name) return state_slots[i];
        for (std::size_t i = 0; i < parameters.size(); ++i)
            if (parameters[i] == name) return parameter_slots[i];
        throw BuildFailure{"line " + std::to_string(line) + ": reset target '" + name +
                           "' is neither a state nor a parameter"};
    }

    void build_formulas() {
        for (const auto& d : text.derived)
            derived_parsers.push_back(compile(d.formula, d.line));
        for (const auto& f : text.fixed)
            fixed_parsers.push_back(compile(f.formula, f.line));
        for (const auto& o : text.odes)
            ode_parsers.push_back(compile(o.formula, o.line));
        for (const auto& a : text.aux)
            aux_parsers.push_back(compile(a.formula, a.line));
        for (const auto& e : text.events) {
            event_parsers.push_back(compile(e.condition, e.line));
            std::vector<Reset> event_resets;
            for (const auto& r : e.resets)
                event_resets.push_back({reset_target(r.name, r.line), compile(r.formula, r.line)});
            resets.push_back(std::move(event_resets));
        }
    }

    // muparser parses lazily: one evaluation of every formula reports syntax errors now.
    void check_all_compile() {
        bind(0.0, initial_state.data(), default_parameters.data());
        auto check = [](mu::Parser& parser) { parser.Eval(); };
        for (auto& f : functions)
            check(*f->body);
        for (auto* group : {&derived_parsers, &fixed_parsers, &ode_parsers, &aux_parsers, &event_parsers})
            for (auto& parser : *group)
                check(*parser);
        for (auto& event_resets : resets)
            for (auto& r : event_resets)
                check(*r.value);
    }

    void bind(double t, const double* y, const double* p) {
        *t_slot = t;
        for (std::size_t i = 0; i < state_slots.size(); ++i)
            *state_slots[i] = y[i];
        for (std::size_t i = 0; i < parameter_slots.size(); ++i)
            *parameter_slots[i] = p[i];
        for (std::size_t i = 0; i < derived_slots.size(); ++i)
            *derived_slots[i] = derived_parsers[i]->Eval();
        for (std::size_t i = 0; i < fixed_slots.size(); ++i)
            *fixed_slots[i] = fixed_parsers[i]->Eval();
    }
};

std::optional<MuparserReference> MuparserReference::from_text(const std::string& source, std::string* error) {
    auto text = read_ode_text(source, error);
    if (!text) return std::nullopt;
    auto impl = std::make_unique<Impl>();
    impl->text = std::move(*text);
    try {
        impl->declare_names();
        impl->set_initial_state();
        impl->build_functions();
        impl->build_formulas();
        impl->check_all_compile();
    } catch (const BuildFailure& failure) {
        if (error) *error = failure.message;
        return std::nullopt;
    } catch (const mu::Parser::exception_type& e) {
        if (error) *error = "muparser: " + e.GetMsg() + " in: " + e.GetExpr();
        return std::nullopt;
    }
    return MuparserReference(std::move(impl));
}

std::optional<MuparserReference> MuparserReference::load(const std::string& path, std::string* error) {
    std::ifstream in(path);
    if (!in) {
        if (error) *error = "cannot open " + path;
        return std::nullopt;
    }
    std::ostringstream contents;
    contents << in.rdbuf();
    return from_text(contents.str(), error);
}

MuparserReference::MuparserReference(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MuparserReference::MuparserReference(MuparserReference&&) noexcept = default;
MuparserReference& MuparserReference::operator=(MuparserReference&&) noexcept = default;
MuparserReference::~MuparserReference() = default;

const std::vector<std::string>& MuparserReference::state_names() const {
    return impl_->states;
}
const std::vector<std::string>& MuparserReference::parameter_names() const {
    return impl_->parameters;
}
const std::vector<std::string>& MuparserReference::derived_names() const {
    return impl_->derived;
}
const std::vector<std::string>& MuparserReference::fixed_names() const {
    return impl_->fixed;
}
const std::vector<std::string>& MuparserReference::aux_names() const {
    return impl_->aux;
}
std::vector<double> MuparserReference::default_parameters() const {
    return impl_->default_parameters;
}
std::vector<double> MuparserReference::initial_state() const {
    return impl_->initial_state;
}

std::vector<double> MuparserReference::derived_values(const double* p) {
    impl_->bind(0.0, impl_->initial_state.data(), p);
    std::vector<double> values;
    for (double* slot : impl_->derived_slots)
        values.push_back(*slot);
    return values;
}

void MuparserReference::rhs(double t, const double* y, const double* p, double* dydt) {
    impl_->bind(t, y, p);
    for (std::size_t i = 0; i < impl_->ode_parsers.size(); ++i)
        dydt[i] = impl_->ode_parsers[i]->Eval();
}

void MuparserReference::fixed(double t, const double* y, const double* p, double* out) {
    impl_->bind(t, y, p);
    for (std::size_t i = 0; i < impl_->fixed_slots.size(); ++i)
        out[i] = *impl_->fixed_slots[i];
}

void MuparserReference::aux(double t, const double* y, const double* p, double* out) {
    impl_->bind(t, y, p);
    for (std::size_t i = 0; i < impl_->aux_parsers.size(); ++i)
        out[i] = impl_->aux_parsers[i]->Eval();
}

std::size_t MuparserReference::num_events() const {
    return impl_->event_parsers.size();
}
int MuparserReference::event_direction(std::size_t k) const {
    return impl_->text.events.at(k).direction;
}

void MuparserReference::events(double t, const double* y, const double* p, double* conditions) {
    impl_->bind(t, y, p);
    for (std::size_t k = 0; k < impl_->event_parsers.size(); ++k)
        conditions[k] = impl_->event_parsers[k]->Eval();
}

void MuparserReference::apply_event(std::size_t k, double t, double* y, double* p) {
    impl_->bind(t, y, p);
    std::vector<std::pair<double*, double>> parameter_assignments;
    for (auto& r : impl_->resets.at(k)) {
        const double value = r.value->Eval();
        const auto& states = impl_->state_slots;
        if (std::find(states.begin(), states.end(), r.target) != states.end())
            *r.target = value; // seen by the resets written after it
        else
            parameter_assignments.emplace_back(r.target, value);
    }
    for (const auto& [slot, value] : parameter_assignments)
        *slot = value;
    for (std::size_t i = 0; i < impl_->state_slots.size(); ++i)
        y[i] = *impl_->state_slots[i];
    for (std::size_t i = 0; i < impl_->parameter_slots.size(); ++i)
        p[i] = *impl_->parameter_slots[i];
}

std::optional<double> MuparserReference::evaluate(const std::string& formula, double t, const double* y,
                                                  const double* p, std::string* error) {
    std::string lowered = formula;
    for (char& c : lowered)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    std::string compact;
    for (char c : lowered)
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    try {
        auto parser = impl_->compile(compact, 0);
        impl_->bind(t, y, p);
        return parser->Eval();
    } catch (const BuildFailure& failure) {
        if (error) *error = failure.message;
    } catch (const mu::Parser::exception_type& e) {
        if (error) *error = "muparser: " + e.GetMsg();
    }
    return std::nullopt;
}

} // namespace bif::testsupport
