#include "checks/verdict_oracle.h"

#include "checks/names.h"
#include "model/shown.h"

namespace deskcheck::props {

StatedRules stated(const RuleSet& rules) { return StatedRules{rules.settles, rules.hotkeys_promise_their_intent, rules.rules}; }

Promise promise_stated(const ActionFacts& action, bool hotkeys_by_intent) {
    switch (action.kind) {
        case ActionKind::SelectAll: return Promise::SelectionCoversText;             // V-3
        case ActionKind::TypeText:                                                     // V-5
        case ActionKind::TypeWithNavigation: return Promise::ValueContainsText;       // V-6
        case ActionKind::ClickStateful:                                                // V-7
            return action.click_state == ClickState::Select ? Promise::ItemSelected : Promise::StateFlipped;
        case ActionKind::Unverifiable: return Promise::Nothing;                       // V-8
        case ActionKind::Hotkey:                                                       // V-4
            if (!hotkeys_by_intent) return Promise::ValueOrSelectionChanged;
            switch (action.intent) {
                case HotkeyIntent::Save: return Promise::DirtyCleared;
                case HotkeyIntent::Edit: return Promise::ValueChanged;
                case HotkeyIntent::Navigate: return Promise::SelectionChanged;
                case HotkeyIntent::Focus:
                case HotkeyIntent::Other: return Promise::Nothing;
            }
            return Promise::Nothing;
    }
    return Promise::Nothing;
}

std::int64_t text_length_to_cover(std::string_view value) {
    std::size_t n = value.size();
    while (n > 0 && (value[n - 1] == '\n' || value[n - 1] == '\r')) --n;
    return static_cast<std::int64_t>(n);
}

namespace {

std::string shown(const std::optional<std::string>& v) { return v ? shown_text(*v) : "(unreadable)"; }
std::string shown(const std::optional<bool>& v) { return v ? (*v ? "true" : "false") : "(unreadable)"; }

std::optional<bool> click_reading(const Snapshot& s, ClickState which) {
    switch (which) {
        case ClickState::Toggle: return s.toggled;
        case ClickState::Expand: return s.expanded;
        case ClickState::Select: return s.selected;
        case ClickState::None: return std::nullopt;
    }
    return std::nullopt;
}

// The readings an Absent rests on: each must have been readable (V-2). nullopt: all were.
std::optional<std::string> unreadable_basis_of_absent(const JudgedSituation& c, Promise promise) {
    const Snapshot& b = c.before;
    const Snapshot& a = c.after;
    switch (promise) {
        case Promise::SelectionCoversText:
            if (!a.value || !a.selection) return "value or selection unreadable after";
            return std::nullopt;
        case Promise::DirtyCleared:
            if (!b.dirty || !a.dirty) return "unsaved marker unreadable before or after";
            return std::nullopt;
        case Promise::ValueChanged:
        case Promise::ValueOrSelectionChanged:
            if (!b.value || !a.value) return "value unreadable before or after";
            return std::nullopt;
        case Promise::SelectionChanged:
            if (!b.selection || !a.selection) return "selection unreadable before or after";
            return std::nullopt;
        case Promise::ValueContainsText:
            if (!a.value) return "value unreadable after";
            // V-6: with navigation keys an Absent says "changed, but without the text": that needs
            // the value before too.
            if (c.action.kind == ActionKind::TypeWithNavigation && !b.value) return "value unreadable before";
            return std::nullopt;
        case Promise::StateFlipped:
        case Promise::ItemSelected:
            if (!click_reading(b, c.action.click_state) || !click_reading(a, c.action.click_state))
                return "state unreadable before or after";
            return std::nullopt;
        case Promise::Nothing: return "the action promises nothing observable";
    }
    return "unknown promise";
}

const Rule* row_of(const StatedRules& rules, const Judgement& j) {
    for (const Rule& r : rules.rows) {
        if (r.id == j.rule) return &r;
    }
    return nullptr;
}

std::optional<std::string> table_lie(const StatedRules& rules, const JudgedSituation& c, const Judgement& j) {
    const Rule* row = row_of(rules, j);
    if (row == nullptr) return "the deciding rule exists in the table";
    if (row->kind != c.action.kind) return "the deciding rule is of the action's kind";
    if (row->verdict != j.verdict) return "the verdict is the deciding rule's";
    if (row->spec != j.spec) return "the SPEC IDs are the deciding rule's";
    if (j.promise != promise_stated(c.action, rules.hotkeys_by_intent)) {
        return "the promise is the one the rule set states (V-9): " + std::string(name_of(promise_stated(c.action, rules.hotkeys_by_intent)));
    }
    return std::nullopt;
}

std::optional<std::string> absent_lie(const StatedRules& rules, const JudgedSituation& c, const Judgement& j) {
    if (j.verdict != Verdict::Absent) return std::nullopt;
    if (rules.settles && !c.settled) return "a rule set that waits to settle never says Absent before the state settled (D-3)";
    if (const auto why = unreadable_basis_of_absent(c, j.promise)) return "Absent never rests on an unreadable reading (V-2): " + *why;
    return std::nullopt;
}

std::optional<std::string> confirmed_lie(const JudgedSituation& c, const Judgement& j) {
    if (j.verdict != Verdict::Confirmed) return std::nullopt;
    if (c.action.kind == ActionKind::TypeText && (!c.after.value || c.after.value->find(c.action.text) == std::string::npos)) {
        return "typing is Confirmed only when the value after contains the text (V-5)";
    }
    if (c.action.kind == ActionKind::ClickStateful && !click_reading(c.after, c.action.click_state)) {
        return "a click is Confirmed only on a readable state after (V-7)";
    }
    return std::nullopt;
}

std::optional<std::string> select_all_lie(const StatedRules& rules, const JudgedSituation& c, const Judgement& j) {
    if (c.action.kind != ActionKind::SelectAll || !c.after.value || !c.after.selection) return std::nullopt;
    const Selection sel = *c.after.selection;
    const bool covers = sel.start == 0 && sel.length >= text_length_to_cover(*c.after.value);
    const bool may_wait = rules.settles && !c.settled;
    const Verdict expected = covers ? Verdict::Confirmed : (may_wait ? Verdict::Unknown : Verdict::Absent);
    if (j.verdict != expected) return "select-all: Confirmed iff the selection starts at 0 and covers the text (V-3)";
    return std::nullopt;
}

}  // namespace

std::optional<std::string> verdict_judgement_lie(const StatedRules& rules, const JudgedSituation& s, const Judgement& j) {
    if (auto lie = table_lie(rules, s, j)) return lie;
    if (auto lie = absent_lie(rules, s, j)) return lie;
    if (auto lie = confirmed_lie(s, j)) return lie;
    if (auto lie = select_all_lie(rules, s, j)) return lie;
    if (s.action.kind == ActionKind::Unverifiable && (j.verdict != Verdict::Unknown || j.verifiable)) {
        return "an unverifiable action is Unknown and not verifiable (V-8)";
    }
    return std::nullopt;
}

std::optional<std::string> select_all_before_mattered(const JudgedSituation& s, const Judgement& j, const Judgement& other) {
    if (s.action.kind != ActionKind::SelectAll) return std::nullopt;
    if (other.verdict != j.verdict || other.rule != j.rule) {
        return "select-all is judged on the state after (V-3): another before changed the verdict to " +
               std::string(name_of(other.verdict));
    }
    return std::nullopt;
}

std::string describe_snapshot(const Snapshot& s) {
    std::string out = "value=" + shown(s.value) + " selection=";
    out += s.selection ? std::to_string(s.selection->start) + "+" + std::to_string(s.selection->length) : "(unreadable)";
    out += " dirty=" + shown(s.dirty) + " toggled=" + shown(s.toggled) + " expanded=" + shown(s.expanded) + " selected=" + shown(s.selected);
    return out;
}

std::string describe_judged(const JudgedSituation& c, std::string_view rules_name, const Judgement& j) {
    std::string out = "rules " + std::string(rules_name) + ", action " + std::string(name_of(c.action.kind));
    out += " intent " + std::string(name_of(c.action.intent)) + " click " + std::string(name_of(c.action.click_state));
    out += " text " + shown_text(c.action.text) + (c.settled ? ", settled" : ", not settled");
    out += "\n  before " + describe_snapshot(c.before) + "\n  after  " + describe_snapshot(c.after);
    out += "\n  -> " + std::string(name_of(j.verdict)) + " by rule " + std::string(j.rule) + " (" + std::string(j.spec) + ")";
    return out;
}

}  // namespace deskcheck::props
