// fuzz_verdict: bytes -> (action, before snapshot, after snapshot, settled) -> judge() under every
// rule set. Invariants (SPEC V-1..V-9, D-3):
//   - judge is deterministic, and the deciding row exists in the rule table, for the action's
//     kind, with the verdict and SPEC IDs it reports;
//   - never Absent when a reading the Absent rests on is unreadable (V-2);
//   - Confirmed only on a readable reading that shows the promise (V-1);
//   - select-all is judged on the state after (V-3): same after, any before -> same verdict, and
//     with both readings readable, covered -> Confirmed, not covered -> Absent (current: Unknown
//     while not settled);
//   - `current` never says Absent when the state had not settled (D-3);
//   - an unverifiable action is Unknown and not verifiable (V-8).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/fuzzed_data_provider.h"
#include "checks/verdict_oracle.h"
#include "harness/judge_run.h"
#include "model/verdict.h"

namespace {

using namespace deskcheck;
using fuzz::FuzzedDataProvider;

constexpr std::string_view target = "fuzz_verdict";
constexpr std::size_t text_length_max = 12;
constexpr std::array<std::string_view, 8> plain_texts{"abc", "x", "hello", "", " ", "ab", "bc", "abcabc"};
constexpr std::array<std::string_view, 6> navigation_texts{"abc\t", "a\tb", "x\n", "line\r\n", "\t", "ab\x1b"};
constexpr std::array<std::string_view, 9> values{"", "abc", "hello", "abc\r\n", "xabcx", "a\tb", "\r\n", "ab", "x"};
// Free text draws map bytes into a small alphabet, so that values and typed texts overlap often.
constexpr std::string_view alphabet = "abcx \t\r\n";

struct Case {
    ActionFacts action;
    Snapshot before;
    Snapshot after;
    Snapshot other_before;  // for V-3: the same after with another before
    bool settled = false;
};

std::string free_text(FuzzedDataProvider& fdp) {
    std::string raw = fdp.ConsumeRandomLengthString(text_length_max);
    for (char& c : raw) c = alphabet[static_cast<unsigned char>(c) % alphabet.size()];
    return raw;
}

ActionFacts draw_action(FuzzedDataProvider& fdp) {
    ActionFacts a;
    a.kind = static_cast<ActionKind>(fdp.ConsumeIntegralInRange<int>(0, action_kind_count - 1));
    if (a.kind == ActionKind::Hotkey) a.intent = static_cast<HotkeyIntent>(fdp.ConsumeIntegralInRange(0, 4));
    if (a.kind == ActionKind::ClickStateful) a.click_state = static_cast<ClickState>(fdp.ConsumeIntegralInRange(1, 3));
    if (a.kind == ActionKind::TypeText) {
        a.text = fdp.ConsumeBool() ? free_text(fdp) : std::string(fdp.PickValueInArray(plain_texts));
        if (has_navigation_keys(a.text)) a.kind = ActionKind::TypeWithNavigation;  // as the tool classifies it
    }
    if (a.kind == ActionKind::TypeWithNavigation && !has_navigation_keys(a.text)) {
        a.text = std::string(fdp.PickValueInArray(navigation_texts));
    }
    return a;
}

std::optional<bool> draw_flag(FuzzedDataProvider& fdp) {
    const int roll = fdp.ConsumeIntegralInRange(0, 2);
    if (roll == 0) return std::nullopt;
    return roll == 2;
}

std::optional<Selection> draw_selection(FuzzedDataProvider& fdp, const std::optional<std::string>& value) {
    if (fdp.ConsumeIntegralInRange(0, 4) == 0) return std::nullopt;
    const auto length = static_cast<std::int64_t>(value ? value->size() : 0);
    switch (fdp.ConsumeIntegralInRange(0, 3)) {
        case 0: return Selection{0, length};
        case 1: return Selection{length, 0};
        default: break;
    }
    const std::int64_t start = fdp.ConsumeIntegralInRange<std::int64_t>(-1, length + 1);
    return Selection{start, fdp.ConsumeIntegralInRange<std::int64_t>(-1, length + 1)};
}

Snapshot draw_snapshot(FuzzedDataProvider& fdp) {
    Snapshot s;
    const int roll = fdp.ConsumeIntegralInRange(0, 5);
    if (roll == 1) s.value = free_text(fdp);
    if (roll >= 2) s.value = std::string(fdp.PickValueInArray(values));
    s.selection = draw_selection(fdp, s.value);
    s.toggled = draw_flag(fdp);
    s.expanded = draw_flag(fdp);
    s.selected = draw_flag(fdp);
    s.dirty = draw_flag(fdp);
    return s;
}

// The value typing `text` into `before` would give (the text replaces the selection), if defined.
std::optional<std::string> spliced(const Snapshot& before, const std::string& text) {
    if (!before.value || !before.selection) return std::nullopt;
    const auto size = static_cast<std::int64_t>(before.value->size());
    const Selection sel = *before.selection;
    if (sel.start < 0 || sel.length < 0 || sel.start > size || sel.length > size - sel.start) return std::nullopt;
    return before.value->substr(0, static_cast<std::size_t>(sel.start)) + text +
           before.value->substr(static_cast<std::size_t>(sel.start + sel.length));
}

// The after snapshot: often derived from the before one, so that "unchanged", "typed" and
// "selected all" are common, then some readings made unreadable.
Snapshot draw_after(FuzzedDataProvider& fdp, const Case& c) {
    Snapshot after = c.before;
    switch (fdp.ConsumeIntegralInRange(0, 4)) {
        case 0: break;
        case 1: after = draw_snapshot(fdp); break;
        case 2: after.value = spliced(c.before, c.action.text); break;
        case 3:
            if (after.value) after.selection = Selection{0, static_cast<std::int64_t>(after.value->size())};
            break;
        default:
            after.toggled = after.toggled ? std::optional<bool>(!*after.toggled) : std::nullopt;
            after.expanded = after.expanded ? std::optional<bool>(!*after.expanded) : std::nullopt;
            after.selected = true;
            after.dirty = false;
    }
    if (fdp.ConsumeIntegralInRange(0, 5) == 0) after.value.reset();
    if (fdp.ConsumeIntegralInRange(0, 5) == 0) after.selection.reset();
    return after;
}

Case draw_case(FuzzedDataProvider& fdp) {
    Case c;
    c.action = draw_action(fdp);
    c.before = draw_snapshot(fdp);
    c.after = draw_after(fdp, c);
    c.other_before = draw_snapshot(fdp);
    c.settled = fdp.ConsumeBool();
    return c;
}

props::JudgedSituation situation(const Case& c, const Snapshot& before) { return {c.action, before, c.after, c.settled}; }

Judgement judge_case(const RuleSet& rules, const Case& c, const Snapshot& before) {
    return judge(rules, Situation{c.action, before, c.after, Timing{c.settled}});
}

bool same_judgement(const Judgement& a, const Judgement& b) {
    if (a.verdict != b.verdict || a.promise != b.promise || a.rule != b.rule || a.spec != b.spec) return false;
    if (a.verifiable != b.verifiable || a.checks_ran.size() != b.checks_ran.size()) return false;
    if (a.checks_not_run.size() != b.checks_not_run.size()) return false;
    for (std::size_t i = 0; i < a.checks_ran.size(); ++i) {
        if (a.checks_ran[i].name != b.checks_ran[i].name || a.checks_ran[i].passed != b.checks_ran[i].passed) return false;
    }
    for (std::size_t i = 0; i < a.checks_not_run.size(); ++i) {
        if (a.checks_not_run[i].name != b.checks_not_run[i].name || a.checks_not_run[i].why != b.checks_not_run[i].why) return false;
    }
    return true;
}

// judge() is asked here; whether its answer is one the SPEC allows is the checker's to say
// (checks/verdict_oracle.h), from the situation and the rule set's stated promises alone.
void check_rule_set(const RuleSet& rules, const Case& c) {
    const props::JudgedSituation s = situation(c, c.before);
    const Judgement j = judge_case(rules, c, c.before);
    if (!same_judgement(j, judge_case(rules, c, c.before))) {
        props::invariant_broken(target, "judge is deterministic", props::describe_judged(s, rules.name, j));
    }
    if (const auto lie = props::verdict_judgement_lie(props::stated(rules), s, j)) {
        props::invariant_broken(target, *lie, props::describe_judged(s, rules.name, j));
    }
    if (c.action.kind == ActionKind::SelectAll) {
        const Judgement other = judge_case(rules, c, c.other_before);
        if (const auto lie = props::select_all_before_mattered(s, j, other)) {
            props::invariant_broken(target, *lie,
                                    props::describe_judged(s, rules.name, j) + "\n  with before " + props::describe_snapshot(c.other_before));
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return -1;
    FuzzedDataProvider fdp(data, size);
    const Case c = draw_case(fdp);
    for (const RuleSet* rules : all_rule_sets()) check_rule_set(*rules, c);
    return 0;
}
