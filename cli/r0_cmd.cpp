// deskcheck r0 [--json] [--adapter deskcheck|naive] [--fixtures DIR] [--generated N] [--seed S]
//              [--policy P]
// deskcheck r0 --real [--adapter-cmd CMD [--adapter-timeout-ms MS]] | --crash  [--fixtures ...]
// deskcheck r0 campaign [--cases N] [--seed S] [--policy P] [--json]
//
// Every mode stops at SIGINT / SIGTERM as `run` does (cli/interrupt.h): the rows (or cases) so far
// printed, marked interrupted (also in --json), temporary workspaces removed, every child process
// group killed, exit 130 / 143. An option the chosen mode does not use is exit 2.
//
// R0 (seed 002, SPEC R-1..R-7): what a failed run leaves behind. For every fixture (the files of
// DIR, then N generated ones) and every failure point — a failed post-check at each step, a fault
// at each operation, an undo that itself fails — one row; then the figures. Exit 0 when every
// figure is 100 %, 1 otherwise (the naive adapter must give 1: R-5), 2 on bad usage or a bad
// fixture file (one line naming the file and the JSON path).
#include <algorithm>
#include <map>
#include <memory>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/files.h"
#include "cli/interrupt.h"
#include "cli/r0_power_cmd.h"
#include "cli/report.h"
#include "json/strict_parse.h"
#include "harness/r0_bench.h"
#include "harness/r0_campaign.h"
#include "harness/r0_links.h"
#include "harness/r0_policies.h"
#include "harness/r0_real.h"
#include "host/real_files.h"
#include "model/undo.h"
#include "sim/r0_fixture_json.h"

namespace deskcheck::cli {
namespace {

using Json = nlohmann::ordered_json;
constexpr std::size_t fixture_files_max = 256;
constexpr std::uint64_t generated_max = 1000;
constexpr std::uint64_t default_generated = 8;
constexpr std::uint64_t default_cases = 100'000;
constexpr std::uint64_t cases_max = 100'000'000;
constexpr std::uint64_t adapter_timeout_ms_max = 600'000;
constexpr std::size_t serve_line_bytes_max = std::size_t{1} << 24;  // one request line of r0 serve
// An adapter's error names the adapter, the request and what arrived, each clipped (r0_real.cpp).
constexpr std::size_t adapter_error_bytes_max = 1000;

std::string percent(const r0::Ratio& r) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << (r.of == 0 ? 100.0 : 100.0 * static_cast<double>(r.ok) / static_cast<double>(r.of)) << "%";
    return s.str();
}

std::string kind_name(r0::RowKind k) {
    switch (k) {
        case r0::RowKind::Step: return "step";
        case r0::RowKind::Operation: return "operation";
        case r0::RowKind::UndoFault: return "undo_fault";
        case r0::RowKind::Normal: return "normal";
    }
    return "?";
}

// The fixture files of `dir`, sorted by name; an error names the file.
std::optional<std::string> load_fixtures(const std::filesystem::path& dir, std::vector<sim::R0Fixture>& out) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return dir.string() + ": no such folder (run from the checkout, or pass --fixtures DIR)";
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        if (e.path().extension() == ".json") files.push_back(e.path());
        if (files.size() > fixture_files_max) return dir.string() + ": more than " + std::to_string(fixture_files_max) + " fixture files";
    }
    if (ec) return dir.string() + ": cannot list it: " + ec.message();
    std::sort(files.begin(), files.end());
    if (files.empty()) return dir.string() + ": no *.json fixture in it";
    for (const auto& file : files) {
        auto text = read_input_file(file, sim::r0_fixture_bytes_max);
        if (auto* err = std::get_if<FileError>(&text)) return err->message;
        const auto decoded = sim::r0_fixture_from_text(std::get<std::string>(text));
        if (!decoded.fixture) return file.string() + ": " + decoded.error;
        out.push_back(*decoded.fixture);
    }
    return std::nullopt;
}

Json ratio_json(const r0::Ratio& r) { return Json{{"ok", r.ok}, {"of", r.of}, {"percent", percent(r)}}; }

