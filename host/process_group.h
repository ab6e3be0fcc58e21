// Child processes that never outlive deskcheck (issue 25). Each child leads a process group of its
// own; its owner ends the whole group — SIGKILL to -pgid, sent while the leader is still unreaped
// (a zombie keeps the group id taken, so the signal cannot reach a stranger), then the leader is
// reaped — at a normal end, on a timeout, on a protocol error and on a stop request (the CLI's
// SIGINT/SIGTERM). Every wait looks at the stop request at least every `stop_poll_ms`.
//
// The leader also gets PR_SET_PDEATHSIG(SIGKILL): if deskcheck itself is killed (SIGKILL, no
// cleanup), the leader dies with it. A descendant that leaves the group (setsid, setpgid: a
// daemon) is caught by adopt_orphans / end_adopted below: once its parent is gone it is
// deskcheck's child, and killed. What still escapes: a descendant that makes itself a subreaper
// (PR_SET_CHILD_SUBREAPER) and whose children leave; a process started for the adapter by another
// service (systemd-run, at, a D-Bus activation: not a descendant); and, when deskcheck itself is
// SIGKILLed, every descendant but the leader (no cleanup runs; only the leader has the death signal).
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace deskcheck::host {

// True once the owner must stop (SIGINT/SIGTERM recorded by the CLI); empty: never.
using StopRequested = std::function<bool()>;
inline bool stop_now(const StopRequested& stop) { return stop && stop(); }
inline constexpr int stop_poll_ms = 100;

class ChildGroup {
public:
    ChildGroup() = default;
    // Forks. The child leads a new process group, dies with its parent, has SIGINT, SIGTERM and
    // SIGPIPE at their defaults and no signal blocked, then runs `child`, which must exec or _exit
    // (returning from it is _exit(127)). Not started (running() false) and `error` set on failure.
    static ChildGroup start(const std::function<void()>& child, std::string& error);
    ~ChildGroup();
    ChildGroup(ChildGroup&& other) noexcept;
    ChildGroup& operator=(ChildGroup&& other) noexcept;
    ChildGroup(const ChildGroup&) = delete;
    ChildGroup& operator=(const ChildGroup&) = delete;

    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }

    enum class Wait { Exited, TimedOut, Stopped };
    // Waits until the leader has ended (left unreaped), `timeout_ms` passed (negative: no
    // timeout), or `stop` says stop.
    Wait wait_leader(int timeout_ms, const StopRequested& stop);
    // SIGKILL to the whole group, then the leader reaped; its wait status (as waitpid gives it).
    // Once ended, the object holds no child; calling it again returns the same status.
    int end();

private:
    bool leader_exited();
    pid_t pid_ = -1;
    int pidfd_ = -1;  // -1 where the kernel has no pidfd_open: then a WNOHANG poll
    int status_ = 0;
};

// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER): a
// descendant whose parent dies is reparented here instead of to init. Idempotent.
void adopt_orphans();
// After a ChildGroup `group` (its leader's pid) has ended: kills (SIGKILL) and reaps every child of
// this process that no live ChildGroup leads — the descendants adopted since adopt_orphans() —
// round after round (their own children are adopted in turn, and a member of the group, dying,
// hands its children over) until none is left and the group is empty, or `deadline_ms` passed;
// how many were killed. Only for a process whose every other child is a ChildGroup leader.
int end_adopted(pid_t group, int deadline_ms = 1000);

// The status of a child: died of SIGKILL; its exit code (-1 when it did not exit).
int exit_code_of(int status);
bool died_of_sigkill(int status);

}  // namespace deskcheck::host
