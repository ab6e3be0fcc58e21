// R0 on real folders (SPEC; issue 14): the same fixtures on fresh temporary folders
// (host/real_files.h), residue judged from the real folder's bytes, permission bits and tree
// before vs after; a crash (SIGKILL) at every journal write and every effect, recovery from the
// journal alone in a fresh process, a crash during that recovery and recovery again; and other
// tools measured through a process boundary (line-delimited JSON on stdin/stdout,
// schema/r0-adapter-2.schema.json). Every child process leads a process group of its own, killed
// as a whole at the end (host/process_group.h); every loop looks at a stop request (the CLI's
// SIGINT/SIGTERM) between rows, crash points and inside every wait, and then returns what it has,
// marked interrupted, with its temporary workspaces removed.
//
// Only fixtures whose steps are all file steps run on real folders (there is no real desktop).
// Not part of deskcheck_checks (the fuzz targets stay free of POSIX processes): deskcheck_r0_real.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/process_group.h"
#include "host/real_files.h"
#include "harness/r0_bench.h"

namespace deskcheck::r0 {

bool file_only(const sim::R0Fixture& f);

// A workspace: DIR/files (the folder the task acts on) and DIR/journal.jsonl (the tool's journal).
struct Workspace {
    std::string dir;
    std::string root() const { return dir + "/files"; }
    std::string journal() const { return dir + "/journal.jsonl"; }
};
// A fresh temporary workspace holding the fixture's folder; error set on failure.
std::optional<Workspace> make_workspace(const sim::R0Fixture& f, std::string& error);

// Recovery from DIR/journal.jsonl alone (`deskcheck r0 recover DIR`): 0 recovered (every undo
// restored), 1 an undo failed (reported: task, step, path and why, every time until it succeeds),
// 2 DIR is not a workspace (a folder holding the folder files/ and the regular file journal.jsonl,
// none of them a link: checked before anything changes, nothing created) or the journal cannot be
// read (not a regular file, more than journal_lines_max lines, a bad line). `crash` counts events.
struct RecoverOutcome {
    int code = 0;
    std::string message;
    std::vector<std::string> refusals;  // operations refused: their path crossed a link
};
RecoverOutcome recover_workspace(const std::string& dir, host::CrashPlan* crash = nullptr);

// A tool acting on real folders.
class RealTool {
public:
    virtual ~RealTool() = default;
    virtual std::string name() const = 0;
    // "" or an error naming the tool and the request (then the bench stops).
    virtual std::string apply(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at,
                              bool allow_irreversible, ApplyReport& out) = 0;
    virtual std::string undo(const Workspace& ws, ApplyReport& out) = 0;
    virtual std::string journal(const Workspace& ws, std::optional<std::vector<std::string>>& out) = 0;
    // The tool's own file operations, when it can show them (the in-process tool); else empty.
    virtual std::vector<host::OpLog> ops() const { return {}; }
    virtual std::vector<host::OtherFile> others_done() const { return {}; }
    // The end of the bench: "" or an error (an adapter that wrote after its last answer). Every
    // process the tool started is gone afterwards.
    virtual std::string finish() { return ""; }
};

// model/undo.h's tool on a real folder, with its journal in DIR/journal.jsonl; `shim` fails a
// mutation as a full disk would; `others` writes other programs' files.
// `journal_shim` fails a journal append the same way (ENOSPC half-way through the line).
std::unique_ptr<RealTool> make_in_process_tool(host::FaultShim* shim = nullptr, bool others = true,
                                               host::FaultShim* journal_shim = nullptr);

// Another tool through a process boundary: `command` run by /bin/sh -c in a process group of its
// own, one JSON request per line on its stdin (each with "id": 1, 2, ...), one JSON answer per line
// on its stdout carrying the request's id, each written and answered within `timeout_ms`. A late,
// malformed, wrongly numbered or surplus answer is an error naming the adapter and the request, and
// kills the group; so does `stop` (looked at inside every wait), finish() and the destructor.
std::unique_ptr<RealTool> make_process_tool(const std::string& command, int timeout_ms, host::StopRequested stop = {});
inline constexpr int adapter_timeout_ms_default = 5000;
inline constexpr std::size_t adapter_line_bytes_max = 1 << 20;

// Fixtures of real-disk faults (a file replaced by a folder; a name too long), as R0 fixtures.
std::vector<sim::R0Fixture> disk_fault_fixtures();

struct RealBenchResult {
    std::string tool;
    std::vector<R0Row> rows;
    R0Figures figures;
    std::size_t fixtures_run = 0;      // started (the last one unfinished when interrupted)
    std::size_t fixtures_planned = 0;  // file-only fixtures and the disk-fault ones
    std::size_t fixtures_skipped = 0;  // UI steps: no real desktop
    std::string error;                 // the bench stopped: the tool failed to answer
    bool interrupted = false;          // `stop` said stop: the rows so far
};
// Every fixture on fresh folders: a failed post-check at every step; the disk-fault fixtures;
// in-process only: no space (ENOSPC after half the bytes) at every mutation; normal path + undo.
// `stop`: looked at before every row and inside every wait for the adapter.
RealBenchResult run_real_bench(const std::string& tool_command, const std::vector<sim::R0Fixture>& fixtures,
                               int timeout_ms = adapter_timeout_ms_default, const host::StopRequested& stop = {});

struct CrashRow {
    std::string fixture;
    std::string mode;                  // "normal path", "step k fails"
    std::uint64_t crash_points = 0;    // task killed at each
    std::uint64_t restored = 0;        // folder identical to before the task after recovery
    std::uint64_t recovery_crashes = 0;  // recovery itself killed, then run again
    std::vector<std::string> failures;   // the first few
};
struct CrashResult {
    std::vector<CrashRow> rows;
    std::uint64_t crash_points = 0, restored = 0, recovery_crashes = 0;
    std::string error;
    bool interrupted = false;  // `stop` said stop: the rows so far (the last one partial)
    bool pass() const { return error.empty() && !interrupted && restored == crash_points && crash_points > 0; }
};
// For every file-only fixture and mode (normal path; failure at each step), the task is killed at
// every event in a child process; recovery runs in a fresh process (`recover_exe r0 recover DIR`,
// or a forked child when recover_exe is empty), once killed at event ((N-1) mod 7)+1, then to the
// end. `only` (when set): one crash point per mode, drawn from `seed` — the CI smoke test.
// The task and each recovery lead process groups of their own, killed as a whole when they end,
// when one runs past child_deadline_ms, and on `stop` (looked at while waiting for them).
CrashResult run_crash_bench(const std::vector<sim::R0Fixture>& fixtures, const std::string& recover_exe,
                            std::optional<std::uint64_t> seed_one_point = std::nullopt, const host::StopRequested& stop = {});
inline constexpr int crash_child_deadline_ms = 60'000;

}  // namespace deskcheck::r0
