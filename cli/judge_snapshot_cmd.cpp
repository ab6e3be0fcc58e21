// deskcheck judge-snapshot FILE|- [--json] [--rule-mutation ID]: the observation rules (O-1) for a
// harness in any language. Reads {action, contract, snapshot, previous} as JSON (the seed's camelCase
// names) and prints the judgement. Bad input: one line "PATH: REASON" (a JSON pointer) and exit 2.
// A counterexample of `deskcheck mutate-rules --rules observation` is such an input with a
// "counterexample" header; with --rule-mutation ID (or with the header) the observation checks
// (harness/observation_cases.h) run on it too, and a violation exits 1.
#include <algorithm>
#include <array>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <variant>

#include "cli/args.h"
#include "cli/files.h"
#include "cli/commands.h"
#include "cli/observation_file.h"
#include "json/strict_parse.h"
#include "model/observation.h"
#include "harness/observation_cases.h"
#include "harness/observation_mutation.h"
#include "harness/recorded_outcome.h"

namespace deskcheck::cli {
namespace {

using Json = nlohmann::json;
constexpr std::size_t input_bytes_max = 1 << 20;
constexpr std::size_t list_length_max = 256;

struct BadInput {
    std::string path;
    std::string reason;
};

void only_keys(const Json& j, const std::string& path, std::initializer_list<std::string_view> keys) {
    if (!j.is_object()) throw BadInput{path.empty() ? "/" : path, "expected an object"};
    for (const auto& [key, value] : j.items()) {
        bool known = false;
        for (auto k : keys) known = known || k == key;
        if (!known) throw BadInput{path + "/" + key, "unknown field"};
    }
}

std::string string_at(const Json& j, const std::string& path, const char* key) {
    if (!j.contains(key)) throw BadInput{path + "/" + key, "required field missing"};
    if (!j.at(key).is_string()) throw BadInput{path + "/" + key, "expected a string"};
    return j.at(key).get<std::string>();
}

std::vector<std::string> strings_at(const Json& j, const std::string& path, const char* key) {
    const std::string p = path + "/" + key;
    if (!j.contains(key)) throw BadInput{p, "required field missing"};
    const Json& a = j.at(key);
    if (!a.is_array()) throw BadInput{p, "expected an array of strings"};
    if (a.size() > list_length_max) throw BadInput{p, "more than " + std::to_string(list_length_max) + " entries"};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].is_string()) throw BadInput{p + "/" + std::to_string(i), "expected a string"};
        out.push_back(a[i].get<std::string>());
    }
    return out;
}

// A snapshot: every field optional; null or absent means "not carried".
ObservationSnapshot snapshot_from(const Json& j, const std::string& path) {
    if (!j.is_object()) throw BadInput{path, "expected an object"};
    ObservationSnapshot s;
    for (const auto& [key, value] : j.items()) {
        auto* field = snapshot_field(s, key);
        if (field == nullptr) throw BadInput{path + "/" + key, "unknown field"};
        if (value.is_null()) continue;
        if (!value.is_string()) throw BadInput{path + "/" + key, "expected a string or null"};
        *field = value.get<std::string>();
    }
    return s;
}

struct Input : props::ObservationCase {
    std::optional<std::string> recorded_property;  // a mutate-rules counterexample's header
    std::optional<std::string> recorded_mutation;
};

void header_from(const Json& j, Input& in) {
    if (!j.is_object()) throw BadInput{"/counterexample", "expected an object"};
    if (j.contains("property")) in.recorded_property = string_at(j, "/counterexample", "property");
    if (j.contains("mutation")) in.recorded_mutation = string_at(j, "/counterexample", "mutation");
}

