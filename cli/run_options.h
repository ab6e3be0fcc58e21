#pragma once

#include <string>

#include "cli/args.h"
#include "harness/run.h"

namespace deskcheck::cli {

// --rules / --mutation as run, replay and shrink take them; a bad value is a usage error recorded in
// `args` (and false).
bool parse_run_options(Args& args, props::RunOptions& ro, std::string& rules_name);

}  // namespace deskcheck::cli
