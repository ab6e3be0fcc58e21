#include "sim/scenario_json.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <exception>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "json/strict_parse.h"
#include "sim/validate.h"

namespace deskcheck::sim {
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Enum spellings (enumerator order) and the keys of every object (canonical order).

constexpr std::array<std::string_view, 9> control_kind_table{
    "edit", "toggle", "expander", "list_item", "button", "submit_button", "post_button", "feed", "group"};
constexpr std::array<std::string_view, 3> readability_table{"readable", "unreadable", "intermittent"};
constexpr std::array<std::string_view, 3> dpi_awareness_table{"unaware", "system", "per_monitor"};
constexpr std::array<std::string_view, 4> framework_table{"win32", "winforms", "wpf", "electron"};
constexpr std::array<std::string_view, 7> event_kind_table{
    "user_types", "user_clicks", "window_to_front", "popup_opens",
    "tree_reorders", "control_removed", "occluder_appears"};
constexpr std::array<std::string_view, 6> step_kind_table{"type", "hotkey", "click", "click_at", "launch", "observe"};
constexpr std::array<std::string_view, 2> rule_set_table{"published", "current"};
// The UI Automation control types (UIA_*ControlTypeId), sorted.
constexpr std::array<std::string_view, 41> role_table{
    "AppBar", "Button", "Calendar", "CheckBox", "ComboBox", "Custom", "DataGrid", "DataItem",
    "Document", "Edit", "Group", "Header", "HeaderItem", "Hyperlink", "Image", "List", "ListItem",
    "Menu", "MenuBar", "MenuItem", "Pane", "ProgressBar", "RadioButton", "ScrollBar",
    "SemanticZoom", "Separator", "Slider", "Spinner", "SplitButton", "StatusBar", "Tab", "TabItem",
    "Table", "Text", "Thumb", "TitleBar", "ToolBar", "ToolTip", "Tree", "TreeItem", "Window"};
// The tool mutations a counterexample header may name: every Mutation after None, in enumerator
// order (a test compares them with to_string(Mutation)).
constexpr std::array<std::string_view, 31> mutation_table{
    "unreadable_as_empty", "retry_unknown_once", "no_give_back_on_failure", "restore_over_another_window",
    "ignore_window_binding", "click_without_hit_test", "inverted_dpi", "restored_despite_refusal",
    "phantom_readback", "not_done_despite_effect", "unknown_instead_of_absent", "no_user_wait",
    "skip_boundary_observation", "proceed_on_needs_evidence", "retry_unknown_write", "drop_idempotency_key",
    "retry_claim_dropped", "retry_claim_made_up", "escalate_every_dependency",
    "posted_click_to_buttons", "borrow_for_every_window", "focused_ref_is_acted_element", "never_allow_retry",
    "unknown_instead_of_confirmed", "unknown_for_typing", "settle_cut_short",
    "shared_identity_gives_up", "occluded_whatever_hit", "posted_chords_to_edits",
    "lets_go_before_landing", "hotkey_marker_unread"};
// A counterexample header's "outcome": what a replay is expected to find ("" when unsaid).
constexpr std::array<std::string_view, 3> outcome_table{"", "violated", "holds"};

static_assert(control_kind_table.size() == static_cast<std::size_t>(ControlKind::Group) + 1);
static_assert(readability_table.size() == static_cast<std::size_t>(Readability::Intermittent) + 1);
static_assert(dpi_awareness_table.size() == static_cast<std::size_t>(DpiAwareness::PerMonitor) + 1);
static_assert(framework_table.size() == static_cast<std::size_t>(Framework::Electron) + 1);
static_assert(event_kind_table.size() == static_cast<std::size_t>(EventKind::OccluderAppears) + 1);
static_assert(step_kind_table.size() == static_cast<std::size_t>(StepKind::Observe) + 1);
static_assert(mutation_table.size() == static_cast<std::size_t>(last_mutation));

constexpr std::array<std::string_view, 14> document_keys{
    "format", "counterexample", "seed", "rules", "batch", "monitors", "windows", "hidden", "apps",
    "foreground", "user_last_input_ms", "events", "faults", "steps"};
constexpr std::array<std::string_view, 7> counterexample_keys{
    "property", "rules", "seed", "summary", "step", "outcome", "mutation"};
constexpr std::array<std::string_view, 4> monitor_keys{"id", "bounds", "dpi", "primary"};
constexpr std::array<std::string_view, 11> window_keys{
    "id", "pid", "owner", "bounds", "awareness", "framework", "class_name", "title", "dirty", "form",
    "controls"};
constexpr std::array<std::string_view, 19> control_keys{
    "id", "parent", "kind", "role", "automation_id", "name", "own_handle", "bounds", "readability",
    "intermittent_permille", "value", "selection", "multiline", "toggled", "expanded", "selected",
    "enabled", "feed", "comment"};
constexpr std::array<std::string_view, 8> app_keys{
    "pid", "name", "latency_ms_min", "latency_ms_max", "feed_latency_ms",
    "steals_foreground_after_ms", "launchable", "launch_takes_foreground"};
constexpr std::array<std::string_view, 8> event_keys{
    "at_ms", "kind", "text", "point", "window", "control", "new_parent", "new_index"};
constexpr std::array<std::string_view, 7> fault_keys{
    "read_failure_permille", "stale_read_permille", "delivery_error_permille",
    "delivery_exception_permille", "foreground_refusal_permille", "latency_overrun_permille",
    "latency_overrun_ms"};
constexpr std::array<std::string_view, 11> step_keys{
    "kind", "window", "control", "text", "keys", "point", "frame", "app", "depends_on", "idempotency_key",
    "ref_window"};
constexpr std::array<std::string_view, 4> rect_keys{"left", "top", "right", "bottom"};
constexpr std::array<std::string_view, 2> point_keys{"x", "y"};
constexpr std::array<std::string_view, 2> selection_keys{"start", "length"};

template <class E>
std::string_view name_in(std::span<const std::string_view> names, E value) {
    const auto index = static_cast<std::size_t>(value);
    return index < names.size() ? names[index] : std::string_view{"?"};
}

bool contains(std::span<const std::string_view> names, std::string_view name) {
    for (const auto candidate : names) {
        if (candidate == name) return true;
    }
    return false;
}

std::string joined(std::span<const std::string_view> names) {
    std::string out;
    for (const auto name : names) {
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Error messages.

std::string describe(const Json& value) {
    switch (value.type()) {
        case Json::value_t::null: return "null";
        case Json::value_t::boolean: return "boolean";
        case Json::value_t::string: return "string";
        case Json::value_t::array: return "array";
        case Json::value_t::object: return "object";
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned: return "integer " + value.dump();
        case Json::value_t::number_float: return "float " + value.dump();
        case Json::value_t::binary: return "binary";
        case Json::value_t::discarded: return "nothing";
    }
    return "?";
}

// The first error wins; every read after it is skipped.
class Errors {
public:
    bool failed() const { return error_.has_value(); }
    void fail(const std::string& path, std::string reason) {
        if (!error_) error_ = DecodeError{path.empty() ? "/" : path, std::move(reason)};
    }
    const std::optional<DecodeError>& error() const { return error_; }

private:
    std::optional<DecodeError> error_;
};

// ---------------------------------------------------------------------------------------------
// Value readers: callables (Errors&, const Json& value, const std::string& path, T& out).

std::optional<std::int64_t> integer_in_range(Errors& errors, const Json& value, const std::string& path,
                                             std::int64_t lo, std::int64_t hi) {
    const auto range = " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (hi >= 0 && u <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(u) >= lo) {
            return static_cast<std::int64_t>(u);
        }
        errors.fail(path, value.dump() + range);
        return std::nullopt;
    }
    if (value.is_number_integer()) {
        const auto s = value.get<std::int64_t>();
        if (s >= lo && s <= hi) return s;
        errors.fail(path, value.dump() + range);
        return std::nullopt;
    }
    errors.fail(path, std::string(lo >= 0 ? "expected an unsigned integer" : "expected an integer") +
                          ", got " + describe(value));
    return std::nullopt;
}

struct IntegerIn {
    std::int64_t lo;
    std::int64_t hi;
    template <class T>
    void operator()(Errors& errors, const Json& value, const std::string& path, T& out) const {
        static_assert(std::is_integral_v<T>);
        const auto v = integer_in_range(errors, value, path, lo, hi);
        if (v) out = static_cast<T>(*v);
    }
};

struct Unsigned64 {
    void operator()(Errors& errors, const Json& value, const std::string& path, std::uint64_t& out) const {
        if (value.is_number_unsigned()) {
            out = value.get<std::uint64_t>();
        } else if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
            out = static_cast<std::uint64_t>(value.get<std::int64_t>());
        } else if (value.is_number_integer()) {
            errors.fail(path, value.dump() + " is out of range [0, 18446744073709551615]");
        } else {
            errors.fail(path, "expected an unsigned integer, got " + describe(value));
        }
    }
};

