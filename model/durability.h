// The durability protocol (R-7 under power loss): for each operation of the files port and of the
// journal, the ordered primitive calls it issues. This list is the single statement of what a port
// on a real disk must do; the in-memory disk (sim/memfs.h) executes every operation as exactly
// these primitives, so the power-cut campaign (harness/r0_power.h) judges this list, and a port
// that records what it issues can be compared with it (durability_plan, to_string).
//
// Why each fsync is there (a change is volatile until the matching fsync; sim/memfs.h):
//   journal append   write the line, fsync the file: the intent is durable before its effect.
//   journal create   create the file, fsync its folder: without it the entry of a journal whose
//                    lines were all fsynced can be lost while the effects it describes stay.
//                    (No fsync of the new, empty file: the first append's fsync makes the file's
//                    data durable before any effect, and an empty journal recovers as no journal.)
//   journal open     an existing journal (recovery): cut a line a power cut tore back to its last
//                    '\n' before appending, else the next line is glued to the torn one. Made
//                    durable by the next append's fsync; if nothing is appended the torn tail is
//                    harmless (a reader drops a last line without '\n').
//   write            open(O_TRUNC), write, fsync the file, fsync its folder: an undo that writes
//                    the before-bytes back must be on the disk before its `undone` line is; a
//                    finished task's new file must keep its entry.
//   make_folder      mkdir, fsync the parent: the entry of a folder a later step fills.
//   move             rename, fsync the new parent, then the old one when it differs: until both
//                    are durable the file may be in both places (the undo cannot move it back).
//   remove           unlink or rmdir, fsync the parent: an undo's removal before its `undone` line.
// An operation that fails stops at the primitive that failed (no fsync follows a failed call).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace deskcheck {

enum class Primitive : std::uint8_t {
    OpenTruncate,    // open(O_WRONLY|O_CREAT|O_TRUNC): creates the entry if missing, empties the file
    WriteData,       // write(2) of the bytes (all of them, in as many calls as it takes)
    FsyncFile,       // fsync(2) of the file: its data (and size) become durable
    FsyncParent,     // fsync(2) of the folder holding the target (move: the destination's folder)
    FsyncOldParent,  // move only: fsync(2) of the source's folder, issued only when it differs from the destination's
    MakeFolder,      // mkdir(2)
    Rename,          // rename(2)
    RemoveEntry,     // unlink(2) of a file, rmdir(2) of a folder
    OpenAppend,      // journal: open(O_WRONLY|O_APPEND|O_CREAT)
    CutTornTail,     // journal: ftruncate(2) to just after the last '\n' (0 without one; a no-op on a file ending in '\n')
};
inline constexpr std::size_t primitive_count = 10;

enum class PortOp : std::uint8_t {
    Write,          // Files::write
    MakeFolder,     // Files::make_folder
    Move,           // Files::move
    Remove,         // Files::remove
    JournalCreate,  // opening the journal file when it does not exist yet
    JournalOpen,    // opening an existing journal file (recovery, a second task)
    JournalAppend,  // JournalSink::append
};
inline constexpr std::size_t port_op_count = 7;
inline constexpr std::array<PortOp, port_op_count> all_port_ops{PortOp::Write,         PortOp::MakeFolder,  PortOp::Move,
                                                                PortOp::Remove,        PortOp::JournalCreate, PortOp::JournalOpen,
                                                                PortOp::JournalAppend};

constexpr std::string_view to_string(Primitive p) {
    switch (p) {
        case Primitive::OpenTruncate: return "open_truncate";
        case Primitive::WriteData: return "write";
        case Primitive::FsyncFile: return "fsync_file";
        case Primitive::FsyncParent: return "fsync_parent";
        case Primitive::FsyncOldParent: return "fsync_old_parent";
        case Primitive::MakeFolder: return "mkdir";
        case Primitive::Rename: return "rename";
        case Primitive::RemoveEntry: return "remove";
        case Primitive::OpenAppend: return "open_append";
        case Primitive::CutTornTail: return "cut_torn_tail";
    }
    return "?";
}

