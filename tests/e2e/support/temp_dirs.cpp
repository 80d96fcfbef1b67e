// Each test's scratch directories, removed when the run passed; a failed
// run keeps them (and says where) so that its files can be read.
#include "process.hpp"

// The listener types are behind this switch in Catch2 2.x.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace {

std::mutex dirs_mutex;
std::vector<std::string> &made_dirs() {
    static std::vector<std::string> dirs;
    return dirs;
}

// CMDBENCH_KEEP_TEST_DIRS=1 keeps them after a passing run too.
bool keep_always() {
    const char *v = std::getenv("CMDBENCH_KEEP_TEST_DIRS");
    return v && *v && std::string(v) != "0";
}

struct TempDirCleaner : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testRunEnded(const Catch::TestRunStats &stats) override {
        std::lock_guard<std::mutex> lock(dirs_mutex);
        const bool failed = stats.totals.assertions.failed > 0 || stats.aborting;
        for (const auto &d : made_dirs()) {
            if (failed || keep_always()) {
                std::fprintf(stderr, "e2e: kept %s\n", d.c_str());
                continue;
            }
            std::error_code ec; // a server still writing there: best effort
            std::filesystem::remove_all(d, ec);
        }
        made_dirs().clear();
    }
};
CATCH_REGISTER_LISTENER(TempDirCleaner)

} // namespace

std::string temp_dir() {
    char tmpl[] = "/tmp/cmdbench-e2e-XXXXXX";
    const char *d = mkdtemp(tmpl);
    if (!d) FAIL("mkdtemp /tmp/cmdbench-e2e-XXXXXX failed");
    std::lock_guard<std::mutex> lock(dirs_mutex);
    made_dirs().push_back(d);
    return d;
}
