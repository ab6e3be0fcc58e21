// The timeline page in a real browser (issue 17), label `browser`. `deskcheck replay FILE --html`
// writes the page; headless Chromium (Debian's `chromium`, installed by tools/dc) opens it and
// dumps the DOM after the page's script ran (`--dump-dom`); the test reads that DOM:
//   - the page's script ran to its end (it sets data-script="ok" on <html>) and no error was
//     thrown (a window error listener, installed first, writes data-script-error into the DOM);
//   - one section per replayed run, every lane present in each (tool, user, each window);
//   - the header's property marked violated at the header's step where the file says it is (the
//     first run for outcome "violated", the header mutation's run for a "mutation"), and not marked
//     where it holds;
//   - the script ran within a second of navigation (data-render-ms).
// Each file of corpus/regressions/ is its own test, `S6_browser_<stem>` (tests/CMakeLists.txt).
// The negative tests break a page (a lane removed, a script error, a script that never ran, a
// violation expected elsewhere) and require the check to say so: the check can fail.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/scenario_json.h"
#include "tests/page_scenarios.h"

using namespace deskcheck;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t page_bytes_max = 1'000'000;

struct Command {
    int status = -1;
    std::string output;
};

Command run(const std::string& command) {
    Command out;
    FILE* p = popen(command.c_str(), "r");
    if (p == nullptr) return out;
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), p)) > 0) out.output.append(buffer.data(), n);
    const int status = pclose(p);
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

