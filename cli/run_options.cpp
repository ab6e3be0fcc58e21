#include "cli/run_options.h"

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
        if (find_rules(*r) == nullptr) {
            args.fail("unknown rule set '" + printable(*r, 60) + "' (expected published, current or observation)");
            return false;
        }
        rules_name = *r;
        ro.rules = find_rules(*r);
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

}  // namespace deskcheck::cli
