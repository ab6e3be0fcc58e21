// R0 on real folders, crashes at every point, tools through a process boundary (properties/r0_real.h).
#include "properties/r0_real.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cassert>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "host/journal_read.h"
#include "model/undo.h"
#include "properties/r0_adapter_answer.h"
#include "sim/r0_fixture_json.h"

namespace deskcheck::r0 {
namespace {

using Json = nlohmann::ordered_json;

std::vector<host::OtherFile> others_of(const sim::R0Fixture& f) {
    std::vector<host::OtherFile> out;
    for (const auto& o : f.others) out.push_back({o.after_op, o.path, o.bytes});
    return out;
}

std::string task_id_of(const sim::R0Fixture& f) { return "r0-" + f.name + "-1"; }

PostCheck failing_at(std::optional<std::uint32_t> fail_at) {
    return [fail_at](std::uint32_t step) -> std::optional<std::string> {
        if (fail_at && step == *fail_at) return "injected failure (R0 bench)";
        return std::nullopt;
    };
}

// The task in this process on the workspace; `crash` counts events (the crash harness's child).
TaskReport run_task(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, bool allow,
                    host::CrashPlan* crash) {
    host::RealFiles files(ws.root(), crash);
    host::FileJournal journal(ws.journal(), crash);
    UndoTool tool(UndoPorts{&files, nullptr, &journal});
    return tool.run(Task{task_id_of(f), f.steps, allow}, failing_at(fail_at));
}

class InProcessTool final : public RealTool {
public:
    InProcessTool(host::FaultShim* shim, bool others, host::FaultShim* journal_shim)
        : shim_(shim), journal_shim_(journal_shim), others_(others) {}
    std::string name() const override { return "deskcheck (in process, real folders)"; }
    std::string apply(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, bool allow,
                      ApplyReport& out) override {
        files_ = std::make_unique<host::RealFiles>(ws.root(), nullptr, shim_);
        if (others_) files_->set_others(others_of(f));
        journal_ = std::make_unique<host::FileJournal>(ws.journal(), nullptr, journal_shim_);
        tool_ = std::make_unique<UndoTool>(UndoPorts{files_.get(), nullptr, journal_.get()});
        task_ = task_id_of(f);
        out = apply_report_of(tool_->run(Task{task_, f.steps, allow}, failing_at(fail_at)));
        return "";
    }
    std::string undo(const Workspace&, ApplyReport& out) override {
        assert(tool_ != nullptr);
        out = apply_report_of(tool_->undo(task_));
        return "";
    }
    std::string journal(const Workspace& ws, std::optional<std::vector<std::string>>& out) override {
        out = host::read_journal_lines(ws.journal());
        return out ? "" : "cannot read " + ws.journal();
    }
    std::vector<host::OpLog> ops() const override { return files_ ? files_->ops() : std::vector<host::OpLog>{}; }
    std::vector<host::OtherFile> others_done() const override {
        return files_ ? files_->others_done() : std::vector<host::OtherFile>{};
    }

private:
    host::FaultShim* shim_;
    host::FaultShim* journal_shim_;
    bool others_;
    std::unique_ptr<host::RealFiles> files_;
    std::unique_ptr<host::FileJournal> journal_;
    std::unique_ptr<UndoTool> tool_;
    std::string task_;
};

// ---- another tool through a process boundary (R-8) ----

std::string clip(const std::string& s, std::size_t n = 200) { return s.size() > n ? s.substr(0, n) + "..." : s; }

class ProcessTool final : public RealTool {
public:
    ProcessTool(std::string command, int timeout_ms) : command_(std::move(command)), timeout_ms_(timeout_ms) {
        std::signal(SIGPIPE, SIG_IGN);  // an adapter that exits early gives EPIPE, an error value, not a dead bench
    }
    ~ProcessTool() override { stop(); }
    ProcessTool(const ProcessTool&) = delete;
    ProcessTool& operator=(const ProcessTool&) = delete;
    std::string name() const override { return command_; }

