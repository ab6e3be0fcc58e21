#include "harness/observation_checks.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "harness/campaign.h"

namespace deskcheck::props {
namespace {

using O = ObservationOutcome;

// ---- seed 004, written again here ---------------------------------------------------------------

// The snapshot's fields by the names a contract uses (the seed's camelCase).
const std::optional<std::string>* seed_field(const ObservationSnapshot& s, std::string_view name) {
    if (name == "observedAt") return &s.observed_at;
    if (name == "source") return &s.source;
    if (name == "correlationId") return &s.correlation_id;
    if (name == "target") return &s.target;
    if (name == "state") return &s.state;
    if (name == "evidenceStatus") return &s.evidence_status;
    if (name == "freshness") return &s.freshness;
    if (name == "fingerprint") return &s.fingerprint;
    if (name == "effectStatus") return &s.effect_status;
    return nullptr;  // a name no snapshot carries
}

constexpr std::array<std::string_view, 9> seed_field_names{"observedAt", "source",    "correlationId",
                                                           "target",     "state",     "evidenceStatus",
                                                           "freshness",  "fingerprint", "effectStatus"};

bool eq(const std::optional<std::string>& a, std::string_view b) { return a.has_value() && *a == b; }

std::vector<std::string> not_carried(const ObservationCase& c) {
    std::vector<std::string> out;
    for (const auto& f : c.contract.required_fields) {
        const auto* field = seed_field(c.snapshot, f);
        if (field == nullptr || !field->has_value() || (*field)->empty()) out.push_back(f);  // seed 004: "" is missing
    }
    return out;
}

// Condition 7: the previous snapshot of the same correlation and target has the same fingerprint.
bool seed_not_advanced(const ObservationCase& c) {
    const ObservationSnapshot& s = c.snapshot;
    return c.previous && c.previous->correlation_id == s.correlation_id && c.previous->target == s.target &&
           s.fingerprint && c.previous->fingerprint == s.fingerprint;
}

bool seed_known_state(const ObservationCase& c) {
    return std::any_of(c.contract.known_states.begin(), c.contract.known_states.end(),
                       [&](const std::string& k) { return eq(c.snapshot.state, k); });
}

// The seed's order table: outcome and reason per order.
constexpr std::array<SeedExpectation, 10> seed_rows{{
    {1, O::NeedsEvidence, "snapshot_fields_missing"},
    {2, O::Blocked, "correlation_mismatch"},
    {3, O::Blocked, "target_mismatch"},
    {4, O::NeedsEvidence, "snapshot_not_confirmed"},
    {5, O::NeedsEvidence, "snapshot_not_fresh"},
    {6, O::Blocked, "effect_unknown_requires_stop_or_escalation"},
    {7, O::NeedsEvidence, "snapshot_not_advanced"},
    {8, O::Blocked, "unrecognized_observed_state"},
    {9, O::NotObserved, "expected_state_not_observed"},
    {10, O::Observed, "expected_state_observed"},
}};

std::uint8_t seed_order(const ObservationCase& c) {
    const ObservationSnapshot& s = c.snapshot;
    if (!not_carried(c).empty()) return 1;
    if (!eq(s.correlation_id, c.action.correlation_id)) return 2;
    if (!eq(s.target, c.action.target)) return 3;
    if (!eq(s.evidence_status, "observed")) return 4;
    if (!eq(s.freshness, "fresh")) return 5;
    if (eq(s.effect_status, "unknown")) return 6;
    if (seed_not_advanced(c)) return 7;
    if (!seed_known_state(c)) return 8;
    if (!eq(s.state, c.action.expected_state)) return 9;
    return 10;
}

ObservationJudgement judge(const ObservationCase& c, ObservationTable table) { return assess_observation(table, c.input()); }

std::optional<ObservationViolation> violated(std::string_view property, std::string explanation) {
    return ObservationViolation{std::string(property), std::move(explanation)};
}

std::string outcome_line(const ObservationJudgement& j) {
    return std::string(to_string(j.outcome)) + " / " + j.reason + " (rule " + std::to_string(j.order) + ")";
}

// ---- generation ---------------------------------------------------------------------------------

constexpr std::array<std::string_view, 4> correlations{"c1", "c2", "c3", "ui-click-1"};
constexpr std::array<std::string_view, 3> targets{"t1", "t2", "submit-status"};
constexpr std::array<std::string_view, 6> states{"submitted", "pending", "error", "redirected", "Submitted", "posted"};
constexpr std::array<std::string_view, 4> evidence{"observed", "inferred", "summarised", "Observed"};
constexpr std::array<std::string_view, 4> freshness{"fresh", "stale", "unknown", "fresh "};
constexpr std::array<std::string_view, 4> effects{"unknown", "known", "done", "Unknown"};
constexpr std::array<std::string_view, 4> fingerprints{"f1", "f2", "status-submitted", "f3"};
constexpr std::array<std::string_view, 2> steps{"step-1", "step-2"};
constexpr std::array<std::string_view, 2> sources{"ui_state_assertion", "feed_read"};
constexpr std::size_t free_text_length_max = 6;
constexpr std::size_t known_states_max = 6;

// A short text outside the pools, from the PRNG: the alphabet of the pools' words.
std::string prng_free_text(sim::Prng& rng) {
    constexpr std::string_view alphabet = "abdefiorstu -";
    std::string out;
    const auto length = rng.below(free_text_length_max + 1);
    for (std::uint64_t i = 0; i < length; ++i) out += alphabet[rng.below(alphabet.size())];
    return out;
}

// One drawer over a choice source (sim/choices.h) and a source of free texts: the campaign's
// PRNG and fuzz_observation's bytes both build their cases here.
class Drawer {
public:
    Drawer(sim::Choices& choices, const FreeText& free_text) : choices_(choices), free_text_(free_text) {}

