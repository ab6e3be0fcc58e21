// The R0 world (R-1..R-7): a simulated folder and a few simulated windows the undo tool acts on,
// with a plan of operation faults and of other programs that add files meanwhile, and the ground
// truth a check compares against. Deterministic: no clock, no randomness, ordered containers.
//
// Every mutating call through either port — write, make_folder, move, remove on the files;
// set_value, move_window, deliver on the desktop — is one *operation*, numbered from 1. The fault
// plan fails operation n (no space, permission denied, a partial write that keeps half the bytes,
// a UI failure). Other programs write their file right after operation `after_op`, into a folder
// that exists by then (else they are recorded as skipped).
//
// Frameworks (set-value per framework, R-3): WPF and WinForms edits have ValuePattern; a Win32
// edit has only the keyboard fallback (edit messages: select-all, paste); an Electron window's
// tree is opaque: no reads, no set-value, no fallback — the refusal path. Window geometry can be
// read and moved in every framework.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/desktop.h"
#include "model/durability.h"
#include "model/files.h"
#include "model/journal.h"

namespace deskcheck::sim {

struct FsEntry {
    bool folder = false;
    std::string bytes;  // files only
    friend bool operator==(const FsEntry&, const FsEntry&) = default;
};
using FsTree = std::map<std::string, FsEntry>;  // path -> entry; the root "" is implicit

struct R0Control {
    ElementId id = 1;
    bool button = false;                 // a button (Invoke); else an edit
    std::optional<std::string> value;    // edits: nullopt = the control has no value
    bool enabled = true;
    bool readable = true;
    friend bool operator==(const R0Control&, const R0Control&) = default;
};

struct R0Window {
    WindowId id = 1;
    Framework framework = Framework::Wpf;
    Rect bounds;
    std::vector<R0Control> controls;
    friend bool operator==(const R0Window&, const R0Window&) = default;
};

// Everything a failed run could leave behind, compared byte for byte.
struct WorldState {
    FsTree fs;
    std::vector<R0Window> windows;
    std::vector<std::string> invoked;  // irreversible effects that happened: "window/element"
    friend bool operator==(const WorldState&, const WorldState&) = default;
};

enum class OpFaultKind : std::uint8_t { NoSpace, PermissionDenied, PartialWrite, UiFailure };
std::string_view to_string(OpFaultKind k);

struct OpFault {
    std::size_t op = 1;  // 1-based operation number
    OpFaultKind kind = OpFaultKind::NoSpace;
};

struct OtherWrite {
    std::size_t after_op = 0;  // 0: before the first operation
    std::string path;
    std::string bytes;
    friend bool operator==(const OtherWrite&, const OtherWrite&) = default;
};

struct OpRecord {
    std::size_t index = 0;
    std::string what;  // "write", "make_folder", "move", "remove", "set_value", "move_window", "deliver"
    std::string path;  // files: the path; UI: "window/element"
    std::string result;  // "ok", or the error / fault
};

struct WorldTruth {
    std::vector<OpRecord> ops;
    std::vector<OtherWrite> others_done;
    std::vector<OtherWrite> others_skipped;
};

inline constexpr std::size_t world_ops_max = 10'000;
inline constexpr std::size_t fs_entries_max = 4'096;
inline constexpr std::size_t file_bytes_max = 1 << 20;

class World;
class PowerDisk;  // sim/memfs.h

class MemFs final : public Files {
public:
    explicit MemFs(World& world) : world_(world) {}
    FsResult<std::string> read(std::string_view path) override;
    FsResult<FsDone> write(std::string_view path, std::string_view bytes) override;
    FsResult<FsDone> make_folder(std::string_view path) override;
    FsResult<FsDone> move(std::string_view from, std::string_view to) override;
    FsResult<FsDone> remove(std::string_view path) override;
    FsResult<std::vector<std::string>> list(std::string_view path) override;
    FsResult<FsStat> stat(std::string_view path) override;

private:
    FsResult<FsDone> finish(FsResult<FsDone> r);
    // One primitive of a port operation's plan (model/durability.h), on the tree and, when a
    // PowerDisk is bound, on its disk. `path`: the target (a move's destination); `from`: a move's source.
    void primitive(Primitive p, const std::string& path, const std::string& from, std::string_view bytes);
    std::span<const Primitive> plan(PortOp op) const;
    World& world_;
};

class UiDesk final : public Desktop {
public:
    explicit UiDesk(World& world) : world_(world) {}
    std::vector<WindowInfo> top_level_windows() override;
    std::optional<WindowInfo> window(WindowId id) override;
    WindowId foreground() override;
    ForegroundAnswer request_foreground(WindowId) override { return ForegroundAnswer::Granted; }
    std::optional<ElementId> focused_element(WindowId) override { return std::nullopt; }
    TimeMs last_input_ms() override { return -10'000; }
    TreePtr element_tree(WindowId id) override;
    std::optional<std::string> read_value(WindowId w, ElementId e) override;
    std::optional<Selection> read_selection(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_toggled(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_expanded(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_selected(WindowId, ElementId) override { return std::nullopt; }
    std::optional<bool> read_dirty(WindowId) override { return std::nullopt; }
    std::optional<WindowId> window_at(Point) override { return std::nullopt; }
    Point cursor() override { return {}; }
    void set_cursor(Point) override {}
    DeliveryStatus deliver(const Input& input) override;
    std::optional<ProcessId> launch(std::string_view) override { return std::nullopt; }
    TimeMs now_ms() override { return 0; }
    void wait_ms(TimeMs) override {}

    ValueWriter value_writer(WindowId w, ElementId e) override;
    DeliveryStatus set_value(WindowId w, ElementId e, const std::optional<std::string>& value) override;
    std::optional<std::optional<std::string>> read_value_state(WindowId w, ElementId e) override;
    std::optional<Rect> read_geometry(WindowId w) override;
    DeliveryStatus move_window(WindowId w, Rect r) override;
    std::optional<bool> read_enabled(WindowId w, ElementId e) override;

private:
    World& world_;
    std::map<std::pair<WindowId, ElementId>, bool> all_selected_;  // after an edit-message select-all
};

class World {
public:
    World(WorldState initial, std::vector<OtherWrite> others, std::optional<OpFault> fault);
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    Files& files() { return fs_; }
    Desktop& desktop() { return desk_; }
    const WorldState& state() const { return state_; }
    const WorldTruth& truth() const { return truth_; }
    std::size_t ops() const { return ops_; }
    // Changes the fault plan from now on (the bench fails an undo this way).
    void set_fault(std::optional<OpFault> fault) { fault_ = fault; }
    // Called as every operation begins, before it counts or changes anything (the R0 campaign's
    // crash harness kills the task there by throwing: what happened so far stays, nothing more).
    void set_op_hook(std::function<void()> hook) { op_hook_ = std::move(hook); }
    // The disk the files port also writes through, primitive by primitive, and where the power may
    // be cut (sim/memfs.h); nullptr: none (the tree alone).
    void set_power(PowerDisk* power) { power_ = power; }
    PowerDisk* power() const { return power_; }

    // Internal to MemFs/UiDesk: one operation begins (the fault it must suffer, if any) and ends.
    std::optional<OpFaultKind> begin_op(std::string what, std::string path);
    void end_op(std::string result);
    WorldState& mutable_state() { return state_; }
    R0Control* control(WindowId w, ElementId e);
    R0Window* window(WindowId w);

private:
    void others_after(std::size_t op);

    WorldState state_;
    std::vector<OtherWrite> others_;
    std::optional<OpFault> fault_;
    std::function<void()> op_hook_;
    PowerDisk* power_ = nullptr;
    std::size_t ops_ = 0;
    WorldTruth truth_;
    MemFs fs_{*this};
    UiDesk desk_{*this};
};

// The tree with `path` and its ancestors added as folders, then the file: what another program's
// write leaves (used by the checks for the expected state).
void add_file(FsTree& fs, const std::string& path, const std::string& bytes);
// One line per difference between two states (empty: identical), at most `lines_max` lines.
std::vector<std::string> state_diff(const WorldState& expected, const WorldState& actual, std::size_t lines_max = 8);
std::string print_state(const WorldState& s);

// A fixture: the world before, the task's steps, other programs' writes.
struct R0Fixture {
    std::string name;
    std::string summary;
    bool generated = false;
    WorldState initial;
    std::vector<TaskStep> steps;
    bool allow_irreversible = false;
    std::vector<OtherWrite> others;
};

}  // namespace deskcheck::sim
