#include "engine/study/result_csv.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace bif::study {

namespace {

// Longest shortest-round-trip text of a double is 24 characters ("-2.2250738585072014e-308").
constexpr std::size_t max_number_chars = 32;
constexpr std::size_t max_index_chars = 20;

// Integers below 10^5 print as themselves in the shortest form (from 10^5 on, "1e+05" is shorter), and
// integer formatting costs a fraction of the shortest-round-trip search for a double.
char* put_number(char* at, double v) {
    if (std::isnan(v)) return at;
    if (std::fabs(v) < 1e5 && v == std::trunc(v) && !(v == 0.0 && std::signbit(v)))
        return std::to_chars(at, at + max_number_chars, static_cast<int>(v)).ptr;
    const auto [end, ec] = std::to_chars(at, at + max_number_chars, v);
    return ec == std::errc() ? end : at;
}

// Header cells are names the user chose (formulas such as "y1 - 1", "max(a,b)"): quoted when needed.
void write_cell_text(std::ostream& out, std::string_view text) {
    if (text.find_first_of(",\"\n") == std::string_view::npos) {
        out << text;
        return;
    }
    out << '"';
    for (char c : text)
        out << (c == '"' ? "\"\"" : std::string_view(&c, 1));
    out << '"';
}

void write_header_row(std::ostream& out, const Result& r) {
    bool first = true;
    auto cell = [&](std::string_view name) {
        if (!first) out << ',';
        first = false;
        write_cell_text(out, name);
    };
    for (const auto& a : r.axes)
        cell(a.name);
    cell("status");
    for (const auto& s : r.scalars)
        cell(s.name);
    if (r.points.width() > 0) {
        cell("point");
        for (const auto& c : r.points.columns)
            cell(c);
    }
    out << '\n';
}

// The text of values seen before, in a direct-mapped table keyed by the value's bits: a grid axis
// repeats a few distinct values (the outer axis one for many systems in a row, the inner axis
// cyclically), periods and labels repeat too, and copying text costs less than formatting it again.
class NumberTextCache {
  public:
    // slots: a power of two.
    explicit NumberTextCache(std::size_t slots) : slots_(slots), mask_(slots - 1) {}

    char* put(char* at, double v) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        Slot& slot = slots_[((bits ^ (bits >> 29)) * 0x9e3779b97f4a7c15u >> 40) & mask_];
        if (!slot.valid || slot.bits != bits) {
            slot.length = static_cast<std::uint8_t>(put_number(slot.text.data(), v) - slot.text.data());
            slot.bits = bits;
            slot.valid = true;
        }
        std::memcpy(at, slot.text.data(), slot.length);
        return at + slot.length;
    }

  private:
    struct Slot {
        std::uint64_t bits = 0;
        std::array<char, max_number_chars> text{};
        std::uint8_t length = 0;
        bool valid = false;
    };
    std::vector<Slot> slots_;
    std::uint64_t mask_;
};

// Formats the rows of a range of systems into a buffer of its own, so that several formatters can
// work on neighbouring ranges at once; the caller writes their buffers out in order. Values go
// straight into the buffer: inserting each value and comma into a stream (a sentry and virtual
// calls each time) cost more than formatting them.
class RowFormatter {
  public:
    explicit RowFormatter(const Result& r)
        : r_(r), axis_text_(r.axes.size(), NumberTextCache(4096)),
          scalar_text_(r.scalars.size(), NumberTextCache(1)) {
        prefix_.resize((r.axes.size() + r.scalars.size()) * (max_number_chars + 1) + 64);
        row_bound_ = prefix_.size() + max_index_chars + (r.points.width() + 2) * (max_number_chars + 1);
    }

    // Upper bound of one row's length.
    std::size_t row_bound() const { return row_bound_; }

    void format(std::size_t begin, std::size_t end) {
        for (std::size_t system = begin; system < end; ++system)
            format_system(system);
    }
    std::string_view text() const { return {text_.data(), used_}; }
    void clear() { used_ = 0; }

  private:
    void format_system(std::size_t system) {
        format_prefix(system);
        const PointBlock& points = r_.points;
        if (points.width() == 0) {
            char* at = put_prefix(room());
            *at++ = '\n';
            return commit(at);
        }
        const std::size_t rows = points.rows_filled.empty() ? 0 : points.rows_filled[system];
        if (rows == 0) {
            char* at = put_prefix(room());
            std::memset(at, ',', points.width() + 1);
            at += points.width() + 1;
            *at++ = '\n';
            return commit(at);
        }
        const double* values = &points.values[system * points.rows_per_system * points.width()];
        for (std::size_t row = 0; row < rows; ++row) {
            char* at = put_prefix(room());
            *at++ = ',';
            at = std::to_chars(at, at + max_index_chars, row).ptr;
            for (std::size_t c = 0; c < points.width(); ++c) {
                *at++ = ',';
                at = put_number(at, *values++);
            }
            *at++ = '\n';
            commit(at);
        }
    }

