// The printers of the tool's reports (model/tool.h), in one file: for people, for machines and for
// comparing two runs. The CLI's replay, its --json and the timeline page, and S-1, all print here.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "harness/run.h"
#include "model/tool.h"

namespace deskcheck::props {

// The evidence of one step, for people (multi-line, indented).
std::string describe_step(const StepReport& s);
// The same step for machines (`deskcheck replay --json`).
nlohmann::ordered_json step_json(const StepReport& s);

// Every field of a run's reports, printed with the model's printers: two runs of one scenario must
// agree on all of it (and logs compare runs by it).
std::string report_fingerprint(const RunResult& run);

}  // namespace deskcheck::props