struct Text {
    void operator()(Errors& errors, const Json& value, const std::string& path, std::string& out) const {
        if (value.is_string()) out = value.get_ref<const std::string&>();
        else errors.fail(path, "expected a string, got " + describe(value));
    }
};

struct Flag {
    void operator()(Errors& errors, const Json& value, const std::string& path, bool& out) const {
        if (value.is_boolean()) out = value.get<bool>();
        else errors.fail(path, "expected a boolean, got " + describe(value));
    }
};

// A string that must be one of `names`: stored as the enum at its index, or as the string.
struct OneOf {
    std::span<const std::string_view> names;
    std::string_view what;  // "control kind"

    std::optional<std::size_t> index(Errors& errors, const Json& value, const std::string& path) const {
        if (!value.is_string()) {
            errors.fail(path, "expected a " + std::string(what) + " string, got " + describe(value));
            return std::nullopt;
        }
        const auto& text = value.get_ref<const std::string&>();
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (names[i] == text) return i;
        }
        errors.fail(path, "unknown " + std::string(what) + " " + json_message_literal(text) + " (expected one of: " +
                              joined(names) + ")");
        return std::nullopt;
    }
    void operator()(Errors& errors, const Json& value, const std::string& path, std::string& out) const {
        if (const auto i = index(errors, value, path)) out = std::string(names[*i]);
    }
    template <class E>
    void operator()(Errors& errors, const Json& value, const std::string& path, E& out) const {
        static_assert(std::is_enum_v<E>);
        if (const auto i = index(errors, value, path)) out = static_cast<E>(*i);
    }
};

