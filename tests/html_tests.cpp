// The timeline page generator (cli/html_timeline.h, issue 17): escaping, lanes, foreground bands
// and hand-offs, the highlighted step with its latency bound, determinism, size, and the CLI's
// error on an unwritable --html path. The page in a real browser: tests/browser_tests.cpp.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>

#include "cli/html_timeline.h"
#include "cli/report.h"
#include "checks/checks.h"
#include "harness/deterministic.h"
#include "sim/prng.h"
#include "sim/trace.h"
#include "tests/page_scenarios.h"
#include "tests/scenario_builders.h"

using namespace deskcheck;
using namespace deskcheck::testing;
namespace html = deskcheck::cli::html;

namespace {

// A scenario run with every check, kept together for build_timeline().
struct Judged {
    sim::Scenario scenario;
    props::RunResult run;
    std::vector<html::CheckLine> checks;

    html::RunView view(std::string primary = "") const {
        return html::RunView{"test run", "none", &scenario, &run, checks, std::move(primary)};
    }
};

Judged judged(sim::Scenario scenario) {
    props::RunOptions options;
    options.agent_retries = true;
    Judged j{std::move(scenario), {}, {}};
    j.run = props::run_scenario(j.scenario, options);
    for (const auto& c : props::all_checks()) {
        if (c.fn == nullptr) continue;  // deterministic runs the scenario itself: not needed here
        j.checks.push_back(html::CheckLine{std::string(c.name), std::string(c.spec), props::run_check(c, j.scenario, j.run, options)});
    }
    return j;
}

cli::Replayed replayed(const std::string& file) {
    cli::Replayed r = cli::replay_file(file, cli::replay_options(Mutation::None), "");
    BOOST_TEST_REQUIRE(r.error.empty(), file << ": " << r.error);
    return r;
}

std::vector<std::string> lane_ids(const html::Timeline& t) {
    std::vector<std::string> out;
    for (const auto& l : t.lanes) out.push_back(l.id);
    return out;
}

bool has_class(const html::Item& item, const std::string& c) {
    return std::find(item.classes.begin(), item.classes.end(), c) != item.classes.end();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Two apps: app 1 owns windows 1 and 3, app 2 owns window 2 (listed between them).
sim::Scenario three_windows_two_apps() {
    auto s = desk();
    app(s, 1, 50, 200);
    app(s, 2, 0, 0);
    auto& w1 = window(s, 1, 1, Rect{0, 0, 600, 500});
    control(w1, 11, sim::ControlKind::Edit, Rect{10, 10, 500, 40}, "text");
    window(s, 2, 2, Rect{700, 0, 1300, 500});
    window(s, 3, 1, Rect{0, 550, 600, 1000});
    s.foreground = 2;
    sim::Step st;
    st.kind = sim::StepKind::Type;
    st.window = 1;
    st.control = 11;
    st.text = "hi";
    s.steps.push_back(st);
    return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(S6_html_escape_escapes_markup_and_quotes) {
    BOOST_TEST(html::escape_html("<script>a && b</script>") == "&lt;script&gt;a &amp;&amp; b&lt;/script&gt;");
    BOOST_TEST(html::escape_html("say \"hi\" it's") == "say &quot;hi&quot; it&#39;s");
    BOOST_TEST(html::escape_html("") == "");
    BOOST_TEST(html::escape_html("tab\tline\nret\r") == "tab\tline\nret\r");
}

BOOST_AUTO_TEST_CASE(S6_html_escape_keeps_multibyte_utf8) {
    const std::string text = "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x99\x82";  // café 日本 🙂
    BOOST_TEST(html::escape_html(text) == text);
    BOOST_TEST(html::valid_utf8(text) == text);
}

BOOST_AUTO_TEST_CASE(S6_html_escape_replaces_invalid_utf8_without_throwing) {
    const std::string fffd = "\xEF\xBF\xBD";
    BOOST_TEST(html::escape_html("a\xFF" "b") == "a" + fffd + "b");                   // never a UTF-8 byte
    BOOST_TEST(html::escape_html("\xC3") == fffd);                                    // truncated
    BOOST_TEST(html::escape_html("\xC3z\xA9") == fffd + "z" + fffd);                  // split, as a byte-offset splice leaves it
    BOOST_TEST(html::escape_html("\xC0\xAF") == fffd + fffd);                         // overlong '/'
    BOOST_TEST(html::escape_html("\xED\xA0\x80") == fffd + fffd + fffd);              // a surrogate
    BOOST_TEST(html::escape_html("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);   // beyond U+10FFFF
    BOOST_TEST(html::escape_html("\xE6\x97<") == fffd + fffd + "&lt;");               // cut before markup
    BOOST_TEST(html::valid_utf8("\xC3z") == fffd + "z");
}

BOOST_AUTO_TEST_CASE(S6_html_escape_writes_control_characters_visibly) {
    BOOST_TEST(html::escape_html(std::string("a\x01" "b", 3)) == "a\\x01b");
    BOOST_TEST(html::escape_html(std::string("\0", 1)) == "\\x00");
    BOOST_TEST(html::escape_html("\x7F") == "\\x7f");
}

BOOST_AUTO_TEST_CASE(S6_html_truncated_never_splits_a_code_point) {
    BOOST_TEST(html::truncated("abcdef", 3) == "abc…");
    BOOST_TEST(html::truncated("abc", 3) == "abc");
    BOOST_TEST(html::truncated("\xE6\x97\xA5\xE6\x9C\xAC\xE6\x97\xA5", 2) == "\xE6\x97\xA5\xE6\x9C\xAC…");
    BOOST_TEST(html::truncated("\xFF\xFE", 5) == "\xEF\xBF\xBD\xEF\xBF\xBD");
}

BOOST_AUTO_TEST_CASE(S6_page_has_a_lane_per_window_grouped_by_app_one_for_the_user_and_one_for_the_tool) {
    const Judged j = judged(three_windows_two_apps());
    const html::Timeline t = html::build_timeline(j.view());
    // Windows 1 and 3 (app 1) stand together, window 2 (app 2) after them; tool first, user last.
    BOOST_TEST(lane_ids(t) == (std::vector<std::string>{"tool", "w1", "w3", "w2", "user"}), boost::test_tools::per_element());
    BOOST_TEST(t.lanes[1].group == t.lanes[2].group);
    BOOST_TEST(t.lanes[1].group != t.lanes[3].group);
    BOOST_TEST(t.order_exact);
    const std::string page = html::render_page(html::PageView{"three.json", std::nullopt, "current", "deskcheck replay three.json", {j.view()}});
    for (const auto& id : {"tool", "w1", "w2", "w3", "user"}) {
        BOOST_TEST(contains(page, "data-lane=\"" + std::string(id) + "\""), "lane " << id << " is drawn");
    }
    // The step, its delivery, its effects and its reads are all on the page, each with evidence.
    const auto count = [&](const std::string& kind) {
        return std::count_if(t.items.begin(), t.items.end(), [&](const html::Item& i) { return i.kind == kind; });
    };
    BOOST_TEST(count("step") == 1);
    BOOST_TEST(count("deliver") >= 1);
    BOOST_TEST(count("effect") >= 1);
    BOOST_TEST(count("read") >= 1);
    for (const auto& i : t.items) BOOST_TEST(!i.evidence.empty(), i.kind << " has evidence");
}

BOOST_AUTO_TEST_CASE(S6_page_marks_unreadable_and_stale_reads) {
    auto s = three_windows_two_apps();
    s.faults.stale_read_permille = 1000;
    auto& w1 = s.windows[0];
    auto& hidden = control(w1, 12, sim::ControlKind::Edit, Rect{10, 50, 500, 80}, "secret");
    hidden.readability = sim::Readability::Unreadable;
    sim::Step st = s.steps.front();
    st.control = 12;
    s.steps.insert(s.steps.begin(), st);
    s.batch = false;
    const Judged j = judged(std::move(s));
    const html::Timeline t = html::build_timeline(j.view());
    const auto any = [&](const std::string& c) {
        return std::any_of(t.items.begin(), t.items.end(), [&](const html::Item& i) { return i.kind == "read" && has_class(i, c); });
    };
    BOOST_TEST(any("unreadable"));
    BOOST_TEST(any("stale"));
    for (const auto& i : t.items) {
        if (i.kind == "read" && has_class(i, "unreadable")) BOOST_TEST(contains(i.evidence, "(unreadable)"));
    }
}

BOOST_AUTO_TEST_CASE(S6_page_highlights_the_violated_step_with_its_latency_bound) {
    // D-3 (published rules): Absent read before the 200-300 ms latency bound, at step 0.
    const auto r = replayed("corpus/regressions/d3-published-absent-read-before-the-latency-bound.json");
    BOOST_TEST_REQUIRE(r.runs.size() == 1u);
    const auto& run = r.runs.front();
    const html::RunView view{run.title, run.mutation, &r.document->scenario, &run.run, run.checks, "verdict_sound"};
    const html::Timeline t = html::build_timeline(view);
    const auto primary = std::find_if(t.highlights.begin(), t.highlights.end(), [](const html::Highlight& h) { return h.primary; });
    BOOST_TEST_REQUIRE((primary != t.highlights.end()));
    BOOST_TEST(primary->property == "verdict_sound");
    BOOST_TEST((primary->step == std::optional<std::uint32_t>(0)));
    BOOST_TEST(primary->begin.has_value());
    for (const auto& i : t.items) {
        BOOST_TEST(has_class(i, "violation") == (i.kind == "step" && i.step == std::optional<std::uint32_t>(0)),
                   i.kind << " of step " << (i.step ? std::to_string(*i.step) : "-"));
    }
    // The app declares 200-300 ms: the bound ends 300 ms after the step's first delivery.
    const auto& delivered = run.run.truth().delivered;
    BOOST_TEST_REQUIRE(!delivered.empty());
    const auto bound = std::find_if(t.intervals.begin(), t.intervals.end(), [](const html::Interval& i) { return i.kind == "latency-bound"; });
    BOOST_TEST_REQUIRE((bound != t.intervals.end()));
    BOOST_TEST(bound->from.at_ms == delivered.front().at_ms);
    BOOST_TEST(bound->to_ms == delivered.front().at_ms + 300);
    BOOST_TEST(bound->lane == "w1");
    const std::string page = cli::timeline_page(r, "deskcheck replay d3.json");
    BOOST_TEST(contains(page, "data-violation-step=\"0\""));
    BOOST_TEST(contains(page, "class=\"item step absent violation\""));
    BOOST_TEST(contains(page, "data-kind=\"latency-bound\""));
}

BOOST_AUTO_TEST_CASE(S6_page_shows_the_header_mutation_run_with_its_violation) {
    const auto r = replayed("corpus/regressions/bug-current-hold-moved-across-windows-restored-the-wrong-window.json");
    BOOST_TEST_REQUIRE(r.runs.size() == 2u);
    const std::string page = cli::timeline_page(r, "deskcheck replay hold.json");
    const auto second = page.find("data-run=\"1\" data-mutation=\"no_give_back_on_failure\"");
    BOOST_TEST_REQUIRE(second != std::string::npos);
    BOOST_TEST(page.find("data-violation-step=") > second, "the first run (the fixed bug) has no violation marked");
    // The mutant also reports the batch unchanged:true after its borrow (report_matches_ground_truth).
    BOOST_TEST(contains(page.substr(second), "data-violations=\"foreground_returned@2 report_matches_ground_truth@2\""));
}

BOOST_AUTO_TEST_CASE(F5_page_draws_the_borrow_the_moved_hold_and_the_give_back) {
    const auto r = replayed("corpus/regressions/bug-current-hold-moved-across-windows-restored-the-wrong-window.json");
    const auto& run = r.runs.front();
    const html::Timeline t = html::build_timeline(
        html::RunView{run.title, run.mutation, &r.document->scenario, &run.run, run.checks, "foreground_returned"});
    std::vector<std::string> kinds;
    for (const auto& h : t.handoffs) kinds.push_back(h.kind + " w" + std::to_string(h.from) + "->w" + std::to_string(h.to));
    BOOST_TEST(kinds == (std::vector<std::string>{"borrow w1->w2", "borrow w2->w3", "give-back w3->w1"}), boost::test_tools::per_element());
    std::vector<WindowId> owners;
    for (const auto& b : t.bands) owners.push_back(b.window);
    BOOST_TEST(owners == (std::vector<WindowId>{1, 2, 3, 1}), boost::test_tools::per_element());
    BOOST_TEST(!t.bands.front().begin.has_value());
    BOOST_TEST(!t.bands.back().end.has_value());
}

BOOST_AUTO_TEST_CASE(S6_page_escapes_every_scenario_string) {
    auto s = three_windows_two_apps();
    s.windows[0].title = "<script>alert(\"title\")</script> & 'q' \xE6\x97\xA5";
    s.apps[0].name = "<b>app</b>";
    s.windows[0].controls[0].value = "\xC3\xA9<i>";  // é<i>, the caret inside the é: the splice leaves invalid UTF-8
    s.windows[0].controls[0].selection = {1, 0};
    s.steps[0].text = "</pre><img src=x onerror=alert(1)>";
    const Judged j = judged(std::move(s));
    sim::CounterexampleHeader header;
    header.property = "<prop>";
    header.rules = "current";
    header.summary = "summary <with> & \"quotes\"";
    const std::string page = html::render_page(html::PageView{"<file>.json", header, "current", "deskcheck replay '<file>.json'", {j.view()}});
    BOOST_TEST(html::valid_utf8(page) == page, "the page is valid UTF-8");
    BOOST_TEST(!contains(page, "<script>alert"));
    BOOST_TEST(!contains(page, "<img"));
    BOOST_TEST(!contains(page, "<b>app"));
    BOOST_TEST(!contains(page, "<prop>"));
    // The window's title, as its lane shows it (quoted the way the text timeline quotes it).
    BOOST_TEST(contains(page, "&lt;script&gt;alert(\\&quot;title\\&quot;)&lt;/script&gt; &amp; &#39;q&#39; \xE6\x97\xA5"));
    BOOST_TEST(contains(page, "\xEF\xBF\xBD"), "the invalid bytes the splice left are shown as U+FFFD");
    // The only scripts are the page's own two.
    std::size_t scripts = 0;
    for (auto at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1)) ++scripts;
    BOOST_TEST(scripts == 2u);
}

BOOST_AUTO_TEST_CASE(S1_page_is_the_same_bytes_for_the_same_replay) {
    const std::string file = "corpus/regressions/check-bug-refused-give-back-with-another-window.json";
    const std::string a = cli::timeline_page(replayed(file), "deskcheck replay " + file);
    const std::string b = cli::timeline_page(replayed(file), "deskcheck replay " + file);
    BOOST_TEST(a.size() == b.size());
    BOOST_TEST((a == b));
}

BOOST_AUTO_TEST_CASE(S6_page_joins_every_ledger_record_with_its_trace_line) {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator("corpus/regressions")) {
        if (e.path().extension() != ".json") continue;
        ++files;
        const auto r = replayed(e.path().string());
        for (const auto& run : r.runs) {
            const html::Timeline t = html::build_timeline(
                html::RunView{run.title, run.mutation, &r.document->scenario, &run.run, run.checks, ""});
            BOOST_TEST(t.order_exact, e.path().filename().string() << " (" << run.title << ")");
            BOOST_TEST(t.lanes.size() == r.document->scenario.windows.size() + 2);
        }
    }
    BOOST_TEST(files > 0u);
}

BOOST_AUTO_TEST_CASE(S6_page_of_a_32_step_scenario_stays_under_1_MB) {
    const Judged j = judged(thirty_two_slow_steps());
    BOOST_TEST(j.run.steps.size() >= 32u, "every step ran");
    const std::string page = html::render_page(html::PageView{"big.json", std::nullopt, "current", "deskcheck replay big.json", {j.view()}});
    BOOST_TEST_MESSAGE("32-step page: " << page.size() << " bytes, " << j.run.truth().reads.size() << " reads, "
                                        << j.run.truth().foreground_changes.size() << " foreground changes");
    BOOST_TEST(j.run.truth().reads.size() > 500u, "the heavy case is heavy");
    BOOST_TEST(page.size() < 1'000'000u);
}

BOOST_AUTO_TEST_CASE(S6_replay_html_to_an_unwritable_path_fails_naming_it) {
    const char* bin = std::getenv("DESKCHECK_BIN");
    BOOST_TEST_REQUIRE(bin != nullptr, "DESKCHECK_BIN is set by tests/CMakeLists.txt");
    // A folder that cannot exist: its parent is a regular file.
    const std::string out = "corpus/regressions/d1-current-same-desktop-holds.json/page.html";
    const std::string cmd = std::string(bin) + " replay corpus/regressions/d1-current-same-desktop-holds.json --html " + out + " 2>&1 >/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    BOOST_TEST_REQUIRE(p != nullptr);
    std::string err;
    std::array<char, 512> buffer{};
    while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), p) != nullptr) err += buffer.data();
    const int status = pclose(p);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 5);  // an output that cannot be written: infrastructure, as run and shrink
    BOOST_TEST(contains(err, out), err);
    BOOST_TEST(!contains(err, "written"), err);
    BOOST_TEST(!std::filesystem::exists(out));
}
