// The dependency boundary (SPEC B-3, W-1, W-4, O-4); see boundary.h.
#include "model/boundary.h"

#include "model/shown.h"

#include <algorithm>
#include <cassert>

#include "model/tool.h"
#include "model/write.h"

namespace deskcheck {

std::string_view to_string(WriteShape s) {
    switch (s) {
        case WriteShape::AppendsText: return "appends_text";
        case WriteShape::ContainsText: return "contains_text";
        case WriteShape::ClearsDirty: return "clears_dirty";
    }
    return "?";
}

ObservationContract boundary_contract() {
    ObservationContract c;
    c.version = "deskcheck-boundary-v1";
    for (const auto name : snapshot_field_names()) c.required_fields.emplace_back(name);
    c.known_states = {std::string(boundary_state_done), std::string(boundary_state_not_done)};
    return c;
}

namespace {

std::string written_target(const WriteDeclaration& writes, WindowId window) {
    if (writes.shape == WriteShape::ClearsDirty || !writes.ref) return "window-" + std::to_string(window) + ":dirty";
    return *writes.ref;
}

bool readable(const WriteReading& r, WriteShape shape) {
    return shape == WriteShape::ClearsDirty ? r.dirty.has_value() : r.value.has_value();
}

}  // namespace

ObservedAction boundary_action(std::uint32_t dependency, const WriteDeclaration& writes, WindowId window) {
    return ObservedAction{"step-" + std::to_string(dependency), written_target(writes, window),
                          std::string(boundary_state_done)};
}

WriteOutcome classify_declared(const WriteDeclaration& writes, const std::optional<WriteReading>& before,
                               const WriteReading& after, bool settled) {
    std::vector<Check> ran;
    std::vector<SkippedCheck> not_run;
    return classify_declared(writes, before, after, settled, ran, not_run);
}

bool read_settled(bool settles, std::optional<TimeMs> bound, TimeMs sent_at, TimeMs read_at) {
    return !settles || (bound.has_value() && read_at - sent_at >= *bound);
}

WriteOutcome classify_declared(const WriteDeclaration& writes, const std::optional<WriteReading>& before,
                               const WriteReading& after, bool settled, std::vector<Check>& ran,
                               std::vector<SkippedCheck>& not_run) {
    switch (writes.shape) {
        case WriteShape::AppendsText:
            return classify_write(before ? before->value : std::nullopt, after.value, writes.text, settled, ran, not_run);
        case WriteShape::ContainsText:
            // Without a reading before the step, text already there cannot be told from text typed.
            if (!after.value || !before || !before->value) return WriteOutcome::Unknown;
            // V-1: text the field held before cannot show the text arriving (nor a not_done).
            if (before->value->find(writes.text) != std::string::npos) return WriteOutcome::Unknown;
            if (after.value->find(writes.text) != std::string::npos) return WriteOutcome::Done;
            return settled ? WriteOutcome::NotDone : WriteOutcome::Unknown;
        case WriteShape::ClearsDirty:
            // Without a reading before the save, a marker that was never set cannot be told from a save.
            if (!after.dirty || !before || !before->dirty) return WriteOutcome::Unknown;
            // A marker that was clear before cannot show the save either (nor a not_done).
            if (!*before->dirty) return WriteOutcome::Unknown;
            if (!*after.dirty) return WriteOutcome::Done;
            return settled ? WriteOutcome::NotDone : WriteOutcome::Unknown;
    }
    return WriteOutcome::Unknown;
}

std::string reading_fingerprint(const WriteReading& reading, WriteShape shape) {
    // The digest of "dirty:true" / "value:<the value>", without a copy of the value.
    if (shape == WriteShape::ClearsDirty) return hex16(fnv1a64(reading.dirty.value_or(false) ? "dirty:true" : "dirty:false"));
    return hex16(fnv1a64(reading.value ? std::string_view(*reading.value) : std::string_view(), fnv1a64("value:")));
}

namespace {

ObservationSnapshot snapshot_of(const ObservedAction& action, const WriteDeclaration& writes, const WriteReading& reading) {
    ObservationSnapshot s;
    s.observed_at = "t=" + std::to_string(reading.at_ms) + "ms";
    s.source = "boundary_read";
    s.correlation_id = action.correlation_id;
    s.target = action.target;
    const bool ok = readable(reading, writes.shape);
    s.evidence_status = ok ? "observed" : "unreadable";
    if (ok) s.fingerprint = reading_fingerprint(reading, writes.shape);
    return s;
}

}  // namespace

ObservationSnapshot boundary_snapshot(const ObservedAction& action, const WriteDeclaration& writes,
                                      const WriteReading& reading, bool settled, WriteOutcome outcome) {
    ObservationSnapshot s = snapshot_of(action, writes, reading);
    s.freshness = settled ? "fresh" : "stale";
    s.effect_status = outcome == WriteOutcome::Unknown ? "unknown" : "known";
    if (readable(reading, writes.shape)) s.state = std::string(to_string(outcome));
    return s;
}

ObservationSnapshot boundary_previous(const ObservedAction& action, const WriteDeclaration& writes,
                                      const WriteReading& before) {
    ObservationSnapshot s = snapshot_of(action, writes, before);
    s.freshness = "fresh";
    s.effect_status = "unknown";  // before the step: its effect has not been observed yet
    return s;
}

// ---- the tool's side: what a step writes, the reads, the boundary --------------------------------

std::optional<WriteDeclaration> Tool::declared_write(const Request& r) const {
    if (r.writes) return r.writes;
    if (r.kind == RequestKind::Type && r.ref && !r.text.empty()) return WriteDeclaration{r.ref, WriteShape::ContainsText, r.text};
    if (r.kind == RequestKind::Hotkey && r.keys == "ctrl+s") return WriteDeclaration{std::nullopt, WriteShape::ClearsDirty, ""};
    return std::nullopt;
}

WriteReading Tool::read_written(WindowId window, const WriteDeclaration& writes) {
    WriteReading out;
    if (writes.shape == WriteShape::ClearsDirty) {
        out.dirty = desktop_.read_dirty(window);
        out.at_ms = desktop_.now_ms();
        return out;
    }
    const Locator* loc = writes.ref ? refs_.find(*writes.ref) : nullptr;
    if (loc != nullptr) {
        auto res = resolve(*desktop_.element_tree(loc->window), *loc);
        if (const auto* found = std::get_if<Resolved>(&res)) out.value = desktop_.read_value(loc->window, found->element);
    }
    out.at_ms = desktop_.now_ms();
    assert(!out.dirty && (!out.value || writes.ref));  // a text write is read through its ref only
    return out;
}

namespace {

// The reading a step's own evidence gives of what it writes, before it was sent (typing reads the
// field, a save the marker): the "previous" of the boundary's snapshot.
std::optional<WriteReading> before_from_evidence(const StepReport& rep, const WriteDeclaration& w, TimeMs at_ms) {
    const auto& b = rep.result.evidence.before;
    if (!b) return std::nullopt;
    if (w.shape == WriteShape::ClearsDirty) return b->dirty ? std::optional(WriteReading{std::nullopt, b->dirty, at_ms}) : std::nullopt;
    return b->value ? std::optional(WriteReading{b->value, std::nullopt, at_ms}) : std::nullopt;
}

}  // namespace

void Tool::remember_step(const StepReport& rep) {
    assert(sent_.size() <= sent_steps_max);
    const Request& r = rep.request;
    SentStep sent{r, rep.write_before, desktop_.now_ms(), delivered_at_, rep.result.evidence.delivered, ++remembered_};
    if (!sent.before) {
        // P-1: stamped with when that reading was taken, not when the step ended.
        if (const auto w = declared_write(r)) sent.before = before_from_evidence(rep, *w, before_read_at_);
    }
    sent_.insert_or_assign(r.step, std::move(sent));
    while (sent_.size() > sent_steps_max) sent_.erase(sent_.begin());  // the oldest correlation ids first
    assert(!sent_.empty() && sent_.size() <= sent_steps_max);  // B-3: bounded
    assert(remembered_ >= sent_.size());  // at most one entry per step remembered
}

std::optional<BoundaryObservation> Tool::boundary_phase(const Request& r) {
    assert(sent_.size() <= sent_steps_max);
    if (!r.depends_on) return std::nullopt;
    const auto dep = static_cast<std::int32_t>(*r.depends_on);
    BoundaryObservation obs;
    obs.dependency = *r.depends_on;
    const auto it = sent_.find(dep);
    if (it != sent_.end()) obs.writes = declared_write(it->second.request);
    const ObservationContract contract = boundary_contract();
    if (!obs.writes) {
        // Never sent, or nothing declared to read: no target, no state (rule 1: needs_evidence).
        obs.snapshot.correlation_id = "step-" + std::to_string(dep);
        obs.snapshot.source = "boundary_read";
        const ObservedAction action{*obs.snapshot.correlation_id, "", std::string(boundary_state_done)};
        obs.judgement = assess_observation_snapshot({action, contract, obs.snapshot, nullptr});
        return obs;
    }
    const SentStep& sent = it->second;
    obs.before = sent.before;
    // D-3 (`current`): wait until the earlier step's effects are due, so the read can be fresh.
    const auto bound = desktop_.declared_latency_ms(sent.request.target);
    if (rules_.settles && bound) {
        const TimeMs wait = std::min(sent.ended_ms + *bound - desktop_.now_ms(), config_.quiesce_ms_max);
        if (wait > 0) desktop_.wait_ms(wait);
    }
    const WriteReading after = read_written(sent.request.target, *obs.writes);  // the one boundary read
    obs.after = after;
    // `published` trusts one immediate read (D-3, as write_once); `current` only a read past the bound.
    obs.settled = read_settled(rules_.settles, bound, sent.ended_ms, after.at_ms);
    obs.outcome = classify_declared(*obs.writes, obs.before, after, obs.settled);
    // A later step of this tool delivered since to the same app may have written the same state
    // (the same post clicked by coordinates), or undone it (text typed over, the document dirtied
    // again): the reading cannot tell whose effect it shows, nor whose it misses (W-1: unknown,
    // either way). An app's effects land in its own windows only; a window gone is taken as the same app.
    const auto app_of = [&](WindowId w) { const auto info = desktop_.window(w); return info ? std::optional(info->pid) : std::nullopt; };
    const std::optional<ProcessId> written_app = app_of(sent.request.target);
    const auto same_app = [&](const SentStep& other) {
        const std::optional<ProcessId> to = app_of(other.request.target);
        return !written_app || !to || *to == *written_app;
    };
    const bool later_delivery = std::any_of(sent_.begin(), sent_.end(), [&](const auto& other) {
        return other.first != dep && other.second.delivered && other.second.order > sent.order && same_app(other.second);
    });
    if (later_delivery) obs.outcome = WriteOutcome::Unknown;
    // An earlier one whose effects may land, by its app's declared bound, after this step was sent
    // can undo what it wrote (typing that dirties the document again after the save): a reading
    // without the write cannot tell that from a write that never landed (W-1: not_done unknown).
    const bool earlier_in_flight = std::any_of(sent_.begin(), sent_.end(), [&](const auto& other) {
        if (other.first == dep || !other.second.delivered || other.second.order >= sent.order || !same_app(other.second)) return false;
        const auto other_bound = desktop_.declared_latency_ms(other.second.request.target);
        return !other_bound || other.second.delivered_ms + *other_bound > sent.delivered_ms;
    });
    if (earlier_in_flight && obs.outcome == WriteOutcome::NotDone) obs.outcome = WriteOutcome::Unknown;
    const ObservedAction action = boundary_action(obs.dependency, *obs.writes, sent.request.target);
    obs.snapshot = boundary_snapshot(action, *obs.writes, after, obs.settled, obs.outcome);
    if (obs.before) obs.previous = boundary_previous(action, *obs.writes, *obs.before);
    obs.judgement = assess_observation_snapshot({action, contract, obs.snapshot, obs.previous ? &*obs.previous : nullptr});
    // O-4: `observed` only on a fresh reading that shows the write done.
    assert(!obs.proceeds() || (obs.settled && obs.outcome == WriteOutcome::Done));
    return obs;
}


Error boundary_escalation(const BoundaryObservation& b) {
    return Error{ErrorKind::Escalate, "step " + std::to_string(b.dependency) + " observed once: " +
                                          std::string(to_string(b.judgement.outcome)) + " (" + b.judgement.reason +
                                          "); the step that depends on it is not run and nothing is re-sent"};
}

}  // namespace deskcheck
