// Nothing outside the root (SPEC R-9): the real-folder port never follows a symbolic link nor
// opens a special file, the root must be a folder, and links at every point of every corpus
// fixture leave the tree behind the link untouched with every refusal reported. The negative
// proof: a port that resolves paths through the kernel (the port before R-9) fails the bench.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <dirent.h>
#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "host/real_files.h"
#include "model/durability.h"
#include "model/undo.h"
#include "harness/r0_links.h"
#include "harness/r0_real.h"
#include "tests/r0_real_support.h"

namespace {

using namespace deskcheck;
using namespace deskcheck::r0;

using test::file_fixtures;

// A scratch folder: root/ (the port's root), outside/ (what a followed link would reach).
struct Scratch {
    std::string dir;
    Scratch() {
        std::string error;
        dir = host::make_temp_folder("deskcheck-r9-test", error);
        BOOST_REQUIRE_MESSAGE(!dir.empty(), error);
        BOOST_REQUIRE(::mkdir((dir + "/root").c_str(), 0755) == 0);
    }
    ~Scratch() { host::remove_tree(dir); }
    std::string root() const { return dir + "/root"; }
    std::string outside() const { return dir + "/outside"; }
};

host::RealTree tree(const std::string& dir) {
    std::string error;
    const auto t = host::snapshot_tree(dir, error);
    BOOST_REQUIRE_MESSAGE(t.has_value(), error);
    return *t;
}

void outside_tree(const Scratch& s) {
    std::string error;
    ::mkdir(s.outside().c_str(), 0755);
    BOOST_REQUIRE_MESSAGE(host::populate(s.outside(), {{"a.txt", {false, "outside a\n"}}, {"deep", {true, ""}}, {"deep/b.txt", {false, "outside b\n"}}}, error),
                          error);
}

// The port before R-9: every path joined under the root and resolved by the kernel, links followed.
class FollowingFiles final : public Files {
public:
    explicit FollowingFiles(std::string root) : root_(std::move(root)) {}
    FsResult<std::string> read(std::string_view path) override {
        std::ifstream in(full(path), std::ios::binary);
        if (!in) return FsResult<std::string>::bad(FsError::NotFound);
        return FsResult<std::string>::good(std::string(std::istreambuf_iterator<char>(in), {}));
    }
    FsResult<FsDone> write(std::string_view path, std::string_view bytes) override {
        std::ofstream out(full(path), std::ios::binary | std::ios::trunc);
        if (!out) return FsResult<FsDone>::bad(errno == EISDIR ? FsError::IsAFolder : FsError::NotFound);
        out << bytes;
        return FsResult<FsDone>::good({});
    }
    FsResult<FsDone> make_folder(std::string_view path) override { return result(::mkdir(full(path).c_str(), 0755)); }
    FsResult<FsDone> move(std::string_view from, std::string_view to) override {
        struct stat st {};
        if (::stat(full(to).c_str(), &st) == 0) return FsResult<FsDone>::bad(FsError::AlreadyExists);
        return result(::rename(full(from).c_str(), full(to).c_str()));
    }
    FsResult<FsDone> remove(std::string_view path) override {
        struct stat st {};
        if (::stat(full(path).c_str(), &st) != 0) return FsResult<FsDone>::bad(FsError::NotFound);
        return result(S_ISDIR(st.st_mode) ? ::rmdir(full(path).c_str()) : ::unlink(full(path).c_str()));
    }
    FsResult<std::vector<std::string>> list(std::string_view path) override {
        DIR* d = ::opendir(full(path).c_str());
        if (d == nullptr) return FsResult<std::vector<std::string>>::bad(host::fs_error_from_errno(errno));
        std::vector<std::string> names;
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..") names.push_back(name);
        }
        ::closedir(d);
        std::sort(names.begin(), names.end());
        return FsResult<std::vector<std::string>>::good(names);
    }
    FsResult<FsStat> stat(std::string_view path) override {
        struct stat st {};
        if (::stat(full(path).c_str(), &st) != 0) return FsResult<FsStat>::bad(host::fs_error_from_errno(errno));
        return FsResult<FsStat>::good(FsStat{S_ISDIR(st.st_mode), S_ISDIR(st.st_mode) ? 0 : static_cast<std::uint64_t>(st.st_size)});
    }

private:
    std::string full(std::string_view path) const { return root_ + "/" + std::string(path); }
    static FsResult<FsDone> result(int rc) {
        return rc == 0 ? FsResult<FsDone>::good({}) : FsResult<FsDone>::bad(host::fs_error_from_errno(errno));
    }
    std::string root_;
};

}  // namespace


