// A campaign of the observation checks (SPEC O-1..O-3) over generated cases:
// `deskcheck run --rules observation`. Case `first_case + k` of seed S is observation_case(S, ·),
// the same case whatever the slice; each property's first violation is shrunk (keeping that
// property violated) into a counterexample that `deskcheck replay` / `judge-snapshot` reads back.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/observation_cases.h"
#include "model/observation.h"

namespace deskcheck::props {

struct ObservationCampaignOptions {
    std::uint64_t seed = 1;
    std::uint32_t cases = 200;
    std::uint32_t first_case = 0;
    std::optional<std::string> property;  // only this check (a name of observation_checks())
    ObservationTable table = observation_rules();  // the rules judged (a test hands a mutated table)
    bool shrink = true;
    bool stop_at_first_violation = false;
    std::function<bool()> stop;                                        // polled between cases
    std::function<void(std::uint32_t done, std::uint32_t total)> progress;
};

struct ObservationPropertyTally {
    std::string property;
    std::uint32_t violated = 0;  // cases on which it was violated
};

struct ObservationCounterexample {
    std::string property;
    std::string explanation;     // of the shrunk case
    std::uint32_t index = 0;     // the case's index in the campaign
    ObservationCase original;
    ObservationCase shrunk;
    std::uint32_t shrink_attempts = 0;
};

struct ObservationCampaignResult {
    std::uint32_t cases = 0;                           // run (fewer than asked when stopped)
    std::vector<ObservationPropertyTally> properties;  // in observation_checks() order
    std::vector<ObservationCounterexample> counterexamples;  // each property's first, in the order found
};

// Judged by `o.table` (the observation rules as they are, unless a test says otherwise).
ObservationCampaignResult run_observation_campaign(const ObservationCampaignOptions& o);

// Whether `property` names an observation check.
bool is_observation_property(const std::string& property);

}  // namespace deskcheck::props
