// Copying a finished batch's outputs into the study's Result: statuses, point rows, and the
// program's scalar columns under the Result's names (engine/study/result.h); basins are labelled
// through the attractor table here, in system order. A big batch (2^18 systems or more, not basins) is
// copied on several threads, each a contiguous part of it.
#pragma once

#include "engine/analysis/attractor_table.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/study/result.h"

#include <string_view>

namespace bif::ensemble {

// The outputs of a batch that store() reads for this study: points where the result keeps them (or
// labels basins from them), the program's scalars where a result column comes from one.
BatchOutputs stored_outputs(const study::ResolvedStudy& study);
// The program's scalar column that the Result's scalar column `name` is copied from; -1 where none is
// (no such column, or one the host fills, as a basin's label).
int program_scalar_column(const study::ResolvedStudy& study, std::string_view name);

class ResultAssembly {
  public:
    // Adds the columns the backends report beyond allocate_result's layout ("lambda_change" for
    // Lyapunov studies: how much the estimate moved over the last tenth of the averaging).
    ResultAssembly(const study::ResolvedStudy& study, study::Result& result);

    void store(const BatchArrays& batch);
    // Notes for RunInfo (an attractor table that overflowed).
    std::vector<std::string> warnings() const;

  private:
    void store_values(const BatchArrays& batch, std::size_t begin, std::size_t end);

    const study::ResolvedStudy& study_;
    study::Result& result_;
    // result scalar column -> program scalar column (-1: filled here, e.g. the basin label)
    std::vector<int> scalar_sources_;
    analysis::AttractorTable attractors_;
};

} // namespace bif::ensemble