Json bench_json(const r0::R0BenchResult& b) {
    Json rows = Json::array();
    for (const auto& r : b.rows) {
        rows.push_back(Json{{"fixture", r.fixture}, {"kind", kind_name(r.kind)}, {"point", r.point},
                            {"residue", r.judgement.residue}, {"rollback", r.judgement.rollback},
                            {"traceability", r.judgement.traceability}, {"honest", r.judgement.honest},
                            {"executed", r.executed}, {"rolled_back", r.rolled_back}, {"refused", r.refused},
                            {"applicable", r.applicable}, {"pass", r.pass}, {"note", r.note}, {"why", r.judgement.why}});
    }
    const auto& f = b.figures;
    return Json{{"adapter", b.adapter}, {"interrupted", interrupted_json()}, {"rows", rows},
                {"figures", {{"residue", ratio_json(f.residue)}, {"rollback", ratio_json(f.rollback)},
                             {"traceability", ratio_json(f.traceability)}, {"normal_undo", ratio_json(f.normal_undo)},
                             {"irreversible_reported", ratio_json(f.irreversible_reported)},
                             {"undo_failure_reported", ratio_json(f.undo_failure_reported)}}},
                {"pass", f.all_full() && !interrupted()}};
}

std::string mark(bool b) { return b ? "ok" : "FAIL"; }

// One table row of `r0` and `r0 --real`: residue, undone/executed, journal, and the note (with the
// first reason a failed row gives).
void print_row(const r0::R0Row& r, std::string note) {
    if (!r.judgement.why.empty() && !r.pass && r.applicable) note += (note.empty() ? "" : "; ") + r.judgement.why.front();
    std::string residue = r.applicable ? mark(r.judgement.residue) : "n/a";
    if (r.kind == r0::RowKind::UndoFault && !r.judgement.residue) residue = r.pass ? "left, reported" : "left, NOT reported";
    std::cout << "| " << r.fixture << " | " << r.point << " | " << residue << " | " << r.rolled_back << "/" << r.executed
              << " | " << (r.applicable ? mark(r.judgement.traceability) : "n/a") << " | " << printable(note) << " |\n";
}

// The verdict line of the r0 tables: pass, FAIL, or what an interruption leaves.
void print_verdict(bool all_full, const char* pass_line) {
    if (interrupted()) std::cout << "interrupted: the figures cover the rows so far only\n";
    else std::cout << (all_full ? pass_line : "FAIL: a figure is below 100%\n");
}

std::string of_fixtures(std::size_t done, std::size_t planned) {
    return std::to_string(done) + " of " + std::to_string(planned) + " fixtures";
}

void print_bench(const r0::R0BenchResult& b, std::size_t fixtures, std::size_t generated, std::uint64_t seed) {
    std::cout << "R0: what a failed run leaves behind (adapter " << b.adapter << "; " << fixtures << " fixture files + "
              << generated << " generated, seed " << seed << ")\n\n";
    std::cout << "| fixture | failure point | residue | undone/executed | journal | note |\n";
    for (const auto& r : b.rows) print_row(r, r.refused && r.note.empty() ? "refused before acting" : r.note);
    if (interrupted()) std::cout << "\n" << interrupted_line(of_fixtures(b.fixtures_done, fixtures + generated)) << "\n";
    const auto& f = b.figures;
    std::cout << "\nR0-residue        " << percent(f.residue) << " (" << f.residue.of << " failure injections)\n";
    std::cout << "R0-rollback       " << percent(f.rollback) << "\n";
    std::cout << "R0-traceability   " << percent(f.traceability) << " (every journal line: task, step, operation, before-state)\n";
    std::cout << "normal path + undo restored byte for byte: " << f.normal_undo.ok << "/" << f.normal_undo.of << "\n";
    std::cout << "steps that cannot be undone, allowed, declared so by the undo: " << f.irreversible_reported.ok << "/"
              << f.irreversible_reported.of << "\n";
    std::cout << "undos that themselves failed, reported as failed: " << f.undo_failure_reported.ok << "/"
              << f.undo_failure_reported.of << "\n";
    print_verdict(f.all_full(), "pass: every figure is 100%\n");
}

// The campaign's counts, and its violation with the smallest case and the command that reproduces it.
void print_r0_campaign_text(const r0::R0CampaignResult& r, std::uint64_t n, const std::string& reproduce) {
    if (interrupted()) std::cout << interrupted_line(std::to_string(r.cases) + " of " + std::to_string(n) + " cases", "the counts so far") << "\n";
    std::cout << r.cases << " cases run; failure at an operation " << r.at_operation << ", other programs writing " << r.with_others
              << ", with windows " << r.with_ui << ", with a field holding no value " << r.null_values << "\n";
    std::cout << "killed mid-task and recovered in process from the journal " << r.crashed << ", of which the recovery undid steps "
              << r.recovered << ", the recovery itself killed and re-run " << r.recovery_crashed << "\n";
    std::cout << "run to the end and undone " << r.normal_undo << ", of which an operation of the undo failed " << r.undo_faulted
              << "; a path that leaves the root " << r.leaving_root << "\n";
    if (!r.shrunk) {
        std::cout << "failure_leaves_nothing, undo_restores: no violation" << (interrupted() ? " in the cases run" : "") << "\n";
        return;
    }
    std::cout << r0::property_of(*r.shrunk) << " VIOLATED: " << printable(*r.shrunk->violation) << "\n"
              << "smallest case: " << printable(r0::describe_case(*r.shrunk)) << "\n"
              << dump_json(sim::r0_fixture_to_json(r.shrunk->fixture)) << "\nreproduce: " << reproduce << "\n";
}

