#include "cmdbench/host/run/token_source.hpp"

#include "cmdbench/report/input_file.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>

namespace cmdbench {
namespace {

// A token is a line of random text; anything near a KiB is not a token file.
constexpr size_t kMaxTokenFileBytes = 4096;

// "read and write" for the bits of one class (rwx shifted down to 0-7).
std::string access_words(unsigned bits) {
    std::string out;
    const auto add = [&](unsigned bit, const char *word) {
        if (!(bits & bit)) return;
        out += (out.empty() ? "" : " and ") + std::string(word);
    };
    add(4, "read");
    add(2, "write");
    add(1, "execute");
    return out;
}

// What the group and other bits of a token file allow, in words: a file
// its group can write is a different problem from one others can read.
std::string mode_problem(mode_t mode) {
    const std::string group = access_words((mode & S_IRWXG) >> 3);
    const std::string other = access_words(mode & S_IRWXO);
    if (group == other) return "its group and other users can " + group + " it";
    std::string out;
    if (!group.empty()) out = "its group can " + group + " it";
    if (!other.empty())
        out += (out.empty() ? "" : ", ") + std::string("other users can ") + other + " it";
    return out;
}

std::string read_token_file(const std::string &path) {
    Expected<std::string> read = read_input_file(path, kMaxTokenFileBytes);
    if (!read) throw std::invalid_argument("--token-file: '" + path + "': " + read.error());
    std::string token = std::move(*read);
    // `echo secret > FILE` leaves a line end that is not part of the secret.
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r'))
        token.pop_back();
    if (token.empty()) throw std::invalid_argument("--token-file: '" + path + "' is empty");
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)))
        std::fprintf(stderr, "cmdbench: warning: token file %s has mode %04o: %s (chmod 600 it)\n",
                     path.c_str(), unsigned(st.st_mode & 07777), mode_problem(st.st_mode).c_str());
    return token;
}

} // namespace

std::string resolve_token(const std::optional<std::string> &token_option,
                          const std::optional<std::string> &file_option) {
    if (token_option && file_option)
        throw std::invalid_argument("give either --token or --token-file, not both");
    std::string token, source;
    if (file_option) {
        token = read_token_file(*file_option);
        source = "the token in " + *file_option;
    } else if (token_option) {
        token = *token_option;
        source = "--token";
    } else if (const char *env = std::getenv(kTokenEnv)) {
        token = env; // set but empty: no token
        source = kTokenEnv;
    }
    if (!token.empty() && token.size() < kMinTokenLength)
        throw std::invalid_argument(source + " has " + std::to_string(token.size()) +
                                    " characters; use at least " + std::to_string(kMinTokenLength) +
                                    " random ones, e.g. head -c 32 /dev/urandom | base64 > FILE");
    if (token_option && token.empty()) throw std::invalid_argument("--token is empty");
    return token;
}

} // namespace cmdbench
