// Reading journal lines back (model/journal.h's format) for recovery from the journal alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/journal.h"

namespace deskcheck::host {

struct EntryOrError {
    std::optional<JournalEntry> entry;
    std::string error;  // what is wrong, when !entry
};
EntryOrError parse_journal_line(const std::string& line);
std::optional<std::string> from_hex(const std::string& hex);

// Every line parsed; the first bad one gives "line N: why".
struct EntriesOrError {
    std::vector<JournalEntry> entries;
    std::string error;
};
EntriesOrError parse_journal(const std::vector<std::string>& lines);

}  // namespace deskcheck::host
