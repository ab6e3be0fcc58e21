#include "model/verdict.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace deskcheck {

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::Confirmed: return "Confirmed";
        case Verdict::Absent: return "Absent";
        case Verdict::Unknown: return "Unknown";
    }
    return "?";
}

std::string_view to_string(ActionKind k) {
    switch (k) {
        case ActionKind::SelectAll: return "select_all";
        case ActionKind::Hotkey: return "hotkey";
        case ActionKind::TypeText: return "type_text";
        case ActionKind::TypeWithNavigation: return "type_with_navigation";
        case ActionKind::ClickStateful: return "click_stateful";
        case ActionKind::Unverifiable: return "unverifiable";
    }
    return "?";
}

std::string_view to_string(HotkeyIntent i) {
    switch (i) {
        case HotkeyIntent::Save: return "save";
        case HotkeyIntent::Edit: return "edit";
        case HotkeyIntent::Navigate: return "navigate";
        case HotkeyIntent::Focus: return "focus";
        case HotkeyIntent::Other: return "other";
    }
    return "?";
}

std::string_view to_string(ClickState s) {
    switch (s) {
        case ClickState::None: return "none";
        case ClickState::Toggle: return "toggle";
        case ClickState::Expand: return "expand";
        case ClickState::Select: return "select";
    }
    return "?";
}

std::string_view to_string(Promise p) {
    switch (p) {
        case Promise::SelectionCoversText: return "selection covers the text";
        case Promise::DirtyCleared: return "the unsaved-changes marker clears";
        case Promise::ValueChanged: return "the value changes";
        case Promise::SelectionChanged: return "the selection changes";
        case Promise::ValueOrSelectionChanged: return "the value or the selection changes";
        case Promise::ValueContainsText: return "the value contains the typed text";
        case Promise::StateFlipped: return "the control's state flips";
        case Promise::ItemSelected: return "the item is selected";
        case Promise::Nothing: return "nothing observable";
    }
    return "?";
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out.erase(std::remove(out.begin(), out.end(), ' '), out.end());
    return out;
}

bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

// The part of typed text before its first navigation/submit key (V-6).
std::string first_segment(const std::string& text) {
    const auto pos = text.find_first_of("\t\r\n\x1b");
    return pos == std::string::npos ? text : text.substr(0, pos);
}

std::optional<bool> click_state(const Snapshot& s, ClickState which) {
    switch (which) {
        case ClickState::Toggle: return s.toggled;
        case ClickState::Expand: return s.expanded;
        case ClickState::Select: return s.selected;
        case ClickState::None: return std::nullopt;
    }
    return std::nullopt;
}

// ---- conditions shared by both rule sets -------------------------------------------------------
// Each condition is false when a reading it needs is unreadable, whatever rows come before it: a
// row's sentence stands on its own (and `deskcheck mutate-rules` may remove or move the
// "unreadable" row that comes first in the shipped tables).

bool always(const Situation&) { return true; }
bool not_settled(const Situation& s) { return !s.timing.settled; }

bool value_or_selection_unreadable_after(const Situation& s) {
    return !s.after.value.has_value() || !s.after.selection.has_value();
}
bool selection_covers_text(const Situation& s) {
    if (!s.after.value || !s.after.selection) return false;
    const auto& sel = *s.after.selection;
    const auto needed = length_ignoring_trailing_newlines(*s.after.value);
    return sel.start == 0 && sel.length >= needed;
}

bool value_unreadable_after(const Situation& s) { return !s.after.value.has_value(); }
bool value_unreadable_before_or_after(const Situation& s) {
    return !s.before.value.has_value() || !s.after.value.has_value();
}
bool value_or_selection_changed(const Situation& s) {
    const bool value_changed = s.before.value.has_value() && s.after.value.has_value() && *s.before.value != *s.after.value;
    const bool sel_changed = s.before.selection.has_value() && s.after.selection.has_value() &&
                             *s.before.selection != *s.after.selection;
    return value_changed || sel_changed;
}

