// Reading inputs and writing outputs for every deskcheck command, by one rule each:
//  - an input is read with a bound (at most `bytes_max` + 1 bytes are ever read): a folder, a
//    missing file, an unreadable or an over-long one is one clear error naming the file;
//  - a file the CLI says it wrote exists, complete: it is written under a temporary name in the
//    same folder, flushed, closed, then renamed (or linked, when it must not replace anything);
//    every step is checked, and a failure is an error naming the path, never "written to";
//  - only a regular file is ever replaced: an existing target that is a device node, a FIFO,
//    a socket or a symbolic link (to anything) is refused, up front and again at the write, and
//    stays as it was; an output folder is a real folder, not a link to one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace deskcheck::cli {

// The infrastructure exit code of every command (an output that cannot be written, a child
// process that cannot be started): the same number as `deskcheck nightly`'s.
inline constexpr int exit_infrastructure = 5;
// Exit codes after SIGINT / SIGTERM stopped a command (128 + the signal, as a shell reports it).
inline constexpr int exit_interrupted_sigint = 130;
inline constexpr int exit_interrupted_sigterm = 143;

struct FileError {
    std::string message;  // "PATH: reason", one line
};

// The whole file, or an error: "FILE: no such file", "FILE: is a folder", "FILE: larger than N
// bytes", "FILE: cannot read it: <errno text>". Never reads more than bytes_max + 1 bytes. "-" is
// standard input, for every command that reads a file.
std::variant<std::string, FileError> read_input_file(const std::filesystem::path& file, std::size_t bytes_max);

// Makes `dir` (and its parents) a writable folder: an error when it names a regular file, cannot
// be created, or a file cannot be created in it.
std::optional<FileError> prepare_output_dir(const std::filesystem::path& dir);

// Checks, without creating anything, that `dir` could be made a writable folder: it is one (not a
// symbolic link), or its nearest existing ancestor is a folder deskcheck may write in. Commands check their --out
// before the work, and still check every write after it.
std::optional<FileError> check_output_dir(const std::filesystem::path& dir);
// The same for a file to be written (absent or a regular file, never followed if a link; its
// folder could be made).
std::optional<FileError> check_output_file(const std::filesystem::path& file);

// Writes `content` to `file` atomically (temporary name in the same folder, then rename over the
// regular file that was there, if any; anything else there is refused and left as it was, even
// when it appears during the write). The folder is created when missing.
std::optional<FileError> write_file_atomically(const std::filesystem::path& file, std::string_view content);

// Writes `content` to `file` atomically, but only if `file` does not exist yet (no replacement,
// even when two processes race for the same name): true in `taken` when a regular file has the
// name; an error when anything else has it.
std::optional<FileError> write_new_file(const std::filesystem::path& file, std::string_view content, bool& taken);

// A JSON document as text that never throws: invalid UTF-8 inside a string (a selection cut in
// the middle of a character, then typed into) is written as U+FFFD.
std::string dump_json(const nlohmann::ordered_json& j, int indent = 2);
std::string dump_json(const nlohmann::json& j, int indent = 2);

// The length of the valid UTF-8 character at text[i] (1..4), or 0 when the bytes there are not one
// (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, cut short).
std::size_t utf8_length(std::string_view text, std::size_t i);

// Text for one line of a terminal, always valid UTF-8: control bytes (NUL, ESC, CR, LF, ...) and
// bytes that are not UTF-8 as \xNN, and at most
// `bytes_max` bytes of the input (then "... (N bytes)").
inline constexpr std::size_t printable_bytes_max = 300;
std::string printable(std::string_view text, std::size_t bytes_max = printable_bytes_max);

// Text for one cell of a markdown table: `|` escaped (help --markdown, rules --markdown).
std::string markdown_cell(std::string_view text);

}  // namespace deskcheck::cli
