// Effects landing (S-4, S-6): what an accepted input does to the app's state when its latency has
// passed. Every landed effect is recorded in ground truth and in the trace, attributed to the
// step of its input (no_step for the user) and to who caused it ("tool", "user", "app").
//
// Typing (EditMessage, PostedKeys, RealInput; the user): keys first, then text. Text replaces the
// focused edit's selection (caret after it, selection length 0), stores the value before it for
// ctrl+z and sets the window dirty. '\t' in the text moves the focus to the next focusable control
// for the rest of the text; '\r', '\n' or "\r\n" is Enter: in a multiline edit it inserts "\r\n",
// in a single-line edit of a form window it submits the form (non-idempotent), else nothing.
// A ValueChanged effect is recorded for every write of a value, even one that leaves it equal
// (typing the selected text over itself, D-2).
// Keys (case-insensitive): ctrl+a selects all, ctrl+s saves (dirty cleared, text unchanged),
// ctrl+z restores the value before the last typing, home/end move the caret, tab/shift+tab move
// the focus, enter/return as above; any other key is accepted and does nothing.
// UIA SetValue replaces the whole value with the text, literally (no key interpretation).
// Clicks move the focus to a focusable control, then: Toggle flips, Expander flips, ListItem is
// selected (its siblings deselected), Button -> button_clicked, SubmitButton -> form_submitted,
// PostButton -> comment_posted and, feed_latency_ms later, the comment + "\n" appended to its Feed.
// UIA patterns have the same control effects without moving the focus.
#include <algorithm>
#include <cassert>
#include <cctype>

#include "sim/sim.h"

