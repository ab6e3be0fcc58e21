// The trace (S-1, DESIGN "Counterexamples"): the readable timeline of one run. Inputs delivered,
// effects landing, reads and what they returned (V-2: unreadable prints as `(unreadable)`),
// foreground changes and requests, scenario events, cursor moves, launches, and the notes the
// runner appends (step begins, verdicts). Same scenario, same calls: same trace, byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/desktop.h"
#include "model/shown.h"

namespace deskcheck::sim {

enum class TraceKind : std::uint8_t {
    Note,        // appended by the runner
    Deliver,     // a deliver() that returned Delivered (accepted or ignored by the app)
    Attempt,     // a deliver() that failed, threw or was rejected
    Effect,      // an effect landing (S-4)
    Read,        // a read and what it returned
    Foreground,  // a foreground change
    Request,     // a request_foreground() and its answer
    Event,       // a scenario event firing (user, popups, reorders, occluders)
    Cursor,      // a cursor move
    Launch,      // launch()
};
std::string_view to_string(TraceKind k);

struct TraceEvent {
    TimeMs at_ms = 0;
    TraceKind kind = TraceKind::Note;
    std::string subject;  // "w2/e5", "w2", "" for notes
    std::string detail;   // the rest of the line
};

struct Trace {
    std::vector<TraceEvent> events;
    // Off for runs nobody reads (campaigns, fuzzing, the benchmark): add() and note() keep nothing
    // and the Sim skips formatting the lines. The ground truth is recorded either way; a run with
    // the trace off behaves exactly like one with it on (tested).
    bool on = true;

    void add(TimeMs at_ms, TraceKind kind, std::string subject, std::string detail);
    void note(TimeMs at_ms, std::string text);  // for the runner: step begins, verdicts
};

// One line per event: `t=  120ms  read     w2/e5 value -> "abc"`, each line ending in '\n'.
std::string to_text(const Trace& trace);
std::string to_text(const TraceEvent& event);  // without the newline
nlohmann::json to_json(const Trace& trace);

// Helpers the Sim (and the runner) use to print values the same way everywhere.
// "a\tb" with C-style escapes, printable ASCII and UTF-8 bytes kept. Call it qualified
// (sim::quoted): unqualified with a std::string argument, ADL prefers std::quoted.
std::string quote_text(std::string_view text);
inline std::string quoted(std::string_view text) { return quote_text(text); }
std::string subject_of(WindowId window, std::optional<ElementId> element);  // "w2/e5", "w2"

// Long values and texts are shown cut (model/shown.h shown_text: the first code points, the length
// and a digest of the whole), so that a trace stays linear in its input (S-8).
using deskcheck::shown_text;
// shown_text, or `(unreadable)` for nullopt (V-2).
std::string optional_text(const std::optional<std::string>& value);

}  // namespace deskcheck::sim
