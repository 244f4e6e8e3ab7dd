#include "xppaut_process.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace bif::test {

bool have_xppaut() {
    return std::system("command -v xppaut > /dev/null 2>&1") == 0;
}

ScratchFolder::ScratchFolder(const std::string& name) {
    path = fs::temp_directory_path() / ("bifscope-xpp-" + std::to_string(getpid()) + "-" + name);
    fs::create_directories(path);
}

ScratchFolder::~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
}

Rows read_rows(const fs::path& file) {
    Rows rows;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::vector<double> row;
        for (double v; fields >> v;)
            row.push_back(v);
        if (!row.empty()) rows.push_back(row);
    }
    return rows;
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

Rows run_xppaut(const ScratchFolder& folder, const std::string& name, const std::string& text,
                const std::string& output) {
    std::ofstream(folder.path / (name + ".ode")) << text;
    fs::remove(folder.path / output);
    const std::string command =
        "cd '" + folder.path.string() + "' && xppaut " + name + ".ode -silent > /dev/null 2>&1 < /dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
    return read_rows(folder.path / output);
}

} // namespace bif::test
