// The failure_leaves_nothing campaign: generated fixtures (sim/r0_generate.h) with a failure at a
// generated step or operation, judged by the shared check; a violating case is shrunk over its
// choice list (shorter — one decision, or a block of them — then smaller values) to a small
// counterexample.
//
// One case in four (a decision after the failure point, 3 of [0, 4): shrinking goes towards no
// crash) is also killed at a generated event — a journal append or an operation, 1..E where E is
// the events of the same run without the kill — and recovered in process from its journal alone
// (harness/r0_crash.h); one of two of those has its recovery killed too, at 1..R of its R
// events, and run again. The recovered world is judged by the same check.
//
// One case in four of the rest runs the normal path and undoes the finished task (undo_restores,
// harness/r0_check.h); one of two of those has an operation of the undo fail. One failure case in
// eight has a file step's path leave the root: refused at that step before anything acts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/undo.h"
#include "harness/r0_crash.h"
#include "sim/r0_generate.h"

namespace deskcheck::r0 {

inline constexpr std::size_t r0_shrink_attempts_max = 4'000;

// Where a crash case is killed (events numbered from 1; the event killed at does not happen).
struct R0CrashPoint {
    bool crashed = false;
    std::size_t at_event = 0;           // the task is killed here
    std::size_t events = 0;             // of E, the events of the same run without the kill
    std::size_t recovery_at_event = 0;  // 0: the recovery ran to its end; else it was killed here, then ran again
    std::size_t recovery_events = 0;    // of R
    std::size_t undone_by_recovery = 0; // steps the (last) recovery reported restored
};

struct R0CaseResult {
    std::vector<std::uint32_t> choices;  // the decisions the case was built from
    sim::R0Fixture fixture;
    sim::R0FailurePoint point;
    R0CrashPoint crash;
    bool normal_then_undo = false;          // the task ran without a failure and was undone (`point` unused)
    std::optional<sim::OpFault> undo_fault; // ... and this operation of the undo failed
    bool leaves_root = false;               // a file step's path leaves the root
    std::optional<std::string> violation;
    // What the case's run did — its journal, the world after it against the world before, the
    // reports — as one FNV-1a digest: two builds whose digests agree on every case behaved the same.
    std::uint64_t digest = 0;
};

// Builds the case from `choices` (past their end every decision is 0) and judges it. `recovery`:
// how a crash case recovers (nullptr: the tool's own recover; the negative proofs pass a wrong one).
R0CaseResult run_r0_case(const std::vector<std::uint32_t>& choices, const UndoPolicy* policy, const R0Recovery* recovery = nullptr);
// The same from a PRNG; the decisions taken are recorded in the result's `choices`.
R0CaseResult run_r0_case(sim::Prng& rng, const UndoPolicy* policy, const R0Recovery* recovery = nullptr);
// Shrinks a violating case's choices, keeping it violating; returns the smallest found.
R0CaseResult shrink_r0_case(const R0CaseResult& failing, const UndoPolicy* policy, const R0Recovery* recovery = nullptr);

struct R0CampaignResult {
    std::uint64_t seed = 0;
    std::size_t cases = 0;      // run
    std::size_t violations = 0; // 0 or 1: the campaign stops at the first
    std::optional<R0CaseResult> first;   // as found
    std::optional<R0CaseResult> shrunk;  // after shrinking
    // Distribution (STYLE 10): what the generated cases met.
    std::size_t at_operation = 0, with_others = 0, with_ui = 0, null_values = 0;
    // Crash cases: killed mid-task and recovered in process; of those, where the recovery undid at
    // least one step, and where the recovery itself was killed and run again.
    std::size_t crashed = 0, recovered = 0, recovery_crashed = 0;
    // Normal path then undo, and of those, an operation of the undo failing.
    std::size_t normal_undo = 0, undo_faulted = 0;
    // Failure cases with a step whose path leaves the root.
    std::size_t leaving_root = 0;
    bool interrupted = false;  // the stop request said stop: the cases so far
};

// Runs `cases` cases from `seed`; stops at the first violation (then shrinks it), or when `stop`
// (looked at before every case) says stop.
// `digests`: when given, each case's digest is appended, in order.
R0CampaignResult run_r0_campaign(std::uint64_t seed, std::size_t cases, const UndoPolicy* policy,
                                 const R0Recovery* recovery = nullptr, const std::function<bool()>& stop = {},
                                 std::vector<std::uint64_t>* digests = nullptr);

// The property a case is judged by: "undo_restores" (normal path then undo) or "failure_leaves_nothing".
std::string_view property_of(const R0CaseResult& c);
// A fixture and failure point as one readable line ("3 steps: file.write out/new/a.txt, ...; fails after step 2").
std::string describe_case(const R0CaseResult& c);

}  // namespace deskcheck::r0
