// The power-cut run (harness/r0_power.h).
#include "harness/r0_power.h"

#include <algorithm>
#include <memory>

#include "host/journal_read.h"
#include "model/undo.h"
#include "harness/r0_check.h"
#include "sim/memfs.h"
#include "sim/prng.h"

namespace deskcheck::r0 {
namespace {

using sim::Fate;

std::string task_id(const sim::R0Fixture& f) { return "r0-" + f.name + "-1"; }

// One process on the disk: a world bound to its disk, and whether the power was cut.
struct Boot {
    std::unique_ptr<sim::World> world;
    std::unique_ptr<sim::PowerDisk> power;
    bool cut = false;
    std::vector<JournalEntry> read;  // recovery: the journal entries it read back
    std::string error;               // recovery: the journal could not be read back
};

Boot start(const sim::WorldState& state, const std::vector<sim::OtherWrite>& others, const std::optional<std::string>& journal,
           const DurabilityPlans& plans, std::size_t cut_at) {  // no fault: none outlives a power cut
    Boot b;
    b.world = std::make_unique<sim::World>(state, others, std::nullopt);
    b.power = std::make_unique<sim::PowerDisk>(sim::Disk(b.world->state().fs, journal), plans, cut_at);
    b.world->set_power(b.power.get());
    return b;
}

// The task, from a fresh workspace (no journal yet), failing as `how` says.
Boot run_task(const sim::R0Fixture& f, const PowerRun& how, const DurabilityPlans& plans, std::size_t cut_at) {
    Boot b = start(f.initial, f.others, std::nullopt, plans, cut_at);
    b.world->set_fault(how.fault);
    const std::uint32_t fail_at = how.fail_at;
    const Task task{task_id(f), f.steps, f.allow_irreversible};
    const PostCheck check = [fail_at](std::uint32_t step) -> std::optional<std::string> {
        if (fail_at != 0 && step == fail_at) return "injected failure (R0 bench)";
        return std::nullopt;
    };
    try {
        sim::DiskJournal journal(*b.power);
        UndoTool tool(UndoPorts{&b.world->files(), &b.world->desktop(), &journal});
        tool.run(task, check);
    } catch (const sim::PowerCut&) {
        b.cut = true;
    }
    b.world->set_power(nullptr);
    return b;
}

// After the reboot: the surviving folder and journal, the desktop as it was; recovery from the
// journal's complete lines alone, cut at `cut_at` (0: never). No journal: nothing to recover.
Boot recover(const sim::Survivors& s, const sim::WorldState& desktop, const DurabilityPlans& plans, std::size_t cut_at) {
    sim::WorldState state;
    state.fs = s.files;
    state.windows = desktop.windows;
    state.invoked = desktop.invoked;
    Boot b = start(state, {}, s.journal, plans, cut_at);
    if (s.journal) {
        const host::EntriesOrError parsed = host::parse_journal(journal_lines(*s.journal), /*desktop=*/true);
        if (!parsed.error.empty()) {
            b.error = "recovery: the journal cannot be read back: " + parsed.error;
        } else {
            b.read = parsed.entries;
            try {
                sim::DiskJournal journal(*b.power);
                UndoTool tool(UndoPorts{&b.world->files(), &b.world->desktop(), &journal});
                tool.recover(parsed.entries);
            } catch (const sim::PowerCut&) {
                b.cut = true;
            }
        }
    }
    b.world->set_power(nullptr);
    return b;
}

std::vector<std::string> lines_of(const sim::Disk& disk) {
    const auto journal = disk.cached().journal;
    return journal ? journal_lines(*journal) : std::vector<std::string>{};
}

// The judgement of what a task's cut and recoveries left (`boots`: the task, then each recovery).
std::optional<std::string> judge(const sim::R0Fixture& f, const PowerRun& how, const std::vector<const Boot*>& boots) {
    const Boot& task = *boots.front();
    const Boot& first = *boots.at(1);
    const Boot& last = *boots.back();
    for (const Boot* b : boots) {
        if (!b->error.empty()) return b->error;
    }
    bool done = false;
    bool undo_begun = false;
    for (const JournalEntry& e : first.read) {
        if (e.task != task_id(f)) continue;
        done = done || e.status == JournalStatus::Done;
        undo_begun = undo_begun || (e.status != JournalStatus::Intent && e.status != JournalStatus::Done);
    }
    const std::vector<std::string> journal = lines_of(last.power->disk());
    if (done && !undo_begun) {  // the task finished, durably: its effects must be there, left alone
        const auto after = reference_after(f.initial, f.steps);
        if (!after) return "a task that cannot finish has a done line";
        sim::FsTree want = after->fs;
        for (const auto& o : task.world->truth().others_done) sim::add_file(want, o.path, o.bytes);
        const sim::FsTree& got = last.world->state().fs;
        if (want != got) {
            sim::WorldState w, g;
            w.fs = want;
            g.fs = got;
            return "finished task: " + sim::state_diff(w, g, 1).front();
        }
        if (journal.size() != first.read.size()) return "finished task: recovery wrote to the journal of a finished task";
        return std::nullopt;
    }
    R0Run run;
    run.fixture = &f;
    run.allow_irreversible = f.allow_irreversible;
    if (how.fail_at != 0) run.failed_after_step = how.fail_at;
    run.fault = how.fault;
    run.final_state = last.world->state();
    run.truth = task.world->truth();
    for (std::size_t i = 1; i < boots.size(); ++i) {
        const auto& ops = boots[i]->world->truth().ops;
        run.truth.ops.insert(run.truth.ops.end(), ops.begin(), ops.end());
    }
    run.crashed = true;
    run.report.task_id = task_id(f);
    run.journal = journal;
    return failure_leaves_nothing(run);
}

// Every combination of fates when there are at most power_fates_max, else all lost, all kept, all
// torn (entries: kept) and draws from `rng`.
std::vector<std::vector<Fate>> combinations(const std::vector<sim::VolatileChange>& changes, sim::Prng& rng, bool& drawn) {
    std::size_t total = 1;
    bool over = false;
    for (const auto& c : changes) {
        if (total > power_fates_max / c.fates()) over = true;
        else total *= c.fates();
    }
    std::vector<std::vector<Fate>> out;
    drawn = over;
    if (!over) {
        for (std::size_t n = 0; n < total; ++n) {
            std::vector<Fate> fates;
            std::size_t rest = n;
            for (const auto& c : changes) {
                fates.push_back(static_cast<Fate>(rest % c.fates()));
                rest /= c.fates();
            }
            out.push_back(std::move(fates));
        }
        return out;
    }
    out.emplace_back(changes.size(), Fate::Lost);
    out.emplace_back(changes.size(), Fate::Kept);
    std::vector<Fate> torn;
    for (const auto& c : changes) torn.push_back(c.data ? Fate::Torn : Fate::Kept);
    out.push_back(std::move(torn));
    while (out.size() < power_fates_max) {
        std::vector<Fate> fates;
        for (const auto& c : changes) fates.push_back(static_cast<Fate>(rng.below(c.fates())));
        out.push_back(std::move(fates));
    }
    return out;
}

std::string describe(const std::vector<sim::VolatileChange>& changes, const std::vector<Fate>& fates) {
    static constexpr const char* names[] = {"lost", "kept", "torn"};
    std::string s = "[";
    for (std::size_t i = 0; i < changes.size(); ++i) {
        s += (i == 0 ? "" : "; ") + changes[i].what + ": " + names[static_cast<std::size_t>(fates[i])];
    }
    return s + "]";
}

std::uint64_t salt(const sim::R0Fixture& f, const PowerRun& how, std::size_t cut) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the fixture's name and the run's
    for (const char c : f.name + "/" + how.name()) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h ^ static_cast<std::uint64_t>(cut);
}

}  // namespace

