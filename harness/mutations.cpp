#include "harness/mutations.h"

#include <utility>

#include "model/tool_hooks.h"

namespace deskcheck::props {
namespace {

// V-2 broken: reads an unreadable value as "".
class UnreadableAsEmpty final : public ToolHooks {
public:
    Snapshot read_state(Desktop& d, WindowId w, ElementId e, ActionKind kind, ClickState state) const override {
        Snapshot s = ToolHooks::read_state(d, w, e, kind, state);
        if (!s.value && kind != ActionKind::ClickStateful && kind != ActionKind::Unverifiable) s.value = std::string();
        return s;
    }
};

// B-2 broken: the batch re-sends a step whose verdict was Unknown.
class RetryUnknownOnce final : public ToolHooks {
public:
    bool resends(const StepReport& report) const override { return report.result.verdict == Verdict::Unknown; }
};

// F-5/F-6 broken: the foreground goes back only on the happy path.
class NoGiveBackOnFailure final : public ToolHooks {
public:
    bool gives_back_on_failure() const override { return false; }
};

// F-4 broken: the give-back restores over a window that took the front itself.
class RestoreOverAnotherWindow final : public ToolHooks {
public:
    bool leaves_front_to_another_window() const override { return false; }
};

// E-3 broken: a ref of window A resolves (and acts) in its own window, whatever the target.
class IgnoreWindowBinding final : public ToolHooks {
public:
    std::variant<WindowId, Error> window_of_ref(const std::string&, WindowId ref_window, WindowId) const override {
        return ref_window;
    }
};

// E-2 made useless: a ref whose identity another element of its snapshot shares is given up on, even
// where the path still leads to it ("never resolve to a wrong element" read as "never resolve").
class SharedIdentityGivesUp final : public ToolHooks {
public:
    std::variant<Resolved, Error> resolve_ref(const ElementTree& tree, const Locator& locator) const override {
        if (!locator.identity_unique) return Error{ErrorKind::ElementNotFound, "an identity shared in the snapshot"};
        return ToolHooks::resolve_ref(tree, locator);
    }
};

// E-5 made useless: every coordinate click is refused as covered, whatever the desktop answered
// when asked what is at the point (it is asked, and not listened to).
class OccludedWhateverHit final : public ToolHooks {
public:
    std::optional<Error> coordinate_hit(Desktop& desktop, Point physical, WindowId) const override {
        (void)desktop.window_at(physical);
        return Error{ErrorKind::TargetOccluded, "covered (whatever the desktop answered)"};
    }
};

// E-5 broken: clicks skip the occlusion check.
class ClickWithoutHitTest final : public ToolHooks {
public:
    std::optional<Error> coordinate_hit(Desktop&, Point, WindowId) const override { return std::nullopt; }
    std::optional<Error> element_centre_hit(Desktop&, Point, WindowId) const override { return std::nullopt; }
};

// E-6 broken: scales by monitor DPI / window DPI instead of window DPI / monitor DPI.
class InvertedDpi final : public ToolHooks {
public:
    Point to_client(const WindowInfo& w, Point p) const override {
        WindowInfo inverted = w;
        std::swap(inverted.window_dpi, inverted.monitor_dpi);
        return physical_to_client(inverted, p);
    }
};

// F-2 broken: reports restored:true although the give-back was refused.
class RestoredDespiteRefusal final : public ToolHooks {
public:
    void report(ForegroundEvidence& ev) const override { ev.restored = true; }
};

// F-1's claim left out: the report does not say the borrow's request was refused, F24 pressed and
// the request made again.
class RetryClaimDropped final : public ToolHooks {
public:
    void report(ForegroundEvidence& ev) const override { ev.retried_after_refusal = false; }
};

// F-1's claim made up: the report says the request was retried after F24 whatever happened.
class RetryClaimMadeUp final : public ToolHooks {
public:
    void report(ForegroundEvidence& ev) const override { ev.retried_after_refusal = true; }
};

// P-1 broken: the after-readback is the before snapshot, never read.
class PhantomReadback final : public ToolHooks {
public:
    Snapshot read_after(const Snapshot& before, const std::function<Snapshot()>&) const override { return before; }
};

// W-1 broken: a step left Unknown because the state had not settled says Absent.
class NotDoneDespiteEffect final : public ToolHooks {
public:
    Verdict reported_verdict(Verdict judged, bool settled, ActionKind kind) const override {
        if (judged == Verdict::Unknown && !settled && kind != ActionKind::Unverifiable) return Verdict::Absent;
        return judged;
    }
};

// V-1 broken in spirit: every Absent the evidence supports is said as Unknown (sound, useless).
class UnknownInsteadOfAbsent final : public ToolHooks {
public:
    Verdict reported_verdict(Verdict judged, bool, ActionKind) const override {
        return judged == Verdict::Absent ? Verdict::Unknown : judged;
    }
};

// C-4 broken: a Confirmed the evidence showed before the state settled (the settle loop ends on
// it) is said as Unknown — sound, and useless to an agent that must now read again itself.
class UnknownInsteadOfConfirmed final : public ToolHooks {
public:
    Verdict reported_verdict(Verdict judged, bool settled, ActionKind) const override {
        return judged == Verdict::Confirmed && !settled ? Verdict::Unknown : judged;
    }
};

// V-5, V-6 broken in spirit: typing is never judged, whatever its readings showed (sound, useless).
class UnknownForTyping final : public ToolHooks {
public:
    Verdict reported_verdict(Verdict judged, bool, ActionKind kind) const override {
        return kind == ActionKind::TypeText || kind == ActionKind::TypeWithNavigation ? Verdict::Unknown : judged;
    }
};

class SkipBoundaryObservation final : public ToolHooks {
public:
    bool observes_dependencies() const override { return false; }  // the bug B-3 forbids
};

class ProceedOnNeedsEvidence final : public ToolHooks {
public:
    bool proceeds_on(const ObservationJudgement& j) const override {
        return j.outcome == ObservationOutcome::Observed || j.outcome == ObservationOutcome::NeedsEvidence;  // O-4 broken
    }
};

// B-3 broken in spirit: no dependent step ever goes ahead (sound, useless).
class EscalateEveryDependency final : public ToolHooks {
public:
    bool proceeds_on(const ObservationJudgement&) const override { return false; }
};

// E-4 broken: a classic button gets a posted click (ignored while its window is inactive).
class PostedClickToButtons final : public ToolHooks {
public:
    DeliveryPlan plan_delivery(const WindowInfo& w, const ElementNode* node, const Request& r, const ActionFacts& f) const override {
        DeliveryPlan p = ToolHooks::plan_delivery(w, node, r, f);
        if (p.method == DeliveryMethod::ClickMessage) p = DeliveryPlan{DeliveryMethod::PostedClick, false};
        return p;
    }
};

// E-4 broken: a classic edit gets its select-all, clipboard and undo chords as posted keys (ignored
// while its window is inactive), not as the edit messages they stand for.
class PostedChordsToEdits final : public ToolHooks {
public:
    DeliveryPlan plan_delivery(const WindowInfo& w, const ElementNode* node, const Request& r, const ActionFacts& f) const override {
        DeliveryPlan p = ToolHooks::plan_delivery(w, node, r, f);
        if (r.kind == RequestKind::Hotkey && p.method == DeliveryMethod::EditMessage) p = DeliveryPlan{DeliveryMethod::PostedKeys, false};
        return p;
    }
};

// F-7 broken under a rule set that settles: the borrowed window's front is given away as soon as
// the input is delivered, so a WPF-like app pulls it forward again when the input lands.
class LetsGoBeforeLanding final : public ToolHooks {
public:
    bool holds_until_input_lands() const override { return false; }
};

// V-4 made useless: a hotkey's state is read without the window's unsaved marker, so a save can
// never be confirmed (Unknown is sound, and useless).
class HotkeyMarkerUnread final : public ToolHooks {
public:
    Snapshot read_state(Desktop& desktop, WindowId window, ElementId element, ActionKind kind, ClickState state) const override {
        if (kind != ActionKind::Hotkey) return ToolHooks::read_state(desktop, window, element, kind, state);
        Snapshot s;  // the value and the selection, as for typing: the marker is never asked for
        s.value = desktop.read_value(window, element);
        s.selection = desktop.read_selection(window, element);
        return s;
    }
};

// E-3 broken: the focused_ref names the element acted on, as if the focus never left it (a Tab in
// the text, an app or the user moving it meanwhile).
class FocusedRefIsActedElement final : public ToolHooks {
public:
    std::optional<ElementId> focused_after(Desktop& desktop, WindowId window, std::optional<ElementId> acted) const override {
        return acted ? acted : ToolHooks::focused_after(desktop, window, acted);
    }
};

// W-2 made useless: no retry is ever allowed, not even after a confirmed not_done.
class NeverAllowRetry final : public ToolHooks {
public:
    bool may_retry(WriteOutcome, bool) const override { return false; }
};

// F-7 broken the other way: every step takes the foreground, whatever its control needs.
class BorrowForEveryWindow final : public ToolHooks {
public:
    DeliveryPlan plan_delivery(const WindowInfo& w, const ElementNode* node, const Request& r, const ActionFacts& f) const override {
        DeliveryPlan p = ToolHooks::plan_delivery(w, node, r, f);
        p.needs_foreground = true;
        return p;
    }
};

class RetryUnknownWrite final : public ToolHooks {
public:
    bool may_retry(WriteOutcome outcome, bool has_key) const override {
        return outcome == WriteOutcome::Unknown || ToolHooks::may_retry(outcome, has_key);  // the bug W-2 forbids
    }
};

class DropIdempotencyKey final : public ToolHooks {
public:
    std::optional<std::string> key_sent(const Request&) const override { return std::nullopt; }  // W-2 broken
};

template <class Hooks>
const ToolHooks* instance() {
    static const Hooks hooks;  // stateless
    return &hooks;
}

}  // namespace

ToolConfig with_mutation(ToolConfig config, Mutation m) {
    switch (m) {
        case Mutation::None: break;
        case Mutation::UnreadableAsEmpty: config.hooks = instance<UnreadableAsEmpty>(); break;
        case Mutation::RetryUnknownOnce: config.hooks = instance<RetryUnknownOnce>(); break;
        case Mutation::NoGiveBackOnFailure: config.hooks = instance<NoGiveBackOnFailure>(); break;
        case Mutation::RestoreOverAnotherWindow: config.hooks = instance<RestoreOverAnotherWindow>(); break;
        case Mutation::IgnoreWindowBinding: config.hooks = instance<IgnoreWindowBinding>(); break;
        case Mutation::ClickWithoutHitTest: config.hooks = instance<ClickWithoutHitTest>(); break;
        case Mutation::InvertedDpi: config.hooks = instance<InvertedDpi>(); break;
        case Mutation::RestoredDespiteRefusal: config.hooks = instance<RestoredDespiteRefusal>(); break;
        case Mutation::PhantomReadback: config.hooks = instance<PhantomReadback>(); break;
        case Mutation::NotDoneDespiteEffect: config.hooks = instance<NotDoneDespiteEffect>(); break;
        case Mutation::UnknownInsteadOfAbsent: config.hooks = instance<UnknownInsteadOfAbsent>(); break;
        case Mutation::UnknownInsteadOfConfirmed: config.hooks = instance<UnknownInsteadOfConfirmed>(); break;
        case Mutation::UnknownForTyping: config.hooks = instance<UnknownForTyping>(); break;
        // F-1 broken: the guard takes the front while the user is busy, without waiting.
        case Mutation::NoUserWait: config.user_wait_ms_max = 0; break;
        // D-3 cut short: `current` polls for at most 100 ms, so an app slower than that is never
        // waited for; the answer stays Unknown (sound, and useless).
        case Mutation::SettleCutShort: config.settle_ms_max = 100; break;
        case Mutation::SkipBoundaryObservation: config.hooks = instance<SkipBoundaryObservation>(); break;
        case Mutation::ProceedOnNeedsEvidence: config.hooks = instance<ProceedOnNeedsEvidence>(); break;
        case Mutation::EscalateEveryDependency: config.hooks = instance<EscalateEveryDependency>(); break;
        case Mutation::RetryUnknownWrite: config.hooks = instance<RetryUnknownWrite>(); break;
        case Mutation::PostedClickToButtons: config.hooks = instance<PostedClickToButtons>(); break;
        case Mutation::PostedChordsToEdits: config.hooks = instance<PostedChordsToEdits>(); break;
        case Mutation::LetsGoBeforeLanding: config.hooks = instance<LetsGoBeforeLanding>(); break;
        case Mutation::HotkeyMarkerUnread: config.hooks = instance<HotkeyMarkerUnread>(); break;
        case Mutation::BorrowForEveryWindow: config.hooks = instance<BorrowForEveryWindow>(); break;
        case Mutation::FocusedRefIsActedElement: config.hooks = instance<FocusedRefIsActedElement>(); break;
        case Mutation::NeverAllowRetry: config.hooks = instance<NeverAllowRetry>(); break;
        case Mutation::DropIdempotencyKey: config.hooks = instance<DropIdempotencyKey>(); break;
        case Mutation::RetryClaimDropped: config.hooks = instance<RetryClaimDropped>(); break;
        case Mutation::RetryClaimMadeUp: config.hooks = instance<RetryClaimMadeUp>(); break;
        case Mutation::SharedIdentityGivesUp: config.hooks = instance<SharedIdentityGivesUp>(); break;
        case Mutation::OccludedWhateverHit: config.hooks = instance<OccludedWhateverHit>(); break;
    }
    return config;
}

}  // namespace deskcheck::props
