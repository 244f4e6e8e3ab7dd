#include "engine/model/ast.h"

namespace bif::model::detail {

const char* op_spelling(AstOp op) {
    switch (op) {
    case AstOp::None:
        return "";
    case AstOp::Neg:
    case AstOp::Sub:
        return "-";
    case AstOp::Add:
        return "+";
    case AstOp::Mul:
        return "*";
    case AstOp::Div:
        return "/";
    case AstOp::Pow:
        return "^";
    case AstOp::Lt:
        return "<";
    case AstOp::Le:
        return "<=";
    case AstOp::Gt:
        return ">";
    case AstOp::Ge:
        return ">=";
    case AstOp::Eq:
        return "==";
    case AstOp::Ne:
        return "!=";
    case AstOp::And:
        return "&";
    case AstOp::Or:
        return "|";
    }
    return "";
}

} // namespace bif::model::detail