    std::string apply(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, bool allow,
                      ApplyReport& out) override {
        Json req{{"op", "apply"}, {"root", ws.root()}, {"steps", sim::r0_fixture_to_json(f)["steps"]},
                 {"fail_at", fail_at ? Json(*fail_at) : Json(nullptr)}, {"allow_irreversible", allow}};
        Json ans;
        if (std::string e = request(req, ans); !e.empty()) return e;
        return read_report(req, ans, out);
    }
    std::string undo(const Workspace& ws, ApplyReport& out) override {
        Json req{{"op", "undo"}, {"root", ws.root()}};
        Json ans;
        if (std::string e = request(req, ans); !e.empty()) return e;
        return read_report(req, ans, out);
    }
    std::string journal(const Workspace& ws, std::optional<std::vector<std::string>>& out) override {
        Json req{{"op", "journal"}, {"root", ws.root()}};
        Json ans;
        if (std::string e = request(req, ans); !e.empty()) return e;
        if (!ans.contains("lines")) return where(req) + ": the answer has no \"lines\" (an array of strings, or null): " + clip(ans.dump());
        if (ans["lines"].is_null()) {
            out = std::nullopt;
            return "";
        }
        if (!ans["lines"].is_array()) return where(req) + ": \"lines\" is neither an array nor null";
        std::vector<std::string> lines;
        for (const Json& l : ans["lines"]) {
            if (!l.is_string()) return where(req) + ": a journal line is not a string";
            lines.push_back(l.get<std::string>());
        }
        out = std::move(lines);
        return "";
    }

private:
    std::string where(const Json& req) const { return "adapter `" + command_ + "`, request " + clip(req.dump(), 160); }

    std::string read_report(const Json& req, const Json& ans, ApplyReport& out) const {
        auto steps = [&](const char* key, std::vector<std::uint32_t>& into) -> bool {
            if (!ans.contains(key)) return true;
            if (!ans[key].is_array()) return false;
            for (const Json& s : ans[key]) {
                if (!s.is_number_unsigned()) return false;
                into.push_back(s.get<std::uint32_t>());
            }
            return true;
        };
        std::vector<std::uint32_t> executed;
        if (!ans.contains("executed") || !ans.contains("rolled_back")) return where(req) + ": the answer lacks \"executed\" / \"rolled_back\": " + clip(ans.dump());
        if (!steps("executed", executed) || !steps("rolled_back", out.restored_steps) || !steps("undo_failed", out.undo_failed_steps) ||
            !steps("not_undoable", out.not_undoable_steps))
            return where(req) + ": step lists must be arrays of step numbers: " + clip(ans.dump());
        out.executed = executed.size();
        out.rolled_back = out.restored_steps.size();
        out.task_id = ans.contains("task") && ans["task"].is_string() ? ans["task"].get<std::string>() : "";
        out.finished = ans.value("finished", false);
        out.refused = ans.value("refused", false);
        return "";
    }

