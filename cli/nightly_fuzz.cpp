// The night's fuzzing: each fuzz target under libFuzzer for its share, its crashes kept and converted.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/fuzz_support.h"
#include "cli/interrupt.h"
#include "cli/nightly_parts.h"
#include "cli/nightly_support.h"
#include "harness/campaign.h"

namespace deskcheck::cli::nightly {

// ---- fuzzing ------------------------------------------------------------------------------------

namespace {

constexpr std::size_t crashes_converted_max = 50;  // per target and night (-fork keeps going after a crash)

std::string fuzz_build_command() { return "cmake --preset fuzz && cmake --build --preset fuzz"; }

// The property a fuzz target's log says it saw violated ("deskcheck <target>: property P violated"),
// or "" when the log has none.
std::string reported_property(const fs::path& log, const std::string& target) {
    std::ifstream in(log);
    const std::string marker = "deskcheck " + target + ": property ";
    std::string line;
    for (std::size_t n = 0; n < 1'000'000 && std::getline(in, line); ++n) {
        const auto at = line.find(marker);
        if (at == std::string::npos) continue;
        const std::string rest = line.substr(at + marker.size());
        return rest.substr(0, rest.find(' '));
    }
    return "";
}

// Properties the fuzz targets already have a counterexample for tonight (one per property).
std::set<std::string> fuzz_properties(const Summary& out) {
    std::set<std::string> known;
    for (const auto& f : out.findings) {
        if (f.is_property && f.source != "campaign" && f.source != "determinism sample") known.insert(f.property);
    }
    return known;
}

void keep_crash(const Settings& s, const std::string& target, const fs::path& crash, Summary& out) {
    const bool scenario_target = target == "fuzz_batch" || target == "fuzz_scenario_json";
    if (scenario_target && !interrupted()) {
        const Conversion c = convert_crash(crash, s.out, fuzz_properties(out));
        if (c.violated && c.file.empty() && c.write_error.empty()) return;  // this property is already reported tonight
        if (c.violated && !c.write_error.empty()) {
            out.infra_errors.push_back(target + " crash " + crash.filename().string() + " not converted: " + c.write_error);
        } else if (c.violated) {
            out.findings.push_back({target + " crash", c.property, c.summary, c.file, replay_command(c.file), true,
                                    write_page(c.file, Mutation::None, replay_command(c.file), out)});
            progress(target + ": crash converted: " + c.summary + " -> " + c.file);
            return;
        }
    }
    std::error_code ec;
    fs::create_directories(s.work / "crashes", ec);
    const fs::path kept = s.work / "crashes" / (target + "-" + crash.filename().string());
    fs::copy_file(crash, kept, fs::copy_options::skip_existing, ec);
    if (ec) out.infra_errors.push_back("cannot keep " + crash.string() + " as " + kept.string() + ": " + ec.message());
    const fs::path& file = ec ? crash : kept;
    const std::string kind = crash.filename().string().substr(0, crash.filename().string().find('-'));
    const fs::path log = s.work / target / "fuzz.log";
    if (scenario_target && interrupted()) {
        out.findings.push_back({target + " " + kind, "", "libFuzzer " + kind + " kept, not converted (interrupted): convert it with "
                                "deskcheck convert " + file.string(), file.string(), "deskcheck convert " + file.string(), false, ""});
        progress(target + ": " + kind + " kept as " + file.string());
        return;
    }
    const std::string seen = reported_property(log, target);
    const std::string why = seen.empty() ? "a sanitizer report, a timeout, or an invariant of the target"
                                         : "the fuzz binary reported " + seen +
                                               " but this deskcheck does not reproduce it: is the fuzz build from another commit?";
    out.findings.push_back({target + " " + kind, "", "libFuzzer " + kind + " that is not a property violation here (" +
                            why + "); see " + log.string(),
                            file.string(), (s.fuzz_build / "fuzz" / target).string() + " " + file.string(), false, ""});
    progress(target + ": " + kind + " kept as " + file.string());
}

void run_one_target(const Settings& s, const TargetShare& t, std::uint32_t index, Summary& out) {
    FuzzPlan plan;
    plan.target = t.name;
    plan.binary = s.fuzz_build / "fuzz" / t.name;
    plan.corpus = s.checkout / "corpus" / t.name;
    plan.options_file = s.checkout / "fuzz" / (std::string(t.name) + ".options");
    plan.work = s.work / t.name;
    plan.runs = runs_of(s, t);
    plan.seconds_max = plan.runs == 0 ? share_s(s, t.pct) : clock_stop_s(s, t.pct);
    plan.jobs = s.jobs;
    plan.seed = static_cast<std::uint32_t>(props::case_seed(s.seed, 1000 + index) % 0xffff'fffeULL) + 1;
    std::error_code ec;
    fs::remove_all(plan.work, ec);  // tonight's earlier run of this seed (the lock keeps others out)
    fs::create_directories(plan.corpus, ec);
    progress(std::string(t.name) + ": fuzzing " +
             (plan.runs == 0 ? "for its share, " + std::to_string(plan.seconds_max) + " s" : std::to_string(plan.runs) + " runs") +
             " (libFuzzer -seed=" + std::to_string(plan.seed) + (s.jobs > 1 ? ", -fork=" + std::to_string(s.jobs) : "") +
             (plan.runs == 0 ? "" : ", clock stop " + std::to_string(plan.seconds_max) + " s") + ")");
    FuzzRun run = run_fuzz_target(plan);
    if (!run.infra_error.empty()) out.infra_errors.push_back(std::string(t.name) + ": " + run.infra_error);
    if (run.stopped_by_clock) {
        out.warnings.push_back(std::string(t.name) + ": the clock stopped libFuzzer after " + std::to_string(run.execs) + " of " +
                               std::to_string(run.runs_planned) + " runs: this night is shorter than its seed's");
    }
    for (std::size_t i = 0; i < run.crashes.size() && i < crashes_converted_max; ++i) keep_crash(s, t.name, run.crashes[i], out);
    progress(std::string(t.name) + ": " + std::to_string(run.execs) + " runs, " + std::to_string(run.execs_per_second) +
             " exec/s, cov " + std::to_string(run.cov) + ", ft " + std::to_string(run.ft) + ", +" +
             std::to_string(run.corpus_added) + " corpus inputs" +
             (run.merged_by.empty() ? std::string() : " (" + run.merged_by + ")") + ", " +
             std::to_string(run.crashes.size()) + " crashes" + (run.interrupted ? ", interrupted" : ""));
    if (run.interrupted && out.interrupted_during.empty()) {
        out.interrupted_during = std::string(t.name) + " (libFuzzer stopped after " + std::to_string(run.execs) + " of " +
                                 std::to_string(run.runs_planned) + " runs; its " + std::to_string(run.corpus_added) +
                                 " new inputs kept)";
    }
    out.fuzz.push_back(std::move(run));
}

// A fuzz build older than this deskcheck may disagree with it about what a crash means.
void warn_if_stale(const Settings& s, Summary& out) {
    std::error_code ec;
    const auto self = fs::last_write_time("/proc/self/exe", ec);
    if (ec) return;
    for (const auto& t : target_shares) {
        const auto built = fs::last_write_time(s.fuzz_build / "fuzz" / t.name, ec);
        if (!ec && built < self) {
            out.warnings.push_back("the fuzz build in " + s.fuzz_build.string() + " is older than this deskcheck: "
                                   "rebuild both from one commit (" + fuzz_build_command() + ")");
            return;
        }
    }
}

}  // namespace

void run_fuzz_part(const Settings& s, Summary& out) {
    if (s.no_fuzz) {
        out.fuzz_skipped = "--no-fuzz";
        return;
    }
    std::vector<std::string> missing;
    for (const auto& t : target_shares) {
        if (!fs::exists(s.fuzz_build / "fuzz" / t.name)) missing.push_back(t.name);
    }
    if (missing.size() == std::size(target_shares)) {
        out.fuzz_skipped = "no fuzz build in " + s.fuzz_build.string() + "; make it with: " + fuzz_build_command() +
                           " (or run the campaign alone with --no-fuzz)";
        out.infra_errors.push_back(out.fuzz_skipped);
        progress(out.fuzz_skipped);
        return;
    }
    for (const auto& m : missing) out.infra_errors.push_back("fuzz target " + m + " not built in " + s.fuzz_build.string());
    warn_if_stale(s, out);
    std::uint32_t index = 0;
    for (const auto& t : target_shares) {
        if (interrupted()) {
            out.not_done.push_back(std::string(t.name) + " (not started)");
        } else if (std::find(missing.begin(), missing.end(), t.name) == missing.end()) {
            run_one_target(s, t, index, out);
        }
        ++index;
    }
}

}  // namespace deskcheck::cli::nightly
