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
// `desktop`: this process has a desktop port, so the before-states of UI steps (ui.type, ui.move,
// ui.invoke) are read too (the in-process crash recovery of the R0 campaign). Without it — a
// recovery on a real folder, `deskcheck r0 recover` — a UI line is an error: it could not be undone.
EntryOrError parse_journal_line(const std::string& line, bool desktop = false);
std::optional<std::string> from_hex(const std::string& hex);

// Every line parsed; the first bad one gives "line N: why".
struct EntriesOrError {
    std::vector<JournalEntry> entries;
    std::string error;
};
EntriesOrError parse_journal(const std::vector<std::string>& lines, bool desktop = false);

}  // namespace deskcheck::host
