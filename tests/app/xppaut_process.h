// XPPAUT's batch mode (`xppaut MODEL.ode -silent`) run beside bifscope-cli on the same model text, each
// model in a scratch folder of its own, and the rows of numbers both programs write read back.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace bif::test {

using Rows = std::vector<std::vector<double>>;

// Whether xppaut is on the PATH (the comparisons skip with a message where it is not).
bool have_xppaut();

// A folder under the system's temporary directory, named after the process and `name`, removed with
// everything in it when this goes.
struct ScratchFolder {
    std::filesystem::path path;
    explicit ScratchFolder(const std::string& name);
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
};

// The lines of numbers separated by white space, one row a line; lines with none left out.
Rows read_rows(const std::filesystem::path& file);

// The whole file as text ("" where it cannot be read).
std::string read_text(const std::filesystem::path& file);

// XPPAUT's output for `text`, written as NAME.ode in `folder` beside any files already there; reads
// the file the model's @ output names (output.dat unless it says otherwise). A Catch2 assertion
// fails where xppaut does not exit with 0.
Rows run_xppaut(const ScratchFolder& folder, const std::string& name, const std::string& text,
                const std::string& output = "output.dat");

} // namespace bif::test
