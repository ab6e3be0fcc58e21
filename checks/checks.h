// The checks: one plain function per promise (no RapidCheck, no Boost), judging
// (scenario, ground truth, the tool's report). The RapidCheck properties and the fuzz targets call
// these same functions: a property is never written twice (DESIGN "Folders").
//
// A check that cannot judge a run says so (STYLE 7) with the reason: a fault the tool does not
// promise to survive shaped the evidence (STYLE 5), or the run never reached what it checks.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checks/history.h"
#include "sim/scenario.h"

namespace deskcheck::props {

struct Violation {
    std::string property;
    std::optional<std::uint32_t> step;
    std::string explanation;
};

enum class CheckStatus : std::uint8_t { Holds, Violated, CannotJudge };
std::string_view to_string(CheckStatus s);

struct CheckResult {
    CheckStatus status = CheckStatus::Holds;
    std::optional<Violation> violation;  // when Violated
    std::string why_not_judged;          // when CannotJudge
    std::uint32_t judged = 0;            // how many items (steps, clicks, segments) were judged
    // Holds on the items judged, while others (segments, steps) could not be: how many, and why.
    std::uint32_t not_judged_items = 0;
    std::string why_partly_not_judged;

    static CheckResult holds(std::uint32_t judged_items);
    static CheckResult cannot_judge(std::string why);
    static CheckResult violated(std::string property, std::optional<std::uint32_t> step, std::string explanation);
};

// B-2, W-2: no step is delivered more than once (a W-2 agent may retry only a not_done, once);
// no non-idempotent effect (form submitted, comment posted) happens more than once per step.
CheckResult no_resend_after_unknown(const sim::Scenario& scenario, const History& run);

// B-1: nothing after the first Absent/error is delivered; the report stops there and carries that
// step's evidence.
CheckResult batch_stops_at_first_failure(const sim::Scenario& scenario, const History& run);

// F-1..F-6: after every batch and every single action — normal end, failure, exception — the
// foreground is the one from before, unless an unrelated window took it (then untouched and
// reported); at most one borrow per batch.
CheckResult foreground_returned(const sim::Scenario& scenario, const History& run);

// V-1, V-2, D-1..D-3: Confirmed only if this step's promised effect holds in ground truth; Absent
// only if it does not, and does not arrive later within the app's declared latency bound.
CheckResult verdict_sound(const sim::Scenario& scenario, const History& run);

// E-5, E-6: every delivered coordinate click hits the target window, on the control meant, at the
// physical point meant (within the 1 px of integer DPI rounding).
CheckResult click_lands_on_target(const sim::Scenario& scenario, const History& run);

// E-2, E-3: every input delivered to an element went to the element the step meant, in the
// step's target window; a ref of another window is never used.
CheckResult ref_never_crosses_windows(const sim::Scenario& scenario, const History& run);

// B-3, O-4, W-4: a step that depends on an earlier one is sent only when the tool's boundary
// observation of the earlier step's write said `observed` and that write had really landed; the
// boundary reading reported is one the desktop served. (checks/boundary_check.cpp)
CheckResult dependent_step_only_after_observed(const sim::Scenario& scenario, const History& run);

// P-1, F-2, W-1, W-3: every claim in the tool's report is true in the ground truth — the readbacks
// are what the desktop served, the delivery named is the one made, the foreground evidence
// (borrowed, restored, unchanged, changedBy, durationMs, waitedForUserMs) matches the foreground
// history and requests, and no not_done is said of an effect of the step that landed.
// (checks/report_check.cpp)
CheckResult report_matches_ground_truth(const sim::Scenario& scenario, const History& run);

// V-1, V-3, V-5, V-7, D-3: when the deciding reads of an observable promise were readable, fresh
// and settled and nothing else touched the element, the verdict is Confirmed or Absent, not
// Unknown (the documented exceptions: checks/decisive_check.cpp). (checks/decisive_check.cpp)
CheckResult verdict_decisive(const sim::Scenario& scenario, const History& run);

// E-4, F-7: every input the tool sent was one its control accepts (the app neither refused nor
// ignored it), unless another hand changed the foreground or removed the control while the step
// ran; and the tool took the foreground only for a window whose app ignores input in the background
// (WPF/WinUI-like). (checks/delivery_check.cpp)
CheckResult input_fits_the_control(const sim::Scenario& scenario, const History& run);

using CheckFn = CheckResult (*)(const sim::Scenario&, const History&);

struct NamedCheck {
    std::string_view name;
    std::string_view spec;
    CheckFn fn;  // nullptr for `deterministic` (S-1), which the harness judges by running the scenario
                 // twice more (harness/deterministic.h): not a judgement of one history
};

// Every check, in a fixed order (deterministic last).
std::span<const NamedCheck> all_checks();
const NamedCheck* find_check(std::string_view name);

}  // namespace deskcheck::props
