#pragma once

#include <string>
#include <vector>

namespace deskcheck::cli {

using Argv = std::vector<std::string>;

int cmd_rules(const Argv& args);
int cmd_diff_rules(const Argv& args);
int cmd_run(const Argv& args);
int cmd_replay(const Argv& args);
int cmd_shrink(const Argv& args);
int cmd_judge_snapshot(const Argv& args);
int cmd_mutate_rules(const Argv& args);
int cmd_r0(const Argv& args);
int cmd_claims(const Argv& args);
int cmd_case(const Argv& args);

}  // namespace deskcheck::cli
