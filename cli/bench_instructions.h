#pragma once

#include <cstdint>
#include <string_view>

namespace deskcheck::cli {

// `deskcheck bench --instructions`: instructions per scenario of the bench population (and its
// split: the simulated desktop's setup, the run after it, the checks), each counted by callgrind in
// a child process as the difference of two passes (bench_instructions_pass at 2 rounds and at 1).
// Exit 5 when valgrind is missing or a pass fails; 130 / 143 when interrupted.
int bench_instructions(bool json, std::uint32_t cases);

// What runs under callgrind: the bench population of `cases`, then `rounds` times the phase's work
// over it ("build": sim::Sim set up; "run": run_scenario; "all": run_scenario and the checks).
int bench_instructions_pass(std::string_view phase, std::uint32_t rounds, std::uint32_t cases);

}  // namespace deskcheck::cli