constexpr const char* r0_campaign_help =
    "usage: deskcheck r0 campaign [--cases N] [--seed S] [--policy P] [--json] [--digests FILE]\n"
    "  failure_leaves_nothing over N generated fixtures (default 100000, seed 1), each with a failure\n"
    "  at a generated step or operation; stops at the first violation and shrinks it.\n"
    "  One case in four is also killed mid-task (at a journal append or an operation) and recovered\n"
    "  in process from its journal alone; the recovery itself is killed in half of those, then re-run.\n"
    "  One in four of the rest runs the task to its end and undoes it (undo_restores, R-2); an\n"
    "  operation of that undo fails in half of those. One failure case in eight has a file step's\n"
    "  path leave the root (R-9). The undo tool's whole report is judged too.\n"
    "  --policy: current (the tool), or a wrong undo the check must catch: null-as-empty,\n"
    "  forget-folders, skip-failed-line, wrong-order, recover-skips-last-intent, recover-nothing.\n"
    "  --digests FILE: one line per case, \"INDEX 0 DIGEST 1\" (FNV-1a of its journal, the world\n"
    "  after it, its operations and reports), as `deskcheck run --digests` writes them.\n"
    "  Exit 0 none, 1 a violation, 2 bad usage.\n";

int cmd_r0_campaign(const Argv& argv) {
    const auto stop = stop_on_interrupt();  // first: a signal during the set-up is not lost either
    Args args("r0 campaign", argv, {"--json", "--help"}, {"--cases", "--seed", "--policy", "--digests"});
    if (args.flag("--help")) {
        std::cout << r0_campaign_help;
        return exit_ok;
    }
    const auto cases = args.number("--cases");
    const auto seed = args.number("--seed");
    const std::string policy_name = args.option("--policy").value_or("current");
    if (args.ok() && cases && (*cases == 0 || *cases > cases_max)) args.fail("--cases must be 1.." + std::to_string(cases_max));
    if (args.ok() && !args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    r0::PolicyChoice policy = r0::make_policy(policy_name);
    if (args.ok() && !policy.known)
        args.fail("unknown --policy '" + policy_name +
                  "' (current, null-as-empty, forget-folders, skip-failed-line, wrong-order, recover-skips-last-intent, recover-nothing)");
    if (!args.ok()) return usage_error("r0 campaign", args.error());
    const std::uint64_t s = seed.value_or(1);
    const std::uint64_t n = cases.value_or(default_cases);
    if (!args.flag("--json")) std::cout << "seed " << s << ", " << n << " cases, policy " << policy_name << "\n" << std::flush;
    const std::optional<std::string> digests_file = args.option("--digests");
    std::vector<std::uint64_t> digests;
    const r0::R0CampaignResult r = r0::run_r0_campaign(s, n, policy.policy.get(), policy.recovery.get(), stop, digests_file ? &digests : nullptr);
    if (digests_file) {
        std::string lines;
        char buf[64];
        for (std::size_t i = 0; i < digests.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%zu 0 %016llx 1\n", i, static_cast<unsigned long long>(digests[i]));
            lines += buf;
        }
        if (const std::string e = write_text_file(*digests_file, lines); !e.empty()) {
            std::cerr << "deskcheck r0 campaign: --digests " << e << "\n";
            return exit_infrastructure;
        }
    }
    const std::string reproduce = "deskcheck r0 campaign --seed " + std::to_string(s) + " --cases " + std::to_string(n) + " --policy " + policy_name;
    if (args.flag("--json")) {
        Json j{{"property", "failure_leaves_nothing"}, {"seed", s}, {"cases", r.cases}, {"cases_planned", n}, {"interrupted", interrupted_json()},
               {"policy", policy_name}, {"violations", r.violations},
               {"distribution", {{"failure_at_operation", r.at_operation}, {"with_other_programs", r.with_others},
                                 {"with_windows", r.with_ui}, {"with_a_null_value", r.null_values},
                                 {"crashed", r.crashed}, {"recovered", r.recovered}, {"recovery_crashed", r.recovery_crashed},
                                 {"normal_then_undo", r.normal_undo}, {"undo_faulted", r.undo_faulted},
                                 {"path_leaves_the_root", r.leaving_root}}}};
        if (r.shrunk) {
            j["counterexample"] = {{"property", r0::property_of(*r.shrunk)}, {"violation", *r.shrunk->violation}, {"case", r0::describe_case(*r.shrunk)},
                                   {"choices", r.shrunk->choices}, {"fixture", sim::r0_fixture_to_json(r.shrunk->fixture)},
                                   {"reproduce", reproduce}};
        }
        std::cout << dump_json(j) << "\n";
    } else {
        print_r0_campaign_text(r, n, reproduce);
    }
    return exit_code_or(r.violations == 0 ? exit_ok : exit_violation);
}

// deskcheck r0 recover DIR [--crash-at N]: recovery from DIR/journal.jsonl alone (a fresh process).
// --crash-at (hidden, for the crash harness): SIGKILL itself at its N-th event.
int cmd_r0_recover(const Argv& argv) {
    Args args("r0 recover", argv, {"--help"}, {"--crash-at"});
    if (args.flag("--help")) {
        std::cout << "usage: deskcheck r0 recover DIR\n"
                     "  Undoes, from DIR/journal.jsonl alone, every task a crash left unfinished in DIR/files.\n"
                     "  DIR must be a workspace: a folder holding the folder files/ and the regular file journal.jsonl,\n"
                     "  none of them a symbolic link; else exit 2 before anything changes (nothing is created).\n"
                     "  Nothing outside DIR/files is touched: a link on a path is a failed undo, named. An undo that\n"
                     "  failed is tried again, and reported, by every recovery until it succeeds.\n"
                     "  Exit 0 recovered, 1 an undo failed (task, step, path, why), 2 bad usage, not a workspace or\n"
                     "  an unreadable journal (a bad line, more than 100000 lines).\n";
        return exit_ok;
    }
    const auto crash_at = args.number("--crash-at");
    if (args.ok() && args.positional().size() != 1) args.fail("expected one DIR");
    if (!args.ok()) return usage_error("r0 recover", args.error());
    host::CrashPlan plan{crash_at.value_or(0), 0};
    const r0::RecoverOutcome r = r0::recover_workspace(args.positional().front(), &plan);
    (r.code == 0 ? std::cout : std::cerr) << "r0 recover: " << printable(r.message) << "\n";
    return r.code;
}

// deskcheck r0 serve: deskcheck's own undo tool behind the process protocol (schema/r0-adapter-2),
// on real folders; its journal for ROOT is ROOT.journal.jsonl. Measure it with
// `deskcheck r0 --adapter-cmd "deskcheck r0 serve"`: the protocol carries a tool that passes.
// Every answer echoes its request's "id"; a request without one (a non-negative integer) is
// answered {"error": ...} (without an id: there is none to echo).
namespace {

// One task the server ran on a root: its real files, its journal beside the root, the tool.
struct Served {
    std::unique_ptr<host::RealFiles> files;
    std::unique_ptr<host::FileJournal> journal;
    std::unique_ptr<UndoTool> tool;
    std::string task;
};

Json served_answer(const TaskReport& t) {
    Json executed = Json::array(), restored = Json::array(), failed = Json::array(), not_undoable = Json::array();
    for (const auto& s : t.steps) {
        if (s.journaled) executed.push_back(s.step);
        if (s.undo == UndoState::Restored) restored.push_back(s.step);
        if (s.undo == UndoState::Failed) failed.push_back(s.step);
        if (s.undo == UndoState::NotUndoable) not_undoable.push_back(s.step);
    }
    return Json{{"task", t.task_id}, {"executed", executed}, {"rolled_back", restored}, {"undo_failed", failed},
                {"not_undoable", not_undoable}, {"finished", t.ok}, {"refused", t.refused}};
}

// "apply": the steps run on the root by a fresh tool, failing after step `fail_at` when given.
Json serve_apply(const Json& req, const std::string& root, std::map<std::string, Served>& by_root, std::size_t& tasks) {
    const auto decoded = sim::r0_fixture_from_json(Json{{"format", sim::r0_fixture_format}, {"name", "served"}, {"summary", ""},
                                                        {"files", Json::array()}, {"steps", req.value("steps", Json::array())}});
    if (!decoded.fixture) return Json{{"error", "steps: " + decoded.error}};
    Served& s = by_root[root];
    s.files = std::make_unique<host::RealFiles>(root);
    s.journal = std::make_unique<host::FileJournal>(root + ".journal.jsonl");
    s.tool = std::make_unique<UndoTool>(UndoPorts{s.files.get(), nullptr, s.journal.get()});
    s.task = "served-" + std::to_string(++tasks);
    const auto fail_at = req.contains("fail_at") && req["fail_at"].is_number_unsigned()
                             ? std::optional<std::uint32_t>(req["fail_at"].get<std::uint32_t>()) : std::nullopt;
    const PostCheck check = [fail_at](std::uint32_t step) -> std::optional<std::string> {
        if (fail_at && step == *fail_at) return "injected failure (R0 bench)";
        return std::nullopt;
    };
    if (!s.files->ok() || !s.journal->ok()) return Json{{"error", !s.files->ok() ? s.files->error() : s.journal->error()}};
    return served_answer(s.tool->run(Task{s.task, decoded.fixture->steps, req.value("allow_irreversible", false)}, check));
}

// One request line's answer, carrying the request's id.
Json serve_line(const std::string& line, std::map<std::string, Served>& by_root, std::size_t& tasks) {
    if (line.size() > serve_line_bytes_max) return Json{{"error", "a request longer than " + std::to_string(serve_line_bytes_max) + " bytes"}};
    auto parsed = parse_json_strict<Json>(line);  // duplicate keys refused, with their JSON pointer
    if (const auto* bad = std::get_if<JsonTextError>(&parsed)) return Json{{"error", "the request is not JSON: " + to_string(*bad)}};
    const Json req = std::move(std::get<Json>(parsed));
    const std::string op = req.is_object() && req.contains("op") && req["op"].is_string() ? req["op"].get<std::string>() : "";
    const std::string root = req.is_object() && req.contains("root") && req["root"].is_string() ? req["root"].get<std::string>() : "";
    const bool has_id = req.is_object() && req.contains("id") && req["id"].is_number_unsigned();
    if (!has_id) return Json{{"error", "a request needs an \"id\" (a non-negative integer, echoed in the answer)"}};
    Json ans;
    if (op.empty() || root.empty()) {
        ans = Json{{"error", "a request needs \"op\" and \"root\""}};
    } else if (op == "apply") {
        ans = serve_apply(req, root, by_root, tasks);
    } else if (op == "undo") {
        const auto it = by_root.find(root);
        ans = it == by_root.end() ? Json{{"error", "no task applied on " + root}} : served_answer(it->second.tool->undo(it->second.task));
    } else if (op == "journal") {
        const auto lines = host::read_journal_lines(root + ".journal.jsonl");
        ans = Json{{"lines", lines ? Json(*lines) : Json(nullptr)}};
    } else {
        ans = Json{{"error", "unknown op \"" + op + "\""}};
    }
    Json with_id{{"id", req["id"]}};
    with_id.update(ans);
    return with_id;
}

}  // namespace

int cmd_r0_serve(const Argv& argv) {
    if (!argv.empty() && argv.front() == "--help") {
        std::cout << "usage: deskcheck r0 serve\n"
                     "  deskcheck's undo tool behind the adapter protocol (schema/r0-adapter-2.schema.json): one JSON\n"
                     "  request per line on stdin, one answer per line on stdout carrying the request's id.\n";
        return exit_ok;
    }
    if (!argv.empty()) return usage_error("r0 serve", "unexpected argument '" + printable(argv.front()) + "' (r0 serve takes none)");
    std::map<std::string, Served> by_root;
    std::size_t tasks = 0;
    std::string line;
    while (std::getline(std::cin, line)) std::cout << serve_line(line, by_root, tasks).dump() << "\n" << std::flush;
    return exit_ok;
}

void print_real(const r0::RealBenchResult& b) {
    std::cout << "R0 on real folders (tool " << printable(b.tool) << "; " << b.fixtures_run << " fixtures on fresh temporary folders, "
              << b.fixtures_skipped << " with UI steps skipped: no real desktop)\n\n";
    std::cout << "| fixture | failure point | residue (bytes, modes, tree) | undone/executed | journal | note |\n";
    for (const auto& r : b.rows) print_row(r, r.note);
    if (interrupted()) std::cout << "\n" << interrupted_line(of_fixtures(b.fixtures_run, b.fixtures_planned)) << "\n";
    const auto& f = b.figures;
    std::cout << "\nR0-residue        " << percent(f.residue) << " (" << f.residue.of << " failure injections on real folders)\n";
    std::cout << "R0-rollback       " << percent(f.rollback) << "\n";
    std::cout << "R0-traceability   " << percent(f.traceability) << "\n";
    std::cout << "normal path + undo restored byte for byte: " << f.normal_undo.ok << "/" << f.normal_undo.of << "\n";
    std::cout << "undos that themselves failed (no space), reported as failed: " << f.undo_failure_reported.ok << "/"
              << f.undo_failure_reported.of << "\n";
    print_verdict(f.all_full(), "pass: every figure is 100%\n");
}

int print_crash(const r0::CrashResult& c) {
    std::cout << "R0 crash at every point (SIGKILL at every journal write and every effect, a write also half-way;\n"
                 "recovery from the journal alone in a fresh process, itself killed once, then run again)\n\n";
    std::cout << "| fixture | task | crash points | folder restored | recovery killed, then re-run | first failure |\n";
    for (const auto& r : c.rows) {
        std::cout << "| " << r.fixture << " | " << r.mode << " | " << r.crash_points << " | " << r.restored << "/" << r.crash_points
                  << " | " << r.recovery_crashes << " | " << (r.failures.empty() ? "" : printable(r.failures.front())) << " |\n";
    }
    if (!c.error.empty()) std::cout << "error: " << printable(c.error) << "\n";
    if (interrupted()) std::cout << "\n" << interrupted_line(std::to_string(c.crash_points) + " crash points") << "\n";
    std::cout << "\ncrash points: " << c.crash_points << "; folder byte-identical to before the task after recovery: " << c.restored << "/"
              << c.crash_points << "; recoveries killed and re-run: " << c.recovery_crashes << "\n";
    if (interrupted()) std::cout << "interrupted: the rows so far only (the last one partial)\n";
    else std::cout << (c.pass() ? "pass: every crash point recovered\n" : "FAIL: a crash point did not recover\n");
    return exit_code_or(c.pass() ? exit_ok : exit_violation);
}


// The r0 modes and the options each one uses: any other option given is exit 2 (issue 25: never
// silently ignored).
enum class R0Mode : std::uint8_t { Bench, Real, AdapterCmd, Crash, Links, PowerCut };

std::string mode_name(R0Mode m) {
    switch (m) {
        case R0Mode::Bench: return "r0 (the bench)";
        case R0Mode::Real: return "r0 --real";
        case R0Mode::AdapterCmd: return "r0 --adapter-cmd";
        case R0Mode::Crash: return "r0 --crash";
        case R0Mode::Links: return "r0 --links";
        case R0Mode::PowerCut: return "r0 --power-cut";
    }
    return "r0";
}

bool mode_uses(R0Mode m, const std::string& option) {
    if (option == "--adapter" || option == "--policy") return m == R0Mode::Bench;
    if (option == "--adapter-cmd" || option == "--adapter-timeout-ms") return m == R0Mode::AdapterCmd;
    if (option == "--without") return m == R0Mode::PowerCut;
    return true;  // --json, --fixtures, --generated, --seed
}

// The mode the options choose; a usage error in `args` when they contradict each other.
R0Mode choose_mode(Args& args) {
    const auto adapter_cmd = args.option("--adapter-cmd");
    if (adapter_cmd && adapter_cmd->find_first_not_of(" \t\r\n\v\f") == std::string::npos)
        args.fail("--adapter-cmd is empty: name the adapter's command (r0 --real measures deskcheck itself)");
    std::vector<std::string> modes;
    for (const char* flag : {"--real", "--crash", "--links", "--power-cut"}) {
        if (args.flag(flag)) modes.emplace_back(flag);
    }
    if (modes.size() > 1) args.fail(modes[0] + " and " + modes[1] + " are two modes: choose one");
    if (args.flag("--crash")) return R0Mode::Crash;
    if (args.flag("--links")) return R0Mode::Links;
    if (args.flag("--power-cut") || args.option("--without")) return R0Mode::PowerCut;
    if (adapter_cmd) return R0Mode::AdapterCmd;
    return args.flag("--real") ? R0Mode::Real : R0Mode::Bench;
}

// The first option given that `mode` does not use, as a usage error in `args`.
void refuse_unused(Args& args, R0Mode mode) {
    for (const char* option : {"--adapter", "--policy", "--adapter-cmd", "--adapter-timeout-ms", "--without"}) {
        if (args.ok() && args.option(option) && !mode_uses(mode, option)) args.fail(std::string(option) + " is not used by " + mode_name(mode));
    }
}

Json crash_json(const r0::CrashResult& crash) {
    Json rows = Json::array();
    for (const auto& r : crash.rows) {
        rows.push_back(Json{{"fixture", r.fixture}, {"task", r.mode}, {"crash_points", r.crash_points}, {"restored", r.restored},
                            {"recovery_crashes", r.recovery_crashes}, {"failures", r.failures}});
    }
    return Json{{"interrupted", interrupted_json()}, {"rows", rows}, {"crash_points", crash.crash_points}, {"restored", crash.restored},
                {"recovery_crashes", crash.recovery_crashes}, {"error", crash.error}, {"pass", crash.pass() && !interrupted()}};
}

// r0 --links: every point, the failed ones in full; the figures; exit 0 only when every point held.
int print_links(const r0::LinksResult& l, bool json) {
    if (json) {
        Json points = Json::array();
        for (const auto& p : l.points) {
            points.push_back(Json{{"fixture", p.fixture}, {"when", p.when}, {"folder", p.folder}, {"crossed", p.crossed},
                                  {"sentinel_untouched", p.sentinel_untouched}, {"named", p.named}, {"held", p.held()}, {"why", p.why}});
        }
        std::cout << dump_json(Json{{"points", points}, {"count", l.points.size()}, {"crossed", l.crossed}, {"held", l.held},
                                    {"interrupted", interrupted_json()}, {"error", l.error}, {"pass", l.pass()}})
                  << "\n";
        return l.pass() ? exit_ok : exit_violation;
    }
    std::cout << "R0 links at every point (every folder on a fixture's paths swapped for a symbolic link to a sentinel tree\n"
                 "outside the root: before each step, between its journal line and its effect, before recovery)\n\n";
    std::cout << "| fixture | when | folder swapped | link met | outside untouched | refusal reported | why |\n";
    std::size_t shown = 0;
    for (const auto& p : l.points) {
        if (p.held() && ++shown > 12) continue;
        std::cout << "| " << p.fixture << " | " << p.when << " | " << printable(p.folder) << " | " << (p.crossed ? "yes" : "no") << " | "
                  << mark(p.sentinel_untouched) << " | " << (p.crossed ? mark(p.named) : "n/a") << " | " << printable(p.why) << " |\n";
    }
    if (shown > 12) std::cout << "| ... | | | | | | |\n";
    if (!l.error.empty()) std::cout << "error: " << printable(l.error) << "\n";
    std::cout << "\npoints: " << l.points.size() << "; a later operation met the link: " << l.crossed
              << "; held (outside untouched, refusal reported): " << l.held << "/" << l.points.size() << "\n";
    if (l.interrupted) std::cout << interrupted_line(std::to_string(l.points.size()) + " points") << "\n";
    std::cout << (l.pass() ? "pass: every point held\n" : "FAIL: a point did not hold\n");
    return l.pass() ? exit_ok : exit_violation;
}

}  // namespace

