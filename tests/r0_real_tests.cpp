// R0 on real folders (SPEC; issue 14): the fixtures on fresh temporary folders, real-disk
// faults, a crash (SIGKILL) at a seeded point and recovery in a fresh process, and tools measured
// through a process boundary — the naive one must score 0 % and a broken one must be reported
// within its timeout. Judged from the real folders' bytes, modes and trees.
#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>

#include "harness/r0_real.h"
#include "tests/r0_real_support.h"

namespace {

using namespace deskcheck;
using namespace deskcheck::r0;

using test::file_fixtures;

std::string deskcheck_bin() {
    const char* bin = std::getenv("DESKCHECK_BIN");
    return bin != nullptr ? bin : "";
}

bool has_row(const RealBenchResult& r, const std::string& fixture, const std::string& point_part) {
    for (const auto& row : r.rows) {
        if (row.fixture == fixture && row.point.find(point_part) != std::string::npos && row.pass) return true;
    }
    return false;
}

}  // namespace


BOOST_AUTO_TEST_CASE(R7_real_folders_fixtures_leave_nothing_byte_mode_and_tree) {
    const auto fixtures = file_fixtures();
    BOOST_REQUIRE_EQUAL(fixtures.size(), 6u);
    const RealBenchResult r = run_real_bench("", fixtures);
    BOOST_REQUIRE(r.error.empty());
    BOOST_TEST(r.figures.residue.of >= 30u);
    BOOST_TEST(r.figures.residue.full());
    BOOST_TEST(r.figures.rollback.full());
    BOOST_TEST(r.figures.traceability.full());
    BOOST_TEST(r.figures.normal_undo.ok == r.figures.normal_undo.of);
    BOOST_TEST(r.figures.normal_undo.of == 6u);
}

BOOST_AUTO_TEST_CASE(R7_disk_faults_are_rows_no_space_journal_full_folder_in_the_way_name_too_long) {
    const RealBenchResult r = run_real_bench("", file_fixtures());
    BOOST_REQUIRE(r.error.empty());
    BOOST_TEST(has_row(r, "disk-file-replaced-by-folder", "the disk refuses step 2"));
    BOOST_TEST(has_row(r, "disk-name-too-long", "the disk refuses step 2"));
    BOOST_TEST(has_row(r, "overwrite-and-move", "ENOSPC"));
    // The journal's own disk full half-way through an intent line: the step does not act, the torn
    // line is cut back (else the next line would join it and traceability would fail).
    BOOST_TEST(has_row(r, "explicit-nested-writes", "journal line 3 ENOSPC"));
}

BOOST_AUTO_TEST_CASE(R7_a_torn_last_journal_line_is_ignored) {
    std::string error;
    const std::string dir = host::make_temp_folder("deskcheck-r0-test", error);
    BOOST_REQUIRE(!dir.empty());
    {
        std::ofstream out(dir + "/j.jsonl", std::ios::binary);
        out << "{\"a\":1}\n{\"b\":2}\n{\"tor";
    }
    const auto lines = host::read_journal_lines(dir + "/j.jsonl");
    BOOST_REQUIRE(lines.has_value());
    BOOST_TEST(lines->size() == 2u);
    BOOST_TEST(host::remove_tree(dir));
}

// Issue 14, done-when: a task killed at a random (seeded) point, recovered in a fresh process
// (deskcheck r0 recover, itself killed once, then run again), leaves the folder as before.
BOOST_AUTO_TEST_CASE(R7_task_killed_at_a_seeded_point_then_recovered_leaves_the_folder_as_before) {
    const std::string bin = deskcheck_bin();
    BOOST_REQUIRE_MESSAGE(!bin.empty(), "DESKCHECK_BIN is not set");
    const std::uint64_t seed = 20261130;
    const CrashResult c = run_crash_bench(file_fixtures(), bin, seed);
    BOOST_REQUIRE_MESSAGE(c.error.empty(), c.error);
    BOOST_TEST(c.crash_points == c.rows.size());  // one per (fixture, mode)
    BOOST_TEST(c.crash_points >= 15u);
    for (const auto& row : c.rows) BOOST_TEST_MESSAGE(row.fixture << " / " << row.mode << ": " << (row.failures.empty() ? "ok" : row.failures.front()));
    BOOST_TEST(c.pass());
}

// The harness can fail: a "recovery" that does nothing leaves residue at some crash point.
BOOST_AUTO_TEST_CASE(R7_crash_harness_catches_a_recovery_that_does_nothing) {
    std::vector<sim::R0Fixture> one;
    for (auto& f : file_fixtures()) {
        if (f.name == "overwrite-and-move") one.push_back(f);
    }
    BOOST_REQUIRE_EQUAL(one.size(), 1u);
    const CrashResult c = run_crash_bench(one, "/bin/true");
    BOOST_REQUIRE(c.error.empty());
    BOOST_TEST(c.crash_points >= 20u);
    BOOST_TEST(!c.pass());
    BOOST_TEST(c.restored < c.crash_points);
}

