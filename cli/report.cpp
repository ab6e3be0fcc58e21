#include "harness/run.h"
#include "cli/report.h"

#include <cassert>
#include <cerrno>
#include <cstring>
#include "cli/files.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "model/evidence.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/recorded_outcome.h"
#include "harness/shrink.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {

nlohmann::ordered_json campaign_json(const props::CampaignResult& r, const std::vector<std::string>& files,
                                     double seconds, const std::vector<std::string>& pages) {
    nlohmann::ordered_json j;
    j["seed"] = std::to_string(r.seed);  // a string: a JSON number above 2^53 is rounded by most readers
    j["rules"] = r.rules;
    j["cases"] = r.cases;
    j["seconds"] = seconds;
    j["cases_per_second"] = seconds > 0 ? r.cases / seconds : 0.0;
    j["properties"] = nlohmann::ordered_json::array();
    for (const auto& p : r.properties) {
        nlohmann::ordered_json pj{{"name", p.name}, {"spec", p.spec}, {"cases", p.cases}, {"holds", p.holds},
                                  {"violated", p.violated}, {"cannot_judge", p.cannot_judge}, {"gave_up", p.gave_up()}};
        pj["why_not_judged"] = p.why_not_judged;
        pj["not_judged_permille"] = p.not_judged_permille();
        pj["blind_spot"] = p.blind_spot();  // more than 1 % of cases not judged
        pj["why_partly_not_judged"] = p.why_partly_not_judged;
        pj["known_debts"] = p.known_debts;  // `published` only: D-1..D-3, not counted as violated
        j["properties"].push_back(pj);
    }
    j["verdicts"] = r.verdicts;
    j["coverage"] = r.coverage;
    j["counterexamples"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
        const auto& c = r.counterexamples[i];
        j["counterexamples"].push_back({{"property", c.property},
                                        {"summary", c.summary},
                                        {"case_seed", std::to_string(c.case_seed)},
                                        {"original_size", props::to_string(c.original_size)},
                                        {"shrunk_size", props::to_string(c.shrunk_size)},
                                        {"shrunk_windows", c.shrunk_size.windows},
                                        {"shrunk_steps", c.shrunk_size.steps},
                                        {"shrink_attempts", c.shrink_attempts},
                                        {"file", i < files.size() ? files[i] : ""},
                                        {"replay", i < files.size() ? "deskcheck replay " + files[i] : ""},
                                        {"page", i < pages.size() && !pages[i].empty() ? nlohmann::ordered_json(pages[i])
                                                                                       : nlohmann::ordered_json(nullptr)}});
    }
    return j;
}


namespace {

// One run of a replay: timeline, the tool's report, every property; `violated_property` says
// whether `property` (if named) was violated.
struct ReplayRun {
    std::string text;
    nlohmann::ordered_json checks = nlohmann::ordered_json::array();
    std::optional<props::RunResult> run;
    bool violated = false;
    bool property_violated = false;
    std::optional<std::size_t> property_step;  // where `property` was violated
    std::string property_status;
    std::vector<html::CheckLine> results;
};

ReplayRun replay_run(const sim::Scenario& scenario, const props::RunOptions& options, const std::string& property) {
    ReplayRun out;
    // S-8: `deterministic` runs the scenario twice by itself, one run at a time; judged before the
    // replay's own run exists, a replay never holds more than one run.
    const props::CheckResult determinism = props::deterministic(scenario, options);
    out.run = props::run_scenario(scenario, options);
    const auto& run = *out.run;
    std::ostringstream t;
    t << "\n-- timeline (virtual ms; reads print (unreadable) when they return nothing)\n" << sim::to_text(run.trace());
    t << "\n-- what the tool reported\n";
    for (const auto& s : run.steps) t << describe_step(s);
    t << "\n-- properties\n";
    for (const auto& c : props::all_checks()) {
        const auto r = c.fn == nullptr ? determinism : props::run_check(c, scenario, run, options);
        out.violated = out.violated || r.status == props::CheckStatus::Violated;
        if (c.name == property) {
            out.property_violated = r.status == props::CheckStatus::Violated;
            if (r.violation && r.violation->step) out.property_step = static_cast<std::size_t>(*r.violation->step);
            out.property_status = std::string(props::to_string(r.status));
        }
        t << "  " << c.name << " (" << c.spec << "): " << props::to_string(r.status);
        if (r.violation) t << " at step " << (r.violation->step ? std::to_string(*r.violation->step) : "-") << " — "
                           << r.violation->explanation;
        if (r.status == props::CheckStatus::CannotJudge) t << " — " << r.why_not_judged;
        t << "\n";
        nlohmann::ordered_json cj{{"property", c.name}, {"status", props::to_string(r.status)}};
        if (r.violation) cj["explanation"] = r.violation->explanation;
        if (r.violation && r.violation->step) cj["step"] = *r.violation->step;
        if (r.status == props::CheckStatus::CannotJudge) cj["why_not_judged"] = r.why_not_judged;
        out.checks.push_back(cj);
        out.results.push_back(html::CheckLine{std::string(c.name), std::string(c.spec), r});
    }
    out.text = t.str();
    return out;
}

}  // namespace