    ObservationCase draw_case() {
        ObservationCase c;
        c.action.correlation_id = pick(correlations);
        c.action.target = pick(targets);
        c.action.expected_state = pick(states);
        c.contract = draw_contract();
        c.snapshot = draw_snapshot(c.action);
        c.previous = draw_previous(c);
        return c;
    }

private:
    bool half() { return choices_.chance(500); }

    // A text outside the pools (one time in eight), else a pool value.
    template <std::size_t N>
    std::string pick(const std::array<std::string_view, N>& pool) {
        if (choices_.below(8) == 0) return free_text_();
        return std::string(pool[choices_.below(N)]);
    }

    // Not carried one time in six; "" (missing as well, seed 004) one time in twenty-four.
    template <std::size_t N>
    std::optional<std::string> draw_field(const std::array<std::string_view, N>& pool) {
        if (choices_.below(6) == 0) return std::nullopt;
        if (choices_.below(24) == 0) return std::string();
        return pick(pool);
    }

    ObservationContract draw_contract() {
        ObservationContract c;
        c.version = half() ? "chapter-15-v1" : free_text_();
        // Each field required with probability 3/4, so that "every field carried" is common too.
        for (const auto name : seed_field_names) {
            if (choices_.below(4) != 0) c.required_fields.emplace_back(name);
        }
        if (choices_.below(16) == 0) c.required_fields.emplace_back("noSuchField");  // never carried
        const auto known = choices_.below(known_states_max + 1);
        for (std::uint64_t i = 0; i < known; ++i) c.known_states.push_back(pick(states));
        return c;
    }

    ObservationSnapshot draw_snapshot(const ObservedAction& action) {
        ObservationSnapshot s;
        s.observed_at = draw_field(steps);
        s.source = draw_field(sources);
        s.correlation_id = choices_.below(4) != 0 ? std::optional(action.correlation_id) : draw_field(correlations);
        s.target = choices_.below(4) != 0 ? std::optional(action.target) : draw_field(targets);
        s.state = half() ? std::optional(action.expected_state) : draw_field(states);
        // Half the time the one value that passes (rules 4 and 5), so the later rules are reached often.
        s.evidence_status = half() ? std::optional<std::string>("observed") : draw_field(evidence);
        s.freshness = half() ? std::optional<std::string>("fresh") : draw_field(freshness);
        s.fingerprint = draw_field(fingerprints);
        s.effect_status = half() ? std::nullopt : draw_field(effects);
        return s;
    }

