// render_page(): timelines -> one self-contained HTML page (cli/html_timeline.h). Inline SVG, CSS
// and a little plain JavaScript; nothing is fetched. Integer coordinates, fixed iteration order:
// the same page view gives the same bytes.
#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "cli/files.h"
#include "cli/html_timeline.h"
#include "cli/report.h"
#include "sim/trace.h"

namespace deskcheck::cli::html {

// ---- text ------------------------------------------------------------------------------------------

namespace {

constexpr std::string_view replacement_character = "\xEF\xBF\xBD";  // U+FFFD

void append_escaped_byte(std::string& out, unsigned char c) {
    switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        case '\t':
        case '\n':
        case '\r': out += static_cast<char>(c); break;
        default:
            if (c < 0x20 || c == 0x7F) {
                std::array<char, 8> buffer{};
                std::snprintf(buffer.data(), buffer.size(), "\\x%02x", static_cast<unsigned>(c));
                out += buffer.data();
            } else {
                out += static_cast<char>(c);
            }
    }
}

}  // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_length(text, i);
        if (n == 0) {
            out += replacement_character;
            ++i;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

std::string escape_html(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_length(text, i);
        if (n == 0) {
            out += replacement_character;
            ++i;
        } else if (n == 1) {
            append_escaped_byte(out, static_cast<unsigned char>(text[i]));
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string truncated(std::string_view text, std::size_t max_chars) {
    const std::string valid = valid_utf8(text);
    std::size_t chars = 0;
    for (std::size_t i = 0; i < valid.size();) {
        if (chars == max_chars) return valid.substr(0, i) + "…";
        i += std::max<std::size_t>(1, utf8_length(valid, i));
        ++chars;
    }
    return valid;
}

namespace {

std::size_t code_points(std::string_view text) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < text.size(); ++i) n += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

// ---- the time axis ---------------------------------------------------------------------------------

constexpr int label_column_px = 250;
constexpr int slot_px = 14;
constexpr int axis_px = 44;
constexpr int right_margin_px = 320;
constexpr TimeMs linear_gap_ms_max = 2000;
constexpr int linear_px_per_100ms = 35;
constexpr int compressed_gap_px_max = 300;
constexpr int char_px = 6;
constexpr std::size_t label_chars_max = 40;

// Width of an idle stretch of `dt_ms`: linear up to 2 s, then compressed (a break is drawn).
int gap_px(TimeMs dt_ms) {
    assert(dt_ms >= 0);
    if (dt_ms <= linear_gap_ms_max) return static_cast<int>(dt_ms * linear_px_per_100ms / 100);
    const TimeMs extra = std::min<TimeMs>(compressed_gap_px_max, (dt_ms - linear_gap_ms_max) / 100);
    return static_cast<int>(linear_gap_ms_max * linear_px_per_100ms / 100 + extra);
}

// Virtual time -> x. Each millisecond at which something happened gets one slot per thing, in trace
// order, so that things of the same millisecond stand side by side in the order they happened.
class Axis {
public:
    struct Column {
        TimeMs ms = 0;
        int x = 0;      // left edge
        int width = 0;  // slots * slot_px
        std::vector<std::size_t> orders;
    };

    explicit Axis(const Timeline& t) {
        std::map<TimeMs, std::vector<std::size_t>> at;
        at[0];
        at[t.end_ms];
        const auto add = [&](const std::optional<Instant>& i) {
            if (i) at[i->at_ms].push_back(i->order);
        };
        for (const auto& item : t.items) {
            add(item.begin);
            add(item.end);
        }
        for (const auto& b : t.bands) {
            add(b.begin);
            add(b.end);
        }
        for (const auto& h : t.handoffs) add(h.at);
        for (const auto& h : t.highlights) {
            add(h.begin);
            add(h.end);
        }
        for (const auto& i : t.intervals) {
            add(i.from);
            at[i.to_ms];
        }
        add(t.tool_returned);
        int x = label_column_px + 12;
        TimeMs previous = 0;
        for (auto& [ms, orders] : at) {
            std::sort(orders.begin(), orders.end());
            orders.erase(std::unique(orders.begin(), orders.end()), orders.end());
            x += gap_px(ms - previous);
            columns_.push_back(Column{ms, x, static_cast<int>(orders.size()) * slot_px, orders});
            x += columns_.back().width;
            previous = ms;
        }
        end_x_ = x + slot_px;
    }

    int begin_x() const { return label_column_px + 12; }
    int end_x() const { return end_x_; }
    const std::vector<Column>& columns() const { return columns_; }

    int centre(const Instant& i) const {
        const Column& c = column(i.at_ms);
        const auto slot = std::lower_bound(c.orders.begin(), c.orders.end(), i.order) - c.orders.begin();
        return c.x + static_cast<int>(slot) * slot_px + slot_px / 2;
    }
    int left(const Instant& i) const { return centre(i) - slot_px / 2; }
    int right(const Instant& i) const { return centre(i) + slot_px / 2; }

    // Any time: the left edge of its column, or between columns by the gap rule.
    int x_of_time(TimeMs t) const {
        const Column& c = column_at_or_before(t);
        return c.ms == t ? c.x : c.x + c.width + gap_px(t - c.ms);
    }
    // The end of a stretch ending at `t`: what happens at `t` itself is inside it.
    int x_end_of_time(TimeMs t) const {
        const Column& c = column_at_or_before(t);
        return c.ms == t ? c.x + c.width : x_of_time(t);
    }

private:
    const Column& column(TimeMs ms) const {
        const Column& c = column_at_or_before(ms);
        assert(c.ms == ms);
        return c;
    }
    const Column& column_at_or_before(TimeMs ms) const {
        assert(!columns_.empty());
        auto it = std::upper_bound(columns_.begin(), columns_.end(), ms, [](TimeMs v, const Column& c) { return v < c.ms; });
        return it == columns_.begin() ? columns_.front() : *(it - 1);
    }

    std::vector<Column> columns_;
    int end_x_ = 0;
};

// ---- lanes -----------------------------------------------------------------------------------------

constexpr int tool_lane_px = 74;
constexpr int window_lane_px = 66;
constexpr int user_lane_px = 44;
constexpr int group_px = 20;

struct LaneBox {
    const Lane* lane = nullptr;
    int y = 0;
    int height = 0;
};

struct Layout {
    std::vector<LaneBox> lanes;
    std::vector<std::pair<std::string, int>> groups;  // app label, y
    int top = axis_px;
    int bottom = axis_px;
    const LaneBox* find(const std::string& id) const {
        for (const auto& l : lanes) {
            if (l.lane->id == id) return &l;
        }
        return nullptr;
    }
};

Layout lay_out(const Timeline& t) {
    Layout out;
    int y = axis_px;
    std::string group;
    for (const auto& lane : t.lanes) {
        if (lane.kind == LaneKind::Window && lane.group != group) {
            group = lane.group;
            out.groups.emplace_back(group, y);
            y += group_px;
        }
        const int h = lane.kind == LaneKind::Tool ? tool_lane_px : lane.kind == LaneKind::Window ? window_lane_px : user_lane_px;
        out.lanes.push_back(LaneBox{&lane, y, h});
        y += h;
    }
    out.bottom = y;
    return out;
}

int row_y(const LaneBox& box, Row row) {
    if (box.lane->kind == LaneKind::Tool) return box.y + (row == Row::Bottom ? 62 : 40);
    if (box.lane->kind == LaneKind::User) return box.y + 22;
    return box.y + (row == Row::Top ? 14 : row == Row::Middle ? 32 : 50);
}

// ---- writing ----------------------------------------------------------------------------------------

std::string attr(std::string_view name, std::string_view value) {
    return " " + std::string(name) + "=\"" + escape_html(value) + "\"";
}
std::string num(std::string_view name, long long value) { return " " + std::string(name) + "=\"" + std::to_string(value) + "\""; }

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// Labels of one row of one lane: drawn only where they do not run into the previous one.
struct LabelRows {
    std::map<std::pair<std::string, int>, int> next_free_x;
    bool take(const std::string& lane, int row, int x, const std::string& text) {
        int& free = next_free_x[{lane, row}];
        if (x < free) return false;
        free = x + static_cast<int>(code_points(text)) * char_px + 8;
        return true;
    }
};

std::string marker_shape(const Item& item, int x, int y) {
    const auto X = [&](int dx) { return std::to_string(x + dx); };
    const auto Y = [&](int dy) { return std::to_string(y + dy); };
    if (item.kind == "deliver") return "<path class=\"shape\" d=\"M" + X(-6) + " " + Y(-6) + "L" + X(6) + " " + Y(-6) + "L" + X(0) + " " + Y(5) + "Z\"/>";
    if (item.kind == "attempt") return "<path class=\"shape\" d=\"M" + X(-5) + " " + Y(-5) + "L" + X(5) + " " + Y(5) + "M" + X(5) + " " + Y(-5) + "L" + X(-5) + " " + Y(5) + "\"/>";
    if (item.kind == "effect") return "<circle class=\"shape\"" + num("cx", x) + num("cy", y) + " r=\"5\"/>";
    if (item.kind == "read") return "<rect class=\"shape\"" + num("x", x - 4) + num("y", y - 4) + " width=\"8\" height=\"8\"/>";
    if (item.kind == "request") return "<path class=\"shape\" d=\"M" + X(0) + " " + Y(-6) + "L" + X(5) + " " + Y(0) + "L" + X(0) + " " + Y(6) + "L" + X(-5) + " " + Y(0) + "Z\"/>";
    if (item.kind == "event") return "<path class=\"shape\" d=\"M" + X(-6) + " " + Y(5) + "L" + X(6) + " " + Y(5) + "L" + X(0) + " " + Y(-6) + "Z\"/>";
    return "<rect class=\"shape\"" + num("x", x - 2) + num("y", y - 7) + " width=\"4\" height=\"14\"/>";
}

std::string item_open(const Item& item) {
    std::string out = "<g" + attr("class", "item " + item.kind + (item.classes.empty() ? "" : " " + joined(item.classes))) +
                      attr("data-kind", item.kind) + " tabindex=\"0\"";
    if (item.step) out += num("data-step", *item.step);
    return out + "><title>" + escape_html(item.evidence) + "</title>";
}

std::string draw_step(const Item& item, const Axis& axis, const LaneBox& box, LabelRows& labels) {
    const int x0 = axis.left(item.begin);
    const int x1 = axis.right(item.end.value_or(item.begin));
    std::string out = item_open(item) + "<rect class=\"shape\"" + num("x", x0) + num("y", box.y + 31) + num("width", std::max(4, x1 - x0)) +
                      " height=\"18\" rx=\"3\"/>";
    const std::string text = truncated(item.label, label_chars_max);
    const std::string brief = "s" + (item.step ? std::to_string(*item.step) : std::string("?"));
    if (labels.take(box.lane->id, 0, x0, text)) {
        out += "<text class=\"label\"" + num("x", x0) + num("y", box.y + 13) + ">" + escape_html(text) + "</text>";
    } else if (labels.take(box.lane->id, 1, x0, text)) {
        out += "<text class=\"label\"" + num("x", x0) + num("y", box.y + 26) + ">" + escape_html(text) + "</text>";
    } else if (labels.take(box.lane->id, 2, x0 + 2, brief)) {
        out += "<text class=\"label in-step\"" + num("x", x0 + 2) + num("y", box.y + 44) + ">" + escape_html(brief) + "</text>";
    }
    return out + "</g>\n";
}

// `limit_x`: where the next marker of the same row stands (a label never runs over it).
std::string draw_marker(const Item& item, const Axis& axis, const LaneBox& box, LabelRows& labels, int limit_x) {
    const int x = axis.centre(item.begin);
    const int y = row_y(box, item.row);
    std::string out = item_open(item) + marker_shape(item, x, y);
    const std::string text = truncated(item.label, label_chars_max);
    const int width = static_cast<int>(code_points(text)) * char_px;
    if (!text.empty() && x + 8 + width <= limit_x - 6 && labels.take(box.lane->id, 10 + static_cast<int>(item.row), x + 8, text)) {
        out += "<text class=\"label\"" + num("x", x + 8) + num("y", y + 4) + ">" + escape_html(text) + "</text>";
    }
    return out + "</g>\n";
}

std::string draw_band(const Band& b, const Axis& axis, const LaneBox& box) {
    const int x0 = b.begin ? axis.centre(*b.begin) : axis.begin_x();
    const int x1 = b.end ? axis.centre(*b.end) : axis.end_x();
    const std::string span = "t=" + (b.begin ? std::to_string(b.begin->at_ms) : std::string("0")) + " ms to " +
                             (b.end ? "t=" + std::to_string(b.end->at_ms) + " ms" : std::string("the end"));
    return "<rect" + attr("class", "band c" + std::to_string(box.lane->colour % 8)) + attr("data-owner", box.lane->id) + num("x", x0) +
           num("y", box.y + 2) + num("width", std::max(1, x1 - x0)) + num("height", box.height - 4) + "><title>" +
           escape_html(box.lane->id + " holds the foreground from " + span) + "</title></rect>\n";
}

std::string draw_interval(const Interval& i, const Axis& axis, const LaneBox& box) {
    const int x0 = axis.centre(i.from);
    const int x1 = std::max(x0 + 1, axis.x_end_of_time(i.to_ms));
    const int y = box.lane->kind == LaneKind::Tool ? box.y + (i.kind == "settle" ? 52 : 55) : box.y + box.height - 8;
    std::string out = "<g" + attr("class", "interval " + i.kind) + attr("data-kind", i.kind) +
                      (i.step ? num("data-step", *i.step) : std::string()) + "><title>" + escape_html(i.label) + "</title>";
    out += "<rect class=\"bar\"" + num("x", x0) + num("y", y) + num("width", x1 - x0) + " height=\"4\"/>";
    out += "<line class=\"tick\"" + num("x1", x1) + num("y1", y - 4) + num("x2", x1) + num("y2", y + 8) + "/>";
    if (i.kind != "settle-limit") {
        out += "<text class=\"label interval-label\"" + num("x", x1 + 4) + num("y", y + 6) + ">" + escape_html(truncated(i.label, 70)) + "</text>";
    }
    return out + "</g>\n";
}

std::string draw_lane(const LaneBox& box, const Timeline& t, const Axis& axis, LabelRows& labels) {
    const Lane& lane = *box.lane;
    const std::string kind = lane.kind == LaneKind::Tool ? "tool" : lane.kind == LaneKind::User ? "user" : "window";
    std::string out = "<g" + attr("class", "lane lane-" + kind) + attr("data-lane", lane.id) + attr("data-lane-kind", kind) + ">\n";
    out += "<rect class=\"lane-bg\"" + num("x", 0) + num("y", box.y) + num("width", axis.end_x() + right_margin_px) + num("height", box.height) + "/>\n";
    for (const auto& b : t.bands) {
        if ("w" + std::to_string(b.window) == lane.id) out += draw_band(b, axis, box);
    }
    for (const auto& i : t.intervals) {
        if (i.lane == lane.id) out += draw_interval(i, axis, box);
    }
    std::vector<const Item*> items;
    for (const auto& item : t.items) {
        if (item.lane == lane.id) items.push_back(&item);
    }
    // Items come sorted by instant: one backward pass finds each marker's next neighbour in its row.
    std::vector<int> limit(items.size(), axis.end_x() + right_margin_px);
    std::map<Row, int> next_x;
    for (std::size_t k = items.size(); k-- > 0;) {
        const bool span = items[k]->kind == "step" && items[k]->end;
        if (span) continue;
        if (const auto it = next_x.find(items[k]->row); it != next_x.end()) limit[k] = it->second;
        next_x[items[k]->row] = axis.centre(items[k]->begin) - 6;
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
        const Item& item = *items[k];
        out += item.kind == "step" && item.end ? draw_step(item, axis, box, labels) : draw_marker(item, axis, box, labels, limit[k]);
    }
    out += "<rect class=\"lane-head\"" + num("x", 0) + num("y", box.y) + num("width", label_column_px) + num("height", box.height) + "/>";
    if (lane.kind == LaneKind::Window) {
        out += "<rect" + attr("class", "swatch c" + std::to_string(lane.colour % 8)) + num("x", 6) + num("y", box.y + 8) + " width=\"10\" height=\"10\"/>";
    }
    out += "<text class=\"lane-label\"" + num("x", lane.kind == LaneKind::Window ? 22 : 8) + num("y", box.y + 17) + ">" +
           escape_html(truncated(lane.label, 36)) + "<title>" + escape_html(lane.label) + "</title></text>\n";
    return out + "</g>\n";
}

std::string handoff_label(const std::string& kind) {
    if (kind == "give-back") return "give back";
    if (kind == "another-window") return "another window";
    if (kind == "app") return "app grabs";
    return kind;
}

std::string draw_handoff(const Handoff& h, const Axis& axis, const Layout& layout) {
    const LaneBox* from = layout.find("w" + std::to_string(h.from));
    const LaneBox* to = layout.find("w" + std::to_string(h.to));
    const int x = axis.centre(h.at);
    const int y0 = from != nullptr ? from->y + from->height / 2 : layout.lanes.front().y + layout.lanes.front().height;
    const int y1 = to != nullptr ? to->y + (to->y > y0 ? 6 : to->height - 6) : y0;
    std::string out = "<g" + attr("class", "item handoff " + h.kind) + attr("data-kind", "handoff") + attr("data-from", "w" + std::to_string(h.from)) +
                      attr("data-to", "w" + std::to_string(h.to)) + " tabindex=\"0\"><title>" + escape_html(h.evidence) + "</title>";
    out += "<line class=\"shape\"" + num("x1", x) + num("y1", y0) + num("x2", x) + num("y2", y1) + " marker-end=\"url(#arrow)\"/>";
    out += "<circle class=\"shape dot\"" + num("cx", x) + num("cy", y0) + " r=\"3\"/>";
    out += "<text class=\"label handoff-label\"" + num("x", x + 4) + num("y", y1 + (y1 > y0 ? -4 : 12)) + ">" + escape_html(handoff_label(h.kind)) + "</text>";
    return out + "</g>\n";
}

std::string draw_highlight(const Highlight& h, const Axis& axis, const Layout& layout, int index) {
    const std::string step = h.step ? std::to_string(*h.step) : std::string("none");
    const int x0 = h.begin ? axis.left(*h.begin) - 4 : axis.begin_x();
    const int x1 = h.end ? axis.right(*h.end) + 4 : axis.end_x();
    std::string out = "<g" + attr("class", std::string("violation-mark") + (h.primary ? " primary" : "")) + attr("data-property", h.property) +
                      attr("data-violation-step", step) + "><title>" +
                      escape_html(h.property + " violated" + (h.step ? " at step " + step : std::string(" (no single step)")) + ": " + h.explanation) +
                      "</title>";
    out += "<rect class=\"violation-column\"" + num("x", x0) + num("y", layout.top - 4) + num("width", x1 - x0) + num("height", layout.bottom - layout.top + 8) + "/>";
    out += "<text class=\"violation-label\"" + num("x", x0) + num("y", 12 + 12 * (index % 2)) + ">" +
           escape_html("✖ " + h.property + (h.step ? " @ step " + step + (h.begin ? "" : " (the step did not run)") : std::string(" (whole run)"))) +
           "</text>";
    return out + "</g>\n";
}

std::string draw_axis(const Axis& axis, const Layout& layout) {
    std::string out = "<g class=\"axis\">\n";
    int free_x = 0;
    TimeMs previous = 0;
    for (const auto& c : axis.columns()) {
        if (c.ms - previous > linear_gap_ms_max) {
            const int mid = c.x - gap_px(c.ms - previous) / 2;
            out += "<text class=\"break\"" + num("x", mid - 8) + num("y", axis_px - 8) + ">≈ " +
                   std::to_string((c.ms - previous) / 1000) + " s ≈</text>";
        }
        previous = c.ms;
        out += "<line class=\"tick\"" + num("x1", c.x) + num("y1", axis_px - 6) + num("x2", c.x) + num("y2", layout.bottom) + "/>";
        const std::string text = std::to_string(c.ms) + " ms";
        if (c.x < free_x) continue;
        out += "<text class=\"tick-label\"" + num("x", c.x + 2) + num("y", axis_px - 10) + ">" + text + "</text>";
        free_x = c.x + static_cast<int>(text.size()) * char_px + 10;
    }
    return out + "</g>\n";
}

std::string draw_svg(const Timeline& t, int run_index) {
    const Axis axis(t);
    const Layout layout = lay_out(t);
    const int width = axis.end_x() + right_margin_px;
    const int height = layout.bottom + 8;
    std::ostringstream o;
    o << "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\"" << num("width", width) << num("height", height)
      << " viewBox=\"0 0 " << width << " " << height << "\"" << num("data-base-width", width) << num("data-run", run_index) << ">\n"
      << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
         "<path d=\"M0 0L10 5L0 10Z\" class=\"arrowhead\"/></marker></defs>\n";
    for (std::size_t i = 0; i < t.highlights.size(); ++i) o << draw_highlight(t.highlights[i], axis, layout, static_cast<int>(i));
    o << draw_axis(axis, layout);
    for (const auto& [label, y] : layout.groups) {
        o << "<g class=\"group\"><rect class=\"group-bg\"" << num("x", 0) << num("y", y) << num("width", width) << num("height", group_px)
          << "/><text class=\"group-label\"" << num("x", 6) << num("y", y + 14) << ">" << escape_html(label) << "</text></g>\n";
    }
    LabelRows labels;
    for (const auto& box : layout.lanes) o << draw_lane(box, t, axis, labels);
    for (const auto& h : t.handoffs) o << draw_handoff(h, axis, layout);
    if (t.tool_returned) {
        const int x = axis.centre(*t.tool_returned);
        o << "<g class=\"tool-returned\"><line" << num("x1", x) << num("y1", layout.top) << num("x2", x) << num("y2", layout.bottom)
          << "/><text class=\"label\"" << num("x", x + 3) << num("y", layout.bottom - 4) << ">tool returned</text></g>\n";
    }
    o << "</svg>\n";
    return o.str();
}

// ---- the page -----------------------------------------------------------------------------------------

std::string violations_attribute(const Timeline& t) {
    std::string out;
    for (const auto& h : t.highlights) {
        out += (out.empty() ? "" : " ") + h.property + "@" + (h.step ? std::to_string(*h.step) : std::string("none"));
    }
    return out;
}

std::string checks_table(const RunView& run) {
    std::string out = "<table class=\"checks\"><tr><th>property</th><th>SPEC</th><th>judgement</th><th>step</th><th>why</th></tr>\n";
    for (const auto& c : run.checks) {
        const auto& r = c.result;
        const std::string status(props::to_string(r.status));
        const std::string step = r.violation && r.violation->step ? std::to_string(*r.violation->step) : "";
        const std::string why = r.violation ? r.violation->explanation : r.status == props::CheckStatus::CannotJudge ? r.why_not_judged : "";
        out += "<tr" + attr("class", "check " + status + (c.property == run.primary_property ? " primary" : "")) + attr("data-property", c.property) +
               attr("data-status", status) + "><td>" + escape_html(c.property) + "</td><td>" + escape_html(c.spec) + "</td><td>" +
               escape_html(status) + "</td><td>" + escape_html(step) + "</td><td>" + escape_html(why) + "</td></tr>\n";
    }
    return out + "</table>\n";
}

std::string violation_boxes(const Timeline& t) {
    std::string out;
    for (const auto& h : t.highlights) {
        out += "<p" + attr("class", std::string("violation-box") + (h.primary ? " primary" : "")) + ">✖ <b>" + escape_html(h.property) +
               "</b> violated " + escape_html(h.step ? "at step " + std::to_string(*h.step) : std::string("(no single step)")) + ": " +
               escape_html(h.explanation) + "</p>\n";
    }
    if (t.highlights.empty()) out += "<p class=\"no-violation\">No property is violated in this run.</p>\n";
    return out;
}

// What `deskcheck replay` prints for the run, folded away; cut at text_timeline_bytes_max.
std::string text_timeline(const RunView& run) {
    std::string text = sim::to_text(run.run->trace()) + "\n";
    for (const auto& s : run.run->steps) text += describe_step(s);
    if (text.size() > text_timeline_bytes_max) {
        text = truncated(text.substr(0, text_timeline_bytes_max), text_timeline_bytes_max) +
               "\n… cut here (" + std::to_string(text.size()) + " bytes in all): deskcheck replay prints it whole\n";
    }
    return "<details><summary>The text timeline (what <code>deskcheck replay</code> prints)</summary><pre class=\"text-timeline\">" +
           escape_html(text) + "</pre></details>\n";
}

std::string run_section(const RunView& run, int index) {
    const Timeline t = build_timeline(run);
    std::string out = "<section" + attr("class", "run") + num("data-run", index) + attr("data-mutation", run.mutation) +
                      attr("data-violations", violations_attribute(t)) + attr("data-order-exact", t.order_exact ? "true" : "false") + ">\n";
    out += "<h2>Run " + std::to_string(index + 1) + ": " + escape_html(run.title) + "</h2>\n" + violation_boxes(t);
    if (!t.order_exact) out += "<p class=\"note\">The trace and the ledger did not line up: order within one millisecond is approximate.</p>\n";
    out += "<div class=\"scroll\">\n" + draw_svg(t, index) + "</div>\n" + checks_table(run);
    out += text_timeline(run);
    return out + "</section>\n";
}

constexpr std::string_view page_style = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:0 0 40vh 0;color:#222;background:#fff}
header{padding:12px 18px;background:#f4f4f6;border-bottom:1px solid #ccc}
h1{font-size:20px;margin:0 0 6px 0} h2{font-size:16px;margin:14px 18px 6px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:6px 0} dt{color:#666} dd{margin:0}
code{background:#eee;padding:1px 4px;border-radius:3px}
section.run{border-bottom:1px solid #ccc;padding-bottom:10px} .scroll{overflow-x:auto;margin:0 18px;border:1px solid #ddd}
.violation-box{margin:4px 18px;padding:6px 10px;background:#fde8e8;border-left:5px solid #c00}
.violation-box.primary{font-weight:500} .no-violation,.note{margin:4px 18px;color:#555}
table.checks{margin:8px 18px;border-collapse:collapse;font-size:13px} table.checks td,table.checks th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
tr.check.violated td{background:#fde8e8} tr.check.primary td:first-child{font-weight:bold}
details{margin:6px 18px} pre{font-size:12px;white-space:pre-wrap}
.legend{margin:6px 18px;font-size:12px;color:#444} .legend span{margin-right:14px;white-space:nowrap}
#evidence-panel{position:fixed;bottom:0;left:0;right:0;max-height:40vh;overflow:auto;background:#fffef4;border-top:2px solid #999;margin:0;padding:6px 18px;font-size:12px}
#zoom{margin:6px 18px}
svg.timeline text{font-size:10px;fill:#222} svg.timeline .lane-label{font-size:12px;font-weight:600}
.lane-bg{fill:#fff;stroke:#e4e4e4} .lane-tool .lane-bg{fill:#f7f9fc} .lane-user .lane-bg{fill:#fbf7fd}
.lane-head{fill:#fafafa;stroke:#e4e4e4} .group-bg{fill:#ececf0} svg.timeline .group-label{font-size:11px;fill:#555;font-style:italic}
.tick{stroke:#eee} .tick-label{fill:#666} .break{fill:#999}
.c0{fill:#4e79a7}.c1{fill:#f28e2b}.c2{fill:#59a14f}.c3{fill:#b07aa1}.c4{fill:#76b7b2}.c5{fill:#edc948}.c6{fill:#9c755f}.c7{fill:#ff9da7}
rect.band{opacity:.30}
.item{cursor:pointer} .item:hover .shape,.item:focus .shape,.item.selected .shape{stroke:#000;stroke-width:2.5}
.step .shape{stroke:#555;stroke-width:1} .step.confirmed .shape{fill:#7fc97f} .step.absent .shape{fill:#f4a582} .step.unknown .shape{fill:#cfcfcf}
.step.error .shape{fill:#fff;stroke:#c00;stroke-dasharray:3 2} .step.launch .shape{fill:#888} .step.none .shape{fill:#eee}
.step.violation .shape{stroke:#d00;stroke-width:3} .step.retry .shape{stroke-dasharray:5 2}
.deliver .shape{fill:#1f4e9c} .deliver.ignored .shape{fill:#fff;stroke:#1f4e9c} .deliver.elsewhere .shape{fill:#c00}
.attempt .shape{stroke:#c00;stroke-width:2;fill:none}
.effect .shape{fill:#2a8a2a} .effect.by-user .shape{fill:#9467bd} .effect.by-app .shape{fill:#ff7f0e} .effect.overrun .shape{stroke:#c00;stroke-width:2}
.read .shape{fill:#5b8fd6} .read.unreadable .shape{fill:#fff;stroke:#555;stroke-dasharray:2 1} .read.stale .shape{fill:#f0a020;stroke:#a60}
.request .shape{fill:#1f4e9c} .request.refused .shape{fill:#c00}
.event .shape{fill:#9467bd} .event.by-desktop .shape{fill:#8c564b} .launch .shape{fill:#555} .note .shape{fill:#999}
.handoff .shape{stroke-width:2} .handoff.borrow .shape,.handoff.tool .shape{stroke:#1f4e9c;fill:#1f4e9c} .handoff.give-back .shape{stroke:#2ca02c;fill:#2ca02c}
.handoff.app .shape{stroke:#ff7f0e;fill:#ff7f0e} .handoff.user .shape{stroke:#9467bd;fill:#9467bd} .handoff.another-window .shape{stroke:#8c564b;fill:#8c564b}
svg.timeline .handoff-label{font-weight:bold} .arrowhead{fill:#333}
.violation-column{fill:#ff0000;opacity:.08;stroke:#d00;stroke-width:1} .violation-mark.primary .violation-column{opacity:.14}
svg.timeline .violation-label{fill:#c00;font-weight:bold;font-size:11px}
.interval .bar{fill:#c00;opacity:.55} .interval.settle .bar{fill:#1f4e9c} .interval.settle-limit .bar{fill:none;stroke:#1f4e9c;stroke-dasharray:3 2}
.interval .tick{stroke:#c00;stroke-width:2} .interval.settle .tick,.interval.settle-limit .tick{stroke:#1f4e9c}
svg.timeline .interval-label{fill:#900}
.tool-returned line{stroke:#333;stroke-dasharray:6 4}
)css";

// Errors go into the DOM first (a headless browser's --dump-dom shows them); the page's script
// marks the document when it has run to the end.
constexpr std::string_view error_script = R"js(
document.documentElement.setAttribute('data-script', 'loading');
window.addEventListener('error', function (e) {
  document.documentElement.setAttribute('data-script-error', String(e && e.message ? e.message : e));
});
)js";

constexpr std::string_view page_script = R"js(
(function () {
  var root = document.documentElement;
  var panel = document.getElementById('evidence');
  var pinned = null;
  function evidence(el) {
    var t = el.querySelector('title');
    return t ? t.textContent : '';
  }
  function show(el, pin) {
    if (pin) {
      if (pinned) pinned.classList.remove('selected');
      pinned = el;
      el.classList.add('selected');
    }
    if (pin || !pinned) panel.textContent = evidence(el);
  }
  var items = document.querySelectorAll('.item');
  for (var i = 0; i < items.length; i++) {
    items[i].addEventListener('click', function (e) { show(this, true); e.stopPropagation(); });
    items[i].addEventListener('keydown', function (e) { if (e.key === 'Enter') show(this, true); });
    items[i].addEventListener('mouseenter', function () { show(this, false); });
  }
  var zoom = 1;
  function rescale(factor) {
    zoom = Math.max(0.25, Math.min(4, zoom * factor));
    var svgs = document.querySelectorAll('svg.timeline');
    for (var k = 0; k < svgs.length; k++) {
      svgs[k].setAttribute('width', String(Math.round(Number(svgs[k].getAttribute('data-base-width')) * zoom)));
    }
  }
  document.getElementById('zoom-in').addEventListener('click', function () { rescale(1.5); });
  document.getElementById('zoom-out').addEventListener('click', function () { rescale(1 / 1.5); });
  var lanes = document.querySelectorAll('[data-lane]');
  var marks = document.querySelectorAll('.violation-mark');
  root.setAttribute('data-lanes-drawn', String(lanes.length));
  root.setAttribute('data-items-wired', String(items.length));
  root.setAttribute('data-violation-marks', String(marks.length));
  root.setAttribute('data-render-ms', String(Math.round(performance.now())));
  root.setAttribute('data-script', 'ok');
})();
)js";

constexpr std::string_view legend = R"html(<p class="legend">
<span><svg width="14" height="12"><rect x="1" y="2" width="12" height="8" fill="#7fc97f" stroke="#555"/></svg> step: Confirmed / <svg width="14" height="12"><rect x="1" y="2" width="12" height="8" fill="#f4a582" stroke="#555"/></svg> Absent / <svg width="14" height="12"><rect x="1" y="2" width="12" height="8" fill="#cfcfcf" stroke="#555"/></svg> Unknown / dashed red: error</span>
<span><svg width="12" height="12"><path d="M0 1L12 1L6 11Z" fill="#1f4e9c"/></svg> input delivered (hollow: ignored, red: landed elsewhere)</span>
<span><svg width="12" height="12"><path d="M1 1L11 11M11 1L1 11" stroke="#c00" stroke-width="2"/></svg> delivery failed</span>
<span><svg width="12" height="12"><circle cx="6" cy="6" r="5" fill="#2a8a2a"/></svg> effect landing (purple: user, orange: app, red ring: overrun)</span>
<span><svg width="12" height="12"><rect x="2" y="2" width="8" height="8" fill="#5b8fd6"/></svg> read (hollow: unreadable, orange: stale)</span>
<span><svg width="12" height="12"><path d="M6 0L11 6L6 12L1 6Z" fill="#1f4e9c"/></svg> foreground request (red: refused)</span>
<span>coloured band: the window holding the foreground; arrows: borrow (blue), give back (green), app / user / another window</span>
<span>red column: the violated property's step; red bar: the app's latency bound; blue bar: the tool's settle wait</span>
</p>
)html";

std::string page_title(const PageView& page) {
    const std::string property = page.header ? page.header->property : std::string("replay");
    const std::string file = std::filesystem::path(page.file).filename().string();
    return "deskcheck · " + property + " · " + page.rules + " rules · " + file;
}

std::string page_header(const PageView& page) {
    std::string out = "<header>\n<h1>" + escape_html(page.header ? "deskcheck counterexample: " + page.header->property : "deskcheck replay") + "</h1>\n";
    if (page.header) out += "<p class=\"summary\">" + escape_html(page.header->summary) + "</p>\n";
    out += "<dl>\n";
    const auto row = [&](const std::string& name, const std::string& value) {
        out += "<dt>" + escape_html(name) + "</dt><dd>" + escape_html(value) + "</dd>\n";
    };
    row("property", page.header ? page.header->property : "(no counterexample header)");
    row("rule set", page.rules + (page.header && page.header->rules != page.rules ? " (the header says " + page.header->rules + ")" : ""));
    if (page.header) {
        row("seed", std::to_string(page.header->seed));
        row("step", page.header->step ? std::to_string(*page.header->step) : "(not named)");
        row("recorded outcome", page.header->expected_outcome.empty() ? "(not said)" : page.header->expected_outcome);
        if (page.header->mutation) row("mutation that puts the bug back", std::string(to_string(*page.header->mutation)));
    }
    row("file", page.file);
    out += "<dt>replay</dt><dd><code class=\"replay\">" + escape_html(page.replay_command) + "</code></dd>\n</dl>\n</header>\n";
    return out;
}

}  // namespace

std::string render_page(const PageView& page) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape_html(page_title(page)) + "</title>\n";
    out += "<meta name=\"generator\" content=\"deskcheck replay --html\">\n<style>" + std::string(page_style) + "</style>\n<script>" +
           std::string(error_script) + "</script>\n</head>\n";
    const std::string step = page.header && page.header->step ? std::to_string(*page.header->step) : std::string("none");
    out += "<body" + attr("data-property", page.header ? page.header->property : "") + attr("data-header-step", step) +
           attr("data-outcome", page.header ? page.header->expected_outcome : "") + num("data-runs", static_cast<long long>(page.runs.size())) + ">\n";
    out += page_header(page) + std::string(legend) +
           "<p id=\"zoom\"><button id=\"zoom-out\" type=\"button\">−</button> <button id=\"zoom-in\" type=\"button\">+</button> zoom; hover or click an item for its evidence</p>\n";
    for (std::size_t i = 0; i < page.runs.size(); ++i) out += run_section(page.runs[i], static_cast<int>(i));
    out += "<pre id=\"evidence-panel\"><span id=\"evidence\">Hover or click an item of the timeline: its full evidence shows here.</span></pre>\n";
    out += "<script>" + std::string(page_script) + "</script>\n</body>\n</html>\n";
    return out;
}

}  // namespace deskcheck::cli::html
