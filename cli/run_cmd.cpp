// deskcheck run: a property campaign over generated desktops (--rules observation: cli/run_observation_cmd.cpp).
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/files.h"
#include "cli/fuzz_support.h"
#include "cli/interrupt.h"
#include "cli/observation_file.h"
#include "cli/report.h"
#include "cli/run_observation.h"
#include "cli/run_options.h"
#include "harness/campaign.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "harness/observation_mutation.h"
#include "model/observation.h"
#include "harness/rule_mutation.h"
#include "harness/shrink.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t cases_max = 10'000'000;


void print_campaign_text(const props::CampaignResult& r, std::ostream& out) {
    const int name_w = property_column_width(r.properties);
    int spec_w = 6;
    for (const auto& p : r.properties) spec_w = std::max(spec_w, static_cast<int>(p.spec.size()) + 2);
    out << "\n" << std::left << std::setw(name_w) << "PROPERTY" << std::setw(spec_w) << "SPEC" << std::right << std::setw(7)
        << "cases" << std::setw(8) << "holds" << std::setw(10) << "violated" << std::setw(11) << "not judged"
        << "  verdict\n";
    for (const auto& p : r.properties) {
        const char* verdict = p.violated > 0 ? "FAILED" : p.gave_up() ? "GAVE UP" : "ok";
        out << std::left << std::setw(name_w) << p.name << std::setw(spec_w) << p.spec << std::right << std::setw(7) << p.cases
            << std::setw(8) << p.holds << std::setw(10) << p.violated << std::setw(11) << p.cannot_judge << "  "
            << verdict << "\n";
        for (const auto& [why, n] : p.why_not_judged) {
            out << "      not judged x" << n << " (" << std::fixed << std::setprecision(2)
                << 100.0 * n / std::max<std::uint32_t>(1, p.cases) << " %): " << why << "\n";
        }
        for (const auto& [why, n] : p.why_partly_not_judged) {
            out << "      judged in part x" << n << " (a segment or step left out): " << why << "\n";
        }
        for (const auto& [debt, n] : p.known_debts) {
            out << "      known debt x" << n << ": " << debt << " of the published rules (current does not violate it)\n";
        }
    }
    for (const auto& p : r.properties) {
        if (p.blind_spot()) {
            out << "warning: " << p.name << " could not judge " << std::fixed << std::setprecision(2)
                << 100.0 * p.cannot_judge / std::max<std::uint32_t>(1, p.cases) << " % of cases (more than 1 %)\n";
        }
    }
    out << "\nverdicts:";
    for (const auto& [k, n] : r.verdicts) {
        if (k.find('/') == std::string::npos) out << "  " << k << "=" << n;
    }
    out << "\nby action kind:";
    for (const auto& [k, n] : r.verdicts) {
        if (k.find('/') != std::string::npos) out << "  " << k << "=" << n;
    }
    out << "\ncoverage (cases that reached it):";
    for (const auto& [k, n] : r.coverage) out << "  " << k << "=" << n;
    out << "\n";
    if (!r.marks.empty()) {
        out << "tool paths (model/marks.h, hits):";
        for (const auto& [k, n] : r.marks) {
            if (n != 0) out << "  " << k << "=" << n;
        }
        out << "\ntool paths never taken:";
        for (const auto& [k, n] : r.marks) {
            if (n == 0) out << "  " << k;
        }
        out << "\n";
    }
    for (const auto& missing : {"Confirmed", "Absent", "Unknown"}) {
        if (r.verdicts.count(missing) == 0) out << "warning: no step was judged " << missing << "\n";
    }
}

