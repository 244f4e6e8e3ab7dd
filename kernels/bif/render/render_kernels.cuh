// The kernels that put results into ui/render's layers straight from device memory (the CUDA path of
// issue 11): engine/cuda/render_kernels compiles this file once through NVRTC. Every kernel is
// extern "C" and walks its input with a grid-stride loop, so any grid size covers any count.
//   bif_density_accumulate_{f64,f32}  points (x[k], y[k]) added to a width*height uint32 histogram,
//                                     binned by bif/render/binning.h (the host path's rule);
//   bif_density_most                  the largest count of a histogram, atomicMax'ed into *most
//                                     (which the caller zeroes first);
//   bif_map_cells_{f64,f32}           a map's values as float and its status bytes, cell for cell
//                                     (ui/render/map_layer.h's two buffers).
#pragma once

#include "bif/config.h"
#include "bif/render/binning.h"

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

} // namespace bif::render

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