Input input_from(const Json& j) {
    only_keys(j, "", {"action", "contract", "snapshot", "previous", "counterexample"});
    Input in;
    if (j.contains("counterexample")) header_from(j.at("counterexample"), in);
    for (const char* key : {"action", "contract", "snapshot"}) {
        if (!j.contains(key)) throw BadInput{std::string("/") + key, "required field missing"};
    }
    const Json& a = j.at("action");
    only_keys(a, "/action", {"correlationId", "target", "expectedState"});
    in.action = {string_at(a, "/action", "correlationId"), string_at(a, "/action", "target"),
                 string_at(a, "/action", "expectedState")};
    const Json& c = j.at("contract");
    only_keys(c, "/contract", {"version", "requiredFields", "knownStates"});
    in.contract = {string_at(c, "/contract", "version"), strings_at(c, "/contract", "requiredFields"),
                   strings_at(c, "/contract", "knownStates")};
    in.snapshot = snapshot_from(j.at("snapshot"), "/snapshot");
    if (j.contains("previous") && !j.at("previous").is_null()) in.previous = snapshot_from(j.at("previous"), "/previous");
    return in;
}

// The input, read with a bound (never more than the limit + 1 bytes: /dev/zero is refused at once).
std::optional<std::string> read_all(const std::string& name, std::string& error) {
    auto read = read_input_file(name, input_bytes_max);
    if (auto* e = std::get_if<FileError>(&read)) {
        error = printable(e->message);
        return std::nullopt;
    }
    return std::get<std::string>(std::move(read));
}

constexpr const char* judge_snapshot_help =
    "usage: deskcheck judge-snapshot FILE|- [--json] [--rule-mutation ID]\n"
    "judges one observation snapshot by the ten rules of `deskcheck rules --rules observation` (O-1).\n"
    "input: {\"action\": {correlationId, target, expectedState},\n"
    "        \"contract\": {version, requiredFields: [..], knownStates: [..]},\n"
    "        \"snapshot\": {observedAt, source, correlationId, target, state, evidenceStatus,\n"
    "                     freshness, fingerprint, effectStatus  (each a string, or null/absent)},\n"
    "        \"previous\": a snapshot, or null/absent,\n"
    "        \"counterexample\": optional header of a mutate-rules counterexample {property, mutation, ...}}\n"
    "--rule-mutation ID: judge by the observation rules with that mutation (mutate-rules --rules\n"
    "observation); with it, or with a counterexample header, the observation checks run too.\n"
    "exit: 0 judged (whatever the outcome) and no check violated, 1 a check is violated (a rule\n"
    "mutation's counterexample reproduces), 2 bad usage or bad input (PATH: REASON),\n"
    "      4 the file's recorded outcome (its counterexample header) did NOT reproduce\n";

// The judgement as text: the outcome and its rule, what is missing, the violations, and whether a
// recorded outcome reproduced.
void print_judgement_text(const ObservationJudgement& j, const std::vector<props::ObservationViolation>& violations, const Input& in,
                          const std::optional<std::string>& mutation_id, bool reproduced) {
    if (mutation_id) std::cout << "judged by the rules with mutation " << *mutation_id << "\n";
    std::cout << to_string(j.outcome) << " / " << j.reason << " (rule " << static_cast<int>(j.order) << ", " << j.spec << ")\n";
    if (!j.missing_fields.empty()) {
        std::cout << "  missing:";
        for (const auto& f : j.missing_fields) std::cout << " " << f;
        std::cout << "\n";
    }
    for (const auto& v : violations) std::cout << "  VIOLATED " << v.property << ": " << v.explanation << "\n";
    if (in.recorded_property) {
        std::cout << "  recorded outcome: violated of " << *in.recorded_property
                  << (in.recorded_mutation ? " under " + *in.recorded_mutation : std::string()) << " ("
                  << (reproduced ? "reproduced" : "NOT reproduced") << ")\n";
        if (!reproduced && !mutation_id && in.recorded_mutation) {
            std::cout << "  (the file records a rule mutation: replay it with --rule-mutation " << *in.recorded_mutation << ")\n";
        }
    }
    std::cout << "  observed is not accepted (O-3): nothing here says the task is done\n";
}

}  // namespace

