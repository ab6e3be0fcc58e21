// Shrinking a failing scenario without RapidCheck (plain C++: the CLI, the nightly and
// `deskcheck convert` use it on scenarios that came from our generator, a fuzzer or a file).
// Greedy passes — drop steps, events, hidden windows, windows, controls, monitors, apps; switch
// fault kinds off; shorten texts; zero latencies — each kept only if the scenario still fails
// *the same way* (the predicate decides; a step that makes another property fail, or none, is
// rejected). Every candidate is validated first; the result is always a valid scenario.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "properties/run.h"
#include "sim/scenario.h"

namespace deskcheck::props {

inline constexpr std::uint32_t shrink_attempts_max = 4000;

using StillFails = std::function<bool(const sim::Scenario&)>;

struct ShrinkResult {
    sim::Scenario scenario;
    std::uint32_t attempts = 0;  // candidates tried
    std::uint32_t accepted = 0;  // candidates that still failed and were kept
};

ShrinkResult shrink_scenario(const sim::Scenario& failing, const StillFails& still_fails,
                             std::uint32_t attempts_max = shrink_attempts_max);

// The usual predicate: running the scenario under `options` still violates `property` (and
// only the checks are consulted, so the scenario must also stay valid).
StillFails still_violates(const std::string& property, const RunOptions& options);

// A scenario's size, for reports and for the negative proofs' bounds.
struct ScenarioSize {
    std::uint32_t windows = 0;   // visible + hidden
    std::uint32_t controls = 0;
    std::uint32_t steps = 0;
    std::uint32_t events = 0;
};
ScenarioSize size_of(const sim::Scenario& s);
std::string to_string(const ScenarioSize& size);

}  // namespace deskcheck::props
