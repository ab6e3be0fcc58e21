#include "cli/fuzz_support.h"

#include <fstream>
#include <iterator>
#include <variant>
#include <vector>

#include "cli/report.h"
#include "fuzz/judge_run.h"
#include "fuzz/scenario_bytes.h"
#include "properties/shrink.h"
#include "properties/campaign.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"

namespace deskcheck::cli {

namespace fs = std::filesystem;

namespace {

constexpr int checkout_levels_max = 16;
constexpr std::uintmax_t crash_bytes_max = 1 << 20;

std::optional<std::string> read_bytes(const fs::path& file) {
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec || size > crash_bytes_max) return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A fuzz_scenario_json crash is a scenario document; anything else is read as fuzz_batch bytes.
std::optional<sim::Scenario> scenario_of(const std::string& bytes, std::string& kind) {
    const auto decoded = sim::decode_document(std::string_view(bytes));
    if (const auto* doc = std::get_if<sim::ScenarioDocument>(&decoded)) {
        kind = "scenario JSON";
        return doc->scenario;
    }
    kind = "fuzz_batch bytes";
    sim::Scenario s = fuzz::scenario_from_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    if (bytes.size() > fuzz::bytes_input_max || sim::validate(s).has_value()) return std::nullopt;
    return s;
}

}  // namespace

std::optional<fs::path> find_checkout(const fs::path& from) {
    std::error_code ec;
    fs::path at = fs::absolute(from, ec);
    for (int i = 0; i < checkout_levels_max && !at.empty(); ++i) {
        if (fs::is_directory(at / "corpus", ec) && fs::is_directory(at / "fuzz", ec)) return at;
        if (at == at.parent_path()) break;
        at = at.parent_path();
    }
    return std::nullopt;
}

Conversion convert_crash(const fs::path& crash, const fs::path& out_dir, const std::set<std::string>& known) {
    Conversion out;
    const auto bytes = read_bytes(crash);
    if (!bytes) {
        out.error = crash.string() + ": cannot read it (or it is over 1 MiB)";
        return out;
    }
    const auto scenario = scenario_of(*bytes, out.kind);
    if (!scenario) {
        out.error = crash.string() + ": decodes to no valid scenario (neither scenario JSON nor fuzz_batch bytes)";
        return out;
    }
    const props::RunOptions options = fuzz::fuzz_run_options();
    const auto violation = fuzz::first_violation(*scenario, options, fuzz::Determinism::Check);
    if (!violation) return out;
    out.violated = true;
    out.property = violation->property;
    if (known.count(out.property) != 0) {
        out.summary = out.property + " violated (already reported)";
        return out;
    }
    const props::ShrinkResult shrunk = props::shrink_scenario(*scenario, props::still_violates(violation->property, options));
    props::Counterexample c;
    c.property = violation->property;
    c.case_seed = scenario->seed;
    c.scenario = shrunk.scenario;
    c.original_size = props::size_of(*scenario);
    c.shrunk_size = props::size_of(shrunk.scenario);
    c.shrink_attempts = shrunk.attempts;
    c.violation = *violation;
    if (const props::NamedCheck* check = props::find_check(c.property)) {
        const props::RunResult again = props::run_scenario(shrunk.scenario, options);
        const props::CheckResult r = props::run_check(*check, shrunk.scenario, again, options);
        if (r.violation) c.violation = *r.violation;  // as seen on the shrunk scenario
    }
    c.summary = c.property + " violated at step " + (c.violation.step ? std::to_string(*c.violation.step) : "-") + ": " +
                c.violation.explanation + " (fuzz crash " + crash.filename().string() + ")";
    out.summary = c.summary;
    out.original_steps = c.original_size.steps;
    out.shrunk_steps = c.shrunk_size.steps;
    out.shrink_attempts = c.shrink_attempts;
    out.file = write_counterexample(c, "current", out_dir);
    return out;
}

}  // namespace deskcheck::cli
