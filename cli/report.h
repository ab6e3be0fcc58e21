// Shared reporting for the CLI: campaign results and replays, as text and JSON.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "properties/campaign.h"
#include "properties/run.h"

namespace deskcheck::cli {

nlohmann::ordered_json campaign_json(const props::CampaignResult& r, const std::vector<std::string>& files,
                                     double seconds);

struct Replayed {
    std::string error;   // non-empty: bad input (path: reason)
    bool violated = false;
    bool matches_header = true;  // the recorded outcome (header "outcome") is what happened
    std::string text;
    nlohmann::ordered_json json;
};

// Replays one scenario file: decode, run, every check; `rules_override` empty: the file's rules.
// When the file's counterexample header names a mutation and `run_header_mutation` is set (the
// command line chose none), the file is run a second time with it: `matches_header` then also
// requires the header's property to be violated there. `violated` is the first run's.
Replayed replay_file(const std::string& file, props::RunOptions base, const std::string& rules_override,
                     bool run_header_mutation = true);

// The evidence of one step, for people (multi-line, indented).
std::string describe_step(const StepReport& s);
nlohmann::ordered_json step_json(const StepReport& s);

// Writes a counterexample document into `dir` under a fresh name (never overwrites).
std::string write_counterexample(const props::Counterexample& c, const std::string& rules,
                                 const std::filesystem::path& dir);

}  // namespace deskcheck::cli