int cmd_judge_snapshot(const Argv& argv) {
    Args args("judge-snapshot", argv, {"--json", "--help"}, {"--rule-mutation"});
    if (!args.ok()) return usage_error("judge-snapshot", args.error());
    if (args.flag("--help")) {
        std::cout << judge_snapshot_help;
        return exit_ok;
    }
    if (args.positional().size() != 1) return usage_error("judge-snapshot", "expects one FILE, or - for stdin");
    const auto mutation_id = args.option("--rule-mutation");
    if (mutation_id && !props::parse_observation_mutation(observation_rules(), *mutation_id)) {
        return usage_error("judge-snapshot", printable("--rule-mutation: no mutation '" + *mutation_id +
                                                       "' of the observation rules (e.g. observation:snapshot_not_fresh:remove)"));
    }
    std::string error;
    const auto text = read_all(args.positional()[0], error);
    if (!text) return usage_error("judge-snapshot", error);
    if (!args.flag("--json")) return judge_observation_text(*text, mutation_id, nullptr);
    nlohmann::ordered_json out;
    const int code = judge_observation_text(*text, mutation_id, &out);
    if (code != exit_usage) std::cout << out.dump(2) << "\n";
    return code;
}

int judge_observation_text(const std::string& text, const std::optional<std::string>& mutation_id, nlohmann::ordered_json* json) {
    auto parsed = parse_json_strict<Json>(text);
    if (const auto* bad = std::get_if<JsonTextError>(&parsed)) {
        if (bad->pointer.empty()) return usage_error("judge-snapshot", printable("/: not JSON (" + bad->message + ")"));
        return usage_error("judge-snapshot", printable(bad->pointer + ": " + bad->message));
    }
    Input in;
    try {
        in = input_from(std::get<Json>(parsed));
    } catch (const BadInput& e) {
        return usage_error("judge-snapshot", printable(e.path + ": " + e.reason));
    } catch (const Json::exception& e) {  // a number out of range, a missing member, ...
        return usage_error("judge-snapshot", printable("/: not a valid input (" + std::string(e.what()) + ")"));
    }
    std::optional<props::MutatedObservationRules> mutant;
    if (mutation_id) mutant.emplace(observation_rules(), *props::parse_observation_mutation(observation_rules(), *mutation_id));
    const props::ObservationTable table = mutant ? mutant->table() : observation_rules();
    const auto j = assess_observation(table, in.input());
    const bool checked = mutation_id.has_value() || in.recorded_property.has_value();
    const auto violations = checked ? props::observation_violations(in, table) : std::vector<props::ObservationViolation>{};
    // The recorded outcome (a counterexample header): its property violated again, or not.
    const bool reproduced = !in.recorded_property || props::recorded_observation_outcome(*in.recorded_property, violations).reproduced;
    const int code = !reproduced ? exit_not_reproduced : violations.empty() ? exit_ok : exit_violation;
    if (json != nullptr) {
        nlohmann::ordered_json& out = *json;
        out = {{"outcome", to_string(j.outcome)}, {"reason", j.reason}, {"rule", j.order},
                                   {"spec", j.spec}, {"missing_fields", j.missing_fields},
                                   {"rules_passed", j.rules_passed}};
        if (checked) {
            out["rule_mutation"] = mutation_id ? nlohmann::ordered_json(*mutation_id) : nullptr;
            out["violations"] = nlohmann::ordered_json::array();
            for (const auto& v : violations) out["violations"].push_back({{"property", v.property}, {"explanation", v.explanation}});
        }
        if (in.recorded_property) out["recorded_outcome_reproduced"] = reproduced;
        return code;
    }
    print_judgement_text(j, violations, in, mutation_id, reproduced);
    return code;
}

}  // namespace deskcheck::cli
