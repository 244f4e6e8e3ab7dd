#include "engine/codegen/program.h"

#include "engine/codegen/lowering.h"
#include "engine/symbolic/scalar_ops.h"

#include <cmath>
#include <unordered_map>

namespace bif::codegen::detail {

using sym::NodeId;
using sym::Op;

namespace {

constexpr std::uint8_t code_of(Op op) {
    return static_cast<std::uint8_t>(op);
}
constexpr std::uint8_t code_of(Code c) {
    return static_cast<std::uint8_t>(c);
}

class Compiler {
  public:
    explicit Compiler(const sym::ExprPool& pool) : pool_(pool) {}

    Program compile(const std::vector<NodeId>& roots) {
        const Block block = lower(pool_, roots);
        emit_block(block);
        for (NodeId r : roots)
            program_.results.push_back(register_of(r));
        // The leaf loads run first; jump targets shift by their count.
        const auto shift = static_cast<std::uint32_t>(prologue_.size());
        for (Instruction& in : body_) {
            if (in.code == code_of(Code::Jump) || in.code == code_of(Code::JumpIfZero)) in.a += shift;
        }
        program_.code = std::move(prologue_);
        program_.code.insert(program_.code.end(), body_.begin(), body_.end());
        program_.registers = next_register_;
        return std::move(program_);
    }

  private:
    std::uint32_t fresh() { return next_register_++; }

    std::uint32_t register_of(NodeId id) {
        if (auto it = registers_.find(id); it != registers_.end()) return it->second;
        // Only leaves and constants are reached here: steps are bound before they are read.
        const sym::Node& n = pool_.node(id);
        Instruction load;
        load.code = code_of(n.op);
        load.dst = fresh();
        if (n.op == Op::Constant) {
            load.a = static_cast<std::uint32_t>(program_.constants.size());
            program_.constants.push_back(n.value);
        } else {
            load.a = n.index;
        }
        prologue_.push_back(load);
        registers_.emplace(id, load.dst);
        return load.dst;
    }

    void emit_block(const Block& block) {
        for (const Step& step : block.steps) {
            const std::uint32_t dst = step.branches.empty() ? emit_operation(step.node) : emit_if(step);
            registers_[step.node] = dst;
            bound_.push_back(step.node);
        }
    }

    // A branch's steps are bound only inside the branch (leaves stay: the prologue loads them).
    void emit_branch(const Block& block, std::uint32_t dst) {
        const std::size_t mark = bound_.size();
        emit_block(block);
        body_.push_back({code_of(Code::Move), dst, register_of(block.result), 0});
        while (bound_.size() > mark) {
            registers_.erase(bound_.back());
            bound_.pop_back();
        }
    }

    std::uint32_t emit_if(const Step& step) {
        const sym::Node& n = pool_.node(step.node);
        const std::uint32_t dst = fresh();
        const std::uint32_t condition = register_of(n.args[0]);
        const std::size_t jump_to_else = body_.size();
        body_.push_back({code_of(Code::JumpIfZero), 0, 0, condition});
        emit_branch(step.branches[0], dst);
        const std::size_t jump_to_end = body_.size();
        body_.push_back({code_of(Code::Jump), 0, 0, 0});
        body_[jump_to_else].a = static_cast<std::uint32_t>(body_.size());
        emit_branch(step.branches[1], dst);
        body_[jump_to_end].a = static_cast<std::uint32_t>(body_.size());
        return dst;
    }

    std::uint32_t emit_operation(NodeId id) {
        const sym::Node& n = pool_.node(id);
        Instruction in;
        in.code = code_of(n.op);
        in.a = register_of(n.args[0]);
        if (sym::arity(n.op) == 2) in.b = register_of(n.args[1]);
        if (n.op == Op::Pow) {
            switch (pow_form(pool_, n)) {
            case PowForm::Square:
                in.code = code_of(Code::Square);
                break;
            case PowForm::Cube:
                in.code = code_of(Code::Cube);
                break;
            case PowForm::Fourth:
                in.code = code_of(Code::Fourth);
                break;
            case PowForm::Reciprocal:
                in.code = code_of(Code::Reciprocal);
                break;
            case PowForm::ReciprocalSquare:
                in.code = code_of(Code::ReciprocalSquare);
                break;
            case PowForm::Sqrt:
                in.code = code_of(Op::Sqrt);
                break;
            case PowForm::ReciprocalSqrt:
                in.code = code_of(Code::ReciprocalSqrt);
                break;
            case PowForm::General:
                break;
            }
        }
        if (n.op == Op::Table || n.op == Op::TableSlope) in.b = table_slot(n.index);
        in.dst = fresh();
        body_.push_back(in);
        return in.dst;
    }