std::size_t scenario_file_bytes_max() { return sim::scenario_text_bytes_max; }

std::variant<sim::ScenarioDocument, std::string> read_scenario_file(const std::string& file) {
    const auto bytes = read_input_file(file, scenario_file_bytes_max());
    if (const auto* e = std::get_if<FileError>(&bytes)) return e->message;
    return decode_scenario_text(file, std::get<std::string>(bytes));
}

std::variant<sim::ScenarioDocument, std::string> decode_scenario_text(const std::string& file, const std::string& text) {
    auto decoded = sim::decode_document(text);
    if (const auto* e = std::get_if<sim::DecodeError>(&decoded)) return printable(file) + ": " + printable(e->message());
    auto& doc = std::get<sim::ScenarioDocument>(decoded);
    if (const std::string e = header_error(doc); !e.empty()) return printable(file) + ": " + e;
    return std::move(doc);
}

std::string header_error(const sim::ScenarioDocument& doc) {
    if (!doc.counterexample || props::find_check(doc.counterexample->property) != nullptr) return "";
    return "/counterexample/property: unknown property \"" + printable(doc.counterexample->property, 60) +
           "\" (expected one of: " + property_list() + ")";
}

int property_column_width(const std::vector<props::PropertyStats>& properties) {
    std::size_t w = std::string_view("PROPERTY").size();
    for (const auto& p : properties) w = std::max(w, p.name.size());
    return static_cast<int>(w + 2);
}

std::string printable_lines(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t nl = text.find('\n', from);
        const std::size_t to = nl == std::string_view::npos ? text.size() : nl;
        out += printable(text.substr(from, to - from), std::string_view::npos);
        if (nl == std::string_view::npos) break;
        out += '\n';
        from = nl + 1;
    }
    return out;
}

