// Act and batch (SPEC P-1, E-2..E-6, V-9, D-3, B-1..B-4, F-5, F-6).
#include <algorithm>
#include <cassert>

#include "model/guard.h"
#include "model/tool.h"
#include "model/tool_detail.h"

namespace deskcheck {
namespace {

inline constexpr std::size_t settle_polls_max = 1000;

struct Target {
    WindowId window = no_window;  // where the element lives: the request's target
    TreePtr tree;  // set when resolved
    const ElementNode* node = nullptr;
    std::uint32_t node_index = 0;
};

// E-1..E-3: resolves the request's ref on its target; an error when it cannot.
std::optional<Error> resolve_target(Desktop& d, const RefTable& refs, const Request& r, Target& out, Mutation m) {
    if (!r.ref) return std::nullopt;
    const Locator* loc = refs.find(*r.ref);
    if (loc == nullptr) return Error{ErrorKind::RefUnknown, "ref " + *r.ref + " is not in the table (take a new snapshot)"};
    if (loc->window != r.target && m != Mutation::IgnoreWindowBinding) {
        return Error{ErrorKind::CrossWindowRef, "ref " + *r.ref + " belongs to window " + std::to_string(loc->window) +
                                                    ", not to target " + std::to_string(r.target)};
    }
    // (The negative proof's bug: it resolves and acts in the ref's own window, whatever the target.)
    out.window = m == Mutation::IgnoreWindowBinding ? loc->window : r.target;
    out.tree = d.element_tree(out.window);
    auto res = resolve(*out.tree, *loc);
    if (auto* e = std::get_if<Error>(&res)) return *e;
    out.node_index = std::get<Resolved>(res).node;
    out.node = &out.tree->nodes[out.node_index];
    return std::nullopt;
}

// E-5: a coordinate action needs target + frame + point, and the point must hit the target (or a
// popup it owns) on screen.
std::optional<Error> check_coordinates(Desktop& d, const Request& r, Mutation m) {
    if (!r.frame || !r.point) return Error{ErrorKind::BadRequest, "click_at needs target + frame + x/y"};
    if (m == Mutation::ClickWithoutHitTest) return std::nullopt;
    const auto hit = d.window_at(*r.point);
    if (!hit) return Error{ErrorKind::TargetOccluded, "the point hits no window"};
    if (*hit == r.target) return std::nullopt;
    const auto info = d.window(*hit);
    if (info && info->owner && *info->owner == r.target) return std::nullopt;
    return Error{ErrorKind::TargetOccluded, "the point hits window " + std::to_string(*hit) + ", not the target"};
}

Point centre(const Rect& r) { return Point{r.left + (r.right - r.left) / 2, r.top + (r.bottom - r.top) / 2}; }

Input make_input(const Request& r, const detail::Plan& plan, const Target& t, const WindowInfo& w, Mutation m) {
    Input in;
    in.method = plan.method;
    in.window = t.node != nullptr && t.window != no_window ? t.window : r.target;
    if (t.node != nullptr) in.element = t.node->id;
    in.step = r.step;
    if (m != Mutation::DropIdempotencyKey) in.idempotency_key = r.idempotency_key;  // W-2
    if (r.kind == RequestKind::Type) in.text = r.text;
    if (r.kind == RequestKind::Hotkey) in.keys = r.keys;
    std::optional<Point> physical = r.kind == RequestKind::ClickAt ? r.point : std::nullopt;
    if (r.kind == RequestKind::Click && t.node != nullptr &&
        (plan.method == DeliveryMethod::PostedClick || plan.method == DeliveryMethod::RealInput)) {
        physical = centre(t.node->bounds);
    }
    if (physical) in.point = plan.method == DeliveryMethod::PostedClick ? physical_to_client(w, *physical, m) : *physical;
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

}  // namespace

void Tool::quiesce(WindowId w) {
    const auto info = desktop_.window(w);
    const auto it = quiet_after_.find(info ? info->pid : ProcessId{0});
    if (it == quiet_after_.end()) return;
    const TimeMs wait = std::min(it->second - desktop_.now_ms(), config_.quiesce_ms_max);
    if (wait > 0) desktop_.wait_ms(wait);
}

Snapshot Tool::settle(WindowId w, ElementId e, const ActionFacts& facts, const Snapshot& before, bool& settled,
                      TimeMs& waited) {
    // D-3: poll until the app's declared latency bound has passed and the polls since agree,
    // at most settle_ms_max. A Confirmed state ends the wait early. Without a declared bound the
    // state is never called settled, so `current` never says Absent on it.
    const TimeMs t0 = desktop_.now_ms();
    const auto bound = desktop_.declared_latency_ms(w);
    const Mutation m = config_.mutation;
    Snapshot current = read_state(desktop_, w, e, facts.kind, facts.click_state, m);
    Snapshot seen = current;  // the newest readable value of every field any poll could read
    bool stable = false;
    settled = false;
    for (std::size_t i = 0; i < settle_polls_max; ++i) {
        const TimeMs elapsed = desktop_.now_ms() - t0;
        if (bound && elapsed >= *bound && stable) {
            settled = true;
            break;
        }
        if (verdict_of(rules_, Situation{facts, before, current, Timing{false}}) == Verdict::Confirmed ||
            elapsed >= config_.settle_ms_max) {
            break;
        }
        desktop_.wait_ms(config_.settle_poll_ms);
        Snapshot next = read_state(desktop_, w, e, facts.kind, facts.click_state, m);
        // Before the bound the state may still change (the effect landing): the first poll after it
        // needs only to read every field some poll could read; later ones must confirm it.
        const bool first_after_bound = bound && elapsed < *bound;
        stable = first_after_bound ? confirms(strip_values(seen), strip_values(next)) : confirms(current, next);
        remember_readable(seen, next);
        current = std::move(next);
    }
    waited = desktop_.now_ms() - t0;
    return current;
}

StepReport Tool::run_step(const Request& r, Hold* hold) {
    if (observer_ != nullptr) observer_->step_begins(r);
    StepReport rep = run_step_inner(r, hold);
    remember_step(rep);
    if (observer_ != nullptr) observer_->step_ends(rep);
    return rep;
}

StepReport Tool::run_step_inner(const Request& r, Hold* hold) {
    StepReport rep;
    rep.request = r;
    rep.index = r.step >= 0 ? static_cast<std::uint32_t>(r.step) : 0;
    Evidence ev;
    const WindowId front_at_start = desktop_.foreground();
    bool tool_moved_front = false;
    // A window of the batch's own doing: a target it holds or a window it delivered to (F-3).
    // Only windows acted on before this step count: this step's own target may be brought forward
    // by someone else before the delivery (F-4).
    const std::vector<WindowId> acted_before = hold != nullptr ? hold->acted : std::vector<WindowId>{};
    const auto batch_window = [&](WindowId w) {
        if (hold == nullptr) return false;
        const bool held = hold->borrow && related_to_target(desktop_, w, hold->borrow->target);
        return held || std::any_of(acted_before.begin(), acted_before.end(),
                                   [&](WindowId a) { return related_to_target(desktop_, w, a); });
    };
    if (hold != nullptr && front_at_start != no_window && !batch_window(front_at_start)) {
        hold->owner = front_at_start;  // the original owner, or someone else who took it since (F-4)
    }
    if (hold != nullptr && hold->borrow && front_at_start != hold->borrow->target) {
        bool ours = related_to_target(desktop_, front_at_start, hold->borrow->target);
        for (const WindowId w : hold->acted) ours = ours || related_to_target(desktop_, front_at_start, w);
        if (!ours) {
            // F-4: someone else took the front from the held borrow: leave it to them, report it.
            hold->interfered = true;
            hold->borrow.reset();
            ev.foreground.changed_by = "another-window";
        }
    }
    bool moved_before_borrow = false;  // someone else moved the front before this step borrowed it
    // F-4: a foreground move this step did not make (while the tool waited) is reported, not undone.
    const auto report_outside_moves = [&]() {
        const bool moved = moved_before_borrow || (!tool_moved_front && desktop_.foreground() != front_at_start);
        if (moved && !ev.foreground.changed_by) ev.foreground.changed_by = "another-window";
    };
    const auto fail = [&](Error e) {
        report_outside_moves();
        rep.result = adapt(helper_error(std::move(e), std::move(ev)));  // the step ends here
        return rep;
    };
    const auto win = desktop_.window(r.target);
    if (!win) return fail(Error{ErrorKind::WindowNotFound, "no window " + std::to_string(r.target)});
    if (r.kind == RequestKind::Click && !r.ref) {
        return fail(Error{ErrorKind::BadRequest, "click needs a ref; use click_at with target + frame + x/y"});
    }
    Target t;
    const Mutation m = config_.mutation;
    if (auto err = resolve_target(desktop_, refs_, r, t, m)) return fail(*err);
    const TimeMs resolved_at = desktop_.now_ms();
    if (r.kind == RequestKind::ClickAt) {
        if (auto err = check_coordinates(desktop_, r, m)) return fail(*err);  // nothing delivered (E-5)
    }
    // B-3, O-4: a step that depends on an earlier one runs only once that step's write is observed
    // (a wait for it that someone else's foreground move interrupts is reported like the quiesce's).
    rep.dependency = boundary_phase(r);
    if (rep.dependency && observer_ != nullptr) observer_->boundary_observed(r, *rep.dependency);
    if (rep.dependency && !proceeds_past(*rep.dependency)) return fail(boundary_escalation(*rep.dependency));
    if (rules_.settles) quiesce(r.target);
    // W-4: `before = read` of what the step declares it writes, once earlier effects have landed.
    if (r.writes) rep.write_before = read_written(r.target, *r.writes);
    rep.facts = detail::facts_of(r, t.node);
    rep.kind = rep.facts.kind;
    if (t.node != nullptr) rep.element = t.node->id;
    ev.promise = rules_.promise_of(rep.facts);
    const Snapshot before = t.node ? read_state(desktop_, r.target, t.node->id, rep.kind, rep.facts.click_state, m) : Snapshot{};
    ev.before = before;
    if (r.kind == RequestKind::Observe) {
        ev.after = before;
        report_outside_moves();  // F-4: a move while it waited (quiesce) is reported
        rep.result = adapt(helper_result(Verdict::Unknown, std::move(ev)));
        return rep;
    }
    const detail::Plan plan = detail::choose_delivery(*win, t.node, r, rep.facts);
    const GuardConfig gc = detail::guard_config(config_);

    // Foreground (F-1, F-5, F-7): borrow when the control needs it; a batch holds one borrow.
    std::optional<Borrow> borrow_here;
    if (plan.needs_foreground) {
        const bool reuse = hold && hold->borrow && hold->borrow->target == r.target &&
                           desktop_.foreground() == r.target;
        if (!reuse) {
            auto b = borrow_foreground(desktop_, r.target, gc);
            if (!b) return fail(Error{ErrorKind::ForegroundRefused, "the foreground request was refused twice (F24 retry)"});
            tool_moved_front = tool_moved_front || b->borrowed;
            const bool moving_hold = hold != nullptr && hold->borrow && related_to_target(desktop_, b->prev, hold->borrow->target);
            if (hold != nullptr && b->changed_while_waiting && b->prev != no_window && !batch_window(b->prev)) {
                hold->owner = b->prev;  // F-4: someone else took the front while the guard waited
            }
            if (hold != nullptr && b->borrowed && !moving_hold && b->prev != hold->owner && batch_window(b->prev) &&
                desktop_.window(hold->owner)) {
                // A window of the batch's own apps is in front (its app reacted to the tool, F-3, and
                // the give-back was refused or it came while the guard waited): the front is owed to
                // the batch's owner, not to the grabber.
                b->prev = hold->owner;
                b->prev_focus = desktop_.focused_element(hold->owner);
            }
            moved_before_borrow = b->borrowed && b->prev != front_at_start && (hold == nullptr || !hold->borrow);
            bool others_move = b->changed_while_waiting;
            if (others_move && hold != nullptr) {
                for (const WindowId w : hold->acted) others_move = others_move && !related_to_target(desktop_, b->prev, w);
            }
            if (hold != nullptr && hold->borrow && others_move &&
                !related_to_target(desktop_, b->prev, hold->borrow->target)) {
                // F-4: someone else moved the front while the tool waited: the held borrow is theirs now.
                hold->interfered = true;
                hold->borrow.reset();
            }
            if (hold == nullptr) {
                borrow_here = b;
            } else if (b->borrowed) {
                const bool ours = hold->borrow && (related_to_target(desktop_, b->prev, hold->borrow->target) ||
                                                   std::any_of(hold->acted.begin(), hold->acted.end(), [&](WindowId w) {
                                                       return related_to_target(desktop_, b->prev, w);
                                                   }));
                if (ours) {
                    b->prev = hold->borrow->prev;  // moving our own hold: one give-back, to the first owner
                    b->prev_focus = hold->borrow->prev_focus;
                } else {
                    ++hold->borrows;  // a fresh borrow (the first, or after another window took the front)
                    if (hold->borrow) hold->interfered = true;
                }
                hold->borrow = b;
            }
        }
    }
    const bool gives_back_on_failure = m != Mutation::NoGiveBackOnFailure;
    const auto give_back_now = [&]() {
        if (!gives_back_on_failure) return ForegroundEvidence{};
        // Given back at once, then watched (F-3): an app the batch delivered to may still pull its
        // window forward as its effect lands, after the failure.
        if (borrow_here) return give_back_and_watch(desktop_, *borrow_here, gc);
        if (hold && hold->borrow) {  // F-6: at once, not at the batch end
            tool_moved_front = tool_moved_front || hold->borrow->borrowed;  // the give-back is the tool's move, not another window's
            hold->borrow->also_ours = hold->acted;
            ForegroundEvidence fe = give_back_and_watch(desktop_, *hold->borrow, gc);
            if (hold->borrow->borrowed) ++hold->give_backs;
            hold->returned = fe;
            hold->borrow.reset();
            return fe;
        }
        return ForegroundEvidence{};
    };

    // E-2: the element again, right before the delivery, when time passed since it was resolved
    // (quiesce, the user wait): it may have been removed or moved meanwhile.
    if (t.node != nullptr && desktop_.now_ms() != resolved_at) {
        Target again;
        if (auto err = resolve_target(desktop_, refs_, r, again, m)) {
            ev.foreground = give_back_now();
            return fail(*err);
        }
        t = std::move(again);
    }
    // E-5: hit-test again right before a coordinate delivery: an occluder may have appeared while
    // the guard waited for the user.
    if (r.kind == RequestKind::ClickAt) {
        if (auto err = check_coordinates(desktop_, r, m)) {
            ev.foreground = give_back_now();
            return fail(*err);
        }
    }
    // The foreground right before the delivery: what an app's grab is given back to (F-3). A move
    // by someone else while the tool waited (settle, user, quiesce) is reported, not undone (F-4).
    const WindowId front_before = desktop_.foreground();
    const bool moved_before_delivery = !tool_moved_front && front_before != front_at_start;
    if (moved_before_delivery && hold != nullptr && front_before != no_window && !batch_window(front_before)) {
        hold->owner = front_before;  // F-4: someone else moved the front while the tool waited
    }
    // Only a process the tool had delivered to before this step can be reacting to the tool.
    const auto grabber = desktop_.window(front_before);
    const bool delivered_to_it = grabber && quiet_after_.count(grabber->pid) != 0;
    const Input input = make_input(r, plan, t, *win, m);
    // E-5: a real click lands on whatever is on top at that point: it must be the target itself
    // (any other window there, even one of the target's own process, covers the element).
    if (r.kind == RequestKind::Click && plan.method == DeliveryMethod::RealInput && input.point &&
        m != Mutation::ClickWithoutHitTest) {
        const auto hit = desktop_.window_at(*input.point);
        if (!hit || *hit != input.window) {
            ev.foreground = give_back_now();
            return fail(Error{ErrorKind::TargetOccluded, "the element's centre is covered by another window"});
        }
    }
    const Point cursor_before = desktop_.cursor();
    ev.delivery = std::string(to_string(plan.method));
    DeliveryStatus status = DeliveryStatus::Failed;
    try {
        status = desktop_.deliver(input);
    } catch (const DesktopException& e) {
        ev.foreground = give_back_now();
        return fail(Error{ErrorKind::Exception, e.what()});
    }
    if (plan.method == DeliveryMethod::RealInput && input.point) desktop_.set_cursor(cursor_before);  // E-5
    ev.delivered = status == DeliveryStatus::Delivered;
    if (ev.delivered && hold != nullptr) hold->acted.push_back(r.target);
    if (ev.delivered) {
        const TimeMs due = desktop_.now_ms() + desktop_.declared_latency_ms(r.target).value_or(config_.settle_ms_max);
        // Per process: an app's effects may land in any of its windows (a post shows in a feed elsewhere).
        for (const WindowId w : {r.target, input.window}) {
            const auto info = desktop_.window(w);
            const ProcessId pid = info ? info->pid : ProcessId{0};
            quiet_after_[pid] = std::max(quiet_after_[pid], due);
        }
    }
    if (!ev.delivered) {
        if (borrow_here && gives_back_on_failure) ev.foreground = give_back_and_watch(desktop_, *borrow_here, gc);
        // P-1, F-2: a failure carries the foreground evidence too — the batch's held borrow, as on success.
        else if (hold && hold->borrow && plan.needs_foreground) ev.foreground = held_evidence(*hold->borrow);
        return fail(Error{ErrorKind::DeliveryFailed, "the desktop answered " + std::string(to_string(status))});
    }

    // Read after: `published` once, immediately; `current` settles (D-3).
    Snapshot after;
    bool settled = false;
    if (t.node != nullptr && rep.kind != ActionKind::Unverifiable) {
        if (m == Mutation::PhantomReadback) {
            after = before;  // the bug P-1 forbids: an after-readback it never took
        } else if (rules_.settles) {
            after = settle(r.target, t.node->id, rep.facts, before, settled, ev.settle_ms);
        } else {
            after = read_state(desktop_, r.target, t.node->id, rep.kind, rep.facts.click_state, m);
        }
    }
    Judgement j = judge(rules_, Situation{rep.facts, before, after, Timing{settled}});
    if (m == Mutation::NotDoneDespiteEffect && j.verdict == Verdict::Unknown && !settled && rep.kind != ActionKind::Unverifiable) {
        j.verdict = Verdict::Absent;  // the bug W-1 forbids: not settled is not evidence of not done
    }
    if (m == Mutation::UnknownInsteadOfAbsent && j.verdict == Verdict::Absent) {
        j.verdict = Verdict::Unknown;  // the bug V-1 forbids in spirit: counter-evidence thrown away
    }
    ev.after = after;
    ev.settled = settled;
    ev.changes = changed_readings(before, after);
    ev.rule = j.rule;
    ev.checks_ran = j.checks_ran;
    ev.checks_not_run = j.checks_not_run;

    // Foreground after the action.
    if (borrow_here && borrow_here->borrowed) {
        if (rules_.settles) quiesce(r.target);  // keep it until the effects landed (a WPF app pulls itself forward then)
        ev.foreground = give_back_and_watch(desktop_, *borrow_here, gc);
    }
    else if (hold && hold->borrow && plan.needs_foreground) ev.foreground = held_evidence(*hold->borrow);
    else {
        // A grab by the target's app while the tool waited (quiesce, settle of an earlier step) is
        // the app's doing all the same: give it back to what was in front when the step began (F-3).
        const bool grabbed_while_waiting = !tool_moved_front && front_before != front_at_start && delivered_to_it &&
                                           related_to_target(desktop_, front_before, r.target);
        // In a batch, a grab by any window the batch delivered to is the tool's doing too.
        const std::vector<WindowId> acted = hold != nullptr ? hold->acted : std::vector<WindowId>{};
        WindowId owed = grabbed_while_waiting ? front_at_start : front_before;
        // A grab by the batch's own app that the desktop refused to undo earlier is not the owner.
        const bool held_in_front = hold != nullptr && hold->borrow && related_to_target(desktop_, owed, hold->borrow->target);
        if (hold != nullptr && !held_in_front && owed != hold->owner && batch_window(owed) && desktop_.window(hold->owner)) {
            owed = hold->owner;
        }
        // While the batch holds a borrow, a grab by one of its own windows is undone towards the
        // held window: the batch still holds the front, and gives it back once, at its end (F-5).
        if (hold != nullptr && hold->borrow && hold->borrow->borrowed && !held_in_front && batch_window(front_before) &&
            desktop_.window(hold->borrow->target)) {
            owed = hold->borrow->target;
        }
        ev.foreground = watch_after_background_action(desktop_, r.target, owed, gc, acted);
    }
    if (moved_before_borrow && !ev.foreground.changed_by) ev.foreground.changed_by = "another-window";
    if (moved_before_delivery && !ev.foreground.changed_by) ev.foreground.changed_by = "another-window";
    if (hold != nullptr) {
        // Whoever holds the front now, if not the batch's own doing, is whom it is owed to (F-4).
        const WindowId front_now = desktop_.foreground();
        const bool ours_now = (hold->borrow && related_to_target(desktop_, front_now, hold->borrow->target)) ||
                              std::any_of(hold->acted.begin(), hold->acted.end(),
                                          [&](WindowId a) { return related_to_target(desktop_, front_now, a); });
        if (front_now != no_window && !ours_now) hold->owner = front_now;
    }

    // E-3: the element acted on and the focused element come back as refs.
    if (t.node != nullptr) {
        if (auto loc = locator_of(*t.tree, t.node_index)) rep.element_ref = refs_.add(std::move(*loc));
    }
    if (const auto focus = desktop_.focused_element(r.target)) {
        if (t.node != nullptr && *focus == t.node->id && rep.element_ref) {
            rep.focused_ref = rep.element_ref;  // the focus stayed on the element acted on
        } else {
            const TreePtr tree_now = desktop_.element_tree(r.target);
            const ElementTree& now = *tree_now;
            for (std::uint32_t i = 0; i < now.nodes.size() && i < tree_nodes_max; ++i) {
                if (now.nodes[i].id != *focus) continue;
                if (auto loc = locator_of(now, i)) rep.focused_ref = refs_.add(std::move(*loc));
                break;
            }
        }
    }
    rep.delivered = true;
    rep.result = adapt(helper_result(j.verdict, std::move(ev)));
    return rep;
}

BatchReport Tool::batch(std::span<const Request> requests) {
    BatchReport out;
    Hold hold;
    hold.owner = desktop_.foreground();
    const std::size_t n = std::min(requests.size(), batch_steps_max);
    for (std::size_t i = 0; i < n; ++i) {
        Request r = requests[i];
        if (r.step < 0) r.step = static_cast<std::int32_t>(i);
        StepReport s = run_step(r, &hold);
        if (config_.mutation == Mutation::RetryUnknownOnce && s.result.verdict == Verdict::Unknown) {
            s = run_step(r, &hold);  // the bug B-2 forbids: re-sending an Unknown step
        }
        s.index = static_cast<std::uint32_t>(i);
        const bool failed = !s.result.ok;  // Absent or an error (B-1); Unknown continues
        out.steps.push_back(std::move(s));
        if (failed) {
            out.stopped_at = static_cast<std::uint32_t>(i);
            out.stop_error = out.steps.back().result.error;
            out.escalated = out.stop_error && out.stop_error->kind == ErrorKind::Escalate;  // B-3
            break;
        }
    }
    // F-5: give the held foreground back exactly once, on every path.
    const bool skip_give_back = config_.mutation == Mutation::NoGiveBackOnFailure && out.stopped_at.has_value();
    if (hold.borrow && !skip_give_back) {
        if (rules_.settles) {
            for (const auto& step : out.steps) quiesce(step.request.target);
        }
        hold.borrow->also_ours = hold.acted;
        out.foreground = give_back_and_watch(desktop_, *hold.borrow, detail::guard_config(config_));
        if (hold.borrow->borrowed) ++hold.give_backs;
        hold.borrow.reset();
    } else if (hold.returned) {
        out.foreground = *hold.returned;
    } else if (hold.interfered && !hold.acted.empty() && desktop_.window(hold.owner)) {
        // F-3 after F-4: someone else took the held front, so there is nothing to give back; but the
        // batch's deliveries may still pull their windows forward when their effects land (a WPF
        // app, F-7). Wait for them and watch: such a grab goes back to whoever took the front.
        if (rules_.settles) {
            for (const auto& step : out.steps) quiesce(step.request.target);
        }
        const ForegroundEvidence fe = watch_after_background_action(desktop_, hold.acted.back(), hold.owner,
                                                                    detail::guard_config(config_), hold.acted);
        if (fe.borrowed) out.foreground = fe;
    }
    if (hold.interfered) out.foreground.changed_by = "another-window";  // F-4: reported, not fought
    out.borrows = hold.borrows;
    out.give_backs = hold.give_backs;
    out.foreground_returned = out.give_backs == out.borrows;
    assert(out.give_backs <= out.borrows || out.borrows == 0);
    // More than one borrow only when another window took the front in between (F-4).
    if (observer_ != nullptr) observer_->batch_ends(out);
    return out;
}

}  // namespace deskcheck
