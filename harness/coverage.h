// What a case exercised, as tags (STYLE 10: a property that never met an occluded window has not
// been tested against one). One vocabulary for `deskcheck run`, `nightly` (its expected tags), the
// RapidCheck properties (RC_CLASSIFY) and `bench`: the tags are read from the ground truth, the
// tool's report and the scenario, never from how the scenario was drawn.
#pragma once

#include <string>
#include <vector>

#include "harness/run.h"
#include "sim/scenario.h"

namespace deskcheck::props {

// Sorted, unique. The vocabulary:
//   events that happened:      user_typing user_click window_to_front popup tree_reorder
//                              control_removed occluder
//   the foreground:            borrow wpf_borrow app_took_foreground another_window_took_foreground
//                              foreground_refused waited_for_user
//   faults that fired:         stale_read unreadable_read delivery_exception delivery_error
//                              latency_overrun input_ignored
//   faults switched on:        fault_read_failure fault_stale_read fault_delivery_error
//                              fault_delivery_exception fault_foreground_refusal fault_latency_overrun
//   clicks:                    occluded_click dpi_stretched_click
//   the report:                verdict_confirmed verdict_absent verdict_unknown error error:<kind>
//                              dependency_observed agent_retry batch_stopped
//   the agent:                 reused_element_ref reused_focused_ref (a ref a report handed back, E-3)
//   the scenario's shape:      single_actions launch e3_ref_of_other_window
//   positions: each event, foreground change or refusal, read fault, delivery failure, ignored
//   input and overrun above also as TAG@first (up to the end of the first step), TAG@later (in a
//   later step) or TAG@after (after the tool's last answer), e.g. user_typing@later
std::vector<std::string> coverage_tags(const sim::Scenario& scenario, const RunResult& run);

// The tags the RapidCheck properties classify by (a short list, so the distribution stays readable).
inline constexpr const char* classified_tags[] = {
    "occluded_click", "dpi_stretched_click", "waited_for_user", "wpf_borrow", "app_took_foreground",
    "unreadable_read", "latency_overrun", "verdict_absent", "verdict_confirmed"};

}  // namespace deskcheck::props