// Published V-5: readback contains the text and the value changed. "Changed" needs both readings:
// an unreadable before is unknown, not different (V-2: unreadable is not a value; the seed's
// point 4 is exactly that "don't know" must not turn into a fact).
bool contains_text_and_changed(const Situation& s) {
    return s.before.value.has_value() && s.after.value.has_value() &&
           contains(*s.after.value, s.action.text) && *s.before.value != *s.after.value;
}
bool text_present_before_unreadable(const Situation& s) {
    return !s.before.value.has_value() && s.after.value.has_value() && contains(*s.after.value, s.action.text);
}
bool value_unchanged(const Situation& s) {
    return s.before.value.has_value() && s.after.value.has_value() && *s.before.value == *s.after.value;
}
bool contains_segment_and_changed(const Situation& s) {
    return s.before.value.has_value() && s.after.value.has_value() &&
           contains(*s.after.value, first_segment(s.action.text)) && *s.before.value != *s.after.value;
}

bool click_selected_already(const Situation& s) {
    return s.action.click_state == ClickState::Select && s.before.selected == true &&
           s.after.selected == true;
}
bool click_state_unreadable_after(const Situation& s) {
    return !click_state(s.after, s.action.click_state).has_value();
}
bool click_state_unreadable_before(const Situation& s) {
    return !click_state(s.before, s.action.click_state).has_value();
}
bool click_state_changed(const Situation& s) {
    const auto before = click_state(s.before, s.action.click_state);
    const auto after = click_state(s.after, s.action.click_state);
    return before.has_value() && after.has_value() && *before != *after;
}

// ---- current-only conditions -------------------------------------------------------------------

bool save_dirty_cleared(const Situation& s) {
    return s.action.intent == HotkeyIntent::Save && s.before.dirty == true && s.after.dirty == false;
}
bool edit_value_changed(const Situation& s) {
    return s.action.intent == HotkeyIntent::Edit && s.before.value.has_value() &&
           s.after.value.has_value() && *s.before.value != *s.after.value;
}
bool navigate_selection_changed(const Situation& s) {
    return s.action.intent == HotkeyIntent::Navigate && s.before.selection.has_value() &&
           s.after.selection.has_value() && *s.before.selection != *s.after.selection;
}

// The value typing produces: the text replaces the selection (or is inserted at the caret).
std::optional<std::string> expected_after_typing(const Situation& s) {
    if (!s.before.value || !s.before.selection) return std::nullopt;
    const auto& v = *s.before.value;
    const auto sel = *s.before.selection;
    const auto size = static_cast<std::int64_t>(v.size());
    if (sel.start < 0 || sel.length < 0 || sel.start > size || sel.start + sel.length > size) {
        return std::nullopt;
    }
    return v.substr(0, static_cast<size_t>(sel.start)) + s.action.text +
           v.substr(static_cast<size_t>(sel.start + sel.length));
}
// The value is the splice, and something shows the typing arrived: the value changed, or — when the
// text replaces an identical selection (D-2) and the value cannot change — the caret moved to the
// end of the inserted text. An unchanged value with the old selection is what an input not yet
// applied looks like too: that is no evidence.
bool value_is_expected(const Situation& s) {
    const auto expected = expected_after_typing(s);
    if (!expected.has_value() || s.after.value != expected) return false;
    if (*s.before.value != *s.after.value) return true;
    const auto caret = Selection{s.before.selection->start + static_cast<std::int64_t>(s.action.text.size()), 0};
    return s.after.selection.has_value() && *s.after.selection == caret && *s.before.selection != caret;
}
bool text_arrived(const Situation& s) {
    return s.before.value.has_value() && s.after.value.has_value() && !contains(*s.before.value, s.action.text) &&
           contains(*s.after.value, s.action.text);
}
bool text_present(const Situation& s) { return s.after.value.has_value() && contains(*s.after.value, s.action.text); }
bool segment_arrived(const Situation& s) {
    const auto seg = first_segment(s.action.text);
    return !seg.empty() && s.before.value.has_value() && s.after.value.has_value() && !contains(*s.before.value, seg) &&
           contains(*s.after.value, seg);
}
bool item_selected_after(const Situation& s) {
    return s.action.click_state == ClickState::Select && s.after.selected == true;
}