namespace deskcheck::sim {
namespace {

bool focusable(ControlKind k) { return k != ControlKind::Feed && k != ControlKind::Group; }

std::string normalized_chord(std::string_view keys) {
    std::string out;
    for (const char ch : keys) {
        if (ch == ' ') continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return out;
}

bool quoted_detail(EffectKind k) {
    return k == EffectKind::ValueChanged || k == EffectKind::CommentPosted || k == EffectKind::CommentShown;
}

// The selection clamped into the value (defensive: a selection always lies within its value).
Selection clamped(Selection s, std::size_t length) {
    const auto n = static_cast<std::int64_t>(length);
    const std::int64_t start = std::clamp<std::int64_t>(s.start, 0, n);
    return Selection{start, std::clamp<std::int64_t>(s.length, 0, n - start)};
}

Selection caret_at(std::size_t position) { return Selection{static_cast<std::int64_t>(position), 0}; }

}  // namespace

void Sim::record_effect(const Pending& p, EffectKind kind, WindowId w, ElementId e, std::string_view detail) {
    record_effect(p, kind, w, e, detail, Kept(detail));  // S-8: the ledger keeps a long value as its length and digests
}

void Sim::record_effect(const Pending& p, EffectKind kind, WindowId w, ElementId e, std::string_view detail, Kept kept) {
    assert(kept.size() == detail.size());
    if (trace_.on) {
        std::string line(to_string(kind));
        if (!detail.empty()) line += " " + (quoted_detail(kind) ? kept.shown() : std::string(detail));
        line += " step=" + std::to_string(p.step) + " by=" + std::string(to_string(p.by));
        if (p.overrun) line += " (overrun)";
        trace_.add(now_, TraceKind::Effect, subject_of(w, e == 0 ? std::nullopt : std::optional(e)), line);
    }
    const bool step_text = kind == EffectKind::ValueChanged && p.step >= 0 &&
                           static_cast<std::size_t>(p.step) < scenario_.steps.size() &&
                           detail.find(scenario_.steps[static_cast<std::size_t>(p.step)].text) != std::string_view::npos;
    truth_.effects.push_back(Effect{now_, p.step, kind, w, e, std::move(kept), p.overrun, p.by, p.delivered_at_ms, step_text});
}

// The one writer of a control's value: its Kept follows, continued from the old one when the new
// value only appends to it (a user or a step typing at the end), so that n appends cost n (S-8).
void Sim::write_value(const Pending& p, WindowId w, LiveControl& c, std::string value) {
    c.prev_value = std::exchange(c.c.value, std::move(value));
    c.prev_value_kept = std::move(c.value_kept);
    const std::string& now = c.c.value;
    const bool appended = now.size() >= c.prev_value.size() && std::equal(c.prev_value.begin(), c.prev_value.end(), now.begin());
    c.value_kept = appended ? Kept::extending(c.prev_value_kept, now) : Kept(now);
    record_effect(p, EffectKind::ValueChanged, w, c.c.id, now, c.value_kept);
}

void Sim::write_selection(const Pending& p, WindowId w, LiveControl& c, Selection s) {
    if (c.c.selection == s) return;
    c.prev_selection = c.c.selection;
    c.c.selection = s;
    record_effect(p, EffectKind::SelectionChanged, w, c.c.id, std::to_string(s.start) + "," + std::to_string(s.length));
}

void Sim::write_dirty(const Pending& p, LiveWindow& w, bool dirty) {
    if (w.dirty == dirty) return;
    w.prev_dirty = w.dirty;
    w.dirty = dirty;
    record_effect(p, EffectKind::DirtyChanged, w.spec.id, 0, dirty ? "true" : "false");
}

void Sim::move_focus(const Pending& p, LiveWindow& w, std::optional<ElementId> to) {
    if (w.focus == to) return;
    w.focus = to;
    record_effect(p, EffectKind::FocusMoved, w.spec.id, to.value_or(0), "");
}

void Sim::land_input(const Pending& p) {
    LiveWindow* w = find_window(p.window);
    if (w == nullptr || !w->shown) return;
    if (p.pull_to_front) set_foreground(p.window, Actor::App);
    LiveControl* c = p.element ? live_control(p.window, *p.element) : nullptr;
    switch (p.action) {
        case InputAction::Type: land_type(p, *w); return;
        case InputAction::Click:
            if (c == nullptr) return;  // the click hit no control (or it is gone)
            if (focusable(c->c.kind)) move_focus(p, *w, c->c.id);
            land_control_effect(p, *w, *c);
            return;
        case InputAction::Pattern:
            if (c != nullptr) land_control_effect(p, *w, *c);
            return;
        case InputAction::SetValue:
            if (c == nullptr || c->c.kind != ControlKind::Edit || !c->c.enabled) return;
            c->undo_value = c->c.value;
            write_value(p, w->spec.id, *c, p.text);
            write_selection(p, w->spec.id, *c, caret_at(c->c.value.size()));
            write_dirty(p, *w, true);
            return;
    }
}

void Sim::land_type(const Pending& p, LiveWindow& w) {
    std::optional<ElementId> target = p.element ? p.element : w.focus;
    if (!p.keys.empty()) land_keys(p, w, target);
    if (!p.text.empty()) land_text(p, w, target);
}

void Sim::land_keys(const Pending& p, LiveWindow& w, std::optional<ElementId>& target) {
    const std::string key = normalized_chord(p.keys);
    LiveControl* c = target ? live_control(w.spec.id, *target) : nullptr;
    LiveControl* edit = (c != nullptr && c->c.kind == ControlKind::Edit && c->c.enabled) ? c : nullptr;
    if (key == "ctrl+s") {
        record_effect(p, EffectKind::Saved, w.spec.id, 0, "");
        write_dirty(p, w, false);
    } else if (key == "tab" || key == "shift+tab") {
        target = next_focusable(w, target, key == "tab");
        move_focus(p, w, target);
    } else if (key == "enter" || key == "return") {
        press_enter(p, w, target);
    } else if (edit == nullptr) {
        return;  // the remaining chords act on an edit only
    } else if (key == "ctrl+a") {
        write_selection(p, w.spec.id, *edit, Selection{0, static_cast<std::int64_t>(edit->c.value.size())});
    } else if (key == "ctrl+z" && edit->undo_value) {
        std::string before = *edit->undo_value;
        edit->undo_value.reset();
        write_value(p, w.spec.id, *edit, std::move(before));
        write_selection(p, w.spec.id, *edit, caret_at(edit->c.value.size()));
        write_dirty(p, w, true);
    } else if (key == "home" || key == "ctrl+home") {
        write_selection(p, w.spec.id, *edit, caret_at(0));
    } else if (key == "end" || key == "ctrl+end") {
        write_selection(p, w.spec.id, *edit, caret_at(edit->c.value.size()));
    }
}

void Sim::land_text(const Pending& p, LiveWindow& w, std::optional<ElementId>& target) {
    std::string segment;
    const std::string& text = p.text;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (ch != '\t' && ch != '\r' && ch != '\n') {
            segment += ch;
            continue;
        }
        type_segment(p, w, target, segment);
        segment.clear();
        if (ch == '\t') {
            target = next_focusable(w, target, true);
            move_focus(p, w, target);
            continue;
        }
        if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;  // "\r\n" is one Enter
        press_enter(p, w, target);
    }
    type_segment(p, w, target, segment);
}

void Sim::type_segment(const Pending& p, LiveWindow& w, std::optional<ElementId> target, const std::string& segment) {
    if (segment.empty() || !target) return;
    LiveControl* c = live_control(w.spec.id, *target);
    if (c == nullptr || c->c.kind != ControlKind::Edit || !c->c.enabled) return;  // a non-edit or disabled: dropped
    const Selection s = clamped(c->c.selection, c->c.value.size());
    const auto start = static_cast<std::size_t>(s.start);
    const auto length = static_cast<std::size_t>(s.length);
    std::string value = c->c.value.substr(0, start) + segment + c->c.value.substr(start + length);
    c->undo_value = c->c.value;
    write_value(p, w.spec.id, *c, std::move(value));
    write_selection(p, w.spec.id, *c, caret_at(start + segment.size()));
    write_dirty(p, w, true);
}

void Sim::press_enter(const Pending& p, LiveWindow& w, std::optional<ElementId> target) {
    LiveControl* c = target ? live_control(w.spec.id, *target) : nullptr;
    if (c == nullptr || c->c.kind != ControlKind::Edit) return;
    if (c->c.multiline) {
        type_segment(p, w, target, "\r\n");
    } else if (w.spec.form) {
        record_effect(p, EffectKind::FormSubmitted, w.spec.id, c->c.id, "");
    }
}

void Sim::select_item(const Pending& p, LiveWindow& w, LiveControl& item) {
    for (auto& sibling : w.controls) {
        if (&sibling == &item || sibling.removed || sibling.c.kind != ControlKind::ListItem) continue;
        if (sibling.c.parent != item.c.parent || !sibling.c.selected) continue;
        sibling.prev_selected = true;
        sibling.c.selected = false;
        record_effect(p, EffectKind::Deselected, w.spec.id, sibling.c.id, "false");
    }
    item.prev_selected = item.c.selected;
    item.c.selected = true;
    record_effect(p, EffectKind::Selected, w.spec.id, item.c.id, "true");
}

void Sim::land_control_effect(const Pending& p, LiveWindow& w, LiveControl& c) {
    const WindowId id = w.spec.id;
    if (!c.c.enabled) return;  // a disabled control takes the input and does nothing
    // W-2: a repeat of a non-idempotent input with a key already applied on this control is ignored.
    const bool non_idempotent = c.c.kind == ControlKind::SubmitButton || c.c.kind == ControlKind::PostButton;
    if (non_idempotent && p.idempotency_key && !applied_keys_.insert({c.c.id, *p.idempotency_key}).second) {
        record_effect(p, EffectKind::RepeatIgnored, id, c.c.id, *p.idempotency_key);
        return;
    }
    switch (c.c.kind) {
        case ControlKind::Toggle:
            c.prev_toggled = c.c.toggled;
            c.c.toggled = !c.c.toggled;
            record_effect(p, EffectKind::Toggled, id, c.c.id, c.c.toggled ? "true" : "false");
            return;
        case ControlKind::Expander:
            c.prev_expanded = c.c.expanded;
            c.c.expanded = !c.c.expanded;
            record_effect(p, EffectKind::Expanded, id, c.c.id, c.c.expanded ? "true" : "false");
            return;
        case ControlKind::ListItem: select_item(p, w, c); return;
        case ControlKind::Button: record_effect(p, EffectKind::ButtonClicked, id, c.c.id, ""); return;
        case ControlKind::SubmitButton:
            record_effect(p, EffectKind::FormSubmitted, id, c.c.id, "");
            show_in_feed(p, id, c);  // the form's status line, when it has one
            return;
        case ControlKind::PostButton:
            record_effect(p, EffectKind::CommentPosted, id, c.c.id, c.c.comment);
            show_in_feed(p, id, c);
            return;
        case ControlKind::Edit:
        case ControlKind::Feed:
        case ControlKind::Group: return;
    }
}

// A post's comment (a submit's status text), feed_latency_ms later, appended to the linked Feed.
void Sim::show_in_feed(const Pending& p, WindowId window, const LiveControl& c) {
    if (c.c.feed == 0) return;
    Pending show = p;
    show.kind = PendingKind::FeedAppend;
    show.element = c.c.feed;
    show.text = c.c.comment;
    show.pull_to_front = false;
    schedule(now_ + feed_latency_ms(window), std::move(show));
}

void Sim::land_feed_append(const Pending& p) {
    assert(p.kind == PendingKind::FeedAppend);
    assert(p.element.has_value());
    const auto ref = find_control(p.element.value_or(0));
    if (!ref) return;
    LiveWindow& w = windows_[ref->window_index];
    LiveControl& feed = w.controls[ref->control_index];
    if (feed.removed) return;
    write_value(p, w.spec.id, feed, feed.c.value + p.text + "\n");
    record_effect(p, EffectKind::CommentShown, w.spec.id, feed.c.id, p.text);
}

// F-3: the app brings its window to the front by itself.
void Sim::land_steal(const Pending& p) {
    assert(p.kind == PendingKind::StealForeground);
    const LiveWindow* w = find_window(p.window);
    if (w == nullptr || !w->shown) return;
    set_foreground(p.window, Actor::App);
}

}  // namespace deskcheck::sim