BOOST_AUTO_TEST_CASE(R9_every_operation_refuses_a_link_on_its_path_and_the_outside_is_untouched) {
    Scratch s;
    outside_tree(s);
    BOOST_REQUIRE(::symlink(s.outside().c_str(), (s.root() + "/out").c_str()) == 0);
    const host::RealTree before = tree(s.outside());
    host::RealFiles files(s.root());
    BOOST_REQUIRE(files.ok());
    BOOST_TEST((files.read("out/a.txt").error == FsError::CrossesLink));
    BOOST_TEST((files.write("out/a.txt", "x").error == FsError::CrossesLink));
    BOOST_TEST((files.write("out/new.txt", "x").error == FsError::CrossesLink));
    BOOST_TEST((files.make_folder("out/new").error == FsError::CrossesLink));
    BOOST_TEST((files.move("out/a.txt", "a.txt").error == FsError::CrossesLink));
    BOOST_TEST((files.remove("out/deep/b.txt").error == FsError::CrossesLink));
    BOOST_TEST((files.remove("out").error == FsError::CrossesLink));
    BOOST_TEST((files.list("out").error == FsError::CrossesLink));
    BOOST_TEST((files.stat("out").error == FsError::CrossesLink));
    BOOST_TEST((files.stat("out/deep").error == FsError::CrossesLink));
    BOOST_TEST((tree(s.outside()) == before));
    BOOST_REQUIRE(!files.refusals().empty());
    BOOST_TEST(files.refusals().front() == "read out/a.txt: path crosses a symbolic link: out/");
    // A link deeper down is named by the components up to it.
    BOOST_REQUIRE(::unlink((s.root() + "/out").c_str()) == 0);
    BOOST_REQUIRE(files.make_folder("out").ok());
    BOOST_REQUIRE(::symlink(s.outside().c_str(), (s.root() + "/out/in").c_str()) == 0);
    BOOST_TEST((files.write("out/in/deep/b.txt", "x").error == FsError::CrossesLink));
    BOOST_TEST(files.refusals().back() == "write out/in/deep/b.txt: path crosses a symbolic link: out/in/");
    BOOST_TEST((tree(s.outside()) == before));
}

BOOST_AUTO_TEST_CASE(R9_a_link_or_a_special_file_as_the_last_component_is_refused) {
    Scratch s;
    outside_tree(s);
    BOOST_REQUIRE(::symlink((s.outside() + "/a.txt").c_str(), (s.root() + "/a.txt").c_str()) == 0);
    BOOST_REQUIRE(::mkfifo((s.root() + "/fifo").c_str(), 0644) == 0);
    const host::RealTree before = tree(s.outside());
    host::RealFiles files(s.root());
    BOOST_TEST((files.read("a.txt").error == FsError::CrossesLink));
    BOOST_TEST((files.write("a.txt", "x").error == FsError::CrossesLink));
    BOOST_TEST((files.remove("a.txt").error == FsError::CrossesLink));
    BOOST_TEST((files.move("a.txt", "b.txt").error == FsError::CrossesLink));
    BOOST_TEST((files.stat("a.txt").error == FsError::CrossesLink));
    // A FIFO is never opened for writing nor waited on.
    BOOST_TEST((files.write("fifo", "x").error == FsError::NotRegular));
    BOOST_TEST((files.read("fifo").error == FsError::NotRegular));
    BOOST_TEST((files.remove("fifo").error == FsError::NotRegular));
    // A hard link to a file outside the root is never written through.
    BOOST_REQUIRE(::link((s.outside() + "/deep/b.txt").c_str(), (s.root() + "/hard.txt").c_str()) == 0);
    BOOST_TEST((files.write("hard.txt", "x").error == FsError::NotRegular));
    // A move never replaces what is at its destination, a link included.
    BOOST_REQUIRE(files.write("c.txt", "c").ok());
    BOOST_TEST((files.move("c.txt", "a.txt").error == FsError::AlreadyExists));
    BOOST_TEST((tree(s.outside()) == before));
    struct stat st {};
    BOOST_TEST((::lstat((s.root() + "/fifo").c_str(), &st) == 0 && S_ISFIFO(st.st_mode)));
}

