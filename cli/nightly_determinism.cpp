// The night's determinism sample (S-1): campaign cases and a spread of corpus/fuzz_batch/ replayed twice.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "harness/run.h"
#include "cli/files.h"
#include "cli/interrupt.h"
#include "cli/nightly_parts.h"
#include "cli/report.h"
#include "harness/campaign.h"
#include "harness/deterministic.h"
#include "harness/judge_run.h"
#include "harness/shrink.h"
#include "model/verdict.h"
#include "sim/build.h"
#include "sim/validate.h"

namespace deskcheck::cli::nightly {

// ---- determinism sample (S-1) -------------------------------------------------------------------

namespace {

constexpr std::size_t determinism_sample_cases = 16;
constexpr std::size_t determinism_sample_inputs = 16;
constexpr std::size_t corpus_input_bytes_max = 1 << 20;

void check_deterministic(const Settings& s, const sim::Scenario& scenario, const props::RunOptions& ro,
                         const std::string& source, Summary& out) {
    ++out.determinism_replayed;
    const props::CheckResult r = props::deterministic(scenario, ro);
    if (r.status != props::CheckStatus::Violated || !r.violation) return;
    props::Counterexample c;
    c.property = "deterministic";
    c.case_seed = scenario.seed;
    c.scenario = scenario;
    c.violation = *r.violation;
    c.original_size = c.shrunk_size = props::size_of(scenario);
    c.summary = "deterministic violated: " + r.violation->explanation + " (" + source + ")";
    const Written w = write_counterexample(c, std::string(ro.rules->name), s.out, ro.mutation, ro.agent_retries);
    if (!w.error.empty()) out.infra_errors.push_back("counterexample of deterministic not written: " + w.error);
    out.findings.push_back({"determinism sample", c.property, c.summary, w.file,
                            w.error.empty() ? replay_command(w.file) : "(not written)", true,
                            w.error.empty() ? write_page(w.file, Mutation::None, replay_command(w.file), out) : ""});
}

}  // namespace

// Replays twice: the first cases of the first campaign round, and a spread of fuzz_batch's corpus.
void run_determinism_part(const Settings& s, Summary& out) {
    props::RunOptions ro;
    ro.rules = props::rules_named(s.rules);
    ro.mutation = s.mutation;
    ro.agent_retries = true;
    const std::uint64_t round_seed = out.main.rounds.empty() ? s.seed : out.main.rounds.front().seed;
    for (std::uint32_t i = 0; i < determinism_sample_cases && !interrupted(); ++i) {
        sim::Prng rng(props::case_seed(round_seed, i));
        sim::Scenario scenario = sim::build_scenario_from_prng(rng);
        scenario.rules = s.rules;
        check_deterministic(s, scenario, ro, "campaign case " + std::to_string(i), out);
    }
    std::vector<fs::path> inputs;
    std::error_code ec;
    for (fs::directory_iterator it(s.checkout / "corpus" / "fuzz_batch", ec), end; !ec && it != end; it.increment(ec)) {
        inputs.push_back(it->path());
    }
    std::sort(inputs.begin(), inputs.end());
    const std::size_t stride = std::max<std::size_t>(1, inputs.size() / determinism_sample_inputs);
    for (std::size_t i = 0; i < inputs.size() && !interrupted(); i += stride) {
        const auto read = read_input_file(inputs[i], corpus_input_bytes_max);
        if (!std::holds_alternative<std::string>(read)) continue;
        const std::string& bytes = std::get<std::string>(read);
        const sim::Scenario scenario = sim::build_scenario_from_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        if (sim::validate(scenario).has_value()) continue;
        check_deterministic(s, scenario, props::fuzz_run_options(), "corpus/fuzz_batch/" + inputs[i].filename().string(), out);
    }
    progress("determinism: " + std::to_string(out.determinism_replayed) + " scenarios replayed twice");
    if (interrupted() && out.interrupted_during.empty()) out.interrupted_during = "the determinism sample";
}

}  // namespace deskcheck::cli::nightly
