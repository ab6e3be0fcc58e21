// The in-process crash and recovery of the R0 campaign (harness/r0_crash.h).
#include "harness/r0_crash.h"

#include <algorithm>

#include "host/journal_read.h"
#include "harness/r0_bench.h"

namespace deskcheck::r0 {
namespace {

struct Killed {};  // thrown at the planned event: the process dies there, nothing after it happens

struct EventClock {
    std::size_t at = 0;      // 0: never
    std::size_t events = 0;  // so far
    void event() {
        ++events;
        if (at != 0 && events == at) throw Killed{};
    }
};

// The journal file: an append is an event; the line of the event the process dies at is not written.
class CrashingJournal final : public JournalSink {
public:
    CrashingJournal(MemoryJournal& file, EventClock& clock) : file_(file), clock_(clock) {}
    bool append(const std::string& line) override {
        clock_.event();
        return file_.append(line);
    }

private:
    MemoryJournal& file_;
    EventClock& clock_;
};

struct RecoveryOutcome {
    bool killed = false;
    std::size_t events = 0;
    std::vector<TaskReport> reports;
    std::string error;
};

// A fresh tool reads every line of `file` back and recovers, killed at its event `crash_at` (0: never).
RecoveryOutcome recover_once(sim::World& world, MemoryJournal& file, std::size_t crash_at, const UndoPolicy* policy,
                             const R0Recovery& recovery) {
    RecoveryOutcome out;
    const host::EntriesOrError parsed = host::parse_journal(file.lines(), /*desktop=*/true);
    if (!parsed.error.empty()) {
        out.error = "recovery: the journal cannot be read back: " + parsed.error;
        return out;
    }
    EventClock clock{crash_at, 0};
    CrashingJournal journal(file, clock);
    world.set_op_hook([&clock] { clock.event(); });
    try {
        UndoTool tool(UndoPorts{&world.files(), &world.desktop(), &journal}, policy);
        out.reports = recovery.recover(tool, parsed.entries);
    } catch (const Killed&) {
        out.killed = true;
    }
    world.set_op_hook({});
    out.events = clock.events;
    return out;
}

}  // namespace

std::vector<TaskReport> R0Recovery::recover(UndoTool& tool, const std::vector<JournalEntry>& journal) const {
    return tool.recover(journal);
}

CrashRun run_crash_and_recover(const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at, std::optional<sim::OpFault> fault,
                               std::size_t crash_at, std::size_t recovery_crash_at, const UndoPolicy* policy,
                               const R0Recovery* recovery, bool then_undo) {
    CrashRun out;
    sim::World world(f.initial, f.others, fault);
    MemoryJournal file;
    EventClock clock{crash_at, 0};
    CrashingJournal journal(file, clock);
    const Task task{"r0-" + f.name + "-1", f.steps, then_undo || f.allow_irreversible};
    const PostCheck post_check = [fail_at](std::uint32_t step) -> std::optional<std::string> {
        if (fail_at && step == *fail_at) return "injected failure (R0 bench)";
        return std::nullopt;
    };
    std::optional<TaskReport> report;
    world.set_op_hook([&clock] { clock.event(); });
    try {
        UndoTool tool(UndoPorts{&world.files(), &world.desktop(), &journal}, policy);
        report = tool.run(task, post_check);
        if (then_undo && report->ok) report = tool.undo(task.id);
    } catch (const Killed&) {
        out.crashed = true;  // the tool is gone, with no rollback: only the journal lines stay
    }
    world.set_op_hook({});
    out.events = clock.events;
    R0Run& run = out.run;
    run.fixture = &f;
    run.allow_irreversible = task.allow_irreversible;
    run.failed_after_step = fail_at;
    run.fault = fault;
    if (!out.crashed) {
        run.report = apply_report_of(*report);
        run.task = report;
    } else {
        world.set_fault(std::nullopt);
        const R0Recovery own{};
        const R0Recovery& how = recovery != nullptr ? *recovery : own;
        run.recovery_journal_from = file.lines().size();
        RecoveryOutcome last = recover_once(world, file, recovery_crash_at, policy, how);
        out.recovery_events = last.events;
        out.error = last.error;
        if (last.killed) {
            out.recovery_crashed = true;
            run.recovery_journal_from = file.lines().size();
            last = recover_once(world, file, 0, policy, how);
            if (out.error.empty()) out.error = last.error;
        }
        for (const TaskReport& r : last.reports) out.undone_by_recovery += r.restored();
        run.crashed = true;
        run.report.task_id = task.id;  // the claims are read from the journal by the check
        if (last.error.empty()) run.recovery_reports = last.reports;
    }
    run.final_state = world.state();
    run.truth = world.truth();
    run.journal = file.lines();
    const std::string done = "\"status\":\"done\"";
    run.normal_then_undo = then_undo && std::any_of(run.journal->begin(), run.journal->end(),
                                                    [&](const std::string& l) { return l.find(done) != std::string::npos; });
    run.normal_finished = run.normal_then_undo;
    return out;
}

}  // namespace deskcheck::r0
