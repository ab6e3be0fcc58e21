// R-7 under power loss: the durability protocol as data (model/durability.h), the disk model under
// the in-memory file system (sim/memfs.h), the power cut at every primitive (harness/r0_power.h)
// and its negative proof: the protocol without any one of its fsyncs fails the power-cut run.
#include <boost/test/unit_test.hpp>

#include <iostream>
#include <set>

#include "model/durability.h"
#include "model/undo.h"
#include "harness/r0_bench.h"
#include "harness/r0_power.h"
#include "sim/memfs.h"
#include "tests/r0_support.h"

namespace {

using namespace deskcheck;
using namespace deskcheck::sim;

constexpr std::uint64_t sample_seed = 7;

// The corpus and a few generated fixtures: the fixed-seed sample of the power-cut run.
std::vector<R0Fixture> sample_fixtures() {
    std::vector<R0Fixture> out = r0::test::corpus_fixtures();
    for (auto& f : r0::generated_fixtures(sample_seed, 4)) out.push_back(std::move(f));
    return out;
}

std::vector<Fate> all(std::size_t n, Fate f) { return std::vector<Fate>(n, f); }

}  // namespace

BOOST_AUTO_TEST_CASE(R7_durability_plan_is_stated_once_per_operation) {
    // The plans a real port must issue, in order (what the recording test compares a port with).
    const auto names = [](PortOp op) {
        std::string s;
        for (const Primitive p : durability_plan(op)) s += (s.empty() ? "" : " ") + std::string(to_string(p));
        return s;
    };
    BOOST_TEST(names(PortOp::Write) == "open_truncate write fsync_file fsync_parent");
    BOOST_TEST(names(PortOp::MakeFolder) == "mkdir fsync_parent");
    BOOST_TEST(names(PortOp::Move) == "rename fsync_parent fsync_old_parent");
    BOOST_TEST(names(PortOp::Remove) == "remove fsync_parent");
    BOOST_TEST(names(PortOp::JournalCreate) == "open_append fsync_parent");
    BOOST_TEST(names(PortOp::JournalOpen) == "open_append cut_torn_tail");
    BOOST_TEST(names(PortOp::JournalAppend) == "write fsync_file");
    std::set<std::string_view> seen;
    for (std::size_t i = 0; i < primitive_count; ++i) seen.insert(to_string(static_cast<Primitive>(i)));
    BOOST_TEST(seen.size() == primitive_count);  // one name each
    BOOST_TEST(seen.count("?") == 0u);
    const DurabilityPlans plans;
    BOOST_TEST(plans.has(PortOp::Move, Primitive::FsyncOldParent));
    const DurabilityPlans without = plans.without(PortOp::Move, 2);
    BOOST_TEST(!without.has(PortOp::Move, Primitive::FsyncOldParent));
    BOOST_TEST(without.plan(PortOp::Move).size() == 2u);
    BOOST_TEST(plans.plan(PortOp::Move).size() == 3u);  // the original is untouched
}

BOOST_AUTO_TEST_CASE(R7_disk_keeps_only_what_an_fsync_made_durable) {
    Disk d({{"docs", FsEntry{true, ""}}, {"docs/a.txt", FsEntry{false, "old"}}}, std::nullopt);
    BOOST_TEST(d.volatile_changes().empty());
    // A new file: its entry and its data are volatile.
    d.open("files/docs/b.txt", true);
    d.write("files/docs/b.txt", "new bytes");
    auto changes = d.volatile_changes();
    BOOST_TEST_REQUIRE(changes.size() == 2u);
    BOOST_TEST(!changes[0].data);
    BOOST_TEST(changes[1].data);
    BOOST_TEST(d.survive(all(2, Fate::Lost)).files.count("docs/b.txt") == 0u);
    BOOST_TEST(d.survive({Fate::Kept, Fate::Lost}).files.at("docs/b.txt").bytes == "");  // the entry without the data
    BOOST_TEST(d.survive({Fate::Kept, Fate::Torn}).files.at("docs/b.txt").bytes == "new ");
    BOOST_TEST(d.survive({Fate::Kept, Fate::Kept}).files.at("docs/b.txt").bytes == "new bytes");
    // fsync of the file makes its data durable, not its entry.
    d.fsync("files/docs/b.txt");
    changes = d.volatile_changes();
    BOOST_TEST_REQUIRE(changes.size() == 1u);
    BOOST_TEST(d.survive({Fate::Lost}).files.count("docs/b.txt") == 0u);
    d.fsync("files/docs");
    BOOST_TEST(d.volatile_changes().empty());
    // An overwrite (O_TRUNC) not yet fsynced may come back old, empty-ish (torn) or new.
    d.open("files/docs/a.txt", true);
    d.write("files/docs/a.txt", "0123");
    BOOST_TEST(d.survive({Fate::Lost}).files.at("docs/a.txt").bytes == "old");
    BOOST_TEST(d.survive({Fate::Torn}).files.at("docs/a.txt").bytes == "01");
    // A removal not fsynced may be lost: the file comes back.
    d.fsync("files/docs/a.txt");
    d.remove("files/docs/a.txt");
    BOOST_TEST(d.survive({Fate::Lost}).files.at("docs/a.txt").bytes == "0123");
    BOOST_TEST(d.survive({Fate::Kept}).files.count("docs/a.txt") == 0u);
}

