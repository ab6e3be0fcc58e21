// Links at every point (SPEC R-9), the twin of crash at every point: for every file-only fixture,
// every step and every folder on the fixture's paths, that folder is swapped for a symbolic link to
// a sentinel tree outside the root
//   - before the step (the task then fails at its last step's post-check, so the rollback walks
//     the link too),
//   - between the step's journal line and its effect,
//   - before recovery, after the task was stopped right after the step's effect;
// and, before recovery, the workspace's files/ folder and its journal.jsonl are swapped too.
// Each point holds when the sentinel tree is byte for byte what it was (bytes, modes, tree), and,
// when the port refused an operation because its path crossed the link, the report names it: a
// step or an undo failed with crosses_a_symbolic_link (never "done" / "restored"), a recovery
// exits 1 naming it, or 2 before any change for a workspace that is not one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/files.h"
#include "sim/r0_world.h"

namespace deskcheck::r0 {

struct LinkPoint {
    std::string fixture;
    std::string when;    // "before step 2", "after the intent of step 2", "before recovery (stopped after step 2)"
    std::string folder;  // the folder swapped for a link ("files/" and "journal.jsonl" for the workspace)
    bool crossed = false;             // an operation met the link and was refused
    bool sentinel_untouched = false;  // the tree behind the link is byte for byte as before
    bool named = false;               // the refusal is in the report (or nothing was refused)
    std::string why;                  // what failed, when the point did not hold
    bool held() const { return sentinel_untouched && named; }
};

struct LinksResult {
    std::vector<LinkPoint> points;
    std::uint64_t crossed = 0;  // points where a later operation met the link
    std::uint64_t held = 0;
    std::string error;          // the bench itself could not run (a temporary folder)
    bool interrupted = false;
    bool pass() const { return error.empty() && !interrupted && !points.empty() && held == points.size(); }
};

// The files port the task runs on, and the refusals it made. Default: host::RealFiles. The tests
// pass a port that follows links (the landed port before R-9) and assert the bench catches it.
struct PortUnderTest {
    std::unique_ptr<Files> files;
    std::function<std::vector<std::string>()> refusals;
};
using MakePort = std::function<PortUnderTest(const std::string& root)>;

// `stop` (may be empty) is asked between points; true ends the run, marked interrupted.
// Recovery points always run `recover_workspace` (the real port).
LinksResult run_links_bench(const std::vector<sim::R0Fixture>& fixtures, const std::function<bool()>& stop = {},
                            const MakePort& make_port = {});

}  // namespace deskcheck::r0