namespace {

// The header's recorded outcome against the runs, by the one rule (harness/recorded_outcome.h).
// Not compared when the command line changed the rules or the tool the outcome describes; the
// header's mutation part only when its run was made (not when --mutation none replaced it).
void compare_recorded_outcome(sim::CounterexampleHeader header, const ReplayRun& first, const std::optional<ReplayRun>& mutated,
                              bool tool_as_recorded, Replayed& out, std::ostringstream& t) {
    if (header.expected_outcome.empty()) return;
    if (!tool_as_recorded) {
        t << "recorded outcome: " << header.expected_outcome
          << " (not compared: it describes the file's rules and the tool without a mutation; --rules or --mutation "
             "changed them)\n";
        return;
    }
    std::vector<props::PropertyOutcome> as_recorded;
    for (const auto& line : first.results) as_recorded.push_back(props::PropertyOutcome{line.property, line.result});
    std::optional<props::CheckResult> with_mutation;
    if (mutated) {
        for (const auto& line : mutated->results) {
            if (line.property == header.property) with_mutation = line.result;
        }
    } else {
        header.mutation.reset();
    }
    const auto judged = props::recorded_outcome(header, as_recorded, with_mutation);
    out.header_compared = true;
    out.matches_header = judged.reproduced;
    t << "recorded outcome: " << header.expected_outcome << " of " << header.property << (judged.reproduced ? " (reproduced)" : " (NOT reproduced)")
      << "\n";
    if (!judged.reproduced) t << "  " << judged.why << "\n";
}

// A counterexample's header, as replay prints it above the timeline.
void print_header(const sim::CounterexampleHeader& header, bool mutation_replayed, std::ostringstream& t) {
    t << "counterexample: " << header.property << " (" << header.rules << " rules, seed " << header.seed << ")\n  " << header.summary << "\n";
    if (header.mutation) {
        t << "  mutation that puts the bug back: " << to_string(*header.mutation)
          << (mutation_replayed ? " (replayed second, below)" : " (not replayed: --mutation was given)") << "\n";
    }
}

// The second replay, with the header's mutation: the recorded bug put back, which must violate the
// header's property again.
ReplayRun replay_with_mutation(const sim::Scenario& scenario, props::RunOptions with_bug, Mutation mutation, const std::string& property,
                               std::ostringstream& t) {
    with_bug.mutation = mutation;
    t << "scenario: " << props::to_string(props::size_of(scenario)) << "; rules " << with_bug.rules->name << "; "
      << (scenario.batch ? "one batch" : "single actions") << "; mutation " << to_string(mutation) << " (from the header)\n";
    ReplayRun mutated = replay_run(scenario, with_bug, property);
    t << mutated.text;
    t << "with mutation " << to_string(mutation) << ": " << property << " " << (mutated.property_status.empty() ? std::string("?") : mutated.property_status)
      << (mutated.property_violated ? " (the bug reproduces)" : " (NOT reproduced: expected violated)") << "\n";
    return mutated;
}

// A replayed run's steps, properties and trace, as --json prints them.
void add_run_json(nlohmann::ordered_json& j, const ReplayRun& run) {
    j["steps"] = nlohmann::ordered_json::array();
    for (const auto& s : run.run->steps) j["steps"].push_back(step_json(s));
    j["properties"] = run.checks;
    j["trace"] = sim::to_json(run.run->trace());
}

}  // namespace

Replayed replay_file(const std::string& file, props::RunOptions base, const std::string& rules_override,
                     bool run_header_mutation) {
    const auto bytes = read_input_file(file, scenario_file_bytes_max());
    if (const auto* e = std::get_if<FileError>(&bytes)) {
        Replayed out;
        out.error = e->message;
        return out;
    }
    return replay_text(file, std::get<std::string>(bytes), std::move(base), rules_override, run_header_mutation);
}

Replayed replay_text(const std::string& file, const std::string& text, props::RunOptions base, const std::string& rules_override,
                     bool run_header_mutation) {
    Replayed out;
    auto read = decode_scenario_text(file, text);
    if (auto* e = std::get_if<std::string>(&read)) {
        out.error = *e;
        return out;
    }
    auto doc = std::get<sim::ScenarioDocument>(std::move(read));
    // The header's outcome describes the file's rule set (a rule mutation's file: the mutated set,
    // named by --rule-mutation) and the tool without a mutation.
    const bool same_rules = rules_override.empty() || (doc.counterexample && rules_override == doc.counterexample->rules);
    const bool tool_as_recorded = same_rules && base.mutation == Mutation::None;
    if (!rules_override.empty()) doc.scenario.rules = rules_override;
    if (base.rules == nullptr) base.rules = &props::rules_for(doc.scenario);
    const auto& header = doc.counterexample;
    const std::string property = header ? header->property : std::string();
    // The header's mutation, when the command line did not choose one: a second run, the bug put back.
    std::optional<Mutation> header_mutation;
    if (header && header->mutation && run_header_mutation) header_mutation = *header->mutation;
    std::ostringstream t;
    t << "== " << file << "\n";
    if (header) print_header(*header, header_mutation.has_value(), t);
    const auto size = props::size_of(doc.scenario);
    t << "scenario: " << props::to_string(size) << "; rules " << base.rules->name << "; "
      << (doc.scenario.batch ? "one batch" : "single actions") << "; mutation " << to_string(base.mutation) << "\n";
    ReplayRun first = replay_run(doc.scenario, base, property);
    t << first.text;
    out.violated = first.violated;
    std::optional<ReplayRun> mutated;
    std::string mutation_name;
    if (header_mutation) {
        mutation_name = std::string(to_string(*header_mutation));
        t << "\n== " << file << " with the header's mutation " << mutation_name << "\n";
        mutated = replay_with_mutation(doc.scenario, base, *header_mutation, property, t);
    }
    if (header) compare_recorded_outcome(*header, first, mutated, tool_as_recorded, out, t);
    t << "\n";
    out.text = printable_lines(t.str());
    out.json = {{"file", file}, {"rules", base.rules->name}, {"mutation", to_string(base.mutation)},
                {"violated", out.violated}, {"matches_header", out.matches_header},
                {"recorded_outcome", header && !header->expected_outcome.empty() ? nlohmann::ordered_json(header->expected_outcome)
                                                                                  : nlohmann::ordered_json(nullptr)},
                {"recorded_outcome_compared", out.header_compared}};
    add_run_json(out.json, first);
    if (mutated) {
        nlohmann::ordered_json m{{"mutation", mutation_name},
                                 {"property", property},
                                 {"status", mutated->property_status},
                                 {"reproduced", mutated->property_violated}};
        add_run_json(m, *mutated);
        out.json["with_header_mutation"] = m;
    }
    out.file = file;
    out.rules = std::string(base.rules->name);
    out.runs.push_back(ReplayedRun{"as recorded (mutation " + std::string(to_string(base.mutation)) + ")",
                                   std::string(to_string(base.mutation)), std::move(*first.run), std::move(first.results)});
    if (mutated) {
        out.runs.push_back(ReplayedRun{"with the header's mutation " + mutation_name + " (the recorded bug put back)", mutation_name,
                                       std::move(*mutated->run), std::move(mutated->results)});
    }
    out.document = std::move(doc);
    return out;
}

