// A batch report's claims (B-1, B-3, F-5), both ways — see checks/claim_checks.h.
//
// Where it stopped is judged against its own step reports (the first not ok: an error or Absent,
// B-1; those reports are judged against the ledger by the rest of report_matches_ground_truth and
// by batch_stops_at_first_failure); how it held the front, against the foreground changes of its
// segment. Nothing in model/ is called.
#include <algorithm>
#include <string>

#include "checks/claim_checks.h"

namespace deskcheck::props {
namespace {

std::string error_name(const std::optional<Error>& e) { return e ? std::string(name_of(e->kind)) : "no error"; }

// B-1, B-3: the first step whose answer is not ok stops the batch, with that step's error.
std::optional<std::string> stop_lie(const std::string& who, const History& run, const Segment& seg, const BatchReport& b) {
    std::optional<std::uint32_t> first_failed;
    for (std::size_t k = 0; k < seg.reports.size() && !first_failed; ++k) {
        if (!run.steps[seg.reports[k]].result.ok) first_failed = static_cast<std::uint32_t>(k);
    }
    if (b.stopped_at != first_failed) {
        if (!first_failed) return who + " says it stopped at its step " + std::to_string(*b.stopped_at) + ", but every step it ran answered ok (B-1)";
        return who + (b.stopped_at ? " says it stopped at its step " + std::to_string(*b.stopped_at) : " says it did not stop") + ", but its step " +
               std::to_string(*first_failed) + " failed (B-1)";
    }
    const std::optional<Error> expected_error = first_failed ? run.steps[seg.reports[*first_failed]].result.error : std::nullopt;
    if (b.stop_error != expected_error) {
        return who + " stops with " + error_name(b.stop_error) + ", but the step that stopped it answered " + error_name(expected_error) + " (B-1)";
    }
    const bool escalation = expected_error && expected_error->kind == ErrorKind::Escalate;
    if (b.escalated != escalation) {
        return who + (b.escalated ? " says it escalated, but it stopped with " + error_name(expected_error) : " leaves out that it stopped to escalate a dependency (B-3)");
    }
    return std::nullopt;
}

// The tool's moves of the front off its targets to a window related to none of them (at most one
// per borrow) that stood — not those that put back an app's grab (F-3): a move to where the front
// was before a run of moves by others.
std::uint32_t handed_back_in(const sim::Scenario& scenario, const History& run, const Segment& seg) {
    const auto& changes = run.truth().foreground_changes;
    std::uint32_t handed_back = 0;
    for (std::size_t i = seg.changes_begin; i < seg.changes_end && i < changes.size(); ++i) {
        const auto& ch = changes[i];
        if (ch.by != sim::Actor::Tool || !related_to_a_target(run, scenario, seg, ch.from) || related_to_a_target(run, scenario, seg, ch.to)) continue;
        bool answers_a_grab = false;
        for (std::size_t j = i; j > seg.changes_begin && changes[j - 1].by != sim::Actor::Tool; --j) answers_a_grab = answers_a_grab || ch.to == changes[j - 1].from;
        // One that someone else undid before the call ended is left out of the count: the tool may
        // have taken that move for its app's grab and tried again (F-3), and reports what it saw.
        const bool undone = i + 1 < seg.changes_end && i + 1 < changes.size() && changes[i + 1].by != sim::Actor::Tool;
        if (!answers_a_grab && !undone) ++handed_back;
    }
    return handed_back;
}

// F-5: borrows and give-backs, from the segment's foreground changes and requests. Which moves
// were borrows and which put-backs (F-3) is not told apart here: a borrow needs a move of the
// tool's, another borrow a move by someone else before it, a give-back a request (or the owner
// back in front at the end), and the counts must agree with `foreground_returned`.
std::optional<std::string> borrow_count_lie(const std::string& who, const sim::Scenario& scenario, const History& run, const Segment& seg,
                                            const BatchReport& b) {
    const auto& changes = run.truth().foreground_changes;
    const WindowId owner = seg.foreground_before;
    std::uint32_t tool_moves = 0, others = 0;
    for (std::size_t i = seg.changes_begin; i < seg.changes_end && i < changes.size(); ++i) {
        if (changes[i].by == sim::Actor::Tool) ++tool_moves;
        else ++others;
    }
    const std::size_t requests = seg.requests_end - std::min(seg.requests_begin, seg.requests_end);
    const std::string counts = who + " counts " + std::to_string(b.borrows);
    if (b.borrows > 0 && tool_moves == 0) return counts + " borrow(s), but the tool never moved the front (F-5)";
    if (b.borrows > 1 + others) {
        return counts + " borrows, but only " + std::to_string(others) + " foreground change(s) by someone else could have made the tool take it again (F-5)";
    }
    // Without a request, a give-back is one only when such a window was in front anyway at the end
    // (the user brought it back: nothing to ask for).
    if (b.give_backs > b.borrows || (b.give_backs > 0 && requests == 0 && seg.foreground_after != owner)) {
        return who + " counts " + std::to_string(b.give_backs) + " give-back(s) for " + std::to_string(b.borrows) +
               " borrow(s), but the tool made no foreground request, nor was " + w_name(owner) + " in front at the end (F-5)";
    }
    const std::uint32_t taken = borrows_in(run, scenario, seg, seg.changes_end);
    if (b.borrows < taken) {
        return counts + " borrow(s), but the tool took the front onto its targets from another window " + std::to_string(taken) + " time(s) (F-5)";
    }
    const std::uint32_t handed_back = handed_back_in(scenario, run, seg);
    if (b.give_backs < std::min(handed_back, b.borrows)) {
        return who + " counts " + std::to_string(b.give_backs) + " give-back(s), but the tool gave the front back from its targets " +
               std::to_string(handed_back) + " time(s) for " + std::to_string(b.borrows) + " borrow(s) (F-5)";
    }
    if (b.foreground_returned != (b.give_backs == b.borrows)) {
        return who + (b.foreground_returned ? " says it gave the front back, but it counts " : " says it did not give the front back, but it counts ") +
               std::to_string(b.give_backs) + " give-back(s) for " + std::to_string(b.borrows) + " borrow(s) (F-5)";
    }
    return std::nullopt;
}

}  // namespace

ClaimJudgement batch_report_claims(const sim::Scenario& scenario, const History& run, const Segment& seg) {
    if (!seg.batch_report || *seg.batch_report >= run.batches.size()) return {};
    const BatchReport& b = run.batches[*seg.batch_report];
    const std::string who = "the batch report";
    if (auto lie = stop_lie(who, run, seg, b)) return {lie, std::nullopt};
    if (auto lie = borrow_count_lie(who, scenario, run, seg, b)) return {lie, std::nullopt};
    return {};
}

}  // namespace deskcheck::props
