// Reading journal lines back (host/journal_read.h).
#include "host/journal_read.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <variant>

#include "json/strict_parse.h"

namespace deskcheck::host {
namespace {

using Json = nlohmann::json;

std::optional<std::string> str(const Json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_string()) return std::nullopt;
    return j[key].get<std::string>();
}

bool folders(const Json& j, std::vector<std::string>& out) {
    if (!j.contains("created_folders") || !j["created_folders"].is_array()) return false;
    for (const Json& f : j["created_folders"]) {
        if (!f.is_string()) return false;
        out.push_back(f.get<std::string>());
    }
    return true;
}

std::optional<std::uint32_t> id(const Json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_number_unsigned()) return std::nullopt;
    const auto v = j[key].get<std::uint64_t>();
    if (v > UINT32_MAX) return std::nullopt;
    return static_cast<std::uint32_t>(v);
}

std::optional<ValueWriter> writer_from(const std::string& name) {
    if (name == "value_pattern") return ValueWriter::ValuePattern;
    if (name == "keyboard_fallback") return ValueWriter::KeyboardFallback;
    if (name == "none") return ValueWriter::None;
    return std::nullopt;
}

std::string read_ui_before(const Json& b, StepOp op, Before& out) {
    const auto window = id(b, "window");
    if (!window) return std::string(to_string(op)) + " before lacks window";
    out.window = *window;
    switch (op) {
        case StepOp::UiType: {
            const auto element = id(b, "element");
            const auto writer = str(b, "writer");
            const auto how = writer ? writer_from(*writer) : std::nullopt;
            if (!element || !how || !b.contains("value") || !(b["value"].is_null() || b["value"].is_string()))
                return "ui.type before lacks element/value/writer";
            out.element = *element;
            out.writer = *how;
            if (b["value"].is_string()) out.value = b["value"].get<std::string>();
            return "";
        }
        case StepOp::UiMove: {
            const Json& r = b.contains("rect") ? b["rect"] : Json();
            if (!r.is_array() || r.size() != 4) return "ui.move before lacks rect";
            std::int32_t v[4] = {};
            for (std::size_t i = 0; i < 4; ++i) {
                if (!r[i].is_number_integer()) return "ui.move before: bad rect";
                const auto x = r[i].get<std::int64_t>();
                if (x < INT32_MIN || x > INT32_MAX) return "ui.move before: bad rect";
                v[i] = static_cast<std::int32_t>(x);
            }
            out.rect = Rect{v[0], v[1], v[2], v[3]};
            return "";
        }
        case StepOp::UiInvoke: {
            const auto element = id(b, "element");
            if (!element || !b.contains("irreversible") || b["irreversible"] != true) return "ui.invoke before lacks element/irreversible";
            out.element = *element;
            out.irreversible = true;
            return "";
        }
        default: return "not a UI step";
    }
}

std::string read_before(const Json& b, StepOp op, Before& out, bool desktop) {
    if (!b.is_object()) return "before is not an object";
    if (desktop && !is_file_op(op)) return read_ui_before(b, op, out);
    switch (op) {
        case StepOp::FileWrite: {
            const auto path = str(b, "path");
            if (!path || !b.contains("existed") || !b["existed"].is_boolean() || !folders(b, out.created_folders))
                return "file.write before lacks path/existed/created_folders";
            out.path = *path;
            out.existed = b["existed"].get<bool>();
            if (out.existed) {
                const auto hex = str(b, "bytes_hex");
                if (!hex) return "file.write before: existed without bytes_hex";
                out.bytes = from_hex(*hex);
                if (!out.bytes) return "file.write before: bad bytes_hex";
            }
            return "";
        }
        case StepOp::FileMkdir: {
            const auto path = str(b, "path");
            if (!path || !folders(b, out.created_folders)) return "file.mkdir before lacks path/created_folders";
            out.path = *path;
            return "";
        }
        case StepOp::FileMove: {
            const auto from = str(b, "from");
            const auto to = str(b, "to");
            if (!from || !to || !folders(b, out.created_folders)) return "file.move before lacks from/to/created_folders";
            out.path = *from;
            out.to = *to;
            return "";
        }
        default: return "a UI step cannot be recovered from a journal file (no desktop in this process)";
    }
}

}  // namespace

std::optional<std::string> from_hex(const std::string& hex) {
    if (hex.size() % 2 != 0) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        int v = 0;
        for (std::size_t k = 0; k < 2; ++k) {
            const char c = hex[i + k];
            const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) return std::nullopt;
            v = v * 16 + d;
        }
        out.push_back(static_cast<char>(v));
    }
    return out;
}

EntryOrError parse_journal_line(const std::string& line, bool desktop) {
    auto parsed = parse_json_strict<Json>(line);
    if (const auto* bad = std::get_if<JsonTextError>(&parsed)) return {std::nullopt, to_string(*bad)};
    const Json& j = std::get<Json>(parsed);
    if (!j.is_object()) return {std::nullopt, "not a JSON object"};
    JournalEntry e;
    const auto task = str(j, "task");
    const auto op = str(j, "op");
    const auto status = str(j, "status");
    if (!task || !op || !status || !j.contains("step") || !j["step"].is_number_unsigned()) return {std::nullopt, "lacks task/step/op/status"};
    // A step number is 1..2^32-1 (model/journal.h): a larger one is refused, never wrapped onto
    // another step; 0 names no step (to_line, and so a recovery journaling it, would assert).
    const auto step = id(j, "step");
    if (!step) return {std::nullopt, "step " + j["step"].dump() + " is beyond " + std::to_string(UINT32_MAX)};
    if (*step == 0) return {std::nullopt, "step 0 is no step (steps are numbered from 1)"};
    e.task = *task;
    e.step = *step;
    const auto o = step_op_from(*op);
    const auto s = journal_status_from(*status);
    if (!o) return {std::nullopt, "unknown op '" + *op + "'"};
    if (!s) return {std::nullopt, "unknown status '" + *status + "'"};
    e.op = *o;
    e.status = *s;
    if (const auto err = str(j, "error")) e.error = *err;
    if (e.status == JournalStatus::Intent) {
        if (!j.contains("before")) return {std::nullopt, "an intent without its before-state"};
        Before b;
        if (std::string why = read_before(j["before"], e.op, b, desktop); !why.empty()) return {std::nullopt, why};
        e.before = std::move(b);
    }
    return {std::move(e), ""};
}

EntriesOrError parse_journal(const std::vector<std::string>& lines, bool desktop) {
    EntriesOrError out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        EntryOrError e = parse_journal_line(lines[i], desktop);
        if (!e.entry) {
            out.error = "line " + std::to_string(i + 1) + ": " + e.error;
            return out;
        }
        out.entries.push_back(std::move(*e.entry));
    }
    return out;
}

}  // namespace deskcheck::host
