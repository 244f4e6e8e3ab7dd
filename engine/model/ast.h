// The syntax tree of one formula, stored in an arena (children are indices), so that a deep tree
// is never destroyed by recursion. Nodes remember their source position and the token they came
// from; the precedence check compares two readings of the same tokens by those token indices.
#pragma once

#include "engine/model/model.h"

#include <string>
#include <vector>

namespace bif::model::detail {

// Sum is XPPAUT's sum(lo,hi)of(body) (children: lo, hi, body); SumIndex is its index i' inside body.
enum class AstKind { Number, Name, Unary, Binary, Call, If, Sum, SumIndex };

enum class AstOp { None, Neg, Add, Sub, Mul, Div, Pow, Lt, Le, Gt, Ge, Eq, Ne, And, Or };

struct AstNode {
    AstKind kind = AstKind::Number;
    AstOp op = AstOp::None;
    double value = 0.0;        // Number
    std::string text;          // Number and Name: as written; Call: the function name as written
    SourcePos where;           // the operator, name or number
    std::size_t token = 0;     // index of that token in the formula
    int depth = 1;             // height of the subtree: later stages walk trees recursively
    std::vector<int> children; // Unary: 1, Binary: 2, Call: the arguments, If: condition, then, else,
                               // Sum: lo, hi, body
};

struct Ast {
    std::vector<AstNode> nodes;
    int root = -1;

    const AstNode& at(int i) const { return nodes[static_cast<std::size_t>(i)]; }
    int add(AstNode n) {
        nodes.push_back(std::move(n));
        return static_cast<int>(nodes.size()) - 1;
    }
};

const char* op_spelling(AstOp op);

} // namespace bif::model::detail
