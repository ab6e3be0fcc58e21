#include "cli/observation_file.h"

#include <nlohmann/json.hpp>

#include "cli/files.h"
#include "harness/observation_mutation.h"
#include "model/observation.h"

namespace deskcheck::cli {
namespace {

nlohmann::ordered_json snapshot_json(const ObservationSnapshot& snapshot) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto name : snapshot_field_names()) {
        const auto* f = snapshot_field(snapshot, name);
        if (f != nullptr && f->has_value()) j[std::string(name)] = **f;
    }
    return j;
}

}  // namespace

std::string observation_counterexample_text(const props::ObservationCase& c, const ObservationHeader& header) {
    nlohmann::ordered_json j;
    j["counterexample"] = {{"format", 1}, {"rules", std::string(props::observation_rules_name)}};
    if (header.mutation) j["counterexample"]["mutation"] = *header.mutation;
    j["counterexample"]["property"] = header.property;
    j["counterexample"]["seed"] = std::to_string(header.seed);
    j["counterexample"]["case"] = header.index;
    j["counterexample"]["summary"] = header.summary;
    j["counterexample"]["outcome"] = "violated";
    j["action"] = {{"correlationId", c.action.correlation_id}, {"target", c.action.target},
                   {"expectedState", c.action.expected_state}};
    j["contract"] = {{"version", c.contract.version}, {"requiredFields", c.contract.required_fields},
                     {"knownStates", c.contract.known_states}};
    j["snapshot"] = snapshot_json(c.snapshot);
    j["previous"] = c.previous ? snapshot_json(*c.previous) : nlohmann::ordered_json(nullptr);
    return dump_json(j) + "\n";
}

bool looks_like_observation_file(const std::string& text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    return j.is_object() && j.contains("snapshot") && !j.contains("seed");
}

}  // namespace deskcheck::cli