constexpr const char* r0_help =
    "usage: deskcheck r0 [--json] [--adapter deskcheck|naive] [--fixtures DIR] [--generated N] [--seed S] [--policy P]\n"
    "       deskcheck r0 --real [--json] [--fixtures DIR] [--generated N] [--seed S]\n"
    "       deskcheck r0 --adapter-cmd CMD [--adapter-timeout-ms MS] [--json] [--fixtures DIR] [--generated N] [--seed S]\n"
    "       deskcheck r0 --crash [--json] [--fixtures DIR] [--generated N] [--seed S]\n"
    "       deskcheck r0 --links [--json] [--fixtures DIR] [--generated N] [--seed S]\n"
    "       deskcheck r0 --power-cut [--without OP.PRIMITIVE] [--json] [--fixtures DIR] [--generated N] [--seed S]\n"
    "       deskcheck r0 recover DIR\n"
    "       deskcheck r0 serve\n"
    "       deskcheck r0 campaign [--cases N] [--seed S] [--policy P] [--json]\n"
    "  --real: the file fixtures on fresh temporary folders; --adapter-cmd: another tool through\n"
    "  line-delimited JSON on its stdin/stdout (schema/r0-adapter-2.schema.json: every answer echoes\n"
    "  its request's id; implies --real), in a process group of its own killed at the end, each\n"
    "  request written and answered within MS (default 5000, 1..600000);\n"
    "  --crash: SIGKILL at every journal write and effect, recovery in a fresh process.\n"
    "  --links: every folder on the paths swapped for a link to a tree outside the root, at every\n"
    "  point; exit 0 only when nothing outside changed and every refusal was reported.\n"
    "  --power-cut: power lost before every primitive (write, fsync, rename, ...) on a simulated\n"
    "  disk, every volatile change lost, kept or torn; recovery from what survives. --without\n"
    "  (implies --power-cut) leaves one primitive out of the protocol, e.g. journal_append.fsync_file.\n"
    "  R0: after a failure injected at every step, every operation (no space, permission denied, a\n"
    "  partial write, a UI failure) and into the undo itself, what is left behind. Fixtures: the files\n"
    "  of DIR (default corpus/r0) and N generated ones (default 8, seed 1). Figures: R0-residue,\n"
    "  R0-rollback, R0-traceability, normal path + undo. An option the mode does not use is an error.\n"
    "  Ctrl-C (SIGINT) or SIGTERM: the rows so far, marked interrupted, temporary folders removed.\n"
    "  exit: 0 all 100% (campaign: no violation), 1 any below (campaign: a violation), 2 bad usage or an\n"
    "  adapter that broke the protocol; r0 recover: 0 recovered, 1 an undo failed (named: task, step,\n"
    "  path, reason), 2 not a workspace or an unreadable journal;\n"
    "  130 / 143 interrupted.\n";

