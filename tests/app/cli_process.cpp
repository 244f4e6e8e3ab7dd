#include "cli_process.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bif::test {

namespace {

void drain(int fd, std::string& into) {
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) return;
        into.append(buffer, static_cast<std::size_t>(n));
    }
}

} // namespace

CliOutcome run_cli(const std::vector<std::string>& args, int interrupt_after_ms, int timeout_s, int signal) {
    int out_pipe[2], err_pipe[2];
    CliOutcome outcome;
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return outcome;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]);
        close(err_pipe[0]);
        std::vector<char*> argv{const_cast<char*>(BIFSCOPE_CLI)};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(BIFSCOPE_CLI, argv.data());
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
    const auto start = std::chrono::steady_clock::now();
    bool interrupted = false;
    int status = 0;
    for (;;) {
        pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
        poll(fds, 2, 10);
        drain(out_pipe[0], outcome.out);
        drain(err_pipe[0], outcome.err);
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                .count();
        if (!interrupted && interrupt_after_ms >= 0 && ms >= interrupt_after_ms) {
            kill(pid, signal);
            interrupted = true;
        }
        if (ms > timeout_s * 1000) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
    }
    drain(out_pipe[0], outcome.out);
    drain(err_pipe[0], outcome.err);
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
    return outcome;
}

} // namespace bif::test
