// The one JSON reader of the JSON inputs deskcheck takes (scenario files, R0 fixtures, journal
// lines, adapter answers, observation snapshots, mutate-rules' explained.json): the text is
// parsed by nlohmann/json's SAX parser into the same value its DOM parser gives, and refused when
// it holds
//   - a duplicate key in any object (nlohmann/json would keep the last one silently, so two
//     readers of the same text could disagree): the error names the key and its JSON pointer;
//   - a NUL byte (nlohmann/json takes one for the end of the input and ignores what follows);
//   - anything that is not JSON text (the byte offset and the parser's reason).
// Never throws, not even inside (a refused text costs no unwinding). Header-only, like
// nlohmann/json itself, and it includes nothing of deskcheck: it sits beside that library, below
// every folder, so sim/ and host/ (which may include only model/, and model/ only the standard
// library) can both use it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
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

// A SAX handler that builds the value as nlohmann/json's own DOM parser does, refuses the first
// duplicate key (the object being built already holds it) with the key's JSON pointer, and keeps
// the parser's error instead of throwing it: no exception on any input, however invalid (an
// exception per refused line made the readers slow, fuzz_journal above all). Memory: the value and
// one pointer per open object or array, linear in the text.
template <class Json>
class StrictSax {
public:
    using number_integer_t = typename Json::number_integer_t;
    using number_unsigned_t = typename Json::number_unsigned_t;
    using number_float_t = typename Json::number_float_t;
    using string_t = typename Json::string_t;
    using binary_t = typename Json::binary_t;

    bool null() { return add(nullptr); }
    bool boolean(bool v) { return add(v); }
    bool number_integer(number_integer_t v) { return add(v); }
    bool number_unsigned(number_unsigned_t v) { return add(v); }
    bool number_float(number_float_t v, const string_t&) { return add(v); }
    bool string(string_t& v) { return add(std::move(v)); }
    bool binary(binary_t& v) { return add(Json::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(Json::value_t::object); }
    bool start_array(std::size_t) { return open(Json::value_t::array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(string_t& k) {
        Json& object = *stack_.back();
        keys_.back() = k;
        if (object.contains(k)) {
            error_ = JsonTextError{pointer(), "duplicate key " + json_message_literal(k)};
            return false;
        }
        slot_ = &object[k];
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const typename Json::exception& e) {
        error_ = JsonTextError{"", "truncated or invalid JSON at byte " + std::to_string(position) + ": " + parse_error_detail(e.what())};
        return false;
    }

    Json& root() { return root_; }
    const std::optional<JsonTextError>& error() const { return error_; }

private:
    template <class V>
    bool add(V&& v) {
        place(Json(std::forward<V>(v)));
        return true;
    }
    Json* place(Json&& v) {
        if (stack_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Json& parent = *stack_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        *slot_ = std::move(v);
        return slot_;
    }
    bool open(typename Json::value_t type) {
        stack_.push_back(place(Json(type)));
        keys_.emplace_back();
        return true;
    }
    bool close() {
        stack_.pop_back();
        keys_.pop_back();
        return true;
    }
    // The pointer of the key being read: each open array by the index of the element being built,
    // each open object by its current key.
    std::string pointer() const {
        std::string out;
        for (std::size_t i = 0; i < stack_.size(); ++i) {
            out += "/" + (stack_[i]->is_array() ? std::to_string(stack_[i]->size() - 1) : json_pointer_token(keys_[i]));
        }
        return out;
    }

    Json root_;
    std::vector<Json*> stack_;       // the open objects and arrays, outermost first
    std::vector<string_t> keys_;     // the current key of each (unused for an array)
    Json* slot_ = nullptr;           // where the value after the last key goes
    std::optional<JsonTextError> error_;
};

}  // namespace strict_json_detail

// The JSON value of `text`, or what is wrong with it (see the top of this file). `Json` is
// nlohmann::json or nlohmann::ordered_json.
template <class Json = nlohmann::json>
std::variant<Json, JsonTextError> parse_json_strict(std::string_view text) {
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        return JsonTextError{"", "a NUL byte at byte " + std::to_string(nul + 1) + " (not JSON text)"};
    }
    strict_json_detail::StrictSax<Json> sax;
    const bool ok = Json::sax_parse(text, &sax);
    if (sax.error()) return *sax.error();
    if (!ok) return JsonTextError{"", "unreadable JSON"};
    return std::move(sax.root());
}

}  // namespace deskcheck
