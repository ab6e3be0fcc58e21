// The write_once report's claims (W-1, W-4, W-5), both ways — see checks/claim_checks.h.
//
// Decided from the scenario (which feed a post or submit shows in, the app's declared bound) and
// the ledger (the reads of that feed in the call's segment, the step's deliveries and effects,
// landed by the end of the run) alone: nothing in model/ is called, no classification is
// re-used. write_once reads the feed once before the action, once after it and, when the first two
// left the outcome open, once more after a watched wait; those reads (outside the step's own range
// of reads) are what its report quotes.
#include <algorithm>
#include <string>
#include <vector>

#include "checks/claim_checks.h"
#include "checks/promise.h"

namespace deskcheck::props {
namespace {

struct Facts {
    std::uint32_t step = 0;
    WindowId window = no_window;
    ElementId feed = 0;
    // The feed's value reads write_once made itself, in order: before the step (nullptr: none), then
    // after it (the step's own reads, such as a boundary's, B-3, belong to the step report).
    std::vector<const sim::Read*> reads;
    std::vector<TimeMs> delivered;        // this call's deliveries of the step (an agent's retry is another call)
    const sim::Effect* landed = nullptr;  // the first effect of one of them on the feed, by the end of the run
};

// Someone else wrote the feed (the user, an app event, another step) between the call's start and `t`.
bool other_writer(const sim::GroundTruth& truth, const Facts& f, TimeMs from, TimeMs t) {
    return std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return e.window == f.window && e.element == f.feed && e.at_ms >= from && e.at_ms <= t &&
               (e.by != sim::Actor::Tool || e.step != static_cast<std::int32_t>(f.step));
    });
}

bool clean(const sim::Read* r) { return r != nullptr && r->returned.has_value() && r->fault == sim::ReadFault::None; }

std::optional<std::string> reading_lie(const std::string& who, std::string_view field, const sim::Read* read,
                                       const std::optional<std::string>& claimed) {
    if (read == nullptr) {
        if (!claimed) return std::nullopt;
        return who + " quotes " + std::string(field) + " " + shown(claimed) + ", but the feed was not read for it (W-4)";
    }
    if (sim::same(read->returned, claimed)) return std::nullopt;
    return who + " quotes " + std::string(field) + " " + shown(claimed) + ", but the read at " + t_at(read->at_ms) +
           " returned " + shown(read->returned) + " (W-4, V-2)";
}

// The feed's reads of the call, this call's deliveries of the step and the first effect of one of
// them on the feed. The first read of the call (before the step began: a boundary's read comes
// later), then those after the step ended.
Facts facts_of(const History& run, const Segment& seg, const StepReport& report, const StepTiming& timing, WindowId holder, ElementId feed) {
    const auto& truth = run.truth();
    Facts f;
    f.step = report.index;
    f.window = holder;
    f.feed = feed;
    auto feed_read = [&](std::size_t i) { return i < truth.reads.size() && truth.reads[i].window == f.window &&
                                                 truth.reads[i].element == f.feed && truth.reads[i].field == sim::ReadField::Value; };
    if (feed_read(seg.reads_begin) && seg.reads_begin < timing.reads_begin) f.reads.push_back(&truth.reads[seg.reads_begin]);
    else f.reads.push_back(nullptr);
    for (std::size_t i = timing.reads_end; i < seg.reads_end; ++i) {
        if (feed_read(i)) f.reads.push_back(&truth.reads[i]);
    }
    for (std::size_t i = timing.attempts_begin; i < timing.attempts_end && i < truth.attempts.size(); ++i) {
        const auto& a = truth.attempts[i];
        if (a.step == static_cast<std::int32_t>(f.step) && a.outcome == sim::AttemptOutcome::Delivered) f.delivered.push_back(a.at_ms);
    }
    for (const auto& e : truth.effects) {
        const bool ours = e.delivered_at_ms && std::find(f.delivered.begin(), f.delivered.end(), *e.delivered_at_ms) != f.delivered.end();
        if (ours && e.step == static_cast<std::int32_t>(f.step) && e.by == sim::Actor::Tool && e.window == f.window && e.element == f.feed) {
            f.landed = &e;
            break;
        }
    }
    return f;
}

