// Decoding one answer line of an R0 adapter (harness/r0_adapter_answer.h).
#include "harness/r0_adapter_answer.h"

#include <variant>

#include "json/strict_parse.h"

namespace deskcheck::r0 {

nlohmann::ordered_json decode_adapter_answer(std::string_view line, std::string& why) {
    using Json = nlohmann::ordered_json;
    auto parsed = parse_json_strict<Json>(line);
    if (const auto* bad = std::get_if<JsonTextError>(&parsed)) {
        why = bad->pointer.empty() ? "is not a JSON object" : "has a " + to_string(*bad);
        return Json(Json::value_t::discarded);
    }
    Json& answer = std::get<Json>(parsed);
    if (!answer.is_object()) {
        why = "is not a JSON object";
        return Json(Json::value_t::discarded);
    }
    why.clear();
    return std::move(answer);
}

}  // namespace deskcheck::r0
