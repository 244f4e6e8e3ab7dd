// The CSV writer: the study as a comment block, a header row, one row per system and point, and
// numbers that read back exactly.
#include "engine/study/result_csv.h"
#include "tests/study/result_csv_reference.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

using namespace bif::study;

namespace {

Result small_result() {
    Result r;
    r.analysis = AnalysisKind::Bifurcation;
    r.system_count = 2;
    r.axes = {{"k", {0.2, 0.1 + 0.2}}};
    r.status = {SystemStatus::Ok, SystemStatus::NonFinite};
    r.points.columns = {"y1", "max, y1"};
    r.points.rows_per_system = 2;
    r.points.rows_filled = {2, 0};
    r.points.values = {1.0, -2.5, 1.0 / 3.0, 4.0, missing_value, missing_value, missing_value, missing_value};
    r.info.backend = "cpu";
    r.info.complete = true;
    return r;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

} // namespace

TEST_CASE("CSV: comment block, header, rows", "[study][csv]") {
    std::ostringstream out;
    write_result_csv(out, small_result(), "{\n  \"bifscope_study\": 1\n}\n");
    const auto lines = lines_of(out.str());
    std::vector<std::string> comments, rows;
    for (const auto& l : lines)
        (l.rfind("# ", 0) == 0 ? comments : rows).push_back(l);
    CHECK(std::find(comments.begin(), comments.end(), "#   \"bifscope_study\": 1") != comments.end());
    CHECK(std::find(comments.begin(), comments.end(), "# systems: 2, ok: 1, failed: 1, not run: 0") !=
          comments.end());
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == "k,status,point,y1,\"max, y1\"");
    CHECK(rows[1] == "0.2,ok,0,1,-2.5");
    CHECK(rows[2] == "0.2,ok,1,0.3333333333333333,4");
    // 0.1 + 0.2 is not 0.3: the shortest round-trip text keeps the difference.
    CHECK(rows[3] == "0.30000000000000004,non_finite,,,");
    CHECK(std::stod("0.3333333333333333") == 1.0 / 3.0);
}

TEST_CASE("CSV: scalar columns without points give one row per system", "[study][csv]") {
    Result r;
    r.analysis = AnalysisKind::Lyapunov;
    r.system_count = 2;
    r.axes = {{"rho", {28, 99.5}}};
    r.status = {SystemStatus::Ok, SystemStatus::NotRun};
    r.scalars = {{"lambda1", {0.9056, missing_value}}};
    std::ostringstream out;
    write_result_csv(out, r, "");
    const auto lines = lines_of(out.str());
    std::vector<std::string> rows;
    for (const auto& l : lines)
        if (l.rfind("#", 0) != 0) rows.push_back(l);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0] == "rho,status,lambda1");
    CHECK(rows[1] == "28,ok,0.9056");
    CHECK(rows[2] == "99.5,not_run,");
    CHECK(out.str().find("# complete: no (cancelled") != std::string::npos);
}

