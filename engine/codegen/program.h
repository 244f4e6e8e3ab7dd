// A compiled function for the host evaluator: a flat register program over doubles.
//
// Compiled from the same lowered schedule as the generated C++ (lowering.h), so both evaluate the
// same nodes in the same way: expanded integer powers, lazily evaluated if() branches, XPPAUT's
// semantics (engine/symbolic/scalar_ops.h). Running it needs no allocation and no recursion.
#pragma once

#include "engine/symbolic/expr.h"

#include <cstdint>
#include <vector>

namespace bif::codegen::detail {

// Instruction codes: the values of sym::Op (leaves load: Constant from the constant table, State,
// Param and Time from the arguments), then the codes below.
enum class Code : std::uint8_t {
    Move = 64,  // r[dst] = r[a]
    Jump,       // continue at a
    JumpIfZero, // if r[b] == 0 continue at a
    Square,
    Cube,
    Fourth,
    Reciprocal,
    ReciprocalSquare,
    ReciprocalSqrt,
};

struct Instruction {
    std::uint8_t code = 0; // a sym::Op or a Code
    std::uint32_t dst = 0;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
};

struct Program {
    std::vector<Instruction> code;
    std::vector<double> constants;
    std::vector<sym::Table> tables;     // the tables the program looks up (Instruction::b of a lookup)
    std::vector<std::uint32_t> results; // the register holding each root's value
    std::uint32_t registers = 0;

    // Runs the program with `r` as its register file (at least `registers` long).
    void run(double t, const double* y, const double* p, double* r) const;
};

Program compile_program(const sym::ExprPool& pool, const std::vector<sym::NodeId>& roots);

} // namespace bif::codegen::detail
