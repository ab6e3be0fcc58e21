// The scenario file format "deskcheck-scenario/1": a strict JSON codec for sim/scenario.h.
//
// Decoding never throws and never yields a half-built scenario: it returns either a Scenario that
// passed the structural checks here and the semantic checks of validate() (sim/validate.h), or one
// DecodeError naming the JSON pointer of the offending value and the reason. Unknown fields,
// duplicate keys, wrong types, out-of-range numbers and over-long arrays are all errors: a typo
// is never silently ignored. Hostile input is bounded before parsing (size, nesting depth).
//
// Encoding is canonical: a fixed key order, every field written (an empty std::optional as null),
// enums as lower_snake_case strings, dump(2) plus a trailing newline. decode(encode(s)) == s, and
// encode(decode(t)) == t for canonical text t. The JSON Schema of the same format is
// schema/deskcheck-scenario-1.schema.json; docs/scenario-format.md documents every field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "model/tool.h"
#include "sim/mutation_names.h"
#include "sim/scenario.h"

namespace deskcheck::sim {

// Bounds the decoder enforces on the text before parsing it. The same byte limit holds for the
// canonical text of every document it accepts (checked after decoding), so that what the encoder
// writes of an accepted document is always accepted again.
inline constexpr std::size_t scenario_text_bytes_max = 1 << 20;  // 1 MiB
inline constexpr std::size_t scenario_nesting_max = 64;          // the format itself needs 6
// The events array holds user events and app/hostile events; validate() bounds each group.
inline constexpr std::size_t events_max = user_events_max + app_events_max;
// Times, text lengths and selection offsets are bounded by the limits of sim/validate.h
// (event_time_ms_limit, text_length_max), which the decoder applies per field.

struct DecodeError {
    std::string path;    // a JSON pointer ("/windows/2/controls/0/kind"); "/" for the document
    std::string reason;  // what is wrong, in one line
    std::string message() const { return path + ": " + reason; }
    friend bool operator==(const DecodeError&, const DecodeError&) = default;
};

// The header a counterexample file carries next to its scenario (DESIGN "Counterexamples").
// JSON: "counterexample": {"property", "rules", "seed", "summary", "step", "outcome", "mutation"}.
struct CounterexampleHeader {
    std::string property;              // the property it violates, e.g. "no_resend_after_unknown"
    std::string rules;                 // "published" | "current"
    std::uint64_t seed = 0;
    std::string summary;               // one line for a human
    std::optional<std::int32_t> step;  // the step where it shows, if any (0 .. steps_max - 1)
    std::string expected_outcome;      // JSON "outcome": what replay should find ("" when unsaid)
    // JSON "mutation" (optional, null when absent): a tool mutation (model/tool.h, spelled as
    // `deskcheck run --mutation` takes it, never "none") that puts the recorded bug back: with it,
    // `property` is violated (at `step`, when given), whatever `outcome` says of the tool as it is.
    std::optional<Mutation> mutation;
    friend bool operator==(const CounterexampleHeader&, const CounterexampleHeader&) = default;
};

struct ScenarioDocument {
    Scenario scenario;
    std::optional<CounterexampleHeader> counterexample;
};

// --- decoding: never throws ---
std::variant<ScenarioDocument, DecodeError> decode_document(std::string_view json_text);
std::variant<ScenarioDocument, DecodeError> decode_document(const nlohmann::json& document);
// Overloads that keep calls with std::string, literals and ordered_json unambiguous.
std::variant<ScenarioDocument, DecodeError> decode_document(const std::string& json_text);
std::variant<ScenarioDocument, DecodeError> decode_document(const char* json_text);
std::variant<ScenarioDocument, DecodeError> decode_document(const nlohmann::ordered_json& document);
// The scenario alone (a counterexample header, if present, is checked and dropped).
std::variant<Scenario, DecodeError> decode_scenario(std::string_view json_text);
std::variant<Scenario, DecodeError> decode_scenario(const nlohmann::json& document);
std::variant<Scenario, DecodeError> decode_scenario(const std::string& json_text);
std::variant<Scenario, DecodeError> decode_scenario(const char* json_text);
std::variant<Scenario, DecodeError> decode_scenario(const nlohmann::ordered_json& document);

// --- encoding: canonical ---
nlohmann::ordered_json encode_scenario(const Scenario& scenario);
std::string encode_scenario_text(const Scenario& scenario);  // dump(2) + "\n"
nlohmann::ordered_json encode_document(const ScenarioDocument& document);
std::string encode_document_text(const ScenarioDocument& document);

// --- enum spellings, in enumerator order (the schema test compares them with the schema) ---
std::span<const std::string_view> control_kind_names();
std::span<const std::string_view> readability_names();
std::span<const std::string_view> dpi_awareness_names();
std::span<const std::string_view> framework_names();
std::span<const std::string_view> event_kind_names();
std::span<const std::string_view> step_kind_names();
std::span<const std::string_view> rule_set_names();  // "published", "current"
std::span<const std::string_view> role_names();      // the UI Automation control types, sorted
std::span<const std::string_view> mutation_names();  // the header's "mutation": every Mutation but None

std::string_view json_name(ControlKind kind);
std::string_view json_name(Readability readability);
std::string_view json_name(EventKind kind);
std::string_view json_name(StepKind kind);

}  // namespace deskcheck::sim
