#include "engine/jobs/result_bytes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace bif::jobs {

namespace {

// "BFB1": a block of this layout, so that bytes from another build are refused, not misread.
constexpr std::uint32_t format_tag = 0x31424642u;

class ByteWriter {
  public:
    template <typename T>
    void put(T value) {
        static_assert(std::is_trivially_copyable_v<T>);
        append(&value, sizeof value);
    }
    template <typename T>
    void put(const std::vector<T>& values) {
        put<std::uint64_t>(values.size());
        append(values.data(), values.size() * sizeof(T));
    }
    void put(const std::string& text) {
        put<std::uint64_t>(text.size());
        append(text.data(), text.size());
    }
    void put(const std::vector<std::string>& texts) {
        put<std::uint64_t>(texts.size());
        for (const auto& t : texts)
            put(t);
    }
    void put(const std::vector<study::NumberColumn>& columns) {
        put<std::uint64_t>(columns.size());
        for (const auto& c : columns) {
            put(c.name);
            put(c.values);
        }
    }
    std::vector<std::byte> take() { return std::move(bytes_); }

  private:
    void append(const void* data, std::size_t size) {
        const auto* begin = static_cast<const std::byte*>(data);
        bytes_.insert(bytes_.end(), begin, begin + size);
    }
    std::vector<std::byte> bytes_;
};

class ByteReader {
  public:
    explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

    template <typename T>
    T get() {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        std::memcpy(&value, take(sizeof value), sizeof value);
        return value;
    }
    template <typename T>
    std::vector<T> get_vector() {
        const std::size_t n = count(sizeof(T));
        std::vector<T> values(n);
        if (n != 0) std::memcpy(values.data(), take(n * sizeof(T)), n * sizeof(T));
        return values;
    }
    std::string get_string() {
        const std::size_t n = count(1);
        return {reinterpret_cast<const char*>(take(n)), n};
    }
    std::vector<std::string> get_strings() {
        std::vector<std::string> texts(count(sizeof(std::uint64_t)));
        for (auto& t : texts)
            t = get_string();
        return texts;
    }
    std::vector<study::NumberColumn> get_columns() {
        std::vector<study::NumberColumn> columns(count(2 * sizeof(std::uint64_t)));
        for (auto& c : columns) {
            c.name = get_string();
            c.values = get_vector<double>();
        }
        return columns;
    }
    bool at_end() const { return used_ == bytes_.size(); }

  private:
    // A length prefix, checked against the bytes left so that a bad one cannot allocate wildly.
    std::size_t count(std::size_t min_item_bytes) {
        const auto n = get<std::uint64_t>();
        if (n > (bytes_.size() - used_) / std::max<std::size_t>(min_item_bytes, 1))
            throw std::runtime_error("result block bytes: a length runs past the end");
        return static_cast<std::size_t>(n);
    }
    const std::byte* take(std::size_t size) {
        if (size > bytes_.size() - used_) throw std::runtime_error("result block bytes: cut short");
        const std::byte* at = bytes_.data() + used_;
        used_ += size;
        return at;
    }
    std::span<const std::byte> bytes_;
    std::size_t used_ = 0;
};

void put_info(ByteWriter& w, const study::RunInfo& info) {
    w.put(info.backend);
    w.put(info.device);
    w.put(info.precision);
    w.put(info.code_path);
    w.put(info.code_note);
    w.put(info.notes);
    w.put(info.warnings);
    w.put(info.compile_seconds);
    w.put(info.run_seconds);
    w.put(info.orbit_seconds);
    w.put(info.total_seconds);
    w.put(info.complete);
}

study::RunInfo get_info(ByteReader& r) {
    study::RunInfo info;
    info.backend = r.get_string();
    info.device = r.get_string();
    info.precision = r.get<codegen::Precision>();
    info.code_path = r.get<study::CodePath>();
    info.code_note = r.get_string();
    info.notes = r.get_strings();
    info.warnings = r.get_strings();
    info.compile_seconds = r.get<double>();
    info.run_seconds = r.get<double>();
    info.orbit_seconds = r.get<double>();
    info.total_seconds = r.get<double>();
    info.complete = r.get<bool>();
    return info;
}

// The system indices: first and count when consecutive (a streamed block always is), else each.
void put_systems(ByteWriter& w, const std::vector<std::size_t>& systems) {
    const bool consecutive = systems.empty() || systems.back() - systems.front() + 1 == systems.size();
    w.put<std::uint8_t>(consecutive ? 1 : 0);
    if (!consecutive) {
        w.put(std::vector<std::uint64_t>(systems.begin(), systems.end()));
        return;
    }
    w.put<std::uint64_t>(systems.empty() ? 0 : systems.front());
    w.put<std::uint64_t>(systems.size());
}

std::vector<std::size_t> get_systems(ByteReader& r) {
    if (r.get<std::uint8_t>() == 0) {
        const auto listed = r.get_vector<std::uint64_t>();
        return {listed.begin(), listed.end()};
    }
    const auto first = r.get<std::uint64_t>();
    const auto count = r.get<std::uint64_t>();
    if (count > std::uint64_t{1} << 40)
        throw std::runtime_error("result block bytes: implausible system count");
    std::vector<std::size_t> systems(count);
    for (std::size_t i = 0; i < systems.size(); ++i)
        systems[i] = first + i;
    return systems;
}

} // namespace

std::vector<std::byte> encode_block(const ResultBlock& block) {
    const study::Result& r = *block.result;
    ByteWriter w;
    w.put(format_tag);
    put_systems(w, block.systems);
    w.put<std::int32_t>(block.pass);
    w.put<std::int32_t>(block.pass_count);
    w.put<std::int32_t>(block.stride);
    w.put(block.provisional);
    w.put(r.analysis);
    w.put<std::uint64_t>(r.system_count);
    w.put(r.axes);
    w.put(r.status);
    w.put(r.scalars);
    w.put(r.points.columns);
    w.put<std::uint64_t>(r.points.rows_per_system);
    w.put(r.points.rows_filled);
    w.put(r.points.values);
    put_info(w, r.info);
    return w.take();
}

ResultBlock decode_block(std::span<const std::byte> bytes) {
    ByteReader in(bytes);
    if (in.get<std::uint32_t>() != format_tag) throw std::runtime_error("result block bytes: unknown format");
    ResultBlock block;
    block.systems = get_systems(in);
    block.pass = in.get<std::int32_t>();
    block.pass_count = in.get<std::int32_t>();
    block.stride = in.get<std::int32_t>();
    block.provisional = in.get<bool>();
    auto r = std::make_shared<study::Result>();
    r->analysis = in.get<study::AnalysisKind>();
    r->system_count = static_cast<std::size_t>(in.get<std::uint64_t>());
    r->axes = in.get_columns();
    r->status = in.get_vector<study::SystemStatus>();
    r->scalars = in.get_columns();
    r->points.columns = in.get_strings();
    r->points.rows_per_system = static_cast<std::size_t>(in.get<std::uint64_t>());
    r->points.rows_filled = in.get_vector<std::uint32_t>();
    r->points.values = in.get_vector<double>();
    r->info = get_info(in);
    if (!in.at_end()) throw std::runtime_error("result block bytes: trailing bytes");
    if (r->status.size() != r->system_count || block.systems.size() != r->system_count)
        throw std::runtime_error("result block bytes: system counts disagree");
    block.result = std::move(r);
    return block;
}

} // namespace bif::jobs
