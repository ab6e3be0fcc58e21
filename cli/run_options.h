#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "cli/args.h"
#include "harness/run.h"

namespace deskcheck::cli {

// --rules / --mutation as run, replay and shrink take them; a bad value is a usage error recorded in
// `args` (and false).
bool parse_run_options(Args& args, props::RunOptions& ro, std::string& rules_name);

// The cases a campaign runs: --seed S (default 1), --cases N (1..cases_max, default 200),
// --first-case K; a bad value is a usage error recorded in `args`.
struct CampaignSlice {
    std::uint64_t seed = 1;
    std::uint32_t cases = 200;
    std::uint32_t first_case = 0;
};
CampaignSlice parse_campaign_slice(Args& args, std::uint64_t cases_max);

// --out DIR (default counterexamples/) checked as a folder counterexamples can be written into:
// the folder, or nullopt after one line on stderr naming it.
std::optional<std::filesystem::path> campaign_out_dir(const Args& args);

}  // namespace deskcheck::cli
