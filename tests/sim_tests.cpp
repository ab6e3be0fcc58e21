// The simulated desktop (S-1..S-7, E-4..E-6, F-3, F-7, F-8): one case per behaviour, on small
// hand-built scenarios. Enum results are compared through to_string so a failure prints words.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "sim/build.h"
#include "sim/geometry.h"
#include "sim/scaled_scenario.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "sim/validate.h"

namespace {

using namespace deskcheck;
using deskcheck::sim::ControlKind;
using deskcheck::sim::EffectKind;
using deskcheck::sim::EventKind;
using deskcheck::sim::Scenario;
using deskcheck::sim::Sim;

// --- builders ---

Scenario one_monitor(std::uint32_t dpi = 96) {
    Scenario s;
    s.seed = 11;
    s.monitors.push_back(sim::Monitor{1, Rect{0, 0, 1920, 1080}, dpi, true});
    return s;
}

sim::App& add_app(Scenario& s, ProcessId pid, TimeMs latency_min_ms, TimeMs latency_max_ms) {
    sim::App a;
    a.pid = pid;
    a.name = "app" + std::to_string(pid);
    a.latency_ms_min = latency_min_ms;
    a.latency_ms_max = latency_max_ms;
    s.apps.push_back(a);
    return s.apps.back();
}

sim::Window& add_window(Scenario& s, WindowId id, ProcessId pid, Rect bounds, Framework fw = Framework::Win32,
                        DpiAwareness awareness = DpiAwareness::PerMonitor) {
    sim::Window w;
    w.id = id;
    w.pid = pid;
    w.bounds = bounds;
    w.framework = fw;
    w.awareness = awareness;
    w.class_name = "Class" + std::to_string(id);
    w.title = "Window " + std::to_string(id);
    s.windows.push_back(w);
    return s.windows.back();
}


sim::Control& add_control(sim::Window& w, ElementId id, ControlKind kind, Rect bounds, bool own_handle = false,
                          ElementId parent = 0) {
    sim::Control c;
    c.id = id;
    c.parent = parent;
    c.kind = kind;
    c.role = std::string(sim::role_of(kind));
    c.name = "control " + std::to_string(id);
    c.own_handle = own_handle;
    c.bounds = bounds;
    w.controls.push_back(c);
    return w.controls.back();
}

// Window 1 (app 1, latency 100 ms): a classic edit 11 holding "x" with the caret at its end.
Scenario notepad() {
    Scenario s = one_monitor();
    add_app(s, 1, 100, 100);
    auto& w = add_window(s, 1, 1, Rect{100, 100, 700, 500});
    auto& e = add_control(w, 11, ControlKind::Edit, Rect{110, 140, 690, 200}, true);
    e.value = "x";
    e.selection = Selection{1, 0};
    s.foreground = 1;
    return s;
}

// notepad() plus window 2 (app 2, latency 50 ms) to its right, in the background.
Scenario with_second_window(Framework fw) {
    Scenario s = notepad();
    add_app(s, 2, 50, 50);
    add_window(s, 2, 2, Rect{800, 100, 1200, 500}, fw);
    return s;
}

Sim build(const Scenario& s) {
    const auto error = sim::validate(s);
    BOOST_REQUIRE_MESSAGE(!error.has_value(), "invalid scenario: " + (error ? error->path + ": " + error->reason : ""));
    return Sim(s);
}

Input input(DeliveryMethod method, WindowId w, std::optional<ElementId> e, std::int32_t step = 0) {
    Input in;
    in.method = method;
    in.window = w;
    in.element = e;
    in.step = step;
    return in;
}

Input typing(DeliveryMethod method, WindowId w, ElementId e, std::string text) {
    Input in = input(method, w, e);
    in.text = std::move(text);
    return in;
}

Input chord(WindowId w, ElementId e, std::string keys) {
    Input in = input(DeliveryMethod::PostedKeys, w, e);
    in.keys = std::move(keys);
    return in;
}

Input click_at(DeliveryMethod method, WindowId w, Point p) {
    Input in = input(method, w, std::nullopt);
    in.point = p;
    return in;
}

std::string shown(const std::optional<std::string>& v) { return v ? *v : "(unreadable)"; }
std::string shown(const std::optional<bool>& v) { return v ? (*v ? "true" : "false") : "(unreadable)"; }
std::string shown(const std::optional<ElementId>& v) { return v ? "e" + std::to_string(*v) : "(none)"; }
std::string shown(const std::optional<WindowId>& v, int) { return v ? "w" + std::to_string(*v) : "(none)"; }
std::string shown(const std::optional<Point>& p) {
    return p ? "(" + std::to_string(p->x) + "," + std::to_string(p->y) + ")" : "(none)";
}
std::string shown(const std::optional<Selection>& v) {
    return v ? std::to_string(v->start) + "," + std::to_string(v->length) : "(unreadable)";
}
std::string shown(const std::optional<std::vector<std::uint32_t>>& path) {
    if (!path) return "(none)";
    std::string s = "[";
    for (const auto i : *path) s += std::to_string(i) + ",";
    return s + "]";
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

// --- S-4: asynchronous updates ---

BOOST_AUTO_TEST_CASE(S4_read_before_latency_shows_old_value_after_it_the_new) {
    Sim desk = build(notepad());
    BOOST_TEST(to_string(desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "abc"))) == "delivered");
    BOOST_TEST(shown(desk.read_value(1, 11)) == "x");
    desk.wait_ms(99);
    BOOST_TEST(shown(desk.read_value(1, 11)) == "x");
    desk.wait_ms(1);
    BOOST_TEST(shown(desk.read_value(1, 11)) == "xabc");
    BOOST_TEST(desk.truth().count(EffectKind::ValueChanged) == 1u);
    BOOST_TEST(desk.truth().effects.front().at_ms == 100);
}

BOOST_AUTO_TEST_CASE(S4_latency_overrun_lands_beyond_the_declared_bound_and_is_marked) {
    Scenario s = notepad();
    s.faults.latency_overrun_permille = 1000;
    s.faults.latency_overrun_ms = 400;
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a"));
    desk.wait_ms(499);
    BOOST_TEST(shown(desk.true_value(11)) == "x");
    desk.wait_ms(1);
    BOOST_TEST(shown(desk.true_value(11)) == "xa");
    BOOST_TEST(desk.truth().delivered.back().overrun);
    BOOST_TEST(desk.truth().effects.front().overrun);
    BOOST_TEST(desk.latency_bound_ms(1) == 100);
}

