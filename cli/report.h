// Shared reporting for the CLI: campaign results and replays, as text and JSON.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/html_timeline.h"
#include "properties/campaign.h"
#include "properties/run.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {

// `files[i]` / `pages[i]`: where counterexample i and its timeline page were written ("" when not).
nlohmann::ordered_json campaign_json(const props::CampaignResult& r, const std::vector<std::string>& files,
                                     double seconds, const std::vector<std::string>& pages = {});

// One run of a replay, kept for the timeline page.
struct ReplayedRun {
    std::string title;     // "as recorded", "with the header's mutation M"
    std::string mutation;  // the tool mutation of the run
    props::RunResult run;
    std::vector<html::CheckLine> checks;
};

struct Replayed {
    std::string error;   // non-empty: bad input (path: reason)
    bool violated = false;
    bool matches_header = true;  // the recorded outcome (header "outcome") is what happened
    std::string text;
    nlohmann::ordered_json json;
    std::string file;
    std::string rules;                               // the rule set the runs used
    std::optional<sim::ScenarioDocument> document;   // as decoded (rules override applied)
    std::vector<ReplayedRun> runs;                   // the first run, then the header mutation's
};

// Replays one scenario file: decode, run, every check; `rules_override` empty: the file's rules.
// When the file's counterexample header names a mutation and `run_header_mutation` is set (the
// command line chose none), the file is run a second time with it: `matches_header` then also
// requires the header's property to be violated there. `violated` is the first run's.
Replayed replay_file(const std::string& file, props::RunOptions base, const std::string& rules_override,
                     bool run_header_mutation = true);

// The timeline page of a replay (cli/html_timeline.h): one section per run.
std::string timeline_page(const Replayed& replayed, const std::string& replay_command);

// Writes `content` to `path` (replacing it); "" on success, else why not (the path named).
std::string write_text_file(const std::filesystem::path& path, const std::string& content);

// Where the page of a scenario file goes: next to it, `.json` replaced by `.html`.
std::filesystem::path page_path_for(const std::filesystem::path& scenario_file);

struct PageWritten {
    std::string path;   // the page written ("" when none)
    std::string error;  // non-empty: why no page was written
};

// Replays `scenario_file` as `deskcheck replay` does (`base`: rules / mutation / agent) and writes its
// timeline page next to it. `replay_command` is the command the page names.
PageWritten write_page_for(const std::string& scenario_file, const props::RunOptions& base, const std::string& replay_command);

// The options `deskcheck replay FILE [--mutation M]` runs with (the file's rules, the W-2 agent on).
props::RunOptions replay_options(Mutation mutation);

// The evidence of one step, for people (multi-line, indented).
std::string describe_step(const StepReport& s);
nlohmann::ordered_json step_json(const StepReport& s);

// Writes a counterexample document into `dir` under a fresh name (never overwrites).
std::string write_counterexample(const props::Counterexample& c, const std::string& rules,
                                 const std::filesystem::path& dir);

}  // namespace deskcheck::cli