constexpr std::string_view to_string(PortOp op) {
    switch (op) {
        case PortOp::Write: return "write";
        case PortOp::MakeFolder: return "make_folder";
        case PortOp::Move: return "move";
        case PortOp::Remove: return "remove";
        case PortOp::JournalCreate: return "journal_create";
        case PortOp::JournalOpen: return "journal_open";
        case PortOp::JournalAppend: return "journal_append";
    }
    return "?";
}

// Whether one call issues primitive `p` of its plan: all of them, but fsync_old_parent only for a
// move between two folders (within one folder, fsync_parent already made both entries durable).
constexpr bool issued_by_call(Primitive p, bool move_within_one_folder) {
    return !(p == Primitive::FsyncOldParent && move_within_one_folder);
}

constexpr bool is_fsync(Primitive p) {
    return p == Primitive::FsyncFile || p == Primitive::FsyncParent || p == Primitive::FsyncOldParent;
}

namespace durability_detail {
inline constexpr std::array<Primitive, 4> write{Primitive::OpenTruncate, Primitive::WriteData, Primitive::FsyncFile, Primitive::FsyncParent};
inline constexpr std::array<Primitive, 2> make_folder{Primitive::MakeFolder, Primitive::FsyncParent};
inline constexpr std::array<Primitive, 3> move{Primitive::Rename, Primitive::FsyncParent, Primitive::FsyncOldParent};
inline constexpr std::array<Primitive, 2> remove{Primitive::RemoveEntry, Primitive::FsyncParent};
inline constexpr std::array<Primitive, 2> journal_create{Primitive::OpenAppend, Primitive::FsyncParent};
inline constexpr std::array<Primitive, 2> journal_open{Primitive::OpenAppend, Primitive::CutTornTail};
inline constexpr std::array<Primitive, 2> journal_append{Primitive::WriteData, Primitive::FsyncFile};
}  // namespace durability_detail

// The primitives `op` issues, in order, when every call succeeds (see issued_by_call).
constexpr std::span<const Primitive> durability_plan(PortOp op) {
    namespace d = durability_detail;
    switch (op) {
        case PortOp::Write: return d::write;
        case PortOp::MakeFolder: return d::make_folder;
        case PortOp::Move: return d::move;
        case PortOp::Remove: return d::remove;
        case PortOp::JournalCreate: return d::journal_create;
        case PortOp::JournalOpen: return d::journal_open;
        case PortOp::JournalAppend: return d::journal_append;
    }
    return {};
}

// The plans a simulated disk executes: the protocol above, or (negative proofs) that protocol with
// one primitive left out.
class DurabilityPlans {
public:
    static constexpr std::size_t plan_max = 4;
    // The protocol (durability_plan).
    constexpr DurabilityPlans() {
        for (const PortOp op : all_port_ops) {
            const auto plan = durability_plan(op);
            Row& r = rows_[static_cast<std::size_t>(op)];
            for (const Primitive p : plan) r.items[r.size++] = p;
        }
    }
    // The same with the `index`-th primitive of `op` left out (an index past the plan: unchanged).
    constexpr DurabilityPlans without(PortOp op, std::size_t index) const {
        DurabilityPlans out = *this;
        Row& r = out.rows_[static_cast<std::size_t>(op)];
        if (index >= r.size) return out;
        for (std::size_t i = index; i + 1 < r.size; ++i) r.items[i] = r.items[i + 1];
        --r.size;
        return out;
    }
    constexpr std::span<const Primitive> plan(PortOp op) const {
        const Row& r = rows_[static_cast<std::size_t>(op)];
        return std::span<const Primitive>(r.items.data(), r.size);
    }
    // Whether `op`'s plan holds `p`.
    constexpr bool has(PortOp op, Primitive p) const {
        for (const Primitive q : plan(op)) {
            if (q == p) return true;
        }
        return false;
    }

private:
    struct Row {
        std::array<Primitive, plan_max> items{};
        std::size_t size = 0;
    };
    std::array<Row, port_op_count> rows_{};
};

}  // namespace deskcheck
