// R0 on real folders, crashes at every point, tools through a process boundary (harness/r0_real.h).
#include "harness/r0_real.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

#include "host/journal_read.h"
#include "model/undo.h"
#include "harness/r0_adapter_answer.h"
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
        if (!files_->ok()) return files_->error();
        if (others_) files_->set_others(others_of(f));
        journal_ = std::make_unique<host::FileJournal>(ws.journal(), nullptr, journal_shim_);
        if (!journal_->ok()) return journal_->error();
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

// ---- another tool through a process boundary (R-8; schema/r0-adapter-2.schema.json) ----

std::string clip(const std::string& s, std::size_t n = 200) { return s.size() > n ? s.substr(0, n) + "..." : s; }

using Clock = std::chrono::steady_clock;

// The adapter: `/bin/sh -c CMD` leading a process group of its own (host/process_group.h), fed
// through a non-blocking pipe. Every request carries "id": 1, 2, ...; its answer must carry the
// same id, and nothing may arrive while no request is outstanding. Every wait — writing the
// request, reading the answer — has the request's deadline and looks at `stop`; any failure ends
// the whole group, as does the end of the bench (finish) and the destructor.
class ProcessTool final : public RealTool {
public:
    ProcessTool(std::string command, int timeout_ms, host::StopRequested stop)
        : command_(std::move(command)), timeout_ms_(timeout_ms), stop_(std::move(stop)) {
        std::signal(SIGPIPE, SIG_IGN);  // an adapter that exits early gives EPIPE, an error value, not a dead bench
    }
    ~ProcessTool() override { kill_now(); }
    ProcessTool(const ProcessTool&) = delete;
    ProcessTool& operator=(const ProcessTool&) = delete;
    std::string name() const override { return command_; }

