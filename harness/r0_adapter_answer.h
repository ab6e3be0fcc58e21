// Decoding one answer line of an R0 adapter (R-8, schema/r0-adapter-1.schema.json): pure, no
// process, so the fuzz target fuzz_journal links it. harness/r0_real.cpp reads every answer
// through it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace deskcheck::r0 {

// The answer as a JSON object, or a discarded value with `why` set: "is not a JSON object" (not
// JSON text, or JSON but not an object), "has a duplicate key "executed" at /executed" (the strict
// reader, json/strict_parse.h: a duplicate key is never resolved silently, last or first).
nlohmann::ordered_json decode_adapter_answer(std::string_view line, std::string& why);

}  // namespace deskcheck::r0
