// A unit test's scratch directory, removed with everything in it at the
// end of the test; and how many entries a directory holds (to see that
// nothing was left behind).
#pragma once
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

struct ScratchDir {
    std::string path;
    explicit ScratchDir(const char *prefix = "cmdbench-unit") {
        std::string tmpl = std::string("/tmp/") + prefix + "-XXXXXX";
        const char *d = mkdtemp(tmpl.data());
        REQUIRE(d != nullptr);
        path = d;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;
};

inline size_t entry_count(const std::string &dir) {
    size_t n = 0;
    for (auto it = std::filesystem::directory_iterator(dir);
         it != std::filesystem::directory_iterator(); ++it)
        ++n;
    return n;
}
