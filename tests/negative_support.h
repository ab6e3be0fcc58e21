// Support for the negative proofs (STYLE 13: the testbed tests itself) and the debt tests: run a
// property under RapidCheck with a fixed seed, outside Boost's assertions, and hand back whether it
// failed and its shrunk counterexample as a Scenario (decoded from the JSON RapidCheck printed, so
// the test also proves that what RapidCheck shows is a replayable scenario file).
//
// Also: naive implementations the tool cannot be switched into by a Mutation — a verifier that
// says "changed = success, unchanged = failure", a batch that does not stop at the first failure,
// and a rule set with hidden state (the determinism canary).
#pragma once

#include <rapidcheck.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "model/tool.h"
#include "model/verdict.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/generators_rc.h"
#include "harness/run.h"
#include "harness/shrink.h"
#include "sim/scenario_json.h"
#include "sim/sim.h"

namespace deskcheck::props {
// Boost.Test prints a CheckStatus in failed assertions by its name (found by ADL).
inline std::ostream& boost_test_print_type(std::ostream& os, CheckStatus s) { return os << to_string(s); }
}  // namespace deskcheck::props

namespace deskcheck::negative {

// ---- running a property with a fixed seed --------------------------------------------------------

class SilentListener final : public rc::detail::TestListener {
public:
    void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
    void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
    void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

struct SearchResult {
    bool failed = false;    // RapidCheck found a counterexample
    bool gave_up = false;   // too many discards (STYLE 7)
    int cases_passed = 0;   // before the failure (or in all)
    std::string description;                      // the failure's message (the violation)
    std::optional<sim::Scenario> counterexample;  // shrunk, decoded from the printed JSON
    std::string json;                             // as RapidCheck printed it
};

// Explicit parameters (never RapidCheck's defaults silently, STYLE anti-patterns): a fixed seed so
// the search and its shrink are the same on every run, and no RC_PARAMS influence.
inline rc::detail::TestParams fixed_params(std::uint64_t seed, int max_success) {
    rc::detail::TestParams p;
    p.seed = seed;
    p.maxSuccess = max_success;
    p.maxSize = 100;
    p.maxDiscardRatio = 10;
    p.disableShrinking = false;
    return p;
}

template <class Property>
SearchResult search(Property&& property, std::uint64_t seed, int max_success) {
    SilentListener listener;
    rc::detail::TestMetadata metadata;
    metadata.id = "negative";
    metadata.description = "negative";
    const std::unordered_map<std::string, rc::detail::Reproduce> no_reproduce;
    const rc::detail::TestResult result = rc::detail::checkProperty(
        rc::detail::toProperty(std::forward<Property>(property)), metadata, fixed_params(seed, max_success), listener,
        no_reproduce);
    SearchResult out;
    rc::detail::FailureResult failure;
    rc::detail::GaveUpResult gave_up;
    rc::detail::SuccessResult success;
    if (result.match(failure)) {
        out.failed = true;
        out.cases_passed = failure.numSuccess;
        out.description = failure.description;
        for (const auto& [type, value] : failure.counterExample) {
            if (type.find("Scenario") == std::string::npos) continue;
            out.json = value;
            const auto decoded = sim::decode_scenario(value);
            if (const auto* s = std::get_if<sim::Scenario>(&decoded)) out.counterexample = *s;
        }
    } else if (result.match(gave_up)) {
        out.gave_up = true;
        out.cases_passed = gave_up.numSuccess;
        out.description = gave_up.description;
    } else if (result.match(success)) {
        out.cases_passed = success.numSuccess;
    }
    return out;
}

// Does `check` report a violation on `s` under `options` (its explanation, or nullopt)?
inline std::optional<std::string> violation_of(const std::string& check, const sim::Scenario& s,
                                               const props::RunOptions& options) {
    const props::NamedCheck* named = props::find_check(check);
    if (named == nullptr) return "no check named " + check;
    const props::RunResult run = props::run_scenario(s, options);
    const props::CheckResult r = props::run_check(*named, s, run, options);
    if (r.status != props::CheckStatus::Violated) return std::nullopt;
    return r.violation->property + ": " + r.violation->explanation;
}

// The usual negative proof: `check` over generated scenarios under `options` (a mutation, a naive
// rule set) must fail. Differential: a case counts only when the same scenario does NOT violate
// the check under `baseline` (the tool without the bug), so the search — and RapidCheck's shrink —
// keep a counterexample of the bug, not of anything else the desktop can do. `needle`, when
// given, must appear in the violation (e.g. "D-1"), and the shrink keeps it.
inline SearchResult find_violation(std::string check, props::RunOptions options, props::rcgen::GenOptions gen,
                                   std::uint64_t seed, int max_success,
                                   std::optional<props::RunOptions> baseline = std::nullopt, std::string needle = "") {
    // Still a counterexample of the bug: violated under `options` (naming `needle`), not under `baseline`.
    const auto still = [check, options, baseline, needle](const sim::Scenario& s) {
        const auto v = violation_of(check, s, options);
        if (!v) return false;
        if (!needle.empty() && v->find(needle) == std::string::npos) return false;
        return !(baseline && violation_of(check, s, *baseline));
    };
    auto first = std::make_shared<std::optional<sim::Scenario>>();  // the first failing case, unshrunk
    SearchResult out = search(
        [check, options, gen, still, first]() {
            const sim::Scenario s = *props::rcgen::scenarios(gen);
            if (!still(s)) return;
            if (!*first) *first = s;
            RC_FAIL(*violation_of(check, s, options));
        },
        seed, max_success);
    // RapidCheck shrank the choice vector; the scenario shrinker goes on from its result (drops
    // what no choice could: a control between two others, a step in the middle). It also shrinks
    // the first failing case directly: the smaller of the two routes is the counterexample.
    if (out.counterexample) {
        sim::Scenario best = props::shrink_scenario(*out.counterexample, still).scenario;
        if (*first) {
            const sim::Scenario direct = props::shrink_scenario(**first, still).scenario;
            const auto total = [](const sim::Scenario& x) {  // controls last, as in the campaign
                const props::ScenarioSize z = props::size_of(x);
                return (z.windows + z.steps + z.events) * 1000 + z.controls;
            };
            if (total(direct) < total(best)) best = direct;
        }
        out.counterexample = best;
        out.json = sim::encode_scenario_text(best);
    }
    return out;
}

// ---- sizes for the bounds the proofs state: props::size_of (harness/shrink.h) ---------------

using Size = props::ScenarioSize;
using props::size_of;
using props::to_string;

// ---- naive verifier: changed = success, unchanged = failure --------------------------------------

namespace naive_rules {
inline bool anything_changed(const Situation& s) {
    return s.before.value != s.after.value || s.before.selection != s.after.selection ||
           s.before.toggled != s.after.toggled || s.before.expanded != s.after.expanded ||
           s.before.selected != s.after.selected || s.before.dirty != s.after.dirty;
}
inline bool always(const Situation&) { return true; }
// V-2 is not what this verifier gets wrong: an unreadable reading gives Unknown, as it should.
inline bool unreadable(const Situation& s) {
    if (s.action.kind == ActionKind::ClickStateful) {
        const auto state = [&](const Snapshot& x) {
            return s.action.click_state == ClickState::Toggle   ? x.toggled
                   : s.action.click_state == ClickState::Expand ? x.expanded
                                                                : x.selected;
        };
        return !state(s.before).has_value() || !state(s.after).has_value();
    }
    return !s.before.value.has_value() || !s.after.value.has_value();
}
inline Promise promise(const ActionFacts& a) {
    return a.kind == ActionKind::Unverifiable ? Promise::Nothing : Promise::ValueOrSelectionChanged;
}
using K = ActionKind;
using V = Verdict;
inline constexpr std::array rows{
    Rule{K::SelectAll, "naive.unreadable", "a reading unreadable", V::Unknown, "V-2", unreadable},
    Rule{K::SelectAll, "naive.changed", "something changed", V::Confirmed, "-", anything_changed},
    Rule{K::SelectAll, "naive.unchanged", "nothing changed", V::Absent, "-", always},
    Rule{K::Hotkey, "naive.unreadable", "a reading unreadable", V::Unknown, "V-2", unreadable},
    Rule{K::Hotkey, "naive.changed", "something changed", V::Confirmed, "-", anything_changed},
    Rule{K::Hotkey, "naive.unchanged", "nothing changed", V::Absent, "-", always},
    Rule{K::TypeText, "naive.unreadable", "a reading unreadable", V::Unknown, "V-2", unreadable},
    Rule{K::TypeText, "naive.changed", "something changed", V::Confirmed, "-", anything_changed},
    Rule{K::TypeText, "naive.unchanged", "nothing changed", V::Absent, "-", always},
    Rule{K::TypeWithNavigation, "naive.unreadable", "a reading unreadable", V::Unknown, "V-2", unreadable},
    Rule{K::TypeWithNavigation, "naive.changed", "something changed", V::Confirmed, "-", anything_changed},
    Rule{K::TypeWithNavigation, "naive.unchanged", "nothing changed", V::Absent, "-", always},
    Rule{K::ClickStateful, "naive.unreadable", "a reading unreadable", V::Unknown, "V-2", unreadable},
    Rule{K::ClickStateful, "naive.changed", "something changed", V::Confirmed, "-", anything_changed},
    Rule{K::ClickStateful, "naive.unchanged", "nothing changed", V::Absent, "-", always},
    Rule{K::Unverifiable, "unverifiable", "nothing to read", V::Unknown, "V-8", always},
};
}  // namespace naive_rules

// A verifier that says "changed = success, unchanged = failure" for every action with a reading;
// it says Unknown on an unreadable reading and waits for the state to settle (settles = true), so
// what the proof shows is its change-based logic, not V-2 or timing.
inline const RuleSet& changed_means_success_rules() {
    static const RuleSet rules{"naive-changed", "changed = success, unchanged = failure", true, naive_rules::promise,
                               naive_rules::rows};
    return rules;
}

// ---- the determinism canary: a rule set with hidden state ----------------------------------------

// The one deliberate global of the test suite: hidden state is exactly the nondeterminism S-1
// forbids (like a clock-seeded PRNG). The first judgement after reset() is Confirmed, every later
// one Unknown, so two runs of one scenario differ as soon as anything is judged.
namespace canary {
inline int& judgements() {
    static int count = 0;
    return count;
}
inline void reset() { judgements() = 0; }
inline bool first_judgement_ever(const Situation&) { return judgements()++ == 0; }
using K = ActionKind;
using V = Verdict;
inline constexpr std::array rows{
    Rule{K::SelectAll, "canary.first", "first judgement since reset", V::Confirmed, "-", first_judgement_ever},
    Rule{K::Hotkey, "canary.first", "first judgement since reset", V::Confirmed, "-", first_judgement_ever},
    Rule{K::TypeText, "canary.first", "first judgement since reset", V::Confirmed, "-", first_judgement_ever},
    Rule{K::TypeWithNavigation, "canary.first", "first judgement since reset", V::Confirmed, "-", first_judgement_ever},
    Rule{K::ClickStateful, "canary.first", "first judgement since reset", V::Confirmed, "-", first_judgement_ever},
    Rule{K::Unverifiable, "canary.first", "first judgement since reset", V::Confirmed, "-", first_judgement_ever},
};
inline Promise promise(const ActionFacts&) { return Promise::Nothing; }
inline const RuleSet& rules() {
    static const RuleSet set{"canary-hidden-state", "hidden state: the first judgement differs", false, promise, rows};
    return set;
}
}  // namespace canary

// ---- naive batch: does not stop at the first failure ----------------------------------------------

// Runs every step of the scenario as a single action through the real Tool and goes on after a
// failure, reporting all steps as one batch that never stopped. Not the runner of run.h (which
// cannot be told to misbehave): the refs come from one snapshot per window, mapped back to the
// scenario's controls the way the runner does; launch steps are skipped. Enough for
// batch_stops_at_first_failure, which reads steps, stopped_at, timings and the attempts.
inline props::RunResult run_without_stopping(const sim::Scenario& scenario, const RuleSet& rules) {
    props::RunResult out;
    out.sim = std::make_unique<sim::Sim>(scenario);
    out.ledger = &out.sim->truth();
    sim::Sim& desk = *out.sim;
    out.rules = std::string(rules.name);
    out.batch_mode = true;
    out.foreground_at_start = desk.foreground();
    Tool tool(desk, rules);
    const std::vector<Request> requests = props::agent_requests(tool, desk, scenario);
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
        if (scenario.steps[i].kind == sim::StepKind::Launch) continue;
        const Request& r = requests[i];
        StepReport rep = tool.act_step(r);
        rep.index = static_cast<std::uint32_t>(i);
        // It knows where it failed and says so, but goes on (the bug B-1 forbids).
        if (!rep.result.ok && !out.stopped_at) out.stopped_at = static_cast<std::uint32_t>(i);
        out.steps.push_back(std::move(rep));
    }
    out.ended_ms = desk.now_ms();
    desk.run_until_quiet(props::quiet_limit_ms_default);
    return out;
}

}  // namespace deskcheck::negative
