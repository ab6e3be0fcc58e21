#include "sim/trace.h"


#include <array>
#include <cassert>
#include <cstdio>
#include <utility>

namespace deskcheck::sim {

std::string_view to_string(TraceKind k) {
    switch (k) {
        case TraceKind::Note: return "note";
        case TraceKind::Deliver: return "deliver";
        case TraceKind::Attempt: return "attempt";
        case TraceKind::Effect: return "effect";
        case TraceKind::Read: return "read";
        case TraceKind::Foreground: return "fg";
        case TraceKind::Request: return "request";
        case TraceKind::Event: return "event";
        case TraceKind::Cursor: return "cursor";
        case TraceKind::Launch: return "launch";
    }
    return "?";
}

void Trace::add(TimeMs at_ms, TraceKind kind, std::string subject, std::string detail) {
    if (!on) return;
    events.push_back(TraceEvent{at_ms, kind, std::move(subject), std::move(detail)});
}

void Trace::note(TimeMs at_ms, std::string text) {
    add(at_ms, TraceKind::Note, "", std::move(text));
}

namespace {

constexpr std::size_t kind_column_width = 8;

std::string time_column(TimeMs at_ms) {
    std::array<char, 32> buffer{};
    const int n = std::snprintf(buffer.data(), buffer.size(), "t=%5lldms", static_cast<long long>(at_ms));
    assert(n > 0);
    assert(static_cast<std::size_t>(n) < buffer.size());
    return std::string(buffer.data(), static_cast<std::size_t>(n));
}

}  // namespace

std::string to_text(const TraceEvent& event) {
    std::string line = time_column(event.at_ms);
    line += "  ";
    const std::string_view kind = to_string(event.kind);
    line += kind;
    if (kind.size() < kind_column_width) line.append(kind_column_width - kind.size(), ' ');
    line += ' ';
    line += event.subject;
    if (!event.subject.empty() && !event.detail.empty()) line += ' ';
    line += event.detail;
    return line;
}

std::string to_text(const Trace& trace) {
    std::string out;
    for (const auto& event : trace.events) {
        out += to_text(event);
        out += '\n';
    }
    return out;
}

nlohmann::json to_json(const Trace& trace) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& event : trace.events) {
        events.push_back(nlohmann::json{{"at_ms", event.at_ms},
                                        {"kind", std::string(to_string(event.kind))},
                                        {"subject", event.subject},
                                        {"detail", event.detail}});
    }
    return nlohmann::json{{"format", "deskcheck-trace/1"}, {"events", std::move(events)}};
}

std::string quote_text(std::string_view text) { return quoted_text(text); }

std::string subject_of(WindowId window, std::optional<ElementId> element) {
    std::string s = "w" + std::to_string(window);
    if (element) s += "/e" + std::to_string(*element);
    return s;
}

std::string optional_text(const std::optional<std::string>& value) {
    return value ? shown_text(*value) : std::string("(unreadable)");
}

}  // namespace deskcheck::sim
