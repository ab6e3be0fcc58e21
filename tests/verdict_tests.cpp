// The verdict rules (SPEC V-1..V-9, D-1..D-3), as tables over both rule sets.
// Every row names the SPEC ID it pins; a person changing a rule greps for it.
#include <boost/test/unit_test.hpp>

#include <array>
#include <string>

#include "model/verdict.h"

using namespace deskcheck;

namespace {

struct Row {
    const char* name;
    ActionFacts action;
    Snapshot before;
    Snapshot after;
    bool settled;
    Verdict published;
    Verdict current;
};

Snapshot edit(std::string value, Selection sel) { return Snapshot{std::move(value), sel, {}, {}, {}, {}}; }
Snapshot unreadable() { return Snapshot{}; }
Snapshot value_only(std::string value) { return Snapshot{std::move(value), std::nullopt, {}, {}, {}, {}}; }
Snapshot toggle(std::optional<bool> on) { Snapshot s; s.toggled = on; return s; }
Snapshot expander(std::optional<bool> open) { Snapshot s; s.expanded = open; return s; }
Snapshot item(std::optional<bool> selected) { Snapshot s; s.selected = selected; return s; }
Snapshot dirty_edit(std::string value, bool dirty) { Snapshot s = edit(std::move(value), {0, 0}); s.dirty = dirty; return s; }

ActionFacts select_all() { return {ActionKind::SelectAll, HotkeyIntent::Other, ClickState::None, ""}; }
ActionFacts hotkey(std::string_view keys) { return {ActionKind::Hotkey, hotkey_intent(keys), ClickState::None, ""}; }
ActionFacts type(std::string text) {
    const auto kind = has_navigation_keys(text) ? ActionKind::TypeWithNavigation : ActionKind::TypeText;
    return {kind, HotkeyIntent::Other, ClickState::None, std::move(text)};
}
ActionFacts click(ClickState s) { return {ActionKind::ClickStateful, HotkeyIntent::Other, s, ""}; }
ActionFacts unverifiable() { return {ActionKind::Unverifiable, HotkeyIntent::Other, ClickState::None, ""}; }

using V = Verdict;

// The seed's 21 verdict situations reconstructed from SPEC V-1..V-8, plus the debts.
const std::array rows{
    Row{"V3 ctrl+a on already-selected text", select_all(), edit("hello", {0, 5}), edit("hello", {0, 5}), true, V::Confirmed, V::Confirmed},
    Row{"V3 ctrl+a selecting from a caret", select_all(), edit("hello", {2, 0}), edit("hello", {0, 5}), true, V::Confirmed, V::Confirmed},
    Row{"V3 ctrl+a stopping before a trailing CR/LF", select_all(), edit("line\r\n", {1, 0}), edit("line\r\n", {0, 4}), true, V::Confirmed, V::Confirmed},
    Row{"V3 ctrl+a covering part of the text", select_all(), edit("hello", {0, 0}), edit("hello", {0, 3}), true, V::Absent, V::Absent},
    Row{"V3 ctrl+a not starting at 0", select_all(), edit("hello", {0, 0}), edit("hello", {1, 4}), true, V::Absent, V::Absent},
    Row{"V2 V3 ctrl+a with the value unreadable", select_all(), unreadable(), Snapshot{std::nullopt, Selection{0, 5}, {}, {}, {}, {}}, true, V::Unknown, V::Unknown},
    Row{"V2 V3 ctrl+a with the selection unreadable", select_all(), value_only("hello"), value_only("hello"), true, V::Unknown, V::Unknown},
    Row{"V4 hotkey with nothing changed", hotkey("ctrl+s"), edit("draft", {5, 0}), edit("draft", {5, 0}), true, V::Unknown, V::Unknown},
    Row{"V2 V4 hotkey with the value unreadable", hotkey("ctrl+z"), unreadable(), unreadable(), true, V::Unknown, V::Unknown},
    Row{"V4 navigation hotkey moving the caret", hotkey("home"), edit("draft", {5, 0}), edit("draft", {0, 0}), true, V::Confirmed, V::Confirmed},
    Row{"V4 undo changing the value", hotkey("ctrl+z"), edit("draft!", {6, 0}), edit("draft", {5, 0}), true, V::Confirmed, V::Confirmed},
    Row{"D1 save confirmed on an unrelated caret move", hotkey("ctrl+s"), edit("draft", {5, 0}), edit("draft", {0, 0}), true, V::Confirmed, V::Unknown},
    Row{"D1 V9 save seen through the dirty marker", hotkey("ctrl+s"), dirty_edit("draft", true), dirty_edit("draft", false), true, V::Unknown, V::Confirmed},
    Row{"V5 plain text arriving", type("abc"), edit("", {0, 0}), edit("abc", {3, 0}), true, V::Confirmed, V::Confirmed},
    Row{"V5 plain text into a readable value that did not change", type("abc"), edit("xyz", {3, 0}), edit("xyz", {3, 0}), true, V::Absent, V::Absent},
    Row{"V5 plain text, value changed without the text", type("abc"), edit("xyz", {3, 0}), edit("xy", {2, 0}), true, V::Absent, V::Absent},
    Row{"V2 V5 plain text with the value unreadable after", type("abc"), edit("", {0, 0}), unreadable(), true, V::Unknown, V::Unknown},
    Row{"V2 V5 plain text with the value unreadable before", type("abc"), unreadable(), edit("abc", {3, 0}), true, V::Unknown, V::Unknown},
    Row{"V2 V5 plain text missing after, value unreadable before: the after-read is the counter-evidence", type("abc"), unreadable(), edit("xy", {2, 0}), true, V::Absent, V::Absent},
    Row{"D2 typing the selected text over itself", type("abc"), edit("abc", {0, 3}), edit("abc", {3, 0}), true, V::Absent, V::Confirmed},
    Row{"V6 text with Tab, value unchanged", type("a\tb"), edit("", {0, 0}), edit("", {0, 0}), true, V::Unknown, V::Unknown},
    Row{"V6 text with Enter, first segment arrived", type("hi\n"), edit("", {0, 0}), edit("hi", {2, 0}), true, V::Confirmed, V::Confirmed},
    Row{"V2 V6 text with Tab, value unreadable", type("a\tb"), edit("", {0, 0}), unreadable(), true, V::Unknown, V::Unknown},
    Row{"V2 V6 text with Enter, value unreadable before, segment missing after", type("hi\n"), unreadable(), edit("x", {1, 0}), true, V::Unknown, V::Unknown},
    Row{"V7 toggle unchanged", click(ClickState::Toggle), toggle(false), toggle(false), true, V::Absent, V::Absent},
    Row{"V2 V7 toggle unreadable after", click(ClickState::Toggle), toggle(false), toggle(std::nullopt), true, V::Unknown, V::Unknown},
    Row{"V7 toggle flipped", click(ClickState::Toggle), toggle(false), toggle(true), true, V::Confirmed, V::Confirmed},
    Row{"V7 expander opened", click(ClickState::Expand), expander(false), expander(true), true, V::Confirmed, V::Confirmed},
    Row{"V7 already-selected list item clicked", click(ClickState::Select), item(true), item(true), true, V::Confirmed, V::Confirmed},
    Row{"V7 list item still unselected", click(ClickState::Select), item(false), item(false), true, V::Absent, V::Absent},
    Row{"V8 plain button", unverifiable(), unreadable(), unreadable(), true, V::Unknown, V::Unknown},
    Row{"V8 type without an element ref", ActionFacts{ActionKind::Unverifiable, HotkeyIntent::Other, ClickState::None, "abc"}, unreadable(), unreadable(), true, V::Unknown, V::Unknown},
    Row{"D3 toggle unchanged, read before the state settled", click(ClickState::Toggle), toggle(false), toggle(false), false, V::Absent, V::Unknown},
    Row{"D3 text missing, read before the state settled", type("abc"), edit("", {0, 0}), edit("", {0, 0}), false, V::Absent, V::Unknown},
};

Verdict verdict_of(const RuleSet& rules, const Row& row) {
    return judge(rules, Situation{row.action, row.before, row.after, Timing{row.settled}}).verdict;
}

}  // namespace