std::string quoted(const std::string& word) {
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string deskcheck_bin() {
    const char* bin = std::getenv("DESKCHECK_BIN");
    BOOST_TEST_REQUIRE(bin != nullptr, "DESKCHECK_BIN is set by tests/CMakeLists.txt");
    return bin;
}

std::string chromium_bin() {
    const char* env = std::getenv("DESKCHECK_CHROMIUM");
    const std::string bin = env != nullptr ? env : "/usr/bin/chromium";
    BOOST_TEST_REQUIRE(fs::exists(bin), bin << " is missing: install Debian's chromium (bash tools/dc test does)");
    return bin;
}

// A fresh folder for this test (parallel tests never share a browser profile).
fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("deskcheck-browser-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

fs::path write_page(const std::string& scenario_file, const fs::path& dir) {
    const fs::path page = dir / "page.html";
    const auto r = run(quoted(deskcheck_bin()) + " replay " + quoted(scenario_file) + " --html " + quoted(page.string()) + " 2>&1");
    BOOST_TEST_REQUIRE(r.status >= 0);
    BOOST_TEST_REQUIRE(r.status <= 1, "deskcheck replay --html failed:\n" << r.output);
    BOOST_TEST_REQUIRE(fs::exists(page));
    return page;
}

std::string dump_dom(const fs::path& page, const fs::path& dir) {
    const std::string cmd = "timeout 90 " + quoted(chromium_bin()) +
                            " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
                            " --user-data-dir=" + quoted((dir / "profile").string()) +
                            " --dump-dom " + quoted("file://" + fs::absolute(page).string()) + " 2>/dev/null";
    const auto r = run(cmd);
    BOOST_TEST_REQUIRE(r.status == 0, "chromium exited " << r.status);
    BOOST_TEST_REQUIRE(r.output.find("<html") != std::string::npos, "chromium printed no DOM");
    return r.output;
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

// ---- what the DOM must show ---------------------------------------------------------------------

struct Expected {
    std::vector<std::string> lanes;  // in every run
    std::size_t runs = 1;
    std::string property;
    // Per run: nullopt: the property must not be marked; "" : marked at any step; else the step.
    std::vector<std::optional<std::string>> violation;
};

Expected expected_of(const std::string& scenario_file) {
    const auto decoded = sim::decode_document(read_text(scenario_file));
    const auto* doc = std::get_if<sim::ScenarioDocument>(&decoded);
    BOOST_TEST_REQUIRE(doc != nullptr, scenario_file << " does not decode");
    Expected e;
    e.lanes = {"tool", "user"};
    for (const auto& w : doc->scenario.windows) e.lanes.push_back("w" + std::to_string(w.id));
    const auto& h = doc->counterexample;
    if (!h) {
        e.violation = {std::nullopt};
        return e;
    }
    e.property = h->property;
    const std::string step = h->step ? std::to_string(*h->step) : std::string();
    e.violation.push_back(h->expected_outcome == "violated" ? std::optional(step) : std::nullopt);
    if (h->mutation) {
        e.runs = 2;
        e.violation.push_back(step);
    }
    return e;
}

// The attributes of every start tag beginning with `open` ("<g class=\"violation-mark").
std::vector<std::map<std::string, std::string>> tags(const std::string& dom, const std::string& open) {
    static const std::regex attribute(R"re(([a-zA-Z-]+)="([^"]*)")re");
    std::vector<std::map<std::string, std::string>> out;
    for (auto at = dom.find(open); at != std::string::npos; at = dom.find(open, at + 1)) {
        const std::string tag = dom.substr(at, dom.find('>', at) - at);
        std::map<std::string, std::string> attributes;
        for (std::sregex_iterator it(tag.begin(), tag.end(), attribute), end; it != end; ++it) attributes[(*it)[1]] = (*it)[2];
        out.push_back(attributes);
    }
    return out;
}

bool has_word(const std::string& words, const std::string& word) {
    std::istringstream in(words);
    std::string w;
    while (in >> w) {
        if (w == word) return true;
    }
    return false;
}

std::vector<std::string> script_problems(const std::string& dom) {
    std::vector<std::string> out;
    const auto html = tags(dom, "<html");
    if (html.empty()) return {"no <html> element in the DOM"};
    const auto& a = html.front();
    if (a.count("data-script-error") != 0) out.push_back("script error: " + a.at("data-script-error"));
    if (a.count("data-script") == 0 || a.at("data-script") != "ok") out.push_back("the page's script did not run to its end");
    // The render time is printed, not asserted: a clock figure from a shared machine is no check
    // (a benchmark's business, not a test's).
    if (a.count("data-render-ms") != 0) BOOST_TEST_MESSAGE("the script finished " << a.at("data-render-ms") << " ms after navigation");
    return out;
}

using Attributes = std::map<std::string, std::string>;

std::string get(const Attributes& a, const std::string& name) {
    const auto it = a.find(name);
    return it == a.end() ? std::string() : it->second;
}

std::vector<std::string> run_problems(const std::string& section, std::size_t run, const Expected& e) {
    std::vector<std::string> out;
    const std::string where = "run " + std::to_string(run) + ": ";
    for (const auto& lane : e.lanes) {
        if (section.find("data-lane=\"" + lane + "\"") == std::string::npos) out.push_back(where + "lane " + lane + " is missing");
    }
    bool marked = false;
    for (const auto& mark : tags(section, "<g class=\"violation-mark")) {
        if (get(mark, "data-property") != e.property) continue;
        const auto& want = e.violation[run];
        const std::string step = get(mark, "data-violation-step");
        marked = true;
        if (want && !want->empty() && step != *want) {
            out.push_back(where + e.property + " marked at step " + step + ", expected step " + *want);
        }
        bool step_item = false;
        for (const auto& item : tags(section, "<g class=\"item step")) {
            step_item = step_item || (get(item, "data-step") == step && has_word(get(item, "class"), "violation"));
        }
        if (!step_item && step != "none") out.push_back(where + "no step item marked violation at step " + step);
    }
    if (e.violation[run] && !marked && !e.property.empty()) out.push_back(where + e.property + " is not marked violated");
    if (!e.violation[run] && marked) out.push_back(where + e.property + " is marked violated but should hold");
    return out;
}

std::vector<std::string> dom_problems(const std::string& dom, const Expected& e) {
    std::vector<std::string> out = script_problems(dom);
    std::vector<std::string> sections;
    for (auto at = dom.find("<section class=\"run\""); at != std::string::npos;) {
        const auto next = dom.find("<section class=\"run\"", at + 1);
        sections.push_back(dom.substr(at, next == std::string::npos ? std::string::npos : next - at));
        at = next;
    }
    if (sections.size() != e.runs) out.push_back(std::to_string(sections.size()) + " run sections, expected " + std::to_string(e.runs));
    for (std::size_t r = 0; r < sections.size() && r < e.violation.size(); ++r) {
        for (auto& p : run_problems(sections[r], r, e)) out.push_back(std::move(p));
    }
    return out;
}

std::string listed(const std::vector<std::string>& problems) {
    std::string out;
    for (const auto& p : problems) out += "\n  " + p;
    return out;
}

bool mentions(const std::vector<std::string>& problems, const std::string& part) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(part) != std::string::npos; });
}

// The file after `--` on the command line (Boost.Test leaves it in the master suite's argv).
std::optional<std::string> file_argument() {
    const auto& suite = boost::unit_test::framework::master_test_suite();
    if (suite.argc < 2) return std::nullopt;
    return std::string(suite.argv[suite.argc - 1]);
}

const std::string hold_file = "corpus/regressions/bug-current-hold-moved-across-windows-restored-the-wrong-window.json";

// The page of `file`, changed by `edit`, as the browser renders it.
std::string dom_of_edited_page(const std::string& file, const std::string& name, const std::function<std::string(std::string)>& edit) {
    const fs::path dir = scratch(name);
    const fs::path page = write_page(file, dir);
    write_text(page, edit(read_text(page)));
    const std::string dom = dump_dom(page, dir);
    fs::remove_all(dir);
    return dom;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    BOOST_TEST_REQUIRE(at != std::string::npos, "the page has no " << from);
    return text.replace(at, from.size(), to);
}

}  // namespace

// Registered once per file by tests/CMakeLists.txt (label `browser`); disabled so that running the
// executable without a file does not run it.
BOOST_AUTO_TEST_CASE(S6_browser_regression_page_renders_in_chromium, *boost::unit_test::disabled()) {
    const auto file = file_argument();
    BOOST_TEST_REQUIRE(file.has_value(), "usage: browser_tests --run_test=<this test> -- corpus/regressions/FILE.json");
    const Expected e = expected_of(*file);
    const fs::path dir = scratch(fs::path(*file).stem().string());
    const fs::path page = write_page(*file, dir);
    BOOST_TEST(fs::file_size(page) < page_bytes_max);
    const auto problems = dom_problems(dump_dom(page, dir), e);
    BOOST_TEST(problems.empty(), *file << ":" << listed(problems));
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(S6_browser_a_missing_lane_is_detected) {
    const std::string dom = dom_of_edited_page(hold_file, "missing-lane", [](std::string page) {
        return replaced(std::move(page), "data-lane=\"w2\"", "data-lane=\"gone\"");
    });
    const auto problems = dom_problems(dom, expected_of(hold_file));
    BOOST_TEST(mentions(problems, "run 0: lane w2 is missing"), listed(problems));
}

BOOST_AUTO_TEST_CASE(S6_browser_a_script_error_is_detected) {
    const std::string dom = dom_of_edited_page(hold_file, "script-error", [](std::string page) {
        return replaced(std::move(page), "</body>", "<script>no_such_function();</script></body>");
    });
    const auto problems = dom_problems(dom, expected_of(hold_file));
    BOOST_TEST(mentions(problems, "script error"), listed(problems));
}

BOOST_AUTO_TEST_CASE(S6_browser_a_page_whose_script_did_not_run_is_detected) {
    const std::string dom = dom_of_edited_page(hold_file, "no-script", [](std::string page) {
        return replaced(std::move(page), "root.setAttribute('data-script', 'ok');", "");
    });
    const auto problems = dom_problems(dom, expected_of(hold_file));
    BOOST_TEST(mentions(problems, "did not run to its end"), listed(problems));
}

BOOST_AUTO_TEST_CASE(S6_browser_a_violation_at_another_step_or_missing_is_detected) {
    const fs::path dir = scratch("other-step");
    const std::string dom = dump_dom(write_page(hold_file, dir), dir);
    fs::remove_all(dir);
    Expected e = expected_of(hold_file);
    BOOST_TEST(dom_problems(dom, e).empty(), listed(dom_problems(dom, e)));
    e.violation[1] = "1";  // the header says step 2
    BOOST_TEST(mentions(dom_problems(dom, e), "marked at step 2, expected step 1"), listed(dom_problems(dom, e)));
    e.violation[1].reset();  // "should hold"
    BOOST_TEST(mentions(dom_problems(dom, e), "marked violated but should hold"), listed(dom_problems(dom, e)));
    e.violation[0] = "";  // the first run has no violation marked
    BOOST_TEST(mentions(dom_problems(dom, e), "run 0: foreground_returned is not marked violated"), listed(dom_problems(dom, e)));
}

BOOST_AUTO_TEST_CASE(S6_browser_page_of_a_32_step_scenario_is_small_and_renders) {
    const fs::path dir = scratch("big");
    const fs::path scenario = dir / "big.json";
    write_text(scenario, sim::encode_scenario_text(testing::thirty_two_slow_steps()));
    const fs::path page = write_page(scenario.string(), dir);
    BOOST_TEST_MESSAGE("32-step page: " << fs::file_size(page) << " bytes");
    BOOST_TEST(fs::file_size(page) < page_bytes_max);
    Expected e = expected_of(scenario.string());
    const auto problems = dom_problems(dump_dom(page, dir), e);
    BOOST_TEST(problems.empty(), listed(problems));
    fs::remove_all(dir);
}