// The buffered writer against the stream-per-value writer it replaced (result_csv_reference.h).
namespace {

std::string csv_of(const Result& r, std::string_view study_json) {
    std::ostringstream out;
    write_result_csv(out, r, study_json);
    return out.str();
}

std::string csv_of_threads(const Result& r, unsigned threads) {
    std::ostringstream out;
    write_result_csv(out, r, "{}", threads);
    return out.str();
}

std::string reference_csv_of(const Result& r, std::string_view study_json) {
    std::ostringstream out;
    reference::write_result_csv_reference(out, r, study_json);
    return out.str();
}

// Values whose shortest text is unusual: specials, signed zero, denormals, extremes, long mantissas.
std::vector<double> awkward_values() {
    using limits = std::numeric_limits<double>;
    return {missing_value,
            limits::infinity(),
            -limits::infinity(),
            0.0,
            -0.0,
            limits::denorm_min(),
            -limits::denorm_min(),
            2.2250738585072009e-308,
            limits::min(),
            -limits::min(),
            limits::max(),
            -limits::max(),
            limits::epsilon(),
            1e22,
            1e23,
            -1.7976931348623157e+300,
            0.1 + 0.2,
            1.0 / 3.0,
            -2.5,
            123456789012345680.0,
            5e-324 * 3,
            std::nextafter(1.0, 2.0),
            -std::nan("7"),
            99999.0,
            -99999.0,
            1e5,
            -1e5,
            20000.0,
            99999.5,
            1e15,
            4294967296.0,
            -1.0};
}

// A result of every kind of column, filled by a seeded generator mixing awkward and random values.
Result mixed_result(std::size_t systems, std::size_t rows_per_system, std::size_t width, unsigned seed) {
    std::mt19937_64 rng(seed);
    const auto awkward = awkward_values();
    auto value = [&]() {
        switch (rng() % 4) {
        case 0:
            return awkward[rng() % awkward.size()];
        case 1: {
            const std::uint64_t bits = rng();
            double d;
            std::memcpy(&d, &bits, sizeof d);
            return d;
        }
        case 2:
            return static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
        default:
            return std::uniform_real_distribution<double>(-1e3, 1e3)(rng);
        }
    };
    Result r;
    r.analysis = AnalysisKind::Bifurcation;
    r.system_count = systems;
    NumberColumn outer{"a", {}}, inner{"b, swept", {}};
    for (std::size_t s = 0; s < systems; ++s) {
        outer.values.push_back(0.1 * static_cast<double>(s / 7)); // repeats, as an outer grid axis does
        inner.values.push_back(value());
    }
    r.axes = {outer, inner};
    for (std::size_t s = 0; s < systems; ++s)
        r.status.push_back(static_cast<SystemStatus>(rng() % 8));
    NumberColumn direction{"direction", {}}, period{"period", {}};
    for (std::size_t s = 0; s < systems; ++s) {
        direction.values.push_back(s % 2 == 0 ? 1.0 : -1.0);
        period.values.push_back(rng() % 3 == 0 ? missing_value : static_cast<double>(rng() % 4));
    }
    r.scalars = {direction, period};
    for (std::size_t c = 0; c < width; ++c)
        r.points.columns.push_back(c == 1 ? "max(y1,\"y2\")" : "y" + std::to_string(c));
    r.points.rows_per_system = rows_per_system;
    for (std::size_t s = 0; s < systems; ++s)
        r.points.rows_filled.push_back(static_cast<std::uint32_t>(rng() % (rows_per_system + 1)));
    r.points.values.resize(systems * rows_per_system * width, missing_value);
    for (std::size_t s = 0; s < systems; ++s)
        for (std::size_t row = 0; row < r.points.rows_filled[s]; ++row)
            for (std::size_t c = 0; c < width; ++c)
                r.points.row(s, row)[c] = value();
    r.info.backend = "cuda";
    r.info.device = "NVIDIA H200";
    r.info.code_note = "cache hit";
    r.info.notes = {"a note"};
    r.info.warnings = {"a warning"};
    r.info.compile_seconds = 1.0 / 3.0;
    r.info.run_seconds = 12345.678;
    r.info.complete = false;
    return r;
}

} // namespace

TEST_CASE("CSV: the buffered writer's bytes equal the old writer's", "[study][csv]") {
    const std::string study = "{\n  \"bifscope_study\": 1,\n  \"x\": \"a, b\"\n}";
    SECTION("every awkward value in an axis, a scalar and the points") {
        const auto awkward = awkward_values();
        Result r;
        r.analysis = AnalysisKind::ParameterMap;
        r.system_count = awkward.size();
        r.axes = {{"p", awkward}};
        r.status.assign(awkward.size(), SystemStatus::Ok);
        r.status[3] = SystemStatus::NonFinite;
        r.status[4] = SystemStatus::NotRun;
        r.scalars = {{"lambda_max", awkward}};
        std::reverse(r.scalars[0].values.begin(), r.scalars[0].values.end());
        r.points.columns = {"y"};
        r.points.rows_per_system = 1;
        r.points.rows_filled.assign(awkward.size(), 1);
        r.points.values = awkward;
        const std::string csv = csv_of(r, study);
        CHECK(csv == reference_csv_of(r, study));
        // Independent of either writer: specials as to_chars spells them, NaN as an empty cell.
        CHECK(csv.find("\ninf,ok,") != std::string::npos);
        CHECK(csv.find("\n-0,not_run,") != std::string::npos);
        CHECK(csv.find("\n5e-324,ok,") != std::string::npos);
        CHECK(csv.find("\n,ok,") != std::string::npos);
    }
    SECTION("continuation directions, several statuses, partly filled point rows") {
        for (unsigned seed : {1u, 2u, 3u}) {
            const Result r = mixed_result(200, 5, 3, seed);
            CHECK(csv_of(r, study) == reference_csv_of(r, study));
        }
    }
    SECTION("more than one buffer of rows, and rows wider than a buffer") {
        const Result tall = mixed_result(20000, 8, 2, 4);
        const std::string csv = csv_of(tall, study);
        CHECK(csv.size() > (std::size_t{3} << 20));
        CHECK(csv == reference_csv_of(tall, study));
        const Result wide = mixed_result(6, 3, 50000, 5);
        CHECK(csv_of(wide, study) == reference_csv_of(wide, study));
    }
    SECTION("a trajectory: one system, many rows of t and states") {
        Result r;
        r.analysis = AnalysisKind::Trajectory;
        r.system_count = 1;
        r.status = {SystemStatus::StoppedByModel};
        r.points.columns = {"t", "x", "y"};
        r.points.rows_per_system = 3000;
        r.points.rows_filled = {2500};
        for (std::size_t row = 0; row < 3000; ++row) {
            const double t = 0.01 * static_cast<double>(row);
            r.points.values.insert(r.points.values.end(), {t, std::sin(t), std::exp(-t) * 1e-300});
        }
        const std::string csv = csv_of(r, "");
        CHECK(csv == reference_csv_of(r, ""));
        CHECK(csv.find("\nstopped_by_model,2499,24.990000000000002,") != std::string::npos);
    }
    SECTION("no systems, no axes, no columns") {
        Result r;
        CHECK(csv_of(r, "") == reference_csv_of(r, ""));
        r.system_count = 3;
        r.status = {SystemStatus::Ok, SystemStatus::InvalidSetup, SystemStatus::SectionNotReached};
        CHECK(csv_of(r, study) == reference_csv_of(r, study));
    }
}

