// Semantic checks a decoded scenario must pass before a Sim is built from it. The JSON codec
// calls validate() after decoding; the Sim's constructor assumes it passed. Total: never crashes
// and never loops unboundedly on any Scenario value.
#pragma once

#include <optional>
#include <string>

#include "sim/scenario.h"

namespace deskcheck::sim {

// Times of scenario events and of the user's last input before the run live in
// [-event_time_ms_limit, event_time_ms_limit] (events: [0, limit]), so virtual time never overflows.
inline constexpr TimeMs event_time_ms_limit = 3'600'000;
// Every string of a scenario (values, texts, names) is at most this long (UTF-8 code units).
inline constexpr std::size_t text_length_max = 4096;

struct ValidationError {
    std::string path;    // JSON pointer into the scenario, e.g. "/windows/2/controls/0/parent"
    std::string reason;  // one sentence
};

// nullopt when the scenario is valid; otherwise the first problem found (checks run in a fixed
// order: monitors, apps, windows and their controls, hidden, foreground, events, faults, steps).
std::optional<ValidationError> validate(const Scenario& scenario);

}  // namespace deskcheck::sim