// A tool mutation's name (mutation_table); "none" is refused: a header without a mutation leaves
// the field out (or null).
struct MutationName {
    void operator()(Errors& errors, const Json& value, const std::string& path, Mutation& out) const {
        if (value.is_string() && value.get_ref<const std::string&>() == to_string(Mutation::None)) {
            errors.fail(path, "\"none\" is the tool as it is, not a mutation (leave the field out, or null)");
            return;
        }
        if (const auto i = OneOf{mutation_table, "mutation"}.index(errors, value, path)) {
            out = static_cast<Mutation>(*i + 1);
        }
    }
};

// A header's "outcome": one of outcome_table.
struct OutcomeName {
    void operator()(Errors& errors, const Json& value, const std::string& path, std::string& out) const {
        if (!value.is_string()) {
            errors.fail(path, "expected an outcome string, got " + describe(value));
            return;
        }
        const auto& text = value.get_ref<const std::string&>();
        if (!contains(outcome_table, text)) {
            errors.fail(path, "unknown outcome " + json_message_literal(text) +
                                  " (expected \"violated\", \"holds\", or \"\" when unsaid)");
            return;
        }
        out = text;
    }
};

template <class Read>
struct Nullable {
    Read read;
    template <class T>
    void operator()(Errors& errors, const Json& value, const std::string& path, std::optional<T>& out) const {
        if (value.is_null()) {
            out.reset();
            return;
        }
        T inner{};
        read(errors, value, path, inner);
        if (!errors.failed()) out = std::move(inner);
    }
};

template <class Read>
struct ArrayOf {
    std::size_t size_max;
    Read read;
    template <class T>
    void operator()(Errors& errors, const Json& value, const std::string& path, std::vector<T>& out) const {
        if (!value.is_array()) {
            errors.fail(path, "expected an array, got " + describe(value));
            return;
        }
        if (value.size() > size_max) {
            errors.fail(path, std::to_string(value.size()) + " elements, more than the limit of " +
                                  std::to_string(size_max));
            return;
        }
        out.clear();
        out.reserve(value.size());
        for (std::size_t i = 0; i < value.size() && !errors.failed(); ++i) {
            T element{};
            read(errors, value[i], path + "/" + std::to_string(i), element);
            out.push_back(std::move(element));
        }
    }
};

// One JSON object: rejects unknown keys up front, then reads fields by name.
class Fields {
public:
    Fields(Errors& errors, const Json& object, const std::string& path, std::span<const std::string_view> keys)
        : errors_(errors), object_(object), path_(path), keys_(keys) {
        if (errors_.failed()) return;
        if (!object_.is_object()) {
            errors_.fail(path_, "expected an object, got " + describe(object_));
            return;
        }
        reject_unknown_keys();
    }

    template <class T, class Read>
    void required(std::string_view key, T& out, const Read& read) { field(key, out, read, true); }
    template <class T, class Read>
    void optional(std::string_view key, T& out, const Read& read) { field(key, out, read, false); }

private:
    void reject_unknown_keys() {
        for (const auto& item : object_.items()) {
            if (contains(keys_, item.key())) continue;
            errors_.fail(path_ + "/" + json_pointer_token(item.key()),
                         "unknown field " + json_message_literal(item.key()) + " (expected one of: " + joined(keys_) + ")");
            return;
        }
    }

    template <class T, class Read>
    void field(std::string_view key, T& out, const Read& read, bool is_required) {
        assert(contains(keys_, key));
        if (errors_.failed()) return;
        const std::string path = path_ + "/" + std::string(key);
        const auto it = object_.find(std::string(key));
        if (it == object_.end()) {
            if (is_required) errors_.fail(path, "missing required field");
            return;
        }
        read(errors_, *it, path, out);
    }