    std::string apply(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, bool allow,
                      ApplyReport& out) override {
        Json req = new_request("apply", ws);
        req["steps"] = sim::r0_fixture_to_json(f)["steps"];
        req["fail_at"] = fail_at ? Json(*fail_at) : Json(nullptr);
        req["allow_irreversible"] = allow;
        Json ans;
        if (std::string e = request(req, ans); !e.empty()) return e;
        return read_report(req, ans, out);
    }
    std::string undo(const Workspace& ws, ApplyReport& out) override {
        const Json req = new_request("undo", ws);
        Json ans;
        if (std::string e = request(req, ans); !e.empty()) return e;
        return read_report(req, ans, out);
    }
    std::string journal(const Workspace& ws, std::optional<std::vector<std::string>>& out) override {
        const Json req = new_request("journal", ws);
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

    // The end of the bench: stdin closed, up to 1 s for the adapter to leave, then its whole group
    // killed (background children included). Anything it wrote after its last answer is an error.
    std::string finish() override {
        if (!group_.running()) return "";
        std::string e = surplus(last_id_);
        if (e.empty()) {
            close_fd(to_);
            group_.wait_leader(finish_grace_ms, stop_);
            e = surplus(last_id_);
        }
        kill_now();
        return e;
    }

private:
    static constexpr int finish_grace_ms = 1000;

    Json new_request(const char* op, const Workspace& ws) { return Json{{"id", ++last_id_}, {"op", op}, {"root", ws.root()}}; }

    std::string where(const Json& req) const { return "adapter `" + clip(command_, 120) + "`, request " + clip(req.dump(), 160); }

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

    static void close_fd(int& fd) {
        if (fd >= 0) ::close(fd);
        fd = -1;
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
        std::string error;
        host::adopt_orphans();  // a descendant that leaves the group comes back to us when its parent dies
        group_ = host::ChildGroup::start(
            [&] {
                ::dup2(in[0], 0);
                ::dup2(outp[1], 1);
                ::execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
            },
            error);
        ::close(in[0]);
        ::close(outp[1]);
        to_ = in[1];
        from_ = outp[0];
        if (!group_.running()) {
            kill_now();
            return "adapter `" + command_ + "`: " + error;
        }
        ::fcntl(to_, F_SETFL, ::fcntl(to_, F_GETFL) | O_NONBLOCK);  // a write never blocks: poll and the deadline do
        ::fcntl(from_, F_SETFL, ::fcntl(from_, F_GETFL) | O_NONBLOCK);
        return "";
    }

    // The whole group killed and reaped, the pipes closed.
    void kill_now() {
        const pid_t leader = group_.pid();
        group_.end();
        if (leader > 0) host::end_adopted(leader);  // whatever left the group (setsid) and was adopted
        close_fd(to_);
        close_fd(from_);
        buffer_.clear();
    }

    // What the adapter has written so far, without waiting; false at end of file or an error.
    bool drain() {
        char buf[4096];
        for (;;) {
            if (from_ < 0 || buffer_.size() > adapter_line_bytes_max) return true;
            const ssize_t n = ::read(from_, buf, sizeof buf);
            if (n > 0) {
                buffer_.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        }
    }

    // An error when the adapter wrote while no request was outstanding (a surplus answer, two
    // lines for one request, a line after the last answer); `answered`: the last request answered.
    std::string surplus(std::uint64_t answered) {
        drain();
        if (buffer_.empty()) return "";
        const std::string text = buffer_.substr(0, buffer_.find('\n'));
        const std::string when = answered == 0 ? "before the first request" : "after the answer to request " + std::to_string(answered);
        return "adapter `" + clip(command_, 120) + "`: protocol error: a line arrived while no request was outstanding (" + when + "): " + clip(text) +
               " (the adapter was killed)";
    }

    // Waits until `fd` is ready for `events`, the deadline passes or stop() says stop: "" when
    // ready, else what happened (the adapter is then killed).
    std::string wait_for(int fd, short events, Clock::time_point deadline, const Json& req, const char* doing) {
        for (;;) {
            if (host::stop_now(stop_)) {
                kill_now();
                return where(req) + ": interrupted " + std::string(doing) + " (the adapter was killed)";
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) {
                kill_now();
                return where(req) + ": " + (events == POLLOUT ? "the adapter did not read the request" : "no answer") + " within " +
                       std::to_string(timeout_ms_) + " ms (the adapter was killed)";
            }
            pollfd p{fd, events, 0};
            const int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, host::stop_poll_ms)));
            if (rc > 0) return "";  // ready, or POLLERR / POLLHUP: the next write or read says which
        }
    }

    // The request line out through the non-blocking pipe, within the deadline.
    std::string send(const Json& req, Clock::time_point deadline) {
        const std::string line = req.dump() + "\n";
        std::size_t sent = 0;
        while (sent < line.size()) {
            const ssize_t n = ::write(to_, line.data() + sent, line.size() - sent);
            if (n > 0) {
                sent += static_cast<std::size_t>(n);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                if (std::string e = wait_for(to_, POLLOUT, deadline, req, "while writing the request"); !e.empty()) return e;
                continue;
            }
            kill_now();
            return where(req) + ": the adapter closed its stdin (exited?) before the request was sent";
        }
        return "";
    }

    // The answer must carry the request's id.
    std::string check_id(const Json& req, const Json& ans, const std::string& text) const {
        if (!ans.contains("id")) return where(req) + ": protocol error: the answer has no \"id\" (it must echo the request's): " + clip(text);
        if (ans["id"] != req["id"])
            return where(req) + ": protocol error: the answer carries \"id\" " + clip(ans["id"].dump(), 40) + ", not the request's " +
                   req["id"].dump() + ": " + clip(text);
        return "";
    }

    // One request line out, one answer line back, both within the timeout (poll with a deadline).
    std::string request(const Json& req, Json& ans) {
        if (!group_.running()) {
            if (std::string e = start(); !e.empty()) return e;
        }
        if (std::string e = surplus(last_id_ - 1); !e.empty()) {
            kill_now();
            return e;
        }
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
        if (std::string e = send(req, deadline); !e.empty()) return e;
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
                if (std::string e = check_id(req, ans, text); !e.empty()) {
                    kill_now();
                    return e + " (the adapter was killed)";
                }
                if (ans.contains("error") && ans["error"].is_string()) return where(req) + ": the adapter answered an error: " + ans["error"].get<std::string>();
                return "";
            }
            if (buffer_.size() > adapter_line_bytes_max) {
                kill_now();
                return where(req) + ": an answer line longer than " + std::to_string(adapter_line_bytes_max) + " bytes";
            }
            if (std::string e = wait_for(from_, POLLIN, deadline, req, "while waiting for the answer"); !e.empty()) return e;
            const bool open = drain();
            if (!open && buffer_.find('\n') == std::string::npos) {
                kill_now();
                return where(req) + ": the adapter closed its stdout (exited) without answering";
            }
        }
    }

    std::string command_;
    int timeout_ms_;
    host::StopRequested stop_;
    host::ChildGroup group_;
    int to_ = -1;
    int from_ = -1;
    std::uint64_t last_id_ = 0;
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

