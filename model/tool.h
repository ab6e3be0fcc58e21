// The tool: act, foreground guard, batch (SPEC P-1, E-1..E-6, F-1..F-8, B-1..B-4, D-3).
// Talks to a desktop only through the Desktop port.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/boundary.h"
#include "model/desktop.h"
#include "model/evidence.h"
#include "model/locator.h"
#include "model/protocol.h"
#include "model/verdict.h"

namespace deskcheck {

class ToolHooks;  // the tool's extension points (model/tool_hooks.h)
struct FrontWindow;  // model/foreground_decision.h
struct BackgroundFacts;

// Every wait and watch is a named, bounded constant (DESIGN "Bounded everything").
struct ToolConfig {
    TimeMs user_idle_ms = 700;        // F-1: the user counts as busy when the last input is younger
    TimeMs user_wait_ms_max = 3000;   // F-1: then go ahead anyway (not a failure)
    TimeMs app_watch_ms = 350;        // F-3: watch after a background action
    TimeMs app_watch_poll_ms = 50;
    TimeMs settle_poll_ms = 50;       // D-3: `current` polls the state after an action...
    TimeMs settle_ms_max = 1000;      // ...for at most this long
    TimeMs reconcile_wait_ms = 2000;  // W-4: how long to wait before the reconciling read
    TimeMs quiesce_ms_max = 10'000;   // D-3: longest wait for an earlier action's effects to land
    // How the tool reads, hit-tests, converts points, reports and gives back (model/tool_hooks.h).
    // nullptr: the tool as specified. The negative proofs put a wrong one here (harness/mutations.h);
    // it must outlive the Tool.
    const ToolHooks* hooks = nullptr;
};
inline constexpr std::size_t batch_steps_max = 64;

enum class RequestKind : std::uint8_t { Type, Hotkey, Click, ClickAt, Observe };
std::string_view to_string(RequestKind k);

// One action as the agent asks for it.
struct Request {
    RequestKind kind = RequestKind::Type;
    WindowId target = no_window;
    std::optional<std::string> ref;       // element ref from a snapshot (none: V-8 for type)
    std::string text;                     // Type
    std::string keys;                     // Hotkey
    std::optional<std::string> frame;     // ClickAt: required with the point (E-5)
    std::optional<Point> point;           // ClickAt: physical screen pixels (E-6)
    // B-3: the correlation id (`step`) of an earlier step whose write this one needs; in a batch a
    // step's id defaults to its index. The tool remembers the last `sent_steps_max` steps it sent.
    std::optional<std::uint32_t> depends_on;
    std::int32_t step = -1;               // correlation id handed to the desktop
    std::optional<std::string> idempotency_key;  // W-2: delivered with the input; a repeat is harmless
    // W-1: what a click writes and where (a post's feed, a submit's status). Typing and ctrl+s
    // declare themselves (the field, the window's marker); see model/boundary.h.
    std::optional<WriteDeclaration> writes;
};

struct StepReport {
    std::uint32_t index = 0;
    Request request;
    ToolResult result;
    ActionKind kind = ActionKind::Unverifiable;  // how the verdict rules saw the action
    ActionFacts facts;                           // the action as judged (B-3 re-judges it)
    std::optional<ElementId> element;            // the resolved element, when the action had a ref
    bool delivered = false;
    std::optional<std::string> element_ref;  // E-3: the acted-on element, registered as a ref
    std::optional<std::string> focused_ref;  // E-3: the focused element after the action
    // B-3, O-4: the boundary observation made before this step, when it depends on an earlier one.
    std::optional<BoundaryObservation> dependency;
    // W-4: the reading of the write the step declared (Request::writes), taken before it was sent.
    std::optional<WriteReading> write_before;
};

struct BatchReport {
    std::vector<StepReport> steps;
    std::optional<std::uint32_t> stopped_at;   // B-1: the step that stopped the batch
    std::optional<Error> stop_error;
    std::uint32_t borrows = 0;                 // F-5: at most one per batch
    std::uint32_t give_backs = 0;
    bool foreground_returned = false;          // F-5: the batch gave the foreground back
    bool escalated = false;                    // B-3: a dependency's observation was not `observed`
    ForegroundEvidence foreground;
};

struct SnapshotReport {
    WindowId window = no_window;
    std::vector<ElementRef> elements;  // never locators (E-1)
};

struct LaunchReport {
    bool ok = false;
    std::optional<WindowId> window;  // the claimed new window (F-8)
    std::optional<Error> error;
    ForegroundEvidence foreground;
};

// Optional listener (a log): told when a step begins and ends, so a trace can interleave the
// tool's steps and verdicts with what the desktop saw. Never changes what the tool does.
class ToolObserver {
public:
    virtual ~ToolObserver() = default;
    virtual void step_begins(const Request& request) = 0;
    virtual void step_ends(const StepReport& report) = 0;
    // B-3: the step's boundary observation is done (its one read taken); the step's own reads follow.
    virtual void boundary_observed(const Request& request, const BoundaryObservation& observation) {
        (void)request;
        (void)observation;
    }
    virtual void batch_ends(const BatchReport& report) = 0;
};

class Tool {
public:
    Tool(Desktop& desktop, const RuleSet& rules, ToolConfig config = {});

