// The failure_leaves_nothing campaign: generated fixtures (sim/r0_generate.h) with a failure at a
// generated step or operation, judged by the shared check; a violating case is shrunk over its
// choice list (shorter, then smaller values) to a small counterexample.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/undo.h"
#include "sim/r0_generate.h"

namespace deskcheck::r0 {

inline constexpr std::size_t r0_shrink_attempts_max = 4'000;

struct R0CaseResult {
    std::vector<std::uint32_t> choices;  // the decisions the case was built from
    sim::R0Fixture fixture;
    sim::R0FailurePoint point;
    std::optional<std::string> violation;
};

// Builds the case from `choices` (past their end every decision is 0) and judges it.
R0CaseResult run_r0_case(const std::vector<std::uint32_t>& choices, const UndoPolicy* policy);
// The same from a PRNG; the decisions taken are recorded in the result's `choices`.
R0CaseResult run_r0_case(sim::Prng& rng, const UndoPolicy* policy);
// Shrinks a violating case's choices, keeping it violating; returns the smallest found.
R0CaseResult shrink_r0_case(const R0CaseResult& failing, const UndoPolicy* policy);

struct R0CampaignResult {
    std::uint64_t seed = 0;
    std::size_t cases = 0;      // run
    std::size_t violations = 0; // 0 or 1: the campaign stops at the first
    std::optional<R0CaseResult> first;   // as found
    std::optional<R0CaseResult> shrunk;  // after shrinking
    // Distribution (STYLE 10): what the generated cases met.
    std::size_t at_operation = 0, with_others = 0, with_ui = 0, null_values = 0;
};

// Runs `cases` cases from `seed`; stops at the first violation (then shrinks it).
R0CampaignResult run_r0_campaign(std::uint64_t seed, std::size_t cases, const UndoPolicy* policy);

// A fixture and failure point as one readable line ("3 steps: file.write out/new/a.txt, ...; fails after step 2").
std::string describe_case(const R0CaseResult& c);

}  // namespace deskcheck::r0