std::string timeline_page(const Replayed& replayed, const std::string& replay_command) {
    assert(replayed.document.has_value());
    html::PageView page;
    page.file = replayed.file;
    page.header = replayed.document->counterexample;
    page.rules = replayed.rules;
    page.replay_command = replay_command;
    const std::string primary = page.header ? page.header->property : std::string();
    for (const auto& r : replayed.runs) {
        page.runs.push_back(html::RunView{r.title, r.mutation, &replayed.document->scenario, &r.run, r.checks, primary});
    }
    return html::render_page(page);
}

std::string write_text_file(const std::filesystem::path& path, const std::string& content) {
    if (const auto e = write_file_atomically(path, content)) return e->message;
    return "";
}

std::filesystem::path page_path_for(const std::filesystem::path& scenario_file) {
    std::filesystem::path page = scenario_file;
    page.replace_extension(".html");
    return page;
}

PageWritten write_page_for(const std::string& scenario_file, const props::RunOptions& base, const std::string& replay_command) {
    const Replayed replayed = replay_file(scenario_file, base, "", base.mutation == Mutation::None);
    if (!replayed.error.empty()) return PageWritten{"", scenario_file + ": " + replayed.error};
    const std::filesystem::path page = page_path_for(scenario_file);
    const std::string error = write_text_file(page, timeline_page(replayed, replay_command));
    if (!error.empty()) return PageWritten{"", error};
    return PageWritten{page.string(), ""};
}

props::RunOptions replay_options(Mutation mutation) {
    props::RunOptions o;
    o.mutation = mutation;
    o.agent_retries = true;
    return o;
}

