// Links at every point (harness/r0_links.h).
#include "harness/r0_links.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cassert>
#include <map>
#include <set>

#include "host/journal_read.h"
#include "host/real_files.h"
#include "model/undo.h"
#include "harness/r0_real.h"

namespace deskcheck::r0 {
namespace {

constexpr std::string_view crossed_marker = "crosses_a_symbolic_link";

// Thrown by the journal to stop a task right after a step's effect: a crash, in this process (the
// files are as a killed process leaves them: every effect was fsync'd before its call returned).
struct Stopped {};

// Every folder on the fixture's paths: the parents of every path, and the folder a mkdir makes.
std::vector<std::string> folders_on_paths(const sim::R0Fixture& f) {
    std::set<std::string> out;
    for (const TaskStep& s : f.steps) {
        for (const std::string& a : ancestors_of(s.path)) out.insert(a);
        if (s.op == StepOp::FileMove) {
            for (const std::string& a : ancestors_of(s.to)) out.insert(a);
        }
        if (s.op == StepOp::FileMkdir) out.insert(s.path);
    }
    return {out.begin(), out.end()};
}

// A sentinel tree outside the root, what it held before the run, and when each entry last changed.
struct Sentinel {
    std::string dir;
    host::RealTree before;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> changed;  // path ("" the folder) -> ctime
};

// The last status change of every entry of the tree (and of its folder): a change made and then
// undone through the link (a file created, then removed by the rollback) still shows.
std::map<std::string, std::pair<std::int64_t, std::int64_t>> change_times(const std::string& dir, const host::RealTree& tree) {
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> out;
    const auto one = [&](const std::string& rel) {
        struct stat st {};
        const std::string p = rel.empty() ? dir : dir + "/" + rel;
        if (::lstat(p.c_str(), &st) == 0) out[rel] = {static_cast<std::int64_t>(st.st_ctim.tv_sec), static_cast<std::int64_t>(st.st_ctim.tv_nsec)};
    };
    one("");
    for (const auto& [path, e] : tree) one(path);
    return out;
}

// The sentinel for `folder`: what a followed operation would take for its own — the names the
// fixture's steps use below the folder, and what the root holds there — each with bytes of its
// own (a rollback through the link writing back the root's bytes changes them), plus one file.
std::optional<Sentinel> make_sentinel(const Workspace& ws, const sim::R0Fixture& f, const std::string& folder, std::string& error) {
    Sentinel s;
    s.dir = host::make_temp_folder("deskcheck-r0-sentinel", error);
    if (s.dir.empty()) return std::nullopt;
    std::map<std::string, std::pair<bool, std::string>> content{{"sentinel.txt", {false, "outside the root\n"}}};
    const auto add_file = [&](const std::string& rel) {
        for (const std::string& a : ancestors_of(rel)) content.emplace(a, std::make_pair(true, std::string()));
        content.emplace(rel, std::make_pair(false, "outside the root: " + rel + "\n"));
    };
    const std::string prefix = folder.empty() ? std::string() : folder + "/";
    for (const TaskStep& step : f.steps) {
        for (const std::string& p : {step.path, step.to}) {
            if (!p.empty() && p.rfind(prefix, 0) == 0 && p.size() > prefix.size()) add_file(p.substr(prefix.size()));
        }
    }
    std::string ignored;
    if (const auto inside = host::snapshot_tree(ws.root() + (folder.empty() ? "" : "/" + folder), ignored)) {
        for (const auto& [path, e] : *inside) {
            if (e.kind == 'd') content.emplace(path, std::make_pair(true, std::string()));
            if (e.kind == 'f') add_file(path);
        }
    }
    // A folder for a name the steps use as a file, or a file where they make a folder, cannot be
    // both: the folders win (populate makes them first, sorted).
    for (auto it = content.begin(); it != content.end(); ++it) {
        if (it->second.first) continue;
        const auto next = std::next(it);
        if (next != content.end() && next->first.rfind(it->first + "/", 0) == 0) it->second = {true, ""};
    }
    if (!host::populate(s.dir, content, error)) {
        host::remove_tree(s.dir);
        return std::nullopt;
    }
    const auto before = host::snapshot_tree(s.dir, error);
    if (!before) {
        host::remove_tree(s.dir);
        return std::nullopt;
    }
    s.before = *before;
    s.changed = change_times(s.dir, s.before);
    return s;
}

// Replaces `rel` (under DIR) by a link to the sentinel: the folder there, if any, is moved out of
// the root first. False when the point does not apply (its parent does not exist, a file is there).
bool swap_for_link(const std::string& dir, const std::string& rel, const std::string& target) {
    const std::string path = dir + "/" + rel;
    const std::string parent = rel.find('/') == std::string::npos ? dir : dir + "/" + parent_of(rel);
    struct stat st {};
    if (::lstat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
    if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode)) return false;
        const std::string away = dir + ".swapped-away";
        if (::rename(path.c_str(), away.c_str()) != 0) return false;
    }
    return ::symlink(target.c_str(), path.c_str()) == 0;
}

