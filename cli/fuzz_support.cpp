#include "cli/fuzz_support.h"
#include "harness/deterministic.h"

#include <variant>
#include <vector>

#include "cli/files.h"
#include "cli/report.h"
#include "harness/judge_run.h"
#include "sim/build.h"
#include "harness/shrink.h"
#include "harness/campaign.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"

namespace deskcheck::cli {

namespace fs = std::filesystem;

namespace {

constexpr int checkout_levels_max = 16;
constexpr std::size_t crash_bytes_max = 1 << 20;

// A scenario document, as opposed to fuzz_batch bytes: JSON text (an object, array or string after
// white space) that names "format". Such a file that does not decode is reported with the
// decoder's error (fuzz_batch bytes that happen to hold both are too unlikely to matter).
bool looks_like_scenario_json(const std::string& bytes) {
    const auto first = bytes.find_first_not_of(" \t\r\n");
    return first != std::string::npos && std::string_view("{[\"").find(bytes[first]) != std::string_view::npos &&
           bytes.find("\"format") != std::string::npos;
}

// A fuzz_scenario_json crash is a scenario document; anything else is read as fuzz_batch bytes.
std::variant<sim::Scenario, std::string> scenario_of(const std::string& bytes, std::string& kind) {
    const auto decoded = sim::decode_document(std::string_view(bytes));
    if (const auto* doc = std::get_if<sim::ScenarioDocument>(&decoded)) {
        kind = "scenario JSON";
        if (const std::string e = header_error(*doc); !e.empty()) return "not a valid counterexample: " + e;
        return doc->scenario;
    }
    if (looks_like_scenario_json(bytes)) {
        kind = "scenario JSON";
        return "not a valid scenario: " + std::get<sim::DecodeError>(decoded).message();
    }
    kind = "fuzz_batch bytes";
    if (bytes.size() > sim::bytes_input_max) {
        return "neither a scenario document nor fuzz_batch bytes (" + std::to_string(bytes.size()) +
               " bytes, more than fuzz_batch reads: " + std::to_string(sim::bytes_input_max) + ")";
    }
    sim::Scenario s = sim::build_scenario_from_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    if (const auto invalid = sim::validate(s)) {
        return "decodes to no valid scenario (neither scenario JSON nor fuzz_batch bytes: " + invalid->path + ": " +
               invalid->reason + ")";
    }
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
    const auto bytes = read_input_file(crash, crash_bytes_max);
    if (const auto* e = std::get_if<FileError>(&bytes)) {
        out.error = e->message;
        return out;
    }
    auto decoded = scenario_of(std::get<std::string>(bytes), out.kind);
    if (const auto* e = std::get_if<std::string>(&decoded)) {
        out.error = printable(crash.string()) + ": " + printable(*e);
        return out;
    }
    const std::optional<sim::Scenario> scenario = std::get<sim::Scenario>(std::move(decoded));
    const props::RunOptions options = props::fuzz_run_options();
    const auto violation = props::first_violation(*scenario, options, props::Determinism::Check);
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
    const Written written = write_counterexample(c, "current", out_dir);
    out.file = written.file;
    out.write_error = written.error;
    return out;
}

}  // namespace deskcheck::cli
