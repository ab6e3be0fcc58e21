// The tool's extension points (issue 11): how a state is read, how the after-readback is taken,
// which window a ref resolves in, how a point is hit-tested and converted, which verdict is
// reported, whether a failure gives the foreground back at once, whether the batch sends a step
// again, and (GiveBackPolicy, model/guard.h) how a give-back treats another window and reports
// itself. Every default here is the tool as SPEC specifies it. The negative proofs override one
// each with a deliberately wrong implementation, outside the model (harness/mutations.h): the
// model carries no branch for a known-wrong behaviour.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "model/desktop.h"
#include "model/guard.h"
#include "model/tool.h"
#include "model/verdict.h"

namespace deskcheck {

// E-4, F-7: how an input reaches its control, and whether its window needs the foreground.
struct DeliveryPlan {
    DeliveryPlan() = default;
    DeliveryPlan(DeliveryMethod m, bool foreground, std::optional<ElementId> e = std::nullopt)
        : method(m), needs_foreground(foreground), element(e) {}
    DeliveryMethod method = DeliveryMethod::PostedKeys;
    bool needs_foreground = false;
    // A coordinate click the tool turned into a click message (E-4): the classic button at the point.
    std::optional<ElementId> element;
};

class ToolHooks : public GiveBackPolicy {
public:
    // The tool as specified: every hook at its default.
    static const ToolHooks& specified();

    // V-2: the readings an action of `kind` is judged on, before and after it (each optional).
    virtual Snapshot read_state(Desktop& desktop, WindowId window, ElementId element, ActionKind kind,
                                ClickState state) const;
    // P-1: the after-readback of a delivered action; `read` takes it (settling under `current`).
    virtual Snapshot read_after(const Snapshot& before, const std::function<Snapshot()>& read) const;
    // E-3: the window a ref is resolved in — its own, which must be the request's target.
    virtual std::variant<WindowId, Error> window_of_ref(const std::string& ref, WindowId ref_window,
                                                        WindowId target) const;
    // E-2: the element a locator names in the window's tree — the path first, then the search.
    virtual std::variant<Resolved, Error> resolve_ref(const ElementTree& tree, const Locator& locator) const;
    // E-5: a coordinate point must hit the target or a popup it owns; nullopt when it does.
    virtual std::optional<Error> coordinate_hit(Desktop& desktop, Point physical, WindowId target) const;
    // E-5: a real click at an element's centre must hit its window itself; nullopt when it does.
    virtual std::optional<Error> element_centre_hit(Desktop& desktop, Point physical, WindowId window) const;
    // E-6: a physical screen point to the client point the window expects.
    virtual Point to_client(const WindowInfo& window, Point physical) const;
    // V-1, W-1: the verdict the tool reports for the one its rules judged.
    virtual Verdict reported_verdict(Verdict judged, bool settled, ActionKind kind) const;
    // F-6: a failure after a borrow gives the foreground back at once (false: not before the end).
    virtual bool gives_back_on_failure() const;
    // F-7 under a rule set that settles (D-3): a borrowed window is held until the tool's input into
    // it has landed (its app's declared bound has passed) before its front is given away.
    virtual bool holds_until_input_lands() const;
    // B-2: whether the batch sends a step again after its report (never, as specified).
    virtual bool resends(const StepReport& report) const;
    // B-3, O-4: a step that depends on an earlier one observes it first (always, as specified).
    virtual bool observes_dependencies() const;
    // O-4: the judgements a dependent step runs on (`observed` only, as specified).
    virtual bool proceeds_on(const ObservationJudgement& judgement) const;
    // W-2: the one retry rule (may_retry_write, model/write.h).
    virtual bool may_retry(WriteOutcome outcome, bool has_idempotency_key) const;
    // E-4, F-7: the delivery of a step's input, chosen per control (`node`: the element acted on, or
    // for a coordinate click the element at its point) — detail::choose_delivery, as specified.
    virtual DeliveryPlan plan_delivery(const WindowInfo& window, const ElementNode* node, const Request& request,
                                       const ActionFacts& facts) const;
    // W-2: the idempotency key delivered with a step's input (the request's own, as specified).
    virtual std::optional<std::string> key_sent(const Request& request) const;
    // E-3: the element whose ref comes back as the step's focused_ref (`acted`: the element the step
    // names): the window's focused element, asked of the desktop, as specified.
    virtual std::optional<ElementId> focused_after(Desktop& desktop, WindowId window, std::optional<ElementId> acted) const;
};

}  // namespace deskcheck
