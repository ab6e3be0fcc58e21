// The R0 bench: any tool behind an adapter, the same fixtures, a failure at
// every step (a failed post-check of step k), at every operation (no space, permission denied, a
// partial write, a UI failure), an undo that itself fails, and the normal path + undo.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/undo.h"
#include "harness/r0_check.h"
#include "sim/r0_world.h"

namespace deskcheck::r0 {

class R0Adapter {
public:
    virtual ~R0Adapter() = default;
    // Runs the fixture's steps on the world's ports; the post-check of step `fail_at` fails.
    virtual ApplyReport apply(sim::World& world, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at,
                              bool allow_irreversible) = 0;
    // Undoes the task the last apply finished.
    virtual ApplyReport undo(sim::World& world) = 0;
    // The journal lines of the tasks so far; nullopt when the tool keeps none.
    virtual std::optional<std::vector<std::string>> journal() const = 0;
    // The tool's own report of the last apply or undo, when the tool is model/undo.h in process.
    virtual std::optional<TaskReport> last_report() const { return std::nullopt; }
};

// "deskcheck": model/undo.h's UndoTool (with `policy`, default the tool's own); "naive": writes,
// never rolls back, keeps no journal. nullptr for another name.
std::unique_ptr<R0Adapter> make_adapter(const std::string& name, const UndoPolicy* policy = nullptr);
inline constexpr const char* adapter_names[] = {"deskcheck", "naive"};

enum class RowKind : std::uint8_t { Step, Operation, UndoFault, Normal };

struct R0Row {
    std::string fixture;
    RowKind kind = RowKind::Step;
    std::string point;  // "step 2", "op 3 no_space", "undo op 5", "normal + undo"
    std::size_t executed = 0;
    std::size_t rolled_back = 0;
    bool refused = false;
    R0Judgement judgement;
    std::string note;  // normal path: "irreversible: not undoable, said so"
    bool pass = false;
    bool has_irreversible = false;  // normal path: the fixture has a step that cannot be undone
    // false (not counted): a normal path that cannot finish here; a failure row where the run
    // neither refused nor changed anything before the failure (nothing was at stake)
    bool applicable = true;
};

struct Ratio {
    std::size_t ok = 0;
    std::size_t of = 0;
    bool full() const { return ok == of; }
};

struct R0Figures {
    Ratio residue, rollback, traceability;  // over step and operation rows
    Ratio normal_undo;                      // fixtures without irreversible steps: restored exactly
    Ratio irreversible_reported;            // fixtures with an allowed irreversible step: the undo says so
    Ratio undo_failure_reported;            // an undo that itself fails: reported, never counted restored
    std::size_t not_applicable = 0;         // rows not counted (see R0Row::applicable)
    bool all_full() const;
};

struct R0BenchResult {
    std::string adapter;
    std::vector<R0Row> rows;
    R0Figures figures;
    std::size_t fixtures_done = 0;
    bool interrupted = false;  // the stop request said stop: the rows of the fixtures done
};

// A stop request (the CLI's SIGINT/SIGTERM), looked at between fixtures, cases, rows; empty: never.
using StopRequest = std::function<bool()>;

// One run of the fixture with a failure injected (post-check of a step, or an operation fault).
R0Run run_once(R0Adapter& adapter, const sim::R0Fixture& f, std::optional<std::uint32_t> fail_at,
               std::optional<sim::OpFault> fault, bool allow_irreversible);
// The normal path, then undo (`fault`: an operation that fails, e.g. one of the undo's).
R0Run run_normal_then_undo(R0Adapter& adapter, const sim::R0Fixture& f, std::optional<sim::OpFault> fault = std::nullopt);

using AdapterFactory = std::unique_ptr<R0Adapter> (*)(const std::string& name, const UndoPolicy* policy);
R0BenchResult run_r0_bench(const std::string& adapter, const std::vector<sim::R0Fixture>& fixtures,
                           const UndoPolicy* policy = nullptr, const StopRequest& stop = {});

// The figures over rows (as run_r0_bench counts them), and an apply report from the tool's report.
R0Figures tally_rows(const std::vector<R0Row>& rows);
ApplyReport apply_report_of(const TaskReport& t);
// Did the run change anything before the failure, beyond folders another program's file needs?
bool at_stake(const R0Run& run);

// Runs of `count` generated fixtures (seeded) in every mode the campaign judges, each with the undo
// tool's own report: a failed post-check, a faulted operation, the normal path then undo, and the
// same with the undo's last operation failing. The runs point into `fixtures`.
struct R0Sample {
    std::vector<sim::R0Fixture> fixtures;
    std::vector<R0Run> runs;
    R0Sample() = default;
    R0Sample(const R0Sample&) = delete;  // the runs point into the fixtures
    R0Sample& operator=(const R0Sample&) = delete;
};
void sample_runs(std::uint64_t seed, std::size_t count, R0Sample& out);
// The property a run is judged by: undo_restores (normal path then undo) or failure_leaves_nothing.
std::optional<std::string> judge_run_property(const R0Run& run);
// The generated fixtures the bench adds to the files of corpus/r0/ (seeded, deterministic).
std::vector<sim::R0Fixture> generated_fixtures(std::uint64_t seed, std::size_t count);

}  // namespace deskcheck::r0
