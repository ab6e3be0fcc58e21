// fuzz_scenario_json: bytes -> sim::decode_document. Hostile text must be rejected cleanly (one
// DecodeError with a JSON pointer and a reason, never a throw, never a half-built scenario); text
// that decodes must be valid, must round-trip canonically (encode(decode(encode(d))) ==
// encode(d)), and — when small enough to run fast — must satisfy every check under the `current`
// rules, like fuzz_batch.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "harness/judge_run.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"

namespace {

using namespace deskcheck;

constexpr std::string_view target = "fuzz_scenario_json";
// Scenarios are run only up to these sizes: bigger ones are decoded and round-tripped, not run.
constexpr std::size_t run_steps_max = 12;
constexpr std::size_t run_windows_max = 8;
constexpr std::size_t run_events_max = 24;

void check_rejection(const sim::DecodeError& error) {
    if (error.path.empty() || error.path.front() != '/') {
        props::invariant_broken(target, "a decode error names a JSON pointer", error.message());
    }
    if (error.reason.empty()) props::invariant_broken(target, "a decode error says why", error.message());
}

void check_round_trip(const sim::ScenarioDocument& document) {
    if (const auto invalid = sim::validate(document.scenario)) {
        props::invariant_broken(target, "a decoded scenario passes validate()", invalid->path + ": " + invalid->reason);
    }
    const std::string canonical = sim::encode_document_text(document);
    const auto again = sim::decode_document(canonical);
    if (const auto* error = std::get_if<sim::DecodeError>(&again)) {
        props::invariant_broken(target, "the canonical encoding decodes", error->message() + "\n" + canonical);
    }
    const std::string twice = sim::encode_document_text(std::get<sim::ScenarioDocument>(again));
    if (twice != canonical) {
        props::invariant_broken(target, "encode(decode(t)) == t for canonical text t", canonical + "---\n" + twice);
    }
}

bool small_enough(const sim::Scenario& s) {
    return s.steps.size() <= run_steps_max && s.windows.size() <= run_windows_max && s.events.size() <= run_events_max;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto decoded = sim::decode_document(text);
    if (const auto* error = std::get_if<sim::DecodeError>(&decoded)) {
        check_rejection(*error);
        return -1;
    }
    const auto& document = std::get<sim::ScenarioDocument>(decoded);
    check_round_trip(document);
    if (!small_enough(document.scenario)) return 0;
    const auto violation =
        props::first_violation(document.scenario, props::fuzz_run_options(), props::determinism_for(data, size));
    if (violation) props::report_and_abort(target, *violation, document.scenario);
    return 0;
}
