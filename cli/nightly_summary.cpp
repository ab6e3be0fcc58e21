// The night's summary: warnings of what it never reached, the exit code, and the report (text or --json).
#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "cli/files.h"
#include "cli/interrupt.h"
#include "cli/nightly_parts.h"
#include "cli/report.h"
#include "harness/campaign.h"

namespace deskcheck::cli::nightly {

// ---- summary ------------------------------------------------------------------------------------

namespace {

// Verdicts and coverage tags a campaign should reach (a kind never reached is a warning, STYLE 10).
constexpr const char* expected_verdicts[] = {"Confirmed", "Absent", "Unknown"};
constexpr const char* expected_tags[] = {
    "user_typing", "user_click", "window_to_front", "popup", "tree_reorder", "control_removed", "occluder",
    "borrow", "app_took_foreground", "another_window_took_foreground", "foreground_refused", "stale_read",
    "unreadable_read", "delivery_exception", "delivery_error", "latency_overrun", "dpi_stretched_click",
    "dependency_observed", "waited_for_user", "agent_retry", "reused_element_ref", "reused_focused_ref", "batch_stopped", "occluded_click", "wpf_borrow",
    "verdict_confirmed", "verdict_absent", "verdict_unknown",
    // not only first: in a later step of the run, and after the tool's last answer
    "app_took_foreground@later", "app_took_foreground@after", "another_window_took_foreground@later", "foreground_refused@later",
    "delivery_error@later", "delivery_exception@later", "user_typing@later", "user_typing@after", "user_click@later",
    "control_removed@later", "popup@later", "stale_read@later", "unreadable_read@later", "latency_overrun@later"};

void add_blind_spot_warnings(const std::string& label, const props::CampaignResult& c, Summary& out) {
    for (const auto& p : c.properties) {
        if (p.gave_up()) out.warnings.push_back(label + "property " + p.name + " gave up: could not judge most cases");
        else if (p.blind_spot()) {
            out.warnings.push_back(label + "property " + p.name + " could not judge " + std::to_string(p.not_judged_permille()) +
                                   " per mille of cases (more than 1 %)");
        }
    }
}

}  // namespace

void add_coverage_warnings(Summary& out) {
    const props::CampaignResult& c = out.main.campaign;
    for (const char* v : expected_verdicts) {
        if (c.verdicts.count(v) == 0) out.warnings.push_back(std::string("verdict ") + v + " never reached");
    }
    for (const char* tag : expected_tags) {
        if (c.coverage.count(tag) == 0) out.warnings.push_back(std::string("coverage tag ") + tag + " never reached");
    }
    add_blind_spot_warnings("", c, out);
    if (!out.published.rounds.empty()) add_blind_spot_warnings("published campaign: ", out.published.campaign, out);
}

int exit_code_of(const Summary& out) {
    if (out.signal != 0) return exit_code_for(out.signal);
    const bool crash = std::any_of(out.findings.begin(), out.findings.end(), [](const Finding& f) { return !f.is_property; });
    if (crash) return exit_fuzz_crash;
    if (!out.findings.empty()) return exit_property_violation;
    if (!out.infra_errors.empty()) return exit_infrastructure;
    return exit_ok;
}

namespace {

std::string exit_class(int code) {
    switch (code) {
        case exit_ok: return "clean";
        case exit_property_violation: return "property violation found";
        case exit_fuzz_crash: return "fuzz crash found";
        case exit_infrastructure: return "infrastructure error";
        case exit_another_nightly: return "another nightly runs in this checkout";
        case exit_interrupted_sigint: return "interrupted by SIGINT";
        case exit_interrupted_sigterm: return "interrupted by SIGTERM";
        default: return "?";
    }
}

void print_campaign(const Settings& s, const std::string& title, const CampaignPart& part, std::ostream& o) {
    const props::CampaignResult& c = part.campaign;
    const double rate = part.seconds > 0 ? c.cases / part.seconds : 0;
    o << "\n" << title << ": " << c.cases << " cases in " << part.rounds.size() << " rounds, "
      << std::fixed << std::setprecision(1) << part.seconds << " s (" << std::setprecision(0) << rate
      << " cases/s" << (part.by_time ? ", filled its share of the budget on " + std::to_string(s.jobs) + " threads" : std::string())
      << ")\n";
    for (const auto& r : part.rounds) o << "  " << run_command(s, r) << "\n";
    const int name_w = property_column_width(c.properties);
    o << "  " << std::left << std::setw(name_w) << "PROPERTY" << std::right << std::setw(8) << "cases" << std::setw(8)
      << "holds" << std::setw(10) << "violated" << std::setw(12) << "not judged\n";
    for (const auto& p : c.properties) {
        o << "  " << std::left << std::setw(name_w) << p.name << std::right << std::setw(8) << p.cases << std::setw(8)
          << p.holds << std::setw(10) << p.violated << std::setw(11) << p.cannot_judge << "\n";
        for (const auto& [debt, n] : p.known_debts) {
            o << "      known debt x" << n << ": " << debt << " of the published rules (not a finding)\n";
        }
    }
    o << "  verdicts:";
    for (const auto& [k, v] : c.verdicts) {
        if (k.find('/') == std::string::npos) o << " " << k << " " << v << ";";
    }
    o << "\n  coverage:";
    for (const auto& [k, v] : c.coverage) o << " " << k << " " << v << ";";
    o << "\n";
}

void print_mutate_rules(const Settings& s, const Summary& out, std::ostream& o) {
    if (out.mutate.empty()) return;
    o << "\nmutate-rules: seed " << s.seed << ", " << s.mutate_rules_cases << " cases per mutant, " << std::fixed
      << std::setprecision(1) << out.mutate_seconds << " s\n";
    for (const auto& r : out.mutate) {
        o << "  " << std::left << std::setw(12) << r.name << std::right << r.killed << "/" << r.non_equivalent()
          << " non-equivalent killed, " << r.survived << " survived, " << r.equivalent << " equivalent";
        if (r.not_run != 0) o << ", " << r.not_run << " not run";
        o << "\n";
    }
    if (out.mutate_rounds.size() > 1 || s.mutate_rules_by_time) {
        o << "  rounds" << (s.mutate_rules_by_time ? " (the unexplained survivors again until the share's deadline)" : "") << ":";
        for (const auto& r : out.mutate_rounds) {
            o << (r.index == 1 ? " " : "; ") << r.index << ": seed " << r.seed << ", " << r.cases << " cases, " << r.mutants
              << (r.index == 1 ? " mutants, " : " survivors, ") << r.killed << " killed";
            if (r.not_run != 0) o << ", " << r.not_run << " not run (the share's deadline)";
        }
        o << "\n";
    }
    o << "  surviving: " << out.mutate_explained.size() + out.mutate_unexplained.size() << ", explained in "
      << s.mutate_rules_baseline.string() << ": " << out.mutate_explained.size() << ", not explained: "
      << out.mutate_unexplained.size() << (out.mutate_unexplained.empty() ? "" : " (warnings below)") << "\n";
}

void print_mutate_model(const Settings& s, const Summary& out, std::ostream& o) {
    o << "\nmutate-model: ";
    if (!out.mutate_model) {
        o << out.mutate_model_skipped << "\n";
        return;
    }
    const auto& j = *out.mutate_model;
    o << "a sample of " << s.mutate_model_sample << " mutants, seed " << j.value("seed", 0) << ", " << std::fixed
      << std::setprecision(1) << out.mutate_model_seconds << " s; score "
      << (j.contains("score") && !j["score"].is_null() ? j["score"].dump() : std::string("n/a")) << " %; counts "
      << j.value("counts", nlohmann::ordered_json::object()).dump() << "; unexplained survivors "
      << j.value("unexplained_survivors", 0) << (j.value("unexplained_survivors", 0) > 0 ? " (warnings below)" : "") << "\n";
}

void print_fuzz(const Summary& out, std::ostream& o) {
    o << "\nfuzzing:";
    if (!out.fuzz_skipped.empty()) {
        o << " skipped — " << out.fuzz_skipped << "\n";
        return;
    }
    o << "\n  " << std::left << std::setw(20) << "TARGET" << std::right << std::setw(8) << "seconds" << std::setw(11)
      << "runs" << std::setw(11) << "planned" << std::setw(9) << "exec/s" << std::setw(7) << "cov" << std::setw(8) << "ft" << std::setw(9) << "corpus"
      << std::setw(6) << "new" << std::setw(9) << "crashes" << std::setw(9) << "RSS MB\n";
    for (const auto& r : out.fuzz) {
        o << "  " << std::left << std::setw(20) << r.target << std::right << std::setw(8) << std::setprecision(0)
          << r.seconds << std::setw(11) << r.execs << std::setw(11) << (r.runs_planned == 0 ? std::string("by time") : std::to_string(r.runs_planned)) << std::setw(9) << r.execs_per_second << std::setw(7) << r.cov
          << std::setw(8) << r.ft << std::setw(9) << r.corpus_before << std::setw(6) << r.corpus_added << std::setw(9)
          << r.crashes.size() << std::setw(8) << r.peak_rss_mb << (r.interrupted ? "  interrupted" : "") << "\n";
        if (!r.merged_by.empty() && r.merged_by != "libFuzzer -merge=1") o << "    new inputs " << r.merged_by << "\n";
    }
}

void print_interruption(const Summary& out, std::ostream& o) {
    o << "\nINTERRUPTED by " << signal_name(out.signal) << " during "
      << (out.interrupted_during.empty() ? std::string("the night") : out.interrupted_during)
      << ": every child process stopped, the new corpus inputs found so far merged, the temporary corpus removed;"
         " below is what was done.\n";
    for (const auto& n : out.not_done) o << "  not done: " << n << "\n";
}

}  // namespace

void print_summary(const Settings& s, const Summary& out, int code, std::ostream& o) {
    if (out.signal != 0) print_interruption(out, o);
    print_campaign(s, "property campaign", out.main, o);
    if (!out.published.rounds.empty()) print_campaign(s, "published campaign (rules published)", out.published, o);
    o << "\nr0 campaign (failure_leaves_nothing, undo_restores): " << out.r0_cases << " cases, " << std::to_string(out.r0_seconds).substr(0, 5)
      << " s\n";
    print_mutate_rules(s, out, o);
    print_mutate_model(s, out, o);
    print_fuzz(out, o);
    o << "\ndeterminism: " << out.determinism_replayed << " scenarios replayed twice\n";
    o << "\nfindings: " << (out.findings.empty() ? "none" : std::to_string(out.findings.size())) << "\n";
    for (const auto& f : out.findings) {
        o << "  [" << f.source << "] " << f.summary << "\n    " << f.replay << "\n";
        if (!f.page.empty()) o << "    timeline page: " << f.page << "\n";
    }
    for (const auto& w : out.warnings) o << "warning: " << w << "\n";
    for (const auto& e : out.infra_errors) o << "infrastructure error: " << e << "\n";
    o << "\nexit " << code << " (" << exit_class(code) << ")\n";
}

namespace {

nlohmann::ordered_json mutate_model_json(const Summary& out) {
    if (!out.mutate_model) return nlohmann::ordered_json{{"run", false}, {"why", out.mutate_model_skipped}};
    const auto& j = *out.mutate_model;
    return nlohmann::ordered_json{{"run", true},
                                  {"seconds", out.mutate_model_seconds},
                                  {"seed", j.value("seed", 0)},
                                  {"sample", j.value("sample", 0)},
                                  {"score", j.contains("score") ? j["score"] : nlohmann::ordered_json(nullptr)},
                                  {"counts", j.value("counts", nlohmann::ordered_json::object())},
                                  {"unexplained_survivors", j.value("survivors", nlohmann::ordered_json::array())}};
}

nlohmann::ordered_json mutate_rules_json(const Settings& s, const Summary& out) {
    nlohmann::ordered_json j{{"seed", std::to_string(s.seed)}, {"cases", s.mutate_rules_cases}, {"seconds", out.mutate_seconds},
                             {"baseline", s.mutate_rules_baseline.string()}};
    j["rule_sets"] = nlohmann::ordered_json::array();
    for (const auto& r : out.mutate) {
        j["rule_sets"].push_back({{"rules", r.name}, {"killed", r.killed}, {"survived", r.survived},
                                  {"equivalent", r.equivalent}, {"non_equivalent", r.non_equivalent()}, {"not_run", r.not_run}});
    }
    j["filled_by_time"] = s.mutate_rules_by_time;
    j["rounds"] = nlohmann::ordered_json::array();
    for (const auto& r : out.mutate_rounds) {
        j["rounds"].push_back({{"round", r.index}, {"seed", std::to_string(r.seed)}, {"cases", r.cases}, {"mutants", r.mutants},
                               {"killed", r.killed}, {"not_run", r.not_run}, {"seconds", r.seconds}, {"ids", r.ids}});
    }
    j["explained_survivors"] = out.mutate_explained;
    j["unexplained_survivors"] = out.mutate_unexplained;
    return j;
}

nlohmann::ordered_json fuzz_json(const Summary& out) {
    nlohmann::ordered_json j;
    j["skipped"] = out.fuzz_skipped.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(out.fuzz_skipped);
    j["targets"] = nlohmann::ordered_json::array();
    for (const auto& r : out.fuzz) {
        nlohmann::ordered_json t{{"target", r.target}, {"seconds", r.seconds}, {"runs", r.execs},
                                 {"exec_per_second", r.execs_per_second}, {"cov", r.cov}, {"ft", r.ft},
                                 {"peak_rss_mb", r.peak_rss_mb}, {"corpus_before", r.corpus_before},
                                 {"corpus_added", r.corpus_added}, {"crashes", r.crashes.size()},
                                 {"libfuzzer_exit", r.exit_code}, {"command", r.command}};
        t["filled_by_time"] = r.runs_planned == 0;
        t["runs_planned"] = r.runs_planned == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.runs_planned);
        t["interrupted"] = r.interrupted;
        t["stopped_by_clock"] = r.stopped_by_clock;
        t["merged_by"] = r.merged_by;
        if (!r.infra_error.empty()) t["infra_error"] = r.infra_error;
        j["targets"].push_back(t);
    }
    return j;
}

}  // namespace

