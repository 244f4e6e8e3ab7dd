// The kernels that put results into ui/render's layers straight from device memory (the CUDA path of
// issue 11): engine/cuda/render_kernels compiles this file once through NVRTC. Every kernel is
// extern "C" and walks its input with a grid-stride loop, so any grid size covers any count.
//   bif_density_accumulate_{f64,f32}  points (x[k], y[k]) added to a width*height uint32 histogram,
//                                     binned by bif/render/binning.h (the host path's rule);
//   bif_density_most                  the largest count of a histogram, atomicMax'ed into *most
//                                     (which the caller zeroes first);
//   bif_map_cells_{f64,f32}           a map's values as float and its status bytes, cell for cell
//                                     (ui/render/map_layer.h's two buffers);
//   bif_map_status_cells              the same cells' statuses as their values (the status view);
//   bif_map_scatter_{f64,f32}         one scalar column of a study batch's device arrays and its int
//                                     statuses into those cells, from the batch's first system on
//                                     (a map whose results stay on the GPU, engine/cuda/device_map.h);
//   bif_map_summary                   the range, categories and statuses of such cells (map_summary.h);
//   bif_points_scatter_{f64,f32}      one recorded quantity of a diagram batch's section points into
//                                     kept point columns, a system's rows at system * rows (rows it
//                                     did not fill NaN), with its swept value as x and its row count
//                                     (a diagram whose points stay on the GPU, engine/cuda/device_points.h);
//   bif_points_range                  the smallest and largest finite value of such a column.
#pragma once

#include "bif/config.h"
#include "bif/render/binning.h"
#include "bif/render/map_summary.h"

namespace bif::render {

template <class Real>
__device__ void accumulate_density(const Real* x, const Real* y, unsigned long long count, DensityBinning b,
                                   unsigned* counts) {
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        const long long pixel = density_pixel(b, static_cast<double>(x[k]), static_cast<double>(y[k]));
        if (pixel >= 0) atomicAdd(counts + pixel, 1u);
    }
}

template <class Real>
__device__ void map_cells(const Real* values, const unsigned char* statuses, unsigned long long count,
                          float* out_values, unsigned char* out_statuses) {
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        out_values[k] = static_cast<float>(values[k]);
        out_statuses[k] = statuses[k];
    }
}

// The status view: each cell's value is its status byte, as the host path's sample shows it.
__device__ inline void map_status_cells(const unsigned char* statuses, unsigned long long count,
                                        float* out_values, unsigned char* out_statuses) {
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        out_values[k] = static_cast<float>(statuses[k]);
        out_statuses[k] = statuses[k];
    }
}

// Thread k writes point k of the batch's count * rows: row r of system i, at i * rows + r. `axis`,
// `out_x`, `out_y` and `out_rows` start at the batch's first system; out_x and out_rows may be null
// (written once, with the first quantity).
template <class Real>
__device__ void points_scatter(const double* axis, const Real* points, const int* rows_filled,
                               unsigned long long count, int rows, int columns, int column, double* out_x,
                               double* out_y, int* out_rows) {
    const unsigned long long total = count * static_cast<unsigned long long>(rows);
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    const double nan = __longlong_as_double(0x7ff8000000000000ll);
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < total; k += stride) {
        const unsigned long long i = k / rows;
        const int r = static_cast<int>(k - i * rows);
        const int filled = min(max(rows_filled[i], 0), rows);
        const bool in = r < filled;
        const Real v = points[(static_cast<unsigned long long>(r) * columns + column) * count + i];
        out_y[k] = in ? static_cast<double>(v) : nan;
        if (out_x) out_x[k] = in ? axis[i] : nan;
        if (out_rows && r == 0) out_rows[i] = filled;
    }
}

// Doubles ordered as unsigned integers (the sign bit flipped for positives, every bit for negatives),
// so that atomicMin/atomicMax find the smallest and largest.
__device__ inline unsigned long long double_order_key(double v) {
    const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(v));
    return (bits >> 63) ? ~bits : bits | 0x8000000000000000ull;
}

// values may be null (a map coloured by status alone): its cells get NaN.
template <class Real>
__device__ void map_scatter(const Real* values, const int* statuses, unsigned long long count,
                            float* out_values, unsigned char* out_statuses) {
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        out_values[k] = values ? static_cast<float>(values[k]) : __uint_as_float(0x7fc00000u);
        out_statuses[k] = static_cast<unsigned char>(statuses[k]);
    }
}

} // namespace bif::render

extern "C" __global__ void bif_map_scatter_f64(const double* values, const int* statuses,
                                               unsigned long long count, float* out_values,
                                               unsigned char* out_statuses) {
    bif::render::map_scatter(values, statuses, count, out_values, out_statuses);
}

extern "C" __global__ void bif_map_scatter_f32(const float* values, const int* statuses,
                                               unsigned long long count, float* out_values,
                                               unsigned char* out_statuses) {
    bif::render::map_scatter(values, statuses, count, out_values, out_statuses);
}