const sim::Read* read_at(const Facts& f, std::size_t k) { return k < f.reads.size() ? f.reads[k] : nullptr; }

// The readings it quotes, the reads and the wait it says it made, its answer for the action and
// its call for a person (W-4, P-1).
std::optional<std::string> procedure_lie(const std::string& who, const WriteReport& w, const Facts& f, const Segment& seg, const StepReport& report) {
    for (const auto& [field, k, claimed] : {std::tuple{"before", 0, w.before}, {"after", 1, w.after}, {"reconciled", 2, w.reconciled}}) {
        if (auto lie = reading_lie(who, field, read_at(f, static_cast<std::size_t>(k)), claimed)) return lie;
    }
    // A reconciling read the desktop served, or one that reached nothing (the feed was gone: it is
    // quoted unreadable, checked above); either way it came after a wait.
    const bool third_read = f.reads.size() >= 3;
    if (third_read && !w.reconciled_by_reading) return who + " leaves out the reconciling read at " + t_at(f.reads[2]->at_ms) + " (W-4)";
    const TimeMs after_at = f.reads.size() >= 2 ? f.reads[1]->at_ms : seg.began_ms;
    const bool waited = third_read ? f.reads[2]->at_ms > after_at : seg.ended_ms > after_at;
    if (w.reconciled_by_reading && !waited) return who + " claims a reconciling read, but no time passed after its first read at " + t_at(after_at) + " (W-4)";
    if (w.watched_wait != w.reconciled_by_reading) {
        return who + (w.watched_wait ? " claims a watched wait without the reconciling read it is for" : " leaves out the watched wait before its reconciling read") +
               " (W-4, F-3)";
    }
    if (w.act.ok != report.result.ok || w.act.verdict != report.result.verdict || w.act.error != report.result.error) {
        return who + " answers for the action otherwise than the step's own report (P-1)";
    }
    if (w.escalate != (w.outcome == WriteOutcome::Unknown)) {
        return who + (w.escalate ? " asks a person although it says " + std::string(name_of(w.outcome)) : " says unknown without asking a person (W-4: stop, escalate)");
    }
    return std::nullopt;
}

bool any_stale(const Facts& f) {
    return std::any_of(f.reads.begin(), f.reads.end(), [](const sim::Read* r) { return r != nullptr && r->fault != sim::ReadFault::None; });
}

// done / not_done, against the effect as it stood at the end of the run (W-1).
ClaimJudgement decided_outcome(const std::string& who, const WriteReport& w, const Facts& f, const History& run, const Segment& seg) {
    const sim::Read* last = f.reads.size() >= 2 ? f.reads.back() : nullptr;  // the deciding read
    if (w.outcome == WriteOutcome::Done) {
        const TimeMs by = last != nullptr ? last->at_ms : seg.ended_ms;
        if (f.landed != nullptr && f.landed->at_ms <= by) return {};
        if (other_writer(run.truth(), f, seg.began_ms, by)) return {std::nullopt, "someone else wrote the feed a done write was read in (W-5)"};
        if (any_stale(f)) return {std::nullopt, "a stale read (S-7) of the feed fed a done write"};
        return {who + " says done, but the step's post had not shown in the feed by " + t_at(by) +
                    (f.landed ? " (it showed at " + t_at(f.landed->at_ms) + ")" : " (it never showed)") + " (W-1)",
                std::nullopt};
    }
    if (f.landed == nullptr) return {};
    if (f.landed->overrun) return {std::nullopt, "a not_done write's post showed beyond its app's declared latency bound (S-7)"};
    if (any_stale(f)) return {std::nullopt, "a stale read (S-7) of the feed fed a not_done write"};
    const std::string what = who + " says not_done, but the step's post showed in the feed at " + t_at(f.landed->at_ms);
    // Shown after the last read: the read was readable, not timely (D-3).
    if (last != nullptr && f.landed->at_ms > last->at_ms) return {what + ", after its last read at " + t_at(last->at_ms) + " (W-1, D-3)", std::nullopt};
    return {what + " (W-1)", std::nullopt};
}