    std::uint32_t table_slot(std::uint32_t pool_table) {
        const sym::Table& t = pool_.table(pool_table);
        for (std::size_t i = 0; i < program_.tables.size(); ++i)
            if (program_.tables[i] == t) return static_cast<std::uint32_t>(i);
        program_.tables.push_back(t);
        return static_cast<std::uint32_t>(program_.tables.size() - 1);
    }

    const sym::ExprPool& pool_;
    Program program_;
    std::vector<Instruction> prologue_;
    std::vector<Instruction> body_;
    std::unordered_map<NodeId, std::uint32_t> registers_;
    std::vector<NodeId> bound_; // steps bound so far, innermost last
    std::uint32_t next_register_ = 0;
};

} // namespace

Program compile_program(const sym::ExprPool& pool, const std::vector<NodeId>& roots) {
    return Compiler(pool).compile(roots);
}

void Program::run(double t, const double* y, const double* p, double* r) const {
    const Instruction* code_begin = code.data();
    const std::size_t size = code.size();
    std::size_t pc = 0;
    while (pc < size) {
        const Instruction& in = code_begin[pc++];
        switch (in.code) {
        case code_of(Op::Constant):
            r[in.dst] = constants[in.a];
            break;
        case code_of(Op::State):
            r[in.dst] = y[in.a];
            break;
        case code_of(Op::Param):
            r[in.dst] = p[in.a];
            break;
        case code_of(Op::Time):
            r[in.dst] = t;
            break;
        case code_of(Code::Move):
            r[in.dst] = r[in.a];
            break;
        case code_of(Code::Jump):
            pc = in.a;
            break;
        case code_of(Code::JumpIfZero):
            if (r[in.b] == 0.0) pc = in.a;
            break;
        case code_of(Op::Add):
            r[in.dst] = r[in.a] + r[in.b];
            break;
        case code_of(Op::Sub):
            r[in.dst] = r[in.a] - r[in.b];
            break;
        case code_of(Op::Mul):
            r[in.dst] = r[in.a] * r[in.b];
            break;
        case code_of(Op::Div):
            r[in.dst] = r[in.a] / r[in.b];
            break;
        case code_of(Op::Neg):
            r[in.dst] = -r[in.a];
            break;
        // the same association as the generated C++ (cpp_writer.cpp)
        case code_of(Code::Square):
            r[in.dst] = r[in.a] * r[in.a];
            break;
        case code_of(Code::Cube):
            r[in.dst] = r[in.a] * r[in.a] * r[in.a];
            break;
        case code_of(Code::Fourth):
            r[in.dst] = (r[in.a] * r[in.a]) * (r[in.a] * r[in.a]);
            break;
        case code_of(Code::Reciprocal):
            r[in.dst] = 1.0 / r[in.a];
            break;
        case code_of(Code::ReciprocalSquare):
            r[in.dst] = 1.0 / (r[in.a] * r[in.a]);
            break;
        case code_of(Code::ReciprocalSqrt):
            r[in.dst] = 1.0 / std::sqrt(r[in.a]);
            break;
        case code_of(Op::Table):
            r[in.dst] = sym::table_value(tables[in.b], r[in.a]);
            break;
        case code_of(Op::TableSlope):
            r[in.dst] = sym::table_slope(tables[in.b], r[in.a]);
            break;
        default:
            r[in.dst] = sym::apply_op(static_cast<Op>(in.code), r[in.a], r[in.b]);
            break;
        }
    }
}

} // namespace bif::codegen::detail
