#include "engine/cuda/compile_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bif::cuda {

namespace {

bool write_all(int fd, const char* data, std::size_t n) {
    while (n > 0) {
        const ssize_t written = ::write(fd, data, n);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += written;
        n -= std::size_t(written);
    }
    return true;
}

[[noreturn]] void child_main(int fd, pid_t parent, const std::function<std::string()>& work,
                             const std::function<std::string(std::exception_ptr)>& on_failure) {
    // dies with the parent, also when the parent died before this line
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    std::string message(1, char(ChildOutcome::Kind::Value));
    try {
        message += work();
    } catch (...) {
        message.assign(1, char(ChildOutcome::Kind::Failure));
        try {
            message += on_failure(std::current_exception());
        } catch (...) {
            message += "the compile failed in its process";
        }
    }
    const bool sent = write_all(fd, message.data(), message.size());
    ::_exit(sent ? 0 : 1); // no atexit handlers, no static destructors of the parent's state
}

} // namespace

std::mutex& in_process_nvrtc_mutex() {
    static std::mutex mutex;
    return mutex;
}

ChildOutcome run_in_child(const std::function<std::string()>& work,
                          const std::function<std::string(std::exception_ptr)>& on_failure,
                          const std::atomic<bool>* cancel, int poll_ms) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot make a pipe for the compile: ") + std::strerror(errno));
    const pid_t parent = ::getpid();
    pid_t pid = -1;
    {
        std::lock_guard lock(in_process_nvrtc_mutex());
        pid = ::fork();
    }
    if (pid == 0) {
        ::close(fds[0]);
        child_main(fds[1], parent, work, on_failure);
    }
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        throw std::runtime_error(std::string("cannot start the compile's process: ") + std::strerror(errno));
    }
    std::string received;
    char buffer[1 << 16];
    bool cancelled = false;
    for (;;) {
        if (cancel && cancel->load()) {
            ::kill(pid, SIGKILL);
            cancelled = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, poll_ms);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // the child closed its end: done or dead
        received.append(buffer, std::size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (cancelled) throw CompileCancelled();
    ChildOutcome outcome;
    const bool whole = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !received.empty();
    if (!whole) {
        outcome.bytes = WIFSIGNALED(status) ? std::string("its process was killed by signal ") +
                                                  std::to_string(WTERMSIG(status))
                                            : std::string("its process ended without a result");
        return outcome;
    }
    outcome.kind = ChildOutcome::Kind(received[0]);
    outcome.bytes = received.substr(1);
    return outcome;
}

} // namespace bif::cuda