    // E-1: registers a ref for every element of the window's tree.
    SnapshotReport snapshot(WindowId window);
    // A single action outside a batch: never keeps the foreground (F-5).
    ToolResult act(const Request& request);
    StepReport act_step(const Request& request);
    // B-1..B-4, F-5, F-6.
    BatchReport batch(std::span<const Request> requests);
    // F-8: start without activation, claim the new window, give the foreground back if taken.
    LaunchReport launch(std::string_view app);
    // W-2: may the agent send this write again? The one retry rule (model/write.h), as configured.
    bool may_retry(WriteOutcome outcome, bool has_idempotency_key) const;
    // W-1, W-4: one read of what a write declares (no delivery): the field's or the feed's value
    // through its ref, or `window`'s unsaved marker for ClearsDirty. The boundary (B-3), a step's
    // write_before and write_once (model/write.h) all read through it.
    WriteReading read_written(WindowId window, const WriteDeclaration& writes);

    void set_observer(ToolObserver* observer) { observer_ = observer; }
    RefTable& refs() { return refs_; }
    const RuleSet& rules() const { return rules_; }
    const ToolConfig& config() const { return config_; }
    const ToolHooks& hooks() const { return hooks_; }
    Desktop& desktop() { return desktop_; }

private:
    struct Hold;
    struct Step;  // one step's context as it goes through the phases (act.cpp)
    StepReport run_step(const Request& request, Hold* hold);
    void run_phases(Step& step);
    // The phases of a step, in order (act.cpp). A phase that returns an error ends the step.
    void step_begin(Step& step);
    void decide_front_owner(Step& step, WindowId front);
    std::optional<Error> step_resolve(Step& step);
    std::optional<Error> step_pre_checks(Step& step);
    std::optional<Error> step_borrow(Step& step);
    std::optional<Error> step_recheck(Step& step);
    std::optional<Error> step_deliver(Step& step);
    void step_read_after(Step& step);
    void step_judge(Step& step);
    void step_give_back(Step& step);
    void step_register_refs(Step& step);
    void step_failed(Step& step, Error error);
    void step_observed(Step& step);
    Error delivery_failed(Step& step, DeliveryStatus status);
    ForegroundEvidence give_back_at_failure(Step& step, bool exception);
    enum FrontNeed : unsigned { need_exists = 1, need_target = 2, need_batch = 4 };
    FrontWindow front_window(const Step& step, WindowId window, const std::vector<WindowId>& acted, unsigned needs);
    BackgroundFacts background_facts(const Step& step);
    // Batch pieces (act.cpp).
    void batch_give_back(BatchReport& out, Hold& hold);
    Snapshot settle(WindowId w, ElementId e, const ActionFacts& facts, const Snapshot& before, bool& settled,
                    TimeMs& waited);
    // B-3, O-4 (model/boundary.cpp): what a step writes, one read of it, the boundary's judgement.
    std::optional<WriteDeclaration> declared_write(const Request& r) const;
    std::optional<BoundaryObservation> boundary_phase(const Request& r);
    void remember_step(const StepReport& rep);
    void quiesce(WindowId w);

    Desktop& desktop_;
    const RuleSet& rules_;
    ToolConfig config_;
    const ToolHooks& hooks_;
    RefTable refs_;
    ToolObserver* observer_ = nullptr;
    // D-3 (`current` only): per process, when the effects of the last delivery to it are due at the
    // latest (delivery time + the app's declared bound). A later action on that window waits for
    // it before its before-read, so it never takes an earlier action's late effect for its own.
    std::map<ProcessId, TimeMs> quiet_after_;
    // B-3: what the boundary needs of a step a later one may depend on, by correlation id (`step`):
    // the request, the reading of its declared write before it was sent, and when it ended.
    struct SentStep {
        Request request;
        std::optional<WriteReading> before;
        TimeMs ended_ms = 0;
        TimeMs delivered_ms = 0;  // when it was sent (delivered steps)
        bool delivered = false;
        std::uint64_t order = 0;  // the how-many-th step remembered: "later" even within one millisecond
    };
    std::map<std::int32_t, SentStep> sent_;
    std::uint64_t remembered_ = 0;
    TimeMs delivered_at_ = 0;    // when the last delivered step was sent
    TimeMs before_read_at_ = 0;  // when the last step's evidence `before` was read (its boundary reading's time)
};

// Reads the state an action of `kind` is judged on (V-2: each reading independently optional).
Snapshot read_state(Desktop& desktop, WindowId window, ElementId element, ActionKind kind, ClickState state);

// E-6: a physical screen point to the client point an (unaware / system-aware) window expects.
Point physical_to_client(const WindowInfo& window, Point physical);

}  // namespace deskcheck
