// The fuzzing-side commands of deskcheck (docs/nightly-and-ci.md):
//   convert  a fuzz crash input -> a shrunk counterexample JSON in corpus/regressions/
//   nightly  the main CI job: property campaign + every fuzz target + conversions + summary
//   bench    scenarios/s, verdict evaluations/s, where a scenario's time goes
#pragma once

#include "cli/commands.h"

namespace deskcheck::cli {

int cmd_convert(const Argv& args);
int cmd_nightly(const Argv& args);
int cmd_bench(const Argv& args);

}  // namespace deskcheck::cli
