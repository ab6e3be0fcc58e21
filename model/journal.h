// The undo journal (R-1..R-4, R-7): a task's steps, what each needs to be undone, and the lines
// the tool writes *ahead* of every effect.
//
// A task has an id; each of its steps an id (1-based) and an operation. Before a step touches
// anything, the tool appends an `intent` line holding the step's before-state: for files, whether
// the target existed and its bytes, and the folders the step is about to create; for a control,
// the value read before (null — no value — and "" are different, R-3) and how it can be written
// back; for a window, its geometry. Other lines record a failure, a refusal, and each undo.
// One line is one JSON object (no trailing newline), fields in a fixed order:
//   {"task":T,"step":N,"op":OP,"status":S[,"before":{...}][,"error":E]}
// The sink is a port: memory here (tests, the simulated bench), a flushed file on a real folder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/desktop.h"

namespace deskcheck {

enum class StepOp : std::uint8_t {
    FileWrite,  // write `bytes` to `path`, creating the missing parent folders
    FileMkdir,  // create the folder `path` and its missing parents
    FileMove,   // move `path` to `to`, creating the missing parent folders of `to`
    UiType,     // set the control's value to `text` (ValuePattern, or select-all + paste)
    UiMove,     // move the window to `rect`
    UiInvoke,   // press a button: irreversible (posting, submitting), R-4
};
std::string_view to_string(StepOp op);
std::optional<StepOp> step_op_from(std::string_view name);
bool is_file_op(StepOp op);

struct TaskStep {
    StepOp op = StepOp::FileWrite;
    std::string path;   // files: the target (FileMove: the source)
    std::string to;     // FileMove: the destination
    std::string bytes;  // FileWrite
    WindowId window = no_window;  // UI steps
    ElementId element = 0;        // UiType, UiInvoke
    std::string text;             // UiType
    Rect rect;                    // UiMove
    friend bool operator==(const TaskStep&, const TaskStep&) = default;
};

inline constexpr std::size_t task_steps_max = 64;

struct Task {
    std::string id;
    std::vector<TaskStep> steps;
    bool allow_irreversible = false;  // without it, a step that cannot be undone is refused
};

// What a step needs to be undone, read before it acts. Only the fields of its operation matter.
struct Before {
    std::string path;                        // files: the target / the move's source
    std::string to;                          // FileMove
    bool existed = false;                    // FileWrite: the target existed
    std::optional<std::string> bytes;        // FileWrite: its bytes when it existed
    std::vector<std::string> created_folders;  // top-down: the folders this step is about to create
    WindowId window = no_window;
    ElementId element = 0;
    std::optional<std::string> value;        // UiType: the value read before; nullopt = no value
    ValueWriter writer = ValueWriter::None;  // UiType: how it will be written back
    Rect rect;                               // UiMove: the geometry read before
    bool irreversible = false;               // UiInvoke
    friend bool operator==(const Before&, const Before&) = default;
};

// Done: the task finished every step (written after the last step's check); recovery after a crash
// leaves a done task alone unless its undo had begun. UndoBegun: the undo of a finished task is
// about to act (written ahead of its first effect, naming the last step, as done does), so that a
// crash in the middle of it is finished by recovery rather than taken for a kept task.
enum class JournalStatus : std::uint8_t { Intent, Failed, Refused, Undone, UndoFailed, NotUndoable, Done, UndoBegun };
std::optional<JournalStatus> journal_status_from(std::string_view name);
std::string_view to_string(JournalStatus s);

struct JournalEntry {
    std::string task;
    std::uint32_t step = 0;
    StepOp op = StepOp::FileWrite;
    JournalStatus status = JournalStatus::Intent;
    std::optional<Before> before;  // Intent only
    std::string error;             // Failed, Refused, UndoFailed, NotUndoable: why ("" otherwise)
};

// The line for an entry (the format above). Bytes are written as lower-case hex ("bytes_hex").
std::string to_line(const JournalEntry& e);
std::string to_hex(std::string_view bytes);
std::string json_quote(std::string_view text);

class JournalSink {
public:
    virtual ~JournalSink() = default;
    // Appends one line durably; false when it could not (then the effect must not happen).
    virtual bool append(const std::string& line) = 0;
};

// A journal in memory: the lines as written, in order.
class MemoryJournal final : public JournalSink {
public:
    bool append(const std::string& line) override;
    const std::vector<std::string>& lines() const { return lines_; }

private:
    std::vector<std::string> lines_;
};

inline constexpr std::size_t journal_lines_max = 100'000;

// The complete lines of a journal file's text, at most journal_lines_max: what follows the last
// '\n' (a line a crash or a power cut tore) is not a line.
std::vector<std::string> journal_lines(std::string_view text);

}  // namespace deskcheck