BOOST_AUTO_TEST_CASE(R9_a_root_that_is_a_link_or_not_a_folder_is_refused_before_anything) {
    Scratch s;
    outside_tree(s);
    const std::string link = s.dir + "/root-link";
    BOOST_REQUIRE(::symlink(s.outside().c_str(), link.c_str()) == 0);
    const host::RealTree before = tree(s.outside());
    host::RealFiles through_link(link);
    BOOST_TEST(!through_link.ok());
    BOOST_TEST(through_link.error() == link + ": is a symbolic link");
    BOOST_TEST((through_link.write("new.txt", "x").error == FsError::BadPath));
    BOOST_TEST((through_link.remove("a.txt").error == FsError::BadPath));
    host::RealFiles missing(s.dir + "/missing");
    BOOST_TEST(!missing.ok());
    BOOST_TEST(missing.error() == s.dir + "/missing: no such folder");
    host::FileJournal journal(s.dir + "/root-link");
    BOOST_TEST(!journal.ok());
    BOOST_TEST((tree(s.outside()) == before));
}

BOOST_AUTO_TEST_CASE(R9_links_at_every_point_hold_on_the_corpus_fixtures) {
    const LinksResult r = run_links_bench(file_fixtures());
    BOOST_REQUIRE_MESSAGE(r.error.empty(), r.error);
    for (const auto& p : r.points) {
        if (!p.held()) BOOST_TEST_MESSAGE(p.fixture << " / " << p.when << " / " << p.folder << ": " << p.why);
    }
    BOOST_TEST(r.points.size() >= 40u);
    BOOST_TEST(r.crossed >= r.points.size() / 2);  // the points mostly put the link where the run goes
    BOOST_TEST(r.held == r.points.size());
    BOOST_TEST(r.pass());
}

// Negative proof: the port before R-9 (paths resolved through the kernel) changes the tree behind
// the link, and the bench says where.
BOOST_AUTO_TEST_CASE(R9_the_links_bench_catches_a_port_that_follows_links) {
    const MakePort following = [](const std::string& root) {
        return PortUnderTest{std::make_unique<FollowingFiles>(root), [] { return std::vector<std::string>{}; }};
    };
    const LinksResult r = run_links_bench(file_fixtures(), {}, following);
    BOOST_REQUIRE_MESSAGE(r.error.empty(), r.error);
    BOOST_TEST(!r.pass());
    std::size_t changed_outside = 0;
    for (const auto& p : r.points) changed_outside += !p.sentinel_untouched;
    BOOST_TEST(changed_outside > 0u);
}

// Negative proof of the other way: the real port, which refuses every link, with its list of
// refusals kept from the bench. Whether an operation met the link is the bench's own finding (the
// calls beneath the swapped folder), so a port that refuses without listing what it refused is told.
BOOST_AUTO_TEST_CASE(R9_the_links_bench_catches_a_port_that_refuses_without_listing_it) {
    const MakePort silent = [](const std::string& root) {
        return PortUnderTest{std::make_unique<host::RealFiles>(root), [] { return std::vector<std::string>{}; }};
    };
    const LinksResult r = run_links_bench(file_fixtures(), {}, silent);
    BOOST_REQUIRE_MESSAGE(r.error.empty(), r.error);
    BOOST_TEST(!r.pass());
    std::size_t unlisted = 0;
    for (const auto& p : r.points) unlisted += p.why.find("listed no refusal") != std::string::npos;
    BOOST_TEST(unlisted > 0u);
    for (const auto& p : r.points) BOOST_TEST(p.sentinel_untouched);  // it did refuse: nothing outside changed
}

// A power cut can tear the journal's last line; recovery appends after it. The torn tail is cut
// back to the last '\n' when an existing journal is opened (model/durability.h, journal_open),
// else the next line would be glued to it and the journal unreadable.
BOOST_AUTO_TEST_CASE(R7_opening_an_existing_journal_cuts_a_torn_last_line_before_appending) {
    Scratch s;
    const std::string path = s.dir + "/journal.jsonl";
    {
        std::ofstream out(path, std::ios::binary);
        out << "{\"a\":1}\n{\"b\":2}\n{\"tor";
    }
    {
        host::FileJournal journal(path);
        BOOST_REQUIRE_MESSAGE(journal.ok(), journal.error());
        BOOST_REQUIRE(journal.append("{\"c\":3}"));
    }
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    BOOST_TEST(text == "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n");
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << "no newline at all";
    }
    {
        host::FileJournal journal(path);
        BOOST_REQUIRE(journal.append("{\"d\":4}"));
    }
    std::ifstream again(path, std::ios::binary);
    BOOST_TEST(std::string((std::istreambuf_iterator<char>(again)), {}) == "{\"d\":4}\n");
}

