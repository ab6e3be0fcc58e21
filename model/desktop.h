// The Desktop port: the only way model/ touches a desktop (DESIGN "The port").
//
// Small enough that a real Windows backend could implement it over Win32 + UI Automation:
// top-level windows, foreground get/request (requests can be refused), last-input time, the
// element tree of a window, optional reads (V-2), hit testing, DPI, delivery by a named method,
// launch without activation, the cursor, and virtual time.
//
// Errors are values (DeliveryStatus, std::optional) — except DesktopException, which a delivery
// may throw: that is the failure F-6 is about.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/selection.h"

namespace deskcheck {

using WindowId = std::uint32_t;   // a top-level window (HWND)
using ProcessId = std::uint32_t;
using ElementId = std::uint32_t;  // a runtime element id, valid within its window
using TimeMs = std::int64_t;      // virtual milliseconds

inline constexpr WindowId no_window = 0;

struct Point {
    std::int32_t x = 0;
    std::int32_t y = 0;
    friend bool operator==(const Point&, const Point&) = default;
};

struct Rect {
    std::int32_t left = 0;
    std::int32_t top = 0;
    std::int32_t right = 0;   // exclusive
    std::int32_t bottom = 0;  // exclusive
    bool contains(Point p) const { return p.x >= left && p.x < right && p.y >= top && p.y < bottom; }
    friend bool operator==(const Rect&, const Rect&) = default;
};

enum class DpiAwareness : std::uint8_t { Unaware, System, PerMonitor };
enum class Framework : std::uint8_t { Win32, WinForms, Wpf, Electron };
std::string_view to_string(DpiAwareness a);
std::string_view to_string(Framework f);

struct WindowInfo {
    WindowId id = no_window;
    ProcessId pid = 0;
    std::optional<WindowId> owner;  // popups and dialogs are owned by another window
    Rect bounds;                    // physical pixels
    DpiAwareness awareness = DpiAwareness::PerMonitor;
    Framework framework = Framework::Win32;
    std::uint32_t window_dpi = 96;   // the DPI the window believes it runs at (96 when unaware)
    std::uint32_t monitor_dpi = 96;  // the DPI of the monitor it is on
    std::string class_name;
    std::string title;
};

// One node of a window's element tree. Trees are flat: nodes[0] is the root, children are
// indices into the same vector in child order (no recursion over input-sized data).
struct ElementNode {
    ElementId id = 0;
    std::string role;                        // "Edit", "CheckBox", "TreeItem", "ListItem", "Button", "Pane"...
    std::optional<std::string> automation_id;
    std::string name;
    bool own_handle = false;                 // the element has its own window handle (HWND)
    std::string class_name;                  // its window class when own_handle ("Edit", "Button")
    Rect bounds;                             // physical pixels on screen
    std::vector<std::uint32_t> children;
};

struct ElementTree {
    WindowId window = no_window;
    std::vector<ElementNode> nodes;  // empty when the window has no tree
};
// What the port hands out: an immutable tree, shared (a backend may keep answering the same tree
// until the window changes). Never null.
using TreePtr = std::shared_ptr<const ElementTree>;

// How an input reaches its target (E-4).
enum class DeliveryMethod : std::uint8_t {
    EditMessage,    // edit messages straight to an edit control (replace selection, select all, ...)
    PostedKeys,     // keys posted to the target's thread, modifiers set on its input thread
    ClickMessage,   // BM_CLICK to a classic button
    PostedClick,    // a mouse click posted at client coordinates (logical for unaware windows)
    UiaInvoke,      // UI Automation patterns: WPF/WinUI pull themselves to the front on these
    UiaToggle,
    UiaExpand,
    UiaSelect,
    UiaSetValue,
    RealInput,      // SendInput: goes to the foreground window / the window under the point
};
std::string_view to_string(DeliveryMethod m);

struct Input {
    DeliveryMethod method = DeliveryMethod::PostedKeys;
    WindowId window = no_window;      // the target window (no_window for a bare RealInput key)
    std::optional<ElementId> element; // the target element, if any
    std::string keys;                 // a chord such as "ctrl+a", "F24"; empty for text/click
    std::string text;                 // text to type; empty for chords/clicks
    std::optional<Point> point;       // clicks: client point for PostedClick, physical screen point for RealInput
    std::int32_t step = -1;           // correlation id: the batch step this input belongs to
    std::optional<std::string> idempotency_key;  // W-2: the app ignores a repeat with the same key
};

enum class DeliveryStatus : std::uint8_t { Delivered, Failed, Rejected };
std::string_view to_string(DeliveryStatus s);

// Thrown by Desktop::deliver when the backend fails in a way that has no evidence (F-6).
struct DesktopException : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class ForegroundAnswer : std::uint8_t { Granted, Refused };

// How a control's value can be written back (R-3, seed 002 "ui.value").
enum class ValueWriter : std::uint8_t { ValuePattern, KeyboardFallback, None };
std::string_view to_string(ValueWriter w);

class Desktop {
public:
    virtual ~Desktop() = default;