BOOST_AUTO_TEST_CASE(R8_naive_adapter_through_a_process_boundary_scores_zero) {
    const RealBenchResult r = run_real_bench("python3 tools/r0-adapter-naive.py", file_fixtures());
    BOOST_REQUIRE_MESSAGE(r.error.empty(), r.error);
    BOOST_TEST(r.figures.residue.of > 0u);
    BOOST_TEST(r.figures.residue.ok == 0u);
    BOOST_TEST(r.figures.rollback.ok == 0u);
    BOOST_TEST(r.figures.traceability.ok == 0u);
    BOOST_TEST(r.figures.normal_undo.ok == 0u);
    BOOST_TEST(!r.figures.all_full());
}

BOOST_AUTO_TEST_CASE(R8_deskcheck_r0_adapter_cmd_naive_exits_1) {
    const std::string bin = deskcheck_bin();
    BOOST_REQUIRE(!bin.empty());
    const int status = std::system((bin + " r0 --adapter-cmd 'python3 tools/r0-adapter-naive.py' >/dev/null").c_str());
    BOOST_REQUIRE(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 1);
}

BOOST_AUTO_TEST_CASE(R8_the_tool_served_through_the_protocol_passes) {
    const std::string bin = deskcheck_bin();
    BOOST_REQUIRE(!bin.empty());
    const RealBenchResult r = run_real_bench(bin + " r0 serve", file_fixtures());
    BOOST_REQUIRE_MESSAGE(r.error.empty(), r.error);
    BOOST_TEST(r.figures.residue.of > 0u);
    BOOST_TEST(r.figures.all_full());
}

BOOST_AUTO_TEST_CASE(R8_an_adapter_answering_bad_json_is_reported_naming_it_and_the_request) {
    const RealBenchResult r = run_real_bench("read line; echo 'this is not json'; sleep 30", file_fixtures(), 2000);
    BOOST_TEST_MESSAGE(r.error);
    BOOST_TEST(r.error.find("adapter `read line;") != std::string::npos);
    BOOST_TEST(r.error.find("\"op\":\"apply\"") != std::string::npos);
    BOOST_TEST(r.error.find("not a JSON object: this is not json") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(R8_a_hanging_adapter_is_killed_at_its_timeout_never_a_hang) {
    const auto start = std::chrono::steady_clock::now();  // wall clock: only to bound the timeout itself
    const RealBenchResult r = run_real_bench("sleep 30", file_fixtures(), 500);
    const auto took = std::chrono::steady_clock::now() - start;
    BOOST_TEST_MESSAGE(r.error);
    BOOST_TEST(r.error.find("adapter `sleep 30`") != std::string::npos);
    BOOST_TEST(r.error.find("no answer within 500 ms") != std::string::npos);
    BOOST_TEST(took < std::chrono::seconds(10));
}

BOOST_AUTO_TEST_CASE(R8_an_adapter_that_exits_is_reported) {
    const RealBenchResult r = run_real_bench("exit 3", file_fixtures(), 2000);
    BOOST_TEST(r.error.find("adapter `exit 3`") != std::string::npos);
    const bool said_so = r.error.find("without answering") != std::string::npos || r.error.find("closed its stdin") != std::string::npos;
    BOOST_TEST(said_so);
}


// A stop request (the CLI's SIGINT/SIGTERM) ends the bench at the next row: the rows so far,
// marked interrupted, no error; the same for the crash harness at the next crash point.
BOOST_AUTO_TEST_CASE(R7_a_stop_request_ends_the_real_bench_with_the_rows_so_far) {
    int asked = 0;
    const RealBenchResult r = run_real_bench("", file_fixtures(), adapter_timeout_ms_default, [&] { return ++asked > 3; });
    BOOST_TEST(r.error.empty());
    BOOST_TEST(r.interrupted);
    BOOST_TEST(r.rows.size() == 3u);
    BOOST_TEST(r.fixtures_run < r.fixtures_planned);
}

BOOST_AUTO_TEST_CASE(R7_a_stop_request_ends_the_crash_bench_with_the_points_so_far) {
    int asked = 0;
    const CrashResult c = run_crash_bench(file_fixtures(), "", std::nullopt, [&] { return ++asked > 5; });
    BOOST_TEST(c.error.empty());
    BOOST_TEST(c.interrupted);
    BOOST_TEST(!c.pass());
    BOOST_TEST(c.crash_points >= 1u);
    BOOST_TEST(c.crash_points <= 5u);
}

// The adapter's requests carry ids; an adapter that echoes a wrong one is a protocol error.
BOOST_AUTO_TEST_CASE(R8_an_answer_with_a_wrong_id_is_a_protocol_error) {
    const RealBenchResult r = run_real_bench("read line; echo '{\"id\":7,\"executed\":[],\"rolled_back\":[]}'; sleep 30", file_fixtures(), 2000);
    BOOST_TEST_MESSAGE(r.error);
    BOOST_TEST(r.error.find("request {\"id\":1,\"op\":\"apply\"") != std::string::npos);
    BOOST_TEST(r.error.find("protocol error: the answer carries \"id\" 7, not the request's 1") != std::string::npos);
}
