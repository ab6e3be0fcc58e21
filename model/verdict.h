// The verdict rules (SPEC V-1..V-9): a pure judgement of one action's evidence.
//
// A rule set is a value: an ordered list of rows, each with the action kind it applies to, the
// condition it tests (as a predicate and as the sentence printed by `deskcheck rules`), the verdict
// it gives and the SPEC ID it implements. judge() evaluates the rows of the action's kind in order;
// the first row whose condition holds decides. The table printed by the CLI is these same rows, so
// it cannot drift from the code.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/selection.h"

namespace deskcheck {

// V-1: three verdicts. An execution error is not a verdict (see Error in errors.h).
enum class Verdict : std::uint8_t { Confirmed, Absent, Unknown };

std::string_view to_string(Verdict v);

// V-2: every reading is optional. std::nullopt means "could not be read", never "empty".
struct Snapshot {
    std::optional<std::string> value;
    std::optional<Selection> selection;
    std::optional<bool> toggled;
    std::optional<bool> expanded;
    std::optional<bool> selected;
    std::optional<bool> dirty;  // the window's unsaved-changes marker (title "*"), if readable
    friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

// The kinds of action of V-3..V-8.
enum class ActionKind : std::uint8_t {
    SelectAll,          // V-3: the strict Ctrl+A chord
    Hotkey,             // V-4: any other hotkey (save, undo, navigation, ...)
    TypeText,           // V-5: plain text into an element
    TypeWithNavigation, // V-6: text containing Tab, Enter or another navigation/submit key
    ClickStateful,      // V-7: click on a control with a readable toggle/expand/selected state
    Unverifiable,       // V-8: plain button click, or type without an element ref
};
inline constexpr int action_kind_count = 6;
std::string_view to_string(ActionKind k);

// What a hotkey is for. Only the `current` rules look at it (D-1): a hotkey is confirmed only on
// a change of the reading its intent promises.
enum class HotkeyIntent : std::uint8_t {
    Save,       // promises: the dirty marker clears (the edit box is not a sensor for "saved")
    Edit,       // undo, redo, cut, paste, delete: promises a value change
    Navigate,   // home, end, arrows: promises a selection (caret) change
    Focus,      // tab: promises a focus move, not observable in the element
    Other,      // anything else: promises nothing observable
};
std::string_view to_string(HotkeyIntent i);

// Which state a stateful click promises to change (V-7).
enum class ClickState : std::uint8_t { None, Toggle, Expand, Select };
std::string_view to_string(ClickState s);

// The reading(s) an action promises to change (V-9).
enum class Promise : std::uint8_t {
    SelectionCoversText,  // V-3: state after, not a change
    DirtyCleared,         // save
    ValueChanged,
    SelectionChanged,
    ValueOrSelectionChanged,  // the published hotkey promise (D-1)
    ValueContainsText,        // V-5
    StateFlipped,             // V-7 toggle / expand
    ItemSelected,             // V-7 list item: selected after
    Nothing,                  // V-8: nothing observable
};
std::string_view to_string(Promise p);

// One action as the verdict rules see it.
struct ActionFacts {
    ActionKind kind = ActionKind::Unverifiable;
    HotkeyIntent intent = HotkeyIntent::Other;  // hotkeys only
    ClickState click_state = ClickState::None;  // stateful clicks only
    std::string text;                           // typed text (type actions only)
};

// Classifies a hotkey chord ("ctrl+a", "ctrl+s", "home", ...). Case-insensitive.
bool is_select_all_chord(std::string_view keys);
HotkeyIntent hotkey_intent(std::string_view keys);
// True when typed text contains Tab, CR, LF or another navigation/submit key (V-6).
bool has_navigation_keys(std::string_view text);
// V-3: the text length that a full selection must cover: trailing CR/LF are not counted.
std::int64_t length_ignoring_trailing_newlines(std::string_view value);

// What the act layer knows about timing when it hands over the reads (D-3).
struct Timing {
    // The after-read was taken once the app's latency bound had passed and two consecutive
    // reads agreed. `published` ignores it; `current` never says Absent when it is false.
    bool settled = false;
};

struct Situation {
    const ActionFacts& action;
    const Snapshot& before;
    const Snapshot& after;
    Timing timing;
};

// One row of a rule table.
struct Rule {
    ActionKind kind;
    std::string_view id;         // stable name of the row, e.g. "select_all.covers"
    std::string_view condition;  // the sentence printed in the rule table
    Verdict verdict;
    std::string_view spec;       // SPEC IDs, e.g. "V-3"
    bool (*holds)(const Situation&);
    // The row tests the opposite of `holds`. Always false in the shipped tables: it exists so that
    // `deskcheck mutate-rules` (harness/rule_mutation.h) can negate a row's condition as data.
    bool negated = false;
};

// Whether the row's condition holds in the situation (its predicate, negated when the row says so).
inline bool condition_holds(const Rule& row, const Situation& situation) {
    return row.holds(situation) != row.negated;
}

// A check recorded in the evidence (P-1, W-3).
struct Check {
    std::string name;    // the rule row id
    bool passed = false; // its condition held
};
struct SkippedCheck {
    std::string name;
    std::string why;
};

// A row judge() tried. Its name views the rule set's own row id (Rule::id): judge() copies no
// string (it runs per poll and per catalogue situation); the evidence copies them once (act.cpp).
struct RowCheck {
    std::string_view name;
    bool passed = false;
};

// Views into the rule set it was judged by: valid as long as that set is.
struct Judgement {
    Verdict verdict = Verdict::Unknown;
    Promise promise = Promise::Nothing;
    std::string_view rule;  // the deciding row id
    std::string_view spec;
    std::vector<RowCheck> checks_ran;
    std::vector<SkippedCheck> checks_not_run;
    bool verifiable = true;  // false: V-8, the action has nothing observable to check
};

struct RuleSet {
    std::string_view name;
    std::string_view summary;
    // true: the act layer waits in virtual time until the app's latency bound has passed and the
    // state stopped changing before the final read (D-3). false: one immediate read, as the seed.
    bool settles = false;
    // The promise an action declares (V-9); the rule rows check only that.
    Promise (*promise_of)(const ActionFacts&);
    std::span<const Rule> rules;
    // The rule set's stated hotkey promise, as data the checks read (V-4, V-9): true, a hotkey
    // promises the reading of its intent (save: the unsaved marker; edit: the value; navigation:
    // the selection; focus and others: nothing); false, the value or the selection, as published.
    bool hotkeys_promise_their_intent = false;
    // The rule set's stated typing promise, as data the checks read (V-5, D-2): true, plain typing
    // promises the value is the text spliced into the selection read before ("set to X", so typing
    // over an identical selection is Confirmed); false, the value contains the text and changed.
    bool typing_sets_value = false;
    // The rule set's stated wait, as data the checks read (D-3): when it settles, it waits for an app
    // whose declared latency bound is at most this long (ms) until the bound has passed; a longer
    // bound is not waited for (the answer may stay Unknown). 0 when it does not settle.
    std::int64_t settles_within_ms = 0;
};

// Evaluates the rows of the action's kind in order; the first that holds decides. When no row
// holds the verdict is Unknown (V-1: missing evidence gives Unknown).
Judgement judge(const RuleSet& rules, const Situation& situation);
// The verdict judge() would give, without building its evidence (no allocation): for polling.
Verdict verdict_of(const RuleSet& rules, const Situation& situation);

const RuleSet& published_rules();
const RuleSet& current_rules();
// Looks a rule set up by name ("published", "current"); nullptr when unknown.
const RuleSet* find_rules(std::string_view name);
std::span<const RuleSet* const> all_rule_sets();

}  // namespace deskcheck