    std::optional<ObservationSnapshot> draw_previous(const ObservationCase& c) {
        switch (choices_.below(4)) {
            case 0: return std::nullopt;
            case 1: return draw_snapshot(c.action);
            default: break;
        }
        ObservationSnapshot p = c.snapshot;  // the same snapshot, perhaps of another action or target
        if (half()) p.correlation_id = draw_field(correlations);
        if (half()) p.target = draw_field(targets);
        if (half()) p.fingerprint = draw_field(fingerprints);
        return p;
    }

    sim::Choices& choices_;
    const FreeText& free_text_;
};

// ---- the seed's matrix --------------------------------------------------------------------------

ObservationCase seed_case() {
    ObservationCase c;
    c.action = {"ui-click-1", "submit-status", "submitted"};
    c.contract = {"chapter-15-v1",
                  {"observedAt", "source", "correlationId", "target", "state", "evidenceStatus", "freshness",
                   "fingerprint"},
                  {"submitted", "pending", "error"}};
    c.snapshot.observed_at = "step-2";
    c.snapshot.source = "ui_state_assertion";
    c.snapshot.correlation_id = "ui-click-1";
    c.snapshot.target = "submit-status";
    c.snapshot.state = "submitted";
    c.snapshot.evidence_status = "observed";
    c.snapshot.freshness = "fresh";
    c.snapshot.fingerprint = "status-submitted";
    return c;
}

std::string show(const std::optional<std::string>& v) { return v ? "\"" + *v + "\"" : "not carried"; }

std::string show_snapshot(const ObservationSnapshot& s) {
    std::string out = "{";
    for (const auto name : seed_field_names) {
        const auto* f = seed_field(s, name);
        if (f->has_value()) out += " " + std::string(name) + "=" + show(*f);
    }
    return out + " }";
}

}  // namespace

SeedExpectation seed_row(std::uint8_t order) {
    assert(order >= 1 && order <= seed_rows.size());
    return seed_rows[order - 1U];
}

SeedExpectation seed_expectation(const ObservationCase& c) {
    const SeedExpectation e = seed_row(seed_order(c));
    assert(e.order == seed_order(c));
    return e;
}

std::optional<ObservationViolation> observation_decided_by_a_row(const ObservationCase& c, const ObservationJudgement& j,
                                                                 ObservationTable table) {
    constexpr std::string_view name = "observation_decided_by_a_row";
    std::size_t deciding = table.size();
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (table[i].applies(c.input())) {
            deciding = i;
            break;
        }
    }
    if (deciding == table.size() || j.order == 0) return violated(name, "no row decides: " + outcome_line(j));
    const ObservationRule& row = table[deciding];
    if (row.order != j.order || row.reason != j.reason || row.outcome != j.outcome || row.spec != j.spec) {
        return violated(name, "the judgement " + outcome_line(j) + " is not its deciding row's (" + std::string(row.reason) + ")");
    }
    if (j.rules_passed.size() != deciding) return violated(name, "not every row tried before the deciding one is listed as passed");
    for (std::size_t i = 0; i < deciding; ++i) {
        if (j.rules_passed[i] != table[i].reason) return violated(name, "the rows passed are not listed in order");
    }
    return std::nullopt;
}

std::optional<ObservationViolation> observation_deterministic(const ObservationCase& c, const ObservationJudgement& j,
                                                              ObservationTable table) {
    if (judge(c, table) == j) return std::nullopt;
    return violated("observation_deterministic", "the same case judged twice differs");
}

std::optional<ObservationViolation> observation_missing_fields_named(const ObservationCase& c,
                                                                     const ObservationJudgement& j, ObservationTable) {
    constexpr std::string_view name = "observation_missing_fields_named";
    const std::vector<std::string> missing = not_carried(c);
    if (missing.empty()) return std::nullopt;
    if (j.outcome != O::NeedsEvidence || j.reason != "snapshot_fields_missing") {
        return violated(name, "required field " + missing.front() + " not carried, yet " + outcome_line(j) +
                                  " (a missing field gives needs_evidence whatever else is wrong)");
    }
    if (j.missing_fields != missing) return violated(name, "the missing fields are not named exactly, in contract order");
    return std::nullopt;
}