    std::string start() {
        int in[2];
        int outp[2];
        if (::pipe2(in, O_CLOEXEC) != 0) return "adapter `" + command_ + "`: pipe failed";
        if (::pipe2(outp, O_CLOEXEC) != 0) {
            ::close(in[0]);
            ::close(in[1]);
            return "adapter `" + command_ + "`: pipe failed";
        }
        std::fflush(nullptr);
        pid_ = ::fork();
        if (pid_ < 0) return "adapter `" + command_ + "`: fork failed";
        if (pid_ == 0) {
            ::setpgid(0, 0);
            ::dup2(in[0], 0);
            ::dup2(outp[1], 1);
            ::execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::setpgid(pid_, pid_);
        ::close(in[0]);
        ::close(outp[1]);
        to_ = in[1];
        from_ = outp[0];
        return "";
    }

    void stop() {
        if (pid_ <= 0) return;
        if (to_ >= 0) ::close(to_);
        to_ = -1;
        int status = 0;
        for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) ::usleep(10'000);  // up to 1 s to leave
        if (::waitpid(pid_, &status, WNOHANG) == 0) {
            ::kill(-pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
        if (from_ >= 0) ::close(from_);
        from_ = -1;
        pid_ = -1;
    }

    void kill_now() {
        if (pid_ <= 0) return;
        ::kill(-pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        if (to_ >= 0) ::close(to_);
        if (from_ >= 0) ::close(from_);
        to_ = from_ = -1;
        pid_ = -1;
    }

    // One request line out, one answer line back within the timeout (a poll with a deadline).
    std::string request(const Json& req, Json& ans) {
        if (pid_ <= 0) {
            if (std::string e = start(); !e.empty()) return e;
        }
        const std::string line = req.dump() + "\n";
        std::size_t sent = 0;
        while (sent < line.size()) {
            const ssize_t n = ::write(to_, line.data() + sent, line.size() - sent);
            if (n <= 0) {
                kill_now();
                return where(req) + ": the adapter closed its stdin (exited?) before the request was sent";
            }
            sent += static_cast<std::size_t>(n);
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
        for (;;) {
            const auto nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                const std::string text = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                std::string why;
                ans = decode_adapter_answer(text, why);
                if (ans.is_discarded()) {
                    kill_now();
                    return where(req) + ": the answer " + why + ": " + clip(text);
                }
                if (ans.contains("error") && ans["error"].is_string()) return where(req) + ": the adapter answered an error: " + ans["error"].get<std::string>();
                return "";
            }
            if (buffer_.size() > adapter_line_bytes_max) {
                kill_now();
                return where(req) + ": an answer line longer than " + std::to_string(adapter_line_bytes_max) + " bytes";
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0) {
                kill_now();
                return where(req) + ": no answer within " + std::to_string(timeout_ms_) + " ms (the adapter was killed)";
            }
            pollfd p{from_, POLLIN, 0};
            const int rc = ::poll(&p, 1, static_cast<int>(left));
            if (rc < 0 && errno == EINTR) continue;
            if (rc <= 0) continue;
            char buf[4096];
            const ssize_t n = ::read(from_, buf, sizeof buf);
            if (n <= 0) {
                kill_now();
                return where(req) + ": the adapter closed its stdout (exited) without answering";
            }
            buffer_.append(buf, static_cast<std::size_t>(n));
        }
    }

    std::string command_;
    int timeout_ms_;
    pid_t pid_ = -1;
    int to_ = -1;
    int from_ = -1;
    std::string buffer_;
};

// ---- judging a real run ----

sim::FsTree to_fs_tree(const host::RealTree& t) {
    sim::FsTree out;
    for (const auto& [path, e] : t) out[path] = sim::FsEntry{e.kind == 'd', e.kind == 'd' ? "" : e.kind == 'f' ? e.bytes : "<" + std::string(1, e.kind) + ">" + e.bytes};
    return out;
}

// Permission bits of what existed before must be as they were (the tree and bytes: judge_r0_run).
std::vector<std::string> mode_diff(const host::RealTree& before, const host::RealTree& after) {
    std::vector<std::string> out;
    for (const auto& [path, e] : before) {
        const auto it = after.find(path);
        if (it == after.end() || it->second.kind != e.kind || it->second.mode == e.mode) continue;
        char buf[96];
        std::snprintf(buf, sizeof buf, ": mode %04o, expected %04o", it->second.mode, e.mode);
        out.push_back("residue: " + path + buf);
    }
    return out;
}

struct RealRun {
    host::RealTree before, after;
    ApplyReport report;
    std::optional<std::vector<std::string>> journal;
    std::vector<host::OpLog> ops;
    std::vector<host::OtherFile> others_done;
    bool finished = true;
};

R0Run as_r0_run(const sim::R0Fixture& f, const RealRun& r, std::optional<std::uint32_t> fail_at, bool normal) {
    R0Run run;
    run.fixture = &f;
    run.allow_irreversible = normal ? true : f.allow_irreversible;
    run.failed_after_step = fail_at;
    run.normal_then_undo = normal;
    run.normal_finished = r.finished;
    run.final_state.fs = to_fs_tree(r.after);
    run.final_state.windows = f.initial.windows;
    for (std::size_t i = 0; i < r.ops.size(); ++i) run.truth.ops.push_back({i + 1, r.ops[i].what, r.ops[i].path, r.ops[i].result});
    for (const auto& o : r.others_done) run.truth.others_done.push_back({o.after_op, o.path, o.bytes});
    run.report = r.report;
    run.journal = r.journal;
    return run;
}

// One run on a fresh workspace: apply (fail at `fail_at`), and for the normal path undo after.
std::string real_run(RealTool& tool, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, bool normal, RealRun& out) {
    std::string error;
    const auto ws = make_workspace(f, error);
    if (!ws) return error;
    std::string e;
    if (auto t = host::snapshot_tree(ws->root(), e)) out.before = *t;
    if (e.empty()) {
        ApplyReport applied;
        e = tool.apply(*ws, f, fail_at, normal ? true : f.allow_irreversible, applied);
        out.report = applied;
        out.finished = applied.finished;
        if (e.empty() && normal && applied.finished) e = tool.undo(*ws, out.report);
        if (e.empty()) e = tool.journal(*ws, out.journal);
        out.ops = tool.ops();
        out.others_done = tool.others_done();
        if (e.empty()) {
            if (auto t = host::snapshot_tree(ws->root(), e)) out.after = *t;
        }
    }
    host::remove_tree(ws->dir);
    return e;
}

R0Row judge_real(const sim::R0Fixture& f, RowKind kind, std::string point, const RealRun& r, std::optional<std::uint32_t> fail_at) {
    const bool normal = kind == RowKind::Normal;
    const R0Run run = as_r0_run(f, r, fail_at, normal);
    R0Row row;
    row.fixture = f.name;
    row.kind = kind;
    row.point = std::move(point);
    row.executed = r.report.executed;
    row.rolled_back = r.report.rolled_back;
    row.refused = r.report.refused;
    row.judgement = judge_r0_run(run);
    for (auto& m : mode_diff(r.before, r.after)) {
        row.judgement.residue = false;
        row.judgement.why.push_back(std::move(m));
    }
    row.pass = row.judgement.all();
    if (normal && !r.finished) {
        bool can_finish = true;
        for (std::size_t i = 0; i < f.steps.size(); ++i) can_finish = can_finish && reference_before(f.initial, f.steps, i).has_value();
        row.pass = false;
        row.applicable = can_finish;
        row.note = can_finish ? "the normal path did not finish, though it can" : "n/a: the task cannot finish here";
    }
    return row;
}

}  // namespace

bool file_only(const sim::R0Fixture& f) {
    for (const TaskStep& s : f.steps) {
        if (!is_file_op(s.op)) return false;
    }
    return !f.steps.empty();
}

std::optional<Workspace> make_workspace(const sim::R0Fixture& f, std::string& error) {
    const std::string dir = host::make_temp_folder("deskcheck-r0", error);
    if (dir.empty()) return std::nullopt;
    Workspace ws{dir};
    std::map<std::string, std::pair<bool, std::string>> files;
    for (const auto& [path, e] : f.initial.fs) files[path] = {e.folder, e.bytes};
    if (::mkdir(ws.root().c_str(), 0755) != 0 || ::chmod(ws.root().c_str(), 0755) != 0 || !host::populate(ws.root(), files, error)) {
        if (error.empty()) error = ws.root() + ": cannot create it";
        host::remove_tree(dir);
        return std::nullopt;
    }
    return ws;
}

RecoverOutcome recover_workspace(const std::string& dir, host::CrashPlan* crash) {
    const Workspace ws{dir};
    const auto lines = host::read_journal_lines(ws.journal());
    if (!lines) return {2, ws.journal() + ": cannot read it"};
    const host::EntriesOrError parsed = host::parse_journal(*lines);
    if (!parsed.error.empty()) return {2, ws.journal() + ": " + parsed.error};
    host::RealFiles files(ws.root(), crash);
    host::FileJournal journal(ws.journal(), crash);
    UndoTool tool(UndoPorts{&files, nullptr, &journal});
    const std::vector<TaskReport> reports = tool.recover(parsed.entries);
    std::size_t restored = 0;
    for (const TaskReport& r : reports) {
        restored += r.restored();
        if (r.undo_failed() > 0) return {1, "task " + r.task_id + ": " + r.error};
    }
    return {0, std::to_string(reports.size()) + " task(s) recovered, " + std::to_string(restored) + " step(s) undone"};
}

std::unique_ptr<RealTool> make_in_process_tool(host::FaultShim* shim, bool others, host::FaultShim* journal_shim) {
    return std::make_unique<InProcessTool>(shim, others, journal_shim);
}

std::unique_ptr<RealTool> make_process_tool(const std::string& command, int timeout_ms) {
    return std::make_unique<ProcessTool>(command, timeout_ms);
}

std::vector<sim::R0Fixture> disk_fault_fixtures() {
    std::vector<sim::R0Fixture> out;
    sim::R0Fixture folder;
    folder.name = "disk-file-replaced-by-folder";
    folder.summary = "step 2 writes report.txt, which a folder has replaced: EISDIR; step 1 must be undone";
    folder.initial.fs["report.txt"] = sim::FsEntry{true, ""};
    folder.initial.fs["report.txt/keep.md"] = sim::FsEntry{false, "kept"};
    folder.steps.push_back(TaskStep{StepOp::FileWrite, "out/a.txt", "", "alpha", no_window, 0, "", {}});
    folder.steps.push_back(TaskStep{StepOp::FileWrite, "report.txt", "", "beta", no_window, 0, "", {}});
    out.push_back(folder);
    sim::R0Fixture longname;
    longname.name = "disk-name-too-long";
    longname.summary = "step 2 writes a 300-byte name: ENAMETOOLONG; step 1 must be undone";
    longname.initial.fs["a.txt"] = sim::FsEntry{false, "before"};
    longname.steps.push_back(TaskStep{StepOp::FileWrite, "a.txt", "", "after", no_window, 0, "", {}});
    longname.steps.push_back(TaskStep{StepOp::FileWrite, "new/" + std::string(300, 'n') + ".txt", "", "x", no_window, 0, "", {}});
    out.push_back(longname);
    return out;
}

RealBenchResult run_real_bench(const std::string& tool_command, const std::vector<sim::R0Fixture>& fixtures, int timeout_ms) {
    RealBenchResult out;
    const bool in_process = tool_command.empty();
    std::unique_ptr<RealTool> external = in_process ? nullptr : make_process_tool(tool_command, timeout_ms);
    out.tool = in_process ? "deskcheck (in process)" : tool_command;
    std::vector<sim::R0Fixture> all;
    for (const auto& f : fixtures) {
        if (!file_only(f)) {
            ++out.fixtures_skipped;
            continue;
        }
        all.push_back(f);
    }
    for (auto& f : disk_fault_fixtures()) all.push_back(std::move(f));
    for (sim::R0Fixture f : all) {
        if (!in_process) f.others.clear();  // another process cannot interleave other programs' writes
        ++out.fixtures_run;
        // One row: the reference (in process) decides whether anything was at stake.
        auto row = [&](RowKind kind, std::optional<std::uint32_t> fail_at, std::optional<std::uint64_t> shim_at, std::string point,
                       std::optional<std::uint64_t> journal_shim_at = std::nullopt) -> bool {
            host::FaultShim shim{shim_at.value_or(0), 0};
            host::FaultShim journal_shim{journal_shim_at.value_or(0), 0};
            RealRun ref;
            auto reference = make_in_process_tool(shim_at ? &shim : nullptr, in_process, journal_shim_at ? &journal_shim : nullptr);
            if (std::string e = real_run(*reference, f, fail_at, kind == RowKind::Normal, ref); !e.empty()) {
                out.error = f.name + ", " + point + ": " + e;
                return false;
            }
            RealRun r = ref;
            if (!in_process) {
                r = RealRun{};
                if (std::string e = real_run(*external, f, fail_at, kind == RowKind::Normal, r); !e.empty()) {
                    out.error = e + " (fixture " + f.name + ", " + point + ")";
                    return false;
                }
            }
            R0Row judged = judge_real(f, kind, point, r, fail_at);
            if (kind == RowKind::Operation && !r.report.undo_failed_steps.empty()) {  // the fault hit the rollback
                judged.kind = RowKind::UndoFault;
                judged.point += " (in the undo)";
                judged.pass = judged.judgement.honest && judged.judgement.traceability;
                judged.note = judged.pass ? "undo failed, reported as failed" : "an undo failed and was not reported";
            }
            const R0Run ref_run = as_r0_run(f, ref, fail_at, kind == RowKind::Normal);
            if (kind != RowKind::Normal && !at_stake(ref_run) && !ref.report.refused) {
                judged.applicable = false;
                judged.note = "n/a: nothing changed before the failure (but folders another program needs)";
            }
            out.rows.push_back(std::move(judged));
            return true;
        };
        const bool disk = f.name.rfind("disk-", 0) == 0;
        if (disk) {
            if (!row(RowKind::Operation, std::nullopt, std::nullopt, "the disk refuses step 2")) return out;
            continue;
        }
        for (std::uint32_t k = 1; k <= f.steps.size(); ++k) {
            if (!row(RowKind::Step, k, std::nullopt, "step " + std::to_string(k))) return out;
        }
        if (in_process) {  // no space at every mutation (the fault shim: ENOSPC, a write after half its bytes)
            RealRun dry;
            auto t = make_in_process_tool(nullptr, true);
            if (std::string e = real_run(*t, f, std::nullopt, false, dry); !e.empty()) {
                out.error = e;
                return out;
            }
            for (std::uint64_t m = 1; m <= dry.ops.size(); ++m) {
                if (!row(RowKind::Operation, std::nullopt, m, "op " + std::to_string(m) + " ENOSPC")) return out;
            }
            // The journal's own disk full at each intent line: the step must not act (write-ahead).
            const std::vector<std::string> lines = dry.journal.value_or(std::vector<std::string>{});
            for (std::uint64_t n = 1; n <= lines.size(); ++n) {
                if (lines[n - 1].find("\"status\":\"intent\"") == std::string::npos) continue;
                if (!row(RowKind::Operation, std::nullopt, std::nullopt, "journal line " + std::to_string(n) + " ENOSPC", n)) return out;
            }
        }
        if (!row(RowKind::Normal, std::nullopt, std::nullopt, "normal + undo")) return out;
    }
    out.figures = tally_rows(out.rows);
    return out;
}

namespace {

struct Spawned {
    bool killed = false;  // died by SIGKILL
    int code = -1;        // exit code when it exited
};

Spawned wait_child(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    Spawned s;
    s.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    s.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return s;
}

// Recovery in a fresh process, killed at event `crash_at` (0: never).
Spawned spawn_recovery(const std::string& exe, const std::string& dir, std::uint64_t crash_at) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return {};
    if (pid == 0) {
        if (!exe.empty()) {
            const int devnull = ::open("/dev/null", O_WRONLY);
            if (devnull >= 0) ::dup2(devnull, 1);
            const std::string at = std::to_string(crash_at);
            ::execl(exe.c_str(), exe.c_str(), "r0", "recover", dir.c_str(), "--crash-at", at.c_str(), static_cast<char*>(nullptr));
            ::_exit(126);
        }
        host::CrashPlan plan{crash_at, 0};
        ::_exit(recover_workspace(dir, &plan).code);
    }
    return wait_child(pid);
}

// The task killed at event `at` in a child process.
Spawned spawn_task(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::uint64_t at) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return {};
    if (pid == 0) {
        host::CrashPlan plan{at, 0};
        run_task(ws, f, fail_at, f.allow_irreversible, &plan);
        ::_exit(0);
    }
    return wait_child(pid);
}

// Events of one uninterrupted run (the number of crash points).
std::uint64_t count_events(const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::string& error) {
    const auto ws = make_workspace(f, error);
    if (!ws) return 0;
    host::CrashPlan plan{0, 0};
    run_task(*ws, f, fail_at, f.allow_irreversible, &plan);
    host::remove_tree(ws->dir);
    return plan.events;
}

// One crash point: kill the task at `at`, recover (killed once at `recovery_at`, then to the end),
// compare the folder with before. "" when restored.
std::string crash_point(const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::uint64_t at, std::uint64_t recovery_at,
                        const std::string& exe, bool& recovery_crashed) {
    std::string error;
    const auto ws = make_workspace(f, error);
    if (!ws) return error;
    std::string result;
    const auto before = host::snapshot_tree(ws->root(), error);
    const Spawned task = before ? spawn_task(*ws, f, fail_at, at) : Spawned{};
    if (!before) {
        result = error;
    } else if (!task.killed) {
        result = "the task was not killed at event " + std::to_string(at) + " (exit " + std::to_string(task.code) + ")";
    } else {
        const Spawned first = spawn_recovery(exe, ws->dir, recovery_at);
        recovery_crashed = first.killed;
        const Spawned again = spawn_recovery(exe, ws->dir, 0);
        const auto after = host::snapshot_tree(ws->root(), error);
        if (!first.killed && first.code != 0) result = "recovery exited " + std::to_string(first.code);
        else if (again.code != 0) result = "recovery (again) exited " + std::to_string(again.code);
        else if (!after) result = error;
        else if (const auto diff = host::tree_diff(*before, *after); !diff.empty()) result = diff.front();
    }
    host::remove_tree(ws->dir);
    return result;
}

}  // namespace

CrashResult run_crash_bench(const std::vector<sim::R0Fixture>& fixtures, const std::string& recover_exe,
                            std::optional<std::uint64_t> seed_one_point) {
    CrashResult out;
    std::uint64_t draw = seed_one_point.value_or(0) * 0x9E3779B97F4A7C15ULL + 1;
    for (sim::R0Fixture f : fixtures) {
        if (!file_only(f)) continue;
        f.others.clear();  // other programs' writes are measured by the real bench; here only the task acts
        for (std::uint32_t mode = 0; mode <= f.steps.size(); ++mode) {
            const std::optional<std::uint32_t> fail_at = mode == 0 ? std::nullopt : std::optional<std::uint32_t>(mode);
            CrashRow row;
            row.fixture = f.name;
            row.mode = mode == 0 ? "normal path" : "step " + std::to_string(mode) + " fails";
            const std::uint64_t events = count_events(f, fail_at, out.error);
            if (!out.error.empty()) return out;
            std::uint64_t first = 1;
            std::uint64_t last = events;
            if (seed_one_point && events > 0) {
                draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;  // a seeded LCG: deterministic
                first = last = 1 + (draw >> 33) % events;
            }
            for (std::uint64_t at = first; at <= last; ++at) {
                bool recovery_crashed = false;
                const std::string why = crash_point(f, fail_at, at, ((at - 1) % 7) + 1, recover_exe, recovery_crashed);
                ++row.crash_points;
                if (recovery_crashed) ++row.recovery_crashes;
                if (why.empty()) ++row.restored;
                else if (row.failures.size() < 3) row.failures.push_back("event " + std::to_string(at) + ": " + why);
            }
            out.crash_points += row.crash_points;
            out.restored += row.restored;
            out.recovery_crashes += row.recovery_crashes;
            out.rows.push_back(std::move(row));
        }
    }
    return out;
}

}  // namespace deskcheck::r0