    Errors& errors_;
    const Json& object_;
    std::string path_;
    std::span<const std::string_view> keys_;
};

constexpr IntegerIn read_u32{0, std::numeric_limits<std::uint32_t>::max()};
constexpr IntegerIn read_permille{0, 1000};
constexpr IntegerIn read_dpi{dpi_min, dpi_max};
constexpr IntegerIn read_coordinate{-coordinate_limit, coordinate_limit};
constexpr IntegerIn read_latency_ms{0, latency_ms_limit};
constexpr IntegerIn read_event_time_ms{0, event_time_ms_limit};
constexpr IntegerIn read_last_input_ms{-event_time_ms_limit, 0};
constexpr IntegerIn read_child_index{0, static_cast<std::int64_t>(controls_per_window_max)};
constexpr IntegerIn read_step_index{0, static_cast<std::int64_t>(steps_max) - 1};
constexpr IntegerIn read_selection_offset{0, static_cast<std::int64_t>(text_length_max)};
constexpr Unsigned64 read_u64{};
constexpr Text read_text{};
constexpr Flag read_flag{};
constexpr Nullable<IntegerIn> read_nullable_u32{read_u32};
constexpr Nullable<IntegerIn> read_nullable_latency_ms{read_latency_ms};
constexpr Nullable<IntegerIn> read_nullable_step_index{read_step_index};
constexpr Nullable<Text> read_nullable_text{read_text};
constexpr OneOf read_control_kind{control_kind_table, "control kind"};
constexpr OneOf read_readability{readability_table, "readability"};
constexpr OneOf read_dpi_awareness{dpi_awareness_table, "DPI awareness"};
constexpr OneOf read_framework{framework_table, "framework"};
constexpr OneOf read_event_kind{event_kind_table, "event kind"};
constexpr OneOf read_step_kind{step_kind_table, "step kind"};
constexpr OneOf read_rule_set{rule_set_table, "rule set"};
constexpr OneOf read_role{role_table, "role"};
constexpr Nullable<MutationName> read_nullable_mutation{MutationName{}};
constexpr OutcomeName read_outcome{};

// ---------------------------------------------------------------------------------------------
// Object readers.

void read_rect(Errors& errors, const Json& value, const std::string& path, Rect& out) {
    Fields f(errors, value, path, rect_keys);
    f.required("left", out.left, read_coordinate);
    f.required("top", out.top, read_coordinate);
    f.required("right", out.right, read_coordinate);
    f.required("bottom", out.bottom, read_coordinate);
}

void read_point(Errors& errors, const Json& value, const std::string& path, Point& out) {
    Fields f(errors, value, path, point_keys);
    f.required("x", out.x, read_coordinate);
    f.required("y", out.y, read_coordinate);
}

void read_selection(Errors& errors, const Json& value, const std::string& path, Selection& out) {
    Fields f(errors, value, path, selection_keys);
    f.required("start", out.start, read_selection_offset);
    f.required("length", out.length, read_selection_offset);
}

constexpr Nullable<decltype(&read_point)> read_nullable_point{&read_point};

void read_monitor(Errors& errors, const Json& value, const std::string& path, Monitor& out) {
    Fields f(errors, value, path, monitor_keys);
    f.required("id", out.id, read_u32);
    f.required("bounds", out.bounds, read_rect);
    f.optional("dpi", out.dpi, read_dpi);
    f.optional("primary", out.primary, read_flag);
}

void read_control(Errors& errors, const Json& value, const std::string& path, Control& out) {
    Fields f(errors, value, path, control_keys);
    f.required("id", out.id, read_u32);
    f.optional("parent", out.parent, read_u32);
    f.required("kind", out.kind, read_control_kind);
    f.required("role", out.role, read_role);
    f.optional("automation_id", out.automation_id, read_nullable_text);
    f.optional("name", out.name, read_text);
    f.optional("own_handle", out.own_handle, read_flag);
    f.required("bounds", out.bounds, read_rect);
    f.optional("readability", out.readability, read_readability);
    f.optional("intermittent_permille", out.intermittent_permille, read_permille);
    f.optional("value", out.value, read_text);
    f.optional("selection", out.selection, read_selection);
    f.optional("multiline", out.multiline, read_flag);
    f.optional("toggled", out.toggled, read_flag);
    f.optional("expanded", out.expanded, read_flag);
    f.optional("selected", out.selected, read_flag);
    f.optional("enabled", out.enabled, read_flag);
    f.optional("feed", out.feed, read_u32);
    f.optional("comment", out.comment, read_text);
}

constexpr ArrayOf<decltype(&read_control)> read_controls{controls_per_window_max, &read_control};