BOOST_AUTO_TEST_CASE(R7_disk_rename_is_atomic_and_durable_once_both_folders_are_fsynced) {
    Disk d({{"a", FsEntry{true, ""}}, {"b", FsEntry{true, ""}}, {"a/x", FsEntry{false, "x"}}}, std::nullopt);
    d.rename("files/a/x", "files/b/x");
    auto changes = d.volatile_changes();
    BOOST_TEST_REQUIRE(changes.size() == 1u);  // one change: never in both places, never in neither
    const auto lost = d.survive({Fate::Lost}).files;
    BOOST_TEST((lost.count("a/x") == 1u && lost.count("b/x") == 0u));
    const auto kept = d.survive({Fate::Kept}).files;
    BOOST_TEST((kept.count("a/x") == 0u && kept.count("b/x") == 1u));
    d.fsync("files/b");
    BOOST_TEST(d.volatile_changes().size() == 1u);  // one folder fsynced: still volatile
    d.fsync("files/b");
    BOOST_TEST(d.volatile_changes().size() == 1u);  // the same folder again does not count twice
    d.fsync("files/a");
    BOOST_TEST(d.volatile_changes().empty());
    // A new folder's entry is its parent's: a file fsynced inside a folder whose entry is lost is gone.
    d.make_folder("files/b/new");
    d.fsync("files/b/new");
    d.open("files/b/new/f", true);
    d.fsync("files/b/new/f");
    d.fsync("files/b/new");
    BOOST_TEST_REQUIRE(d.volatile_changes().size() == 1u);
    BOOST_TEST(d.survive({Fate::Lost}).files.count("b/new/f") == 0u);
}

