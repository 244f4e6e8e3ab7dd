// The global arrays of one batch of systems, structure-of-arrays: element `column` of system s is at
// [s + column * stride], so that neighbouring systems (GPU threads of a warp) touch neighbouring
// addresses. `stride` is the number of systems in the batch; `system` below is an index into it.
//
//   axis_values      [a]                      the swept values, axis a (StudySpec axis_*)
//   initial_override [i]  (may be null)       a per-system initial state instead of the shared one
//   times            shared, output_count     trajectory output times (not per system)
//   carry            [w]                      words of the per-system state between slices
//   points           [row * point_columns + c]  section rows, trajectory rows, or section states
//   scalars          [c]                      per-system features (see the analysis headers)
//   status, rows_filled                        one each
//   final_state      [i]  (may be null)       the state where the system ended
//
// Plain pointers: the View is passed by value to the entry functions and the CUDA kernel.
#pragma once

#include "bif/config.h"

namespace bif::ensemble {

using index_t = unsigned long long;

template <class Real>
struct View {
    index_t stride = 0;
    const Real* axis_values = nullptr;
    const Real* initial_override = nullptr;
    const Real* times = nullptr;
    unsigned int* carry = nullptr;
    Real* points = nullptr;
    int point_columns = 0;
    int point_rows = 0;
    Real* scalars = nullptr;
    int* status = nullptr;
    int* rows_filled = nullptr;
    Real* final_state = nullptr;

    BIF_HD Real& point(index_t system, int row, int column) const {
        return points[(index_t(row) * index_t(point_columns) + index_t(column)) * stride + system];
    }
    BIF_HD Real& scalar(index_t system, int column) const {
        return scalars[index_t(column) * stride + system];
    }
};

} // namespace bif::ensemble
