// Moving a system's carried state between registers and the structure-of-arrays carry words of the
// View. A carried struct is copied as 32-bit words, word w of system s at carry[s + w * stride]:
// consecutive GPU threads read consecutive addresses, and the struct may hold reals, integers and
// flags alike. Copies go through __builtin_memcpy (no type punning; it compiles to register moves).
#pragma once

#include "bif/kernel_support.h"
#include "bif/study/view.h"

namespace bif::ensemble {

template <class T>
BIF_HD constexpr int words_of() {
    return int((sizeof(T) + 3) / 4);
}

// Loads the struct that starts at carry word `offset`. InPlace: word by word into the struct as a
// loop, for a struct that lives in memory anyway (cold_carry_in_memory, bif/study/common.h); copied
// through registers and unrolled, its ~120 words were half of NVVM's work on a small model's step
// kernel (Keller-Miksis: optimizer 0.61 -> 0.33 s) for code that runs once per call.
template <bool InPlace = false, class T, class Real>
BIF_HD void load_carry(const View<Real>& v, index_t system, int offset, T& value) {
    constexpr int n = words_of<T>();
    // the words' addresses from locals: read through v inside the loop, the view's fields would be
    // loaded again after every store (the compiler cannot tell the carry from the view)
    const unsigned int* word = v.carry + index_t(offset) * v.stride + system;
    const index_t stride = v.stride;
    if constexpr (InPlace) {
        static_assert(sizeof(T) % 4 == 0, "a struct of whole words");
        unsigned char* bytes = reinterpret_cast<unsigned char*>(&value);
        BIF_ROLLED
        for (int w = 0; w < n; ++w) {
            const unsigned int x = word[index_t(w) * stride];
            __builtin_memcpy(bytes + 4 * w, &x, 4);
        }
    } else {
        unsigned int buffer[n];
        for (int w = 0; w < n; ++w)
            buffer[w] = word[index_t(w) * stride];
        __builtin_memcpy(&value, buffer, sizeof(T));
    }
}

template <bool InPlace = false, class T, class Real>
BIF_HD void store_carry(const View<Real>& v, index_t system, int offset, const T& value) {
    constexpr int n = words_of<T>();
    unsigned int* word = v.carry + index_t(offset) * v.stride + system;
    const index_t stride = v.stride;
    if constexpr (InPlace) {
        static_assert(sizeof(T) % 4 == 0, "a struct of whole words");
        const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&value);
        BIF_ROLLED
        for (int w = 0; w < n; ++w) {
            unsigned int x;
            __builtin_memcpy(&x, bytes + 4 * w, 4);
            word[index_t(w) * stride] = x;
        }
    } else {
        unsigned int buffer[n] = {};
        __builtin_memcpy(buffer, &value, sizeof(T));
        for (int w = 0; w < n; ++w)
            word[index_t(w) * stride] = buffer[w];
    }
}

} // namespace bif::ensemble
