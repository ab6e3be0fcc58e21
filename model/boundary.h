// The dependency boundary (SPEC B-3, W-1, W-4, O-4): before a step that depends on an earlier
// one runs, the tool reads what the earlier step *writes* once, turns the reading into an
// observation snapshot and judges it by the ten rules of seed 004. The dependent step runs only on
// `observed`; anything else stops the batch and escalates with the judgement in the report. The
// earlier step is never sent again (B-2).
//
// What a step writes (W-1): posting writes its feed, submitting writes its form's status, typing
// writes the field, ctrl+s clears the window's unsaved marker. Typing and saving are derived from
// the request; a click cannot be (the tool does not know where a button's effect shows), so the
// agent declares it (`Request::writes`).
//
// Everything declared here is a pure function of values; the tool's side (Tool::boundary_phase and
// its helpers, in boundary.cpp) reads the desktop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/desktop.h"
#include "model/evidence.h"
#include "model/observation.h"

namespace deskcheck {

// W-1: done = evidence the effect exists; not_done = evidence it does not; unknown = cannot tell.
enum class WriteOutcome : std::uint8_t { Done, NotDone, Unknown };
std::string_view to_string(WriteOutcome o);

// W-1: what a step writes and where its effect can be read (B-3 reads it at a dependency boundary).
enum class WriteShape : std::uint8_t {
    AppendsText,   // one more occurrence of `text` in the element's value (a feed, a status line)
    ContainsText,  // the element's value contains `text` (typing into a field)
    ClearsDirty,   // the window's unsaved-changes marker reads false (a save)
};
std::string_view to_string(WriteShape s);

struct WriteDeclaration {
    std::optional<std::string> ref;  // the element that shows the effect; none for ClearsDirty
    WriteShape shape = WriteShape::AppendsText;
    std::string text;
    friend bool operator==(const WriteDeclaration&, const WriteDeclaration&) = default;
};


// One reading of a written state. nullopt: unreadable (V-2). The value for text shapes, the
// marker for ClearsDirty; `at_ms` is when it was read.
struct WriteReading {
    std::optional<std::string> value;
    std::optional<bool> dirty;
    TimeMs at_ms = 0;
    friend bool operator==(const WriteReading&, const WriteReading&) = default;
};

// The contract every boundary snapshot is judged under: all nine fields required, two known
// states ("done", "not_done"); the expected state is "done".
ObservationContract boundary_contract();
inline constexpr std::string_view boundary_state_done = "done";
inline constexpr std::string_view boundary_state_not_done = "not_done";

// O-4: correlation "step-<k>" of the earlier step, target the written element's ref (or
// "window-<id>:dirty" for a save), expected state "done".
ObservedAction boundary_action(std::uint32_t dependency, const WriteDeclaration& writes, WindowId window);

// W-1: done / not_done / unknown from a (before, after) pair of readings of one declared write.
// `settled`: the after-read was taken once the effect was due (D-3); without it, no not_done.
WriteOutcome classify_declared(const WriteDeclaration& writes, const std::optional<WriteReading>& before,
                               const WriteReading& after, bool settled);
// The same, saying which checks ran and which could not, and why (W-3).
WriteOutcome classify_declared(const WriteDeclaration& writes, const std::optional<WriteReading>& before,
                               const WriteReading& after, bool settled, std::vector<Check>& ran,
                               std::vector<SkippedCheck>& not_run);

// D-3: whether a read taken at `read_at` of an effect sent by `sent_at` is settled: `published`
// (settles false) trusts one immediate read; `current` only a read once the app's declared latency
// bound has passed since the send (no declared bound: never).
bool read_settled(bool settles, std::optional<TimeMs> bound, TimeMs sent_at, TimeMs read_at);

// O-4: the snapshot of one boundary read. evidenceStatus "observed" only when the reading was
// readable, freshness "fresh" only when settled, effectStatus "unknown" when the reading still
// leaves the effect in doubt, state the classification (not carried when unreadable), fingerprint
// a digest of the reading (not carried when unreadable).
ObservationSnapshot boundary_snapshot(const ObservedAction& action, const WriteDeclaration& writes,
                                      const WriteReading& reading, bool settled, WriteOutcome outcome);
// The reading before the earlier step was delivered, as the "previous" snapshot of the same
// correlation and target (rule 7: a fingerprint that did not move is no evidence of progress).
ObservationSnapshot boundary_previous(const ObservedAction& action, const WriteDeclaration& writes,
                                      const WriteReading& before);

// What the report says about one boundary (P-1: every field a claim the checks hold against the
// ground truth).
struct BoundaryObservation {
    std::uint32_t dependency = 0;               // the earlier step
    std::optional<WriteDeclaration> writes;     // nullopt: the step declares no write (needs_evidence)
    std::optional<WriteReading> before;         // read before the earlier step was delivered
    std::optional<WriteReading> after;          // the one boundary read (nullopt: nothing to read)
    bool settled = false;
    WriteOutcome outcome = WriteOutcome::Unknown;
    ObservationSnapshot snapshot;
    std::optional<ObservationSnapshot> previous;
    ObservationJudgement judgement;
    bool proceeds() const { return judgement.outcome == ObservationOutcome::Observed; }
};

// B-3: how many sent steps the tool remembers for later boundaries (the oldest ids are dropped).
inline constexpr std::size_t sent_steps_max = 256;

// B-3: the error a dependent step stops with when its dependency's observation is not `observed`.

Error boundary_escalation(const BoundaryObservation& b);

// A 64-bit FNV-1a digest of a reading, as 16 hex digits: the snapshot's fingerprint.
std::string reading_fingerprint(const WriteReading& reading, WriteShape shape);

}  // namespace deskcheck
