// XPPAUT's own example files (the Debian package's examples/ode) run by `xppaut FILE -silent` and by
// `bifscope-cli run FILE`, each in a folder of its own, several at once. Every file gets an outcome:
//
//   matches        the same files, the same rows, the same times, values within 1e-6 of each
//                  column's largest magnitude (XPPAUT stores floats: 6e-8 is its own rounding)
//   differs        the same files, rows and times; values beyond that
//   times differ   the same files and rows, other times in the first column
//   rows differ    the same files, other row counts
//   wrong files    other output files
//   refused        Bifscope refuses the model (exit 1); the why is its error codes
//   fails          Bifscope fails otherwise
//   xppaut fails   XPPAUT writes nothing
//
// and the table of outcomes is printed. engine/model/LANGUAGE.md lists the outcome expected for
// every file (its section "XPPAUT's example files"); the test fails where an outcome differs from
// the list, and where a refused file is refused for other reasons than the listed error codes. A
// change that turns a file from refused into matches updates that line of the list.
#include "cli_process.h"
#include "xppaut_process.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

using bif::test::have_xppaut;
using bif::test::read_text;
namespace fs = std::filesystem;

namespace {

using Table = std::vector<std::vector<double>>;

Table read_table(const fs::path& file) {
    Table rows;
    std::istringstream in(read_text(file));
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::vector<double> row;
        for (std::string field; fields >> field;)
            row.push_back(std::strtod(field.c_str(), nullptr)); // "nan", "inf" too
        if (!row.empty()) rows.push_back(std::move(row));
    }
    return rows;
}

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The model and the files it names (tables, data), copied into a folder of its own.
void prepare_folder(const fs::path& corpus, const std::string& file, const fs::path& folder) {
    fs::create_directories(folder);
    fs::copy_file(corpus / file, folder / file, fs::copy_options::overwrite_existing);
    const std::string text = lower(read_text(corpus / file));
    for (const auto& entry : fs::directory_iterator(corpus)) {
        const std::string name = entry.path().filename().string();
        const std::string ext = entry.path().extension().string();
        if (name == file || ext == ".ode" || ext == ".gz" || !entry.is_regular_file()) continue;
        if (text.find(lower(name)) != std::string::npos)
            fs::copy_file(entry.path(), folder / name, fs::copy_options::overwrite_existing);
    }
}

std::set<std::string> file_names(const fs::path& folder) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
        names.insert(entry.path().filename().string());
    return names;
}