std::string run_help() {
    return "usage: deskcheck run [--seed S] [--cases N] [--first-case K] [--rules published|current|observation] [--property P]\n"
           "                     [--json] [--out DIR] [--no-shrink] [--mutation M] [--first-violation] [--digests FILE]\n"
           "generates N scenarios (default 200, 1.." + std::to_string(cases_max) + ") from seed S (default 1), runs the\n"
           "tool on each, judges every property, shrinks and writes each counterexample to DIR (default:\n"
           "counterexamples/) with its timeline page next to it (the same name, .html; see deskcheck replay\n"
           "--html) and prints its replay command. A counterexample found under --mutation names\n"
           "the mutation in its header, so `deskcheck replay FILE` puts it back by itself.\n"
           "--rules observation: the observation checks (O-1..O-3) on generated observation cases, judged by the\n"
           "  ten rules (deskcheck rules --rules observation); each counterexample is a judge-snapshot file.\n"
           "--first-case K: run the cases K .. K+N-1 of seed S (default 0): any slice of a long campaign alone,\n"
           "  the same cases as in the whole (mutate-model runs a mutant from the first case that reaches it).\n"
           "--first-violation: stop after the case of the first violation (what mutate-model needs).\n"
           "--digests FILE: runs with the trace on and writes one line per case to FILE:\n"
           "  `INDEX CASE_SEED DIGEST JUDGED` (DIGEST: FNV-1a of the trace and the report, 16 hex digits;\n"
           "  JUDGED: 1 when some property judged an item of the case). Two builds with the same lines\n"
           "  behaved the same on the whole campaign.\n"
           "properties (--property):\n" + property_help() +
           "mutations (--mutation; each a deliberately wrong tool, and the property that must catch it):\n" +
           mutation_help() +
           "Ctrl-C (SIGINT) or SIGTERM stops at the next case: the summary so far is printed, marked interrupted.\n"
           "exit: 0 every property holds, 1 a property is violated or gave up, 2 bad usage,\n"
           "      5 a counterexample or its timeline page could not be written (--out not a real folder, a\n"
           "        name in it taken by what is not a regular file), 130 / 143 interrupted by SIGINT / SIGTERM\n";
}

// Writes the counterexamples; the errors of those that could not be written.
std::vector<std::string> write_all(const props::CampaignResult& r, const props::CampaignOptions& o, const fs::path& dir,
                                   std::vector<std::string>& files) {
    std::vector<std::string> errors;
    for (const auto& c : r.counterexamples) {
        const Written w = write_counterexample(c, o.rules, dir, o.mutation, o.agent_retries);
        files.push_back(w.file);
        if (!w.error.empty()) errors.push_back(w.error);
    }
    return errors;
}

void print_counterexamples(const props::CampaignResult& r, const std::vector<std::string>& files,
                           const std::vector<std::string>& pages, bool shrunk) {
    for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
        const auto& c = r.counterexamples[i];
        std::cout << "\ncounterexample: " << printable(c.summary, 2000) << "\n";
        if (shrunk) {
            std::cout << "  shrunk from " << props::to_string(c.original_size) << " to " << props::to_string(c.shrunk_size)
                      << " in " << c.shrink_attempts << " attempts\n";
        } else {
            std::cout << "  not shrunk (--no-shrink): " << props::to_string(c.original_size) << "\n";
        }
        if (files[i].empty()) {
            std::cout << "  NOT written (see the error below)\n";
        } else {
            std::cout << "  written to " << files[i] << "\n  replay: deskcheck replay " << files[i] << "\n"
                      << (pages[i].empty() ? "  timeline page NOT written (see the error above)" : "  timeline page: " + pages[i])
                      << "\n";
        }
    }
}

// The campaign's settings, on stderr before it starts.
void announce_run(const props::CampaignOptions& o) {
    std::cerr << "deskcheck run: seed=" << o.seed << " cases=" << o.cases
              << (o.first_case != 0 ? " first_case=" + std::to_string(o.first_case) : std::string()) << " rules=" << o.rules
              << " mutation=" << to_string(o.mutation) << " agent_retries=on"
              << " build{windows<=" << o.build.windows_max << " controls<=" << o.build.controls_max << " steps<=" << o.build.steps_max
              << " swarm_faults user hostile_events}" << std::endl;
}

// --digests FILE: one line per case, `INDEX CASE_SEED DIGEST JUDGED`. The error, or "".
std::string write_digests(const std::string& file, const props::CampaignResult& r) {
    std::string lines;
    char buf[96];
    for (const auto& d : r.digests) {
        std::snprintf(buf, sizeof buf, "%u %llu %016llx %d\n", d.index, static_cast<unsigned long long>(d.case_seed),
                      static_cast<unsigned long long>(d.digest), d.judged ? 1 : 0);
        lines += buf;
    }
    std::string error = write_text_file(file, lines);
    if (!error.empty()) std::cerr << "deskcheck run: --digests " << error << "\n";
    return error;
}

// Each counterexample's timeline page next to it (the header names the mutation, so the page's
// replay, and the command it prints, needs no flag). False when a page could not be written.
bool write_pages(const std::vector<std::string>& files, std::vector<std::string>& page_files) {
    bool all = true;
    for (const auto& f : files) {
        PageWritten page;
        if (!f.empty()) page = write_page_for(f, replay_options(Mutation::None), "deskcheck replay " + f);
        if (!page.error.empty()) std::cerr << "deskcheck run: no timeline page: " << page.error << "\n";
        all = all && page.error.empty();
        page_files.push_back(page.path);
    }
    return all;
}