void read_window(Errors& errors, const Json& value, const std::string& path, Window& out) {
    Fields f(errors, value, path, window_keys);
    f.required("id", out.id, read_u32);
    f.required("pid", out.pid, read_u32);
    f.optional("owner", out.owner, read_nullable_u32);
    f.required("bounds", out.bounds, read_rect);
    f.optional("awareness", out.awareness, read_dpi_awareness);
    f.optional("framework", out.framework, read_framework);
    f.optional("class_name", out.class_name, read_text);
    f.optional("title", out.title, read_text);
    f.optional("dirty", out.dirty, read_flag);
    f.optional("form", out.form, read_flag);
    f.optional("controls", out.controls, read_controls);
}

void read_app(Errors& errors, const Json& value, const std::string& path, App& out) {
    Fields f(errors, value, path, app_keys);
    f.required("pid", out.pid, read_u32);
    f.optional("name", out.name, read_text);
    f.optional("latency_ms_min", out.latency_ms_min, read_latency_ms);
    f.optional("latency_ms_max", out.latency_ms_max, read_latency_ms);
    f.optional("feed_latency_ms", out.feed_latency_ms, read_latency_ms);
    f.optional("steals_foreground_after_ms", out.steals_foreground_after_ms, read_nullable_latency_ms);
    f.optional("launchable", out.launchable, read_flag);
    f.optional("launch_takes_foreground", out.launch_takes_foreground, read_flag);
}

void read_event(Errors& errors, const Json& value, const std::string& path, Event& out) {
    Fields f(errors, value, path, event_keys);
    f.required("at_ms", out.at_ms, read_event_time_ms);
    f.required("kind", out.kind, read_event_kind);
    f.optional("text", out.text, read_text);
    f.optional("point", out.point, read_point);
    f.optional("window", out.window, read_u32);
    f.optional("control", out.control, read_u32);
    f.optional("new_parent", out.new_parent, read_u32);
    f.optional("new_index", out.new_index, read_child_index);
}

void read_faults(Errors& errors, const Json& value, const std::string& path, FaultPlan& out) {
    Fields f(errors, value, path, fault_keys);
    f.optional("read_failure_permille", out.read_failure_permille, read_permille);
    f.optional("stale_read_permille", out.stale_read_permille, read_permille);
    f.optional("delivery_error_permille", out.delivery_error_permille, read_permille);
    f.optional("delivery_exception_permille", out.delivery_exception_permille, read_permille);
    f.optional("foreground_refusal_permille", out.foreground_refusal_permille, read_permille);
    f.optional("latency_overrun_permille", out.latency_overrun_permille, read_permille);
    f.optional("latency_overrun_ms", out.latency_overrun_ms, read_latency_ms);
}

void read_step(Errors& errors, const Json& value, const std::string& path, Step& out) {
    Fields f(errors, value, path, step_keys);
    f.required("kind", out.kind, read_step_kind);
    f.optional("window", out.window, read_u32);
    f.optional("control", out.control, read_nullable_u32);
    f.optional("text", out.text, read_text);
    f.optional("keys", out.keys, read_text);
    f.optional("point", out.point, read_nullable_point);
    f.optional("frame", out.frame, read_nullable_text);
    f.optional("app", out.app, read_text);
    f.optional("depends_on", out.depends_on, read_nullable_step_index);
    f.optional("idempotency_key", out.idempotency_key, read_nullable_text);
    f.optional("ref_window", out.ref_window, read_nullable_u32);
}

void read_counterexample(Errors& errors, const Json& value, const std::string& path, CounterexampleHeader& out) {
    Fields f(errors, value, path, counterexample_keys);
    f.required("property", out.property, read_text);
    f.required("rules", out.rules, read_rule_set);
    f.required("seed", out.seed, read_u64);
    f.required("summary", out.summary, read_text);
    f.optional("step", out.step, read_nullable_step_index);
    f.optional("outcome", out.expected_outcome, read_outcome);
    f.optional("mutation", out.mutation, read_nullable_mutation);
}

constexpr Nullable<decltype(&read_counterexample)> read_nullable_counterexample{&read_counterexample};
constexpr ArrayOf<decltype(&read_monitor)> read_monitors{monitors_max, &read_monitor};
constexpr ArrayOf<decltype(&read_window)> read_windows{windows_max, &read_window};
constexpr ArrayOf<IntegerIn> read_hidden_windows{windows_max, read_u32};
constexpr ArrayOf<decltype(&read_app)> read_apps{windows_max, &read_app};
constexpr ArrayOf<decltype(&read_event)> read_events{events_max, &read_event};
constexpr ArrayOf<decltype(&read_step)> read_steps{steps_max, &read_step};

