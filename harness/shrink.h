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

#include "harness/run.h"
#include "sim/scenario.h"

namespace deskcheck::props {

inline constexpr std::uint32_t shrink_attempts_max = 4000;

using StillFails = std::function<bool(const sim::Scenario&)>;

struct ShrinkResult {
    sim::Scenario scenario;      // always a failing scenario: the input, or a candidate that failed
    std::uint32_t attempts = 0;  // candidates tried
    std::uint32_t accepted = 0;  // candidates that still failed and were kept
    bool stopped = false;             // ShrinkOptions::stop said so: the result so far
    bool attempts_exhausted = false;  // attempts_max reached: smaller candidates may be left untried
};

struct ShrinkOptions {
    // The limit is a count of attempts, never the clock: the same input shrinks to the same result.
    std::uint32_t attempts_max = shrink_attempts_max;
    // Called after every attempt with the result so far; must not affect the shrink.
    std::function<void(const ShrinkResult&)> progress;
    // Asked before every attempt: true stops with the result so far (an interruption, or a
    // wall-clock limit the user asked for).
    std::function<bool()> stop;
    // At a local minimum, each drop (a step, event, window, control, monitor) is tried again under
    // this many other seeds for the sim's fault streams: a step kept only for the draws it uses
    // goes. 0: never.
    std::uint32_t reseeds = 64;
};

// Candidates are tried in a fixed order (steps, events, windows, controls, monitors, then
// simplifications); the first that still fails is kept and the search restarts from it. When none
// does, the drops are tried under other seeds (ShrinkOptions::reseeds) before it gives up.
ShrinkResult shrink_scenario(const sim::Scenario& failing, const StillFails& still_fails,
                             std::uint32_t attempts_max = shrink_attempts_max);
ShrinkResult shrink_scenario(const sim::Scenario& failing, const StillFails& still_fails, const ShrinkOptions& options);

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
