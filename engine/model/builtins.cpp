#include "engine/model/builtins.h"

namespace bif::model::detail {

namespace {

using sym::Op;

constexpr BuiltinFunction kBuiltins[] = {
    {"sin", Op::Sin, 1},   {"cos", Op::Cos, 1},     {"tan", Op::Tan, 1},     {"asin", Op::Asin, 1},
    {"acos", Op::Acos, 1}, {"atan", Op::Atan, 1},   {"atan2", Op::Atan2, 2}, {"sinh", Op::Sinh, 1},
    {"cosh", Op::Cosh, 1}, {"tanh", Op::Tanh, 1},   {"exp", Op::Exp, 1},     {"ln", Op::Log, 1},
    {"log", Op::Log, 1},   {"log10", Op::Log10, 1}, {"sqrt", Op::Sqrt, 1},   {"abs", Op::Abs, 1},
    {"heav", Op::Heav, 1}, {"sign", Op::Sign, 1},   {"flr", Op::Floor, 1},   {"mod", Op::Mod, 2},
    {"min", Op::Min, 2},   {"max", Op::Max, 2},     {"not", Op::Not, 1},     {"ceil", Op::Ceil, 1},
    {"pow", Op::Pow, 2},   {"erf", Op::Erf, 1},     {"erfc", Op::Erfc, 1},
};

constexpr RefusedFunction kRefused[] = {
    {"delay", "E-delay", "delay equations"},     {"ran", "E-random", "random numbers"},
    {"normal", "E-random", "random numbers"},    {"besselj", "E-bessel", "Bessel functions"},
    {"bessely", "E-bessel", "Bessel functions"}, {"besseli", "E-bessel", "Bessel functions"},
    {"besselk", "E-bessel", "Bessel functions"}, {"shift", "E-shift", "shift()"},
    {"del_shft", "E-shift", "del_shft()"},       {"lgamma", "E-unsupported-function", "lgamma()"},
    {"sum", "E-sum", "sum(...)of(...)"},
};

constexpr const char* kKeywords[] = {"t", "pi", "if", "then", "else"};

} // namespace

const BuiltinFunction* find_builtin(std::string_view name) {
    for (const auto& b : kBuiltins)
        if (name == b.name) return &b;
    return nullptr;
}

const RefusedFunction* find_refused_function(std::string_view name) {
    for (const auto& r : kRefused)
        if (name == r.name) return &r;
    return nullptr;
}

bool is_reserved_name(std::string_view name) {
    for (const char* k : kKeywords)
        if (name == k) return true;
    return find_builtin(name) != nullptr || find_refused_function(name) != nullptr;
}

} // namespace bif::model::detail