// Every number read back with std::from_chars (an independent parser) has the bits it was written
// from; NaN is an empty cell.
namespace {

std::vector<double> round_trip_values(std::size_t count) {
    using limits = std::numeric_limits<double>;
    std::vector<double> values = {0.0,
                                  -0.0,
                                  limits::denorm_min(),
                                  -limits::denorm_min(),
                                  limits::min(),
                                  std::nextafter(limits::min(), 0.0),
                                  limits::max(),
                                  -limits::max(),
                                  1e-300,
                                  1e300,
                                  1e5,
                                  99999.0,
                                  -1e5,
                                  1e-5,
                                  123456.0,
                                  0.1,
                                  1e21,
                                  1e22};
    std::mt19937_64 rng(20261123);
    while (values.size() < count) {
        const std::uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (!std::isnan(d)) values.push_back(d);
        // Subnormals: a zero exponent field with a random mantissa.
        const std::uint64_t subnormal = rng() & ((std::uint64_t{1} << 52) - 1);
        std::memcpy(&d, &subnormal, sizeof d);
        values.push_back(rng() % 2 ? d : -d);
    }
    return values;
}

std::uint64_t bits_of(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

std::vector<std::string_view> cells_of(std::string_view line) {
    std::vector<std::string_view> cells;
    for (std::size_t begin = 0;;) {
        const std::size_t comma = line.find(',', begin);
        cells.push_back(line.substr(begin, comma == std::string_view::npos ? comma : comma - begin));
        if (comma == std::string_view::npos) return cells;
        begin = comma + 1;
    }
}

// Parses a cell as from_chars does, empty as NaN; fails the test on anything but a whole number.
double parse_cell(std::string_view cell) {
    if (cell.empty()) return missing_value;
    double d = 0.0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), d);
    REQUIRE(ec == std::errc());
    REQUIRE(end == cell.data() + cell.size());
    return d;
}

} // namespace

TEST_CASE("CSV: every number reads back bit for bit", "[study][csv]") {
    const std::vector<double> values = round_trip_values(30000);
    const std::size_t systems = values.size() / 3;
    Result r;
    r.analysis = AnalysisKind::ParameterMap;
    r.system_count = systems;
    r.axes = {{"p", {}}};
    r.scalars = {{"s", {}}};
    r.status.assign(systems, SystemStatus::Ok);
    r.points.columns = {"y"};
    r.points.rows_per_system = 1;
    r.points.rows_filled.assign(systems, 1);
    for (std::size_t s = 0; s < systems; ++s) {
        r.axes[0].values.push_back(values[3 * s]);
        // Every fifth scalar missing: an empty cell that must read back as missing.
        r.scalars[0].values.push_back(s % 5 == 0 ? missing_value : values[3 * s + 1]);
        r.points.values.push_back(values[3 * s + 2]);
    }
    for (unsigned threads : {1u, 3u}) {
        std::istringstream in(csv_of_threads(r, threads));
        std::string line;
        while (std::getline(in, line) && line.rfind("p,status", 0) != 0) {
        }
        std::size_t system = 0;
        for (; std::getline(in, line); ++system) {
            const auto cells = cells_of(line);
            REQUIRE(cells.size() == 5);
            CHECK(bits_of(parse_cell(cells[0])) == bits_of(r.axes[0].values[system]));
            CHECK(cells[1] == "ok");
            const double scalar = parse_cell(cells[2]);
            if (system % 5 == 0)
                CHECK(std::isnan(scalar));
            else
                CHECK(bits_of(scalar) == bits_of(r.scalars[0].values[system]));
            CHECK(cells[3] == "0");
            CHECK(bits_of(parse_cell(cells[4])) == bits_of(r.points.values[system]));
        }
        CHECK(system == systems);
    }
}

TEST_CASE("CSV: the text does not depend on the formatting thread count", "[study][csv]") {
    const Result r = mixed_result(30000, 6, 2, 9);
    const std::string one = csv_of_threads(r, 1);
    CHECK(one.size() > (std::size_t{2} << 20)); // several chunks per thread
    for (unsigned threads : {2u, 5u, 0u})
        CHECK(csv_of_threads(r, threads) == one);
}
