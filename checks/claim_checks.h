// Claims of reports the runner keeps beside the step reports, each judged against the ledger: part
// of report_matches_ground_truth (checks/checks.h), one file per report type. Every field such
// a check judges has its row in the claim table (checks/claim_table.h).
#pragma once

#include <optional>
#include <string>

#include "checks/history.h"
#include "checks/names.h"
#include "sim/kept.h"
#include "sim/scenario.h"
#include "sim/trace.h"

namespace deskcheck::props {

// How the checks print times, windows and readings in their explanations.
inline std::string t_at(TimeMs t) { return "t=" + std::to_string(t); }
inline std::string w_name(WindowId w) { return "w" + std::to_string(w); }
inline std::string shown(const std::optional<std::string>& v) { return v ? sim::shown_text(*v) : "(unreadable)"; }
inline std::string shown(const std::optional<sim::Kept>& v) { return v ? v->shown() : "(unreadable)"; }

// F-3 as SPEC states it (not the tool's configuration): after acting on a window in the background
// the tool watches the front for 350 ms, and an app's grab within that time is the tool's to answer.
inline constexpr TimeMs app_watch_ms_spec = 350;

// S-4, from the scenario alone (not the simulated desktop's bookkeeping): the latency bound the app
// of window `w` declares for an input's effect to land, with a post's feed delay on top; 0 for a
// window the scenario does not have.
TimeMs declared_bound_ms(const sim::Scenario& scenario, WindowId w);

// V-3 from the true state: the selection starts at 0 and covers the text (trailing CR/LF ignored).
inline bool covers(const TrueState& t) {
    return t.value && t.selection && t.selection->start == 0 && t.selection->length >= t.value_text_length;
}

struct ClaimJudgement {
    std::optional<std::string> lie;           // a wrong or a missing claim: a violation
    std::optional<std::string> cannot_judge;  // a fault the tool does not promise to survive stood in the way
};

// W-1, W-4, W-5: a write_once report (Segment::write) — its readings before, after and reconciled,
// the reconciling wait, done / not_done / unknown, escalate — against the reads the desktop served
// and the effects of the step, landed by the end of the run. Unknown is a missing claim when the
// last reading was clean and the effect had landed before it, or had not landed by the end and the
// reading came after the app's declared bound.
ClaimJudgement write_report_claims(const sim::Scenario& scenario, const History& run, const Segment& seg);

}  // namespace deskcheck::props

namespace deskcheck::props {

// B-1, B-3, F-5: a batch report (Segment::batch_report) — where it stopped and with what error,
// whether it escalated, how often it took the front and gave it back, whether it gave it back —
// against its step reports and the foreground changes of its segment.
ClaimJudgement batch_report_claims(const sim::Scenario& scenario, const History& run, const Segment& seg);

// F-5, from the ledger: the tool's moves of the front onto one of the segment's targets (or a
// window related to one) from a window related to none of them, among its changes up to `end`.
std::uint32_t borrows_in(const History& run, const sim::Scenario& scenario, const Segment& seg, std::size_t end);
// W-1, W-5: some attempt of `step` within timing `t` reached the app — delivered, or threw (a throw
// may have reached it). None: every attempt failed or was refused, or none was made.
bool reached_the_app(const History& run, const StepTiming& t, std::uint32_t step);
// F-3: `w` is one of the segment's targets, of the same process as one, or owned by one.
bool related_to_a_target(const History& run, const sim::Scenario& scenario, const Segment& seg, WindowId w);
// F-4 as SPEC words it: foreground change `change` was made by someone other than the tool (the
// user, another window, an app) and brought a window to the front unrelated to every window the
// tool had acted on before it (delivered to, or brought forward within the segment).
bool someone_elses_move(const sim::Scenario& scenario, const History& run, const Segment& seg, std::size_t change);
// F-3: `w` is `target`, a window of its process, or owned (transitively) by it — from the scenario.
bool related_window(const sim::Scenario& scenario, WindowId w, WindowId target);

}  // namespace deskcheck::props

namespace deskcheck::props {

// P-1, E-2, E-3, E-5, F-1, F-6, B-3: the error a step report ends on (its kind) states a fact the
// ledger or the scenario shows, and a delivery the desktop failed, refused or threw on is not hidden
// behind another ending. (checks/error_check.cpp)
std::optional<std::string> step_error_lie(const sim::Scenario& scenario, const History& run, const StepReport& report,
                                          const StepTiming& timing, const Segment& segment);

}  // namespace deskcheck::props