// ---- the tables --------------------------------------------------------------------------------

using K = ActionKind;
using V = Verdict;

constexpr std::array published_rows{
    Rule{K::SelectAll, "select_all.unreadable", "value or selection unreadable after", V::Unknown, "V-2 V-3", value_or_selection_unreadable_after},
    Rule{K::SelectAll, "select_all.covers", "selection starts at 0 and covers the text (trailing CR/LF ignored)", V::Confirmed, "V-3", selection_covers_text},
    Rule{K::SelectAll, "select_all.partial", "selection does not cover the text", V::Absent, "V-3", always},
    Rule{K::Hotkey, "hotkey.unreadable", "value unreadable before or after", V::Unknown, "V-2 V-4", value_unreadable_before_or_after},
    Rule{K::Hotkey, "hotkey.changed", "value or selection changed (any change: debt D-1)", V::Confirmed, "V-4 D-1", value_or_selection_changed},
    Rule{K::Hotkey, "hotkey.unchanged", "nothing changed", V::Unknown, "V-4", always},
    Rule{K::TypeText, "type.unreadable", "value unreadable after", V::Unknown, "V-2 V-5", value_unreadable_after},
    Rule{K::TypeText, "type.unreadable_before", "text present after, value unreadable before (whether it changed is unknown)", V::Unknown, "V-2 V-5", text_present_before_unreadable},
    Rule{K::TypeText, "type.contains_and_changed", "value contains the text and changed", V::Confirmed, "V-5", contains_text_and_changed},
    Rule{K::TypeText, "type.not_observed", "readable, but unchanged or without the text (debt D-2)", V::Absent, "V-5 D-2", always},
    Rule{K::TypeWithNavigation, "typenav.unreadable", "value unreadable before or after (whether it changed is unknown)", V::Unknown, "V-2 V-6", value_unreadable_before_or_after},
    Rule{K::TypeWithNavigation, "typenav.unchanged", "value unchanged (focus may have moved or the form submitted)", V::Unknown, "V-6", value_unchanged},
    Rule{K::TypeWithNavigation, "typenav.contains_and_changed", "value changed and contains the text before the first navigation key", V::Confirmed, "V-5 V-6", contains_segment_and_changed},
    Rule{K::TypeWithNavigation, "typenav.not_observed", "value changed without the typed text", V::Absent, "V-5 V-6", always},
    Rule{K::ClickStateful, "click.selected_already", "list item selected before and after", V::Confirmed, "V-7", click_selected_already},
    Rule{K::ClickStateful, "click.unreadable_after", "state unreadable after", V::Unknown, "V-2 V-7", click_state_unreadable_after},
    Rule{K::ClickStateful, "click.unreadable_before", "state unreadable before (nothing to compare)", V::Unknown, "V-1 V-7", click_state_unreadable_before},
    Rule{K::ClickStateful, "click.changed", "state changed", V::Confirmed, "V-7", click_state_changed},
    Rule{K::ClickStateful, "click.unchanged", "same state before and after", V::Absent, "V-7", always},
    Rule{K::Unverifiable, "unverifiable", "plain button, or type without an element ref: nothing to read", V::Unknown, "V-8", always},
};

