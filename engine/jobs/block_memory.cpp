#include "engine/jobs/block_memory.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace bif::jobs {

void keep_block_memory() {
    static std::once_flag once;
    std::call_once(once, [] {
        const char* knob = std::getenv("BIF_KEEP_BLOCK_MEMORY");
        if (knob && std::strcmp(knob, "0") == 0) return;
#if defined(__GLIBC__)
        mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    });
}

} // namespace bif::jobs
