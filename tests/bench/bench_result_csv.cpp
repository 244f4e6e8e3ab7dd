// Rows per second of the CSV writer (engine/study/result_csv.cpp) against the writer it replaced, one
// stream insertion per value, kept as tests/study/result_csv_reference.h (issue 14: at least 5x). Two
// shapes: a bifurcation-like result (1 axis, a direction, 2 point columns, 32 rows per system, 10^5
// systems) and a map-like one (2 grid axes, 4 scalar columns, 10^6 systems). Output goes to a stream
// whose buffer counts bytes and drops them, as a file stream would hand them to the disk, so the
// times are formatting alone; each writer runs `repeats` times and the best run counts. The writer
// formats rows on every hardware thread; "1 thread" shows what one core does.
//
//   bench_result_csv [repeats=3]
#include "engine/study/result_csv.h"
#include "tests/study/result_csv_reference.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <thread>

using namespace bif::study;

namespace {

Result bifurcation_like() {
    constexpr std::size_t systems = 100000, rows = 32;
    Result r;
    r.analysis = AnalysisKind::Bifurcation;
    r.system_count = systems;
    r.axes = {{"k", {}}};
    r.scalars = {{"direction", {}}};
    r.status.assign(systems, SystemStatus::Ok);
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> uniform(-20.0, 20.0);
    for (std::size_t s = 0; s < systems; ++s) {
        // A continuation sweep: up then down over the same values.
        r.axes[0].values.push_back(0.5 + 2.0 * static_cast<double>(s % (systems / 2)) / (systems / 2));
        r.scalars[0].values.push_back(s < systems / 2 ? 1.0 : -1.0);
        if (s % 97 == 0) r.status[s] = SystemStatus::NonFinite;
    }
    r.points.columns = {"x", "max(y)"};
    r.points.rows_per_system = rows;
    r.points.rows_filled.assign(systems, rows);
    r.points.values.resize(systems * rows * 2);
    for (auto& v : r.points.values)
        v = uniform(rng);
    return r;
}

Result map_like() {
    constexpr std::size_t side = 1000, systems = side * side;
    Result r;
    r.analysis = AnalysisKind::ParameterMap;
    r.system_count = systems;
    r.axes = {{"a", {}}, {"b", {}}};
    r.scalars = {{"period", {}}, {"lambda_max", {}}, {"amplitude", {}}, {"events_0", {}}};
    r.status.assign(systems, SystemStatus::Ok);
    std::mt19937_64 rng(15);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (std::size_t s = 0; s < systems; ++s) {
        r.axes[0].values.push_back(0.1 + 0.9 * static_cast<double>(s / side) / (side - 1));
        r.axes[1].values.push_back(-2.0 + 4.0 * static_cast<double>(s % side) / (side - 1));
        r.scalars[0].values.push_back(static_cast<double>(rng() % 9));
        r.scalars[1].values.push_back(uniform(rng));
        r.scalars[2].values.push_back(10.0 * std::abs(uniform(rng)));
        r.scalars[3].values.push_back(static_cast<double>(rng() % 200));
    }
    return r;
}

std::size_t row_count(const Result& r) {
    if (r.points.width() == 0) return r.system_count;
    std::size_t rows = 0;
    for (auto filled : r.points.rows_filled)
        rows += std::max<std::size_t>(filled, 1);
    return rows;
}

// A file stream's buffering without the file: a 64 KiB put area, emptied into a byte count.
class CountingBuffer : public std::streambuf {
  public:
    CountingBuffer() { setp(area_.data(), area_.data() + area_.size()); }
    std::size_t bytes() const { return counted_ + static_cast<std::size_t>(pptr() - pbase()); }

  protected:
    int_type overflow(int_type c) override {
        counted_ += static_cast<std::size_t>(pptr() - pbase());
        setp(area_.data(), area_.data() + area_.size());
        if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        if (n <= epptr() - pptr()) {
            std::memcpy(pptr(), s, static_cast<std::size_t>(n));
            pbump(static_cast<int>(n));
        } else {
            overflow(traits_type::eof());
            counted_ += static_cast<std::size_t>(n); // large writes bypass the buffer, as filebuf's do
        }
        return n;
    }

  private:
    std::array<char, 1 << 16> area_;
    std::size_t counted_ = 0;
};

using Writer = std::function<void(std::ostream&, const Result&, std::string_view)>;

// Best of `repeats` runs, in seconds; bytes is what the last run wrote.
double best_seconds(const Writer& write, const Result& r, int repeats, std::size_t& bytes) {
    double best = 1e300;
    for (int i = 0; i < repeats; ++i) {
        CountingBuffer sink;
        std::ostream out(&sink);
        const auto start = std::chrono::steady_clock::now();
        write(out, r, "{\n  \"bifscope_study\": 1\n}\n");
        out.flush();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = std::min(best, seconds);
        bytes = sink.bytes();
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("%-14s %10s %8s %14s %14s %7s %14s %7s (%u threads)\n", "result", "rows", "MB",
                "before rows/s", "1 thread", "ratio", "all threads", "ratio", threads);
    bool same_size = true;
    for (const auto& [name, result] :
         {std::pair{"bifurcation", bifurcation_like()}, std::pair{"map", map_like()}}) {
        std::size_t bytes_before = 0, bytes_one = 0, bytes_all = 0;
        const double before =
            best_seconds(reference::write_result_csv_reference, result, repeats, bytes_before);
        const double one = best_seconds([](std::ostream& out, const Result& r,
                                           std::string_view json) { write_result_csv(out, r, json, 1); },
                                        result, repeats, bytes_one);
        const double all = best_seconds(
            [](std::ostream& out, const Result& r, std::string_view json) { write_result_csv(out, r, json); },
            result, repeats, bytes_all);
        const double rows = static_cast<double>(row_count(result));
        std::printf("%-14s %10.0f %8.1f %14.3g %14.3g %6.1fx %14.3g %6.1fx\n", name, rows, bytes_all / 1e6,
                    rows / before, rows / one, before / one, rows / all, before / all);
        same_size = same_size && bytes_before == bytes_one && bytes_before == bytes_all;
    }
    if (!same_size) std::printf("the two writers wrote different byte counts\n");
    return same_size ? 0 : 1;
}