// The format is checked before anything else: a file of another version gets that one message.
void check_format(Errors& errors, const Json& document) {
    if (!document.is_object()) {
        errors.fail("/", "expected an object, got " + describe(document));
        return;
    }
    const auto it = document.find("format");
    if (it == document.end()) {
        errors.fail("/format", "missing required field");
    } else if (!it->is_string()) {
        errors.fail("/format", "expected a string, got " + describe(*it));
    } else if (it->get_ref<const std::string&>() != scenario_format) {
        errors.fail("/format", "unknown format version " + json_message_literal(it->get_ref<const std::string&>()) +
                                   " (expected \"" + std::string(scenario_format) + "\")");
    }
}

void read_document(Errors& errors, const Json& value, ScenarioDocument& out) {
    check_format(errors, value);
    Fields f(errors, value, "", document_keys);
    Scenario& s = out.scenario;
    f.optional("counterexample", out.counterexample, read_nullable_counterexample);
    f.required("seed", s.seed, read_u64);
    f.optional("rules", s.rules, read_rule_set);
    f.optional("batch", s.batch, read_flag);
    f.required("monitors", s.monitors, read_monitors);
    f.required("windows", s.windows, read_windows);
    f.optional("hidden", s.hidden, read_hidden_windows);
    f.optional("apps", s.apps, read_apps);
    f.optional("foreground", s.foreground, read_u32);
    f.optional("user_last_input_ms", s.user_last_input_ms, read_last_input_ms);
    f.optional("events", s.events, read_events);
    f.optional("faults", s.faults, read_faults);
    f.required("steps", s.steps, read_steps);
}

// ---------------------------------------------------------------------------------------------
// Text: bounds before parsing, then a parse that also rejects duplicate keys.