BOOST_AUTO_TEST_CASE(S4_run_until_quiet_lands_every_pending_effect_and_stops) {
    Sim desk = build(notepad());
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a"));
    BOOST_TEST(desk.effects_pending());
    desk.run_until_quiet(10'000);
    BOOST_TEST(!desk.effects_pending());
    BOOST_TEST(desk.now_ms() == 100);
    BOOST_TEST(shown(desk.true_value(11)) == "xa");
}

BOOST_AUTO_TEST_CASE(S4_save_clears_dirty_and_leaves_the_text) {
    Scenario s = notepad();
    s.windows[0].dirty = true;
    s.windows[0].controls[0].value = "draft";
    s.windows[0].controls[0].selection = Selection{5, 0};
    Sim desk = build(s);
    desk.deliver(chord(1, 11, "ctrl+s"));
    BOOST_TEST(shown(desk.read_dirty(1)) == "true");
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.read_dirty(1)) == "false");
    BOOST_TEST(shown(desk.read_value(1, 11)) == "draft");
    BOOST_TEST(desk.truth().count(EffectKind::Saved) == 1u);
    BOOST_TEST(desk.truth().count(EffectKind::ValueChanged) == 0u);
}

BOOST_AUTO_TEST_CASE(S4_typing_sets_dirty_and_ctrl_z_restores_the_value_before_it) {
    Sim desk = build(notepad());
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "yz"));
    desk.wait_ms(100);
    BOOST_TEST(desk.true_dirty(1));
    BOOST_TEST(shown(desk.true_value(11)) == "xyz");
    desk.deliver(chord(1, 11, "ctrl+z"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.true_value(11)) == "x");
    BOOST_TEST(shown(desk.true_selection(11)) == "1,0");
}

BOOST_AUTO_TEST_CASE(S4_ctrl_a_selects_all_and_typing_replaces_the_selection) {
    Scenario s = notepad();
    s.windows[0].controls[0].value = "old text";
    s.windows[0].controls[0].selection = Selection{0, 0};
    Sim desk = build(s);
    desk.deliver(chord(1, 11, "ctrl+a"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.true_selection(11)) == "0,8");
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "new"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.true_value(11)) == "new");
    BOOST_TEST(shown(desk.true_selection(11)) == "3,0");
}

BOOST_AUTO_TEST_CASE(S4_tab_in_typed_text_moves_focus_to_the_next_control) {
    Scenario s = notepad();
    s.windows[0].controls[0].value = "";
    s.windows[0].controls[0].selection = Selection{0, 0};
    add_control(s.windows[0], 12, ControlKind::Edit, Rect{110, 210, 690, 260}, true);
    Sim desk = build(s);
    BOOST_TEST(shown(desk.focused_element(1)) == "e11");
    desk.deliver(typing(DeliveryMethod::PostedKeys, 1, 11, "ab\tcd"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.focused_element(1)) == "e12");
    BOOST_TEST(shown(desk.true_value(11)) == "ab");
    BOOST_TEST(shown(desk.true_value(12)) == "cd");
}

BOOST_AUTO_TEST_CASE(S4_tab_key_moves_focus_and_wraps_around) {
    Scenario s = notepad();
    add_control(s.windows[0], 12, ControlKind::Toggle, Rect{110, 210, 300, 240});
    add_control(s.windows[0], 13, ControlKind::Feed, Rect{110, 250, 300, 280});  // not focusable
    Sim desk = build(s);
    desk.deliver(chord(1, 11, "tab"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.true_focus(1)) == "e12");
    desk.deliver(chord(1, 12, "tab"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.true_focus(1)) == "e11");
}

BOOST_AUTO_TEST_CASE(S4_enter_in_a_form_submits_it_once) {
    Scenario s = notepad();
    s.windows[0].form = true;
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::PostedKeys, 1, 11, "hi\n"));
    desk.run_until_quiet(1000);
    BOOST_TEST(desk.truth().count(EffectKind::FormSubmitted) == 1u);
    BOOST_TEST(desk.truth().count(EffectKind::FormSubmitted, 0) == 1u);
    BOOST_TEST(shown(desk.true_value(11)) == "xhi");
    Sim no_form = build(notepad());  // the same keys outside a form submit nothing
    no_form.deliver(typing(DeliveryMethod::PostedKeys, 1, 11, "hi\n"));
    no_form.run_until_quiet(1000);
    BOOST_TEST(no_form.truth().count(EffectKind::FormSubmitted) == 0u);
}

BOOST_AUTO_TEST_CASE(S4_enter_in_a_multiline_edit_inserts_crlf_and_submits_nothing) {
    Scenario s = notepad();
    s.windows[0].form = true;
    s.windows[0].controls[0].multiline = true;
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a\r\nb"));
    desk.run_until_quiet(1000);
    BOOST_TEST(shown(desk.true_value(11)) == "xa\r\nb");
    BOOST_TEST(desk.truth().count(EffectKind::FormSubmitted) == 0u);
}

BOOST_AUTO_TEST_CASE(S4_posted_comment_counts_once_and_shows_in_the_feed_after_feed_latency) {
    Scenario s = one_monitor();
    add_app(s, 1, 50, 50).feed_latency_ms = 200;
    auto& w = add_window(s, 1, 1, Rect{100, 100, 700, 500});
    add_control(w, 32, ControlKind::Feed, Rect{110, 110, 690, 300});
    auto& post = add_control(w, 31, ControlKind::PostButton, Rect{110, 310, 300, 350});
    post.feed = 32;
    post.comment = "hello";
    s.foreground = 1;
    Sim desk = build(s);
    desk.deliver(input(DeliveryMethod::UiaInvoke, 1, 31));
    desk.wait_ms(50);
    BOOST_TEST(desk.truth().count(EffectKind::CommentPosted) == 1u);
    BOOST_TEST(shown(desk.read_value(1, 32)) == "");
    desk.wait_ms(199);
    BOOST_TEST(shown(desk.read_value(1, 32)) == "");
    desk.wait_ms(1);
    BOOST_TEST(shown(desk.read_value(1, 32)) == "hello\n");
    BOOST_TEST(desk.truth().count(EffectKind::CommentShown) == 1u);
    BOOST_TEST(desk.truth().count(EffectKind::CommentPosted) == 1u);
}

BOOST_AUTO_TEST_CASE(S4_selecting_a_list_item_deselects_its_siblings) {
    Scenario s = notepad();
    add_control(s.windows[0], 20, ControlKind::Group, Rect{110, 210, 690, 400});
    add_control(s.windows[0], 21, ControlKind::ListItem, Rect{120, 220, 680, 250}, false, 20).selected = true;
    add_control(s.windows[0], 22, ControlKind::ListItem, Rect{120, 260, 680, 290}, false, 20);
    Sim desk = build(s);
    desk.deliver(input(DeliveryMethod::UiaSelect, 1, 22));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.read_selected(1, 22)) == "true");
    BOOST_TEST(shown(desk.read_selected(1, 21)) == "false");
}

BOOST_AUTO_TEST_CASE(S4_tree_reorder_changes_the_path_but_keeps_the_id) {
    Scenario s = notepad();
    add_control(s.windows[0], 20, ControlKind::Group, Rect{110, 210, 690, 400});
    add_control(s.windows[0], 21, ControlKind::Edit, Rect{120, 220, 680, 250}, true, 20);
    add_control(s.windows[0], 22, ControlKind::Edit, Rect{120, 260, 680, 290}, true, 20).value = "moved";
    s.events.push_back(sim::Event{10, EventKind::TreeReorders, "", {}, no_window, 22, 0, 0});
    Sim desk = build(s);
    BOOST_TEST(shown(desk.true_path(22)) == "[1,1,]");
    desk.wait_ms(10);
    BOOST_TEST(shown(desk.true_path(22)) == "[0,]");
    BOOST_TEST(shown(desk.true_path(11)) == "[1,]");
    const ElementTree tree = *desk.element_tree(1);
    BOOST_TEST(tree.nodes.size() == 5u);
    BOOST_TEST(tree.nodes[tree.nodes[0].children.at(0)].id == 22u);
    BOOST_TEST(shown(desk.read_value(1, 22)) == "moved");
}