BOOST_AUTO_TEST_CASE(V1_V8_published_rule_table) {
    BOOST_TEST(rows.size() >= 21u);
    for (const Row& row : rows) {
        BOOST_TEST_CONTEXT(row.name) { BOOST_TEST(to_string(verdict_of(published_rules(), row)) == to_string(row.published)); }
    }
}

BOOST_AUTO_TEST_CASE(V1_V8_current_rule_table) {
    BOOST_TEST(rows.size() >= 21u);
    for (const Row& row : rows) {
        BOOST_TEST_CONTEXT(row.name) { BOOST_TEST(to_string(verdict_of(current_rules(), row)) == to_string(row.current)); }
    }
}

BOOST_AUTO_TEST_CASE(V2_unreadable_value_is_unknown_never_absent) {
    // Every action kind, with every reading unreadable after: never Absent, in both rule sets.
    const std::array actions{select_all(), hotkey("ctrl+s"), hotkey("ctrl+z"), type("abc"), type("a\tb"),
                             click(ClickState::Toggle), click(ClickState::Expand), click(ClickState::Select), unverifiable()};
    const std::array befores{edit("", {0, 0}), edit("abc", {0, 3}), unreadable(), toggle(true), item(false)};
    for (const RuleSet* rules : all_rule_sets()) {
        for (const auto& action : actions) {
            for (const auto& before : befores) {
                for (bool settled : {true, false}) {
                    const Snapshot after = unreadable();
                    const auto j = judge(*rules, Situation{action, before, after, Timing{settled}});
                    BOOST_TEST_CONTEXT(rules->name << " " << to_string(action.kind) << " " << action.text) {
                        BOOST_TEST(to_string(j.verdict) == "Unknown");
                        BOOST_TEST(!j.checks_not_run.empty());
                    }
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(V2_typing_into_an_unreadable_field_is_not_absent_in_either_rule_set) {
    const auto action = type("hello");
    const Snapshot before = edit("", {0, 0});
    const Snapshot after = unreadable();
    BOOST_TEST(to_string(judge(published_rules(), Situation{action, before, after, Timing{true}}).verdict) == "Unknown");
    BOOST_TEST(to_string(judge(current_rules(), Situation{action, before, after, Timing{true}}).verdict) == "Unknown");
}

BOOST_AUTO_TEST_CASE(V3_select_all_is_judged_on_the_state_after_not_on_a_change) {
    const auto action = select_all();
    const Snapshot same = edit("x\r\n", {0, 1});
    for (const RuleSet* rules : all_rule_sets()) {
        const auto j = judge(*rules, Situation{action, same, same, Timing{true}});
        BOOST_TEST(to_string(j.verdict) == "Confirmed");
        BOOST_TEST(j.rule == "select_all.covers");
    }
}

BOOST_AUTO_TEST_CASE(V3_trailing_newlines_are_not_counted) {
    BOOST_TEST(length_ignoring_trailing_newlines("ab\r\n\r\n") == 2);
    BOOST_TEST(length_ignoring_trailing_newlines("a\r\nb") == 4);
    BOOST_TEST(length_ignoring_trailing_newlines("") == 0);
}

BOOST_AUTO_TEST_CASE(V9_every_action_kind_declares_its_promise) {
    const std::array actions{select_all(), hotkey("ctrl+s"), hotkey("home"), type("x"), type("x\t"),
                             click(ClickState::Toggle), click(ClickState::Select), unverifiable()};
    for (const auto& action : actions) {
        const auto p = published_rules().promise_of(action);
        const auto c = current_rules().promise_of(action);
        BOOST_TEST_CONTEXT(to_string(action.kind)) {
            BOOST_TEST((action.kind == ActionKind::Unverifiable) == (c == Promise::Nothing && p == Promise::Nothing));
        }
    }
    BOOST_TEST(to_string(current_rules().promise_of(hotkey("ctrl+s"))) == to_string(Promise::DirtyCleared));
    BOOST_TEST(to_string(published_rules().promise_of(hotkey("ctrl+s"))) == to_string(Promise::ValueOrSelectionChanged));
}

BOOST_AUTO_TEST_CASE(V9_every_rule_row_is_reachable_and_names_a_spec_id) {
    for (const RuleSet* rules : all_rule_sets()) {
        for (int k = 0; k < action_kind_count; ++k) {
            bool has_row = false;
            for (const Rule& r : rules->rules) has_row = has_row || static_cast<int>(r.kind) == k;
            BOOST_TEST_CONTEXT(rules->name << " kind " << k) { BOOST_TEST(has_row); }
        }
        for (const Rule& r : rules->rules) {
            BOOST_TEST_CONTEXT(rules->name << " " << r.id) {
                BOOST_TEST(!r.spec.empty());
                BOOST_TEST(!r.condition.empty());
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(V1_evidence_records_checks_that_ran_and_could_not) {
    const auto action = type("abc");
    const Snapshot before = unreadable();
    const Snapshot after = edit("abc", {3, 0});
    const auto j = judge(current_rules(), Situation{action, before, after, Timing{true}});
    BOOST_TEST(to_string(j.verdict) == "Unknown");
    BOOST_REQUIRE(!j.checks_not_run.empty());
    BOOST_TEST(j.checks_not_run.front().why == "value unreadable before");
    BOOST_TEST(j.checks_ran.size() >= 2u);
    BOOST_TEST(j.rule == "type.text_present");
}

BOOST_AUTO_TEST_CASE(V4_hotkey_intents_are_classified) {
    BOOST_TEST(to_string(hotkey_intent("Ctrl+S")) == "save");
    BOOST_TEST(to_string(hotkey_intent("ctrl+z")) == "edit");
    BOOST_TEST(to_string(hotkey_intent("end")) == "navigate");
    BOOST_TEST(to_string(hotkey_intent("tab")) == "focus");
    BOOST_TEST(to_string(hotkey_intent("f5")) == "other");
    BOOST_TEST(is_select_all_chord("CTRL+A"));
    BOOST_TEST(!is_select_all_chord("ctrl+shift+a"));
}

BOOST_AUTO_TEST_CASE(V6_navigation_keys_are_detected) {
    BOOST_TEST(has_navigation_keys("a\tb"));
    BOOST_TEST(has_navigation_keys("a\r\n"));
    BOOST_TEST(!has_navigation_keys("plain text"));
}

BOOST_AUTO_TEST_CASE(V1_verdict_of_agrees_with_judge_on_every_row_situation) {
    for (const RuleSet* rules : all_rule_sets()) {
        for (const Row& row : rows) {
            for (bool settled : {true, false}) {
                const Situation s{row.action, row.before, row.after, Timing{settled}};
                BOOST_TEST_CONTEXT(rules->name << " " << row.name) {
                    BOOST_TEST(to_string(verdict_of(*rules, s)) == to_string(judge(*rules, s).verdict));
                }
            }
        }
    }
}
