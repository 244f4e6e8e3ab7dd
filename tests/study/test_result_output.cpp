// HDF5 output and streamed runs on real studies (CPU backend): the HDF5 file read back through the
// HDF5 C API holds the Result's numbers bit for bit and the numbers of its CSV; a streamed job
// (blocks written as they finish, nothing assembled) writes the same CSV bytes and HDF5 values as
// the assembled run. h5py is not installed here: the C API is the reader.
#include "engine/cpu/cpu_backend.h"
#include "engine/jobs/job.h"
#include "engine/study/result_csv.h"
#include "engine/study/result_hdf5.h"
#include "tests/jobs/progressive_studies.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <filesystem>
#include <hdf5.h>
#include <mutex>
#include <sstream>

using namespace bif;
using namespace std::chrono_literals;

namespace {

jobs::BackendRegistry cpu_registry() {
    static std::shared_ptr<study::Backend> cpu = cpu::make_cpu_backend();
    jobs::BackendRegistry registry;
    registry.add(cpu);
    return registry;
}

std::shared_ptr<const study::Result> run_assembled(std::shared_ptr<const study::ResolvedStudy> s) {
    auto job = jobs::submit(cpu_registry(), std::move(s));
    REQUIRE(job->wait_for(60s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    return job->result();
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("bifscope_test_" + name)).string();
}

// The whole dataset at `name`, read as doubles (or as another native type T).
template <typename T = double>
std::vector<T> read_dataset(hid_t file, const std::string& name, hid_t type) {
    const hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
    REQUIRE(d >= 0);
    const hid_t space = H5Dget_space(d);
    const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<T> values(count);
    REQUIRE(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    H5Sclose(space);
    H5Dclose(d);
    return values;
}

std::string read_string_attribute(hid_t object, const char* name) {
    const hid_t a = H5Aopen(object, name, H5P_DEFAULT);
    REQUIRE(a >= 0);
    const hid_t type = H5Aget_type(a);
    std::string text(H5Tget_size(type), '\0');
    REQUIRE(H5Aread(a, type, text.data()) >= 0);
    H5Tclose(type);
    H5Aclose(a);
    return text.substr(0, text.find('\0'));
}

bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!test::same_bits(a[i], b[i])) return false;
    return true;
}

// The file's columns against the result's, bit for bit. Point datasets are [systems, rows].
void check_file_holds(const std::string& path, const study::Result& r) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0);
    for (const auto& axis : r.axes)
        CHECK(same_values(read_dataset(file, "axes/" + axis.name, H5T_NATIVE_DOUBLE), axis.values));
    for (const auto& scalar : r.scalars)
        CHECK(same_values(read_dataset(file, "scalars/" + scalar.name, H5T_NATIVE_DOUBLE), scalar.values));
    const auto status = read_dataset<std::uint8_t>(file, "status", H5T_NATIVE_UINT8);
    REQUIRE(status.size() == r.system_count);
    for (std::size_t s = 0; s < r.system_count; ++s)
        CHECK(status[s] == static_cast<std::uint8_t>(r.status[s]));
    const auto& p = r.points;
    if (p.width() > 0) {
        CHECK(read_dataset<std::uint32_t>(file, "rows_filled", H5T_NATIVE_UINT32) == p.rows_filled);
        for (std::size_t c = 0; c < p.width(); ++c) {
            const auto column = read_dataset(file, "points/" + p.columns[c], H5T_NATIVE_DOUBLE);
            REQUIRE(column.size() == r.system_count * p.rows_per_system);
            for (std::size_t s = 0; s < r.system_count; ++s)
                for (std::size_t row = 0; row < p.rows_per_system; ++row)
                    CHECK(test::same_bits(column[s * p.rows_per_system + row], p.value(s, row, c)));
        }
    }
    CHECK(read_string_attribute(file, "analysis") == study::name_of(r.analysis));
    CHECK(read_string_attribute(file, "study") == "{\"bifscope_study\": 1}");
    H5Fclose(file);
}

double parse(std::string_view cell) {
    if (cell.empty()) return study::missing_value;
    double d = 0.0;
    REQUIRE(std::from_chars(cell.data(), cell.data() + cell.size(), d).ec == std::errc());
    return d;
}

} // namespace

