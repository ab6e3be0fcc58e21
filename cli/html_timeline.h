// The counterexample as a picture (issue 17): one self-contained HTML page per replay. Virtual time
// on the x axis; a lane for the tool's steps, one per window (grouped by app), one for the user;
// foreground ownership as coloured bands with borrows and give-backs marked; inputs, effects
// (ground truth), reads with their values; each step's verdict and deciding rule; the violated
// property's step highlighted with its latency bound and settle window. Every item carries its full
// evidence (an SVG <title>: a hover tooltip; a click pins it in the evidence panel).
//
// Two pure phases: build_timeline() turns one replayed run into a Timeline (lanes, items, bands,
// hand-offs, intervals, highlights: values, no geometry); render_page() lays the timelines out and
// writes the page. Same input, same bytes: no clock, no addresses, integer coordinates only.
// Writing the page to a file happens elsewhere (cli/report.h), once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.h"
#include "harness/run.h"
#include "sim/scenario.h"
#include "sim/scenario_json.h"

namespace deskcheck::cli::html {

// A point in a run: its virtual time and its position in the run's trace (the order in which things
// happened within one millisecond: which read came before which effect).
struct Instant {
    TimeMs at_ms = 0;
    std::size_t order = 0;
    friend bool operator==(const Instant&, const Instant&) = default;
    friend auto operator<=>(const Instant&, const Instant&) = default;
};

enum class LaneKind : std::uint8_t { Tool, Window, User };

struct Lane {
    std::string id;     // "tool", "user", "w3": the DOM's data-lane
    LaneKind kind = LaneKind::Tool;
    std::string label;  // "w3 \"Notes\""
    std::string group;  // windows: their app ("notes (pid 100)"); "" for tool and user
    WindowId window = no_window;
    std::size_t colour = 0;  // windows: index into the page's palette
};

// Rows inside a window lane (inputs above effects above reads); tool and user lanes use Top.
enum class Row : std::uint8_t { Top, Middle, Bottom };

struct Item {
    std::string lane;                  // Lane::id
    std::string kind;                  // step, deliver, attempt, effect, read, request, event, launch, note
    std::vector<std::string> classes;  // confirmed, absent, unknown, error, unreadable, stale, overrun, refused, ...
    Row row = Row::Top;
    Instant begin;
    std::optional<Instant> end;        // spans (steps); markers have none
    std::string label;                 // short text drawn next to it ("" for none)
    std::string evidence;              // everything known about it, several lines
    std::optional<std::uint32_t> step; // the scenario step it belongs to (data-step)
};

// Who held the front: `window` from `begin` (nullopt: the start) to `end` (nullopt: the end).
struct Band {
    WindowId window = no_window;
    std::optional<Instant> begin;
    std::optional<Instant> end;
};

// A foreground change: borrow, give-back (the tool's), or app / user / another-window.
struct Handoff {
    Instant at;
    WindowId from = no_window;
    WindowId to = no_window;
    std::string kind;  // "borrow", "give-back", "tool", "app", "user", "another-window"
    std::string evidence;
};

// A stretch of virtual time drawn for the highlighted step: the app's latency bound, the settle wait.
struct Interval {
    std::string lane;
    std::string kind;  // "latency-bound", "settle", "settle-limit"
    Instant from;
    TimeMs to_ms = 0;
    std::string label;
    std::optional<std::uint32_t> step;
};

// A violated property: its step (nullopt: the run as a whole) and explanation.
struct Highlight {
    std::string property;
    std::optional<std::uint32_t> step;
    std::string explanation;
    bool primary = false;  // the property the counterexample header names
    std::optional<Instant> begin;  // the step's span (nullopt: no step, the whole run)
    std::optional<Instant> end;
};

struct Timeline {
    std::vector<Lane> lanes;
    std::vector<Item> items;
    std::vector<Band> bands;
    std::vector<Handoff> handoffs;
    std::vector<Interval> intervals;
    std::vector<Highlight> highlights;
    std::optional<Instant> tool_returned;
    TimeMs end_ms = 0;
    bool order_exact = true;  // every ground-truth record found its line in the trace
};

// One property's judgement of a run.
struct CheckLine {
    std::string property;
    std::string spec;
    props::CheckResult result;
};

// One replayed run, as the page draws it. The pointers outlive the view.
struct RunView {
    std::string title;     // "as recorded", "with the header's mutation no_give_back_on_failure"
    std::string mutation;  // the tool mutation of this run ("none")
    const sim::Scenario* scenario = nullptr;
    const props::RunResult* run = nullptr;
    std::vector<CheckLine> checks;
    std::string primary_property;  // the header's property ("" without a header)
};

struct PageView {
    std::string file;                 // the scenario file replayed
    std::optional<sim::CounterexampleHeader> header;
    std::string rules;                // the rule set the runs used
    std::string replay_command;       // "deskcheck replay FILE [--mutation M]"
    std::vector<RunView> runs;
};

Timeline build_timeline(const RunView& view);
std::string render_page(const PageView& page);

// Text safe inside HTML text and attribute values: & < > " ' escaped, every invalid UTF-8 byte
// replaced by U+FFFD, C0 controls but tab / newline / carriage return written as \xNN. Never throws.
std::string escape_html(std::string_view text);
// The same repair without the escaping: valid UTF-8 out, whatever came in.
std::string valid_utf8(std::string_view text);
// At most `max_chars` code points, "…" appended when cut; never splits a code point.
std::string truncated(std::string_view text, std::size_t max_chars);

// Hard limits on what one page draws (a 32-step scenario stays well under 1 MB).
inline constexpr std::size_t page_items_max = 6000;
inline constexpr std::size_t evidence_chars_max = 4000;
inline constexpr std::size_t value_chars_max = 80;        // a value quoted in an item's evidence
inline constexpr std::size_t text_timeline_bytes_max = 100'000;  // the text timeline appended per run

}  // namespace deskcheck::cli::html
