// Observation cases and their judging by a table (SPEC O-1..O-3, seed 004): the one drawer of
// cases (the PRNG's and fuzz_observation's), seed 004's matrix, and the table under test handed
// to the checks (checks/observation_checks.h) as something they ask.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checks/observation_checks.h"
#include "model/observation.h"
#include "sim/choices.h"
#include "sim/prng.h"

namespace deskcheck::props {

// The table as the checks ask it: its rows, and assess_observation over them.
ObservationUnderTest under_test(ObservationTable table);

// Judges the case by `table` and tries every check; the first violation, or nullopt.
std::optional<ObservationViolation> check_observation(const ObservationCase& c, ObservationTable table);
// Every check's violation on the case (by check order).
std::vector<ObservationViolation> observation_violations(const ObservationCase& c, ObservationTable table);

// ---- cases --------------------------------------------------------------------------------------

// A drawn case: small pools so that equal and different values are both common; mostly the
// action's own correlation and target, and half the time the one evidence status and freshness
// that pass, so the later rules are reached; a field not carried about one time in six; a text
// outside the pools one time in eight, from `free_text`. The one drawer of observation cases:
// generate_observation_case (the PRNG) and fuzz_observation (libFuzzer's bytes) both call it.
using FreeText = std::function<std::string()>;
ObservationCase draw_observation_case(sim::Choices& choices, const FreeText& free_text);
// Over the seeded PRNG, free texts of up to 6 letters of the pools' alphabet.
ObservationCase generate_observation_case(sim::Prng& rng);
// Case `index` of a run seeded `seed` (its own stream: case_seed(seed, index)).
ObservationCase observation_case(std::uint64_t seed, std::uint32_t index);

struct LabelledObservationCase {
    std::string label;
    ObservationCase c;
};
// Seed 004's twelve-case test matrix, in its order, with the seed's action and contract.
std::vector<LabelledObservationCase> seed_observation_matrix();

}  // namespace deskcheck::props