namespace {

// Each tool mutation and the property that must catch it (tests/negative_tests.cpp proves each).
struct MutationRow {
    Mutation mutation;
    const char* caught_by;
};
constexpr MutationRow mutation_rows[] = {
    {Mutation::UnreadableAsEmpty, "verdict_sound"},
    {Mutation::RetryUnknownOnce, "no_resend_after_unknown"},
    {Mutation::NoGiveBackOnFailure, "foreground_returned"},
    {Mutation::RestoreOverAnotherWindow, "foreground_returned"},
    {Mutation::IgnoreWindowBinding, "ref_never_crosses_windows"},
    {Mutation::ClickWithoutHitTest, "click_lands_on_target"},
    {Mutation::InvertedDpi, "click_lands_on_target"},
    {Mutation::RestoredDespiteRefusal, "report_matches_ground_truth"},
    {Mutation::PhantomReadback, "report_matches_ground_truth"},
    {Mutation::NotDoneDespiteEffect, "report_matches_ground_truth"},
    {Mutation::UnknownInsteadOfAbsent, "verdict_decisive"},
    {Mutation::UnknownInsteadOfConfirmed, "verdict_decisive"},
    {Mutation::UnknownForTyping, "verdict_decisive"},
    {Mutation::NoUserWait, "foreground_returned"},
    {Mutation::SettleCutShort, "verdict_decisive"},
    {Mutation::SharedIdentityGivesUp, "report_matches_ground_truth"},
    {Mutation::OccludedWhateverHit, "report_matches_ground_truth"},
    {Mutation::SkipBoundaryObservation, "dependent_step_only_after_observed"},
    {Mutation::ProceedOnNeedsEvidence, "dependent_step_only_after_observed"},
    {Mutation::RetryUnknownWrite, "no_resend_after_unknown"},
    {Mutation::DropIdempotencyKey, "no_resend_after_unknown"},
    {Mutation::RetryClaimDropped, "report_matches_ground_truth"},
    {Mutation::RetryClaimMadeUp, "report_matches_ground_truth"},
    {Mutation::EscalateEveryDependency, "dependent_step_only_after_observed"},
    {Mutation::PostedClickToButtons, "input_fits_the_control"},
    {Mutation::PostedChordsToEdits, "input_fits_the_control"},
    {Mutation::LetsGoBeforeLanding, "foreground_returned"},
    {Mutation::HotkeyMarkerUnread, "verdict_decisive"},
    {Mutation::BorrowForEveryWindow, "input_fits_the_control"},
    {Mutation::FocusedRefIsActedElement, "ref_never_crosses_windows"},
    {Mutation::NeverAllowRetry, "no_resend_after_unknown"},
};
static_assert(std::size(mutation_rows) == static_cast<std::size_t>(last_mutation),
              "every tool mutation but None has a row");

}  // namespace

std::string property_list() {
    std::string out;
    for (const auto& c : props::all_checks()) out += (out.empty() ? "" : ", ") + std::string(c.name);
    return out;
}

std::string mutation_list() {
    std::string out;
    for (const auto& m : mutation_rows) out += (out.empty() ? "" : ", ") + std::string(to_string(m.mutation));
    return out;
}

std::string property_help() {
    std::string out;
    for (const auto& c : props::all_checks()) out += "  " + std::string(c.name) + " (" + std::string(c.spec) + ")\n";
    return out;
}

std::string mutation_help() {
    std::string out;
    for (const auto& m : mutation_rows) {
        std::string name(to_string(m.mutation));
        name.resize(std::max<std::size_t>(name.size(), 30), ' ');
        out += "  " + name + " caught by " + m.caught_by + "\n";
    }
    return out;
}

std::string outcome_without_mutation(const sim::Scenario& scenario, const std::string& property, const std::string& rules,
                                     bool agent_retries) {
    props::RunOptions ro;
    ro.rules = props::rules_named(rules) != nullptr ? props::rules_named(rules) : &props::rules_for(scenario);
    ro.agent_retries = agent_retries;
    return props::still_violates(property, ro)(scenario) ? "violated" : "holds";
}

Written write_counterexample(const props::Counterexample& c, const std::string& rules, const std::filesystem::path& dir,
                             Mutation mutation, bool agent_retries) {
    Written out;
    const std::string outcome = mutation == Mutation::None
                                    ? std::string("violated")
                                    : outcome_without_mutation(c.scenario, c.property, rules, agent_retries);
    const std::string text = sim::encode_document_text(props::counterexample_document(c, rules, mutation, outcome));
    if (text.size() > sim::scenario_text_bytes_max) {
        out.error = dir.string() + ": the counterexample would be " + std::to_string(text.size()) +
                    " bytes, more than a scenario file may hold (" + std::to_string(sim::scenario_text_bytes_max) + ")";
        return out;
    }
    std::ostringstream base;
    base << c.property << "-" << rules << "-" << std::hex << c.case_seed;
    return write_under_fresh_name(dir, base.str(), text);
}

Written write_under_fresh_name(const std::filesystem::path& dir, const std::string& base, const std::string& text) {
    Written out;
    constexpr int names_max = 10'000;
    for (int n = 1; n <= names_max; ++n) {
        const std::filesystem::path file = dir / (base + (n == 1 ? "" : "-" + std::to_string(n)) + ".json");
        bool taken = false;
        if (const auto e = write_new_file(file, text, taken)) {
            out.error = e->message;
            return out;
        }
        if (!taken) {
            out.file = file.string();
            return out;
        }
    }
    out.error = (dir / base).string() + "*.json: " + std::to_string(names_max) + " files of that name exist already";
    return out;
}

}  // namespace deskcheck::cli
