#include "harness/observation_cases.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "harness/campaign.h"

namespace deskcheck::props {
namespace {

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

}  // namespace

ObservationUnderTest under_test(ObservationTable table) {
    return ObservationUnderTest{table, [table](const ObservationCase& c) { return assess_observation(table, c.input()); }};
}

std::optional<ObservationViolation> check_observation(const ObservationCase& c, ObservationTable table) {
    const ObservationUnderTest tool = under_test(table);
    const ObservationJudgement j = tool.judge(c);
    for (const ObservationCheck& check : observation_checks()) {
        if (auto v = check.fn(c, j, tool)) return v;
    }
    return std::nullopt;
}

std::vector<ObservationViolation> observation_violations(const ObservationCase& c, ObservationTable table) {
    const ObservationUnderTest tool = under_test(table);
    const ObservationJudgement j = tool.judge(c);
    std::vector<ObservationViolation> out;
    for (const ObservationCheck& check : observation_checks()) {
        if (auto v = check.fn(c, j, tool)) out.push_back(std::move(*v));
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

}  // namespace deskcheck::props
