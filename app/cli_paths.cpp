#include "cli_paths.h"

#include "cli_commands.h"

#include <cerrno>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <sys/stat.h>

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

int check_output_path(const std::string& out_path, const std::vector<std::string>& inputs,
                      std::ostream& err) {
    std::string why;
    const bool regular = study::output_kind(out_path, why) == study::OutputKind::File;
    std::vector<std::string> targets{out_path};
    if (regular) targets.push_back(partial_path(out_path));
    for (const std::string& target : targets) {
        if (const std::string input = input_named_by(target, inputs); !input.empty()) {
            err << "bifscope-cli: refusing to write to " << target << ": it is " << input
                << ", an input of this run\n";
            return Usage;
        }
    }
    if (const std::string cannot = study::why_output_cannot_be_written(out_path); !cannot.empty()) {
        err << "bifscope-cli: cannot write " << out_path << ": " << cannot << "\n";
        return IoFailure;
    }
    return Success;
}

int write_output(const std::string& path, const std::function<void(std::ostream&)>& write,
                 std::ostream& err) {
    std::string why;
    try {
        study::OutputFile file(path);
        write(file.stream());
        why = file.commit();
    } catch (const std::exception& e) {
        why = e.what();
    }
    if (why.empty()) return Success;
    err << "bifscope-cli: cannot write " << path << ": " << why << "\n";
    return IoFailure;
}

int flush_result(std::ostream& out, std::ostream& err) {
    errno = 0;
    if (out.flush()) return Success;
    err << "bifscope-cli: cannot write the result to standard output"
        << (errno ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
    return IoFailure;
}

} // namespace bif::cli