std::optional<ObservationViolation> observation_never_observed_without_evidence(const ObservationCase& c,
                                                                                const ObservationJudgement& j,
                                                                                ObservationTable) {
    constexpr std::string_view name = "observation_never_observed_without_evidence";
    if (j.outcome != O::Observed) return std::nullopt;
    const ObservationSnapshot& s = c.snapshot;
    if (!eq(s.correlation_id, c.action.correlation_id)) return violated(name, "a snapshot of another correlation is observed");
    if (!eq(s.target, c.action.target)) return violated(name, "a snapshot of another target is observed");
    if (!eq(s.evidence_status, "observed")) return violated(name, "an unconfirmed snapshot (evidenceStatus " + show(s.evidence_status) + ") is observed");
    if (!eq(s.freshness, "fresh")) return violated(name, "a snapshot that is not fresh (" + show(s.freshness) + ") is observed");
    if (eq(s.effect_status, "unknown")) return violated(name, "a snapshot whose effect is unknown is observed");
    if (seed_not_advanced(c)) return violated(name, "a snapshot that did not advance (same fingerprint as the previous one) is observed");
    if (!seed_known_state(c)) return violated(name, "a state the contract does not know (" + show(s.state) + ") is observed");
    if (!eq(s.state, c.action.expected_state)) return violated(name, "a state other than the expected one (" + show(s.state) + ") is observed");
    return std::nullopt;
}

std::optional<ObservationViolation> observation_irrelevant_changes_change_nothing(const ObservationCase& c,
                                                                                  const ObservationJudgement& j,
                                                                                  ObservationTable table) {
    constexpr std::string_view name = "observation_irrelevant_changes_change_nothing";
    const ObservationSnapshot& s = c.snapshot;
    const bool other_action = c.previous && (c.previous->correlation_id != s.correlation_id || c.previous->target != s.target);
    const bool other_print = c.previous && c.previous->fingerprint != s.fingerprint;
    if (other_action || other_print) {
        ObservationCase without = c;
        without.previous.reset();
        const ObservationJudgement w = judge(without, table);
        if (!(w == j)) {
            return violated(name, std::string("a previous snapshot of another ") + (other_action ? "correlation or target" : "fingerprint") +
                                      " changes the judgement: " + outcome_line(j) + ", without it " + outcome_line(w));
        }
    }
    ObservationCase renamed = c;
    // Another value of a carried field ("" is not carried: seed 004).
    if (renamed.snapshot.observed_at && !renamed.snapshot.observed_at->empty()) renamed.snapshot.observed_at = *renamed.snapshot.observed_at + "'";
    if (renamed.snapshot.source && !renamed.snapshot.source->empty()) renamed.snapshot.source = *renamed.snapshot.source + "'";
    const ObservationJudgement r = judge(renamed, table);
    if (!(r == j)) return violated(name, "another observedAt or source changes the judgement: " + outcome_line(j) + ", then " + outcome_line(r));
    return std::nullopt;
}

std::optional<ObservationViolation> observation_follows_the_seed_order(const ObservationCase& c,
                                                                       const ObservationJudgement& j, ObservationTable) {
    const SeedExpectation e = seed_expectation(c);
    if (j.order == e.order && j.outcome == e.outcome && j.reason == e.reason) return std::nullopt;
    return violated("observation_follows_the_seed_order", "the seed says " + std::string(to_string(e.outcome)) + " / " +
                                                              std::string(e.reason) + " (rule " + std::to_string(e.order) +
                                                              "), the judgement is " + outcome_line(j));
}

std::span<const ObservationCheck> observation_checks() {
    static constexpr std::array<ObservationCheck, 6> checks{{
        {"observation_decided_by_a_row", "O-1", observation_decided_by_a_row},
        {"observation_deterministic", "O-1", observation_deterministic},
        {"observation_missing_fields_named", "O-1", observation_missing_fields_named},
        {"observation_never_observed_without_evidence", "O-1 O-3", observation_never_observed_without_evidence},
        {"observation_irrelevant_changes_change_nothing", "O-1 O-2", observation_irrelevant_changes_change_nothing},
        {"observation_follows_the_seed_order", "O-1 O-2", observation_follows_the_seed_order},
    }};
    return checks;
}

std::optional<ObservationViolation> check_observation(const ObservationCase& c, ObservationTable table) {
    const ObservationJudgement j = judge(c, table);
    for (const ObservationCheck& check : observation_checks()) {
        if (auto v = check.fn(c, j, table)) return v;
    }
    return std::nullopt;
}