nlohmann::ordered_json summary_json(const Settings& s, const Summary& out, int code) {
    // Seeds are strings: a JSON number above 2^53 is rounded by most readers (jq among them).
    nlohmann::ordered_json j{{"seed", std::to_string(s.seed)}, {"seed_from", s.seed_given ? "--seed" : "date+commit"}, {"date", s.date},
                             {"commit", s.commit}, {"rules", s.rules}, {"mutation", to_string(s.mutation)},
                             {"budget_seconds", s.budget_s}, {"jobs", s.jobs}, {"out", s.out.string()},
                             {"logs", s.work.string()}, {"campaign_cases_planned", s.campaign_cases}};
    j["interrupted"] = out.signal == 0 ? nlohmann::ordered_json(nullptr)
                                       : nlohmann::ordered_json{{"signal", signal_name(out.signal)},
                                                                {"during", out.interrupted_during},
                                                                {"not_done", out.not_done}};
    const auto part_json = [&](const CampaignPart& part) {
        nlohmann::ordered_json c = campaign_json(part.campaign, {}, part.seconds);
        c.erase("counterexamples");
        c["filled_by_time"] = part.by_time;
        c["rounds"] = nlohmann::ordered_json::array();
        for (const auto& r : part.rounds) {
            c["rounds"].push_back({{"seed", std::to_string(r.seed)}, {"cases", r.cases}, {"seconds", r.seconds}, {"reproduce", run_command(s, r)}});
        }
        return c;
    };
    j["campaign"] = part_json(out.main);
    j["published_campaign"] = out.published.rounds.empty() ? nlohmann::ordered_json(nullptr) : part_json(out.published);
    j["r0"] = {{"cases", out.r0_cases}, {"seconds", out.r0_seconds}};
    j["mutate_rules"] = mutate_rules_json(s, out);
    j["mutate_model"] = mutate_model_json(out);
    j["fuzz"] = fuzz_json(out);
    j["determinism"] = {{"replayed_twice", out.determinism_replayed}};
    j["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : out.findings) {
        j["findings"].push_back({{"source", f.source}, {"property", f.property}, {"summary", f.summary}, {"file", f.file},
                                 {"replay", f.replay}, {"property_violation", f.is_property},
                                 {"page", f.page.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(f.page)}});
    }
    j["warnings"] = out.warnings;
    j["infrastructure_errors"] = out.infra_errors;
    j["exit"] = code;
    j["exit_class"] = exit_class(code);
    return j;
}

}  // namespace deskcheck::cli::nightly
