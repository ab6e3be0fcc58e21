#pragma once

#include "cli/args.h"

namespace deskcheck::cli {

// `deskcheck run --rules observation ...` (cli/run_observation_cmd.cpp): the observation checks'
// campaign, with the desktop campaign's grammar. The exit code.
int run_observation(Args& args);

}  // namespace deskcheck::cli
