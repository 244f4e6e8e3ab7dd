#include "engine/codegen/cpp_writer.h"

#include "engine/codegen/concat.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace bif::codegen::detail {

using sym::NodeId;
using sym::Op;

std::string real_literal(double value, Precision precision) {
    const bool is_float = precision == Precision::Float;
    const double v = is_float ? static_cast<double>(static_cast<float>(value)) : value;
    if (std::isnan(v)) return "(real(0) / real(0))";
    if (std::isinf(v)) return v > 0 ? "(real(1) / real(0))" : "(-(real(1) / real(0)))";
    // The shortest %g text that reads back as the same value: 9 significant digits always
    // round-trip a float, 17 a double.
    char buf[40];
    for (int digits = is_float ? 6 : 15; digits <= (is_float ? 9 : 17); ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        const bool same =
            is_float ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v;
        if (same) break;
    }
    std::string text = buf;
    if (text.find_first_of(".e") == std::string::npos) text += ".0"; // never an integer literal
    if (is_float) text += 'f';
    if (text.front() == '-') text = concat("(", text, ")");
    return text;
}

std::size_t CppWriter::write_block(const Block& block, const std::string& indent, std::string& out,
                                   const std::function<void(sym::NodeId)>& after_step) {
    const std::size_t mark = scope_.size();
    for (const Step& step : block.steps) {
        if (!step.named) continue;
        const bool statements = !step.branches.empty() &&
                                (needs_statements(step.branches[0]) || needs_statements(step.branches[1]));
        const std::string name = fresh_name();
        if (statements) {
            const sym::Node& n = pool_.node(step.node);
            out += indent + "real " + name + ";\n";
            out += indent + "if " + condition(n.args[0]) + " {\n";
            for (int k = 0; k < 2; ++k) {
                if (k == 1) out += indent + "} else {\n";
                const std::string inner = indent + "    ";
                const std::size_t inner_mark = write_block(step.branches[k], inner, out);
                out += inner + name + " = " + value(step.branches[k].result) + ";\n";
                end_scope(inner_mark);
            }
            out += indent + "}\n";
        } else {
            out += indent + "const real " + name + " = " + operation(step.node) + ";\n";
        }
        names_[step.node] = name;
        scope_.push_back(step.node);
        if (after_step) after_step(step.node);
    }
    return mark;
}

void CppWriter::end_scope(std::size_t mark) {
    while (scope_.size() > mark) {
        names_.erase(scope_.back());
        scope_.pop_back();
    }
}

std::string CppWriter::bind(const std::string& expression, const std::string& indent, std::string& out) {
    const std::string name = fresh_name();
    out += indent + "const real " + name + " = " + expression + ";\n";
    return name;
}

std::string CppWriter::value(NodeId id) {
    if (auto it = names_.find(id); it != names_.end()) return it->second;
    const sym::Node& n = pool_.node(id);
    switch (n.op) {
    case Op::Constant:
        return literal(n.value);
    case Op::State:
        used_states_ = true;
        return concat("y[", std::to_string(n.index), "]");
    case Op::Param:
        used_params_ = true;
        return concat("p[", std::to_string(n.index), "]");
    case Op::Time:
        used_time_ = true;
        return "t";
    default:
        return operation(id);
    }
}

// A C++ bool expression that is true exactly when the node's value is nonzero.
std::string CppWriter::condition(NodeId id) {
    const sym::Node& n = pool_.node(id);
    if (names_.count(id) == 0) {
        auto compare = [&](const char* op) {
            return concat("(", value(n.args[0]), " ", op, " ", value(n.args[1]), ")");
        };
        switch (n.op) {
        case Op::Lt:
            return compare("<");
        case Op::Le:
            return compare("<=");
        case Op::Gt:
            return compare(">");
        case Op::Ge:
            return compare(">=");
        case Op::Eq:
            return compare("==");
        case Op::Ne:
            return compare("!=");
        case Op::And:
            return concat("(", condition(n.args[0]), " && ", condition(n.args[1]), ")");
        case Op::Or:
            return concat("(", condition(n.args[0]), " || ", condition(n.args[1]), ")");
        case Op::Not:
            return concat("(!", condition(n.args[0]), ")");
        default:
            break;
        }
    }
    return concat("(", value(id), " != ", literal(0.0), ")");
}