BOOST_AUTO_TEST_CASE(S4_removed_control_leaves_the_tree_and_reads_nothing) {
    Scenario s = notepad();
    add_control(s.windows[0], 20, ControlKind::Group, Rect{110, 210, 690, 400});
    add_control(s.windows[0], 21, ControlKind::Edit, Rect{120, 220, 680, 250}, true, 20);
    s.events.push_back(sim::Event{5, EventKind::ControlRemoved, "", {}, no_window, 20, 0, 0});
    Sim desk = build(s);
    BOOST_TEST(desk.element_tree(1)->nodes.size() == 4u);
    desk.wait_ms(5);
    BOOST_TEST(desk.element_tree(1)->nodes.size() == 2u);
    BOOST_TEST(shown(desk.read_value(1, 21)) == "(unreadable)");
    BOOST_TEST(to_string(desk.deliver(typing(DeliveryMethod::EditMessage, 1, 21, "a"))) == "rejected");
}

BOOST_AUTO_TEST_CASE(S4_popup_opens_on_top_and_takes_the_foreground_from_its_owner) {
    Scenario s = notepad();
    add_window(s, 5, 1, Rect{200, 200, 400, 300}).owner = 1;
    s.hidden.push_back(5);
    s.events.push_back(sim::Event{20, EventKind::PopupOpens, "", {}, 5, 0, 0, 0});
    Sim desk = build(s);
    BOOST_TEST(desk.top_level_windows().size() == 1u);
    desk.wait_ms(20);
    BOOST_TEST(desk.top_level_windows().front().id == 5u);
    BOOST_TEST(desk.foreground() == 5u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::App));
}

// --- S-2: windows, monitors, DPI; E-6 ---

BOOST_AUTO_TEST_CASE(E6_unaware_window_on_a_144_dpi_monitor_maps_points_both_ways_exactly) {
    Scenario s = one_monitor(144);
    add_app(s, 1, 0, 0);
    add_window(s, 1, 1, Rect{30, 60, 930, 660}, Framework::Win32, DpiAwareness::Unaware);
    Sim desk = build(s);
    const WindowInfo info = desk.window(1).value();
    BOOST_TEST(info.window_dpi == 96u);
    BOOST_TEST(info.monitor_dpi == 144u);
    const Point client = sim::to_client(Point{420, 270}, Point{30, 60}, info.window_dpi, info.monitor_dpi);
    BOOST_TEST(shown(std::optional(client)) == "(260,140)");
    const Point back = sim::to_screen(client, Point{30, 60}, info.window_dpi, info.monitor_dpi);
    BOOST_TEST(shown(std::optional(back)) == "(420,270)");
}

BOOST_AUTO_TEST_CASE(E6_posted_click_lands_at_the_physical_point_of_its_client_point) {
    Scenario s = one_monitor(144);
    add_app(s, 1, 0, 0);
    auto& w = add_window(s, 1, 1, Rect{30, 60, 930, 660}, Framework::Win32, DpiAwareness::Unaware);
    add_control(w, 21, ControlKind::Toggle, Rect{300, 200, 500, 300});
    s.foreground = 1;
    Sim desk = build(s);
    desk.deliver(click_at(DeliveryMethod::PostedClick, 1, Point{260, 140}));  // logical, as E-6 demands
    desk.deliver(click_at(DeliveryMethod::PostedClick, 1, Point{390, 210}));  // physical offset: wrong
    desk.run_until_quiet(100);
    const auto& d = desk.truth().delivered;
    BOOST_TEST(shown(d.at(0).landed) == "(420,270)");
    BOOST_TEST(shown(d.at(0).hit_element) == "e21");
    BOOST_TEST(shown(d.at(1).landed) == "(615,375)");
    BOOST_TEST(shown(d.at(1).hit_element) == "(none)");
    BOOST_TEST(desk.truth().count(EffectKind::Toggled) == 1u);
}

BOOST_AUTO_TEST_CASE(S2_window_dpi_follows_awareness_and_the_monitor_of_the_top_left) {
    Scenario s = one_monitor(120);
    s.monitors.push_back(sim::Monitor{2, Rect{1920, 0, 3840, 1080}, 192, false});
    add_app(s, 1, 0, 0);
    add_window(s, 1, 1, Rect{2000, 100, 2400, 400}, Framework::Win32, DpiAwareness::System);
    add_window(s, 2, 1, Rect{2000, 500, 2400, 800}, Framework::Win32, DpiAwareness::PerMonitor);
    add_window(s, 3, 1, Rect{100, 100, 400, 400}, Framework::Win32, DpiAwareness::Unaware);
    Sim desk = build(s);
    BOOST_TEST(desk.window(1)->window_dpi == 120u);
    BOOST_TEST(desk.window(1)->monitor_dpi == 192u);
    BOOST_TEST(desk.window(2)->window_dpi == 192u);
    BOOST_TEST(desk.window(3)->window_dpi == 96u);
    BOOST_TEST(desk.window(3)->monitor_dpi == 120u);
}

BOOST_AUTO_TEST_CASE(E5_a_point_hits_the_deepest_control_containing_it) {
    Scenario s = notepad();
    add_control(s.windows[0], 20, ControlKind::Group, Rect{110, 210, 690, 400});
    add_control(s.windows[0], 21, ControlKind::Toggle, Rect{120, 220, 300, 250}, false, 20);
    add_control(s.windows[0], 22, ControlKind::Button, Rect{110, 210, 690, 400});  // as large as the group
    Sim desk = build(s);
    desk.deliver(click_at(DeliveryMethod::RealInput, 1, Point{130, 230}));
    desk.deliver(click_at(DeliveryMethod::RealInput, 1, Point{500, 300}));
    desk.run_until_quiet(1000);
    BOOST_TEST(shown(desk.truth().delivered.at(0).hit_element) == "e21");
    BOOST_TEST(shown(desk.truth().delivered.at(1).hit_element) == "e22");  // same depth: the last listed
}

BOOST_AUTO_TEST_CASE(S2_electron_tree_is_opaque_but_its_controls_take_coordinate_clicks) {
    Scenario s = one_monitor();
    add_app(s, 1, 0, 0);
    auto& w = add_window(s, 1, 1, Rect{0, 0, 800, 600}, Framework::Electron);
    add_control(w, 21, ControlKind::Toggle, Rect{100, 100, 200, 150});
    s.foreground = 1;
    Sim desk = build(s);
    BOOST_TEST(desk.element_tree(1)->nodes.size() == 1u);
    BOOST_TEST(to_string(desk.deliver(input(DeliveryMethod::UiaToggle, 1, 21))) == "rejected");
    desk.deliver(click_at(DeliveryMethod::RealInput, 1, Point{150, 120}));
    desk.run_until_quiet(10);
    BOOST_TEST(shown(desk.true_toggled(21)) == "true");
}