BOOST_AUTO_TEST_CASE(R7_journal_on_disk_tears_and_is_cut_back_when_opened) {
    PowerDisk power(Disk({}, std::nullopt), DurabilityPlans{}, 0);
    {
        DiskJournal j(power);
        j.append("{\"a\":1}");
        j.append("{\"b\":2}");
    }
    // The journal_create plan, then two journal_append plans.
    std::vector<std::string> issued;
    for (const Primitive p : power.issued()) issued.emplace_back(to_string(p));
    BOOST_TEST(issued == (std::vector<std::string>{"open_append", "fsync_parent", "write", "fsync_file", "write", "fsync_file"}),
               boost::test_tools::per_element());
    BOOST_TEST(power.disk().volatile_changes().empty());
    // A torn third line: not a line; the next open cuts it back before appending.
    power.disk().write(disk_journal, "{\"c\":");
    BOOST_TEST(journal_lines(*power.disk().read(disk_journal)).size() == 2u);
    DiskJournal reopened(power);
    reopened.append("{\"d\":4}");
    BOOST_TEST(journal_lines(*power.disk().read(disk_journal)) == (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"d\":4}"}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(R7_memfs_runs_each_operation_as_its_plan) {
    // A write and a move through the files port issue exactly their plans' primitives, and the
    // disk's cached view is the tree the port shows.
    WorldState s;
    s.fs["a"] = FsEntry{true, ""};
    World world(s, {}, std::nullopt);
    PowerDisk power(Disk(world.state().fs, std::nullopt), DurabilityPlans{}, 0);
    world.set_power(&power);
    BOOST_TEST(world.files().make_folder("b").ok());
    BOOST_TEST(world.files().write("a/x.txt", "hello").ok());
    BOOST_TEST(world.files().move("a/x.txt", "b/x.txt").ok());
    BOOST_TEST(world.files().remove("b/x.txt").ok());
    std::string issued;
    for (const Primitive p : power.issued()) issued += std::string(to_string(p)) + " ";
    BOOST_TEST(issued ==
               "mkdir fsync_parent open_truncate write fsync_file fsync_parent rename fsync_parent fsync_old_parent remove fsync_parent ");
    BOOST_TEST(power.disk().cached().files == world.state().fs);
    BOOST_TEST(power.disk().volatile_changes().empty());
    world.set_power(nullptr);
}

BOOST_AUTO_TEST_CASE(R7_power_cut_at_every_point_holds_on_a_fixed_sample) {
    const r0::PowerResult r = r0::run_power_bench(sample_fixtures(), sample_seed);
    for (const auto& row : r.rows) {
        for (const auto& f : row.failures) BOOST_TEST_MESSAGE(row.fixture << ": " << f);
    }
    BOOST_TEST(r.pass());
    BOOST_TEST(r.cut_points > 1000u);
    BOOST_TEST(r.survivals > r.cut_points);  // most cuts leave something volatile
    BOOST_TEST(r.recovery_cuts > 0u);
    BOOST_TEST(r.drawn == 0u);  // the protocol leaves few volatile changes: every combination was judged
    // A pure function of its seed.
    const r0::PowerResult again = r0::run_power_bench(sample_fixtures(), sample_seed);
    BOOST_TEST(again.survivals == r.survivals);
    BOOST_TEST(again.recovery_cuts == r.recovery_cuts);
}

// The negative proof: the protocol with any one of its fsyncs left out fails the power-cut run.
BOOST_AUTO_TEST_CASE(R7_power_cut_fails_without_any_one_fsync_of_the_protocol) {
    const std::vector<R0Fixture> fixtures = sample_fixtures();
    std::size_t removed = 0;
    for (const PortOp op : all_port_ops) {
        const auto plan = durability_plan(op);
        for (std::size_t i = 0; i < plan.size(); ++i) {
            if (!is_fsync(plan[i])) continue;
            ++removed;
            const r0::PowerResult r = r0::run_power_bench(fixtures, sample_seed, DurabilityPlans{}.without(op, i));
            std::string first, first_rolled_back;
            std::size_t finished = 0, rolled_back = 0;  // failing rows: the task finishing, a failed task
            for (const auto& row : r.rows) {
                if (row.failures.empty()) continue;
                (row.run == "finished" ? finished : rolled_back) += 1;
                if (first.empty()) first = row.fixture + ": " + row.failures.front();
                if (first_rolled_back.empty() && row.run != "finished") first_rolled_back = row.fixture + ": " + row.failures.front();
            }
            BOOST_TEST(!r.pass(), "without " << to_string(op) << "." << to_string(plan[i]) << " the power-cut run still passes");
            std::cout << "without " << to_string(op) << "." << to_string(plan[i]) << ": " << r.cut_points - r.held << " of " << r.cut_points
                      << " cut points fail, in " << finished << " finished and " << rolled_back << " failed-task rows; first: " << first
                      << "\n  first of a failed task: " << first_rolled_back << "\n";
        }
    }
    BOOST_TEST(removed == 8u);
}

// The journal_open plan's cut_torn_tail is needed too: without it the line recovery appends after a
// line the power cut tore is glued to it, and the journal no longer reads back.
BOOST_AUTO_TEST_CASE(R7_power_cut_fails_without_cutting_a_torn_journal_tail) {
    const r0::PowerResult r = r0::run_power_bench(sample_fixtures(), sample_seed, DurabilityPlans{}.without(PortOp::JournalOpen, 1));
    BOOST_TEST(!r.pass());
}