std::string shell_quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs `command` in `folder` (stdin from /dev/null, output to `log`); returns the exit status.
int run_in(const fs::path& folder, const std::string& command, const std::string& log, int timeout_s) {
    const std::string line = "cd " + shell_quoted(folder.string()) + " && timeout " +
                             std::to_string(timeout_s) + " " + command + " > " + log + " 2>&1 < /dev/null";
    const int status = std::system(line.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Outcome {
    std::string kind;                // one of the outcomes above
    std::set<std::string> codes;     // refused: Bifscope's error codes
    std::string note;                // what differs, for the table
    double worst = 0.0;              // largest difference relative to its column's scale
    std::size_t rows = 0;            // XPPAUT's rows over all its files
    std::set<std::string> xpp_files; // what XPPAUT wrote
    double seconds = 0.0;            // both programs' run time
};

// The largest difference of two tables of the same shape, relative to each column's largest magnitude
// in XPPAUT's table; -1 when the times differ.
double compare_values(const Table& bif, const Table& xpp) {
    const std::size_t width = xpp.empty() ? 0 : xpp[0].size();
    std::vector<double> scale(width, 0.0);
    for (const auto& row : xpp)
        for (std::size_t c = 0; c < width && c < row.size(); ++c)
            if (std::isfinite(row[c])) scale[c] = std::max(scale[c], std::fabs(row[c]));
    double worst = 0.0;
    for (std::size_t i = 0; i < xpp.size(); ++i) {
        if (bif[i].size() != xpp[i].size()) return INFINITY;
        const double t = xpp[i][0];
        if (!(std::fabs(bif[i][0] - t) <= 2e-7 * std::max(1.0, std::fabs(t)))) return -1.0;
        for (std::size_t c = 1; c < xpp[i].size(); ++c) {
            const double a = bif[i][c], b = xpp[i][c];
            if (a == b || (std::isnan(a) && std::isnan(b))) continue;
            worst = std::max(worst, scale[c] > 0.0 ? std::fabs(a - b) / scale[c] : INFINITY);
        }
    }
    return worst;
}

std::set<std::string> error_codes(const std::string& log) {
    static const std::regex code(R"(error: .*\[(E-[a-z-]+)\])");
    std::set<std::string> codes;
    for (auto it = std::sregex_iterator(log.begin(), log.end(), code); it != std::sregex_iterator(); ++it)
        codes.insert((*it)[1]);
    return codes;
}

std::string joined(const std::set<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ",") + i;
    return s;
}

Outcome judge(const fs::path& xpp_dir, const fs::path& bif_dir, const std::set<std::string>& inputs,
              int bif_status) {
    Outcome o;
    for (const auto& name : file_names(xpp_dir))
        if (!inputs.contains(name) && name != "xpp.log") o.xpp_files.insert(name);
    std::set<std::string> bif_files;
    for (const auto& name : file_names(bif_dir))
        if (!inputs.contains(name) && name != "bif.log") bif_files.insert(name);
    const std::string log = read_text(bif_dir / "bif.log");
    if (bif_status == 1) {
        o.kind = "refused";
        o.codes = error_codes(log);
        o.note = joined(o.codes);
        return o;
    }
    for (const auto& f : o.xpp_files)
        o.rows += read_table(xpp_dir / f).size();
    if (o.xpp_files.empty()) return o.kind = "xppaut fails", o;
    if (bif_status != 0) {
        o.kind = "fails";
        o.note = "exit " + std::to_string(bif_status);
        return o;
    }
    if (bif_files != o.xpp_files) {
        o.kind = "wrong files";
        o.note = joined(bif_files) + " for " + joined(o.xpp_files);
        return o;
    }
    o.kind = "matches";
    for (const auto& f : o.xpp_files) {
        const Table xpp = read_table(xpp_dir / f), bif = read_table(bif_dir / f);
        if (bif.size() != xpp.size()) {
            o.kind = "rows differ";
            o.note += f + ": " + std::to_string(bif.size()) + " rows for " + std::to_string(xpp.size()) + " ";
            continue;
        }
        const double worst = compare_values(bif, xpp);
        if (worst < 0.0) {
            if (o.kind != "rows differ") o.kind = "times differ";
            continue;
        }
        o.worst = std::max(o.worst, worst);
    }
    if (o.kind == "matches" && o.worst > 1e-6) o.kind = "differs";
    return o;
}

struct Expected {
    std::string kind;
    std::set<std::string> codes;
    std::string why;
};

// The table of engine/model/LANGUAGE.md's section "XPPAUT's example files": | `file` | outcome | why |
std::map<std::string, Expected> read_expectations(const fs::path& language_md) {
    std::map<std::string, Expected> list;
    std::istringstream in(read_text(language_md));
    bool in_section = false;
    static const std::regex row(R"(^\| `([^`]+\.ode)` \| ([a-z ]+?) \| (.*) \|\s*$)");
    static const std::regex code(R"(E-[a-z-]+)");
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("## ")) in_section = line.find("XPPAUT's example files") != std::string::npos;
        std::smatch m;
        if (!in_section || !std::regex_match(line, m, row)) continue;
        Expected e{m[2], {}, m[3]};
        if (e.kind == "refused") {
            const std::string why = m[3];
            for (auto it = std::sregex_iterator(why.begin(), why.end(), code); it != std::sregex_iterator();
                 ++it)
                e.codes.insert(it->str());
        }
        list[m[1]] = e;
    }
    return list;
}

} // namespace