// --- S-7 and E-5: occlusion, faults ---

BOOST_AUTO_TEST_CASE(S7_occluded_point_hit_tests_to_the_occluder) {
    Scenario s = notepad();
    add_control(s.windows[0], 12, ControlKind::Button, Rect{110, 210, 300, 260}, true);
    add_app(s, 9, 0, 0);
    add_window(s, 9, 9, Rect{150, 200, 400, 300});
    s.hidden.push_back(9);
    s.events.push_back(sim::Event{50, EventKind::OccluderAppears, "", {}, 9, 0, 0, 0});
    Sim desk = build(s);
    BOOST_TEST(shown(desk.window_at(Point{200, 230}), 0) == "w1");
    desk.wait_ms(50);
    BOOST_TEST(shown(desk.window_at(Point{200, 230}), 0) == "w9");
    BOOST_TEST(desk.foreground() == 1u);  // an occluder does not take the foreground
    desk.deliver(click_at(DeliveryMethod::RealInput, 1, Point{200, 230}));
    desk.run_until_quiet(1000);
    BOOST_TEST(desk.truth().delivered.back().hit_window == 9u);
    BOOST_TEST(desk.truth().count(EffectKind::ButtonClicked) == 0u);
}

BOOST_AUTO_TEST_CASE(E5_real_click_beside_the_occluder_hits_the_button_and_moves_the_cursor) {
    Scenario s = notepad();
    add_control(s.windows[0], 12, ControlKind::Button, Rect{110, 210, 300, 260}, true);
    add_app(s, 9, 0, 0);
    add_window(s, 9, 9, Rect{150, 200, 400, 300});
    s.hidden.push_back(9);
    s.events.push_back(sim::Event{0, EventKind::OccluderAppears, "", {}, 9, 0, 0, 0});
    Sim desk = build(s);
    desk.deliver(click_at(DeliveryMethod::RealInput, 1, Point{120, 230}));
    desk.run_until_quiet(1000);
    BOOST_TEST(shown(desk.truth().delivered.back().hit_element) == "e12");
    BOOST_TEST(desk.truth().count(EffectKind::ButtonClicked) == 1u);
    BOOST_TEST(shown(std::optional(desk.cursor())) == "(120,230)");
    BOOST_TEST((desk.truth().cursor_moves.back().by == sim::Actor::Tool));
}

BOOST_AUTO_TEST_CASE(S7_refused_foreground_request_is_granted_after_an_f24_real_key) {
    Scenario s = with_second_window(Framework::Win32);
    s.faults.foreground_refusal_permille = 1000;
    Sim desk = build(s);
    BOOST_TEST((desk.request_foreground(2) == ForegroundAnswer::Refused));
    BOOST_TEST(desk.foreground() == 1u);
    Input f24 = input(DeliveryMethod::RealInput, no_window, std::nullopt);
    f24.keys = "F24";
    BOOST_TEST(to_string(desk.deliver(f24)) == "delivered");
    BOOST_TEST((desk.request_foreground(2) == ForegroundAnswer::Granted));
    BOOST_TEST(desk.foreground() == 2u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::Tool));
    BOOST_TEST((desk.request_foreground(1) == ForegroundAnswer::Refused));  // the F24 was used up
}

BOOST_AUTO_TEST_CASE(S7_stale_read_returns_the_value_before_the_latest_update) {
    Scenario s = notepad();
    s.faults.stale_read_permille = 1000;
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "abc"));
    desk.wait_ms(100);
    BOOST_TEST(shown(desk.true_value(11)) == "xabc");
    BOOST_TEST(shown(desk.read_value(1, 11)) == "x");
    BOOST_TEST((desk.truth().reads.back().fault == sim::ReadFault::Stale));
    BOOST_TEST(contains(to_text(desk.trace()), "value -> \"x\" [stale]"));
}

BOOST_AUTO_TEST_CASE(S7_failed_read_is_unreadable_and_recorded_as_failed) {
    Scenario s = notepad();
    s.faults.read_failure_permille = 1000;
    Sim desk = build(s);
    BOOST_TEST(shown(desk.read_value(1, 11)) == "(unreadable)");
    BOOST_TEST(shown(desk.read_dirty(1)) == "(unreadable)");
    BOOST_TEST((desk.truth().reads.front().fault == sim::ReadFault::Failed));
}

