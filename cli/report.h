// Shared reporting for the CLI: campaign results and replays, as text and JSON.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli/html_timeline.h"
#include "harness/campaign.h"
#include "harness/report_print.h"
#include "harness/run.h"
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
    std::string error;   // non-empty: bad input, one line ("FILE: path: reason")
    bool violated = false;
    bool matches_header = true;  // the recorded outcome (header "outcome") is what happened
    bool header_compared = false;  // there was a recorded outcome and it was compared
    std::string text;
    nlohmann::ordered_json json;
    std::string file;
    std::string rules;                               // the rule set the runs used
    std::optional<sim::ScenarioDocument> document;   // as decoded (rules override applied)
    std::vector<ReplayedRun> runs;                   // the first run, then the header mutation's
};

// The most a scenario file may hold (the decoder's limit): inputs are read with this bound.
std::size_t scenario_file_bytes_max();

// Reads and decodes a scenario file with the bounded reader (cli/files.h): the document, or one
// line naming the file ("FILE: no such file", "FILE: larger than N bytes", "FILE: /seed: ...").
// A counterexample header's property must be a known property.
std::variant<sim::ScenarioDocument, std::string> read_scenario_file(const std::string& file);
// The same for a text already read from `file`.
std::variant<sim::ScenarioDocument, std::string> decode_scenario_text(const std::string& file, const std::string& text);

// What the CLI checks of a counterexample header beyond the codec (which does not know the
// properties): "" when fine, else "/counterexample/property: unknown property ...".
std::string header_error(const sim::ScenarioDocument& doc);

// Replays one scenario file: decode, run, every check; `rules_override` empty: the file's rules.
// When the file's counterexample header names a mutation and `run_header_mutation` is set (the
// command line chose none), the file is run a second time with it: `matches_header` then also
// requires the header's property to be violated there. `violated` is the first run's. The
// recorded outcome describes the file's rules and the tool as it is: it is compared only when
// neither --rules nor --mutation changed them.
Replayed replay_file(const std::string& file, props::RunOptions base, const std::string& rules_override,
                     bool run_header_mutation = true);
// The same for a text already read from `file` (standard input is read once).
Replayed replay_text(const std::string& file, const std::string& text, props::RunOptions base, const std::string& rules_override,
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

// A step's evidence for people and for machines: harness/report_print.h.
using props::describe_step;
using props::step_json;

// Text for a terminal: control bytes other than newlines (NUL, ESC, ...) as \xNN.
std::string printable_lines(std::string_view text);

// The width of a property-name column: the longest name (or "PROPERTY") and two spaces.
int property_column_width(const std::vector<props::PropertyStats>& properties);

// What the tool as it is (no mutation) does on a counterexample found under a mutation: "violated"
// or "holds" -- the header's outcome, so that `deskcheck replay FILE` reproduces it without flags.
std::string outcome_without_mutation(const sim::Scenario& scenario, const std::string& property,
                                     const std::string& rules, bool agent_retries);

struct Written {
    std::string file;   // the file written (exists, complete)
    std::string error;  // non-empty: nothing was written; "PATH: reason"
};

// The names a command accepts, for help texts and for the error that names a wrong one.
std::string property_list();   // "no_resend_after_unknown, batch_stops_at_first_failure, ..."
std::string mutation_list();   // "unreadable_as_empty, retry_unknown_once, ..."
std::string property_help();   // one line per property: name (SPEC IDs)
std::string mutation_help();   // one line per mutation: name, and the property that catches it

// Writes a counterexample document into `dir` under a fresh name (never overwrites, even when
// another process picks the same name at the same time). `mutation`: the tool mutation it was
// found under (a self-test): written into the header, with the outcome of the tool as it is.
Written write_counterexample(const props::Counterexample& c, const std::string& rules,
                             const std::filesystem::path& dir, Mutation mutation = Mutation::None,
                             bool agent_retries = true);
// `text` into `dir` as BASE.json, or BASE-2.json, ... when taken (never overwrites, never follows a
// name that is not a regular file).
Written write_under_fresh_name(const std::filesystem::path& dir, const std::string& base, const std::string& text);

}  // namespace deskcheck::cli