constexpr std::array current_rows{
    Rule{K::SelectAll, "select_all.unreadable", "value or selection unreadable after", V::Unknown, "V-2 V-3", value_or_selection_unreadable_after},
    Rule{K::SelectAll, "select_all.covers", "selection starts at 0 and covers the text (trailing CR/LF ignored)", V::Confirmed, "V-3", selection_covers_text},
    Rule{K::SelectAll, "select_all.not_settled", "not covered, but the state was still changing or read too early", V::Unknown, "D-3", not_settled},
    Rule{K::SelectAll, "select_all.partial", "selection does not cover the text", V::Absent, "V-3", always},
    Rule{K::Hotkey, "hotkey.save.dirty_cleared", "save: unsaved-changes marker set before, clear after", V::Confirmed, "V-4 V-9 D-1", save_dirty_cleared},
    Rule{K::Hotkey, "hotkey.edit.value_changed", "edit hotkey (undo, cut, paste, delete): value changed", V::Confirmed, "V-4 V-9 D-1", edit_value_changed},
    Rule{K::Hotkey, "hotkey.navigate.selection_changed", "navigation hotkey: selection changed", V::Confirmed, "V-4 V-9 D-1", navigate_selection_changed},
    Rule{K::Hotkey, "hotkey.unpromised", "no change of the reading the hotkey promises (other changes do not count)", V::Unknown, "V-4 D-1", always},
    Rule{K::TypeText, "type.unreadable", "value unreadable after", V::Unknown, "V-2 V-5", value_unreadable_after},
    Rule{K::TypeText, "type.value_is_expected", "value is exactly the text spliced into the selection read before", V::Confirmed, "V-5 D-2", value_is_expected},
    Rule{K::TypeText, "type.text_arrived", "text absent before, present after", V::Confirmed, "V-5", text_arrived},
    Rule{K::TypeText, "type.text_present", "text present after, but it may have been there before", V::Unknown, "V-1 V-5", text_present},
    Rule{K::TypeText, "type.not_settled", "text missing, but the value was still changing or read too early", V::Unknown, "D-3", not_settled},
    Rule{K::TypeText, "type.missing", "readable and settled, without the typed text", V::Absent, "V-5", always},
    Rule{K::TypeWithNavigation, "typenav.unreadable", "value unreadable after", V::Unknown, "V-2 V-6", value_unreadable_after},
    Rule{K::TypeWithNavigation, "typenav.segment_arrived", "the text before the first navigation key is absent before, present after", V::Confirmed, "V-6", segment_arrived},
    Rule{K::TypeWithNavigation, "typenav.otherwise", "anything else (focus may have moved, Enter may have submitted)", V::Unknown, "V-6", always},
    Rule{K::ClickStateful, "click.item_selected", "list item: selected after (already selected is fine)", V::Confirmed, "V-7", item_selected_after},
    Rule{K::ClickStateful, "click.unreadable_after", "state unreadable after", V::Unknown, "V-2 V-7", click_state_unreadable_after},
    Rule{K::ClickStateful, "click.unreadable_before", "state unreadable before (nothing to compare)", V::Unknown, "V-1 V-7", click_state_unreadable_before},
    Rule{K::ClickStateful, "click.changed", "toggle/expand state changed", V::Confirmed, "V-7", click_state_changed},
    Rule{K::ClickStateful, "click.not_settled", "unchanged, but the state was still changing or read too early", V::Unknown, "D-3", not_settled},
    Rule{K::ClickStateful, "click.unchanged", "same state before and after, settled", V::Absent, "V-7", always},
    Rule{K::Unverifiable, "unverifiable", "plain button, or type without an element ref: nothing to read", V::Unknown, "V-8", always},
};

Promise published_promise(const ActionFacts& a) {
    switch (a.kind) {
        case K::SelectAll: return Promise::SelectionCoversText;
        case K::Hotkey: return Promise::ValueOrSelectionChanged;
        case K::TypeText: return Promise::ValueContainsText;
        case K::TypeWithNavigation: return Promise::ValueContainsText;
        case K::ClickStateful:
            return a.click_state == ClickState::Select ? Promise::ItemSelected : Promise::StateFlipped;
        case K::Unverifiable: return Promise::Nothing;
    }
    return Promise::Nothing;
}

Promise current_promise(const ActionFacts& a) {
    if (a.kind != K::Hotkey) return published_promise(a);
    switch (a.intent) {
        case HotkeyIntent::Save: return Promise::DirtyCleared;
        case HotkeyIntent::Edit: return Promise::ValueChanged;
        case HotkeyIntent::Navigate: return Promise::SelectionChanged;
        case HotkeyIntent::Focus: return Promise::Nothing;
        case HotkeyIntent::Other: return Promise::Nothing;
    }
    return Promise::Nothing;
}

constexpr std::string_view published_summary =
    "The rules exactly as the seed publishes them (SPEC V-3..V-8), debts D-1..D-3 included; one "
    "immediate read after the action.";