BOOST_AUTO_TEST_CASE(S7_delivery_exception_throws_and_nothing_happens) {
    Scenario s = notepad();
    s.faults.delivery_exception_permille = 1000;
    Sim desk = build(s);
    BOOST_CHECK_THROW(desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a")), DesktopException);
    desk.run_until_quiet(1000);
    BOOST_TEST(shown(desk.true_value(11)) == "x");
    BOOST_TEST(desk.truth().count(sim::AttemptOutcome::Threw) == 1u);
    BOOST_TEST(desk.truth().delivered.empty());
}

BOOST_AUTO_TEST_CASE(S7_delivery_error_returns_failed_and_nothing_happens) {
    Scenario s = notepad();
    s.faults.delivery_error_permille = 1000;
    Sim desk = build(s);
    BOOST_TEST(to_string(desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a"))) == "failed");
    desk.run_until_quiet(1000);
    BOOST_TEST(shown(desk.true_value(11)) == "x");
    BOOST_TEST(desk.truth().count(sim::AttemptOutcome::Failed) == 1u);
    BOOST_TEST(desk.truth().effects.empty());
}

// --- S-3: controls and readability ---

BOOST_AUTO_TEST_CASE(S3_intermittent_control_is_unreadable_on_some_reads_deterministically) {
    Scenario s = notepad();
    s.windows[0].controls[0].readability = sim::Readability::Intermittent;
    s.windows[0].controls[0].intermittent_permille = 500;
    constexpr int reads = 40;
    const auto pattern = [&](std::uint64_t seed) {
        s.seed = seed;
        Sim desk = build(s);
        std::string p;
        for (int i = 0; i < reads; ++i) p += desk.read_value(1, 11) ? 'R' : 'U';
        return p;
    };
    const std::string first = pattern(11);
    const auto unreadable = std::count(first.begin(), first.end(), 'U');
    BOOST_TEST(unreadable > 0);
    BOOST_TEST(unreadable < reads);
    BOOST_TEST(pattern(11) == first);
    BOOST_TEST(pattern(12) != first);
}

BOOST_AUTO_TEST_CASE(S3_unreadable_control_never_yields_an_empty_string) {
    Scenario s = notepad();
    s.windows[0].controls[0].readability = sim::Readability::Unreadable;
    s.windows[0].controls[0].value = "";
    s.windows[0].controls[0].selection = Selection{0, 0};
    add_control(s.windows[0], 12, ControlKind::Edit, Rect{110, 210, 690, 260}, true);  // readable, ""
    Sim desk = build(s);
    for (int i = 0; i < 20; ++i) BOOST_TEST(!desk.read_value(1, 11).has_value());
    BOOST_TEST(!desk.read_selection(1, 11).has_value());
    BOOST_TEST(shown(desk.read_value(1, 12)) == "");
    BOOST_TEST(desk.read_value(1, 12).has_value());
    BOOST_TEST(contains(to_text(desk.trace()), "w1/e11 value -> (unreadable) [unreadable]"));
}

BOOST_AUTO_TEST_CASE(S3_reading_a_field_the_control_kind_lacks_is_nullopt) {
    Scenario s = notepad();
    add_control(s.windows[0], 12, ControlKind::Toggle, Rect{110, 210, 300, 240}).toggled = true;
    Sim desk = build(s);
    BOOST_TEST(shown(desk.read_toggled(1, 12)) == "true");
    BOOST_TEST(shown(desk.read_value(1, 12)) == "(unreadable)");
    BOOST_TEST(shown(desk.read_toggled(1, 11)) == "(unreadable)");
    BOOST_TEST(shown(desk.read_expanded(1, 12)) == "(unreadable)");
}

// --- E-4, F-7: delivery by method ---

BOOST_AUTO_TEST_CASE(E4_classic_button_clicks_on_click_message_not_on_an_inactive_posted_click) {
    Scenario s = with_second_window(Framework::Win32);
    add_control(s.windows[1], 22, ControlKind::Button, Rect{820, 150, 1000, 200}, true);
    Sim desk = build(s);
    desk.deliver(click_at(DeliveryMethod::PostedClick, 2, Point{50, 70}));
    Input by_message = input(DeliveryMethod::ClickMessage, 2, 22, 1);
    desk.deliver(by_message);
    desk.run_until_quiet(1000);
    BOOST_TEST(!desk.truth().delivered.at(0).accepted);
    BOOST_TEST(desk.truth().delivered.at(1).accepted);
    BOOST_TEST(desk.truth().count(EffectKind::ButtonClicked, 0) == 0u);
    BOOST_TEST(desk.truth().count(EffectKind::ButtonClicked, 1) == 1u);
}

// Seed 003 §4: in an inactive window an edit answers its select-all, clipboard and undo chords only
// as the edit messages they stand for; a posted chord is ignored there, and taken when in front.
BOOST_AUTO_TEST_CASE(E4_inactive_classic_edit_takes_ctrl_a_as_an_edit_message_not_as_posted_keys) {
    Scenario s = with_second_window(Framework::Win32);
    auto& e = add_control(s.windows[1], 22, ControlKind::Edit, Rect{820, 150, 1000, 200}, true);
    e.value = "abc";
    Sim desk = build(s);
    desk.deliver(chord(2, 22, "Ctrl+A"));
    Input by_message = chord(2, 22, "ctrl+a");
    by_message.method = DeliveryMethod::EditMessage;
    by_message.step = 1;
    desk.deliver(by_message);
    desk.deliver(chord(1, 11, "ctrl+a"));  // window 1 is in front: the posted chord is taken
    desk.deliver(chord(2, 22, "home"));    // not one of those chords: posted keys do
    desk.run_until_quiet(1000);
    BOOST_TEST(!desk.truth().delivered.at(0).accepted);
    BOOST_TEST(desk.truth().delivered.at(0).ignored_reason.find("only as an edit message") != std::string::npos);
    BOOST_TEST(desk.truth().delivered.at(1).accepted);
    BOOST_TEST(desk.truth().delivered.at(2).accepted);
    BOOST_TEST(desk.truth().delivered.at(3).accepted);
}

BOOST_AUTO_TEST_CASE(F7_wpf_window_ignores_a_posted_click_while_inactive) {
    Scenario s = with_second_window(Framework::Wpf);
    add_control(s.windows[1], 21, ControlKind::Toggle, Rect{820, 150, 1000, 200});
    Sim desk = build(s);
    BOOST_TEST(to_string(desk.deliver(click_at(DeliveryMethod::PostedClick, 2, Point{50, 70}))) == "delivered");
    desk.run_until_quiet(1000);
    BOOST_TEST(!desk.truth().delivered.back().accepted);
    BOOST_TEST(shown(desk.true_toggled(21)) == "false");
}

BOOST_AUTO_TEST_CASE(F7_wpf_window_accepts_a_posted_click_when_foreground) {
    Scenario s = with_second_window(Framework::Wpf);
    add_control(s.windows[1], 21, ControlKind::Toggle, Rect{820, 150, 1000, 200});
    s.foreground = 2;
    Sim desk = build(s);
    desk.deliver(click_at(DeliveryMethod::PostedClick, 2, Point{50, 70}));
    desk.run_until_quiet(1000);
    BOOST_TEST(desk.truth().delivered.back().accepted);
    BOOST_TEST(shown(desk.true_toggled(21)) == "true");
}

BOOST_AUTO_TEST_CASE(F7_wpf_window_ignores_posted_keys_while_inactive) {
    Scenario s = with_second_window(Framework::Wpf);
    add_control(s.windows[1], 21, ControlKind::Edit, Rect{820, 150, 1000, 200});
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::PostedKeys, 2, 21, "a"));
    desk.run_until_quiet(1000);
    BOOST_TEST(!desk.truth().delivered.back().accepted);
    BOOST_TEST(shown(desk.true_value(21)) == "");
}

BOOST_AUTO_TEST_CASE(F7_wpf_uia_invoke_pulls_the_window_to_the_front_by_app) {
    Scenario s = with_second_window(Framework::Wpf);
    add_control(s.windows[1], 22, ControlKind::Button, Rect{820, 150, 1000, 200});
    Sim desk = build(s);
    desk.deliver(input(DeliveryMethod::UiaInvoke, 2, 22));
    BOOST_TEST(desk.foreground() == 1u);
    desk.wait_ms(50);
    BOOST_TEST(desk.foreground() == 2u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::App));
    BOOST_TEST(desk.truth().count(EffectKind::ButtonClicked) == 1u);
}

BOOST_AUTO_TEST_CASE(E4_uia_pattern_missing_on_the_control_is_rejected) {
    Scenario s = notepad();
    Sim desk = build(s);
    BOOST_TEST(to_string(desk.deliver(input(DeliveryMethod::UiaToggle, 1, 11))) == "rejected");
    BOOST_TEST(desk.truth().count(sim::AttemptOutcome::Rejected) == 1u);
    BOOST_TEST(desk.truth().delivered.empty());
}

BOOST_AUTO_TEST_CASE(E4_real_input_keys_go_to_the_foreground_focus_whatever_window_is_named) {
    Scenario s = with_second_window(Framework::Win32);
    add_control(s.windows[1], 21, ControlKind::Edit, Rect{820, 150, 1000, 200}, true);
    Sim desk = build(s);
    Input in = typing(DeliveryMethod::RealInput, 2, 21, "k");
    desk.deliver(in);
    desk.run_until_quiet(1000);
    BOOST_TEST(desk.truth().delivered.back().hit_window == 1u);
    BOOST_TEST(shown(desk.true_value(11)) == "xk");
    BOOST_TEST(shown(desk.true_value(21)) == "");
}