namespace {

// The port's calls, grouped: (journal or files, call number) -> the op and its primitives in order.
struct Group {
    PortOp op = PortOp::Write;
    bool within_one_folder = false;
    std::vector<Primitive> primitives;
};
std::map<std::pair<int, std::size_t>, Group> groups_of(const host::IssuedLog& files, const host::IssuedLog& journal) {
    std::map<std::pair<int, std::size_t>, Group> out;
    for (int source = 0; source < 2; ++source) {
        for (const host::IssuedCall& c : source == 0 ? files : journal) {
            Group& g = out[{source, c.call}];
            g.op = c.op;
            g.within_one_folder = c.within_one_folder;
            g.primitives.push_back(c.primitive);
        }
    }
    return out;
}

std::vector<Primitive> expected_of(const DurabilityPlans& plans, const Group& g) {
    std::vector<Primitive> out;
    for (const Primitive p : plans.plan(g.op)) {
        if (issued_by_call(p, g.within_one_folder)) out.push_back(p);
    }
    return out;
}

// Runs every corpus file fixture on a real folder (the last step's check fails: the rollback
// writes back, moves back and removes too), then opens the journal again (recovery's opening).
std::pair<host::IssuedLog, host::IssuedLog> record_the_port() {
    host::IssuedLog files_log, journal_log;
    for (const auto& f : file_fixtures()) {
        std::string error;
        const auto ws = make_workspace(f, error);
        BOOST_REQUIRE_MESSAGE(ws.has_value(), error);
        {
            host::RealFiles files(ws->root());
            host::IssuedLog one_files, one_journal;
            files.record_into(&one_files);
            host::FileJournal journal(ws->journal(), nullptr, nullptr, &one_journal);
            UndoTool tool(UndoPorts{&files, nullptr, &journal});
            const auto last = static_cast<std::uint32_t>(f.steps.size());
            tool.run(Task{"recorded", f.steps, false}, [last](std::uint32_t s) -> std::optional<std::string> {
                return s == last ? std::optional<std::string>("fail the last step") : std::nullopt;
            });
            host::IssuedLog reopening;
            host::FileJournal reopened(ws->journal(), nullptr, nullptr, &reopening);
            BOOST_REQUIRE(reopened.ok());
            for (auto& c : reopening) c.call += 500;  // a second port object: calls of its own
            one_journal.insert(one_journal.end(), reopening.begin(), reopening.end());
            // Calls are numbered per port object; offset them so fixtures do not share numbers.
            for (auto& c : one_files) c.call += files_log.size() * 1000;
            for (auto& c : one_journal) c.call += journal_log.size() * 1000;
            files_log.insert(files_log.end(), one_files.begin(), one_files.end());
            journal_log.insert(journal_log.end(), one_journal.begin(), one_journal.end());
        }
        host::remove_tree(ws->dir);
    }
    return {files_log, journal_log};
}

}  // namespace

// The real port issues, call for call, the durability calls of model/durability.h — the plans the
// power-cut campaign judges (r0 --power-cut) — in the same order.
BOOST_AUTO_TEST_CASE(R7_the_real_port_issues_the_durability_plan_the_power_cut_run_judges) {
    const auto [files_log, journal_log] = record_the_port();
    const auto groups = groups_of(files_log, journal_log);
    std::set<PortOp> seen;
    for (const auto& [key, g] : groups) {
        seen.insert(g.op);
        const std::vector<Primitive> want = expected_of(DurabilityPlans{}, g);
        BOOST_TEST((g.primitives == want), to_string(g.op) << " call " << key.second << ": issued " << g.primitives.size()
                                                              << " primitives, the plan has " << want.size());
    }
    for (const PortOp op : all_port_ops) BOOST_TEST(seen.count(op) == 1u, "never recorded: " << to_string(op));
}

// The comparison can fail: the same recording against the plan without any one of its fsyncs
// disagrees on some call.
BOOST_AUTO_TEST_CASE(R7_the_recording_disagrees_with_a_plan_missing_one_fsync) {
    const auto [files_log, journal_log] = record_the_port();
    const auto groups = groups_of(files_log, journal_log);
    for (const PortOp op : all_port_ops) {
        const auto plan = durability_plan(op);
        for (std::size_t i = 0; i < plan.size(); ++i) {
            if (!is_fsync(plan[i])) continue;
            const DurabilityPlans weaker = DurabilityPlans{}.without(op, i);
            bool differs = false;
            for (const auto& [key, g] : groups) differs = differs || g.primitives != expected_of(weaker, g);
            BOOST_TEST(differs, to_string(op) << " without " << to_string(plan[i]) << " still matches the recording");
        }
    }
}