// Unknown: a missing claim when the evidence the tool had decided it (W-1, W-4).
ClaimJudgement unknown_withheld(const std::string& who, const WriteReport& w, const Facts& f, const sim::Scenario& scenario, const History& run,
                                const Segment& seg, const StepReport& report, const StepTiming& timing) {
    const auto& truth = run.truth();
    // Unknown on an action that ended on an error with nothing of it reaching the app (every
    // attempt failed or was refused, or none was made; none threw, W-5): the post cannot have been
    // made, and the tool knew it from the desktop's own answers — not_done is demanded (W-1).
    if (report.result.error && !reached_the_app(run, timing, f.step)) {
        return {who + " says unknown, but the action ended on " + std::string(name_of(report.result.error->kind)) +
                    " with nothing of it delivered: the post cannot have been made (W-1: not_done)",
                std::nullopt};
    }
    // Its evidence ends with its last reading: a reconciling read that reached nothing (the feed was
    // gone: no read in the ledger, quoted unreadable) leaves it with nothing readable to decide on.
    if (w.reconciled_by_reading && f.reads.size() < 3) return {};
    const sim::Read* last = f.reads.size() >= 2 ? f.reads.back() : nullptr;
    if (any_stale(f) || !clean(last) || !clean(read_at(f, 0)) || other_writer(truth, f, seg.began_ms, last->at_ms)) return {};
    if (f.landed != nullptr && f.landed->at_ms <= last->at_ms) {
        return {who + " says unknown, but its last read at " + t_at(last->at_ms) + " (" + shown(last->returned) +
                    ") came after the post showed at " + t_at(f.landed->at_ms) + ": the evidence said done (W-1, W-4)",
                std::nullopt};
    }
    const TimeMs bound = declared_bound_ms(scenario, f.window);
    // S-7: an effect of the delivery overran the app's declared bound: the read past the bound is no
    // evidence of a not_done.
    // W-2: a keyed repeat the app ignored stands for the write its key first made: no not_done either.
    const bool overran = std::any_of(truth.effects.begin(), truth.effects.end(), [&](const sim::Effect& e) {
        return (e.overrun || e.kind == sim::EffectKind::RepeatIgnored) && e.step == static_cast<std::int32_t>(f.step) && e.delivered_at_ms &&
               std::find(f.delivered.begin(), f.delivered.end(), *e.delivered_at_ms) != f.delivered.end();
    });
    if (f.landed == nullptr && !overran && !f.delivered.empty() && last->at_ms >= f.delivered.front() + bound) {
        return {who + " says unknown, but its last read at " + t_at(last->at_ms) + " came after the app's declared bound (" +
                    std::to_string(bound) + " ms past the delivery at " + t_at(f.delivered.front()) +
                    ") and the post never showed: the evidence said not_done (W-1, D-3)",
                std::nullopt};
    }
    return {};
}

}  // namespace

ClaimJudgement write_report_claims(const sim::Scenario& scenario, const History& run, const Segment& seg) {
    if (!seg.write) return {};
    const WriteReport& w = *seg.write;
    if (seg.reports.empty()) return {"a write report without its step report", std::nullopt};
    const std::size_t ri = seg.reports.back();
    const StepReport& report = run.steps[ri];
    if (report.index >= scenario.steps.size() || ri >= run.timings.size()) return {};
    const sim::Step& st = scenario.steps[report.index];
    const auto [c, holder] = control_anywhere(scenario, st.control);
    if (c == nullptr || c->feed == 0) return {};  // write_once is sent for posts and submits only
    const std::string who = "step " + std::to_string(report.index) + "'s write report";
    const StepTiming& timing = run.timings[ri];
    const Facts f = facts_of(run, seg, report, timing, holder, c->feed);
    if (auto lie = procedure_lie(who, w, f, seg, report)) return {lie, std::nullopt};
    if (w.outcome != WriteOutcome::Unknown) return decided_outcome(who, w, f, run, seg);
    return unknown_withheld(who, w, f, scenario, run, seg, report, timing);
}

}  // namespace deskcheck::props