// --- F-3, F-8: the apps take the foreground ---

BOOST_AUTO_TEST_CASE(F3_app_steals_the_foreground_after_a_background_input) {
    Scenario s = with_second_window(Framework::Win32);
    s.apps[1].steals_foreground_after_ms = 300;
    add_control(s.windows[1], 21, ControlKind::Edit, Rect{820, 150, 1000, 200}, true);
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::EditMessage, 2, 21, "a"));
    desk.wait_ms(299);
    BOOST_TEST(desk.foreground() == 1u);
    desk.wait_ms(1);
    BOOST_TEST(desk.foreground() == 2u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::App));
}

BOOST_AUTO_TEST_CASE(F3_input_to_the_foreground_window_triggers_no_steal) {
    Scenario s = with_second_window(Framework::Win32);
    s.apps[1].steals_foreground_after_ms = 300;
    s.foreground = 2;
    add_control(s.windows[1], 21, ControlKind::Edit, Rect{820, 150, 1000, 200}, true);
    Sim desk = build(s);
    desk.deliver(typing(DeliveryMethod::EditMessage, 2, 21, "a"));
    BOOST_TEST((desk.request_foreground(1) == ForegroundAnswer::Granted));
    desk.run_until_quiet(1000);
    BOOST_TEST(desk.foreground() == 1u);
    BOOST_TEST(desk.truth().count_foreground_changes_by(sim::Actor::App) == 0u);
}

BOOST_AUTO_TEST_CASE(F8_launch_shows_the_window_on_top_without_activating_it) {
    Scenario s = notepad();
    auto& calc = add_app(s, 3, 0, 0);
    calc.name = "calc";
    calc.launchable = true;
    add_window(s, 3, 3, Rect{300, 300, 600, 600});
    s.hidden.push_back(3);
    Sim desk = build(s);
    BOOST_TEST(desk.top_level_windows().size() == 1u);
    BOOST_TEST(desk.launch("calc").value_or(0) == 3u);
    BOOST_TEST(desk.top_level_windows().front().id == 3u);
    BOOST_TEST(desk.foreground() == 1u);
    BOOST_TEST(desk.truth().foreground_changes.empty());
    BOOST_TEST(!desk.launch("nope").has_value());
}

BOOST_AUTO_TEST_CASE(F8_launch_takes_the_foreground_when_the_app_does_by_app) {
    Scenario s = notepad();
    auto& calc = add_app(s, 3, 0, 0);
    calc.name = "calc";
    calc.launchable = true;
    calc.launch_takes_foreground = true;
    add_window(s, 3, 3, Rect{300, 300, 600, 600});
    s.hidden.push_back(3);
    Sim desk = build(s);
    desk.launch("calc");
    BOOST_TEST(desk.foreground() == 3u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::App));
}

// --- S-5: the user and other windows ---

BOOST_AUTO_TEST_CASE(S5_user_types_into_the_foreground_focus_as_no_step) {
    Scenario s = notepad();
    s.events.push_back(sim::Event{200, EventKind::UserTypes, "zz", {}, no_window, 0, 0, 0});
    Sim desk = build(s);
    BOOST_TEST(desk.last_input_ms() == -10'000);
    desk.wait_ms(300);
    BOOST_TEST(desk.last_input_ms() == 200);
    BOOST_TEST(shown(desk.true_value(11)) == "xzz");
    BOOST_TEST(desk.truth().effects.front().step == sim::no_step);
    BOOST_TEST((desk.truth().effects.front().by == sim::Actor::User));
}

BOOST_AUTO_TEST_CASE(S5_user_click_brings_its_window_to_the_front_by_user) {
    Scenario s = with_second_window(Framework::Win32);
    s.events.push_back(sim::Event{10, EventKind::UserClicks, "", Point{900, 300}, no_window, 0, 0, 0});
    Sim desk = build(s);
    desk.wait_ms(10);
    BOOST_TEST(desk.foreground() == 2u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::User));
}

BOOST_AUTO_TEST_CASE(S5_window_to_front_changes_the_foreground_by_another_window) {
    Scenario s = with_second_window(Framework::Win32);
    s.events.push_back(sim::Event{10, EventKind::WindowToFront, "", {}, 2, 0, 0, 0});
    Sim desk = build(s);
    desk.wait_ms(9);
    BOOST_TEST(desk.foreground() == 1u);
    desk.wait_ms(1);
    BOOST_TEST(desk.foreground() == 2u);
    BOOST_TEST((desk.truth().foreground_changes.back().by == sim::Actor::AnotherWindow));
}

BOOST_AUTO_TEST_CASE(S5_last_input_is_the_latest_of_the_user_and_the_tool_real_input) {
    Scenario s = notepad();
    s.user_last_input_ms = -500;
    Sim desk = build(s);
    desk.wait_ms(40);
    Input key = input(DeliveryMethod::RealInput, no_window, std::nullopt);
    key.keys = "F24";
    desk.deliver(key);
    BOOST_TEST(desk.last_input_ms() == 40);
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a"));  // not real input
    desk.wait_ms(100);
    BOOST_TEST(desk.last_input_ms() == 40);
}

// --- S-6: ground truth ---

BOOST_AUTO_TEST_CASE(S6_ground_truth_tracks_attempted_delivered_and_observed_separately) {
    Scenario s = with_second_window(Framework::Wpf);
    add_control(s.windows[1], 21, ControlKind::Toggle, Rect{820, 150, 1000, 200});
    Sim desk = build(s);
    desk.deliver(input(DeliveryMethod::UiaToggle, 1, 11));                           // rejected
    desk.deliver(click_at(DeliveryMethod::PostedClick, 2, Point{50, 70}));           // ignored
    desk.deliver(typing(DeliveryMethod::EditMessage, 1, 11, "a"));                    // accepted
    desk.run_until_quiet(1000);
    BOOST_TEST(desk.truth().attempts.size() == 3u);
    BOOST_TEST(desk.truth().delivered.size() == 2u);
    BOOST_TEST(desk.truth().count_accepted() == 1u);
    BOOST_TEST(desk.truth().count(EffectKind::ValueChanged) == 1u);
}

// --- S-2 validation ---

BOOST_AUTO_TEST_CASE(S2_validate_accepts_a_scenario_and_names_a_parent_cycle_by_path) {
    Scenario s = notepad();
    add_control(s.windows[0], 20, ControlKind::Group, Rect{110, 210, 690, 400}, false, 21);
    add_control(s.windows[0], 21, ControlKind::Group, Rect{110, 210, 690, 400}, false, 20);
    BOOST_TEST(!sim::validate(notepad()).has_value());
    const auto error = sim::validate(s);
    BOOST_TEST(error.value_or(sim::ValidationError{}).path == "/windows/0/controls/1/parent");
    BOOST_TEST(error.value_or(sim::ValidationError{}).reason == "parent chain has a cycle");
}

