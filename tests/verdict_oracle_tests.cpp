// The verdict rules' oracle (checks/verdict_oracle.h), which fuzz_verdict asks of every judgement:
// it holds for the shipped rules on a grid of situations, and it catches deliberately wrong
// judgements and a rule set whose stated promise is not the one it judges by (negative proofs).
#include <boost/test/unit_test.hpp>

#include <array>
#include <string>
#include <vector>

#include "checks/verdict_oracle.h"
#include "model/verdict.h"

using namespace deskcheck;
using namespace deskcheck::props;

namespace {

Snapshot snap(std::optional<std::string> value, std::optional<Selection> selection, std::optional<bool> dirty = std::nullopt) {
    Snapshot s;
    s.value = std::move(value);
    s.selection = selection;
    s.dirty = dirty;
    return s;
}

Judgement judged(const RuleSet& rules, const JudgedSituation& s) {
    return judge(rules, Situation{s.action, s.before, s.after, Timing{s.settled}});
}

std::vector<JudgedSituation> grid() {
    std::vector<JudgedSituation> out;
    const std::array<std::optional<std::string>, 4> values{std::nullopt, std::string(""), std::string("abc"), std::string("abc\r\n")};
    const std::array<std::optional<Selection>, 3> selections{std::nullopt, Selection{0, 0}, Selection{0, 3}};
    const std::array<ActionFacts, 6> actions{
        ActionFacts{ActionKind::TypeText, HotkeyIntent::Other, ClickState::None, "abc"},
        ActionFacts{ActionKind::TypeWithNavigation, HotkeyIntent::Other, ClickState::None, "a\tb"},
        ActionFacts{ActionKind::SelectAll, HotkeyIntent::Edit, ClickState::None, ""},
        ActionFacts{ActionKind::Hotkey, HotkeyIntent::Save, ClickState::None, ""},
        ActionFacts{ActionKind::ClickStateful, HotkeyIntent::Other, ClickState::Toggle, ""},
        ActionFacts{ActionKind::Unverifiable, HotkeyIntent::Other, ClickState::None, ""}};
    for (const auto& a : actions)
        for (const auto& vb : values)
            for (const auto& va : values)
                for (const auto& sel : selections)
                    for (const bool settled : {false, true}) {
                        Snapshot before = snap(vb, Selection{0, 0}, true);
                        before.toggled = false;
                        Snapshot after = snap(va, sel, false);
                        after.toggled = true;
                        out.push_back(JudgedSituation{a, before, after, settled});
                    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(V1_V9_the_shipped_rules_keep_the_oracle_on_a_grid_of_situations) {
    std::size_t judged_count = 0;
    for (const RuleSet* rules : all_rule_sets()) {
        for (const JudgedSituation& s : grid()) {
            const Judgement j = judged(*rules, s);
            const auto lie = verdict_judgement_lie(stated(*rules), s, j);
            BOOST_TEST(!lie.has_value(), describe_judged(s, rules->name, j) << "\n  " << lie.value_or(""));
            ++judged_count;
        }
    }
    BOOST_TEST(judged_count > 1000u);
}

BOOST_AUTO_TEST_CASE(V2_an_absent_on_an_unreadable_value_is_caught) {
    const JudgedSituation s{ActionFacts{ActionKind::TypeText, HotkeyIntent::Other, ClickState::None, "abc"},
                            snap(std::string(""), Selection{0, 0}), snap(std::nullopt, std::nullopt), true};
    Judgement j = judged(published_rules(), s);
    BOOST_TEST(!verdict_judgement_lie(stated(published_rules()), s, j).has_value());
    j.verdict = Verdict::Absent;  // a deliberately wrong judge: unreadable taken for "not there"
    for (const Rule& r : published_rules().rules) {
        if (r.kind == ActionKind::TypeText && r.verdict == Verdict::Absent) {
            j.rule = r.id;
            j.spec = r.spec;
            break;
        }
    }
    const auto lie = verdict_judgement_lie(stated(published_rules()), s, j);
    BOOST_TEST_REQUIRE(lie.has_value());
    BOOST_TEST(lie->find("V-2") != std::string::npos, *lie);
}

BOOST_AUTO_TEST_CASE(D3_an_absent_before_settling_is_caught_where_the_rules_state_they_settle) {
    const JudgedSituation s{ActionFacts{ActionKind::TypeText, HotkeyIntent::Other, ClickState::None, "abc"},
                            snap(std::string(""), Selection{0, 0}), snap(std::string(""), Selection{0, 0}), false};
    const Judgement j = judged(published_rules(), s);  // published says Absent at once (D-3, its debt)
    BOOST_TEST_REQUIRE((j.verdict == Verdict::Absent));
    BOOST_TEST(!verdict_judgement_lie(stated(published_rules()), s, j).has_value());
    StatedRules settles = stated(published_rules());
    settles.settles = true;  // the same answer from a rule set that states it waits to settle
    const auto lie = verdict_judgement_lie(settles, s, j);
    BOOST_TEST_REQUIRE(lie.has_value());
    BOOST_TEST(lie->find("D-3") != std::string::npos, *lie);
}

BOOST_AUTO_TEST_CASE(V9_a_promise_other_than_the_stated_one_is_caught) {
    const JudgedSituation s{ActionFacts{ActionKind::Hotkey, HotkeyIntent::Save, ClickState::None, ""},
                            snap(std::string("a"), Selection{0, 0}, true),
                            snap(std::string("a"), Selection{0, 0}, false), true};
    const Judgement j = judged(current_rules(), s);
    BOOST_TEST(!verdict_judgement_lie(stated(current_rules()), s, j).has_value());
    StatedRules says_published = stated(current_rules());
    says_published.hotkeys_by_intent = false;  // the rule set judges by intent but states it does not
    const auto lie = verdict_judgement_lie(says_published, s, j);
    BOOST_TEST_REQUIRE(lie.has_value());
    BOOST_TEST(lie->find("V-9") != std::string::npos, *lie);
}

BOOST_AUTO_TEST_CASE(V3_select_all_that_minds_the_before_is_caught) {
    const JudgedSituation s{ActionFacts{ActionKind::SelectAll, HotkeyIntent::Edit, ClickState::None, ""},
                            snap(std::string("abc"), Selection{0, 0}), snap(std::string("abc"), Selection{0, 3}), true};
    const Judgement j = judged(current_rules(), s);
    BOOST_TEST((j.verdict == Verdict::Confirmed));
    BOOST_TEST(!select_all_before_mattered(s, j, j).has_value());
    Judgement other = j;
    other.verdict = Verdict::Unknown;  // a judge that decided by the state before
    BOOST_TEST(select_all_before_mattered(s, j, other).has_value());
    Judgement short_cover = j;
    const JudgedSituation uncovered{s.action, s.before, snap(std::string("abc\r\n"), Selection{0, 2}), true};
    BOOST_TEST(verdict_judgement_lie(stated(current_rules()), uncovered, short_cover).has_value());
}
