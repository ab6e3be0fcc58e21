#include "cli/report.h"

#include <cassert>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "model/evidence.h"
#include "properties/checks.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {

nlohmann::ordered_json campaign_json(const props::CampaignResult& r, const std::vector<std::string>& files,
                                     double seconds, const std::vector<std::string>& pages) {
    nlohmann::ordered_json j;
    j["seed"] = r.seed;
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
                                        {"case_seed", c.case_seed},
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

std::string foreground_text(const ForegroundEvidence& f) {
    std::string out;
    if (f.unchanged && !f.borrowed) out = "{unchanged:true}";
    else {
        out = "{borrowed:true, by:'" + f.by + "', restored:" + (f.restored ? "true" : "false") +
              ", durationMs:" + std::to_string(f.duration_ms);
        if (f.waited_for_user_ms) out += ", waitedForUserMs:" + std::to_string(*f.waited_for_user_ms);
        if (f.held) out += ", held:true, prev:w" + std::to_string(f.prev.value_or(0));
        out += "}";
    }
    if (f.changed_by) out += " changedBy:'" + *f.changed_by + "'";
    return out;
}

}  // namespace

std::string describe_step(const StepReport& s) {
    std::ostringstream o;
    const auto& r = s.result;
    const auto& e = r.evidence;
    o << "  step " << s.index << ": " << to_string(s.request.kind) << " on w" << s.request.target;
    if (s.request.ref) o << " ref " << *s.request.ref;
    o << " (" << to_string(s.kind) << ")\n";
    if (r.error) o << "    error: " << to_string(r.error->kind) << " — " << r.error->detail << "\n";
    if (r.verdict) o << "    verdict: " << to_string(*r.verdict) << " by rule " << e.rule << (r.ok ? "" : " (ok:false)") << "\n";
    o << "    promise: " << to_string(e.promise) << "\n";
    o << "    delivery: " << (e.delivery.empty() ? "(none)" : e.delivery) << (e.delivered ? ", delivered" : ", not delivered") << "\n";
    if (e.before) o << "    before: " << show_snapshot(*e.before, s.kind) << "\n";
    if (e.after) o << "    after:  " << show_snapshot(*e.after, s.kind) << (e.settled ? "  (settled" : "  (not settled") << ", waited "
                   << e.settle_ms << " ms)\n";
    for (const auto& c : e.checks_ran) o << "    check ran: " << c.name << " -> " << (c.passed ? "holds" : "does not hold") << "\n";
    for (const auto& c : e.checks_not_run) o << "    check not run: " << c.name << " — " << c.why << "\n";
    o << "    foreground: " << foreground_text(e.foreground) << "\n";
    if (s.dependency_observed) o << "    dependency observed once: " << to_string(*s.dependency_observed) << "\n";
    return o.str();
}

nlohmann::ordered_json step_json(const StepReport& s) {
    const auto& r = s.result;
    const auto& e = r.evidence;
    nlohmann::ordered_json j{{"step", s.index}, {"request", to_string(s.request.kind)}, {"target", s.request.target},
                             {"kind", to_string(s.kind)}, {"ok", r.ok}};
    j["verdict"] = r.verdict ? nlohmann::ordered_json(to_string(*r.verdict)) : nlohmann::ordered_json(nullptr);
    j["error"] = r.error ? nlohmann::ordered_json{{"kind", to_string(r.error->kind)}, {"detail", r.error->detail}}
                         : nlohmann::ordered_json(nullptr);
    j["rule"] = e.rule;
    j["promise"] = to_string(e.promise);
    j["delivery"] = e.delivery;
    j["delivered"] = e.delivered;
    j["before"] = e.before ? nlohmann::ordered_json(show_snapshot(*e.before, s.kind)) : nlohmann::ordered_json(nullptr);
    j["after"] = e.after ? nlohmann::ordered_json(show_snapshot(*e.after, s.kind)) : nlohmann::ordered_json(nullptr);
    j["settled"] = e.settled;
    j["settle_ms"] = e.settle_ms;
    j["checks_ran"] = nlohmann::ordered_json::array();
    for (const auto& c : e.checks_ran) j["checks_ran"].push_back({{"name", c.name}, {"passed", c.passed}});
    j["checks_not_run"] = nlohmann::ordered_json::array();
    for (const auto& c : e.checks_not_run) j["checks_not_run"].push_back({{"name", c.name}, {"why", c.why}});
    j["foreground"] = foreground_text(e.foreground);
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
    std::string property_status;
    std::vector<html::CheckLine> results;
};

