// Where output goes by what its path names: a regular file whole or not at all, a device or FIFO
// written in place and left what it is, every write error reported with its reason.
#include "engine/study/output_file.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace bif::study;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("bifscope-output-test-" + std::to_string(getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

mode_t mode_of(const fs::path& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info.st_mode;
}

} // namespace

TEST_CASE("a regular file is written whole through its partial file, or left as it was", "[output]") {
    TempDir dir;
    const fs::path target = dir.path / "result.csv";
    std::ofstream(target) << "old";
    {
        OutputFile file(target.string());
        CHECK(file.kind() == OutputKind::File);
        file.stream() << "new contents";
        CHECK(read(target) == "old"); // nothing visible before the commit
        CHECK(fs::exists(partial_path(target.string())));
        CHECK(file.commit().empty());
    }
    CHECK(read(target) == "new contents");
    CHECK_FALSE(fs::exists(partial_path(target.string())));
    {
        OutputFile abandoned(target.string());
        abandoned.stream() << "half";
    }
    CHECK(read(target) == "new contents");
    CHECK_FALSE(fs::exists(partial_path(target.string())));
}

TEST_CASE("a FIFO is written in place: its reader gets every byte and it stays a FIFO", "[output]") {
    TempDir dir;
    const fs::path fifo = dir.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string text;
    for (int i = 0; i < 100000; ++i)
        text += std::to_string(i) + "\n"; // far more than a pipe holds
    std::string received;
    std::thread reader([&] { received = read(fifo); });
    CHECK(why_output_cannot_be_written(fifo.string()).empty()); // the probe must not end the output
    CHECK(write_output(fifo.string(), text).empty());
    reader.join();
    CHECK(received == text);
    CHECK(S_ISFIFO(mode_of(fifo)));
    CHECK_FALSE(fs::exists(partial_path(fifo.string())));
}

TEST_CASE("a character device is written in place and stays a device", "[output]") {
    std::string why;
    CHECK(output_kind("/dev/null", why) == OutputKind::Stream);
    CHECK(why.empty());
    CHECK(write_output("/dev/null", "rows\n").empty());
    CHECK(S_ISCHR(mode_of("/dev/null")));
    CHECK_FALSE(fs::exists("/dev/null.partial"));
}

TEST_CASE("a write error is reported with its reason, never as success", "[output]") {
    if (!fs::exists("/dev/full")) return; // Linux's device that fails every write with ENOSPC
    const std::string why = write_output("/dev/full", std::string(1 << 20, 'x'));
    CHECK(why == std::strerror(ENOSPC));
    CHECK(S_ISCHR(mode_of("/dev/full")));
    CHECK(why_output_cannot_be_written("/dev/full").empty()); // it opens: the failure is the write's
}

TEST_CASE("paths that can take no output say why before anything is written", "[output]") {
    TempDir dir;
    std::string why;
    output_kind(dir.path.string(), why);
    CHECK(why == "it is a directory");
    CHECK(why_output_cannot_be_written(dir.path.string()) == "it is a directory");
    CHECK_FALSE(why_output_cannot_be_written((dir.path / "no-such-folder" / "x.csv").string()).empty());
    CHECK_FALSE(write_output(dir.path.string(), "x").empty());
    CHECK(fs::is_directory(dir.path));
    // a FIFO nobody reads yet can still take output once its reader comes: no error, no wait
    const fs::path fifo = dir.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(why_output_cannot_be_written(fifo.string()).empty());
}

TEST_CASE("\"-\" is standard output, written where it points", "[output]") {
    TempDir dir;
    const fs::path captured = dir.path / "stdout.txt";
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        std::FILE* f = std::freopen(captured.c_str(), "w", stdout);
        const bool ok = f && write_output("-", "to stdout\n").empty();
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(read(captured) == "to stdout\n");
}

TEST_CASE("a Unix socket takes the output through a connection and stays a socket", "[output]") {
    TempDir dir;
    const fs::path socket_path = dir.path / "listen.sock";
    const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(listener >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
    REQUIRE(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener, 1) == 0);
    std::string received;
    std::thread server([&] {
        const int connection = ::accept(listener, nullptr, nullptr);
        char buffer[4096];
        for (ssize_t n; (n = ::read(connection, buffer, sizeof buffer)) > 0;)
            received.append(buffer, std::size_t(n));
        ::close(connection);
    });
    std::string why;
    CHECK(output_kind(socket_path.string(), why) == OutputKind::Stream);
    CHECK(write_output(socket_path.string(), "over the socket\n").empty());
    server.join();
    ::close(listener);
    CHECK(received == "over the socket\n");
    CHECK(S_ISSOCK(mode_of(socket_path)));
}
