// What colouring a map needs to know of its cells when the cells stay on the GPU (issue 11): the range
// of the values that get a colour of their own, the categories among them and the statuses present.
// Written by bif_map_summary (render_kernels.cuh), read on the host by ui/plot/map_colouring; the
// same rule as MapColouring::include, cell for cell:
//   a cell's status is noted (no_status_cell, "no system yet", is not);
//   its value counts when the status is Ok or StoppedByModel and the value is finite: the range
//   grows to it and category clamp(round(v), -1, 1023) is present.
// The range is kept as order keys of floats (unsigned integers that sort as the floats do), so that
// atomicMin/atomicMax on the keys give the smallest and largest value.
#pragma once

#include "bif/config.h"
#include "bif/kernel_support.h"

namespace bif::render {

inline constexpr int map_summary_categories = 1025;   // values -1 .. 1023
inline constexpr unsigned char no_status_cell = 0xff; // ui/render/map_layer.h's no_system

struct MapSummary {
    unsigned lo_key = 0xffffffffu; // smallest counted value's order key; 0xffffffff: none counted
    unsigned hi_key = 0u;          // largest
    unsigned statuses[8] = {};     // bit s: some cell has status s
    unsigned categories[(map_summary_categories + 31) / 32] = {}; // bit v + 1: value v is present
};

// An order key of a finite float: keys compare as the floats do.
BIF_HD inline unsigned float_order_key(float v) {
    const unsigned bits = bits_of(v);
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

BIF_HD inline float float_of_order_key(unsigned key) {
    const unsigned bits = (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float v;
    __builtin_memcpy(&v, &bits, sizeof v);
    return v;
#endif
}

// Whether a status's cells give their value a colour (study::SystemStatus Ok = 1, StoppedByModel = 2).
BIF_HD inline bool status_counts_value(unsigned char status) {
    return status == 1 || status == 2;
}

// The category a counted value stands for: clamp(lround(v), -1, 1023), as MapColouring has it.
BIF_HD inline int summary_category(float v) {
    if (!(v > -0.5f)) return -1;
    if (v >= 1022.5f) return 1023;
    return static_cast<int>(static_cast<double>(v) + 0.5); // exact in double; v + 0.5 > 0 truncates as floor
}

} // namespace bif::render
