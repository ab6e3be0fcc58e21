// R0 (SPEC R-1..R-7): the undo tool, the in-memory file system and its fault plan, the simulated
// windows per framework, the checks, the bench over corpus/r0/ and generated fixtures.
#include <boost/test/unit_test.hpp>

#include "model/undo.h"
#include "harness/r0_bench.h"
#include "harness/r0_campaign.h"
#include "harness/r0_check.h"
#include "sim/r0_world.h"
#include "tests/r0_support.h"

namespace {

using namespace deskcheck;
using namespace deskcheck::sim;

WorldState two_fields() {
    WorldState s;
    R0Window w;
    w.id = 1;
    w.framework = Framework::Wpf;
    w.bounds = Rect{0, 0, 800, 600};
    R0Control null_field;
    null_field.id = 11;
    R0Control empty_field;
    empty_field.id = 12;
    empty_field.value = "";
    w.controls = {null_field, empty_field};
    s.windows.push_back(w);
    return s;
}

TaskStep type(WindowId w, ElementId e, std::string text) {
    TaskStep t;
    t.op = StepOp::UiType;
    t.window = w;
    t.element = e;
    t.text = std::move(text);
    return t;
}

TaskStep write(std::string path, std::string bytes) {
    TaskStep t;
    t.op = StepOp::FileWrite;
    t.path = std::move(path);
    t.bytes = std::move(bytes);
    return t;
}

PostCheck fail_at(std::uint32_t k) {
    return [k](std::uint32_t step) -> std::optional<std::string> {
        if (step == k) return "injected";
        return std::nullopt;
    };
}

// Records how many world operations had happened when each line was appended.
struct WatchingJournal final : JournalSink {
    explicit WatchingJournal(const World& w) : world(w) {}
    bool append(const std::string& line) override {
        if (fail_on == lines.size() + 1) return false;
        lines.push_back(line);
        ops_at_append.push_back(world.ops());
        return true;
    }
    const World& world;
    std::vector<std::string> lines;
    std::vector<std::size_t> ops_at_append;
    std::size_t fail_on = 0;  // 1-based line that cannot be written; 0: none
};

}  // namespace

