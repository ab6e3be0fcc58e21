// Act and batch (SPEC P-1, E-2..E-6, V-9, D-3, B-1..B-4, F-5, F-6).
//
// A step runs in phases over one context (Tool::Step): resolve -> pre-checks -> borrow -> deliver
// -> read/settle -> judge -> give back -> register refs. Each phase is a function of its own that
// reads what the earlier ones left in the context; run_phases asserts between them what each
// promises. The foreground decisions (who moved the front, whom it is owed to) are pure functions
// of facts (model/foreground_decision.h); the phases gather the facts and apply the decisions.
#include <algorithm>
#include <cassert>

#include "model/foreground_decision.h"
#include "model/guard.h"
#include "model/marks.h"
#include "model/tool.h"
#include "model/tool_detail.h"
#include "model/tool_hooks.h"

namespace deskcheck {
namespace detail {

inline constexpr std::size_t settle_polls_max = 1000;

struct Target {
    WindowId window = no_window;  // where the element lives: the request's target
    TreePtr tree;  // set when resolved
    const ElementNode* node = nullptr;
    std::uint32_t node_index = 0;
};

}  // namespace detail

// One step as it goes through the phases. Filled in phase order; nothing is read before the phase
// that sets it has run.
struct Tool::Step {
    Step(const Request& r, Hold* h, StepReport& out) : request(r), hold(h), report(out) {}
    const Request& request;
    Hold* hold;                           // the batch's held borrow; nullptr outside a batch (F-5)
    StepReport& report;                   // run_step's own: filled in place, never moved
    Evidence ev;
    // begin
    WindowId front_at_start = no_window;
    std::vector<WindowId> acted_before;   // windows the batch delivered to before this step
    bool tool_moved_front = false;        // the tool itself moved the front during this step
    bool moved_before_borrow = false;     // someone else moved the front before this step borrowed
    bool moved_while_pre_checks = false;  // someone else's window came to the front while the pre-checks waited
    bool hold_lost = false;               // this step found the batch's held front taken by someone else (F-4)
    // resolve
    std::optional<WindowInfo> window;
    detail::Target target;
    TimeMs resolved_at = 0;
    // pre-checks
    Snapshot before;
    detail::Plan plan;
    // borrow
    std::optional<Borrow> borrow_here;    // a single action's own borrow (outside a batch)
    // deliver
    WindowId front_before = no_window;    // in front right before the delivery
    bool moved_before_delivery = false;
    bool delivered_to_front = false;      // front_before is an app the tool delivered to before
    Input input;
    // read / judge
    Snapshot after;
    bool settled = false;
    Judgement judgement;
};

namespace {

using detail::Target;

// E-1..E-3: resolves the request's ref on its target; an error when it cannot.
std::optional<Error> resolve_target(Desktop& d, const RefTable& refs, const ToolHooks& hooks, const Request& r,
                                    Target& out) {
    if (!r.ref) return std::nullopt;
    const Locator* loc = refs.find(*r.ref);
    if (loc == nullptr) return Error{ErrorKind::RefUnknown, "ref " + *r.ref + " is not in the table (take a new snapshot)"};
    auto window = hooks.window_of_ref(*r.ref, loc->window, r.target);
    if (auto* e = std::get_if<Error>(&window)) {
        if (e->kind == ErrorKind::CrossWindowRef) mark(Mark::cross_window_ref_rejected);
        return *e;
    }
    out.window = std::get<WindowId>(window);
    out.tree = d.element_tree(out.window);
    auto res = hooks.resolve_ref(*out.tree, *loc);
    if (auto* e = std::get_if<Error>(&res)) {
        mark(Mark::element_not_found);
        return *e;
    }
    if (std::get<Resolved>(res).by_search) mark(Mark::element_found_by_search);
    out.node_index = std::get<Resolved>(res).node;
    out.node = &out.tree->nodes[out.node_index];
    return std::nullopt;
}

// E-5: a coordinate action needs target + frame + point, and the point must hit the target (or a
// popup it owns) on screen.
std::optional<Error> check_coordinates(Desktop& d, const ToolHooks& hooks, const Request& r) {
    if (!r.frame || !r.point) return Error{ErrorKind::BadRequest, "click_at needs target + frame + x/y"};
    auto err = hooks.coordinate_hit(d, *r.point, r.target);
    if (err) mark(Mark::coordinate_click_occluded);
    return err;
}

Point centre(const Rect& r) { return Point{r.left + (r.right - r.left) / 2, r.top + (r.bottom - r.top) / 2}; }

Input make_input(const Request& r, const detail::Plan& plan, const Target& t, const WindowInfo& w, const ToolHooks& hooks) {
    Input in;
    in.method = plan.method;
    in.window = t.node != nullptr && t.window != no_window ? t.window : r.target;
    if (t.node != nullptr) in.element = t.node->id;
    if (plan.element) in.element = plan.element;  // a coordinate click sent as a click message (E-4)
    in.step = r.step;
    in.idempotency_key = hooks.key_sent(r);  // W-2
    if (r.kind == RequestKind::Type) in.text = r.text;
    if (r.kind == RequestKind::Hotkey) in.keys = r.keys;
    std::optional<Point> physical = r.kind == RequestKind::ClickAt && !plan.element ? r.point : std::nullopt;
    if (r.kind == RequestKind::Click && t.node != nullptr &&
        (plan.method == DeliveryMethod::PostedClick || plan.method == DeliveryMethod::RealInput)) {
        physical = centre(t.node->bounds);
    }
    if (physical) in.point = plan.method == DeliveryMethod::PostedClick ? hooks.to_client(w, *physical) : *physical;
    return in;
}

ForegroundEvidence held_evidence(const Borrow& b) {
    ForegroundEvidence ev;
    ev.unchanged = !b.borrowed;
    ev.borrowed = b.borrowed;
    if (b.borrowed) ev.by = "tool";
    ev.held = b.borrowed;
    if (b.borrowed) ev.prev = b.prev;
    ev.waited_for_user_ms = b.waited_for_user_ms;
    ev.retried_after_refusal = b.retried_after_refusal;
    if (b.changed_while_waiting) ev.changed_by = "another-window";
    return ev;
}

// F-2, F-4: a held borrow someone else took the front from, as a give-back that left it to them
// would report it: borrowed by the tool, not restored, for as long as the tool held it.
ForegroundEvidence lost_hold_evidence(const Borrow& b, TimeMs now) {
    ForegroundEvidence ev;
    ev.waited_for_user_ms = b.waited_for_user_ms;
    ev.retried_after_refusal = b.retried_after_refusal;
    ev.changed_by = "another-window";
    if (!b.borrowed) return ev;  // {unchanged:true}: nothing was borrowed
    ev.unchanged = false;
    ev.borrowed = true;
    ev.by = "tool";
    ev.restored = false;
    ev.duration_ms = now - b.started_ms;
    return ev;
}

// A poll confirms the one before it when every reading that one took is read again, the same: a
// field the earlier poll could not read is no evidence of change (V-2), so a failed read does not
// keep a settled state from settling — and a poll that loses a reading does not settle on it.
template <class T>
bool confirms(const std::optional<T>& earlier, const std::optional<T>& later) {
    return !earlier || (later && *earlier == *later);
}

bool confirms(const Snapshot& earlier, const Snapshot& later) {
    return confirms(earlier.value, later.value) && confirms(earlier.selection, later.selection) &&
           confirms(earlier.toggled, later.toggled) && confirms(earlier.expanded, later.expanded) &&
           confirms(earlier.selected, later.selected) && confirms(earlier.dirty, later.dirty);
}

// Which fields a snapshot could read (each readable field as `true`, the values left out).
Snapshot strip_values(const Snapshot& s) {
    Snapshot out;
    if (s.value) out.value = std::string();
    if (s.selection) out.selection = Selection{};
    if (s.toggled) out.toggled = true;
    if (s.expanded) out.expanded = true;
    if (s.selected) out.selected = true;
    if (s.dirty) out.dirty = true;
    return out;
}

void remember_readable(Snapshot& seen, const Snapshot& poll) {
    if (poll.value) seen.value = poll.value;
    if (poll.selection) seen.selection = poll.selection;
    if (poll.toggled) seen.toggled = poll.toggled;
    if (poll.expanded) seen.expanded = poll.expanded;
    if (poll.selected) seen.selected = poll.selected;
    if (poll.dirty) seen.dirty = poll.dirty;
}

// Whether `w` is related to any of `windows` (each distinct window asked once).
bool related_to_any(Desktop& d, WindowId w, const std::vector<WindowId>& windows) {
    for (auto it = windows.begin(); it != windows.end(); ++it) {
        if (std::find(windows.begin(), it, *it) != it) continue;  // asked already
        if (related_to_target(d, w, *it)) return true;
    }
    return false;
}

}  // namespace

void Tool::quiesce(WindowId w) {
    assert(config_.quiesce_ms_max >= 0);
    const auto info = desktop_.window(w);
    const auto it = quiet_after_.find(info ? info->pid : ProcessId{0});
    if (it == quiet_after_.end()) return;
    const TimeMs wait = std::min(it->second - desktop_.now_ms(), config_.quiesce_ms_max);
    if (wait > 0) {
        mark(Mark::quiesced_before_action);
        desktop_.wait_ms(wait);
    }
    assert(wait <= config_.quiesce_ms_max);  // D-3: bounded, whatever the app declared
}

Snapshot Tool::settle(WindowId w, ElementId e, const ActionFacts& facts, const Snapshot& before, bool& settled,
                      TimeMs& waited) {
    // D-3: poll until the app's declared latency bound has passed and the polls since agree,
    // at most settle_ms_max. A Confirmed state ends the wait early. Without a declared bound the
    // state is never called settled, so `current` never says Absent on it.
    assert(config_.settle_poll_ms > 0 && config_.settle_ms_max >= 0);
    const TimeMs t0 = desktop_.now_ms();
    const auto bound = desktop_.declared_latency_ms(w);
    Snapshot current = hooks_.read_state(desktop_, w, e, facts.kind, facts.click_state);
    Snapshot seen = current;  // the newest readable value of every field any poll could read
    bool stable = false;
    settled = false;
    for (std::size_t i = 0; i < detail::settle_polls_max; ++i) {
        const TimeMs elapsed = desktop_.now_ms() - t0;
        if (bound && elapsed >= *bound && stable) {
            settled = true;
            break;
        }
        if (verdict_of(rules_, Situation{facts, before, current, Timing{false}}) == Verdict::Confirmed) {
            mark(Mark::settle_ended_on_confirmed);
            break;
        }
        if (elapsed >= config_.settle_ms_max) {
            mark(Mark::settle_poll_exhausted);
            break;
        }
        desktop_.wait_ms(config_.settle_poll_ms);
        Snapshot next = hooks_.read_state(desktop_, w, e, facts.kind, facts.click_state);
        // Before the bound the state may still change (the effect landing): the first poll after it
        // needs only to read every field some poll could read; later ones must confirm it.
        const bool first_after_bound = bound && elapsed < *bound;
        stable = first_after_bound ? confirms(strip_values(seen), strip_values(next)) : confirms(current, next);
        remember_readable(seen, next);
        current = std::move(next);
    }
    waited = desktop_.now_ms() - t0;
    assert(waited >= 0);
    assert(!settled || bound.has_value());  // D-3: never settled without a declared bound
    return current;
}

StepReport Tool::run_step(const Request& r, Hold* hold) {
    if (observer_ != nullptr) observer_->step_begins(r);
    StepReport rep;
    {
        Step s(r, hold, rep);
        run_phases(s);
    }
    // V-1: every step ends in a verdict or an error, never both; it reports the request it ran.
    assert(rep.result.verdict.has_value() != rep.result.error.has_value());
    assert(rep.request.step == r.step && rep.request.kind == r.kind);
    remember_step(rep);
    if (observer_ != nullptr) observer_->step_ends(rep);
    return rep;
}

void Tool::run_phases(Step& s) {
    step_begin(s);
    if (auto err = step_resolve(s)) return step_failed(s, std::move(*err));
    assert(s.window.has_value());
    assert(!s.request.ref || s.target.node != nullptr);
    if (auto err = step_pre_checks(s)) return step_failed(s, std::move(*err));
    assert(s.report.kind == s.report.facts.kind);
    if (s.request.kind == RequestKind::Observe) return step_observed(s);
    if (auto err = step_borrow(s)) return step_failed(s, std::move(*err));
    assert(!s.borrow_here || s.hold == nullptr);
    assert(s.plan.needs_foreground || !s.borrow_here);
    if (auto err = step_recheck(s)) return step_failed(s, std::move(*err));
    if (auto err = step_deliver(s)) return step_failed(s, std::move(*err));
    assert(s.ev.delivered);
    assert(!s.ev.delivery.empty());
    step_read_after(s);
    step_judge(s);
    assert(s.ev.rule == s.judgement.rule);
    step_give_back(s);
    step_register_refs(s);
    s.report.delivered = true;
    s.report.result = adapt(helper_result(s.judgement.verdict, std::move(s.ev)));
    assert(s.report.result.verdict.has_value());
}

// The step ends on an error (nothing more is delivered). F-4: a move of the front this step did not
// make is reported.
void Tool::step_failed(Step& s, Error e) {
    const bool moved = moved_by_another(s.moved_before_borrow || s.moved_while_pre_checks, s.tool_moved_front, s.front_at_start, desktop_.foreground());
    if ((moved || s.hold_lost) && !s.ev.foreground.changed_by) s.ev.foreground.changed_by = "another-window";
    s.report.result = adapt(helper_error(std::move(e), std::move(s.ev)));
    assert(!s.report.result.ok);
    assert(s.report.result.error.has_value());
}

// Observe: the before-read is the whole answer (B-3 observation as a step).
void Tool::step_observed(Step& s) {
    assert(s.request.kind == RequestKind::Observe && !s.ev.delivered);
    s.ev.after = s.before;
    const bool moved = moved_by_another(s.moved_before_borrow || s.moved_while_pre_checks, s.tool_moved_front, s.front_at_start, desktop_.foreground());
    if ((moved || s.hold_lost) && !s.ev.foreground.changed_by) s.ev.foreground.changed_by = "another-window";  // F-4
    s.report.result = adapt(helper_result(Verdict::Unknown, std::move(s.ev)));
    assert(s.report.result.ok && s.report.result.verdict == Verdict::Unknown);  // an observation judges nothing
}

// The facts of one window the decisions ask for (`needs`, FrontNeed); the others stay false. No
// window (no_window) exists and is related to nothing.
FrontWindow Tool::front_window(const Step& s, WindowId w, const std::vector<WindowId>& acted, unsigned needs) {
    assert(needs <= (need_exists | need_target | need_batch));
    FrontWindow f;
    f.id = w;
    if (w == no_window) return f;
    if ((needs & need_exists) != 0) f.exists = desktop_.window(w).has_value();
    if ((needs & need_target) != 0) f.related_to_target = related_to_target(desktop_, w, s.request.target);
    if (s.hold == nullptr || (needs & need_batch) == 0) return f;
    f.related_to_held = s.hold->borrow && related_to_target(desktop_, w, s.hold->borrow->target);
    f.related_to_acted = related_to_any(desktop_, w, acted);
    assert(!f.related_to_held || s.hold->borrow.has_value());  // no hold, nothing related to it
    return f;
}

// F-4, F-5: who the batch owes the front to as the step begins, and whether its hold still stands.
void Tool::step_begin(Step& s) {
    assert(s.front_at_start == no_window && s.acted_before.empty());  // the first phase
    s.report.request = s.request;
    s.report.index = s.request.step >= 0 ? static_cast<std::uint32_t>(s.request.step) : 0;
    s.front_at_start = desktop_.foreground();
    if (s.hold == nullptr) return;
    s.acted_before = s.hold->acted;
    decide_front_owner(s, s.front_at_start);
    assert(s.acted_before.size() == s.hold->acted.size());
}

// F-4, F-5 for the window in front now: whom the batch owes the front to, and whether its hold
// still stands. At the step's start, and again once the pre-checks waited (the B-3 boundary, the
// D-3 quiesce): a window someone else brought forward meanwhile is theirs before anything is
// delivered, even to that very window.
void Tool::decide_front_owner(Step& s, WindowId front) {
    assert(s.hold != nullptr);
    StepStartFacts facts;
    facts.holds_borrow = s.hold->borrow.has_value();
    facts.held_target = facts.holds_borrow ? s.hold->borrow->target : no_window;
    facts.front = front_window(s, front, s.acted_before, need_batch);
    const StepStartDecision d = decide_at_step_start(facts);
    if (d.new_owner) s.hold->owner = *d.new_owner;  // the original owner, or someone else who took it since
    if (d.hold_lost) {
        // F-4: someone else took the front from the held borrow: leave it to them, report it.
        mark(Mark::held_borrow_lost_to_another_window);
        s.hold->interfered = true;
        s.hold->lost = lost_hold_evidence(*s.hold->borrow, desktop_.now_ms());
        s.hold->borrow.reset();
        // Reported by this step whatever evidence replaces this one later in it (a new borrow, the
        // F-3 watch, a give-back at failure).
        s.hold_lost = true;
        s.ev.foreground.changed_by = "another-window";
    }
    assert(!d.hold_lost || (!s.hold->borrow && s.hold->interfered));  // F-4: left to whoever took it
}

// The target window, the request's shape, the ref (E-1..E-3).
std::optional<Error> Tool::step_resolve(Step& s) {
    assert(!s.window && s.target.node == nullptr);
    const Request& r = s.request;
    s.window = desktop_.window(r.target);
    if (!s.window) return Error{ErrorKind::WindowNotFound, "no window " + std::to_string(r.target)};
    if (r.kind == RequestKind::Click && !r.ref) {
        return Error{ErrorKind::BadRequest, "click needs a ref; use click_at with target + frame + x/y"};
    }
    if (auto err = resolve_target(desktop_, refs_, hooks_, r, s.target)) return err;
    s.resolved_at = desktop_.now_ms();
    assert(s.target.node == nullptr || s.target.node_index < s.target.tree->nodes.size());
    return std::nullopt;
}

// E-5 before anything is delivered; D-3 quiesce; the facts, the promise and the before-read (V-9).
std::optional<Error> Tool::step_pre_checks(Step& s) {
    assert(s.window.has_value() && !s.ev.delivered);  // resolved, nothing delivered yet
    const Request& r = s.request;
    if (r.kind == RequestKind::ClickAt) {
        if (auto err = check_coordinates(desktop_, hooks_, r)) return err;  // nothing delivered (E-5)
    }
    // B-3, O-4: a step that depends on an earlier one runs only once that step's write is observed
    // (a wait for it that someone else's foreground move interrupts is reported like the quiesce's).
    if (hooks_.observes_dependencies()) s.report.dependency = boundary_phase(r);
    if (s.report.dependency) {
        if (observer_ != nullptr) observer_->boundary_observed(r, *s.report.dependency);
        if (!hooks_.proceeds_on(s.report.dependency->judgement)) {
            mark(Mark::dependency_escalated);
            return boundary_escalation(*s.report.dependency);
        }
    }
    if (rules_.settles) quiesce(r.target);
    // F-7: the held window's app may still pull it forward as the tool's input into it lands; under
    // a settling rule set the hold stays on it until then, before the step may move the hold away.
    if (rules_.settles && hooks_.holds_until_input_lands() && s.hold != nullptr && s.hold->borrow && s.hold->borrow->target != r.target) {
        quiesce(s.hold->borrow->target);
    }
    // The tool moves nothing while it waits: a front that changed meanwhile is someone else's move.
    if (s.hold != nullptr && desktop_.foreground() != s.front_at_start && !s.tool_moved_front) {
        mark(Mark::front_moved_while_pre_checks_waited);
        const WindowId front = desktop_.foreground();
        decide_front_owner(s, front);
        // F-4: the tool saw it, so the step reports it, whatever the front does later in the step
        // (the user may bring the target back before the delivery: the owner stays the other window).
        s.moved_while_pre_checks = front_window(s, front, s.acted_before, need_batch).outsider();
    }
    // W-4: `before = read` of what the step declares it writes, once earlier effects have landed.
    if (r.writes) s.report.write_before = read_written(r.target, *r.writes);
    StepReport& rep = s.report;
    const ElementNode* node = s.target.node;
    rep.facts = detail::facts_of(r, node);
    rep.kind = rep.facts.kind;
    if (node != nullptr) rep.element = node->id;
    s.ev.promise = rules_.promise_of(rep.facts);
    before_read_at_ = desktop_.now_ms();
    s.before = node != nullptr ? hooks_.read_state(desktop_, r.target, node->id, rep.kind, rep.facts.click_state) : Snapshot{};
    s.ev.before = s.before;
    // E-4: a coordinate click on a window that takes input in the background goes to the element at
    // its point, when that is a classic button (it ignores a posted click while inactive).
    TreePtr hit_tree;
    const ElementNode* hit = nullptr;
    if (r.kind == RequestKind::ClickAt && r.point && s.window->framework != Framework::Wpf) {
        hit_tree = desktop_.element_tree(r.target);
        hit = detail::element_at(*hit_tree, *r.point);
    }
    s.plan = hooks_.plan_delivery(*s.window, r.kind == RequestKind::ClickAt ? hit : node, r, rep.facts);
    if (s.plan.element) rep.element = s.plan.element;  // the element the click message goes to (E-3)
    assert(s.ev.before == s.before);  // V-9: the evidence carries the before-read the verdict is judged on
    return std::nullopt;
}

// F-1, F-5, F-7: borrow the foreground when the control needs it; a batch holds one borrow.
std::optional<Error> Tool::step_borrow(Step& s) {
    assert(!s.borrow_here);
    // F-5: a batch holds only a borrow that moved the front.
    assert(s.hold == nullptr || !s.hold->borrow || s.hold->borrow->borrowed);
    if (!s.plan.needs_foreground) return std::nullopt;
    Hold* hold = s.hold;
    const WindowId target = s.request.target;
    if (hold && hold->borrow && hold->borrow->target == target && desktop_.foreground() == target) {
        mark(Mark::held_borrow_reused);
        return std::nullopt;
    }
    auto b = borrow_foreground(desktop_, target, detail::guard_config(config_, hooks_));
    if (!b) {
        mark(Mark::foreground_refused_twice);
        return Error{ErrorKind::ForegroundRefused, "the foreground request was refused, and again after F24 (or the F24 key press failed)"};
    }
    s.tool_moved_front = s.tool_moved_front || b->borrowed;
    BorrowFacts facts;
    facts.in_batch = hold != nullptr;
    facts.holds_borrow = hold != nullptr && hold->borrow.has_value();
    facts.borrowed = b->borrowed;
    facts.changed_while_waiting = b->changed_while_waiting;
    facts.front_at_start = s.front_at_start;
    facts.prev = front_window(s, b->prev, s.acted_before, need_batch);
    if (hold != nullptr) facts.owner = front_window(s, hold->owner, s.acted_before, need_exists | need_batch);
    const BorrowDecision d = decide_borrow(facts);
    s.moved_before_borrow = d.moved_before_borrow;
    if (hold == nullptr) {
        s.borrow_here = b;
        return std::nullopt;
    }
    if (d.new_owner) hold->owner = *d.new_owner;  // F-4: someone else took the front while the guard waited
    if (d.owed_to_owner) {
        // A window of the batch's own apps is in front (its app reacted to the tool, F-3, and the
        // give-back was refused or it came while the guard waited): owed to the batch's owner.
        b->prev = hold->owner;
        b->prev_focus = desktop_.focused_element(hold->owner);
    }
    if (d.hold_lost) {
        // F-4: someone else moved the front while the tool waited: the held borrow is theirs now.
        mark(Mark::held_borrow_lost_to_another_window);
        hold->interfered = true;
        hold->lost = lost_hold_evidence(*hold->borrow, desktop_.now_ms());
        hold->borrow.reset();
    }
    if (!d.becomes_hold) return std::nullopt;
    if (d.moves_own_hold) {
        b->prev = hold->borrow->prev;  // moving our own hold: one give-back, to the first owner
        b->prev_focus = hold->borrow->prev_focus;
    }
    if (d.fresh_borrow) ++hold->borrows;  // the first, or after another window took the front
    if (d.interferes) hold->interfered = true;
    hold->borrow = b;
    assert(hold->borrow->borrowed && hold->borrows >= 1);
    assert(hold->give_backs < hold->borrows);  // F-5: the borrow held now is not given back yet
    return std::nullopt;
}

// F-6: a failure after the borrow gives the foreground back at once, then watches (F-3): an app
// the batch delivered to may still pull its window forward as its effect lands.
ForegroundEvidence Tool::give_back_at_failure(Step& s, bool exception) {
    assert(!s.borrow_here || s.hold == nullptr);
    if (!hooks_.gives_back_on_failure()) return ForegroundEvidence{};
    const GuardConfig gc = detail::guard_config(config_, hooks_);
    const Mark why = exception ? Mark::gave_back_after_exception : Mark::gave_back_after_failure;
    if (s.borrow_here) {
        mark(why);
        return give_back_and_watch(desktop_, *s.borrow_here, gc);
    }
    Hold* hold = s.hold;
    if (!hold || !hold->borrow) return ForegroundEvidence{};
    mark(why);
    s.tool_moved_front = s.tool_moved_front || hold->borrow->borrowed;  // the give-back is the tool's move
    hold->borrow->also_ours = hold->acted;
    ForegroundEvidence fe = give_back_and_watch(desktop_, *hold->borrow, gc);
    // F-5: a give-back is counted when the front went back, not when one was due (refused, or left
    // to a window that took it: F-2, F-4).
    if (hold->borrow->borrowed && fe.restored) ++hold->give_backs;
    hold->returned = fe;
    hold->borrow.reset();
    assert(hold->give_backs <= hold->borrows);  // F-5: only a borrow made is given back
    return fe;
}

// Right before the delivery, when time passed since the checks (quiesce, the user wait): the
// element again (E-2: removed or moved meanwhile) and the point again (E-5: an occluder appeared).
std::optional<Error> Tool::step_recheck(Step& s) {
    assert(s.window.has_value() && !s.ev.delivered);
    const Request& r = s.request;
    if (s.target.node != nullptr && desktop_.now_ms() != s.resolved_at) {
        mark(Mark::element_resolved_again);
        Target again;
        if (auto err = resolve_target(desktop_, refs_, hooks_, r, again)) {
            s.ev.foreground = give_back_at_failure(s, false);
            return err;
        }
        s.target = std::move(again);
    }
    if (r.kind == RequestKind::ClickAt) {
        if (auto err = check_coordinates(desktop_, hooks_, r)) {
            s.ev.foreground = give_back_at_failure(s, false);
            return err;
        }
    }
    assert(!r.ref || (s.target.node != nullptr && s.target.node_index < s.target.tree->nodes.size()));
    return std::nullopt;
}

// Delivers the input (E-4..E-6); records when the app's effects are due (D-3).
std::optional<Error> Tool::step_deliver(Step& s) {
    assert(!s.ev.delivered && s.ev.delivery.empty());  // one delivery per step (B-2)
    const Request& r = s.request;
    // The foreground right before the delivery: what an app's grab is given back to (F-3). A move
    // by someone else while the tool waited (settle, user, quiesce) is reported, not undone (F-4).
    s.front_before = desktop_.foreground();
    delivered_at_ = desktop_.now_ms();  // B-3: its effects land by this plus the app's bound
    s.moved_before_delivery = moved_by_another(false, s.tool_moved_front, s.front_at_start, s.front_before);
    if (s.moved_before_delivery && s.hold != nullptr && front_window(s, s.front_before, s.acted_before, need_batch).outsider()) {
        s.hold->owner = s.front_before;  // F-4: someone else moved the front while the tool waited
    }
    // Only a process the tool had delivered to before this step can be reacting to the tool.
    const auto grabber = desktop_.window(s.front_before);
    s.delivered_to_front = grabber && quiet_after_.count(grabber->pid) != 0;
    s.input = make_input(r, s.plan, s.target, *s.window, hooks_);
    // E-5: a real click lands on whatever is on top at that point: it must be the target itself
    // (any other window there, even one of the target's own process, covers the element).
    if (r.kind == RequestKind::Click && s.plan.method == DeliveryMethod::RealInput && s.input.point) {
        if (auto err = hooks_.element_centre_hit(desktop_, *s.input.point, s.input.window)) {
            mark(Mark::element_centre_covered);
            s.ev.foreground = give_back_at_failure(s, false);
            return err;
        }
    }
    const Point cursor_before = desktop_.cursor();
    s.ev.delivery = std::string(to_string(s.plan.method));
    DeliveryStatus status = DeliveryStatus::Failed;
    try {
        status = desktop_.deliver(s.input);
    } catch (const DesktopException& e) {
        s.ev.foreground = give_back_at_failure(s, true);
        return Error{ErrorKind::Exception, e.what()};
    }
    if (s.plan.method == DeliveryMethod::RealInput && s.input.point) desktop_.set_cursor(cursor_before);  // E-5
    s.ev.delivered = status == DeliveryStatus::Delivered;
    if (!s.ev.delivered) return delivery_failed(s, status);
    if (s.hold != nullptr) s.hold->acted.push_back(r.target);
    const TimeMs due = desktop_.now_ms() + desktop_.declared_latency_ms(r.target).value_or(config_.settle_ms_max);
    // Per process: an app's effects may land in any of its windows (a post shows in a feed elsewhere).
    for (const WindowId w : {r.target, s.input.window}) {
        const auto info = desktop_.window(w);
        const ProcessId pid = info ? info->pid : ProcessId{0};
        quiet_after_[pid] = std::max(quiet_after_[pid], due);
    }
    assert(s.hold == nullptr || s.hold->acted.back() == r.target);  // a grab by its app is the batch's now (F-3)
    assert(!quiet_after_.empty());
    return std::nullopt;
}

// The desktop answered the delivery with an error. P-1, F-2: the failure carries the foreground
// evidence too — a single action's borrow given back, or the batch's held borrow, as on success.
Error Tool::delivery_failed(Step& s, DeliveryStatus status) {
    assert(status != DeliveryStatus::Delivered && !s.ev.delivered);
    if (s.borrow_here && hooks_.gives_back_on_failure()) {
        mark(Mark::gave_back_after_failure);
        s.ev.foreground = give_back_and_watch(desktop_, *s.borrow_here, detail::guard_config(config_, hooks_));
    } else if (s.hold && s.hold->borrow && s.plan.needs_foreground) {
        s.ev.foreground = held_evidence(*s.hold->borrow);
    }
    return Error{ErrorKind::DeliveryFailed, "the desktop answered " + std::string(to_string(status))};
}

// Read after: `published` once, immediately; `current` settles (D-3).
void Tool::step_read_after(Step& s) {
    assert(s.ev.delivered && !s.settled);
    const ElementNode* node = s.target.node;
    if (node == nullptr || s.report.kind == ActionKind::Unverifiable) return;
    // Captures two pointers only: std::function keeps it without allocating.
    s.after = hooks_.read_after(s.before, [this, &s]() {
        const ElementId element = s.target.node->id;
        const ActionFacts& facts = s.report.facts;
        if (rules_.settles) return settle(s.request.target, element, facts, s.before, s.settled, s.ev.settle_ms);
        return hooks_.read_state(desktop_, s.request.target, element, facts.kind, facts.click_state);
    });
    assert(!s.settled || rules_.settles);  // D-3: only `current` settles
}

// V-1..V-9: the verdict rules on the readings, and the evidence of the judgement (P-1).
void Tool::step_judge(Step& s) {
    assert(s.ev.delivered);
    s.judgement = judge(rules_, Situation{s.report.facts, s.before, s.after, Timing{s.settled}});
    s.judgement.verdict = hooks_.reported_verdict(s.judgement.verdict, s.settled, s.report.kind);
    Evidence& ev = s.ev;
    ev.after = s.after;
    ev.settled = s.settled;
    ev.changes = changed_readings(s.before, s.after);
    ev.rule = std::string(s.judgement.rule);
    ev.checks_ran.clear();
    for (const RowCheck& c : s.judgement.checks_ran) ev.checks_ran.push_back({std::string(c.name), c.passed});
    ev.checks_not_run = s.judgement.checks_not_run;
    assert(ev.checks_ran.size() == s.judgement.checks_ran.size() && ev.settled == s.settled);
}

// The foreground after the action: a single action's borrow goes back now; a batch keeps its held
// borrow (F-5); after a background action the F-3 watch gives an app's grab back.
void Tool::step_give_back(Step& s) {
    assert(s.ev.delivered);
    const GuardConfig gc = detail::guard_config(config_, hooks_);
    Hold* hold = s.hold;
    if (s.borrow_here && s.borrow_here->borrowed) {
        if (rules_.settles && hooks_.holds_until_input_lands()) quiesce(s.request.target);  // keep it until the effects landed (a WPF app pulls itself forward then)
        s.ev.foreground = give_back_and_watch(desktop_, *s.borrow_here, gc);
    } else if (hold && hold->borrow && s.plan.needs_foreground) {
        s.ev.foreground = held_evidence(*hold->borrow);
    } else {
        const WindowId owed = owed_after_background_action(background_facts(s));
        // In a batch, a grab by any window the batch delivered to is the tool's doing too.
        const std::vector<WindowId> acted = hold != nullptr ? hold->acted : std::vector<WindowId>{};
        // The front as the step delivered: a move since, by someone else, is reported (F-4).
        s.ev.foreground = watch_after_background_action(desktop_, s.request.target, owed, gc, acted, no_window,
                                                        s.tool_moved_front ? no_window : s.front_before);
    }
    if ((s.moved_before_borrow || s.moved_before_delivery || s.moved_while_pre_checks || s.hold_lost) && !s.ev.foreground.changed_by) {
        s.ev.foreground.changed_by = "another-window";
    }
    assert(!s.hold_lost || s.ev.foreground.changed_by);  // F-4: reported by the step that saw it
    if (hold == nullptr) return;
    // Whoever holds the front now, if not the batch's own doing, is whom it is owed to (F-4).
    const FrontWindow now = front_window(s, desktop_.foreground(), hold->acted, need_batch);
    if (now.outsider()) hold->owner = now.id;
    assert(!hold->borrow || hold->borrow->borrowed);  // F-5: kept in front for the rest of the batch
}

BackgroundFacts Tool::background_facts(const Step& s) {
    const Hold* hold = s.hold;
    BackgroundFacts f;
    f.in_batch = hold != nullptr;
    f.tool_moved_front = s.tool_moved_front;
    f.delivered_to_front = s.delivered_to_front;
    // Whether the target's app grabbed the front matters only when the front moved to an app the
    // tool delivered to, without the tool moving it (owed_after_background_action).
    const bool grab_possible = !s.tool_moved_front && s.front_before != s.front_at_start && s.delivered_to_front;
    f.before_delivery = front_window(s, s.front_before, s.acted_before, need_batch | (grab_possible ? unsigned{need_target} : 0u));
    f.at_start = s.front_at_start == s.front_before ? f.before_delivery
                                                    : front_window(s, s.front_at_start, s.acted_before, need_batch);
    if (hold == nullptr) return f;
    f.holds_borrow = hold->borrow.has_value();
    f.held_borrowed = f.holds_borrow && hold->borrow->borrowed;
    f.held_target = f.holds_borrow ? hold->borrow->target : no_window;
    f.held_target_exists = f.holds_borrow && desktop_.window(f.held_target).has_value();
    f.owner = hold->owner == f.before_delivery.id ? f.before_delivery
              : hold->owner == f.at_start.id      ? f.at_start
                                                  : front_window(s, hold->owner, s.acted_before, need_batch);
    f.owner.exists = hold->owner != no_window && desktop_.window(hold->owner).has_value();
    assert(f.owner.id == hold->owner && (f.holds_borrow || !f.held_borrowed));
    return f;
}

// E-3: the element the step names and the focused element come back as refs, registered anew.
void Tool::step_register_refs(Step& s) {
    assert(!s.report.element_ref && !s.report.focused_ref);
    const Target& t = s.target;
    StepReport& rep = s.report;
    TreePtr tree_now;  // the window's tree as it is now, fetched once when needed
    const auto ref_now = [&](ElementId e) -> std::optional<std::string> {
        if (!tree_now) tree_now = desktop_.element_tree(s.request.target);
        const ElementTree& now = *tree_now;
        for (std::uint32_t i = 0; i < now.nodes.size() && i < tree_nodes_max; ++i) {
            if (now.nodes[i].id != e) continue;
            if (auto loc = locator_of(now, i)) return refs_.add(std::move(*loc));
            return std::nullopt;
        }
        return std::nullopt;
    };
    if (rep.element) {
        if (t.node != nullptr && t.node->id == *rep.element) {
            if (auto loc = locator_of(*t.tree, t.node_index)) rep.element_ref = refs_.add(std::move(*loc));
        } else {
            rep.element_ref = ref_now(*rep.element);  // a coordinate click's element, or the one its message went to
        }
    }
    assert(!rep.element_ref || refs_.find(*rep.element_ref) != nullptr);  // E-3: registered, usable now
    const auto focus = hooks_.focused_after(desktop_, s.request.target, rep.element);
    if (!focus) return;
    if (rep.element && *focus == *rep.element && rep.element_ref) {
        rep.focused_ref = rep.element_ref;  // the focus stayed on the element acted on
        return;
    }
    rep.focused_ref = ref_now(*focus);
    assert(!rep.focused_ref || refs_.find(*rep.focused_ref) != nullptr);
}

BatchReport Tool::batch(std::span<const Request> requests) {
    BatchReport out;
    Hold hold;
    hold.owner = desktop_.foreground();
    const std::size_t n = std::min(requests.size(), batch_steps_max);
    out.steps.reserve(n);  // a StepReport is large: never moved by a regrowth
    for (std::size_t i = 0; i < n; ++i) {
        Request r = requests[i];
        if (r.step < 0) r.step = static_cast<std::int32_t>(i);
        const auto index = static_cast<std::uint32_t>(i);
        StepReport s = run_step(r, &hold);
        if (hooks_.resends(s)) s = run_step(r, &hold);  // a retry policy's second send (B-2 forbids it)
        s.index = index;
        const bool failed = !s.result.ok;  // Absent or an error (B-1); Unknown continues
        out.steps.push_back(std::move(s));
        if (failed) {
            out.stopped_at = index;
            out.stop_error = out.steps.back().result.error;
            out.escalated = out.stop_error && out.stop_error->kind == ErrorKind::Escalate;  // B-3
            break;
        }
    }
    batch_give_back(out, hold);
    out.borrows = hold.borrows;
    out.give_backs = hold.give_backs;
    out.foreground_returned = out.give_backs == out.borrows;
    // More than one borrow only when another window took the front in between (F-4).
    assert(out.give_backs <= out.borrows || out.borrows == 0);
    assert(out.steps.size() <= n);
    assert(out.borrows <= 1 || hold.interfered);  // F-5: one borrow per batch, unless another window took it (F-4)
    assert(!out.stopped_at || *out.stopped_at + 1 == out.steps.size());  // B-1: the stopping step is the last
    if (observer_ != nullptr) observer_->batch_ends(out);
    return out;
}

// F-5: give the held foreground back exactly once, on every path.
void Tool::batch_give_back(BatchReport& out, Hold& hold) {
    assert(out.foreground == ForegroundEvidence{});  // the batch's account is written here only
    assert(!hold.borrow || hold.borrow->borrowed);
    const GuardConfig gc = detail::guard_config(config_, hooks_);
    const bool gives_back = hooks_.gives_back_on_failure() || !out.stopped_at.has_value();
    if (hold.borrow && gives_back) {
        if (rules_.settles && hooks_.holds_until_input_lands()) {
            for (const auto& step : out.steps) quiesce(step.request.target);
        }
        mark(Mark::batch_gave_back_at_end);
        hold.borrow->also_ours = hold.acted;
        out.foreground = give_back_and_watch(desktop_, *hold.borrow, gc);
        if (hold.borrow->borrowed && out.foreground.restored) ++hold.give_backs;  // F-5, as above
        hold.borrow.reset();
    } else if (hold.returned) {
        out.foreground = *hold.returned;
    } else if (hold.interfered && !hold.acted.empty() && desktop_.window(hold.owner)) {
        // F-3 after F-4: someone else took the held front, so there is nothing to give back; but the
        // batch's deliveries may still pull their windows forward when their effects land (a WPF
        // app, F-7). Wait for them and watch: such a grab goes back to whoever took the front.
        if (rules_.settles && hooks_.holds_until_input_lands()) {
            for (const auto& step : out.steps) quiesce(step.request.target);
        }
        const ForegroundEvidence fe = watch_after_background_action(desktop_, hold.acted.back(), hold.owner, gc, hold.acted);
        if (fe.borrowed) out.foreground = fe;
    }
    // F-2: a held borrow someone else took is still a borrow the batch made (not restored: left to
    // them, F-4), unless a later borrow's give-back or the watch above says what happened after.
    if (out.foreground.unchanged && hold.lost && !hold.borrow) out.foreground = *hold.lost;
    if (hold.interfered) out.foreground.changed_by = "another-window";  // F-4: reported, not fought
    assert(!gives_back || !hold.borrow);  // F-5: given back exactly once, on every path
    assert(hold.give_backs <= hold.borrows);
}

}  // namespace deskcheck
