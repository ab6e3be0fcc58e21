// An observation case as the file `deskcheck judge-snapshot` reads ({action, contract, snapshot,
// previous}, the seed's camelCase names), with the counterexample header of the command that found
// it: `mutate-rules --rules observation` (a rule mutation's kill) and `run --rules observation`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "checks/observation_checks.h"

namespace deskcheck::cli {

struct ObservationHeader {
    std::string property;                 // the check it violates
    std::uint64_t seed = 0;
    std::uint32_t index = 0;              // the case in the campaign ("case")
    std::string summary;                  // one line
    std::optional<std::string> mutation;  // a rule mutation's id (mutate-rules), else none
};

// The file's text (JSON, one trailing newline); the header's outcome is "violated".
std::string observation_counterexample_text(const props::ObservationCase& c, const ObservationHeader& header);

// Whether a decoded JSON document is an observation case (it has a "snapshot" member) rather than a
// scenario: `deskcheck replay` hands such a file to judge-snapshot.
bool looks_like_observation_file(const std::string& text);

// Judges an observation file's text as `deskcheck judge-snapshot` does (cli/judge_snapshot_cmd.cpp):
// prints the judgement as text, or with `json` writes it there instead, and returns the exit code
// (bad input: one line on stderr, exit 2). `mutation_id`: an observation rule mutation known to parse.
int judge_observation_text(const std::string& text, const std::optional<std::string>& mutation_id, nlohmann::ordered_json* json);

}  // namespace deskcheck::cli
