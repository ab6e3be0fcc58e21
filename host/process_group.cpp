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
#include <fstream>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

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

// The pids of the live ChildGroup leaders (end_adopted leaves them to their owners).
std::set<pid_t>& live_leaders() {
    static std::set<pid_t> leaders;
    return leaders;
}

// The children of this process (from /proc/PID/stat's parent field), sorted.
std::vector<pid_t> children_of_this_process() {
    std::vector<pid_t> out;
    const pid_t self = ::getpid();
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos || name.size() > 9) continue;
        std::ifstream in(e.path() / "stat");
        std::string stat;
        std::getline(in, stat);
        const auto close = stat.rfind(')');  // the command name may hold spaces and parentheses
        if (close == std::string::npos) continue;
        char state = 0;
        long parent = 0;
        if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &parent) != 2) continue;
        if (parent == self) out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

void adopt_orphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }

int end_adopted(pid_t group, int deadline_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(deadline_ms);
    int killed = 0;
    while (Clock::now() < deadline) {
        bool any = false;
        for (const pid_t pid : children_of_this_process()) {
            if (live_leaders().count(pid) != 0) continue;
            any = true;
            ::kill(pid, SIGKILL);
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            ++killed;
        }
        // A descendant is adopted once its parent has died: look again while any was found, and
        // while the group still has members (killed, not yet gone: their children not yet handed over).
        const bool group_left = group > 0 && ::kill(-group, 0) == 0;
        if (!any && !group_left) break;
        if (!any) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return killed;
}

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
    live_leaders().insert(pid);
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
    live_leaders().erase(pid_);
    if (pidfd_ >= 0) ::close(pidfd_);
    pidfd_ = -1;
    pid_ = -1;
    return status_;
}

}  // namespace deskcheck::host