std::vector<ObservationViolation> observation_violations(const ObservationCase& c, ObservationTable table) {
    const ObservationJudgement j = judge(c, table);
    std::vector<ObservationViolation> out;
    for (const ObservationCheck& check : observation_checks()) {
        if (auto v = check.fn(c, j, table)) out.push_back(std::move(*v));
    }
    return out;
}

ObservationCase draw_observation_case(sim::Choices& choices, const FreeText& free_text) {
    return Drawer(choices, free_text).draw_case();
}

ObservationCase generate_observation_case(sim::Prng& rng) {
    sim::PrngChoices choices(rng);
    const FreeText free_text = [&rng] { return prng_free_text(rng); };
    return draw_observation_case(choices, free_text);
}

ObservationCase observation_case(std::uint64_t seed, std::uint32_t index) {
    sim::Prng rng(case_seed(seed, index));
    return generate_observation_case(rng);
}

std::vector<LabelledObservationCase> seed_observation_matrix() {
    std::vector<LabelledObservationCase> out;
    const auto add = [&out](std::string label, auto change) {
        ObservationCase c = seed_case();
        change(c);
        out.push_back({std::move(label), std::move(c)});
    };
    add("fresh match", [](ObservationCase&) {});
    add("correlation mismatch", [](ObservationCase& c) { c.snapshot.correlation_id = "ui-click-2"; });
    add("target mismatch", [](ObservationCase& c) { c.snapshot.target = "other-status"; });
    add("field missing (source)", [](ObservationCase& c) { c.snapshot.source.reset(); });
    add("stale snapshot", [](ObservationCase& c) { c.snapshot.freshness = "stale"; });
    add("inferred label", [](ObservationCase& c) { c.snapshot.evidence_status = "inferred"; });
    add("unknown effect", [](ObservationCase& c) { c.snapshot.effect_status = "unknown"; });
    add("not advanced (same correlation, target, fingerprint)", [](ObservationCase& c) {
        c.previous = c.snapshot;
        c.previous->observed_at = "step-1";
    });
    add("same fingerprint, another action", [](ObservationCase& c) {
        c.previous = c.snapshot;
        c.previous->observed_at = "step-1";
        c.previous->correlation_id = "ui-click-0";
    });
    add("same fingerprint, another target", [](ObservationCase& c) {
        c.previous = c.snapshot;
        c.previous->observed_at = "step-1";
        c.previous->target = "other-status";
    });
    add("known, not matching (pending)", [](ObservationCase& c) {
        c.snapshot.state = "pending";
        c.snapshot.fingerprint = "status-pending";
    });
    add("unknown state (redirected)", [](ObservationCase& c) {
        c.snapshot.state = "redirected";
        c.snapshot.fingerprint = "status-redirected";
    });
    assert(out.size() == 12);
    return out;
}

std::string observation_case_line(const ObservationCase& c) {
    std::string out = "action {correlationId=\"" + c.action.correlation_id + "\" target=\"" + c.action.target +
                      "\" expectedState=\"" + c.action.expected_state + "\"} required [";
    for (const auto& f : c.contract.required_fields) out += " " + f;
    out += " ] known [";
    for (const auto& s : c.contract.known_states) out += " \"" + s + "\"";
    out += " ] snapshot " + show_snapshot(c.snapshot) + " previous " +
           (c.previous ? show_snapshot(*c.previous) : std::string("(none)"));
    return out;
}

std::string describe_observation(const ObservationCase& c, const ObservationJudgement& j) {
    std::string out = "action {correlationId=\"" + c.action.correlation_id + "\" target=\"" + c.action.target +
                      "\" expectedState=\"" + c.action.expected_state + "\"}\n  contract required [";
    for (const auto& f : c.contract.required_fields) out += " " + f;
    out += " ] known [";
    for (const auto& s : c.contract.known_states) out += " \"" + s + "\"";
    out += " ]\n  snapshot " + show_snapshot(c.snapshot) + "\n  previous " +
           (c.previous ? show_snapshot(*c.previous) : std::string("(none)"));
    out += "\n  -> " + outcome_line(j);
    return out;
}

}  // namespace deskcheck::props