    // The swept values, status and scalars: the same text on every row of a system.
    void format_prefix(std::size_t system) {
        char* at = prefix_.data();
        for (std::size_t i = 0; i < r_.axes.size(); ++i) {
            at = axis_text_[i].put(at, r_.axes[i].values[system]);
            *at++ = ',';
        }
        const std::string_view status = status_name(r_.status[system]);
        std::memcpy(at, status.data(), status.size());
        at += status.size();
        for (std::size_t i = 0; i < r_.scalars.size(); ++i) {
            *at++ = ',';
            at = scalar_text_[i].put(at, r_.scalars[i].values[system]);
        }
        prefix_length_ = static_cast<std::size_t>(at - prefix_.data());
    }

    char* put_prefix(char* at) const {
        std::memcpy(at, prefix_.data(), prefix_length_);
        return at + prefix_length_;
    }

    std::string_view status_name(SystemStatus s) {
        const auto index = static_cast<std::uint8_t>(s);
        if (status_names_[index].data() == nullptr) status_names_[index] = name_of(s);
        return status_names_[index];
    }

    // Space for one more row of at most row_bound_ characters.
    char* room() {
        if (text_.size() - used_ < row_bound_)
            text_.resize(std::max(2 * text_.size(), used_ + 4 * row_bound_));
        return text_.data() + used_;
    }
    void commit(char* end) { used_ = static_cast<std::size_t>(end - text_.data()); }

    const Result& r_;
    std::vector<NumberTextCache> axis_text_;
    std::vector<NumberTextCache> scalar_text_;
    std::array<std::string_view, 256> status_names_{};
    std::vector<char> prefix_;
    std::size_t prefix_length_ = 0;
    std::vector<char> text_;
    std::size_t used_ = 0;
    std::size_t row_bound_ = 0;
};

constexpr std::size_t chunk_text_bytes = std::size_t{1} << 20;

unsigned formatting_threads(unsigned requested, std::size_t systems) {
    const unsigned available = requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::min<std::size_t>(available, std::max<std::size_t>(systems, 1)));
}

} // namespace

void write_csv_comment_block(std::ostream& out, const ResultSummary& summary, std::string_view study_json) {
    const RunInfo& info = summary.info;
    out << "# bifscope result\n";
    out << "# analysis: " << name_of(summary.analysis) << "\n";
    out << "# backend: " << info.backend << (info.device.empty() ? "" : " (" + info.device + ")") << ", "
        << (info.precision == codegen::Precision::Float ? "float" : "double")
        << ", code: " << name_of(info.code_path)
        << (info.code_note.empty() ? "" : " (" + info.code_note + ")") << "\n";
    out << "# systems: " << summary.system_count << ", ok: " << summary.ok << ", failed: " << summary.failed
        << ", not run: " << summary.not_run;
    if (summary.escaped > 0) out << ", escaped: " << summary.escaped;
    out << "\n";
    out << "# complete: "
        << (info.complete ? "yes" : "no (cancelled; rows with status not_run hold no values)") << "\n";
    out << "# seconds: compile " << info.compile_seconds << ", run " << info.run_seconds << ", total "
        << info.total_seconds << "\n";
    for (const auto& note : info.notes)
        out << "# note: " << note << "\n";
    for (const auto& warning : info.warnings)
        out << "# warning: " << warning << "\n";
    out << "# study:\n";
    std::size_t begin = 0;
    while (begin < study_json.size()) {
        std::size_t end = study_json.find('\n', begin);
        if (end == std::string_view::npos) end = study_json.size();
        out << "# " << study_json.substr(begin, end - begin) << "\n";
        begin = end + 1;
    }
}

void write_csv_header(std::ostream& out, const Result& layout) {
    write_header_row(out, layout);
}

// Rounds of `threads` chunks of neighbouring systems, each about chunk_text_bytes of text at most,
// formatted at once and written in order.
void write_csv_rows(std::ostream& out, const Result& block, unsigned threads) {
    const std::size_t systems = block.system_count;
    const unsigned count = formatting_threads(threads, systems);
    std::vector<RowFormatter> formatters(count, RowFormatter(block));
    const std::size_t system_bound =
        formatters[0].row_bound() * std::max<std::size_t>(block.points.rows_per_system, 1);
    const std::size_t chunk = std::max<std::size_t>(1, chunk_text_bytes / system_bound);
    for (std::size_t begin = 0; begin < systems; begin += chunk * count) {
        auto format = [&](unsigned t) {
            const std::size_t from = std::min(systems, begin + t * chunk);
            formatters[t].format(from, std::min(systems, from + chunk));
        };
        std::vector<std::thread> helpers;
        for (unsigned t = 1; t < count && begin + t * chunk < systems; ++t)
            helpers.emplace_back(format, t);
        format(0);
        for (auto& helper : helpers)
            helper.join();
        for (auto& formatter : formatters) {
            const std::string_view text = formatter.text();
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            formatter.clear();
        }
    }
}

void write_result_csv(std::ostream& out, const Result& result, std::string_view study_json,
                      unsigned threads) {
    write_csv_comment_block(out, summarize(result), study_json);
    write_csv_header(out, result);
    write_csv_rows(out, result, threads);
}

} // namespace bif::study
