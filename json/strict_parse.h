// The one JSON reader of every JSON input deskcheck takes (scenario files, R0 fixtures, journal
// lines, adapter answers and requests, observation snapshots, mutate-rules' explained.json): the
// text is parsed by nlohmann/json, and refused when it holds
//   - a duplicate key in any object (nlohmann/json would keep the last one silently, so two
//     readers of the same text could disagree): the error names the key and its JSON pointer;
//   - a NUL byte (nlohmann/json takes one for the end of the input and ignores what follows);
//   - anything that is not JSON text (the byte offset and the parser's reason).
// Never throws a JSON exception. Header-only, like nlohmann/json itself, and it includes nothing
// of deskcheck: it sits beside that library, below every folder, so sim/ and host/ (which may
// include only model/, and model/ only the standard library) can both use it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace deskcheck {

struct JsonTextError {
    std::string pointer;  // RFC 6901 pointer of what is wrong; "" when it is the text as a whole
    std::string message;  // "duplicate key \"step\"", "truncated or invalid JSON at byte 9: ..."
};

// `duplicate key "step" at /step`; a whole-text error is its message alone.
inline std::string to_string(const JsonTextError& e) {
    return e.pointer.empty() ? e.message : e.message + " at " + e.pointer;
}

namespace strict_json_detail {

inline constexpr std::size_t literal_bytes_max = 60;
inline constexpr std::size_t detail_bytes_max = 160;

}  // namespace strict_json_detail

// A string for an error message: JSON-quoted (control bytes escaped, invalid UTF-8 as U+FFFD),
// at most 60 bytes of it (then "...").
inline std::string json_message_literal(std::string_view text) {
    const bool cut = text.size() > strict_json_detail::literal_bytes_max;
    const nlohmann::json literal = std::string(cut ? text.substr(0, strict_json_detail::literal_bytes_max) : text);
    return literal.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + (cut ? "..." : "");
}

// RFC 6901: "~" and "/" inside a key are escaped.
inline std::string json_pointer_token(std::string_view key) {
    std::string out;
    out.reserve(key.size());
    for (const char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

namespace strict_json_detail {

// Follows the parser's events to know the pointer of each key; records the first duplicate key.
// Memory: one frame per open object or array, linear in the text.
class DuplicateKeyWatch {
public:
    template <class Json>
    void on_event(typename Json::parse_event_t event, const Json& parsed) {
        using E = typename Json::parse_event_t;
        switch (event) {
            case E::object_start: frames_.push_back(Frame{false, 0, {}, {}}); break;
            case E::array_start: frames_.push_back(Frame{true, 0, {}, {}}); break;
            case E::key:
                if (parsed.is_string()) on_key(parsed.template get_ref<const std::string&>());
                break;
            case E::value: child_done(); break;
            case E::object_end:
            case E::array_end:
                if (!frames_.empty()) frames_.pop_back();
                child_done();
                break;
        }
    }
    const std::optional<JsonTextError>& duplicate() const { return duplicate_; }

private:
    struct Frame {
        bool is_array = false;
        std::size_t index = 0;
        std::string key;
        std::set<std::string, std::less<>> keys;
    };

    void on_key(const std::string& key) {
        if (frames_.empty()) return;
        Frame& frame = frames_.back();
        frame.key = key;
        if (frame.keys.insert(key).second || duplicate_) return;
        duplicate_ = JsonTextError{current_pointer(), "duplicate key " + json_message_literal(key)};
    }
    void child_done() {
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
    }
    std::string current_pointer() const {
        std::string pointer;
        for (const auto& frame : frames_) {
            pointer += "/" + (frame.is_array ? std::to_string(frame.index) : json_pointer_token(frame.key));
        }
        return pointer;
    }

    std::vector<Frame> frames_;
    std::optional<JsonTextError> duplicate_;
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." -> the part
// after the location (the message gives a byte offset instead), cut short, with the bytes that
// are not printable ASCII (invalid UTF-8 included) written as \xNN.
inline std::string parse_error_detail(const std::string& what) {
    const auto colon = what.find(": ");
    const std::string_view detail = colon == std::string::npos ? std::string_view(what) : std::string_view(what).substr(colon + 2);
    constexpr std::string_view hex = "0123456789abcdef";
    std::string out;
    std::size_t used = 0;
    for (; used < detail.size() && out.size() < detail_bytes_max; ++used) {
        const auto byte = static_cast<unsigned char>(detail[used]);
        if (byte >= 0x20 && byte < 0x7f) {
            out += static_cast<char>(byte);
        } else {
            out += "\\x";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        }
    }
    return used < detail.size() ? out + "..." : out;
}

}  // namespace strict_json_detail

// The JSON value of `text`, or what is wrong with it (see the top of this file). `Json` is
// nlohmann::json or nlohmann::ordered_json.
template <class Json = nlohmann::json>
std::variant<Json, JsonTextError> parse_json_strict(std::string_view text) {
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        return JsonTextError{"", "a NUL byte at byte " + std::to_string(nul + 1) + " (not JSON text)"};
    }
    strict_json_detail::DuplicateKeyWatch watch;
    try {
        Json parsed = Json::parse(text, [&watch](int, typename Json::parse_event_t event, Json& value) {
            watch.on_event<Json>(event, value);
            return true;
        });
        if (watch.duplicate()) return *watch.duplicate();
        return parsed;
    } catch (const typename Json::parse_error& e) {
        return JsonTextError{"", "truncated or invalid JSON at byte " + std::to_string(e.byte) + ": " +
                                     strict_json_detail::parse_error_detail(e.what())};
    } catch (const typename Json::exception& e) {  // a number out of range, ...
        return JsonTextError{"", std::string("unreadable JSON: ") + e.what()};
    }
}

}  // namespace deskcheck
