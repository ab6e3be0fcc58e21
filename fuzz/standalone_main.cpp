// The replay program every fuzz target links when it is not built against libFuzzer
// (DESKCHECK_FUZZ=OFF, any compiler): runs LLVMFuzzerTestOneInput once over each file named on the
// command line, and over every regular file of each folder named (sorted by name, not recursive).
// Arguments starting with '-' are libFuzzer options and are ignored, so the same command line works
// for both builds. A failing input aborts inside the target (the report is on stderr); an input
// that decodes to nothing (-1) is counted as rejected. Exit: 0 when every input ran, 2 when there
// was nothing to run or a path could not be read.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

constexpr std::size_t files_per_folder_max = 1'000'000;

struct Tally {
    std::size_t ran = 0;
    std::size_t rejected = 0;
    std::size_t unreadable = 0;
};

bool read_file(const fs::path& path, std::vector<std::uint8_t>& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

void run_file(const fs::path& path, Tally& tally) {
    std::vector<std::uint8_t> bytes;
    if (!read_file(path, bytes)) {
        std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
        ++tally.unreadable;
        return;
    }
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    // A copy of exactly the input's size, so that ASan sees any read past its end.
    std::vector<std::uint8_t> exact(bytes.begin(), bytes.end());
    if (LLVMFuzzerTestOneInput(exact.data(), exact.size()) == -1) ++tally.rejected;
    ++tally.ran;
}

std::vector<fs::path> files_in(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end && files.size() < files_per_folder_max; it.increment(ec)) {
        if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    Tally tally;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (!arg.empty() && arg.front() == '-') continue;
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const auto& file : files_in(arg)) run_file(file, tally);
        } else {
            run_file(arg, tally);
        }
    }
    std::fprintf(stderr, "replay: %zu inputs ran, %zu rejected as decoding to nothing, %zu unreadable\n", tally.ran,
                 tally.rejected, tally.unreadable);
    return tally.ran == 0 || tally.unreadable != 0 ? 2 : 0;
}
