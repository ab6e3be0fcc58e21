// deskcheck run --rules observation: a campaign of the observation checks (O-1..O-3, the
// fuzz_observation invariants) over generated observation cases, judged by the ten rules as they
// are. The same grammar as the desktop campaign (--seed --cases --first-case --property --out
// --no-shrink --first-violation --json); each property's first violation, shrunk, is written as a
// file that `deskcheck replay` (or judge-snapshot) judges again.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/files.h"
#include "cli/interrupt.h"
#include "cli/observation_file.h"
#include "cli/report.h"
#include "cli/run_observation.h"
#include "cli/run_options.h"
#include "harness/observation_campaign.h"

namespace deskcheck::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t observation_cases_max = 10'000'000;

struct WrittenFiles {
    std::vector<std::string> files;   // one per counterexample ("" when not written)
    std::vector<std::string> errors;
};

WrittenFiles write_all(const props::ObservationCampaignResult& r, const props::ObservationCampaignOptions& o, const std::filesystem::path& dir) {
    WrittenFiles out;
    for (const auto& c : r.counterexamples) {
        const ObservationHeader header{c.property, o.seed, c.index, c.property + " violated: " + c.explanation, std::nullopt};
        const auto w = write_under_fresh_name(dir, c.property + "-observation-" + std::to_string(o.seed) + "-" + std::to_string(c.index),
                                              observation_counterexample_text(c.shrunk, header));
        out.files.push_back(w.file);
        if (!w.error.empty()) out.errors.push_back(w.error);
    }
    return out;
}

void print_text(const props::ObservationCampaignOptions& o, const props::ObservationCampaignResult& r, const WrittenFiles& w, double seconds,
                int signal) {
    std::cout << "deskcheck run: seed=" << o.seed << " cases=" << r.cases << " rules=observation (" << std::fixed << std::setprecision(0)
              << (seconds > 0 ? r.cases / seconds : 0.0) << " cases/s)\n";
    if (signal != 0) std::cout << "interrupted by " << signal_name(signal) << " after " << r.cases << " of " << o.cases << " cases: the summary so far\n";
    std::size_t width = 8;
    for (const auto& p : r.properties) width = std::max(width, p.property.size() + 2);
    std::cout << "\n" << std::left << std::setw(static_cast<int>(width)) << "PROPERTY" << std::right << std::setw(9) << "cases"
              << std::setw(10) << "violated\n";
    for (const auto& p : r.properties) {
        std::cout << std::left << std::setw(static_cast<int>(width)) << p.property << std::right << std::setw(9) << r.cases << std::setw(9)
                  << p.violated << "\n";
    }
    for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
        const auto& c = r.counterexamples[i];
        std::cout << "\ncounterexample: " << c.property << " on case " << c.index << ": " << printable(c.explanation, 2000) << "\n";
        if (o.shrink) std::cout << "  shrunk in " << c.shrink_attempts << " attempts\n";
        if (w.files[i].empty()) std::cout << "  NOT written (see the error below)\n";
        else std::cout << "  written to " << w.files[i] << "\n  replay: deskcheck replay " << w.files[i] << "\n";
    }
    if (r.counterexamples.empty()) std::cout << "\n" << (signal == 0 ? "all properties hold on " : "no property violated in the ") << r.cases << " cases\n";
}

void print_json(const props::ObservationCampaignOptions& o, const props::ObservationCampaignResult& r, const WrittenFiles& w, double seconds,
                int signal) {
    nlohmann::ordered_json j{{"seed", std::to_string(o.seed)}, {"rules", "observation"}, {"cases", r.cases}, {"cases_planned", o.cases},
                             {"first_case", o.first_case}, {"seconds", seconds}};
    j["properties"] = nlohmann::ordered_json::array();
    for (const auto& p : r.properties) j["properties"].push_back({{"property", p.property}, {"cases", r.cases}, {"violated", p.violated}});
    j["counterexamples"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.counterexamples.size(); ++i) {
        const auto& c = r.counterexamples[i];
        j["counterexamples"].push_back({{"property", c.property}, {"case", c.index}, {"explanation", c.explanation},
                                        {"shrink_attempts", c.shrink_attempts},
                                        {"file", w.files[i].empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(w.files[i])}});
    }
    j["interrupted"] = signal != 0 ? nlohmann::ordered_json(signal_name(signal)) : nlohmann::ordered_json(nullptr);
    j["write_errors"] = w.errors;
    std::cout << dump_json(j) << "\n";
}

}  // namespace

int run_observation(Args& args) {
    props::ObservationCampaignOptions o;
    const CampaignSlice slice = parse_campaign_slice(args, observation_cases_max);
    if (const auto p = args.option("--property")) {
        if (!props::is_observation_property(*p)) {
            std::string names;
            for (const auto& c : props::observation_checks()) names += (names.empty() ? "" : ", ") + std::string(c.name);
            args.fail("unknown observation property '" + printable(*p, 60) + "' (expected one of: " + names + ")");
        }
        o.property = *p;
    }
    if (args.option("--mutation")) args.fail("--mutation is a tool mutation of the desktop campaign; the observation rules take a rule mutation (deskcheck mutate-rules --rules observation)");
    if (args.option("--digests")) args.fail("--digests is for the desktop campaign (a trace per case); the observation campaign has none");
    if (!args.positional().empty()) args.fail("unexpected argument '" + printable(args.positional().front(), 60) + "'");
    if (!args.ok()) return usage_error("run", args.error());
    const auto out_dir = campaign_out_dir(args);
    if (!out_dir) return exit_infrastructure;
    o.seed = slice.seed;
    o.cases = slice.cases;
    o.first_case = slice.first_case;
    o.shrink = !args.flag("--no-shrink");
    o.stop_at_first_violation = args.flag("--first-violation");
    install_interrupt_handlers();
    o.stop = [] { return interrupted(); };
    std::cerr << "deskcheck run: seed=" << o.seed << " cases=" << o.cases << " first_case=" << o.first_case << " rules=observation" << std::endl;
    o.progress = campaign_progress();
    const auto started = Clock::now();
    const auto r = props::run_observation_campaign(o);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    const WrittenFiles w = write_all(r, o, *out_dir);
    const int signal = interrupted_by();
    if (args.flag("--json")) print_json(o, r, w, seconds, signal);
    else print_text(o, r, w, seconds, signal);
    for (const auto& e : w.errors) std::cerr << "deskcheck run: cannot write a counterexample: " << e << "\n";
    if (signal != 0) return exit_code_for(signal);
    if (!w.errors.empty()) return exit_infrastructure;
    return r.counterexamples.empty() ? exit_ok : exit_violation;
}

}  // namespace deskcheck::cli