    // --- windows and foreground ---
    virtual std::vector<WindowInfo> top_level_windows() = 0;   // in z-order, topmost first
    virtual std::optional<WindowInfo> window(WindowId id) = 0;
    virtual WindowId foreground() = 0;
    virtual ForegroundAnswer request_foreground(WindowId id) = 0;
    virtual std::optional<ElementId> focused_element(WindowId id) = 0;
    virtual TimeMs last_input_ms() = 0;  // time of the last keyboard/mouse input, any process

    // --- elements and reads (V-2: nullopt = unreadable, never "") ---
    virtual TreePtr element_tree(WindowId id) = 0;  // never null; no nodes when there is no tree
    virtual std::optional<std::string> read_value(WindowId w, ElementId e) = 0;
    virtual std::optional<Selection> read_selection(WindowId w, ElementId e) = 0;
    virtual std::optional<bool> read_toggled(WindowId w, ElementId e) = 0;
    virtual std::optional<bool> read_expanded(WindowId w, ElementId e) = 0;
    virtual std::optional<bool> read_selected(WindowId w, ElementId e) = 0;
    virtual std::optional<bool> read_dirty(WindowId w) = 0;  // the title's unsaved marker

    // --- coordinates (physical pixels) ---
    virtual std::optional<WindowId> window_at(Point physical) = 0;  // hit test over z-order
    virtual Point cursor() = 0;
    virtual void set_cursor(Point physical) = 0;

    // --- input ---
    virtual DeliveryStatus deliver(const Input& input) = 0;  // may throw DesktopException
    // Starts an app without activating it (F-8); returns its process id, nullopt when unknown.
    virtual std::optional<ProcessId> launch(std::string_view app) = 0;

    // The app's declared responsiveness: an input's effect lands within this many ms (a profile a
    // real backend would be configured with). nullopt: not declared; the settle policy then uses
    // its own maximum and never calls the state settled.
    virtual std::optional<TimeMs> declared_latency_ms(WindowId) { return std::nullopt; }

    // --- virtual time ---
    virtual TimeMs now_ms() = 0;
    virtual void wait_ms(TimeMs ms) = 0;  // lets time pass: async effects land, users act

    // --- what undo needs; a backend without them answers "cannot" and the tool refuses
    // the step before acting ---
    // How a control's value can be written back: the ValuePattern primitive, the seed's fallback
    // (focus + select-all + paste, which can write any text but cannot give back "no value"), or not.
    virtual ValueWriter value_writer(WindowId, ElementId) { return ValueWriter::None; }
    // ValuePattern.SetValue: the whole value becomes `value`; nullopt gives the control back "no
    // value" (R-3: null and "" are different states). Rejected when the control has no such primitive.
    virtual DeliveryStatus set_value(WindowId, ElementId, const std::optional<std::string>&) {
        return DeliveryStatus::Rejected;
    }
    // The value as undo needs it: nullopt = unreadable; a reading holding nullopt = the
    // control has no value. A backend that cannot tell "no value" apart never answers it.
    virtual std::optional<std::optional<std::string>> read_value_state(WindowId w, ElementId e) {
        auto v = read_value(w, e);
        if (!v) return std::nullopt;
        return std::optional<std::optional<std::string>>(std::move(v));
    }
    virtual std::optional<Rect> read_geometry(WindowId w) {
        const auto info = window(w);
        return info ? std::optional<Rect>(info->bounds) : std::nullopt;
    }
    virtual DeliveryStatus move_window(WindowId, Rect) { return DeliveryStatus::Rejected; }
    virtual std::optional<bool> read_enabled(WindowId, ElementId) { return std::nullopt; }
};

}  // namespace deskcheck
