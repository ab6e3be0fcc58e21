// A fixed, deterministic catalogue of verdict situations (action x before x after x timing),
// used by `deskcheck diff-rules` to show exactly which situations change verdict between rule sets.
#pragma once

#include <string>
#include <vector>

#include "model/verdict.h"

namespace deskcheck::cli {

struct CatalogueSituation {
    std::string label;
    ActionFacts action;
    Snapshot before;
    Snapshot after;
    bool settled = true;
};

std::vector<CatalogueSituation> situation_catalogue();

}  // namespace deskcheck::cli
