// R-7 under power loss: the R0 tasks with the power cut at every primitive call (model/durability.h)
// of every port operation — the journal's included — and once more after the run's last one.
//
// For each fixture, runs (power_runs): the task finishing, the task failing at each step or
// operation and rolled back, an undo of that rollback failing. Each run goes on an in-memory disk (sim/memfs.h) and is cut before its primitive
// c, for every c in 1..P+1 (P: the run's primitives uncut; P+1: after its end, the tool returned).
// At each cut, every volatile change is lost, kept or torn: every combination when there are at
// most `fates_max`, else all lost, all kept, all torn and fates_max - 3 combinations drawn from the
// seed. Each combination comes back as a fresh process on a rebooted machine: the folder and the
// journal as they survived, the desktop as it was (not on the disk); a fresh UndoTool reads the
// complete lines of the surviving journal (host/journal_read.h, as `r0 recover` does) and recovers.
// At every cut one of those recoveries is itself cut at a primitive drawn from the seed, its own
// survivors drawn too, and recovery runs again on what is left.
//
// Judged by harness/r0_check.h: when the surviving journal holds the task's `done` line (and no
// undo line), the folder must be the reference after every step plus other programs' files, and
// recovery must leave it alone; otherwise the run is judged as a crashed one (failure_leaves_nothing:
// the folder as before the task plus others' files; every intent line has its undo line, last step
// first). A pure function of its fixtures, plans and seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/durability.h"
#include "sim/r0_world.h"

namespace deskcheck::r0 {

inline constexpr std::size_t power_fates_max = 64;     // combinations judged at one cut point
inline constexpr std::size_t power_failures_kept = 3;  // failure messages kept per row

struct PowerRow {
    std::string fixture;
    std::string run;              // PowerRun::name
    std::size_t primitives = 0;   // of the run uncut
    std::size_t cut_points = 0;   // primitives + 1
    std::size_t held = 0;         // cut points where every combination (and the cut recovery) held
    std::size_t survivals = 0;    // combinations judged
    std::size_t recovery_cuts = 0;  // recoveries cut, then run again
    std::size_t drawn = 0;          // cut points with more than power_fates_max combinations (drawn, not all)
    std::size_t volatile_max = 0;   // the most volatile changes at one cut point
    std::vector<std::string> failures;  // the first few, each naming the cut, the fates and why
};

struct PowerResult {
    std::vector<PowerRow> rows;
    std::size_t cut_points = 0, held = 0, survivals = 0, recovery_cuts = 0, drawn = 0, volatile_max = 0;
    bool pass() const { return held == cut_points; }
};

// The power-cut run over `fixtures` with the plans `plans` (the protocol by default).
PowerResult run_power_bench(const std::vector<sim::R0Fixture>& fixtures, std::uint64_t seed,
                            const DurabilityPlans& plans = DurabilityPlans{});

// How one run fails, if it does.
struct PowerRun {
    std::uint32_t fail_at = 0;         // the post-check of this step fails (0: none)
    std::optional<sim::OpFault> fault; // this operation fails
    std::string name() const;          // "finished", "step 2 fails", "op 3 partial_write", "step 2 fails, op 9 permission_denied"
};
// The runs of a fixture: finishing; the post-check of each step failing; a fault at each file
// operation of the finishing run (a partial write, no space elsewhere); the post-check of the last
// step failing and then the rollback's first operation (an undo that itself fails).
std::vector<PowerRun> power_runs(const sim::R0Fixture& fixture);

// One run under every cut; its row.
PowerRow run_power_row(const sim::R0Fixture& fixture, const PowerRun& run, std::uint64_t seed, const DurabilityPlans& plans);

}  // namespace deskcheck::r0