// The journal, with two hooks: a swap after the intent line of one step, and a stop right after
// one step's effect (at the next line the task appends).
class HookedJournal final : public JournalSink {
public:
    explicit HookedJournal(host::FileJournal& inner) : inner_(inner) {}
    std::uint32_t swap_after_intent_of = 0;  // 0: never
    std::uint32_t stop_after_step = 0;       // 0: never
    std::function<void()> swap;
    bool append(const std::string& line) override {
        const host::EntryOrError e = host::parse_journal_line(line);
        const bool intent = e.entry && e.entry->status == JournalStatus::Intent;
        if (stop_armed_) throw Stopped{};
        const bool ok = inner_.append(line);
        if (ok && intent && e.entry->step == swap_after_intent_of && swap) swap();
        if (ok && intent && e.entry->step == stop_after_step) stop_armed_ = true;
        return ok;
    }

private:
    host::FileJournal& inner_;
    bool stop_armed_ = false;
};

bool report_names_refusal(const TaskReport& r) {
    if (r.error.find(crossed_marker) != std::string::npos) return true;
    for (const UndoStepReport& s : r.steps) {
        if (s.error.find(crossed_marker) != std::string::npos || s.undo_error.find(crossed_marker) != std::string::npos) return true;
    }
    return false;
}

enum class When { BeforeStep, AfterIntent, BeforeRecovery, FilesFolder, JournalFile };

std::string describe(When w, std::uint32_t k) {
    switch (w) {
        case When::BeforeStep: return "before step " + std::to_string(k);
        case When::AfterIntent: return "after the intent line of step " + std::to_string(k);
        case When::BeforeRecovery: return "before recovery (stopped after step " + std::to_string(k) + ")";
        case When::FilesFolder: return "before recovery: the workspace's files/ is a link";
        case When::JournalFile: return "before recovery: the workspace's journal.jsonl is a link";
    }
    return "?";
}

// The port as the harness hands it to the tool: every call forwarded, and noted when it names a path
// beneath the swapped folder once the swap is made. That an operation crossed the link is decided
// here, from the calls the tool made, never from the port's own list of refusals (a port that
// refuses under another name, or forgets to list it, would otherwise be asked nothing).
class Crossings final : public Files {
public:
    Crossings(Files& port, std::string folder, const bool& swapped) : port_(port), folder_(std::move(folder)), swapped_(swapped) {}
    bool crossed() const { return crossed_; }
    FsResult<std::string> read(std::string_view path) override { return note(path), port_.read(path); }
    FsResult<FsDone> write(std::string_view path, std::string_view bytes) override { return note(path), port_.write(path, bytes); }
    FsResult<FsDone> make_folder(std::string_view path) override { return note(path), port_.make_folder(path); }
    FsResult<FsDone> move(std::string_view from, std::string_view to) override { return note(from), note(to), port_.move(from, to); }
    FsResult<FsDone> remove(std::string_view path) override { return note(path), port_.remove(path); }
    FsResult<std::vector<std::string>> list(std::string_view path) override { return note(path), port_.list(path); }
    FsResult<FsStat> stat(std::string_view path) override { return note(path), port_.stat(path); }

private:
    void note(std::string_view path) {
        const bool at_or_beneath = path.substr(0, folder_.size()) == folder_ && (path.size() == folder_.size() || path[folder_.size()] == '/');
        crossed_ = crossed_ || (swapped_ && at_or_beneath);
    }
    Files& port_;
    std::string folder_;
    const bool& swapped_;
    bool crossed_ = false;
};

// Runs the task with the link swapped in at `when`; fills crossed / named. False: not applicable.
bool run_point(const sim::R0Fixture& f, const Workspace& ws, When when, std::uint32_t k, const std::string& folder,
               const Sentinel& sentinel, const MakePort& make_port, LinkPoint& out) {
    const auto fail_at = static_cast<std::uint32_t>(f.steps.size());  // the rollback runs too
    bool swapped = false;
    const std::function<void()> swap = [&] { swapped = swap_for_link(ws.root(), folder, sentinel.dir); };
    const bool stop_first = when == When::BeforeRecovery || when == When::FilesFolder || when == When::JournalFile;
    TaskReport report;
    std::vector<std::string> refusals;
    bool crossed = false;
    {
        PortUnderTest port = make_port(ws.root());
        Crossings files(*port.files, folder, swapped);
        host::FileJournal file_journal(ws.journal());
        if (!file_journal.ok()) {
            out.why = file_journal.error();
            return true;
        }
        HookedJournal journal(file_journal);
        if (when == When::AfterIntent) {
            journal.swap_after_intent_of = k;
            journal.swap = swap;
        }
        if (stop_first) journal.stop_after_step = k;
        if (when == When::BeforeStep && k == 1) swap();
        UndoTool tool(UndoPorts{&files, nullptr, &journal});
        const PostCheck check = [&](std::uint32_t step) -> std::optional<std::string> {
            if (when == When::BeforeStep && step + 1 == k) swap();
            if (step == fail_at) return "injected failure (R0 links)";
            return std::nullopt;
        };
        try {
            report = tool.run(Task{"r0-links-" + f.name, f.steps, f.allow_irreversible}, check);
        } catch (const Stopped&) {
            assert(stop_first);
        }
        refusals = port.refusals();
        crossed = files.crossed();
    }
    if (!stop_first) {
        if (!swapped) return false;
        out.crossed = crossed || !refusals.empty();
        // Both ways: an operation beneath the link is refused and listed by the port (the refusal a
        // person reads), and the report names it.
        out.named = !out.crossed || (!report.ok && report_names_refusal(report) && !refusals.empty());
        if (!out.named) {
            out.why = refusals.empty() ? "an operation beneath " + folder + "/ came after the link was swapped in, but the port listed no refusal"
                                       : "refused (" + refusals.front() + ") but the report does not say so";
        }
        return true;
    }
    if (when == When::BeforeRecovery) swapped = swap_for_link(ws.root(), folder, sentinel.dir);
    if (when == When::FilesFolder) swapped = swap_for_link(ws.dir, "files", sentinel.dir);
    if (when == When::JournalFile) swapped = swap_for_link(ws.dir, "journal.jsonl", sentinel.dir + "/sentinel.txt");
    if (!swapped) return false;
    const RecoverOutcome r = recover_workspace(ws.dir);
    if (when == When::BeforeRecovery) {
        out.crossed = !r.refusals.empty();
        out.named = !out.crossed || (r.code == 1 && r.message.find(crossed_marker) != std::string::npos);
    } else {
        out.crossed = true;
        out.named = r.code == 2;
    }
    if (!out.named) out.why = "recovery exit " + std::to_string(r.code) + ": " + r.message;
    return true;
}