BOOST_AUTO_TEST_CASE(R3_null_and_empty_values_are_restored_as_read) {
    World world(two_fields(), {}, std::nullopt);
    MemoryJournal journal;
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    const TaskReport r = tool.run(Task{"t1", {type(1, 11, "a"), type(1, 12, "b")}, false}, fail_at(2));
    BOOST_TEST(!r.ok);
    BOOST_TEST(r.restored() == 2u);
    BOOST_TEST(!world.state().windows[0].controls[0].value.has_value());
    BOOST_TEST((world.state().windows[0].controls[1].value == std::optional<std::string>("")));
    BOOST_TEST(journal.lines().front().find("\"value\":null") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(R3_a_field_without_set_value_is_refused_before_anything_acts) {
    WorldState s = two_fields();
    s.windows[0].framework = Framework::Electron;
    s.fs["log.txt"] = FsEntry{false, "before"};
    World world(s, {}, std::nullopt);
    MemoryJournal journal;
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    const TaskReport r = tool.run(Task{"t1", {write("log.txt", "after"), type(1, 12, "x")}, false});
    BOOST_TEST(r.refused);
    BOOST_TEST(world.ops() == 0u);
    BOOST_TEST((world.state() == s));
    BOOST_REQUIRE(journal.lines().size() == 1u);
    BOOST_TEST(journal.lines()[0].find("\"status\":\"refused\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(R4_invoke_is_refused_unless_allowed_and_then_declared_not_undoable) {
    WorldState s = two_fields();
    R0Control button;
    button.id = 13;
    button.button = true;
    s.windows[0].controls.push_back(button);
    TaskStep invoke;
    invoke.op = StepOp::UiInvoke;
    invoke.window = 1;
    invoke.element = 13;
    {
        World world(s, {}, std::nullopt);
        MemoryJournal journal;
        UndoTool tool({&world.files(), &world.desktop(), &journal});
        BOOST_TEST(tool.run(Task{"t1", {type(1, 12, "x"), invoke}, false}).refused);
        BOOST_TEST((world.state() == s));
    }
    World world(s, {}, std::nullopt);
    MemoryJournal journal;
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    BOOST_TEST(tool.run(Task{"t2", {type(1, 12, "x"), invoke}, true}).ok);
    const TaskReport u = tool.undo("t2");
    BOOST_TEST(!u.ok);
    BOOST_TEST(u.not_undoable() == 1u);
    BOOST_TEST(u.restored() == 1u);
    BOOST_TEST(world.state().invoked.size() == 1u);
    BOOST_TEST((world.state().windows[0].controls[1].value == std::optional<std::string>("")));
}

BOOST_AUTO_TEST_CASE(R6_other_programs_files_and_existing_folders_survive_the_rollback) {
    WorldState s;
    s.fs["out"] = FsEntry{true, ""};
    // ops: make out/new (1), make out/new/deep (2), write (3); another program writes after op 2.
    World world(s, {OtherWrite{2, "out/new/theirs.txt", "theirs"}}, std::nullopt);
    MemoryJournal journal;
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    const TaskReport r = tool.run(Task{"t1", {write("out/new/deep/a.txt", "mine")}, false}, fail_at(1));
    BOOST_TEST(r.restored() == 1u);
    FsTree want = s.fs;
    want["out/new"] = FsEntry{true, ""};
    want["out/new/theirs.txt"] = FsEntry{false, "theirs"};
    BOOST_TEST((world.state().fs == want));
}

BOOST_AUTO_TEST_CASE(R7_the_journal_is_written_ahead_of_each_effect) {
    World world(WorldState{}, {}, std::nullopt);
    WatchingJournal journal(world);
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    BOOST_TEST(tool.run(Task{"t1", {write("a/b.txt", "1"), write("c.txt", "2")}, false}).ok);
    BOOST_REQUIRE(journal.lines.size() == 3u);   // two intents, then `done` (issue 14: recovery leaves a done task alone)
    BOOST_TEST(journal.ops_at_append[0] == 0u);  // before "make a", "write a/b.txt"
    BOOST_TEST(journal.ops_at_append[1] == 2u);  // before "write c.txt"
    BOOST_TEST(journal.lines[2].find("\"status\":\"done\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(R7_an_intent_line_that_cannot_be_written_stops_the_step_before_it_acts) {
    World world(WorldState{}, {}, std::nullopt);
    WatchingJournal journal(world);
    journal.fail_on = 2;
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    const TaskReport r = tool.run(Task{"t1", {write("a.txt", "1"), write("b.txt", "2")}, false});
    BOOST_TEST(!r.ok);
    BOOST_TEST((r.failed_step == std::optional<std::uint32_t>(2)));
    BOOST_TEST(world.state().fs.empty());
    for (const auto& op : world.truth().ops) BOOST_TEST(op.path != "b.txt");
}

BOOST_AUTO_TEST_CASE(R7_an_undo_that_fails_is_reported_and_never_counted_restored) {
    // ops: write a.txt (1), write b.txt (2); the post-check of step 2 fails; undo's first op (3) fails.
    World world(WorldState{}, {}, OpFault{3, OpFaultKind::PermissionDenied});
    MemoryJournal journal;
    UndoTool tool({&world.files(), &world.desktop(), &journal});
    const TaskReport r = tool.run(Task{"t1", {write("a.txt", "1"), write("b.txt", "2")}, false}, fail_at(2));
    BOOST_TEST(r.undo_failed() == 1u);
    BOOST_TEST(r.restored() == 1u);
    BOOST_TEST((r.steps[1].undo == UndoState::Failed));
    BOOST_TEST(world.state().fs.count("b.txt") == 1u);
    BOOST_TEST(journal.lines().back().find("\"status\":\"undone\"") != std::string::npos);
    BOOST_TEST(journal.lines()[journal.lines().size() - 2].find("\"status\":\"undo_failed\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(R7_memfs_fault_plan_fails_the_nth_operation_partial_write_keeps_half) {
    World world(WorldState{}, {}, OpFault{2, OpFaultKind::PartialWrite});
    BOOST_TEST(world.files().write("a.txt", "1234").ok());
    const auto r = world.files().write("b.txt", "abcdef");
    BOOST_TEST(!r.ok());
    BOOST_TEST((r.error == FsError::PartialWrite));
    BOOST_TEST(world.state().fs.at("b.txt").bytes == "abc");
    World denied(WorldState{}, {}, OpFault{1, OpFaultKind::PermissionDenied});
    BOOST_TEST((denied.files().make_folder("x").error == FsError::PermissionDenied));
    BOOST_TEST(denied.state().fs.empty());
}

BOOST_AUTO_TEST_CASE(R3_set_value_per_framework_value_pattern_fallback_or_none) {
    WorldState s;
    for (const Framework f : {Framework::Wpf, Framework::WinForms, Framework::Win32, Framework::Electron}) {
        R0Window w;
        w.id = static_cast<WindowId>(s.windows.size() + 1);
        w.framework = f;
        w.bounds = Rect{0, 0, 10, 10};
        w.controls.push_back(R0Control{1, false, std::nullopt, true, true});
        s.windows.push_back(w);
    }
    World world(s, {}, std::nullopt);
    Desktop& d = world.desktop();
    BOOST_TEST((d.value_writer(1, 1) == ValueWriter::ValuePattern));
    BOOST_TEST((d.value_writer(2, 1) == ValueWriter::ValuePattern));
    BOOST_TEST((d.value_writer(3, 1) == ValueWriter::KeyboardFallback));
    BOOST_TEST((d.value_writer(4, 1) == ValueWriter::None));
    BOOST_TEST((d.set_value(3, 1, std::string("x")) == DeliveryStatus::Rejected));
    BOOST_TEST((d.set_value(1, 1, std::string("x")) == DeliveryStatus::Delivered));
    BOOST_TEST(!d.read_value_state(4, 1).has_value());
    BOOST_TEST((d.read_geometry(4) == std::optional<Rect>(Rect{0, 0, 10, 10})));
}

BOOST_AUTO_TEST_CASE(R1_every_fixture_and_failure_point_leaves_nothing_under_deskcheck) {
    auto fixtures = r0::test::corpus_fixtures();
    BOOST_TEST(fixtures.size() >= 8u);
    for (auto& f : r0::generated_fixtures(1, 8)) fixtures.push_back(std::move(f));
    const r0::R0BenchResult b = r0::run_r0_bench("deskcheck", fixtures);
    for (const auto& row : b.rows) {
        if (!row.applicable) continue;  // nothing at stake: not counted (and bounded below)
        BOOST_TEST_CONTEXT(row.fixture << " " << row.point) {
            BOOST_TEST(row.pass);
            for (const auto& why : row.judgement.why) BOOST_TEST_MESSAGE(why);
        }
    }
    BOOST_TEST(b.figures.all_full());
    BOOST_TEST(b.figures.residue.of > 100u);
    BOOST_TEST(b.figures.not_applicable * 3 < b.rows.size());
    BOOST_TEST(b.figures.normal_undo.of >= 6u);
    BOOST_TEST(b.figures.irreversible_reported.of >= 1u);
    BOOST_TEST(b.figures.undo_failure_reported.of >= 5u);
}

// Found by the campaign's crash cases (r0 campaign --cases 200000, seeds 1, 2, 3): the rollback's
// undo of a step failed (no space), the task was killed before the rollback ended, and recovery
// undid a step depending on the failed one, journaling it `undone` while its folder stayed. The
// choice lists of the three shrunk cases; each is a crash case and must leave nothing.
BOOST_AUTO_TEST_CASE(R7_recovery_never_restores_on_top_of_an_undo_the_journal_records_failed) {
    const std::vector<std::vector<std::uint32_t>> found{
        {0, 0, 0, 5, 0, 2, 0, 0, 5, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 5, 0, 3, 12, 0},  // seed 1
        {0, 0, 0, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 3, 0, 0, 0, 0, 0, 0, 1, 5, 0, 3, 11, 0},              // seed 2
        {3, 0, 1, 0, 0, 0, 4, 5, 0, 5, 2, 0, 3, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 3, 8, 0},     // seed 3
    };
    for (const auto& choices : found) {
        const r0::R0CaseResult r = r0::run_r0_case(choices, nullptr);
        BOOST_TEST(r.crash.crashed);
        BOOST_TEST(r.point.at_operation);
        BOOST_TEST(!r.violation.has_value(), r.violation.value_or("") << " | " << r0::describe_case(r));
    }
}

BOOST_AUTO_TEST_CASE(R1_failure_leaves_nothing_smoke_campaign_on_a_fixed_seed) {
    const r0::R0CampaignResult r = r0::run_r0_campaign(20240601, 20'000, nullptr);
    BOOST_TEST(r.violations == 0u);
    BOOST_TEST(r.cases == 20'000u);
    BOOST_TEST(r.at_operation > 1000u);
    BOOST_TEST(r.with_others > 1000u);
    BOOST_TEST(r.null_values > 1000u);
    // One case in four is killed mid-task and recovered in process, half of those twice.
    BOOST_TEST(r.crashed > 4000u);
    BOOST_TEST(r.recovered > 1000u);
    BOOST_TEST(r.recovery_crashed > 1000u);
    if (r.shrunk) BOOST_TEST_MESSAGE(*r.shrunk->violation << ": " << r0::describe_case(*r.shrunk));
}
