// The undo journal's lines (model/journal.h).
#include "model/journal.h"

#include <array>
#include <cassert>

namespace deskcheck {
namespace {

constexpr std::array<std::pair<StepOp, std::string_view>, 6> op_names{{
    {StepOp::FileWrite, "file.write"},
    {StepOp::FileMkdir, "file.mkdir"},
    {StepOp::FileMove, "file.move"},
    {StepOp::UiType, "ui.type"},
    {StepOp::UiMove, "ui.move"},
    {StepOp::UiInvoke, "ui.invoke"},
}};

std::string quoted_or_null(const std::optional<std::string>& s) { return s ? json_quote(*s) : "null"; }

std::string folders_json(const std::vector<std::string>& folders) {
    std::string out = "[";
    for (std::size_t i = 0; i < folders.size(); ++i) out += (i == 0 ? "" : ",") + json_quote(folders[i]);
    return out + "]";
}

std::string before_json(StepOp op, const Before& b) {
    switch (op) {
        case StepOp::FileWrite:
            return "{\"path\":" + json_quote(b.path) + ",\"existed\":" + (b.existed ? "true" : "false") +
                   ",\"bytes_hex\":" + (b.bytes ? json_quote(to_hex(*b.bytes)) : "null") +
                   ",\"created_folders\":" + folders_json(b.created_folders) + "}";
        case StepOp::FileMkdir:
            return "{\"path\":" + json_quote(b.path) + ",\"created_folders\":" + folders_json(b.created_folders) + "}";
        case StepOp::FileMove:
            return "{\"from\":" + json_quote(b.path) + ",\"to\":" + json_quote(b.to) +
                   ",\"created_folders\":" + folders_json(b.created_folders) + "}";
        case StepOp::UiType:
            return "{\"window\":" + std::to_string(b.window) + ",\"element\":" + std::to_string(b.element) +
                   ",\"value\":" + quoted_or_null(b.value) + ",\"writer\":" + json_quote(to_string(b.writer)) + "}";
        case StepOp::UiMove:
            return "{\"window\":" + std::to_string(b.window) + ",\"rect\":[" + std::to_string(b.rect.left) + "," +
                   std::to_string(b.rect.top) + "," + std::to_string(b.rect.right) + "," +
                   std::to_string(b.rect.bottom) + "]}";
        case StepOp::UiInvoke:
            return "{\"window\":" + std::to_string(b.window) + ",\"element\":" + std::to_string(b.element) +
                   ",\"irreversible\":true}";
    }
    return "{}";
}

}  // namespace

std::string_view to_string(StepOp op) {
    for (const auto& [o, name] : op_names) {
        if (o == op) return name;
    }
    return "?";
}

std::optional<StepOp> step_op_from(std::string_view name) {
    for (const auto& [o, n] : op_names) {
        if (n == name) return o;
    }
    return std::nullopt;
}

bool is_file_op(StepOp op) { return op == StepOp::FileWrite || op == StepOp::FileMkdir || op == StepOp::FileMove; }

std::string_view to_string(JournalStatus s) {
    switch (s) {
        case JournalStatus::Intent: return "intent";
        case JournalStatus::Failed: return "failed";
        case JournalStatus::Refused: return "refused";
        case JournalStatus::Undone: return "undone";
        case JournalStatus::UndoFailed: return "undo_failed";
        case JournalStatus::NotUndoable: return "not_undoable";
        case JournalStatus::Done: return "done";
        case JournalStatus::UndoBegun: return "undo_begun";
    }
    return "?";
}

std::optional<JournalStatus> journal_status_from(std::string_view name) {
    constexpr std::array<JournalStatus, 8> all{JournalStatus::Intent, JournalStatus::Failed, JournalStatus::Refused,
                                               JournalStatus::Undone, JournalStatus::UndoFailed, JournalStatus::NotUndoable,
                                               JournalStatus::Done, JournalStatus::UndoBegun};
    for (const JournalStatus s : all) {
        if (to_string(s) == name) return s;
    }
    return std::nullopt;
}

std::string to_hex(std::string_view bytes) {
    constexpr std::string_view digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        out += digits[u >> 4];
        out += digits[u & 0xf];
    }
    return out;
}

std::string json_quote(std::string_view text) {
    constexpr std::string_view digits = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (u < 0x20 || u == 0x7f) out += std::string("\\u00") + digits[u >> 4] + digits[u & 0xf];
        else out += c;
    }
    return out + "\"";
}

std::string to_line(const JournalEntry& e) {
    assert(e.step >= 1);
    assert(e.status != JournalStatus::Intent || e.before.has_value());
    std::string line = "{\"task\":" + json_quote(e.task) + ",\"step\":" + std::to_string(e.step) +
                       ",\"op\":" + json_quote(to_string(e.op)) + ",\"status\":" + json_quote(to_string(e.status));
    if (e.before) line += ",\"before\":" + before_json(e.op, *e.before);
    if (!e.error.empty()) line += ",\"error\":" + json_quote(e.error);
    return line + "}";
}

bool MemoryJournal::append(const std::string& line) {
    assert(lines_.size() <= journal_lines_max);
    if (lines_.size() >= journal_lines_max) return false;
    lines_.push_back(line);
    assert(!lines_.empty() && lines_.size() <= journal_lines_max);
    return true;
}

std::vector<std::string> journal_lines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t nl = text.find('\n'); nl != std::string::npos && lines.size() < journal_lines_max; nl = text.find('\n', start)) {
        lines.emplace_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

}  // namespace deskcheck