// One point on a fresh workspace and a fresh sentinel; nullopt when it does not apply.
std::optional<LinkPoint> one_point(const sim::R0Fixture& f, When when, std::uint32_t k, const std::string& folder,
                                   const MakePort& make_port, std::string& error) {
    const auto ws = make_workspace(f, error);
    if (!ws) return std::nullopt;
    LinkPoint p;
    p.fixture = f.name;
    p.when = describe(when, k);
    p.folder = when == When::FilesFolder ? "files/" : when == When::JournalFile ? "journal.jsonl" : folder + "/";
    const std::string sentinel_of = when == When::FilesFolder || when == When::JournalFile ? std::string() : folder;
    auto sentinel = make_sentinel(*ws, f, sentinel_of, error);
    if (!sentinel) {
        host::remove_tree(ws->dir);
        host::remove_tree(ws->dir + ".swapped-away");
        return std::nullopt;
    }
    const bool applies = run_point(f, *ws, when, k, folder, *sentinel, make_port, p);
    std::string snap_error;
    const auto after = host::snapshot_tree(sentinel->dir, snap_error);
    const bool same_bytes = after && *after == sentinel->before;
    const bool same_times = same_bytes && change_times(sentinel->dir, *after) == sentinel->changed;
    p.sentinel_untouched = same_bytes && same_times;
    if (!same_bytes) {
        const auto diff = after ? host::tree_diff(sentinel->before, *after, 1) : std::vector<std::string>{snap_error};
        p.why = "outside the root, changed: " + (diff.empty() ? std::string("?") : diff.front()) + (p.why.empty() ? "" : "; " + p.why);
    } else if (!same_times) {
        p.why = "outside the root, changed and changed back (status change times differ)" + (p.why.empty() ? "" : "; " + p.why);
    }
    host::remove_tree(ws->dir);
    host::remove_tree(ws->dir + ".swapped-away");
    host::remove_tree(sentinel->dir);
    if (!applies) return std::nullopt;
    return p;
}

PortUnderTest real_port(const std::string& root) {
    auto files = std::make_unique<host::RealFiles>(root);
    const host::RealFiles* seen = files.get();
    return {std::move(files), [seen] { return seen->ok() ? seen->refusals() : std::vector<std::string>{seen->error()}; }};
}

}  // namespace

LinksResult run_links_bench(const std::vector<sim::R0Fixture>& fixtures, const std::function<bool()>& stop, const MakePort& make_port_in) {
    const MakePort make_port = make_port_in ? make_port_in : MakePort(real_port);
    LinksResult out;
    const auto add = [&](const std::optional<LinkPoint>& p) {
        if (!p) return;
        out.crossed += p->crossed;
        out.held += p->held();
        out.points.push_back(*p);
    };
    for (const sim::R0Fixture& f : fixtures) {
        if (!file_only(f)) continue;
        const auto n = static_cast<std::uint32_t>(f.steps.size());
        for (std::uint32_t k = 1; k <= n; ++k) {
            for (const std::string& folder : folders_on_paths(f)) {
                for (const When w : {When::BeforeStep, When::AfterIntent, When::BeforeRecovery}) {
                    if (stop && stop()) {
                        out.interrupted = true;
                        return out;
                    }
                    add(one_point(f, w, k, folder, make_port, out.error));
                    if (!out.error.empty()) return out;
                }
            }
        }
        for (const When w : {When::FilesFolder, When::JournalFile}) {
            add(one_point(f, w, n, "", make_port, out.error));
            if (!out.error.empty()) return out;
        }
    }
    return out;
}

}  // namespace deskcheck::r0
