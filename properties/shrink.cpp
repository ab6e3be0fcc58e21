#include "properties/shrink.h"

#include <algorithm>
#include <cassert>
#include <optional>

#include "properties/checks.h"
#include "sim/scenario_json.h"
#include "sim/validate.h"

namespace deskcheck::props {
namespace {

using sim::Scenario;
using Candidate = std::optional<Scenario>;

// Removing step i: later steps' depends_on shift down; one that pointed at i is dropped.
Candidate without_step(const Scenario& s, std::size_t i) {
    if (i >= s.steps.size() || s.steps.size() <= 1) return std::nullopt;
    Scenario out = s;
    out.steps.erase(out.steps.begin() + static_cast<std::ptrdiff_t>(i));
    for (auto& st : out.steps) {
        if (!st.depends_on) continue;
        if (*st.depends_on == i) st.depends_on.reset();
        else if (*st.depends_on > i) st.depends_on = *st.depends_on - 1;
    }
    return out;
}

Candidate without_event(const Scenario& s, std::size_t i) {
    if (i >= s.events.size()) return std::nullopt;
    Scenario out = s;
    out.events.erase(out.events.begin() + static_cast<std::ptrdiff_t>(i));
    return out;
}

bool window_referenced(const Scenario& s, WindowId w) {
    for (const auto& st : s.steps) {
        if (st.window == w || st.ref_window == w) return true;
    }
    for (const auto& e : s.events) {
        if (e.window == w) return true;
    }
    return false;
}

// Removing a window nobody refers to: its owned windows lose their owner; an app without windows
// goes too; the foreground moves to the topmost remaining visible window.
Candidate without_window(const Scenario& s, std::size_t i) {
    if (i >= s.windows.size() || s.windows.size() <= 1) return std::nullopt;
    const WindowId w = s.windows[i].id;
    if (window_referenced(s, w)) return std::nullopt;
    Scenario out = s;
    out.windows.erase(out.windows.begin() + static_cast<std::ptrdiff_t>(i));
    out.hidden.erase(std::remove(out.hidden.begin(), out.hidden.end(), w), out.hidden.end());
    for (auto& win : out.windows) {
        if (win.owner == w) win.owner.reset();
    }
    if (out.foreground == w) {
        out.foreground = no_window;
        for (const auto& win : out.windows) {
            if (std::find(out.hidden.begin(), out.hidden.end(), win.id) == out.hidden.end()) {
                out.foreground = win.id;
                break;
            }
        }
    }
    out.apps.erase(std::remove_if(out.apps.begin(), out.apps.end(),
                                  [&](const sim::App& a) {
                                      return std::none_of(out.windows.begin(), out.windows.end(),
                                                          [&](const sim::Window& x) { return x.pid == a.pid; });
                                  }),
                   out.apps.end());
    return out;
}

bool control_referenced(const Scenario& s, const sim::Window& w, ElementId c) {
    for (const auto& st : s.steps) {
        if (st.control == c) return true;
    }
    for (const auto& e : s.events) {
        if (e.control == c || e.new_parent == c) return true;
    }
    for (const auto& other : w.controls) {
        if (other.parent == c || other.feed == c) return true;
    }
    return false;
}

Candidate without_control(const Scenario& s, std::size_t wi, std::size_t ci) {
    if (wi >= s.windows.size() || ci >= s.windows[wi].controls.size()) return std::nullopt;
    const auto& w = s.windows[wi];
    if (control_referenced(s, w, w.controls[ci].id)) return std::nullopt;
    Scenario out = s;
    auto& cs = out.windows[wi].controls;
    cs.erase(cs.begin() + static_cast<std::ptrdiff_t>(ci));
    return out;
}

Candidate without_monitor(const Scenario& s, std::size_t i) {
    if (i >= s.monitors.size() || s.monitors.size() <= 1 || s.monitors[i].primary) return std::nullopt;
    Scenario out = s;
    out.monitors.erase(out.monitors.begin() + static_cast<std::ptrdiff_t>(i));
    return out;
}

// Simplifications that keep the shape: fault kinds off, latencies zero, texts shorter.
std::vector<Scenario> simplifications(const Scenario& s) {
    std::vector<Scenario> out;
    const auto with = [&](auto&& edit) {
        Scenario c = s;
        edit(c);
        if (!(sim::encode_scenario_text(c) == sim::encode_scenario_text(s))) out.push_back(std::move(c));
    };
    with([](Scenario& c) { c.faults.read_failure_permille = 0; });
    with([](Scenario& c) { c.faults.stale_read_permille = 0; });
    with([](Scenario& c) { c.faults.delivery_error_permille = 0; });
    with([](Scenario& c) { c.faults.delivery_exception_permille = 0; });
    with([](Scenario& c) { c.faults.foreground_refusal_permille = 0; });
    with([](Scenario& c) { c.faults.latency_overrun_permille = 0; c.faults.latency_overrun_ms = 0; });
    with([](Scenario& c) { c.user_last_input_ms = -10'000; });
    for (std::size_t a = 0; a < s.apps.size(); ++a) {
        with([a](Scenario& c) { c.apps[a].steals_foreground_after_ms.reset(); });
        with([a](Scenario& c) { c.apps[a].latency_ms_min = 0; c.apps[a].latency_ms_max = 0; });
        with([a](Scenario& c) { c.apps[a].latency_ms_min = c.apps[a].latency_ms_max; });
    }
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        if (s.steps[i].text.size() > 1) {
            with([i](Scenario& c) { c.steps[i].text.resize(c.steps[i].text.size() / 2); });
        }
        with([i](Scenario& c) { c.steps[i].depends_on.reset(); });
    }
    for (std::size_t w = 0; w < s.windows.size(); ++w) {
        for (std::size_t k = 0; k < s.windows[w].controls.size(); ++k) {
            with([w, k](Scenario& c) { c.windows[w].controls[k].readability = sim::Readability::Readable; });
            with([w, k](Scenario& c) { c.windows[w].controls[k].value.clear(); c.windows[w].controls[k].selection = {}; });
        }
    }
    return out;
}

// All one-step-smaller candidates, biggest cuts first.
std::vector<Scenario> candidates(const Scenario& s) {
    std::vector<Scenario> out;
    const auto push = [&](Candidate c) {
        if (c) out.push_back(std::move(*c));
    };
    for (std::size_t i = s.steps.size(); i-- > 0;) push(without_step(s, i));
    for (std::size_t i = s.events.size(); i-- > 0;) push(without_event(s, i));
    for (std::size_t i = s.windows.size(); i-- > 0;) push(without_window(s, i));
    for (std::size_t w = 0; w < s.windows.size(); ++w) {
        for (std::size_t c = s.windows[w].controls.size(); c-- > 0;) push(without_control(s, w, c));
    }
    for (std::size_t i = s.monitors.size(); i-- > 0;) push(without_monitor(s, i));
    for (auto& c : simplifications(s)) out.push_back(std::move(c));
    return out;
}

}  // namespace

ShrinkResult shrink_scenario(const sim::Scenario& failing, const StillFails& still_fails, std::uint32_t attempts_max) {
    ShrinkResult r;
    r.scenario = failing;
    bool progress = true;
    while (progress && r.attempts < attempts_max) {
        progress = false;
        for (auto& c : candidates(r.scenario)) {
            if (r.attempts >= attempts_max) break;
            if (sim::validate(c).has_value()) continue;  // never a half-built desktop
            ++r.attempts;
            if (!still_fails(c)) continue;
            r.scenario = std::move(c);
            ++r.accepted;
            progress = true;
            break;  // restart from the smaller scenario
        }
    }
    return r;
}

StillFails still_violates(const std::string& property, const RunOptions& given) {
    RunOptions options = given;
    options.trace = false;  // a shrink step is judged by the checks only
    return [property, options](const sim::Scenario& s) {
        const NamedCheck* check = find_check(property);
        if (check == nullptr) return false;
        const RunResult run = run_scenario(s, options);
        return run_check(*check, s, run, options).status == CheckStatus::Violated;
    };
}

ScenarioSize size_of(const sim::Scenario& s) {
    ScenarioSize z;
    z.windows = static_cast<std::uint32_t>(s.windows.size());
    for (const auto& w : s.windows) z.controls += static_cast<std::uint32_t>(w.controls.size());
    z.steps = static_cast<std::uint32_t>(s.steps.size());
    z.events = static_cast<std::uint32_t>(s.events.size());
    return z;
}

std::string to_string(const ScenarioSize& z) {
    return std::to_string(z.windows) + " windows, " + std::to_string(z.controls) + " controls, " +
           std::to_string(z.steps) + " steps, " + std::to_string(z.events) + " events";
}

}  // namespace deskcheck::props