std::string PowerRun::name() const {
    std::string s = fail_at == 0 ? "" : "step " + std::to_string(fail_at) + " fails";
    if (fault) s += (s.empty() ? "" : ", ") + std::string("op ") + std::to_string(fault->op) + " " + std::string(sim::to_string(fault->kind));
    return s.empty() ? "finished" : s;
}

std::vector<PowerRun> power_runs(const sim::R0Fixture& f) {
    std::vector<PowerRun> out{PowerRun{}};
    for (std::uint32_t k = 1; k <= f.steps.size(); ++k) out.push_back(PowerRun{k, std::nullopt});
    sim::World dry(f.initial, f.others, std::nullopt);
    MemoryJournal journal;
    UndoTool(UndoPorts{&dry.files(), &dry.desktop(), &journal}).run(Task{task_id(f), f.steps, f.allow_irreversible});
    for (const sim::OpRecord& op : dry.truth().ops) {
        const bool write = op.what == "write";
        if (write || op.what == "make_folder" || op.what == "move" || op.what == "remove")
            out.push_back(PowerRun{0, sim::OpFault{op.index, write ? sim::OpFaultKind::PartialWrite : sim::OpFaultKind::NoSpace}});
    }
    if (!f.steps.empty() && !dry.truth().ops.empty()) {  // the rollback's first operation fails
        const auto last = static_cast<std::uint32_t>(f.steps.size());
        out.push_back(PowerRun{last, sim::OpFault{dry.truth().ops.size() + 1, sim::OpFaultKind::PermissionDenied}});
    }
    return out;
}