BOOST_AUTO_TEST_CASE(S2_validate_rejects_a_control_id_used_in_two_windows) {
    Scenario s = with_second_window(Framework::Win32);
    add_control(s.windows[1], 11, ControlKind::Edit, Rect{820, 150, 1000, 200});
    const auto error = sim::validate(s);
    BOOST_TEST(error.value_or(sim::ValidationError{}).path == "/windows/1/controls/0/id");
    BOOST_TEST(error.value_or(sim::ValidationError{}).reason == "duplicate control id");
}

BOOST_AUTO_TEST_CASE(S2_validate_rejects_a_hidden_foreground_and_a_bad_dpi) {
    Scenario hidden = notepad();
    hidden.hidden.push_back(1);
    BOOST_TEST(sim::validate(hidden).value_or(sim::ValidationError{}).path == "/foreground");
    Scenario dpi = notepad();
    dpi.monitors[0].dpi = 300;
    BOOST_TEST(sim::validate(dpi).value_or(sim::ValidationError{}).path == "/monitors/0/dpi");
}

BOOST_AUTO_TEST_CASE(S7_validate_rejects_permille_over_1000_and_latency_min_over_max) {
    Scenario permille = notepad();
    permille.faults.stale_read_permille = 1001;
    BOOST_TEST(sim::validate(permille).value_or(sim::ValidationError{}).path == "/faults/stale_read_permille");
    Scenario latency = notepad();
    latency.apps[0].latency_ms_min = 200;
    BOOST_TEST(sim::validate(latency).value_or(sim::ValidationError{}).path == "/apps/0/latency_ms_min");
}

BOOST_AUTO_TEST_CASE(S2_validate_rejects_a_step_depending_on_itself_and_an_empty_rect) {
    Scenario step = notepad();
    sim::Step st;
    st.window = 1;
    st.control = 11;
    st.depends_on = 0;
    step.steps.push_back(st);
    BOOST_TEST(sim::validate(step).value_or(sim::ValidationError{}).path == "/steps/0/depends_on");
    Scenario rect = notepad();
    rect.windows[0].controls[0].bounds.right = rect.windows[0].controls[0].bounds.left;
    BOOST_TEST(sim::validate(rect).value_or(sim::ValidationError{}).path == "/windows/0/controls/0/bounds");
}

// --- S-1: determinism ---

namespace {

// Drives a desk through a fixed script touching every kind of call; returns the trace text + json.
std::string scripted_run(const Scenario& s) {
    Sim desk(s);
    const auto attempt = [&](const Input& in) {
        try {
            desk.deliver(in);
        } catch (const DesktopException&) {
        }
    };
    attempt(typing(DeliveryMethod::EditMessage, 1, 11, "ab\tc"));
    desk.read_value(1, 11);
    desk.wait_ms(60);
    desk.request_foreground(2);
    attempt(click_at(DeliveryMethod::PostedClick, 2, Point{50, 70}));
    attempt(input(DeliveryMethod::UiaToggle, 2, 21, 1));
    desk.read_toggled(2, 21);
    desk.wait_ms(150);
    attempt(click_at(DeliveryMethod::RealInput, 1, Point{900, 170}));
    desk.read_toggled(2, 21);
    desk.read_selection(1, 11);
    desk.wait_ms(400);
    desk.run_until_quiet(5000);
    return to_text(desk.trace()) + to_json(desk.trace()).dump();
}

Scenario hostile_scenario(std::uint64_t seed) {
    Scenario s = with_second_window(Framework::Wpf);
    s.seed = seed;
    s.apps[0].latency_ms_min = 10;
    s.apps[0].latency_ms_max = 300;
    s.apps[1].steals_foreground_after_ms = 100;
    add_control(s.windows[0], 12, ControlKind::Edit, Rect{110, 210, 690, 260}, true);
    add_control(s.windows[1], 21, ControlKind::Toggle, Rect{820, 150, 1000, 200}).readability =
        sim::Readability::Intermittent;
    s.faults = sim::FaultPlan{300, 300, 150, 100, 500, 300, 250};
    s.events.push_back(sim::Event{30, EventKind::UserTypes, "u", {}, no_window, 0, 0, 0});
    s.events.push_back(sim::Event{120, EventKind::UserClicks, "", Point{150, 170}, no_window, 0, 0, 0});
    s.events.push_back(sim::Event{200, EventKind::WindowToFront, "", {}, 2, 0, 0, 0});
    return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(S1_trace_text_is_one_readable_line_per_event) {
    Scenario s = notepad();
    s.windows[0].controls[0].readability = sim::Readability::Unreadable;
    add_control(s.windows[0], 12, ControlKind::Edit, Rect{110, 210, 690, 260}, true).value = "abc";
    Sim desk = build(s);
    desk.wait_ms(120);
    desk.read_value(1, 12);
    desk.read_value(1, 11);
    desk.trace().note(desk.now_ms(), "step 0 ends: Confirmed");
    const std::string text = to_text(desk.trace());
    BOOST_TEST(contains(text, "\nt=  120ms  read     w1/e12 value -> \"abc\"\n"));
    BOOST_TEST(contains(text, "\nt=  120ms  read     w1/e11 value -> (unreadable) [unreadable]\n"));
    BOOST_TEST(contains(text, "\nt=  120ms  note     step 0 ends: Confirmed\n"));
    BOOST_TEST(to_json(desk.trace())["events"].size() == desk.trace().events.size());
}

BOOST_AUTO_TEST_CASE(S1_same_scenario_run_twice_gives_a_byte_identical_trace) {
    const Scenario s = hostile_scenario(42);
    BOOST_REQUIRE(!sim::validate(s).has_value());
    const std::string first = scripted_run(s);
    BOOST_TEST(first == scripted_run(s));
    BOOST_TEST(first != scripted_run(hostile_scenario(43)));
    BOOST_TEST(contains(first, "event"));
}

namespace {

const sim::Control* control_of(const Scenario& s, ElementId id) {
    for (const auto& w : s.windows)
        for (const auto& c : w.controls)
            if (c.id == id) return &c;
    return nullptr;
}

// A plausible input for a step, as a simple agent without the model would send it.
Input input_for(const Scenario& s, const sim::Step& step, std::int32_t index) {
    Input in = input(DeliveryMethod::PostedKeys, step.window, step.control, index);
    const sim::Control* c = step.control ? control_of(s, *step.control) : nullptr;
    switch (step.kind) {
        case sim::StepKind::Type:
            in.method = (c != nullptr && c->own_handle) ? DeliveryMethod::EditMessage : DeliveryMethod::PostedKeys;
            in.text = step.text;
            break;
        case sim::StepKind::Hotkey: in.keys = step.keys; break;
        case sim::StepKind::Click:
            in.method = DeliveryMethod::UiaInvoke;
            if (c != nullptr && c->kind == ControlKind::Toggle) in.method = DeliveryMethod::UiaToggle;
            if (c != nullptr && c->kind == ControlKind::Expander) in.method = DeliveryMethod::UiaExpand;
            if (c != nullptr && c->kind == ControlKind::ListItem) in.method = DeliveryMethod::UiaSelect;
            if (c != nullptr && c->own_handle) in.method = DeliveryMethod::ClickMessage;
            break;
        case sim::StepKind::ClickAt:
            in.method = DeliveryMethod::RealInput;
            in.point = step.point;
            break;
        case sim::StepKind::Launch:
        case sim::StepKind::Observe: break;
    }
    return in;
}

void read_target(Sim& desk, const sim::Step& step) {
    if (!step.control) {
        desk.read_dirty(step.window);
        return;
    }
    desk.read_value(step.window, *step.control);
    desk.read_selection(step.window, *step.control);
    desk.read_toggled(step.window, *step.control);
}

std::string drive(const Scenario& s) {
    Sim desk(s);
    constexpr TimeMs between_steps_ms = 37;
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        const sim::Step& step = s.steps[i];
        if (i % 2 == 0 && step.window != no_window) desk.request_foreground(step.window);
        if (step.kind == sim::StepKind::Launch) {
            desk.launch(step.app);
        } else if (step.kind != sim::StepKind::Observe) {
            try {
                desk.deliver(input_for(s, step, static_cast<std::int32_t>(i)));
            } catch (const DesktopException&) {
            }
        }
        desk.wait_ms(between_steps_ms);
        read_target(desk, step);
        desk.element_tree(step.window);
    }
    desk.run_until_quiet(sim::latency_ms_limit);
    return to_text(desk.trace());
}

}  // namespace

BOOST_AUTO_TEST_CASE(S1_thousand_generated_scenarios_replay_byte_identical) {
    constexpr std::uint64_t seeds = 1000;
    std::size_t differing = 0;
    std::size_t invalid = 0;
    std::size_t lines = 0;
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        sim::Prng rng(seed);
        const Scenario s = sim::build_scenario_from_prng(rng);
        if (sim::validate(s).has_value()) {
            ++invalid;
            continue;
        }
        const std::string first = drive(s);
        const std::string second = drive(s);
        if (first != second) {
            ++differing;
            BOOST_TEST_MESSAGE("seed " << seed << " replays differently");
        }
        lines += static_cast<std::size_t>(std::count(first.begin(), first.end(), '\n'));
    }
    BOOST_TEST(invalid == 0u);
    BOOST_TEST(differing == 0u);
    BOOST_TEST(lines > seeds * 5);  // the runs did something
}