TEST_CASE("XPPAUT's example files run as the list in LANGUAGE.md says", "[cli][xppaut][corpus]") {
    const fs::path corpus = BIFSCOPE_XPP_EXAMPLES;
    if (!have_xppaut() || !fs::is_directory(corpus)) {
        WARN("xppaut or its examples (" << corpus << ") are missing: the corpus comparison is skipped");
        return;
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(corpus))
        if (entry.path().extension() == ".ode") files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    const std::map<std::string, Expected> expected = read_expectations(BIFSCOPE_LANGUAGE_MD);

    const fs::path work = fs::temp_directory_path() / ("bifscope-xpp-corpus-" + std::to_string(getpid()));
    std::vector<Outcome> outcomes(files.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i; (i = next++) < files.size();) {
            const std::string& f = files[i];
            const fs::path xpp_dir = work / f / "xppaut", bif_dir = work / f / "bifscope";
            prepare_folder(corpus, f, xpp_dir);
            prepare_folder(corpus, f, bif_dir);
            const std::set<std::string> inputs = file_names(xpp_dir);
            const auto start = std::chrono::steady_clock::now();
            // XPPAUT 6.11 crashes now and then on some files (amari2.ode: a segmentation fault in about
            // one run of three, in its fconv); a crash is tried again, a file it never runs stays
            // "xppaut fails"
            for (int attempt = 0; attempt < 4; ++attempt) {
                const int xpp = run_in(xpp_dir, "xppaut " + shell_quoted(f) + " -silent", "xpp.log", 60);
                if (xpp < 128) break; // ran, failed or timed out (124): no retry; 128+n: killed by signal n
            }
            const int status =
                run_in(bif_dir, shell_quoted(BIFSCOPE_CLI) + " run " + shell_quoted(f), "bif.log", 120);
            outcomes[i] = judge(xpp_dir, bif_dir, inputs, status);
            outcomes[i].seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    };
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
    std::vector<std::thread> pool;
    for (unsigned k = 0; k < threads; ++k)
        pool.emplace_back(worker);
    for (auto& t : pool)
        t.join();

    std::map<std::string, int> counts;
    std::ostringstream table;
    table << std::left << std::setw(22) << "file" << std::setw(14) << "outcome" << std::setw(9) << "rows"
          << std::setw(11) << "worst" << std::setw(7) << "secs"
          << "note\n";
    for (std::size_t i = 0; i < files.size(); ++i) {
        const Outcome& o = outcomes[i];
        ++counts[o.kind];
        std::ostringstream worst;
        if (o.kind == "matches" || o.kind == "differs") worst << std::setprecision(2) << o.worst;
        table << std::setw(22) << files[i] << std::setw(14) << o.kind << std::setw(9) << o.rows
              << std::setw(11) << worst.str() << std::setw(7) << std::setprecision(2) << o.seconds << o.note
              << "\n";
    }
    table << files.size() << " files:";
    for (const auto& [kind, n] : counts)
        table << " " << n << " " << kind << ";";
    std::cout << table.str() << std::endl;

    for (std::size_t i = 0; i < files.size(); ++i) {
        const Outcome& o = outcomes[i];
        INFO(files[i] << ": " << o.kind << " " << o.note
                      << "; log: " << (work / files[i] / "bifscope" / "bif.log"));
        const auto e = expected.find(files[i]);
        if (e == expected.end()) {
            FAIL_CHECK("not in LANGUAGE.md's list: add | `" << files[i] << "` | " << o.kind << " | ... |");
            continue;
        }
        CHECK(o.kind == e->second.kind);
        if (o.kind == "refused" && e->second.kind == "refused")
            CHECK(joined(o.codes) == joined(e->second.codes));
    }
    std::error_code ec;
    fs::remove_all(work, ec);
}