std::string CppWriter::power(const sym::Node& n) {
    const std::string x = value(n.args[0]);
    switch (pow_form(pool_, n)) {
    case PowForm::Square:
        return concat("(", x, " * ", x, ")");
    case PowForm::Cube:
        return concat("(", x, " * ", x, " * ", x, ")");
    case PowForm::Fourth:
        return concat("((", x, " * ", x, ") * (", x, " * ", x, "))");
    case PowForm::Reciprocal:
        return concat("(", literal(1.0), " / ", x, ")");
    case PowForm::ReciprocalSquare:
        return concat("(", literal(1.0), " / (", x, " * ", x, "))");
    case PowForm::Sqrt:
        return concat("bif::m::sqrt(", x, ")");
    case PowForm::ReciprocalSqrt:
        return concat("(", literal(1.0), " / bif::m::sqrt(", x, "))");
    case PowForm::General:
        break;
    }
    return concat("bif::m::pow(", x, ", ", value(n.args[1]), ")");
}

// The node's own operation applied to the values of its arguments.
std::string CppWriter::operation(NodeId id) {
    const sym::Node& n = pool_.node(id);
    auto infix = [&](const char* op) {
        return concat("(", value(n.args[0]), " ", op, " ", value(n.args[1]), ")");
    };
    auto call1 = [&](const char* f) { return concat("bif::m::", f, "(", value(n.args[0]), ")"); };
    auto call2 = [&](const char* f) {
        return concat("bif::m::", f, "(", value(n.args[0]), ", ", value(n.args[1]), ")");
    };
    switch (n.op) {
    case Op::Neg:
        return concat("(-", value(n.args[0]), ")");
    case Op::Add:
        return infix("+");
    case Op::Sub:
        return infix("-");
    case Op::Mul:
        return infix("*");
    case Op::Div:
        return infix("/");
    case Op::Pow:
        return power(n);
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
    case Op::Not:
        return concat("bif::m::truth<real>", condition(id));
    case Op::IfThenElse:
        return concat("(", condition(n.args[0]), " ? ", value(n.args[1]), " : ", value(n.args[2]), ")");
    case Op::Sin:
        return call1("sin");
    case Op::Cos:
        return call1("cos");
    case Op::Tan:
        return call1("tan");
    case Op::Asin:
        return call1("asin");
    case Op::Acos:
        return call1("acos");
    case Op::Atan:
        return call1("atan");
    case Op::Sinh:
        return call1("sinh");
    case Op::Cosh:
        return call1("cosh");
    case Op::Tanh:
        return call1("tanh");
    case Op::Exp:
        return call1("exp");
    case Op::Log:
        return call1("log");
    case Op::Log10:
        return call1("log10");
    case Op::Sqrt:
        return call1("sqrt");
    case Op::Abs:
        return call1("fabs");
    case Op::Heav:
        return call1("heav");
    case Op::Sign:
        return call1("sign");
    case Op::Floor:
        return call1("floor");
    case Op::Ceil:
        return call1("ceil");
    case Op::Erf:
        return call1("erf");
    case Op::Erfc:
        return call1("erfc");
    case Op::LGamma:
        return call1("lgamma");
    case Op::BesselJ:
        return call2("besselj");
    case Op::BesselY:
        return call2("bessely");
    case Op::Table:
        return concat("table_", std::to_string(n.index), "(", value(n.args[0]), ")");
    case Op::TableSlope:
        return concat("table_slope_", std::to_string(n.index), "(", value(n.args[0]), ")");
    case Op::Atan2:
        return call2("atan2");
    case Op::Mod:
        return call2("mod");
    case Op::Min:
        return call2("fmin");
    case Op::Max:
        return call2("fmax");
    case Op::Constant:
    case Op::State:
    case Op::Param:
    case Op::Time:
        break;
    }
    return value(id);
}

} // namespace bif::codegen::detail