// Each thread summarises its cells in registers (the statuses and categories it saw as bits), then
// ORs and min/maxes them into *summary, which the caller initialised (MapSummary{}). Categories past
// the first 32 are rare (periods above 30): those go to memory one atomic each.
extern "C" __global__ void bif_map_summary(const float* values, const unsigned char* statuses,
                                           unsigned long long count, bif::render::MapSummary* summary) {
    using namespace bif::render;
    unsigned lo = 0xffffffffu, hi = 0u, seen_statuses[8] = {}, low_categories = 0u;
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        const unsigned char status = statuses[k];
        if (status == no_status_cell) continue;
        seen_statuses[status >> 5] |= 1u << (status & 31u);
        const float v = values[k];
        if (!status_counts_value(status) || !isfinite(v)) continue;
        const unsigned key = float_order_key(v);
        lo = min(lo, key);
        hi = max(hi, key);
        const int bit = summary_category(v) + 1;
        if (bit < 32)
            low_categories |= 1u << bit;
        else
            atomicOr(&summary->categories[bit >> 5], 1u << (bit & 31));
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        lo = min(lo, __shfl_down_sync(0xffffffffu, lo, offset));
        hi = max(hi, __shfl_down_sync(0xffffffffu, hi, offset));
        low_categories |= __shfl_down_sync(0xffffffffu, low_categories, offset);
        for (int w = 0; w < 8; ++w)
            seen_statuses[w] |= __shfl_down_sync(0xffffffffu, seen_statuses[w], offset);
    }
    if ((threadIdx.x & 31u) != 0) return;
    if (lo != 0xffffffffu) atomicMin(&summary->lo_key, lo);
    if (hi != 0u) atomicMax(&summary->hi_key, hi);
    if (low_categories) atomicOr(&summary->categories[0], low_categories);
    for (int w = 0; w < 8; ++w)
        if (seen_statuses[w]) atomicOr(&summary->statuses[w], seen_statuses[w]);
}

extern "C" __global__ void bif_density_accumulate_f64(const double* x, const double* y,
                                                      unsigned long long count, bif::render::DensityBinning b,
                                                      unsigned* counts) {
    bif::render::accumulate_density(x, y, count, b, counts);
}

extern "C" __global__ void bif_density_accumulate_f32(const float* x, const float* y,
                                                      unsigned long long count, bif::render::DensityBinning b,
                                                      unsigned* counts) {
    bif::render::accumulate_density(x, y, count, b, counts);
}

extern "C" __global__ void bif_density_most(const unsigned* counts, unsigned long long cells,
                                            unsigned* most) {
    unsigned best = 0;
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < cells; k += stride)
        best = max(best, counts[k]);
    // One atomic per warp: the lanes' maximum by halving shuffles.
    for (int offset = 16; offset > 0; offset /= 2)
        best = max(best, __shfl_down_sync(0xffffffffu, best, offset));
    if ((threadIdx.x & 31u) == 0 && best > 0) atomicMax(most, best);
}

extern "C" __global__ void bif_map_cells_f64(const double* values, const unsigned char* statuses,
                                             unsigned long long count, float* out_values,
                                             unsigned char* out_statuses) {
    bif::render::map_cells(values, statuses, count, out_values, out_statuses);
}

extern "C" __global__ void bif_map_cells_f32(const float* values, const unsigned char* statuses,
                                             unsigned long long count, float* out_values,
                                             unsigned char* out_statuses) {
    bif::render::map_cells(values, statuses, count, out_values, out_statuses);
}

extern "C" __global__ void bif_map_status_cells(const unsigned char* statuses, unsigned long long count,
                                                float* out_values, unsigned char* out_statuses) {
    bif::render::map_status_cells(statuses, count, out_values, out_statuses);
}

extern "C" __global__ void bif_points_scatter_f64(const double* axis, const double* points,
                                                  const int* rows_filled, unsigned long long count, int rows,
                                                  int columns, int column, double* out_x, double* out_y,
                                                  int* out_rows) {
    bif::render::points_scatter(axis, points, rows_filled, count, rows, columns, column, out_x, out_y,
                                out_rows);
}

extern "C" __global__ void bif_points_scatter_f32(const double* axis, const float* points,
                                                  const int* rows_filled, unsigned long long count, int rows,
                                                  int columns, int column, double* out_x, double* out_y,
                                                  int* out_rows) {
    bif::render::points_scatter(axis, points, rows_filled, count, rows, columns, column, out_x, out_y,
                                out_rows);
}

// keys[0] and keys[1]: the order keys of the smallest and largest finite value, atomicMin'ed and
// atomicMax'ed into what the caller set (all ones and zero); unchanged when no value is finite.
extern "C" __global__ void bif_points_range(const double* values, unsigned long long count,
                                            unsigned long long* keys) {
    unsigned long long lo = ~0ull, hi = 0ull;
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        const double v = values[k];
        if (!isfinite(v)) continue;
        const unsigned long long key = bif::render::double_order_key(v);
        lo = min(lo, key);
        hi = max(hi, key);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        lo = min(lo, __shfl_down_sync(0xffffffffu, lo, offset));
        hi = max(hi, __shfl_down_sync(0xffffffffu, hi, offset));
    }
    if ((threadIdx.x & 31u) != 0) return;
    if (lo != ~0ull) atomicMin(keys, lo);
    if (hi != 0ull) atomicMax(keys + 1, hi);
}