void print_run_json(const props::CampaignOptions& o, const props::CampaignResult& r, double seconds, const std::vector<std::string>& files,
                    const std::vector<std::string>& page_files, const std::vector<std::string>& write_errors, int signal) {
    auto j = campaign_json(r, files, seconds, page_files);
    j["cases_planned"] = o.cases;
    j["interrupted"] = signal != 0 ? nlohmann::ordered_json(signal_name(signal)) : nlohmann::ordered_json(nullptr);
    j["write_errors"] = write_errors;
    std::cout << dump_json(j) << "\n";
}

void print_run_text(const props::CampaignOptions& o, const props::CampaignResult& r, double seconds, const std::vector<std::string>& files,
                    const std::vector<std::string>& page_files, bool failed, int signal) {
    std::cout << "deskcheck run: seed=" << o.seed << " cases=" << r.cases << " rules=" << o.rules << " (" << std::fixed << std::setprecision(0)
              << (seconds > 0 ? r.cases / seconds : 0.0) << " cases/s)\n";
    if (signal != 0) std::cout << "interrupted by " << signal_name(signal) << " after " << r.cases << " of " << o.cases << " cases: the summary so far\n";
    print_campaign_text(r, std::cout);
    print_counterexamples(r, files, page_files, o.shrink);
    if (!failed && signal == 0) std::cout << "\nall properties hold on " << r.cases << " cases\n";
    if (!failed && signal != 0) std::cout << "\nno property violated in the " << r.cases << " cases run\n";
}

}  // namespace

int cmd_run(const Argv& argv) {
    Args args("run", argv, {"--json", "--help", "--no-shrink", "--first-violation"},
              {"--seed", "--cases", "--first-case", "--rules", "--property", "--out", "--mutation", "--digests"});
    if (args.flag("--help")) {
        std::cout << run_help();
        return exit_ok;
    }
    if (args.ok() && args.option("--rules") == std::string(props::observation_rules_name)) return run_observation(args);
    props::CampaignOptions o;
    props::RunOptions ro;
    std::string rules = "current";
    if (args.ok()) parse_run_options(args, ro, rules);
    const CampaignSlice slice = parse_campaign_slice(args, cases_max);
    if (const auto p = args.option("--property")) {
        if (props::find_check(*p) == nullptr) {
            args.fail("unknown property '" + printable(*p, 60) + "' (expected one of: " + property_list() + ")");
        }
        o.properties.push_back(*p);
    }
    if (!args.positional().empty()) args.fail("unexpected argument '" + printable(args.positional().front(), 60) + "'");
    if (!args.ok()) return usage_error("run", args.error());
    const auto out = campaign_out_dir(args);
    if (!out) return exit_infrastructure;
    const fs::path& out_dir = *out;
    o.seed = slice.seed;
    o.cases = slice.cases;
    o.first_case = slice.first_case;
    o.rules = rules;
    o.tool = ro.tool;
    o.mutation = ro.mutation;
    o.shrink = !args.flag("--no-shrink");
    o.stop_at_first_violation = args.flag("--first-violation");
    const std::optional<std::string> digests_file = args.option("--digests");
    o.digests = digests_file.has_value();
    const bool json = args.flag("--json");
    install_interrupt_handlers();
    o.stop = [] { return interrupted(); };
    announce_run(o);
    o.progress = campaign_progress();
    const auto started = Clock::now();
    const props::CampaignResult r = props::run_campaign(o);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    std::vector<std::string> files;
    const std::vector<std::string> write_errors = write_all(r, o, out_dir, files);
    const std::string digests_error = digests_file ? write_digests(*digests_file, r) : std::string();
    std::vector<std::string> page_files;
    const bool page_failed = !write_pages(files, page_files);
    bool failed = !r.counterexamples.empty();
    for (const auto& p : r.properties) failed = failed || p.gave_up();
    const int signal = interrupted_by();
    if (json) print_run_json(o, r, seconds, files, page_files, write_errors, signal);
    else print_run_text(o, r, seconds, files, page_files, failed, signal);
    for (const auto& e : write_errors) std::cerr << "deskcheck run: cannot write a counterexample: " << e << "\n";
    if (signal != 0) return exit_code_for(signal);
    if (!write_errors.empty() || page_failed || !digests_error.empty()) return exit_infrastructure;
    return failed ? exit_violation : exit_ok;
}


}  // namespace deskcheck::cli
