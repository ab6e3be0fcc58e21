// The scenario file format (sim/scenario_json.h), its JSON Schema and the scenario generator.
// Files are read relative to the working directory, the repository root (ctest runs from there).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/desktop.h"
#include "sim/build.h"
#include "sim/largest_scenario.h"
#include "sim/scaled_scenario.h"
#include "sim/prng.h"
#include "sim/scenario.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"

using namespace deskcheck;
using namespace deskcheck::sim;

namespace {

using OJson = nlohmann::ordered_json;

const std::filesystem::path good_dir = "tests/data/good";
const std::filesystem::path bad_dir = "tests/data/bad";
const std::filesystem::path schema_path = "schema/deskcheck-scenario-1.schema.json";
constexpr std::uint64_t generated_count = 500;

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    BOOST_TEST_REQUIRE(in.good(), "cannot open " << path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// --- field-by-field comparison: the path of the first difference, "" when equal ---

std::string diff(const Monitor& a, const Monitor& b, const std::string& at);
std::string diff(const Control& a, const Control& b, const std::string& at);
std::string diff(const Window& a, const Window& b, const std::string& at);
std::string diff(const App& a, const App& b, const std::string& at);
std::string diff(const Event& a, const Event& b, const std::string& at);
std::string diff(const Step& a, const Step& b, const std::string& at);
std::string diff(const WindowId& a, const WindowId& b, const std::string& at);

#define DESKCHECK_DIFF(field) \
    if (!(a.field == b.field)) return at + "/" #field;

std::string diff(const Monitor& a, const Monitor& b, const std::string& at) {
    DESKCHECK_DIFF(id) DESKCHECK_DIFF(bounds) DESKCHECK_DIFF(dpi) DESKCHECK_DIFF(primary)
    return {};
}

std::string diff(const Control& a, const Control& b, const std::string& at) {
    DESKCHECK_DIFF(id) DESKCHECK_DIFF(parent) DESKCHECK_DIFF(kind) DESKCHECK_DIFF(role)
    DESKCHECK_DIFF(automation_id) DESKCHECK_DIFF(name) DESKCHECK_DIFF(own_handle) DESKCHECK_DIFF(bounds)
    DESKCHECK_DIFF(readability) DESKCHECK_DIFF(intermittent_permille) DESKCHECK_DIFF(value)
    DESKCHECK_DIFF(selection) DESKCHECK_DIFF(multiline) DESKCHECK_DIFF(toggled) DESKCHECK_DIFF(expanded)
    DESKCHECK_DIFF(selected) DESKCHECK_DIFF(feed) DESKCHECK_DIFF(comment)
    return {};
}

template <class T>
std::string diff_all(const std::vector<T>& a, const std::vector<T>& b, const std::string& at) {
    if (a.size() != b.size()) return at + " (size " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + ")";
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (auto d = diff(a[i], b[i], at + "/" + std::to_string(i)); !d.empty()) return d;
    }
    return {};
}

std::string diff(const Window& a, const Window& b, const std::string& at) {
    DESKCHECK_DIFF(id) DESKCHECK_DIFF(pid) DESKCHECK_DIFF(owner) DESKCHECK_DIFF(bounds)
    DESKCHECK_DIFF(awareness) DESKCHECK_DIFF(framework) DESKCHECK_DIFF(class_name) DESKCHECK_DIFF(title)
    DESKCHECK_DIFF(dirty) DESKCHECK_DIFF(form)
    return diff_all(a.controls, b.controls, at + "/controls");
}

std::string diff(const App& a, const App& b, const std::string& at) {
    DESKCHECK_DIFF(pid) DESKCHECK_DIFF(name) DESKCHECK_DIFF(latency_ms_min) DESKCHECK_DIFF(latency_ms_max)
    DESKCHECK_DIFF(feed_latency_ms) DESKCHECK_DIFF(steals_foreground_after_ms) DESKCHECK_DIFF(launchable)
    DESKCHECK_DIFF(launch_takes_foreground)
    return {};
}

std::string diff(const Event& a, const Event& b, const std::string& at) {
    DESKCHECK_DIFF(at_ms) DESKCHECK_DIFF(kind) DESKCHECK_DIFF(text) DESKCHECK_DIFF(point)
    DESKCHECK_DIFF(window) DESKCHECK_DIFF(control) DESKCHECK_DIFF(new_parent) DESKCHECK_DIFF(new_index)
    return {};
}

std::string diff(const FaultPlan& a, const FaultPlan& b, const std::string& at) {
    DESKCHECK_DIFF(read_failure_permille) DESKCHECK_DIFF(stale_read_permille)
    DESKCHECK_DIFF(delivery_error_permille) DESKCHECK_DIFF(delivery_exception_permille)
    DESKCHECK_DIFF(foreground_refusal_permille) DESKCHECK_DIFF(latency_overrun_permille)
    DESKCHECK_DIFF(latency_overrun_ms)
    return {};
}

std::string diff(const Step& a, const Step& b, const std::string& at) {
    DESKCHECK_DIFF(kind) DESKCHECK_DIFF(window) DESKCHECK_DIFF(control) DESKCHECK_DIFF(text)
    DESKCHECK_DIFF(keys) DESKCHECK_DIFF(point) DESKCHECK_DIFF(frame) DESKCHECK_DIFF(app)
    DESKCHECK_DIFF(depends_on) DESKCHECK_DIFF(idempotency_key) DESKCHECK_DIFF(ref_window)
    return {};
}

std::string diff(const WindowId& a, const WindowId& b, const std::string& at) { return a == b ? "" : at; }

std::string first_difference(const Scenario& a, const Scenario& b) {
    const std::string at;
    DESKCHECK_DIFF(seed) DESKCHECK_DIFF(rules) DESKCHECK_DIFF(batch) DESKCHECK_DIFF(foreground)
    DESKCHECK_DIFF(user_last_input_ms)
    for (const auto& d : {diff_all(a.monitors, b.monitors, "/monitors"), diff_all(a.windows, b.windows, "/windows"),
                          diff_all(a.hidden, b.hidden, "/hidden"), diff_all(a.apps, b.apps, "/apps"),
                          diff_all(a.events, b.events, "/events"), diff(a.faults, b.faults, "/faults"),
                          diff_all(a.steps, b.steps, "/steps")}) {
        if (!d.empty()) return d;
    }
    return {};
}

#undef DESKCHECK_DIFF

// --- decoding helpers ---

template <class T>
T decoded_or_fail(const std::variant<T, DecodeError>& result) {
    if (const auto* error = std::get_if<DecodeError>(&result)) {
        BOOST_FAIL("unexpected decode error: " << error->message());
    }
    return std::get<T>(result);
}

std::optional<DecodeError> error_of(const std::variant<ScenarioDocument, DecodeError>& result) {
    if (const auto* error = std::get_if<DecodeError>(&result)) return *error;
    return std::nullopt;
}

std::optional<DecodeError> decode_error(const OJson& document) {
    return error_of(decode_document(nlohmann::json::parse(document.dump())));
}

// --- scenarios written by hand ---

Control control(ElementId id, ControlKind kind, std::string role, Rect bounds) {
    Control c;
    c.id = id;
    c.kind = kind;
    c.role = std::move(role);
    c.bounds = bounds;
    return c;
}

Step step(StepKind kind, WindowId window, std::optional<ElementId> target) {
    Step out;
    out.kind = kind;
    out.window = window;
    out.control = target;
    return out;
}

Window notes_window() {
    Window w;
    w.id = 5;
    w.pid = 100;
    w.bounds = {100, 100, 900, 700};
    w.awareness = DpiAwareness::System;
    w.framework = Framework::WinForms;
    w.class_name = "WindowsForms10.Window.8.app.0";
    w.title = "Notes \xE2\x80\x93 \xC3\xBCn\xC3\xAF\x63ode \xE2\x9C\x93 *";
    w.dirty = true;
    w.form = true;
    w.controls.push_back(control(11, ControlKind::Group, "Group", {110, 140, 890, 690}));
    w.controls.back().automation_id = "grp";
    Control edit = control(12, ControlKind::Edit, "Edit", {120, 150, 880, 400});
    edit.parent = 11;
    edit.automation_id = "body";
    edit.name = "Body";
    edit.own_handle = true;
    edit.readability = Readability::Intermittent;
    edit.intermittent_permille = 250;
    edit.value = "line1\r\nline2\ttab \"quoted\" \\ back\x01";
    edit.selection = {2, 3};
    edit.multiline = true;
    w.controls.push_back(edit);
    w.controls.push_back(control(13, ControlKind::Toggle, "CheckBox", {120, 410, 300, 430}));
    w.controls.back().toggled = true;
    w.controls.back().readability = Readability::Unreadable;
    w.controls.push_back(control(14, ControlKind::Expander, "TreeItem", {120, 440, 300, 460}));
    w.controls.back().expanded = true;
    w.controls.push_back(control(15, ControlKind::ListItem, "ListItem", {120, 470, 300, 490}));
    w.controls.back().selected = true;
    w.controls.push_back(control(16, ControlKind::SubmitButton, "Button", {120, 500, 300, 520}));
    w.controls.push_back(control(17, ControlKind::Feed, "Text", {120, 530, 880, 600}));
    w.controls.back().value = "first\n";
    w.controls.push_back(control(18, ControlKind::PostButton, "Button", {120, 610, 300, 630}));
    w.controls.back().feed = 17;
    w.controls.back().comment = "hi there";
    w.controls.push_back(control(19, ControlKind::Button, "Button", {320, 610, 500, 630}));
    return w;
}

// Every field away from its default, every enum value, every optional both set and empty.
Scenario full_scenario() {
    Scenario s;
    s.seed = 0xFFFF'FFFF'FFFF'FFFFULL;
    s.rules = "published";
    s.batch = false;
    s.monitors = {Monitor{1, {0, 0, 1920, 1080}, 144, true}, Monitor{2, {1920, 0, 3200, 1024}, 96, false}};
    s.windows.push_back(notes_window());
    Window chat;
    chat.id = 6;
    chat.pid = 200;
    chat.owner = 5;
    chat.bounds = {2000, 50, 2600, 500};
    chat.awareness = DpiAwareness::Unaware;
    chat.framework = Framework::Wpf;
    chat.controls.push_back(control(21, ControlKind::Edit, "Edit", {2010, 100, 2590, 140}));
    s.windows.push_back(chat);
    Window popup;
    popup.id = 7;
    popup.pid = 200;
    popup.bounds = {300, 300, 400, 400};
    popup.framework = Framework::Electron;
    popup.awareness = DpiAwareness::PerMonitor;
    s.windows.push_back(popup);
    s.hidden = {7};
    s.apps = {App{100, "notes", 10, 350, 0, std::nullopt, false, false}, App{200, "chat", 0, 400, 900, 349, false, false},
              App{300, "paint", 0, 0, 0, std::nullopt, true, true}};
    s.foreground = 5;
    s.user_last_input_ms = -650;
    s.events = {Event{100, EventKind::UserTypes, "zz", {}, 0, 0, 0, 0},
                Event{701, EventKind::UserClicks, "", {500, 300}, 0, 0, 0, 0},
                Event{200, EventKind::WindowToFront, "", {}, 6, 0, 0, 0},
                Event{300, EventKind::PopupOpens, "", {}, 7, 0, 0, 0},
                Event{400, EventKind::TreeReorders, "", {}, 0, 13, 11, 2},
                Event{500, EventKind::ControlRemoved, "", {}, 0, 19, 0, 0},
                Event{600, EventKind::OccluderAppears, "", {}, 7, 0, 0, 0}};
    s.faults = FaultPlan{1, 2, 3, 4, 5, 6, 70};
    s.steps.push_back(step(StepKind::Type, 5, 12));
    s.steps.back().text = "abc\n";
    s.steps.push_back(step(StepKind::Hotkey, 5, 12));
    s.steps.back().keys = "ctrl+s";
    s.steps.push_back(step(StepKind::Click, 6, 16));  // a ref of w5 used on w6 (E-3)
    s.steps.back().depends_on = 1;
    s.steps.back().idempotency_key = "k1";
    s.steps.back().ref_window = 5;
    s.steps.push_back(step(StepKind::ClickAt, 5, std::nullopt));
    s.steps.back().point = Point{500, 300};
    s.steps.back().frame = "main";
    s.steps.push_back(step(StepKind::Launch, 0, std::nullopt));
    s.steps.back().app = "paint";
    s.steps.push_back(step(StepKind::Observe, 5, 12));
    s.steps.back().depends_on = 2;
    s.steps.push_back(step(StepKind::Type, 6, std::nullopt));
    s.steps.back().text = "x";
    return s;
}

// The least a valid scenario holds: every optional empty, every field at its default.
Scenario minimal_scenario() {
    Scenario s;
    s.monitors = {Monitor{1, {0, 0, 1280, 720}, 96, true}};
    Window w;
    w.bounds = {0, 0, 400, 300};
    w.controls.push_back(control(1, ControlKind::Edit, "Edit", {10, 40, 390, 70}));
    s.windows.push_back(w);
    s.apps.push_back(App{});
    s.steps.push_back(step(StepKind::Type, 1, std::nullopt));
    s.steps.back().text = "x";
    return s;
}

CounterexampleHeader full_header() {
    return CounterexampleHeader{"no_resend_after_unknown", "current", 42, "a save whose outcome was unknown was sent twice",
                                3, "violated", deskcheck::Mutation::RetryUnknownOnce};
}

Scenario generated(std::uint64_t seed, const BuildOptions& options = {}) {
    Prng rng(seed);
    return build_scenario_from_prng(rng, options);
}

void check_round_trip(const Scenario& original) {
    const std::string text = encode_scenario_text(original);
    const Scenario decoded = decoded_or_fail(decode_scenario(text));
    BOOST_TEST(first_difference(original, decoded) == "");
    BOOST_TEST(encode_scenario_text(decoded) == text);
}

struct ManifestLine {
    std::string file;
    std::string expected_path;
};

std::vector<ManifestLine> read_manifest() {
    std::istringstream in(read_file(bad_dir / "EXPECTED.txt"));
    std::vector<ManifestLine> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        BOOST_TEST_REQUIRE(tab != std::string::npos, "manifest line without a tab: " << line);
        lines.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return lines;
}

std::vector<std::string> strings(std::span<const std::string_view> names) { return {names.begin(), names.end()}; }

std::vector<std::string> strings(const OJson& array) {
    std::vector<std::string> out;
    for (const auto& item : array) out.push_back(item.get<std::string>());
    return out;
}

bool is_valid_utf8(const std::string& text) {
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

OJson load_schema() { return OJson::parse(read_file(schema_path)); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Round trips.

BOOST_AUTO_TEST_CASE(S1_canonical_encoding_round_trips_every_field) {
    check_round_trip(full_scenario());
    check_round_trip(minimal_scenario());
}

BOOST_AUTO_TEST_CASE(S1_canonical_encoding_round_trips_500_generated_scenarios) {
    for (std::uint64_t seed = 1; seed <= generated_count; ++seed) {
        BOOST_TEST_CONTEXT("seed " << seed) { check_round_trip(generated(seed)); }
    }
}

BOOST_AUTO_TEST_CASE(S1_hand_written_files_decode_and_canonical_files_are_fixed_points) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(good_dir)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    BOOST_TEST_REQUIRE(files.size() >= 3u);
    for (const auto& file : files) {
        BOOST_TEST_CONTEXT(file) {
            const std::string text = read_file(file);
            const ScenarioDocument document = decoded_or_fail(decode_document(text));
            const std::string canonical = encode_document_text(document);
            const ScenarioDocument again = decoded_or_fail(decode_document(canonical));
            BOOST_TEST(first_difference(document.scenario, again.scenario) == "");
            BOOST_TEST((document.counterexample == again.counterexample));
            BOOST_TEST(encode_document_text(again) == canonical);
            if (file.filename().string().starts_with("canonical_")) BOOST_TEST(canonical == text);
        }
    }
}

// The example in README "Scenario format" is a valid scenario.
BOOST_AUTO_TEST_CASE(S1_readme_example_decodes) {
    const std::string readme = read_file("README.md");
    const auto section = readme.find("## Scenario format");
    BOOST_TEST_REQUIRE(section != std::string::npos);
    const auto start = readme.find("```json\n", section);
    BOOST_TEST_REQUIRE(start != std::string::npos);
    const auto end = readme.find("\n```", start + 8);
    BOOST_TEST_REQUIRE(end != std::string::npos);
    const Scenario s = decoded_or_fail(decode_scenario(readme.substr(start + 8, end - start - 8)));
    BOOST_TEST(s.windows.size() == 1u);
    BOOST_TEST(s.steps.size() == 3u);
    BOOST_TEST(s.faults.stale_read_permille == 200u);
}

BOOST_AUTO_TEST_CASE(S1_canonical_encoding_writes_every_field_in_a_fixed_order) {
    const OJson encoded = encode_scenario(full_scenario());
    std::vector<std::string> keys;
    for (const auto& item : encoded.items()) keys.push_back(item.key());
    const std::vector<std::string> expected{"format", "seed", "rules", "batch", "monitors", "windows", "hidden", "apps",
                                            "foreground", "user_last_input_ms", "events", "faults", "steps"};
    BOOST_TEST(keys == expected, boost::test_tools::per_element());
    BOOST_TEST(encoded["windows"][0]["owner"].is_null());
    BOOST_TEST(encoded["windows"][1]["owner"] == 5);
    BOOST_TEST(encoded["windows"][0]["awareness"] == "system");
    BOOST_TEST(encoded["windows"][0]["controls"][1]["kind"] == "edit");
    BOOST_TEST(encoded["steps"][3]["kind"] == "click_at");
    BOOST_TEST(encoded["steps"][0]["point"].is_null());
    const std::string text = encode_scenario_text(full_scenario());
    BOOST_TEST(text.ends_with("}\n"));
    BOOST_TEST(text.starts_with("{\n  \"format\": \"deskcheck-scenario/1\",\n"));
}

BOOST_AUTO_TEST_CASE(S1_counterexample_header_round_trips_and_is_optional) {
    const ScenarioDocument document{full_scenario(), full_header()};
    const std::string text = encode_document_text(document);
    const ScenarioDocument decoded = decoded_or_fail(decode_document(text));
    BOOST_TEST_REQUIRE(decoded.counterexample.has_value());
    BOOST_TEST((*decoded.counterexample == full_header()));
    BOOST_TEST(first_difference(decoded.scenario, document.scenario) == "");
    BOOST_TEST(encode_document_text(decoded) == text);
    // Right after "format", so a reader sees it first.
    const OJson encoded = encode_document(document);
    auto second = encoded.begin();
    ++second;
    BOOST_TEST(second.key() == "counterexample");
    // decode_scenario accepts a counterexample file and drops its header.
    const Scenario alone = decoded_or_fail(decode_scenario(text));
    BOOST_TEST(encode_scenario_text(alone) == encode_scenario_text(document.scenario));
    BOOST_TEST(!encode_scenario(alone).contains("counterexample"));
    CounterexampleHeader minimal{"p", "published", 1, "s", std::nullopt, "", std::nullopt};
    const ScenarioDocument bare{full_scenario(), minimal};
    BOOST_TEST((decoded_or_fail(decode_document(encode_document_text(bare))).counterexample == minimal));
    // "mutation" is optional: a header written before it existed decodes as having none.
    OJson without_mutation = encode_document(document);
    without_mutation["counterexample"].erase("mutation");
    const ScenarioDocument old_header = decoded_or_fail(decode_document(without_mutation));
    BOOST_TEST_REQUIRE(old_header.counterexample.has_value());
    BOOST_TEST(!old_header.counterexample->mutation.has_value());
    BOOST_TEST(encoded["counterexample"]["mutation"] == "retry_unknown_once");
}

// ---------------------------------------------------------------------------------------------
// Bad input.

BOOST_AUTO_TEST_CASE(S1_bad_files_are_rejected_with_their_expected_path) {
    const auto manifest = read_manifest();
    BOOST_TEST(manifest.size() >= 30u);
    std::set<std::string> listed;
    for (const auto& line : manifest) {
        BOOST_TEST_CONTEXT(line.file) {
            listed.insert(line.file);
            const std::string text = read_file(bad_dir / line.file);
            std::optional<DecodeError> error;
            BOOST_CHECK_NO_THROW(error = error_of(decode_document(text)));
            BOOST_TEST_REQUIRE(error.has_value(), line.file << " decoded without an error");
            BOOST_TEST(error->path == line.expected_path, error->message());
            BOOST_TEST(!error->reason.empty());
            BOOST_TEST(is_valid_utf8(error->message()));  // messages can be embedded in JSON output
            // decode_scenario says the same.
            const auto via_scenario = decode_scenario(text);
            BOOST_TEST_REQUIRE(std::holds_alternative<DecodeError>(via_scenario));
            BOOST_TEST((std::get<DecodeError>(via_scenario) == *error));
        }
    }
    for (const auto& entry : std::filesystem::directory_iterator(bad_dir)) {
        const std::string name = entry.path().filename().string();
        if (name != "EXPECTED.txt") BOOST_TEST(listed.contains(name), name << " is not in EXPECTED.txt");
    }
}

BOOST_AUTO_TEST_CASE(S1_decode_errors_read_path_colon_reason) {
    const auto message = [](const std::string& file) {
        const auto error = error_of(decode_document(read_file(bad_dir / file)));
        return error ? error->message() : std::string("(no error)");
    };
    BOOST_TEST(message("monitor_dpi_out_of_range.json") == "/monitors/0/dpi: 300 is out of range [96, 288]");
    BOOST_TEST(message("window_pid_string.json") == "/windows/1/pid: expected an unsigned integer, got string");
    BOOST_TEST(message("window_bounds_missing.json") == "/windows/0/bounds: missing required field");
    BOOST_TEST(message("format_unknown_version.json") ==
               "/format: unknown format version \"deskcheck-scenario/2\" (expected \"deskcheck-scenario/1\")");
    BOOST_TEST(message("control_kind_unknown.json") ==
               "/windows/0/controls/0/kind: unknown control kind \"Editt\" (expected one of: edit, toggle, expander, "
               "list_item, button, submit_button, post_button, feed, group)");
    BOOST_TEST(message("monitor_dpi_float.json") == "/monitors/0/dpi: expected an unsigned integer, got float 96.5");
    BOOST_TEST(message("window_pid_negative.json") == "/windows/0/pid: -1 is out of range [0, 4294967295]");
    BOOST_TEST(message("too_many_windows.json") == "/windows: 17 elements, more than the limit of 16");
    BOOST_TEST(message("duplicate_key_top_level.json") == "/seed: duplicate key \"seed\"");
    BOOST_TEST(message("empty.json") == "/: empty input (expected a JSON object)");
    BOOST_TEST(message("truncated.json").starts_with("/: truncated or invalid JSON at byte "));
    BOOST_TEST(message("deep_nesting.json") == "/: nesting deeper than 64 levels at byte 65");
    BOOST_TEST(message("counterexample_unknown_mutation.json") ==
               "/counterexample/mutation: unknown mutation \"no_give_back\" (expected one of: unreadable_as_empty, "
               "retry_unknown_once, no_give_back_on_failure, restore_over_another_window, ignore_window_binding, "
               "click_without_hit_test, inverted_dpi, restored_despite_refusal, phantom_readback, not_done_despite_effect, "
               "unknown_instead_of_absent, no_user_wait, skip_boundary_observation, proceed_on_needs_evidence, "
               "retry_unknown_write, drop_idempotency_key, retry_claim_dropped, retry_claim_made_up, escalate_every_dependency, posted_click_to_buttons, borrow_for_every_window, focused_ref_is_acted_element, never_allow_retry, unknown_instead_of_confirmed, unknown_for_typing, settle_cut_short, shared_identity_gives_up, occluded_whatever_hit, posted_chords_to_edits, lets_go_before_landing, hotkey_marker_unread)");
    BOOST_TEST(message("counterexample_mutation_none.json") ==
               "/counterexample/mutation: \"none\" is the tool as it is, not a mutation (leave the field out, or null)");
    BOOST_TEST(message("unknown_window_field.json").starts_with("/windows/0/bonds: unknown field \"bonds\" (expected one of: id, pid,"));
}

BOOST_AUTO_TEST_CASE(S1_input_bounds_are_checked_before_parsing) {
    const std::string huge(scenario_text_bytes_max + 1, ' ');
    const auto too_big = error_of(decode_document(huge));
    BOOST_TEST_REQUIRE(too_big.has_value());
    BOOST_TEST(too_big->message() == "/: input is 1048577 bytes, more than the limit of 1048576");
    // 64 levels are fine for the prescan (the parser then finds the document is not a scenario).
    const std::string deep_ok = std::string(64, '[') + std::string(64, ']');
    const auto at_limit = error_of(decode_document(deep_ok));
    BOOST_TEST_REQUIRE(at_limit.has_value());
    BOOST_TEST(at_limit->message() == "/: expected an object, got array");
    // Brackets inside strings are text, not nesting.
    Scenario s = full_scenario();
    s.windows[0].title = std::string(200, '[') + "\"{" + std::string(100, '{');
    check_round_trip(s);
}

// nlohmann/json stops at a NUL byte: a valid document followed by NUL and garbage was accepted.
BOOST_AUTO_TEST_CASE(S1_a_nul_byte_anywhere_is_refused) {
    const std::string text = encode_document_text({full_scenario(), full_header()});
    const auto after = error_of(decode_document(text + std::string(1, '\0') + "garbage"));
    BOOST_TEST_REQUIRE(after.has_value());
    BOOST_TEST(after->message() == "/: a NUL byte at byte " + std::to_string(text.size() + 1) + " (not JSON text)");
    std::string inside = text;
    inside[inside.find("\"seed\"") + 2] = '\0';
    BOOST_TEST(error_of(decode_document(inside)).has_value());
}

// Truncations and byte substitutions of a real file: every one ends as a value, never a throw.
BOOST_AUTO_TEST_CASE(S1_decoding_never_throws_on_mangled_input) {
    const std::string text = encode_document_text({full_scenario(), full_header()});
    const std::string replacements = "\"{}[],:0-9eE\\\x80\xff tn";
    constexpr std::size_t positions = 300;
    std::size_t errors = 0;
    for (std::size_t at = 0; at < text.size(); at += text.size() / positions + 1) {
        std::vector<std::string> variants{text.substr(0, at)};
        for (const char c : replacements) variants.push_back(text.substr(0, at) + c + text.substr(at + 1));
        for (const auto& input : variants) {
            std::variant<ScenarioDocument, DecodeError> result;
            BOOST_CHECK_NO_THROW(result = decode_document(input));
            if (const auto* error = std::get_if<DecodeError>(&result)) {
                ++errors;
                BOOST_TEST((!error->path.empty() && error->path[0] == '/'), error->message());
                BOOST_TEST(!error->reason.empty());
                BOOST_TEST(is_valid_utf8(error->message()));
            }
        }
    }
    BOOST_TEST(errors > positions * replacements.size() / 2);  // most mangled files are rejected
}

BOOST_AUTO_TEST_CASE(S1_decoding_a_json_value_never_throws) {
    const std::vector<nlohmann::json> values{
        nullptr, 1, -1, 1.5, "text", nlohmann::json::array(), nlohmann::json::object(),
        nlohmann::json::binary({1, 2, 3}), nlohmann::json(nlohmann::json::value_t::discarded),
        nlohmann::json{{"format", "deskcheck-scenario/1"}, {"seed", nlohmann::json::binary({1})}},
        nlohmann::json{{"format", "deskcheck-scenario/1"}, {"seed", 1}, {"monitors", nlohmann::json::array({nullptr})}}};
    for (const auto& value : values) {
        BOOST_TEST_CONTEXT(value.type_name()) {
            std::variant<Scenario, DecodeError> result;
            BOOST_CHECK_NO_THROW(result = decode_scenario(value));
            BOOST_TEST(std::holds_alternative<DecodeError>(result));
        }
    }
    // An in-memory value with signed non-negative integers decodes like parsed text.
    nlohmann::json document = nlohmann::json::parse(encode_scenario_text(full_scenario()));
    document["monitors"][0]["dpi"] = static_cast<std::int64_t>(144);
    document["seed"] = static_cast<std::int64_t>(9);
    const Scenario decoded = decoded_or_fail(decode_scenario(document));
    BOOST_TEST(decoded.monitors[0].dpi == 144u);
    BOOST_TEST(decoded.seed == 9u);
    BOOST_TEST(first_difference(decoded_or_fail(decode_scenario(encode_scenario(decoded))), decoded) == "");
}

// ---------------------------------------------------------------------------------------------
// The schema cannot drift from the codec.

BOOST_AUTO_TEST_CASE(S1_schema_enums_equal_the_codec_spellings) {
    const OJson schema = load_schema();
    BOOST_TEST(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    const std::map<std::string, std::span<const std::string_view>> codec{
        {"control_kind", control_kind_names()}, {"readability", readability_names()},
        {"dpi_awareness", dpi_awareness_names()}, {"framework", framework_names()},
        {"event_kind", event_kind_names()}, {"step_kind", step_kind_names()},
        {"rule_set", rule_set_names()}, {"role", role_names()}, {"mutation", mutation_names()}};
    for (const auto& [name, names] : codec) {
        BOOST_TEST_CONTEXT(name) {
            BOOST_TEST_REQUIRE(schema["$defs"].contains(name));
            BOOST_TEST(strings(schema["$defs"][name]["enum"]) == strings(names), boost::test_tools::per_element());
        }
    }
    BOOST_TEST(std::is_sorted(role_names().begin(), role_names().end()));
    // The model's own spellings agree with the file's.
    for (std::size_t i = 0; i < dpi_awareness_names().size(); ++i)
        BOOST_TEST(to_string(static_cast<DpiAwareness>(i)) == dpi_awareness_names()[i]);
    // The header's mutations are the tool's, None left out.
    for (std::size_t i = 0; i < mutation_names().size(); ++i)
        BOOST_TEST(to_string(static_cast<deskcheck::Mutation>(i + 1)) == mutation_names()[i]);
    for (std::size_t i = 0; i < framework_names().size(); ++i)
        BOOST_TEST(to_string(static_cast<Framework>(i)) == framework_names()[i]);
}

BOOST_AUTO_TEST_CASE(S1_every_schema_enum_value_decodes) {
    const OJson schema = load_schema();
    const OJson document = encode_document({full_scenario(), full_header()});
    const std::vector<std::pair<std::string, std::string>> sites{
        {"control_kind", "/windows/0/controls/8/kind"}, {"readability", "/windows/0/controls/0/readability"},
        {"dpi_awareness", "/windows/0/awareness"}, {"framework", "/windows/0/framework"},
        {"event_kind", "/events/0/kind"}, {"step_kind", "/steps/0/kind"},
        {"rule_set", "/rules"}, {"role", "/windows/0/controls/0/role"}, {"mutation", "/counterexample/mutation"}};
    for (const auto& [def, pointer] : sites) {
        for (const auto& value : schema["$defs"][def]["enum"]) {
            BOOST_TEST_CONTEXT(pointer << " = " << value) {
                OJson changed = document;
                changed[OJson::json_pointer(pointer)] = value;
                const auto error = decode_error(changed);
                // Accepted by the codec: whatever else validate() may say, it is not about this field.
                BOOST_TEST((!error || error->path != pointer), (error ? error->message() : ""));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(S1_schema_properties_and_required_fields_equal_the_codec) {
    const OJson schema = load_schema();
    const OJson document = encode_document({full_scenario(), full_header()});
    const std::vector<std::pair<std::string, std::string>> objects{
        {"", ""}, {"/counterexample", "counterexample"}, {"/monitors/0", "monitor"}, {"/windows/0", "window"},
        {"/windows/0/controls/1", "control"}, {"/apps/0", "app"}, {"/events/0", "event"}, {"/faults", "faults"},
        {"/steps/3", "step"}, {"/windows/0/bounds", "rect"}, {"/steps/3/point", "point"},
        {"/windows/0/controls/1/selection", "selection"}};
    for (const auto& [pointer, def] : objects) {
        BOOST_TEST_CONTEXT("object " << (pointer.empty() ? "/" : pointer)) {
            const OJson& object = document[OJson::json_pointer(pointer)];
            const OJson& described = def.empty() ? schema : schema["$defs"][def];
            BOOST_TEST(described["additionalProperties"] == false);
            std::vector<std::string> encoded_keys;
            std::set<std::string> required_by_codec;
            for (const auto& item : object.items()) {
                encoded_keys.push_back(item.key());
                OJson without = document;
                without[OJson::json_pointer(pointer)].erase(item.key());
                const auto error = decode_error(without);
                if (error && error->path == pointer + "/" + item.key() && error->reason == "missing required field")
                    required_by_codec.insert(item.key());
            }
            std::vector<std::string> schema_keys;
            for (const auto& item : described["properties"].items()) schema_keys.push_back(item.key());
            BOOST_TEST(schema_keys == encoded_keys, boost::test_tools::per_element());
            const auto schema_required = strings(described["required"]);
            BOOST_TEST((std::set<std::string>(schema_required.begin(), schema_required.end()) == required_by_codec));
        }
    }
}

BOOST_AUTO_TEST_CASE(S1_schema_bounds_equal_the_scenario_limits) {
    const OJson schema = load_schema();
    const OJson& top = schema["properties"];
    const OJson& defs = schema["$defs"];
    BOOST_TEST(top["format"]["const"] == std::string(scenario_format));
    BOOST_TEST(top["monitors"]["maxItems"] == monitors_max);
    BOOST_TEST(top["windows"]["maxItems"] == windows_max);
    BOOST_TEST(top["hidden"]["maxItems"] == windows_max);
    BOOST_TEST(top["apps"]["maxItems"] == windows_max);
    BOOST_TEST(top["events"]["maxItems"] == events_max);
    BOOST_TEST(top["steps"]["maxItems"] == steps_max);
    BOOST_TEST(defs["window"]["properties"]["controls"]["maxItems"] == controls_per_window_max);
    BOOST_TEST(defs["dpi"]["minimum"] == dpi_min);
    BOOST_TEST(defs["dpi"]["maximum"] == dpi_max);
    BOOST_TEST(defs["coordinate"]["minimum"] == -coordinate_limit);
    BOOST_TEST(defs["coordinate"]["maximum"] == coordinate_limit);
    BOOST_TEST(defs["latency_ms"]["maximum"] == latency_ms_limit);
    BOOST_TEST(defs["event_time_ms"]["maximum"] == event_time_ms_limit);
    BOOST_TEST(top["user_last_input_ms"]["minimum"] == -event_time_ms_limit);
    BOOST_TEST(defs["permille"]["maximum"] == 1000);
    BOOST_TEST(defs["text"]["maxLength"] == text_length_max);
    BOOST_TEST(defs["step_index"]["maximum"] == steps_max - 1);
}

// ---------------------------------------------------------------------------------------------
// The generator.

BOOST_AUTO_TEST_CASE(S1_generated_scenarios_pass_validate) {
    const std::vector<BuildOptions> options{
        {}, BuildOptions{16, 64, 32, true, true, true}, BuildOptions{1, 1, 1, false, false, false}};
    for (const auto& option : options) {
        for (std::uint64_t seed = 1; seed <= generated_count; ++seed) {
            BOOST_TEST_CONTEXT("seed " << seed << ", windows_max " << option.windows_max) {
                const auto invalid = validate(generated(seed, option));
                BOOST_TEST(!invalid.has_value(), (invalid ? invalid->path + ": " + invalid->reason : ""));
            }
        }
    }
}

// The one builder (sim/build.h): an exhausted or zeroed choice stream builds the simplest desktop,
// whatever the source (an empty byte input, an empty or all-zero choice vector).
BOOST_AUTO_TEST_CASE(S2_zero_choices_build_the_simplest_desktop) {
    const Scenario from_vector = build_scenario_from_vector({});
    const Scenario from_zeros = build_scenario_from_vector(std::vector<std::uint32_t>(500, 0));
    const Scenario from_bytes = build_scenario_from_bytes(nullptr, 0);
    BOOST_TEST(encode_scenario_text(from_zeros) == encode_scenario_text(from_vector));
    BOOST_TEST(encode_scenario_text(from_bytes) == encode_scenario_text(from_vector));
    const Scenario& s = from_vector;
    BOOST_TEST(!validate(s).has_value());
    BOOST_TEST(s.monitors.size() == 1u);
    BOOST_TEST(s.windows.size() == 1u);
    BOOST_TEST(s.windows.front().controls.size() == 1u);
    BOOST_TEST((s.windows.front().controls.front().readability == Readability::Readable));
    BOOST_TEST(s.windows.front().controls.front().enabled);
    BOOST_TEST(s.hidden.empty());
    BOOST_TEST(s.events.empty());
    BOOST_TEST(s.faults.read_failure_permille == 0);
    BOOST_TEST(s.faults.stale_read_permille == 0);
    BOOST_TEST(s.faults.delivery_error_permille == 0);
    BOOST_TEST(s.faults.delivery_exception_permille == 0);
    BOOST_TEST(s.faults.foreground_refusal_permille == 0);
    BOOST_TEST(s.faults.latency_overrun_permille == 0);
    BOOST_TEST(s.batch);
    BOOST_TEST(s.steps.size() == 1u);
    BOOST_TEST(s.steps.front().text.size() <= 1u);
    BOOST_TEST(s.apps.front().latency_ms_max == 0);
}

// The PRNG's answers, recorded as a choice vector, rebuild the same scenario: a campaign case can be
// shrunk as a choice vector (harness/choice_shrink.h).
BOOST_AUTO_TEST_CASE(S1_recorded_prng_answers_rebuild_the_same_scenario) {
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        Prng rng(seed);
        PrngChoices prng(rng);
        RecordingChoices recording(prng);
        const Scenario original = build_scenario(recording, fuzz_build_options());
        BOOST_TEST_CONTEXT("seed " << seed) {
            BOOST_TEST(encode_scenario_text(build_scenario_from_vector(recording.recorded(), fuzz_build_options())) ==
                       encode_scenario_text(original));
        }
    }
}

// Any bytes build a valid scenario (fuzz_batch treats an invalid one as a broken invariant).
BOOST_AUTO_TEST_CASE(S2_any_bytes_build_a_valid_scenario) {
    Prng rng(99);
    for (int i = 0; i < 2000; ++i) {
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(rng.below(600)));
        for (auto& b : bytes) b = static_cast<std::uint8_t>(rng.below(256));
        const auto invalid = validate(build_scenario_from_bytes(bytes.data(), bytes.size()));
        BOOST_TEST(!invalid.has_value(), "input " << i << ": " << (invalid ? invalid->path + ": " + invalid->reason : ""));
    }
}

BOOST_AUTO_TEST_CASE(S1_generation_is_deterministic_in_the_prng_state) {
    std::set<std::string> distinct;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const std::string first = encode_scenario_text(generated(seed));
        BOOST_TEST(encode_scenario_text(generated(seed)) == first);
        distinct.insert(first);
    }
    BOOST_TEST(distinct.size() == 50u);
    // The PRNG state, not only the seed: two draws in a row differ, and replay the same way.
    Prng a(7);
    Prng b(7);
    const std::string a1 = encode_scenario_text(build_scenario_from_prng(a));
    const std::string a2 = encode_scenario_text(build_scenario_from_prng(a));
    BOOST_TEST(a1 != a2);
    BOOST_TEST(encode_scenario_text(build_scenario_from_prng(b)) == a1);
    BOOST_TEST(encode_scenario_text(build_scenario_from_prng(b)) == a2);
}

BOOST_AUTO_TEST_CASE(S1_generator_respects_its_size_options) {
    const BuildOptions small{2, 3, 4, true, true, true};
    for (std::uint64_t seed = 1; seed <= generated_count; ++seed) {
        const Scenario s = generated(seed, small);
        const std::size_t visible = s.windows.size() - s.hidden.size();
        BOOST_TEST((visible >= 1 && visible <= 2));
        BOOST_TEST((s.steps.size() >= 1 && s.steps.size() <= 4));
        for (const auto& w : s.windows) BOOST_TEST(w.controls.size() <= 4u);  // a feed may join its post button
        BOOST_TEST(s.rules == "current");
    }
    const Scenario biggest = generated(3, BuildOptions{1000, 1000, 1000, true, true, true});
    BOOST_TEST(biggest.windows.size() <= windows_max);
    BOOST_TEST(biggest.steps.size() <= steps_max);
}

namespace {

struct Coverage {
    std::set<std::uint32_t> dpis;
    std::set<Framework> frameworks;
    std::set<DpiAwareness> awarenesses;
    std::set<ControlKind> kinds;
    std::set<Readability> readabilities;
    std::set<EventKind> events;
    std::set<StepKind> steps;
    std::size_t two_monitors = 0, three_processes = 0, multiline_edits = 0, selections = 0;
    std::size_t latencies_in_settle_range = 0, steals = 0, depends_on = 0, untargeted_types = 0;
    std::size_t early_user_events = 0, tab_or_enter_texts = 0, click_at_main = 0, unbatched = 0;
    std::size_t scenarios_with_faults = 0, scenarios_without_faults = 0;
    std::map<std::string, std::size_t> fault_kinds_on;
    std::set<std::string> hotkeys;

    void add_windows(const Scenario& s) {
        for (const auto& w : s.windows) {
            frameworks.insert(w.framework);
            awarenesses.insert(w.awareness);
            for (const auto& c : w.controls) {
                kinds.insert(c.kind);
                readabilities.insert(c.readability);
                multiline_edits += c.kind == ControlKind::Edit && c.value.find('\n') != std::string::npos;
                selections += c.selection.length > 0;
            }
        }
    }
    void add_faults(const FaultPlan& f) {
        const std::map<std::string, std::uint16_t> rates{
            {"read_failure", f.read_failure_permille}, {"stale_read", f.stale_read_permille},
            {"delivery_error", f.delivery_error_permille}, {"delivery_exception", f.delivery_exception_permille},
            {"foreground_refusal", f.foreground_refusal_permille}, {"latency_overrun", f.latency_overrun_permille}};
        bool any = false;
        for (const auto& [kind, rate] : rates) {
            fault_kinds_on[kind] += rate > 0;
            any = any || rate > 0;
        }
        (any ? scenarios_with_faults : scenarios_without_faults) += 1;
    }
    void add(const Scenario& s) {
        for (const auto& m : s.monitors) dpis.insert(m.dpi);
        two_monitors += s.monitors.size() == 2;
        three_processes += s.apps.size() == 3;
        unbatched += !s.batch;
        add_windows(s);
        for (const auto& a : s.apps) {
            latencies_in_settle_range += a.latency_ms_max >= 50 && a.latency_ms_max <= 400;
            steals += a.steals_foreground_after_ms.has_value();
        }
        for (const auto& e : s.events) {
            events.insert(e.kind);
            early_user_events += (e.kind == EventKind::UserTypes || e.kind == EventKind::UserClicks) && e.at_ms <= 3500;
        }
        for (const auto& step : s.steps) {
            steps.insert(step.kind);
            depends_on += step.depends_on.has_value();
            untargeted_types += step.kind == StepKind::Type && !step.control;
            tab_or_enter_texts += step.text.find_first_of("\t\n") != std::string::npos;
            click_at_main += step.kind == StepKind::ClickAt && step.frame == "main" && step.point.has_value();
            if (step.kind == StepKind::Hotkey) hotkeys.insert(step.keys);
        }
        add_faults(s.faults);
    }
};

Coverage coverage_of(const BuildOptions& options) {
    Coverage coverage;
    for (std::uint64_t seed = 1; seed <= generated_count; ++seed) coverage.add(generated(seed, options));
    return coverage;
}

}  // namespace

BOOST_AUTO_TEST_CASE(S2_generator_draws_monitors_dpis_frameworks_and_awareness) {
    const Coverage c = coverage_of({});
    BOOST_TEST(c.dpis.size() == 7u);
    BOOST_TEST(c.frameworks.size() == 4u);
    BOOST_TEST(c.awarenesses.size() == 3u);
    BOOST_TEST(c.two_monitors > 0u);
    BOOST_TEST(c.three_processes > 0u);
}

BOOST_AUTO_TEST_CASE(S3_generator_draws_every_control_kind_and_readability) {
    const Coverage c = coverage_of({});
    BOOST_TEST(c.kinds.size() == control_kind_names().size());
    BOOST_TEST(c.readabilities.size() == 3u);
    BOOST_TEST(c.multiline_edits > 0u);
    BOOST_TEST(c.selections > 0u);
}

BOOST_AUTO_TEST_CASE(S4_generator_draws_latencies_near_settle_windows_and_foreground_steals) {
    const Coverage c = coverage_of({});
    BOOST_TEST(c.latencies_in_settle_range > 0u);
    BOOST_TEST(c.steals > 0u);
    BOOST_TEST(c.depends_on > 0u);
    BOOST_TEST(c.unbatched > 0u);
    BOOST_TEST(c.steps.size() == 6u);  // type, hotkey, click, click_at, and the rare launch and observe
    BOOST_TEST(c.hotkeys.size() == 7u);
    BOOST_TEST(c.untargeted_types > 0u);
    BOOST_TEST(c.tab_or_enter_texts > 0u);
    BOOST_TEST(c.click_at_main > 0u);
}

BOOST_AUTO_TEST_CASE(S5_generator_draws_user_and_hostile_events) {
    const Coverage c = coverage_of({});
    BOOST_TEST(c.events.size() == event_kind_names().size());
    BOOST_TEST(c.early_user_events > 0u);
}

BOOST_AUTO_TEST_CASE(S7_generator_swarms_whole_fault_kinds_on_and_off) {
    const Coverage c = coverage_of({});
    BOOST_TEST(c.scenarios_with_faults > 0u);
    BOOST_TEST(c.scenarios_without_faults > 0u);
    for (const auto& [kind, on] : c.fault_kinds_on) {
        BOOST_TEST_CONTEXT(kind) {
            BOOST_TEST(on > 0u);
            BOOST_TEST(on < generated_count);
        }
    }
}

BOOST_AUTO_TEST_CASE(S7_generator_options_switch_off_faults_user_and_hostile_events) {
    // Hostile events off and rare steps off (a launchable app's window is hidden until launched).
    const BuildOptions off{4, 6, 8, false, false, false, true, true, false, false};
    const Coverage c = coverage_of(off);
    BOOST_TEST(c.scenarios_with_faults == 0u);
    BOOST_TEST(c.events.empty());
    for (std::uint64_t seed = 1; seed <= 100; ++seed) BOOST_TEST(generated(seed, off).hidden.empty());
}

// --- the canonical text of an accepted document is accepted again (issue 15, item 6) ---

namespace {

// A desktop with every array at its limit: 4 monitors, 16 windows of 64 controls, 16 apps, 64 user
// and 32 other events, 32 steps; every control's value, name and automation id `text_bytes` long.
Scenario maximum_size_scenario(std::size_t text_bytes) {
    Scenario s;
    s.seed = 0xffff'ffff'ffff'ffffULL;
    for (std::uint32_t m = 0; m < monitors_max; ++m) {
        const std::int32_t left = static_cast<std::int32_t>(m) * 2000;
        s.monitors.push_back(Monitor{m + 1, Rect{left, 0, left + 1920, 1080}, 96, m == 0});
    }
    const std::string text(text_bytes, 'x');
    ElementId next_control = 1;
    for (std::uint32_t w = 0; w < windows_max; ++w) {
        Window win;
        win.id = w + 1;
        win.pid = 100 + w;
        win.bounds = Rect{0, 0, 1600, 1000};
        win.title = text;
        for (std::size_t c = 0; c < controls_per_window_max; ++c) {
            Control ctl;
            ctl.id = next_control++;
            ctl.kind = ControlKind::Edit;
            ctl.role = "Edit";
            ctl.automation_id = text;
            ctl.name = text;
            ctl.value = text;
            const auto row = static_cast<std::int32_t>(c);
            ctl.bounds = Rect{10, 10 + row * 15, 1500, 20 + row * 15};
            win.controls.push_back(std::move(ctl));
        }
        s.windows.push_back(std::move(win));
        App app;
        app.pid = 100 + w;
        app.name = "app" + std::to_string(w);
        s.apps.push_back(app);
    }
    s.foreground = 1;
    for (std::size_t e = 0; e < user_events_max; ++e) {
        Event ev;
        ev.at_ms = static_cast<TimeMs>(100 * e);
        ev.kind = EventKind::UserTypes;
        ev.text = text;
        s.events.push_back(ev);
    }
    for (std::size_t e = 0; e < app_events_max; ++e) {
        Event ev;
        ev.at_ms = static_cast<TimeMs>(100 * e);
        ev.kind = EventKind::WindowToFront;
        ev.window = static_cast<WindowId>(1 + e % windows_max);
        s.events.push_back(ev);
    }
    for (std::size_t i = 0; i < steps_max; ++i) {
        Step st;
        st.kind = StepKind::Type;
        st.window = 1;
        st.control = static_cast<ElementId>(1 + i);
        st.text = text;
        s.steps.push_back(st);
    }
    return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(S1_the_canonical_text_of_every_accepted_document_is_accepted_again) {
    // Compact texts (no white space) of maximum-size desktops with longer and longer strings: the
    // decoder either accepts one -- and then its canonical text decodes to the same document -- or
    // refuses it for the size of its canonical form. Before issue 15 a 720 KB compact document was
    // accepted whose 1.32 MB canonical form its own decoder refused.
    std::size_t accepted = 0;
    std::size_t refused_for_canonical_size = 0;
    std::size_t largest_accepted_compact = 0;
    for (std::size_t text_bytes : {0, 16, 24, 32, 48, 64, 96, 128, 160, 200}) {
        const Scenario s = maximum_size_scenario(text_bytes);
        const auto invalid = validate(s);
        BOOST_TEST_REQUIRE(!invalid.has_value(), "the maximum-size scenario is valid: " << (invalid ? invalid->reason : ""));
        const std::string compact = encode_scenario(s).dump();
        if (compact.size() > scenario_text_bytes_max) continue;
        const auto decoded = decode_document(compact);
        if (const auto* e = std::get_if<DecodeError>(&decoded)) {
            BOOST_TEST(e->path == "/");
            BOOST_TEST(e->reason.find("canonical form") != std::string::npos, e->message());
            ++refused_for_canonical_size;
            continue;
        }
        ++accepted;
        largest_accepted_compact = std::max(largest_accepted_compact, compact.size());
        const std::string canonical = encode_document_text(std::get<ScenarioDocument>(decoded));
        BOOST_TEST(canonical.size() <= scenario_text_bytes_max);
        const auto again = decode_document(canonical);
        const auto* error = std::get_if<DecodeError>(&again);
        BOOST_TEST_REQUIRE(!error, "the canonical text of an accepted document decodes: " << (error ? error->message() : ""));
        BOOST_TEST(encode_document_text(std::get<ScenarioDocument>(again)) == canonical);
    }
    BOOST_TEST(accepted >= 2u);                    // maximum-size desktops do fit...
    BOOST_TEST(refused_for_canonical_size >= 1u);  // ...until their canonical form would not
    BOOST_TEST(largest_accepted_compact > 500'000u);
}

BOOST_AUTO_TEST_CASE(S1_a_maximum_size_scenario_round_trips) {
    // The largest strings with which the maximum-size desktop still fits: encode, decode, encode.
    const Scenario s = maximum_size_scenario(48);
    const std::string canonical = encode_scenario_text(s);
    BOOST_TEST_REQUIRE(canonical.size() <= scenario_text_bytes_max);
    BOOST_TEST(canonical.size() > scenario_text_bytes_max * 3 / 4);
    const auto decoded = decode_scenario(canonical);
    const auto* error = std::get_if<DecodeError>(&decoded);
    BOOST_TEST_REQUIRE(!error, (error ? error->message() : ""));
    BOOST_TEST(first_difference(std::get<Scenario>(decoded), s).empty());
    BOOST_TEST(encode_scenario_text(std::get<Scenario>(decoded)) == canonical);
}

// S-8: the largest valid scenario (sim/largest_scenario.h) is what the memory bound is stated for;
// tests/data/largest-valid-scenario.json is it, byte for byte. After a change of the generator:
// DESKCHECK_WRITE_LARGEST=1 ./build/default/tests/sim_tests --run_test=S8_largest_valid_scenario_file_is_the_generators
BOOST_AUTO_TEST_CASE(S8_largest_valid_scenario_file_is_the_generators) {
    const std::filesystem::path file = "tests/data/largest-valid-scenario.json";
    const Scenario generated = largest_valid_scenario();
    const std::string canonical = encode_scenario_text(generated);
    if (std::getenv("DESKCHECK_WRITE_LARGEST") != nullptr) {
        std::ofstream(file, std::ios::binary) << canonical;
    }
    BOOST_TEST(read_file(file) == canonical, file << " differs from sim::largest_valid_scenario(); see this test's comment");
    const auto decoded = decode_scenario(canonical);
    BOOST_TEST_REQUIRE(std::holds_alternative<Scenario>(decoded),
                       "does not decode: " << (std::holds_alternative<DecodeError>(decoded) ? std::get<DecodeError>(decoded).message() : ""));
    BOOST_TEST(!validate(generated).has_value());
}

// It is at the bounds: every count at its maximum, the texts at their longest, the canonical text
// within a window's controls of the size limit (one more control would not fit).
BOOST_AUTO_TEST_CASE(S8_largest_valid_scenario_is_at_every_bound) {
    const Scenario s = largest_valid_scenario();
    BOOST_TEST(s.monitors.size() == monitors_max);
    BOOST_TEST(s.windows.size() == windows_max);
    BOOST_TEST(s.apps.size() == windows_max);
    BOOST_TEST(s.steps.size() == steps_max);
    BOOST_TEST(s.events.size() == user_events_max + app_events_max);
    for (const auto& step : s.steps) BOOST_TEST(step.text.size() == text_length_max);
    std::size_t typed = 0;
    for (const auto& e : s.events) typed += e.kind == EventKind::UserTypes && e.text.size() == text_length_max ? 1 : 0;
    BOOST_TEST(typed == user_events_max);
    std::size_t controls = 0;
    for (const auto& w : s.windows) controls += w.controls.size();
    const std::size_t bytes = encode_scenario_text(s).size();
    BOOST_TEST(bytes <= scenario_text_bytes_max);
    if (controls < windows_max * controls_per_window_max) BOOST_TEST(bytes + 1000 > scenario_text_bytes_max);
    BOOST_TEST(growth_text("a", 4096) != growth_text("b", 4096));
    BOOST_TEST(growth_text("a", 4096).size() == 4096u);
}

// bench --scaling's scenarios: valid at every factor, one dimension grown, the others at their base.
BOOST_AUTO_TEST_CASE(S8_scaled_scenarios_grow_one_dimension_and_stay_valid) {
    for (const ScalingDimension d : scaling_dimensions) {
        BOOST_TEST_CONTEXT(to_string(d)) {
            const Scenario base = scaled_scenario(d, 1);
            for (const std::uint32_t k : scaling_factors) {
                const Scenario s = scaled_scenario(d, k);
                BOOST_TEST(!validate(s).has_value());
                BOOST_TEST(s.steps.size() == (d == ScalingDimension::Steps ? scaled_amount(d, k) : base.steps.size()));
                BOOST_TEST(s.events.size() == (d == ScalingDimension::Events ? scaled_amount(d, k) : base.events.size()));
                BOOST_TEST(s.windows.at(0).controls.size() - 1 ==
                           (d == ScalingDimension::Controls ? scaled_amount(d, k) : base.windows.at(0).controls.size() - 1));
                const std::size_t text = s.events.at(0).text.size();
                BOOST_TEST(text == (d == ScalingDimension::Text ? scaled_amount(d, k) : base.events.at(0).text.size()));
            }
            BOOST_TEST(scaled_amount(d, 16) >= 15 * scaled_amount(d, 1));
        }
    }
}