PowerRow run_power_row(const sim::R0Fixture& f, const PowerRun& how, std::uint64_t seed, const DurabilityPlans& plans) {
    PowerRow row;
    row.fixture = f.name;
    row.run = how.name();
    const Boot whole = run_task(f, how, plans, 0);
    const std::vector<Primitive> issued = whole.power->issued();
    row.primitives = issued.size();
    row.cut_points = row.primitives + 1;
    for (std::size_t c = 1; c <= row.cut_points; ++c) {
        sim::Prng rng(seed ^ salt(f, how, c));
        const Boot task = run_task(f, how, plans, c);  // c = P + 1: never reached, cut after the end
        const std::vector<sim::VolatileChange> changes = task.power->disk().volatile_changes();
        bool drawn = false;
        const std::vector<std::vector<Fate>> all = combinations(changes, rng, drawn);
        row.drawn += drawn ? 1 : 0;
        row.volatile_max = std::max(row.volatile_max, changes.size());
        const std::size_t recut = rng.below(all.size());
        bool held = true;
        const std::string where = c <= issued.size() ? "cut before primitive " + std::to_string(c) + " of " + std::to_string(issued.size()) + " (" +
                                                           std::string(to_string(issued[c - 1])) + ")"
                                                     : "cut after the end (" + std::to_string(issued.size()) + " primitives)";
        const auto fail = [&](const std::string& why) {
            held = false;
            if (row.failures.size() < power_failures_kept) row.failures.push_back(row.run + ", " + why);
        };
        for (std::size_t i = 0; i < all.size(); ++i) {
            const sim::Survivors s = task.power->disk().survive(all[i]);
            const Boot first = recover(s, task.world->state(), plans, 0);
            ++row.survivals;
            if (auto why = judge(f, how, {&task, &first})) fail(where + ", " + describe(changes, all[i]) + ": " + *why);
            if (i != recut || first.power->primitives() == 0) continue;
            // The recovery itself loses power at a primitive drawn from the seed, then runs again.
            const std::size_t r = 1 + rng.below(first.power->primitives());
            const Boot cut = recover(s, task.world->state(), plans, r);
            const std::vector<sim::VolatileChange> again = cut.power->disk().volatile_changes();
            std::vector<Fate> fates;
            for (const auto& v : again) fates.push_back(static_cast<Fate>(rng.below(v.fates())));
            const Boot second = recover(cut.power->disk().survive(fates), cut.world->state(), plans, 0);
            ++row.recovery_cuts;
            if (auto why = judge(f, how, {&task, &cut, &second}))
                fail(where + ", " + describe(changes, all[i]) + ", recovery cut before its primitive " + std::to_string(r) + ", " +
                     describe(again, fates) + ": " + *why);
        }
        row.held += held ? 1 : 0;
    }
    return row;
}

PowerResult run_power_bench(const std::vector<sim::R0Fixture>& fixtures, std::uint64_t seed, const DurabilityPlans& plans) {
    PowerResult out;
    for (const sim::R0Fixture& f : fixtures) {
        for (const PowerRun& how : power_runs(f)) {
            PowerRow row = run_power_row(f, how, seed, plans);
            out.cut_points += row.cut_points;
            out.held += row.held;
            out.survivals += row.survivals;
            out.recovery_cuts += row.recovery_cuts;
            out.drawn += row.drawn;
            out.volatile_max = std::max(out.volatile_max, row.volatile_max);
            out.rows.push_back(std::move(row));
        }
    }
    return out;
}

}  // namespace deskcheck::r0
