#include "engine/cpu/evaluator_program_impl.h"

namespace bif::cpu::detail {
template std::unique_ptr<StudyProgram>
make_evaluator_for<ensemble::methods::Iteration>(std::shared_ptr<const codegen::HostModel>,
                                                 const ensemble::StudySpec&);
} // namespace bif::cpu::detail
