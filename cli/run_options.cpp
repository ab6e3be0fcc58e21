#include "harness/run.h"
#include "cli/run_options.h"

#include <iostream>
#include <limits>

#include "cli/files.h"
#include "cli/report.h"
#include "harness/observation_mutation.h"

namespace deskcheck::cli {

bool parse_run_options(Args& args, props::RunOptions& ro, std::string& rules_name) {
    if (const auto r = args.option("--rules")) {
        if (*r == props::observation_rules_name) {
            args.fail("--rules observation judges observation cases, not a desktop scenario (deskcheck run --rules observation; "
                      "replay takes an observation file without --rules)");
            return false;
        }
        if (props::rules_named(*r) == nullptr) {
            args.fail("unknown rule set '" + printable(*r, 60) + "' (expected published, current or observation)");
            return false;
        }
        rules_name = *r;
        ro.rules = props::rules_named(*r);
    }
    if (const auto m = args.option("--mutation")) {
        const auto mut = mutation_named(*m);
        if (!mut) {
            args.fail("unknown mutation '" + printable(*m, 60) + "' (expected one of: " + mutation_list() + ")");
            return false;
        }
        ro.mutation = *mut;
    }
    return true;
}

CampaignSlice parse_campaign_slice(Args& args, std::uint64_t cases_max) {
    const auto seed = args.number("--seed");
    const auto cases = args.number("--cases");
    if (cases && (*cases == 0 || *cases > cases_max)) args.fail("--cases must lie in 1.." + std::to_string(cases_max));
    const auto first_case = args.number("--first-case", 0, std::numeric_limits<std::uint32_t>::max() - cases_max);
    CampaignSlice out;
    out.seed = seed.value_or(1);
    out.cases = static_cast<std::uint32_t>(cases.value_or(200));
    out.first_case = static_cast<std::uint32_t>(first_case.value_or(0));
    return out;
}

std::optional<std::filesystem::path> campaign_out_dir(const Args& args) {
    const std::filesystem::path out_dir = args.option("--out").value_or("counterexamples");
    if (const auto e = check_output_dir(out_dir)) {
        std::cerr << "deskcheck " << args.command() << ": --out " << e->message << "\n";
        return std::nullopt;
    }
    return out_dir;
}

}  // namespace deskcheck::cli
