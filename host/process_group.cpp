// Child processes that never outlive deskcheck (host/process_group.h).
#include "host/process_group.h"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <utility>

namespace deskcheck::host {
namespace {

using Clock = std::chrono::steady_clock;

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    const long fd = ::syscall(SYS_pidfd_open, pid, 0);
    return fd >= 0 ? static_cast<int>(fd) : -1;
#else
    (void)pid;
    return -1;
#endif
}

// In the child, before `child` runs: its own group, death with the parent, default signals.
void become_leader(pid_t parent) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before the death signal was set
    for (int s : {SIGINT, SIGTERM, SIGPIPE}) std::signal(s, SIG_DFL);  // exec keeps SIG_IGN: reset it
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

}  // namespace

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
bool died_of_sigkill(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL; }

ChildGroup ChildGroup::start(const std::function<void()>& child, std::string& error) {
    ChildGroup g;
    const pid_t parent = ::getpid();
    std::fflush(nullptr);  // the child must not write the parent's buffered output again
    const pid_t pid = ::fork();
    if (pid < 0) {
        error = std::string("fork: ") + std::strerror(errno);
        return g;
    }
    if (pid == 0) {
        become_leader(parent);
        child();
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also here: no window where a kill of -pid misses it (EACCES after exec is fine)
    g.pid_ = pid;
    g.pidfd_ = open_pidfd(pid);
    return g;
}

ChildGroup::~ChildGroup() { end(); }

ChildGroup::ChildGroup(ChildGroup&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), pidfd_(std::exchange(other.pidfd_, -1)), status_(other.status_) {}

ChildGroup& ChildGroup::operator=(ChildGroup&& other) noexcept {
    if (this != &other) {
        end();
        pid_ = std::exchange(other.pid_, -1);
        pidfd_ = std::exchange(other.pidfd_, -1);
        status_ = other.status_;
    }
    return *this;
}

bool ChildGroup::leader_exited() {
    siginfo_t info{};
    const int rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
    return rc == 0 && info.si_pid == pid_;
}

ChildGroup::Wait ChildGroup::wait_leader(int timeout_ms, const StopRequested& stop) {
    if (pid_ <= 0) return Wait::Exited;
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    for (;;) {
        if (leader_exited()) return Wait::Exited;
        if (stop_now(stop)) return Wait::Stopped;
        int slice = stop_poll_ms;
        if (timeout_ms >= 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return Wait::TimedOut;
            slice = static_cast<int>(std::min<long long>(left, slice));
        }
        if (pidfd_ >= 0) {
            pollfd p{pidfd_, POLLIN, 0};
            ::poll(&p, 1, slice);  // readable when the leader has ended; EINTR: look again
        } else {
            ::usleep(static_cast<useconds_t>(std::min(slice, 5) * 1000));
        }
    }
}

int ChildGroup::end() {
    if (pid_ <= 0) return status_;
    ::kill(-pid_, SIGKILL);  // the leader is unreaped: the group id is still ours
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    status_ = status;
    if (pidfd_ >= 0) ::close(pidfd_);
    pidfd_ = -1;
    pid_ = -1;
    return status_;
}

}  // namespace deskcheck::host
