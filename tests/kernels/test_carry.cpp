// A system's carried state between calls (bif/study/carry.h, resume_carry/suspend_carry in
// bif/study/common.h): the in-place word loop that the GPU programs with out-of-line cold parts use
// must write exactly the words of the unrolled copy through registers, and read them back into the
// same struct, next to other systems' words that it leaves alone.
#include "bif/study/common.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

namespace {

using namespace bif::ensemble;

// fields of every kind a carry holds, in an order that leaves padding inside
struct MixedCarry {
    using real = double;
    int phase;
    double p[3];
    float scale;
    long long steps;
    int flags[3];
    double t;
};

MixedCarry sample(int seed) {
    MixedCarry c{};
    c.phase = phase_running;
    for (int i = 0; i < 3; ++i) {
        c.p[i] = 0.1 * seed + i;
        c.flags[i] = seed * 7 - i;
    }
    c.scale = 1.5f * float(seed);
    c.steps = 123456789012LL * seed;
    c.t = -2.25 * seed;
    return c;
}

bool same_fields(const MixedCarry& a, const MixedCarry& b) {
    return a.phase == b.phase && std::memcmp(a.p, b.p, sizeof a.p) == 0 && a.scale == b.scale &&
           a.steps == b.steps && std::memcmp(a.flags, b.flags, sizeof a.flags) == 0 && a.t == b.t;
}

struct CarryColumns {
    static constexpr int systems = 5;
    std::vector<unsigned int> words =
        std::vector<unsigned int>(systems * words_of<MixedCarry>(), 0xDEADBEEFu);
    View<double> view() {
        View<double> v;
        v.stride = systems;
        v.carry = words.data();
        return v;
    }
    std::vector<unsigned int> system_words(int system) const {
        std::vector<unsigned int> out;
        for (int w = 0; w < words_of<MixedCarry>(); ++w)
            out.push_back(words[std::size_t(w) * systems + std::size_t(system)]);
        return out;
    }
};

} // namespace

TEST_CASE("the in-place carry loop writes and reads the words of the unrolled copy",
          "[engine][kernels][carry]") {
    static_assert(sizeof(MixedCarry) % 4 == 0);
    CarryColumns in_place, copied;
    const MixedCarry original = sample(3);
    store_carry<true>(in_place.view(), 2, 0, original);
    store_carry<false>(copied.view(), 2, 0, original);
    // word for word the same layout, padding included (both copy the struct's bytes)
    CHECK(in_place.system_words(2) == copied.system_words(2));
    // other systems' words are untouched
    for (int s : {0, 1, 3, 4})
        CHECK(in_place.system_words(s) == std::vector<unsigned int>(words_of<MixedCarry>(), 0xDEADBEEFu));

    MixedCarry a{}, b{};
    load_carry<true>(copied.view(), 2, 0, a);
    load_carry<false>(in_place.view(), 2, 0, b);
    CHECK(same_fields(a, original));
    CHECK(same_fields(b, original));
}

TEST_CASE("resume and suspend in place keep a running system and write one word otherwise",
          "[engine][kernels][carry]") {
    CarryColumns columns;
    std::fill(columns.words.begin(), columns.words.end(), 0u);
    const View<double> v = columns.view();

    MixedCarry fresh{};
    CHECK(resume_carry<true>(v, 1, fresh) == phase_new); // a new system reads its phase word only
    MixedCarry running = sample(5);
    suspend_carry<true>(v, 1, running);
    MixedCarry resumed{};
    CHECK(resume_carry<true>(v, 1, resumed) == phase_running);
    CHECK(same_fields(resumed, running));

    // a finished system writes its phase alone: the rest of its words stay as they were
    const std::vector<unsigned int> before = columns.system_words(1);
    MixedCarry done = sample(9);
    done.phase = phase_done;
    suspend_carry<true>(v, 1, done);
    const std::vector<unsigned int> after = columns.system_words(1);
    CHECK(after[0] == unsigned(phase_done));
    CHECK(std::vector<unsigned int>(after.begin() + 1, after.end()) ==
          std::vector<unsigned int>(before.begin() + 1, before.end()));
    MixedCarry finished{};
    CHECK(resume_carry<true>(v, 1, finished) == phase_done);
}
