// The verdict rules' oracle (SPEC V-1..V-9, D-3): what any judgement of one situation must satisfy,
// decided from the situation and the rule set's stated promises as data — never by calling the
// rules' own functions (their predicates, their promise of an action) nor by the rule set's name.
// fuzz_verdict draws the situations and asks judge() (harness side); this file says whether the
// answer is one the SPEC allows.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "model/verdict.h"

namespace deskcheck::props {

// A rule set as the checks read it: its stated promises and its table, as data.
struct StatedRules {
    // D-3: it waits until the state settled before the final read, and never says Absent before.
    bool settles = false;
    // V-4, V-9: a hotkey promises the reading of its intent (else the value or the selection).
    bool hotkeys_by_intent = false;
    std::span<const Rule> rows;  // read for each row's kind, verdict and SPEC IDs; never evaluated
};
StatedRules stated(const RuleSet& rules);

// One situation the rules judged.
struct JudgedSituation {
    ActionFacts action;
    Snapshot before;
    Snapshot after;
    bool settled = false;
};

// V-9, from the SPEC: what the action promises under those stated rules.
Promise promise_stated(const ActionFacts& action, bool hotkeys_by_intent);

// V-3: the text select-all must cover, ignoring the value's trailing newlines.
std::int64_t text_length_to_cover(std::string_view value);

// The first invariant `j` breaks (its name, then why), or nullopt when it keeps them all:
// the deciding row exists and is of the action's kind with the verdict and SPEC IDs reported, the
// promise is the stated one (table); Absent never before settling when the rules settle (D-3) and
// never on an unreadable reading it rests on (V-2); Confirmed only on a readable reading that
// shows the promise (V-5, V-7); select-all, with both readings readable, Confirmed exactly when
// the selection starts at 0 and covers the text (V-3); an unverifiable action is Unknown and not
// verifiable (V-8).
std::optional<std::string> verdict_judgement_lie(const StatedRules& rules, const JudgedSituation& s, const Judgement& j);

// V-3: select-all is judged on the state after: the same after with `other_before` must decide
// the same (`other`, the judgement of that situation).
std::optional<std::string> select_all_before_mattered(const JudgedSituation& s, const Judgement& j, const Judgement& other);

// The situation and the judgement as a person reads them (the checker's printing).
std::string describe_judged(const JudgedSituation& s, std::string_view rules_name, const Judgement& j);
std::string describe_snapshot(const Snapshot& s);

}  // namespace deskcheck::props