std::optional<DecodeError> check_text_bounds(std::string_view text) {
    if (text.empty()) return DecodeError{"/", "empty input (expected a JSON object)"};
    if (text.size() > scenario_text_bytes_max) {
        return DecodeError{"/", "input is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                                    std::to_string(scenario_text_bytes_max)};
    }
    // Jumps from one character that matters to the next (find_first_of) instead of branching on
    // every byte: this scan sees every input of fuzz_scenario_json.
    std::size_t depth = 0;
    std::size_t i = 0;
    while ((i = text.find_first_of("\"[]{}", i)) != std::string_view::npos) {
        const char c = text[i];
        if (c == '"') {
            // Skip the string: to the next unescaped quote (or the end: the parser reports it).
            std::size_t j = i + 1;
            while ((j = text.find_first_of("\"\\", j)) != std::string_view::npos && text[j] == '\\') j += 2;
            if (j == std::string_view::npos || j >= text.size()) break;
            i = j + 1;
            continue;
        }
        if (c == '[' || c == '{') {
            if (++depth > scenario_nesting_max) {
                return DecodeError{"/", "nesting deeper than " + std::to_string(scenario_nesting_max) +
                                            " levels at byte " + std::to_string(i + 1)};
            }
        } else if (depth > 0) {
            --depth;
        }
        ++i;
    }
    return std::nullopt;
}

// The one strict parser (json/strict_parse.h): duplicate keys, NUL bytes and invalid text refused.
std::variant<Json, DecodeError> parse_text(std::string_view text) {
    if (auto error = check_text_bounds(text)) return *std::move(error);
    auto parsed = parse_json_strict<Json>(text);
    if (auto* e = std::get_if<JsonTextError>(&parsed)) return DecodeError{e->pointer.empty() ? "/" : e->pointer, e->message};
    return std::get<Json>(std::move(parsed));
}

// ---------------------------------------------------------------------------------------------
// Encoding.

OJson encode_rect(const Rect& r) {
    OJson out = OJson::object();
    out["left"] = r.left;
    out["top"] = r.top;
    out["right"] = r.right;
    out["bottom"] = r.bottom;
    return out;
}

OJson encode_point(const Point& p) {
    OJson out = OJson::object();
    out["x"] = p.x;
    out["y"] = p.y;
    return out;
}

OJson encode_selection(const Selection& s) {
    OJson out = OJson::object();
    out["start"] = s.start;
    out["length"] = s.length;
    return out;
}

template <class T>
OJson or_null(const std::optional<T>& value) {
    return value ? OJson(*value) : OJson(nullptr);
}

OJson encode_monitor(const Monitor& m) {
    OJson out = OJson::object();
    out["id"] = m.id;
    out["bounds"] = encode_rect(m.bounds);
    out["dpi"] = m.dpi;
    out["primary"] = m.primary;
    return out;
}

OJson encode_control(const Control& c) {
    OJson out = OJson::object();
    out["id"] = c.id;
    out["parent"] = c.parent;
    out["kind"] = json_name(c.kind);
    out["role"] = c.role;
    out["automation_id"] = or_null(c.automation_id);
    out["name"] = c.name;
    out["own_handle"] = c.own_handle;
    out["bounds"] = encode_rect(c.bounds);
    out["readability"] = json_name(c.readability);
    out["intermittent_permille"] = c.intermittent_permille;
    out["value"] = c.value;
    out["selection"] = encode_selection(c.selection);
    out["multiline"] = c.multiline;
    out["toggled"] = c.toggled;
    out["expanded"] = c.expanded;
    out["selected"] = c.selected;
    out["enabled"] = c.enabled;
    out["feed"] = c.feed;
    out["comment"] = c.comment;
    return out;
}

OJson encode_window(const Window& w) {
    OJson out = OJson::object();
    out["id"] = w.id;
    out["pid"] = w.pid;
    out["owner"] = or_null(w.owner);
    out["bounds"] = encode_rect(w.bounds);
    out["awareness"] = name_in(dpi_awareness_table, w.awareness);
    out["framework"] = name_in(framework_table, w.framework);
    out["class_name"] = w.class_name;
    out["title"] = w.title;
    out["dirty"] = w.dirty;
    out["form"] = w.form;
    out["controls"] = OJson::array();
    for (const auto& c : w.controls) out["controls"].push_back(encode_control(c));
    return out;
}

OJson encode_app(const App& a) {
    OJson out = OJson::object();
    out["pid"] = a.pid;
    out["name"] = a.name;
    out["latency_ms_min"] = a.latency_ms_min;
    out["latency_ms_max"] = a.latency_ms_max;
    out["feed_latency_ms"] = a.feed_latency_ms;
    out["steals_foreground_after_ms"] = or_null(a.steals_foreground_after_ms);
    out["launchable"] = a.launchable;
    out["launch_takes_foreground"] = a.launch_takes_foreground;
    return out;
}

OJson encode_event(const Event& e) {
    OJson out = OJson::object();
    out["at_ms"] = e.at_ms;
    out["kind"] = json_name(e.kind);
    out["text"] = e.text;
    out["point"] = encode_point(e.point);
    out["window"] = e.window;
    out["control"] = e.control;
    out["new_parent"] = e.new_parent;
    out["new_index"] = e.new_index;
    return out;
}

OJson encode_faults(const FaultPlan& f) {
    OJson out = OJson::object();
    out["read_failure_permille"] = f.read_failure_permille;
    out["stale_read_permille"] = f.stale_read_permille;
    out["delivery_error_permille"] = f.delivery_error_permille;
    out["delivery_exception_permille"] = f.delivery_exception_permille;
    out["foreground_refusal_permille"] = f.foreground_refusal_permille;
    out["latency_overrun_permille"] = f.latency_overrun_permille;
    out["latency_overrun_ms"] = f.latency_overrun_ms;
    return out;
}

OJson encode_step(const Step& s) {
    OJson out = OJson::object();
    out["kind"] = json_name(s.kind);
    out["window"] = s.window;
    out["control"] = or_null(s.control);
    out["text"] = s.text;
    out["keys"] = s.keys;
    out["point"] = s.point ? encode_point(*s.point) : OJson(nullptr);
    out["frame"] = or_null(s.frame);
    out["app"] = s.app;
    out["depends_on"] = or_null(s.depends_on);
    out["idempotency_key"] = or_null(s.idempotency_key);
    out["ref_window"] = or_null(s.ref_window);
    return out;
}

OJson encode_counterexample(const CounterexampleHeader& h) {
    OJson out = OJson::object();
    out["property"] = h.property;
    out["rules"] = h.rules;
    out["seed"] = h.seed;
    out["summary"] = h.summary;
    out["step"] = or_null(h.step);
    out["outcome"] = h.expected_outcome;
    out["mutation"] = h.mutation ? OJson(to_string(*h.mutation)) : OJson(nullptr);
    return out;
}

template <class T, class Encode>
OJson encode_array(const std::vector<T>& values, Encode encode) {
    OJson out = OJson::array();
    for (const auto& value : values) out.push_back(encode(value));
    return out;
}

// Canonical key order = document_keys; "counterexample" only when there is one.
OJson encode_with_header(const Scenario& s, const std::optional<CounterexampleHeader>& header) {
    OJson out = OJson::object();
    out["format"] = scenario_format;
    if (header) out["counterexample"] = encode_counterexample(*header);
    out["seed"] = s.seed;
    out["rules"] = s.rules;
    out["batch"] = s.batch;
    out["monitors"] = encode_array(s.monitors, encode_monitor);
    out["windows"] = encode_array(s.windows, encode_window);
    out["hidden"] = encode_array(s.hidden, [](WindowId id) { return OJson(id); });
    out["apps"] = encode_array(s.apps, encode_app);
    out["foreground"] = s.foreground;
    out["user_last_input_ms"] = s.user_last_input_ms;
    out["events"] = encode_array(s.events, encode_event);
    out["faults"] = encode_faults(s.faults);
    out["steps"] = encode_array(s.steps, encode_step);
    return out;
}

// Invalid UTF-8 in a string is replaced (U+FFFD) rather than thrown about.
std::string canonical_text(const OJson& value) {
    return value.dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Public API.

std::variant<ScenarioDocument, DecodeError> decode_document(const nlohmann::json& document) {
    try {
        Errors errors;
        ScenarioDocument decoded;
        read_document(errors, document, decoded);
        if (errors.error()) return *errors.error();
        if (auto invalid = validate(decoded.scenario)) {
            return DecodeError{invalid->path.empty() ? "/" : invalid->path, invalid->reason};
        }
        // The canonical text of what is accepted must be accepted again: a compact document under
        // the limit may spell out to more (every field written, indented), and is refused here.
        const std::size_t canonical_bytes = encode_document_text(decoded).size();
        if (canonical_bytes > scenario_text_bytes_max) {
            return DecodeError{"/", "its canonical form (every field written, indented) is " +
                                        std::to_string(canonical_bytes) + " bytes, more than the limit of " +
                                        std::to_string(scenario_text_bytes_max) +
                                        ": fewer controls or events, or shorter strings"};
        }
        return decoded;
    } catch (const std::exception& e) {
        return DecodeError{"/", std::string("internal decoding error: ") + e.what()};
    }
}

std::variant<ScenarioDocument, DecodeError> decode_document(std::string_view json_text) {
    auto parsed = parse_text(json_text);
    if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
    return decode_document(std::get<Json>(parsed));
}

std::variant<ScenarioDocument, DecodeError> decode_document(const std::string& json_text) {
    return decode_document(std::string_view(json_text));
}
std::variant<ScenarioDocument, DecodeError> decode_document(const char* json_text) {
    return decode_document(std::string_view(json_text == nullptr ? "" : json_text));
}
std::variant<ScenarioDocument, DecodeError> decode_document(const nlohmann::ordered_json& document) {
    try {
        const nlohmann::json plain(document);
        return decode_document(plain);
    } catch (const std::exception& e) {
        return DecodeError{"/", std::string("internal decoding error: ") + e.what()};
    }
}

namespace {
std::variant<Scenario, DecodeError> scenario_of(std::variant<ScenarioDocument, DecodeError> decoded) {
    if (auto* error = std::get_if<DecodeError>(&decoded)) return *error;
    return std::move(std::get<ScenarioDocument>(decoded).scenario);
}
}  // namespace

std::variant<Scenario, DecodeError> decode_scenario(std::string_view json_text) {
    return scenario_of(decode_document(json_text));
}
std::variant<Scenario, DecodeError> decode_scenario(const nlohmann::json& document) {
    return scenario_of(decode_document(document));
}
std::variant<Scenario, DecodeError> decode_scenario(const std::string& json_text) {
    return decode_scenario(std::string_view(json_text));
}
std::variant<Scenario, DecodeError> decode_scenario(const char* json_text) {
    return decode_scenario(std::string_view(json_text == nullptr ? "" : json_text));
}
std::variant<Scenario, DecodeError> decode_scenario(const nlohmann::ordered_json& document) {
    return scenario_of(decode_document(document));
}

nlohmann::ordered_json encode_scenario(const Scenario& scenario) { return encode_with_header(scenario, std::nullopt); }
std::string encode_scenario_text(const Scenario& scenario) { return canonical_text(encode_scenario(scenario)); }
nlohmann::ordered_json encode_document(const ScenarioDocument& document) {
    return encode_with_header(document.scenario, document.counterexample);
}
std::string encode_document_text(const ScenarioDocument& document) { return canonical_text(encode_document(document)); }

std::span<const std::string_view> control_kind_names() { return control_kind_table; }
std::span<const std::string_view> readability_names() { return readability_table; }
std::span<const std::string_view> dpi_awareness_names() { return dpi_awareness_table; }
std::span<const std::string_view> framework_names() { return framework_table; }
std::span<const std::string_view> event_kind_names() { return event_kind_table; }
std::span<const std::string_view> step_kind_names() { return step_kind_table; }
std::span<const std::string_view> rule_set_names() { return rule_set_table; }
std::span<const std::string_view> role_names() { return role_table; }
std::span<const std::string_view> mutation_names() { return mutation_table; }

std::string_view json_name(ControlKind kind) { return name_in(control_kind_table, kind); }
std::string_view json_name(Readability value) { return name_in(readability_table, value); }
std::string_view json_name(EventKind kind) { return name_in(event_kind_table, kind); }
std::string_view json_name(StepKind kind) { return name_in(step_kind_table, kind); }

}  // namespace deskcheck::sim
