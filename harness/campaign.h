// A property campaign: N generated scenarios from one seed, every check on each, statistics,
// and shrunk counterexamples. `deskcheck run` and `deskcheck nightly` both drive this.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checks/checks.h"
#include "harness/coverage.h"
#include "harness/run.h"
#include "harness/shrink.h"
#include "sim/build.h"
#include "sim/scenario_json.h"

namespace deskcheck::props {

struct CampaignOptions {
    std::uint64_t seed = 1;
    std::uint32_t cases = 200;
    // The index of the first case: a campaign is the cases first_case .. first_case + cases - 1 of
    // its seed (case_seed), so any slice of a long campaign runs alone and reproduces the same cases.
    std::uint32_t first_case = 0;
    std::string rules = "current";               // the rule set the tool uses
    std::vector<std::string> properties;         // empty: every check
    ToolConfig tool;
    Mutation mutation = Mutation::None;          // a negative proof's mutation, for self-tests
    bool agent_retries = true;                   // W-2 agent acting on the answers
    sim::BuildOptions build = sim::campaign_build_options();
    bool shrink = true;
    std::uint32_t counterexamples_max = 1;       // per property; the campaign goes on after them
    // Called after each case (done, total); must not affect the run.
    std::function<void(std::uint32_t, std::uint32_t)> progress;
    // Asked before each case and each shrink attempt: true stops the campaign there (an
    // interruption, the nightly's clock); the result holds the cases done so far.
    std::function<bool()> stop;
    // Properties whose counterexample the caller already keeps: counted, neither copied nor shrunk.
    std::set<std::string> counterexample_known;
    // Stop after the case of the first violation (mutation testing: the kill is what counts).
    bool stop_at_first_violation = false;
    // Keep a digest of each case (its trace, the tool's report): runs with the trace on. Two
    // builds whose digests agree on every case behaved the same on the whole campaign.
    bool digests = false;
};

// One case of a campaign run with `digests`: what the run did (FNV-1a of the trace text and the
// report's fingerprint) and whether any property judged something in it (Holds on at least one
// item, or Violated).
struct CaseDigest {
    std::uint32_t index = 0;
    std::uint64_t case_seed = 0;
    std::uint64_t digest = 0;
    bool judged = false;
};

struct PropertyStats {
    std::string name;
    std::string spec;
    std::uint32_t cases = 0;
    std::uint32_t holds = 0;
    std::uint32_t violated = 0;
    std::uint32_t cannot_judge = 0;                        // STYLE 7: said so, not counted as passes
    std::map<std::string, std::uint32_t> why_not_judged;   // reason -> count
    // Cases judged Holds on some items while others (a segment, a step) could not be: reason -> count.
    std::map<std::string, std::uint32_t> why_partly_not_judged;
    // Under `published`: violations that are its known debts (D-1..D-3), by debt. Not findings:
    // counted here, not in `violated`, and no counterexample is written for them.
    std::map<std::string, std::uint32_t> known_debts;
    bool gave_up() const { return cases > 0 && cannot_judge * 2 > cases; }
    // The share of cases not judged, per mille of cases; above 10 (1 %) the population is warned about.
    std::uint32_t not_judged_permille() const { return cases == 0 ? 0 : static_cast<std::uint32_t>(std::uint64_t{cannot_judge} * 1000 / cases); }
    bool blind_spot() const { return std::uint64_t{cannot_judge} * 100 > cases; }
};

struct Counterexample {
    std::string property;
    std::uint64_t case_seed = 0;          // build_scenario_from_prng(Prng(case_seed)) reproduces the original
    Violation violation;                  // as seen on the shrunk scenario
    sim::Scenario scenario;               // shrunk
    ScenarioSize original_size;
    ScenarioSize shrunk_size;
    std::uint32_t shrink_attempts = 0;
    std::string summary;                  // one line for people
};

struct CampaignResult {
    std::uint64_t seed = 0;
    std::string rules;
    std::uint32_t cases = 0;
    std::vector<PropertyStats> properties;
    std::map<std::string, std::uint32_t> verdicts;   // "Confirmed", "Absent", "Unknown", "error:<kind>"
    std::map<std::string, std::uint32_t> coverage;   // tags of harness/coverage.h
    // The tool's paths (model/marks.h) the campaign took, by mark name: hits while it ran (its
    // reruns and shrinks included), 0 for a path never taken. Empty when marks are compiled out.
    std::map<std::string, std::uint64_t> marks;
    std::vector<Counterexample> counterexamples;
    bool stopped = false;  // CampaignOptions::stop ended it before `cases` cases
    std::vector<CaseDigest> digests;  // with CampaignOptions::digests, one per case run
    bool any_violation() const { return !counterexamples.empty(); }
};

// A violation under the `published` rules that is one of its known debts: its explanation names
// exactly one of D-1, D-2, D-3, and the same scenario under `current` (which fixes them) does not
// violate the same property. nullopt: a finding like any other.
std::optional<std::string> known_debt(const NamedCheck& check, const sim::Scenario& scenario, const Violation& v,
                                      const RunOptions& published);

// Shrinks `c.scenario` while `still` holds, then judges the shrunk scenario again, so the
// violation `c` describes is the one seen on it (shared by the campaign and mutate-rules). With
// `build`, `c.scenario` is the PRNG case `c.case_seed` built with it, and a second route is tried:
// the builder's answers shrunk (harness/choice_shrink.h), then the scenario; the smaller of the
// two results is kept (half the attempts for each route).
void shrink_counterexample(Counterexample& c, const StillFails& still, const ShrinkOptions& options,
                           const NamedCheck& check, const RunOptions& ro, const sim::BuildOptions* build = nullptr);

// The seed of case `index` of a campaign (splitmix of the campaign seed and the index).
std::uint64_t case_seed(std::uint64_t campaign_seed, std::uint32_t index);

CampaignResult run_campaign(const CampaignOptions& options);

// The counterexample as a scenario document with its header (DESIGN "Counterexamples").
// `mutation`: the tool mutation it was found under (a self-test), written into the header so that
// `deskcheck replay FILE` puts it back on its own; `outcome`: what the tool as it is does on it
// ("violated", or "holds" when only the mutation breaks the property).
sim::ScenarioDocument counterexample_document(const Counterexample& c, const std::string& rules,
                                              Mutation mutation = Mutation::None,
                                              const std::string& outcome = "violated");

}  // namespace deskcheck::props
