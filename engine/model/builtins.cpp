#include "engine/model/builtins.h"

namespace bif::model::detail {

namespace {

using sym::Op;

constexpr BuiltinFunction kBuiltins[] = {
    {"sin", Op::Sin, 1},       {"cos", Op::Cos, 1},         {"tan", Op::Tan, 1},
    {"asin", Op::Asin, 1},     {"acos", Op::Acos, 1},       {"atan", Op::Atan, 1},
    {"atan2", Op::Atan2, 2},   {"sinh", Op::Sinh, 1},       {"cosh", Op::Cosh, 1},
    {"tanh", Op::Tanh, 1},     {"exp", Op::Exp, 1},         {"ln", Op::Log, 1},
    {"log", Op::Log, 1},       {"log10", Op::Log10, 1},     {"sqrt", Op::Sqrt, 1},
    {"abs", Op::Abs, 1},       {"heav", Op::Heav, 1},       {"sign", Op::Sign, 1},
    {"flr", Op::Floor, 1},     {"mod", Op::Mod, 2},         {"min", Op::Min, 2},
    {"max", Op::Max, 2},       {"not", Op::Not, 1},         {"ceil", Op::Ceil, 1},
    {"pow", Op::Pow, 2},       {"erf", Op::Erf, 1},         {"erfc", Op::Erfc, 1},
    {"lgamma", Op::LGamma, 1}, {"besselj", Op::BesselJ, 2}, {"bessely", Op::BesselY, 2},
};

// besseli hangs XPPAUT 6.11 and besselk is no function there (measured); refused all the same.
constexpr RefusedFunction kRefused[] = {
    {"delay", "E-delay", "delay equations"},     {"ran", "E-random", "random numbers"},
    {"normal", "E-random", "random numbers"},    {"besseli", "E-bessel", "Bessel functions"},
    {"besselk", "E-bessel", "Bessel functions"}, {"del_shft", "E-shift", "del_shft()"},
};

// sum(lo,hi)of(...) and shift(name,k) are read by the parser and the resolver, not called.
constexpr const char* kKeywords[] = {"t", "pi", "if", "then", "else", "sum", "shift"};

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
