#include "model/tool_hooks.h"
#include "model/tool_detail.h"

#include "model/write.h"

#include "model/marks.h"

namespace deskcheck {

const ToolHooks& ToolHooks::specified() {
    static const ToolHooks hooks;  // stateless: every call answers the same
    return hooks;
}

Snapshot ToolHooks::read_state(Desktop& desktop, WindowId window, ElementId element, ActionKind kind,
                               ClickState state) const {
    return deskcheck::read_state(desktop, window, element, kind, state);
}

Snapshot ToolHooks::read_after(const Snapshot&, const std::function<Snapshot()>& read) const { return read(); }

std::variant<WindowId, Error> ToolHooks::window_of_ref(const std::string& ref, WindowId ref_window,
                                                       WindowId target) const {
    if (ref_window == target) return target;
    return Error{ErrorKind::CrossWindowRef, "ref " + ref + " belongs to window " + std::to_string(ref_window) +
                                                ", not to target " + std::to_string(target)};
}

std::variant<Resolved, Error> ToolHooks::resolve_ref(const ElementTree& tree, const Locator& locator) const {
    return resolve(tree, locator);
}

std::optional<Error> ToolHooks::coordinate_hit(Desktop& desktop, Point physical, WindowId target) const {
    const auto hit = desktop.window_at(physical);
    if (!hit) return Error{ErrorKind::TargetOccluded, "the point hits no window"};
    if (*hit == target) return std::nullopt;
    const auto info = desktop.window(*hit);
    if (info && info->owner && *info->owner == target) return std::nullopt;
    return Error{ErrorKind::TargetOccluded, "the point hits window " + std::to_string(*hit) + ", not the target"};
}

std::optional<Error> ToolHooks::element_centre_hit(Desktop& desktop, Point physical, WindowId window) const {
    const auto hit = desktop.window_at(physical);
    if (hit && *hit == window) return std::nullopt;
    return Error{ErrorKind::TargetOccluded, "the element's centre is covered by another window"};
}

Point ToolHooks::to_client(const WindowInfo& window, Point physical) const { return physical_to_client(window, physical); }

Verdict ToolHooks::reported_verdict(Verdict judged, bool, ActionKind) const { return judged; }

bool ToolHooks::gives_back_on_failure() const { return true; }
bool ToolHooks::holds_until_input_lands() const { return true; }

bool ToolHooks::resends(const StepReport&) const { return false; }

bool ToolHooks::observes_dependencies() const { return true; }

bool ToolHooks::proceeds_on(const ObservationJudgement& judgement) const {
    return judgement.outcome == ObservationOutcome::Observed;
}

bool ToolHooks::may_retry(WriteOutcome outcome, bool has_idempotency_key) const {
    return may_retry_write(outcome, has_idempotency_key);
}

std::optional<std::string> ToolHooks::key_sent(const Request& request) const { return request.idempotency_key; }

std::optional<ElementId> ToolHooks::focused_after(Desktop& desktop, WindowId window, std::optional<ElementId>) const {
    return desktop.focused_element(window);
}

DeliveryPlan ToolHooks::plan_delivery(const WindowInfo& window, const ElementNode* node, const Request& request,
                                      const ActionFacts& facts) const {
    return detail::choose_delivery(window, node, request, facts);
}

std::string_view to_string(Mark m) {
    switch (m) {
        case Mark::gave_back_after_exception: return "gave_back_after_exception";
        case Mark::gave_back_after_failure: return "gave_back_after_failure";
        case Mark::app_grab_put_back: return "app_grab_put_back";
        case Mark::another_window_left_alone: return "another_window_left_alone";
        case Mark::user_wait_timed_out: return "user_wait_timed_out";
        case Mark::user_wait_ended_by_pause: return "user_wait_ended_by_pause";
        case Mark::refusal_retried_with_f24: return "refusal_retried_with_f24";
        case Mark::foreground_refused_twice: return "foreground_refused_twice";
        case Mark::held_borrow_reused: return "held_borrow_reused";
        case Mark::held_borrow_lost_to_another_window: return "held_borrow_lost_to_another_window";
        case Mark::front_moved_while_pre_checks_waited: return "front_moved_while_pre_checks_waited";
        case Mark::batch_gave_back_at_end: return "batch_gave_back_at_end";
        case Mark::cross_window_ref_rejected: return "cross_window_ref_rejected";
        case Mark::element_found_by_search: return "element_found_by_search";
        case Mark::element_not_found: return "element_not_found";
        case Mark::element_resolved_again: return "element_resolved_again";
        case Mark::coordinate_click_occluded: return "coordinate_click_occluded";
        case Mark::element_centre_covered: return "element_centre_covered";
        case Mark::settle_poll_exhausted: return "settle_poll_exhausted";
        case Mark::settle_ended_on_confirmed: return "settle_ended_on_confirmed";
        case Mark::quiesced_before_action: return "quiesced_before_action";
        case Mark::dependency_escalated: return "dependency_escalated";
        case Mark::front_moved_while_write_reconciled: return "front_moved_while_write_reconciled";
        case Mark::count_: break;
    }
    return "?";
}

}  // namespace deskcheck