int cmd_r0(const Argv& argv) {
    if (!argv.empty() && argv.front() == "campaign") return cmd_r0_campaign(Argv(argv.begin() + 1, argv.end()));
    if (!argv.empty() && argv.front() == "recover") return cmd_r0_recover(Argv(argv.begin() + 1, argv.end()));
    if (!argv.empty() && argv.front() == "serve") return cmd_r0_serve(Argv(argv.begin() + 1, argv.end()));
    const auto stop = stop_on_interrupt();  // first: a signal while the fixtures load is not lost either
    Args args("r0", argv, {"--json", "--help", "--real", "--crash", "--links", "--power-cut"},
              {"--adapter", "--fixtures", "--generated", "--seed", "--policy", "--adapter-cmd", "--adapter-timeout-ms", "--without"});
    if (args.flag("--help")) {
        std::cout << r0_help;
        return exit_ok;
    }
    const R0Mode mode = choose_mode(args);
    refuse_unused(args, mode);
    const std::string adapter = args.option("--adapter").value_or("deskcheck");
    const std::string policy_name = args.option("--policy").value_or("current");
    const auto generated = args.number("--generated");
    const auto seed = args.number("--seed");
    const auto timeout = args.number("--adapter-timeout-ms", 1, adapter_timeout_ms_max);  // out of range: exit 2, never clamped
    if (args.ok() && !r0::make_adapter(adapter)) args.fail("unknown --adapter '" + adapter + "' (deskcheck, naive)");
    if (args.ok() && generated && *generated > generated_max) args.fail("--generated must be 0.." + std::to_string(generated_max));
    if (args.ok() && seed && generated && *generated == 0) args.fail("--seed is not used with --generated 0 (no fixture is generated)");
    if (args.ok() && !args.positional().empty()) args.fail("unexpected argument '" + args.positional().front() + "'");
    r0::PolicyChoice policy = r0::make_policy(policy_name);
    if (args.ok() && !policy.known) args.fail("unknown --policy '" + policy_name + "'");
    if (args.ok() && policy.policy && adapter != "deskcheck") args.fail("--policy applies to --adapter deskcheck only");
    if (args.ok() && policy.recovery) args.fail("--policy " + policy_name + " is a wrong crash recovery: only r0 campaign kills tasks");
    if (!args.ok()) return usage_error("r0", args.error());
    std::vector<sim::R0Fixture> fixtures;
    if (auto err = load_fixtures(args.option("--fixtures").value_or("corpus/r0"), fixtures)) return usage_error("r0", printable(*err));
    const std::size_t from_files = fixtures.size();
    const std::uint64_t s = seed.value_or(1);
    for (auto& f : r0::generated_fixtures(s, generated.value_or(default_generated))) fixtures.push_back(std::move(f));
    if (mode == R0Mode::Links) return exit_code_or(print_links(r0::run_links_bench(fixtures, stop), args.flag("--json")));
    if (mode == R0Mode::PowerCut) return r0_power_cut(fixtures, s, args.flag("--json"), args.option("--without"));
    if (mode == R0Mode::Crash) {
        const r0::CrashResult crash = r0::run_crash_bench(fixtures, "/proc/self/exe", std::nullopt, stop);
        if (!args.flag("--json")) return print_crash(crash);
        std::cout << dump_json(crash_json(crash)) << "\n";
        return exit_code_or(crash.pass() ? exit_ok : exit_violation);
    }
    if (mode == R0Mode::Real || mode == R0Mode::AdapterCmd) {
        const int ms = static_cast<int>(timeout.value_or(r0::adapter_timeout_ms_default));
        const r0::RealBenchResult real = r0::run_real_bench(args.option("--adapter-cmd").value_or(""), fixtures, ms, stop);
        if (!real.error.empty()) {
            std::cerr << "deskcheck r0: " << printable(real.error, adapter_error_bytes_max) << "\n";
            return exit_usage;
        }
        if (args.flag("--json")) std::cout << dump_json(bench_json(r0::R0BenchResult{real.tool, real.rows, real.figures, real.fixtures_run, real.interrupted})) << "\n";
        else print_real(real);
        return exit_code_or(real.figures.all_full() ? exit_ok : exit_violation);
    }
    const r0::R0BenchResult result = r0::run_r0_bench(adapter, fixtures, policy.policy.get(), stop);
    if (args.flag("--json")) std::cout << dump_json(bench_json(result)) << "\n";
    else print_bench(result, from_files, fixtures.size() - from_files, s);
    return exit_code_or(result.figures.all_full() ? exit_ok : exit_violation);
}

}  // namespace deskcheck::cli