TEST_CASE("HDF5: a real map reads back with the Result's and the CSV's numbers", "[study][hdf5]") {
    if (!study::hdf5_output_available()) return;
    const auto r = run_assembled(test::duffing_map(6, 5, 8));
    const std::string path = temp_path("map.h5");
    study::write_result_hdf5(path, *r, "{\"bifscope_study\": 1}");
    check_file_holds(path, *r);
    // The CSV of the same run (no point block in a map: one row per system) against the file.
    std::ostringstream csv;
    study::write_csv_rows(csv, *r);
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const auto lambda = read_dataset(file, "scalars/lambda_max", H5T_NATIVE_DOUBLE);
    const auto k = read_dataset(file, "axes/k", H5T_NATIVE_DOUBLE);
    H5Fclose(file);
    std::istringstream rows(csv.str());
    std::size_t s = 0;
    for (std::string line; std::getline(rows, line); ++s) {
        REQUIRE(s < r->system_count);
        CHECK(test::same_bits(parse(line.substr(0, line.find(','))), k[s]));
        // Columns: k, b, status, period?, lambda_max, ... (the result's scalar order).
        std::vector<std::string_view> cells;
        std::string_view rest(line);
        for (std::size_t comma; (comma = rest.find(',')) != std::string_view::npos;
             rest.remove_prefix(comma + 1))
            cells.push_back(rest.substr(0, comma));
        cells.push_back(rest);
        std::size_t lambda_cell = r->axes.size() + 1;
        while (r->scalars[lambda_cell - r->axes.size() - 1].name != "lambda_max")
            ++lambda_cell;
        CHECK(test::same_bits(parse(cells[lambda_cell]), lambda[s]));
    }
    CHECK(s == r->system_count);
    std::filesystem::remove(path);
}

TEST_CASE("Streaming: blocks written as they finish equal the assembled run", "[study][hdf5][stream]") {
    for (const auto& s :
         {test::duffing_bifurcation(23), test::duffing_map(5, 4, 4), test::duffing_lyapunov(9)}) {
        const auto assembled = run_assembled(s);
        std::ostringstream expected;
        study::write_csv_rows(expected, *assembled);

        const std::string path = temp_path("streamed.h5");
        std::unique_ptr<study::Hdf5ResultWriter> hdf5;
        if (study::hdf5_output_available())
            hdf5 = std::make_unique<study::Hdf5ResultWriter>(path, s->system_count());
        std::ostringstream streamed;
        study::ResultSummary summary;
        summary.analysis = s->study.analysis;
        summary.system_count = s->system_count();
        std::size_t next = 0, blocks = 0, largest = 0;
        jobs::JobOptions options;
        options.keep_result = false;
        options.stream_block_systems = 7;
        options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> b) {
            CHECK(b->systems.front() == next); // in system order, consecutive
            CHECK(b->systems.back() + 1 - b->systems.front() == b->systems.size());
            next += b->systems.size();
            ++blocks;
            largest = std::max(largest, b->systems.size());
            study::write_csv_rows(streamed, *b->result, 2);
            summary.add_statuses(b->result->status);
            if (hdf5) hdf5->write_block(*b->result, b->systems.front());
        };
        auto job = jobs::submit(cpu_registry(), s, options);
        REQUIRE(job->wait_for(60s));
        REQUIRE(job->state() == jobs::JobState::Succeeded);
        CHECK(job->result()->status.empty()); // nothing assembled
        CHECK(next == s->system_count());
        CHECK(largest == 7);
        CHECK(blocks == (s->system_count() + 6) / 7);
        CHECK(streamed.str() == expected.str());
        const study::ResultSummary whole = study::summarize(*assembled);
        CHECK(summary.ok == whole.ok);
        CHECK(summary.failed == whole.failed);
        if (hdf5) {
            hdf5->finish(summary, "{\"bifscope_study\": 1}");
            check_file_holds(path, *assembled);
            std::filesystem::remove(path);
        }
    }
}

TEST_CASE("Streaming: a continuation sweep, which cannot be cut, comes as one block", "[study][stream]") {
    const auto s = test::duffing_bifurcation(6, true);
    const auto assembled = run_assembled(s);
    std::vector<std::shared_ptr<const jobs::ResultBlock>> blocks;
    std::mutex mutex;
    jobs::JobOptions options;
    options.keep_result = false;
    options.stream_block_systems = 4;
    options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> b) {
        std::lock_guard lock(mutex);
        blocks.push_back(std::move(b));
    };
    auto job = jobs::submit(cpu_registry(), s, options);
    REQUIRE(job->wait_for(60s));
    REQUIRE(blocks.size() == 1);
    CHECK(test::results_equal(*blocks[0]->result, *assembled));
}