constexpr std::string_view current_summary =
    "This project's recommendation: state-based 'set to X' for typing (fixes D-2), hotkeys confirmed "
    "only on the change they promise (narrows D-1), no Absent before the state settles (fixes D-3).";

const RuleSet published_set{"published", published_summary, false, published_promise, published_rows};
const RuleSet current_set{"current", current_summary, true, current_promise, current_rows, true, true, 1000};
constexpr std::array<const RuleSet*, 2> every_set{&published_set, &current_set};

// Why a row's condition could not be evaluated: the readings it needs.
std::optional<std::string> missing_reading(const Situation& s) {
    switch (s.action.kind) {
        case K::SelectAll:
            if (!s.after.value) return "value unreadable after";
            if (!s.after.selection) return "selection unreadable after";
            return std::nullopt;
        case K::Hotkey:
        case K::TypeText:
        case K::TypeWithNavigation:
            if (!s.before.value) return "value unreadable before";
            if (!s.after.value) return "value unreadable after";
            return std::nullopt;
        case K::ClickStateful:
            if (!click_state(s.before, s.action.click_state)) return "state unreadable before";
            if (!click_state(s.after, s.action.click_state)) return "state unreadable after";
            return std::nullopt;
        case K::Unverifiable: return "the action has no readable state";
    }
    return std::nullopt;
}

}  // namespace

bool is_select_all_chord(std::string_view keys) {
    const auto k = lower(keys);
    return k == "ctrl+a" || k == "control+a";
}

HotkeyIntent hotkey_intent(std::string_view keys) {
    const auto k = lower(keys);
    if (k == "ctrl+s" || k == "control+s") return HotkeyIntent::Save;
    if (k == "ctrl+z" || k == "ctrl+y" || k == "ctrl+x" || k == "ctrl+v" || k == "backspace" ||
        k == "delete" || k == "ctrl+shift+z") {
        return HotkeyIntent::Edit;
    }
    if (k == "home" || k == "end" || k == "left" || k == "right" || k == "up" || k == "down" ||
        k == "ctrl+home" || k == "ctrl+end" || k == "shift+home" || k == "shift+end") {
        return HotkeyIntent::Navigate;
    }
    if (k == "tab" || k == "shift+tab") return HotkeyIntent::Focus;
    return HotkeyIntent::Other;
}

bool has_navigation_keys(std::string_view text) {
    return text.find_first_of("\t\r\n\x1b") != std::string_view::npos;
}

std::int64_t length_ignoring_trailing_newlines(std::string_view value) {
    auto n = value.size();
    while (n > 0 && (value[n - 1] == '\r' || value[n - 1] == '\n')) --n;
    return static_cast<std::int64_t>(n);
}

Verdict verdict_of(const RuleSet& rules, const Situation& situation) {
    for (const Rule& row : rules.rules) {
        if (row.kind == situation.action.kind && condition_holds(row, situation)) return row.verdict;
    }
    return Verdict::Unknown;
}

Judgement judge(const RuleSet& rules, const Situation& situation) {
    Judgement j;
    j.checks_ran.reserve(8);
    j.promise = rules.promise_of(situation.action);
    j.verifiable = situation.action.kind != K::Unverifiable;
    if (auto why = missing_reading(situation)) {
        j.checks_not_run.push_back({std::string(to_string(situation.action.kind)) + ".compare", *why});
    }
    for (const Rule& row : rules.rules) {
        if (row.kind != situation.action.kind) continue;
        const bool holds = condition_holds(row, situation);
        j.checks_ran.push_back({row.id, holds});
        if (!holds) continue;
        j.verdict = row.verdict;
        j.rule = row.id;
        j.spec = row.spec;
        return j;
    }
    j.verdict = Verdict::Unknown;
    j.rule = "no_rule";
    j.spec = "V-1";
    return j;
}

const RuleSet& published_rules() { return published_set; }
const RuleSet& current_rules() { return current_set; }

const RuleSet* find_rules(std::string_view name) {
    for (const RuleSet* r : every_set) {
        if (r->name == name) return r;
    }
    return nullptr;
}

std::span<const RuleSet* const> all_rule_sets() { return every_set; }

}  // namespace deskcheck
