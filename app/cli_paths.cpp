#include "cli_paths.h"

#include "cli_commands.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace bif::cli {

std::string input_named_by(const std::string& path, const std::vector<std::string>& inputs) {
    struct stat target {};
    if (::stat(path.c_str(), &target) != 0) return {}; // nothing there yet, so no input either
    for (const auto& input : inputs) {
        struct stat info {};
        if (::stat(input.c_str(), &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino)
            return input;
    }
    return {};
}

std::string why_output_cannot_be_created(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return "it is a directory";
    std::string probe = path + ".probe-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

std::string partial_path(const std::string& path) {
    return path + ".partial";
}

int write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                     std::ostream& err) {
    const std::string temp = partial_path(path);
    {
        std::ofstream file(temp, std::ios::binary | std::ios::trunc);
        if (file) write(file);
        if (!file) {
            err << "bifscope-cli: cannot write " << path << "\n";
            std::remove(temp.c_str());
            return IoFailure;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        err << "bifscope-cli: cannot write " << path << ": " << ec.message() << "\n";
        return IoFailure;
    }
    return Success;
}

} // namespace bif::cli