namespace {

// "task T step S file.write out/a.txt: undo failed: <why>" for every failed undo of a recovery.
std::string failed_undos(const std::vector<TaskReport>& reports, const std::vector<JournalEntry>& entries) {
    std::string out;
    std::size_t listed = 0;
    for (const TaskReport& r : reports) {
        for (const UndoStepReport& s : r.steps) {
            if (s.undo != UndoState::Failed) continue;
            if (++listed > 8) continue;
            std::string path;
            for (const JournalEntry& e : entries) {
                if (e.task == r.task_id && e.step == s.step && e.before) path = e.before->path;
            }
            out += (out.empty() ? "" : "; ") + std::string("task ") + r.task_id + " step " + std::to_string(s.step) + " " +
                   std::string(to_string(s.op)) + " " + path + ": undo failed: " + s.undo_error;
        }
    }
    if (listed > 8) out += "; and " + std::to_string(listed - 8) + " more";
    return out;
}

}  // namespace

RecoverOutcome recover_workspace(const std::string& dir, host::CrashPlan* crash) {
    // The workspace must be what it claims before anything changes: DIR a folder (not a
    // link), DIR/files a folder, DIR/journal.jsonl a regular file; nothing is created.
    std::string error;
    const int dir_fd = host::open_folder(dir, error);
    if (dir_fd < 0) return {2, error + " (not a workspace)", {}};
    struct DirCloser {
        int fd;
        ~DirCloser() { ::close(fd); }
    } closer{dir_fd};
    const std::string shown_journal = dir + "/journal.jsonl";
    struct stat st {};
    if (::fstatat(dir_fd, "journal.jsonl", &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return {2, dir + ": not a workspace: " + shown_journal + ": " + (errno == ENOENT ? "no such file" : std::strerror(errno)), {}};
    }
    if (!S_ISREG(st.st_mode)) {
        return {2, dir + ": not a workspace: " + shown_journal + (S_ISLNK(st.st_mode) ? ": is a symbolic link" : ": is not a regular file"), {}};
    }
    const int files_fd = host::open_folder_at(dir_fd, "files", dir + "/files", error);
    if (files_fd < 0) return {2, dir + ": not a workspace: " + error, {}};
    host::RealFiles files(files_fd, dir + "/files", crash);
    const auto lines = host::read_journal_lines_at(dir_fd, "journal.jsonl", &error);
    if (!lines) return {2, dir + "/" + error, {}};
    const host::EntriesOrError parsed = host::parse_journal(*lines);
    if (!parsed.error.empty()) return {2, shown_journal + ": " + parsed.error, {}};
    host::FileJournal journal(dir_fd, "journal.jsonl", true, crash);
    if (!journal.ok()) return {2, dir + "/" + journal.error(), {}};
    UndoTool tool(UndoPorts{&files, nullptr, &journal});
    const std::vector<TaskReport> reports = tool.recover(parsed.entries);
    std::size_t restored = 0;
    for (const TaskReport& r : reports) restored += r.restored();
    const std::string failed = failed_undos(reports, parsed.entries);
    if (!failed.empty()) return {1, failed, files.refusals()};
    return {0, std::to_string(reports.size()) + " task(s) recovered, " + std::to_string(restored) + " step(s) undone", files.refusals()};
}

std::unique_ptr<RealTool> make_in_process_tool(host::FaultShim* shim, bool others, host::FaultShim* journal_shim) {
    return std::make_unique<InProcessTool>(shim, others, journal_shim);
}

std::unique_ptr<RealTool> make_process_tool(const std::string& command, int timeout_ms, host::StopRequested stop) {
    return std::make_unique<ProcessTool>(command, timeout_ms, std::move(stop));
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

namespace {

// The bench's rows, one fixture at a time: the reference (in process) decides whether anything was
// at stake; the tool judged is the reference itself or the external one.
class RealBench {
public:
    RealBench(RealBenchResult& out, RealTool* external, const host::StopRequested& stop) : out_(out), external_(external), stop_(stop) {}

    // Every row of fixture `f`; false when the bench stops (an error, or `stop`: the rows so far, interrupted).
    bool fixture_rows(const sim::R0Fixture& f) {
        if (f.name.rfind("disk-", 0) == 0) return row(f, RowKind::Operation, std::nullopt, std::nullopt, "the disk refuses step 2");
        for (std::uint32_t k = 1; k <= f.steps.size(); ++k) {
            if (!row(f, RowKind::Step, k, std::nullopt, "step " + std::to_string(k))) return false;
        }
        if (in_process() && !no_space_rows(f)) return false;
        return row(f, RowKind::Normal, std::nullopt, std::nullopt, "normal + undo");
    }

private:
    bool in_process() const { return external_ == nullptr; }

    // No space at every mutation (the fault shim: ENOSPC, a write after half its bytes), and the
    // journal's own disk full at each intent line: the step must not act (write-ahead).
    bool no_space_rows(const sim::R0Fixture& f) {
        RealRun dry;
        auto t = make_in_process_tool(nullptr, true);
        if (std::string e = real_run(*t, f, std::nullopt, false, dry); !e.empty()) {
            out_.error = e;
            return false;
        }
        for (std::uint64_t m = 1; m <= dry.ops.size(); ++m) {
            if (!row(f, RowKind::Operation, std::nullopt, m, "op " + std::to_string(m) + " ENOSPC")) return false;
        }
        const std::vector<std::string> lines = dry.journal.value_or(std::vector<std::string>{});
        for (std::uint64_t n = 1; n <= lines.size(); ++n) {
            if (lines[n - 1].find("\"status\":\"intent\"") == std::string::npos) continue;
            if (!row(f, RowKind::Operation, std::nullopt, std::nullopt, "journal line " + std::to_string(n) + " ENOSPC", n)) return false;
        }
        return true;
    }

    bool row(const sim::R0Fixture& f, RowKind kind, std::optional<std::uint32_t> fail_at, std::optional<std::uint64_t> shim_at, const std::string& point,
             std::optional<std::uint64_t> journal_shim_at = std::nullopt) {
        if (host::stop_now(stop_)) {
            out_.interrupted = true;
            return false;
        }
        host::FaultShim shim{shim_at.value_or(0), 0};
        host::FaultShim journal_shim{journal_shim_at.value_or(0), 0};
        RealRun ref;
        auto reference = make_in_process_tool(shim_at ? &shim : nullptr, in_process(), journal_shim_at ? &journal_shim : nullptr);
        if (std::string e = real_run(*reference, f, fail_at, kind == RowKind::Normal, ref); !e.empty()) {
            out_.error = f.name + ", " + point + ": " + e;
            return false;
        }
        RealRun r = ref;
        if (!in_process()) {
            r = RealRun{};
            if (std::string e = real_run(*external_, f, fail_at, kind == RowKind::Normal, r); !e.empty()) {
                if (host::stop_now(stop_)) out_.interrupted = true;  // the wait for the adapter was interrupted
                else out_.error = e + " (fixture " + f.name + ", " + point + ")";
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
        out_.rows.push_back(std::move(judged));
        return true;
    }

    RealBenchResult& out_;
    RealTool* external_;
    const host::StopRequested& stop_;
};

}  // namespace

RealBenchResult run_real_bench(const std::string& tool_command, const std::vector<sim::R0Fixture>& fixtures, int timeout_ms,
                               const host::StopRequested& stop) {
    RealBenchResult out;
    const bool in_process = tool_command.empty();
    std::unique_ptr<RealTool> external = in_process ? nullptr : make_process_tool(tool_command, timeout_ms, stop);
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
    out.fixtures_planned = all.size();
    RealBench bench(out, external.get(), stop);
    bool completed = true;
    for (sim::R0Fixture f : all) {
        if (!in_process) f.others.clear();  // another process cannot interleave other programs' writes
        ++out.fixtures_run;
        if (!bench.fixture_rows(f)) {
            completed = false;
            break;
        }
    }
    if (completed && external) out.error = external->finish();
    out.figures = tally_rows(out.rows);
    return out;
}

namespace {

struct Spawned {
    bool killed = false;     // died by SIGKILL (its own crash plan)
    int code = -1;           // exit code when it exited
    bool stopped = false;    // `stop` said stop while it ran: killed with its group
    bool timed_out = false;  // ran past crash_child_deadline_ms: killed with its group
};

// `child` (exec or _exit) in a process group of its own, waited for; the group is killed at the
// end whatever happened, so nothing the child started outlives the crash point.
Spawned run_child(const std::function<void()>& child, const host::StopRequested& stop) {
    std::string error;
    host::ChildGroup group = host::ChildGroup::start(child, error);
    if (!group.running()) return {};
    const host::ChildGroup::Wait w = group.wait_leader(crash_child_deadline_ms, stop);
    const int status = group.end();
    Spawned s;
    s.stopped = w == host::ChildGroup::Wait::Stopped;
    s.timed_out = w == host::ChildGroup::Wait::TimedOut;
    s.killed = w == host::ChildGroup::Wait::Exited && host::died_of_sigkill(status);
    s.code = host::exit_code_of(status);
    return s;
}

// Recovery in a fresh process, killed at event `crash_at` (0: never).
Spawned spawn_recovery(const std::string& exe, const std::string& dir, std::uint64_t crash_at, const host::StopRequested& stop) {
    return run_child(
        [&] {
            if (!exe.empty()) {
                const int devnull = ::open("/dev/null", O_WRONLY);
                if (devnull >= 0) ::dup2(devnull, 1);
                const std::string at = std::to_string(crash_at);
                ::execl(exe.c_str(), exe.c_str(), "r0", "recover", dir.c_str(), "--crash-at", at.c_str(), static_cast<char*>(nullptr));
                ::_exit(126);
            }
            host::CrashPlan plan{crash_at, 0};
            ::_exit(recover_workspace(dir, &plan).code);
        },
        stop);
}

// The task killed at event `at` in a child process.
Spawned spawn_task(const Workspace& ws, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::uint64_t at,
                   const host::StopRequested& stop) {
    return run_child(
        [&] {
            host::CrashPlan plan{at, 0};
            run_task(ws, f, fail_at, f.allow_irreversible, &plan);
            ::_exit(0);
        },
        stop);
}

std::string child_failure(const char* what, const Spawned& s) {
    if (s.timed_out) return std::string(what) + " ran past " + std::to_string(crash_child_deadline_ms) + " ms (killed)";
    return std::string(what) + " exited " + std::to_string(s.code);
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
// compare the folder with before. "" when restored; `stopped` when `stop` ended it (the workspace
// is removed all the same).
std::string crash_point(const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::uint64_t at, std::uint64_t recovery_at,
                        const std::string& exe, bool& recovery_crashed, const host::StopRequested& stop, bool& stopped) {
    std::string error;
    const auto ws = make_workspace(f, error);
    if (!ws) return error;
    std::string result;
    const auto before = host::snapshot_tree(ws->root(), error);
    const Spawned task = before ? spawn_task(*ws, f, fail_at, at, stop) : Spawned{};
    if (!before) {
        result = error;
    } else if (task.stopped) {
        stopped = true;
    } else if (!task.killed) {
        result = task.timed_out ? child_failure("the task", task)
                                : "the task was not killed at event " + std::to_string(at) + " (exit " + std::to_string(task.code) + ")";
    } else {
        const Spawned first = spawn_recovery(exe, ws->dir, recovery_at, stop);
        const Spawned again = first.stopped ? first : spawn_recovery(exe, ws->dir, 0, stop);
        recovery_crashed = first.killed;
        const auto after = host::snapshot_tree(ws->root(), error);
        if (again.stopped) stopped = true;
        else if (!first.killed && first.code != 0) result = child_failure("recovery", first);
        else if (again.code != 0) result = child_failure("recovery (again)", again);
        else if (!after) result = error;
        else if (const auto diff = host::tree_diff(*before, *after); !diff.empty()) result = diff.front();
    }
    host::remove_tree(ws->dir);
    return result;
}

}  // namespace

CrashResult run_crash_bench(const std::vector<sim::R0Fixture>& fixtures, const std::string& recover_exe,
                            std::optional<std::uint64_t> seed_one_point, const host::StopRequested& stop) {
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
            for (std::uint64_t at = first; at <= last && !out.interrupted; ++at) {
                bool recovery_crashed = false;
                out.interrupted = host::stop_now(stop);
                const std::string why =
                    out.interrupted ? "" : crash_point(f, fail_at, at, ((at - 1) % 7) + 1, recover_exe, recovery_crashed, stop, out.interrupted);
                if (out.interrupted) break;
                ++row.crash_points;
                if (recovery_crashed) ++row.recovery_crashes;
                if (why.empty()) ++row.restored;
                else if (row.failures.size() < 3) row.failures.push_back("event " + std::to_string(at) + ": " + why);
            }
            out.crash_points += row.crash_points;
            out.restored += row.restored;
            out.recovery_crashes += row.recovery_crashes;
            if (out.interrupted && row.crash_points == 0) return out;
            out.rows.push_back(std::move(row));  // when interrupted: the points run so far
            if (out.interrupted) return out;
        }
    }
    return out;
}

}  // namespace deskcheck::r0