// ---- S-8: long values in the trace and the ledger --------------------------------------------------

namespace {

std::size_t code_points_of(const std::string& s) {
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

}  // namespace

// A short value is shown whole; a long one as its first code points, its length and its digest,
// so that two long values that differ anywhere show differently, and a line stays short.
BOOST_AUTO_TEST_CASE(S8_long_values_are_shown_cut_with_their_length_and_digest) {
    BOOST_TEST(sim::shown_text("a\tb") == "\"a\\tb\"");
    const std::string short_enough(78, 'x');  // quoted: 80 bytes
    BOOST_TEST(sim::shown_text(short_enough) == "\"" + short_enough + "\"");
    std::string a(100'000, 'a');
    std::string b = a;
    b[99'999] = 'b';  // differs in its last byte only
    const std::string shown_a = sim::shown_text(a);
    const std::string shown_b = sim::shown_text(b);
    BOOST_TEST(shown_a != shown_b);
    BOOST_TEST(shown_a.size() < 160u);
    BOOST_TEST(shown_a.find("(100000 bytes, fnv1a64 ") != std::string::npos);
    BOOST_TEST(shown_a.rfind("\"" + std::string(79, 'a') + "\xe2\x80\xa6\"", 0) == 0u);
    // Never cut inside a code point: 2-byte characters.
    std::string wide;
    for (int i = 0; i < 300; ++i) wide += "\xc3\xa9";
    const std::string shown_wide = sim::shown_text(wide);
    const std::string head = shown_wide.substr(0, shown_wide.find("\xe2\x80\xa6"));
    BOOST_TEST(code_points_of(head) == deskcheck::shown_chars_max);
    BOOST_TEST(head.size() == 1 + 2 * (deskcheck::shown_chars_max - 1));
}

// The ledger's Kept: exact for short strings; for long ones equal exactly when length and both
// digests agree, so a claimed value that differs in one byte is told apart.
BOOST_AUTO_TEST_CASE(S8_kept_values_compare_as_the_whole_values_do) {
    const sim::Kept small("true");
    BOOST_TEST(small.whole() != static_cast<const std::string*>(nullptr));
    BOOST_TEST(small.same_as("true"));
    BOOST_TEST(!small.same_as("false"));
    std::string a(5000, 'v');
    std::string b = a;
    b[2500] = 'w';
    const sim::Kept long_a(a);
    BOOST_TEST(!long_a.whole());
    BOOST_TEST(long_a.size() == 5000u);
    BOOST_TEST(long_a.same_as(a));
    BOOST_TEST(!long_a.same_as(b));
    BOOST_TEST(!long_a.same_as(a + "v"));
    BOOST_TEST((long_a == sim::Kept(a)));
    BOOST_TEST(!(long_a == sim::Kept(b)));
    BOOST_TEST(long_a.shown() == sim::shown_text(a));
    BOOST_TEST(sim::same(std::nullopt, std::nullopt));
    BOOST_TEST(!sim::same(sim::Kept(a), std::nullopt));
    BOOST_TEST(sim::same(sim::Kept(a), std::optional<std::string>(a)));
}

// S-8: a value that grows by appends keeps its digests by continuing them; the Kept it gives is the
// one made from the whole, at every length and across the short/long bound and word boundaries.
BOOST_AUTO_TEST_CASE(S8_kept_extending_an_append_equals_kept_of_the_whole) {
    std::string text;
    sim::Kept kept(text);
    for (std::size_t step = 1; text.size() < 3000; step = step % 13 + 1) {
        text += std::string(step, static_cast<char>('a' + text.size() % 26));
        kept = sim::Kept::extending(kept, text);
        BOOST_TEST_REQUIRE((kept == sim::Kept(text)), "differs at length " << text.size());
        BOOST_TEST_REQUIRE(kept.same_as(text));
    }
    // A Kept extended by what is not an append of it is not the whole's: the caller must check.
    std::string other = text;
    other[0] = 'z';
    BOOST_TEST(!(sim::Kept::extending(sim::Kept(text), other + "tail") == sim::Kept(other + "tail")));
    // The simulated desktop's appends: a user typing at the end of a long value, read back.
    sim::Scenario s = sim::scaled_scenario(sim::ScalingDimension::Events, 16);
    sim::Sim desk(s);
    desk.wait_ms(1000);
    const auto value = desk.read_value(1, 1);
    BOOST_TEST_REQUIRE(value.has_value());
    BOOST_TEST(value->size() > sim::kept_whole_bytes_max);
    BOOST_TEST(desk.truth().reads.back().returned->same_as(*value));
    BOOST_TEST((*desk.truth().reads.back().returned == sim::Kept(*value)));
}