ReplayRun replay_run(const sim::Scenario& scenario, const props::RunOptions& options, const std::string& property) {
    ReplayRun out;
    out.run = props::run_scenario(scenario, options);
    const auto& run = *out.run;
    std::ostringstream t;
    t << "\n-- timeline (virtual ms; reads print (unreadable) when they return nothing)\n" << sim::to_text(run.trace());
    t << "\n-- what the tool reported\n";
    for (const auto& s : run.steps) t << describe_step(s);
    t << "\n-- properties\n";
    for (const auto& c : props::all_checks()) {
        const auto r = props::run_check(c, scenario, run, options);
        out.violated = out.violated || r.status == props::CheckStatus::Violated;
        if (c.name == property) {
            out.property_violated = r.status == props::CheckStatus::Violated;
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

Replayed replay_file(const std::string& file, props::RunOptions base, const std::string& rules_override,
                     bool run_header_mutation) {
    Replayed out;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        out.error = "cannot open the file";
        return out;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    auto decoded = sim::decode_document(buffer.str());
    if (auto* e = std::get_if<sim::DecodeError>(&decoded)) {
        out.error = e->message();
        return out;
    }
    auto doc = std::get<sim::ScenarioDocument>(decoded);
    if (!rules_override.empty()) doc.scenario.rules = rules_override;
    if (base.rules == nullptr) base.rules = &props::rules_for(doc.scenario);
    const auto& header = doc.counterexample;
    const std::string property = header ? header->property : std::string();
    // The header's mutation, when the command line did not choose one: a second run, the bug put back.
    std::optional<Mutation> header_mutation;
    if (header && header->mutation && run_header_mutation) header_mutation = *header->mutation;
    std::ostringstream t;
    t << "== " << file << "\n";
    if (header) {
        t << "counterexample: " << header->property << " (" << header->rules << " rules, seed " << header->seed
          << ")\n  " << header->summary << "\n";
        if (header->mutation) {
            t << "  mutation that puts the bug back: " << to_string(*header->mutation)
              << (header_mutation ? " (replayed second, below)" : " (not replayed: --mutation was given)") << "\n";
        }
    }
    const auto size = props::size_of(doc.scenario);
    t << "scenario: " << props::to_string(size) << "; rules " << base.rules->name << "; "
      << (doc.scenario.batch ? "one batch" : "single actions") << "; mutation " << to_string(base.tool.mutation) << "\n";
    ReplayRun first = replay_run(doc.scenario, base, property);
    t << first.text;
    out.violated = first.violated;
    if (header && !header->expected_outcome.empty()) {
        const bool expected_violation = header->expected_outcome == "violated";
        out.matches_header = expected_violation == out.violated;
        t << "recorded outcome: " << header->expected_outcome << (out.matches_header ? " (reproduced)" : " (NOT reproduced)")
          << "\n";
    }
    std::optional<ReplayRun> mutated;
    std::string mutation_name;
    if (header_mutation) {
        mutation_name = std::string(to_string(*header_mutation));
        props::RunOptions with_bug = base;
        with_bug.tool.mutation = *header_mutation;
        t << "\n== " << file << " with the header's mutation " << to_string(*header_mutation) << "\n"
          << "scenario: " << props::to_string(size) << "; rules " << base.rules->name << "; "
          << (doc.scenario.batch ? "one batch" : "single actions") << "; mutation " << to_string(*header_mutation)
          << " (from the header)\n";
        mutated = replay_run(doc.scenario, with_bug, property);
        t << mutated->text;
        out.matches_header = out.matches_header && mutated->property_violated;
        t << "with mutation " << to_string(*header_mutation) << ": " << property << " "
          << (mutated->property_status.empty() ? std::string("?") : mutated->property_status)
          << (mutated->property_violated ? " (the bug reproduces)" : " (NOT reproduced: expected violated)") << "\n";
    }
    t << "\n";
    out.text = t.str();
    out.json = {{"file", file}, {"rules", base.rules->name}, {"mutation", to_string(base.tool.mutation)},
                {"violated", out.violated}, {"matches_header", out.matches_header}};
    out.json["steps"] = nlohmann::ordered_json::array();
    for (const auto& s : first.run->steps) out.json["steps"].push_back(step_json(s));
    out.json["properties"] = first.checks;
    out.json["trace"] = sim::to_json(first.run->trace());
    if (mutated) {
        nlohmann::ordered_json m{{"mutation", mutation_name},
                                 {"property", property},
                                 {"status", mutated->property_status},
                                 {"reproduced", mutated->property_violated}};
        m["steps"] = nlohmann::ordered_json::array();
        for (const auto& s : mutated->run->steps) m["steps"].push_back(step_json(s));
        m["properties"] = mutated->checks;
        m["trace"] = sim::to_json(mutated->run->trace());
        out.json["with_header_mutation"] = m;
    }
    out.file = file;
    out.rules = std::string(base.rules->name);
    out.runs.push_back(ReplayedRun{"as recorded (mutation " + std::string(to_string(base.tool.mutation)) + ")",
                                   std::string(to_string(base.tool.mutation)), std::move(*first.run), std::move(first.results)});
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
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write " + path.string() + ": " + std::strerror(errno);
    out << content;
    out.close();
    if (!out) return "cannot write " + path.string() + ": writing failed";
    return "";
}

std::filesystem::path page_path_for(const std::filesystem::path& scenario_file) {
    std::filesystem::path page = scenario_file;
    page.replace_extension(".html");
    return page;
}

PageWritten write_page_for(const std::string& scenario_file, const props::RunOptions& base, const std::string& replay_command) {
    const Replayed replayed = replay_file(scenario_file, base, "", base.tool.mutation == Mutation::None);
    if (!replayed.error.empty()) return PageWritten{"", scenario_file + ": " + replayed.error};
    const std::filesystem::path page = page_path_for(scenario_file);
    const std::string error = write_text_file(page, timeline_page(replayed, replay_command));
    if (!error.empty()) return PageWritten{"", error};
    return PageWritten{page.string(), ""};
}

props::RunOptions replay_options(Mutation mutation) {
    props::RunOptions o;
    o.tool.mutation = mutation;
    o.agent_retries = true;
    return o;
}

std::string write_counterexample(const props::Counterexample& c, const std::string& rules, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::ostringstream base;
    base << c.property << "-" << rules << "-" << std::hex << c.case_seed;
    std::filesystem::path file = dir / (base.str() + ".json");
    for (int n = 2; std::filesystem::exists(file) && n < 10'000; ++n) file = dir / (base.str() + "-" + std::to_string(n) + ".json");
    std::ofstream(file) << sim::encode_document_text(props::counterexample_document(c, rules));
    return file.string();
}

}  // namespace deskcheck::cli
