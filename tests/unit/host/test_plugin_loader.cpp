// The loader refuses every ABI violation with the file and the reason, and
// loads a good plugin. Fixtures: tests/fixtures/fixture_plugin.c.
#include "cmdbench/host/plugins/plugin_loader.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <unistd.h>

using namespace cmdbench;

namespace {

std::string fixture(const std::string &name) {
    return std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/" + name + ".so";
}

std::string refusal(const std::string &name) {
    try {
        load_plugin(fixture(name));
    } catch (const LoadError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("a good plugin loads with its test and params") {
    LoadedPlugin p = load_plugin(fixture("good"));
    REQUIRE(p.desc != nullptr);
    CHECK(std::string(p.desc->name) == "fixture");
    CHECK(std::string(p.desc->version) == "1.2.3");
    REQUIRE(p.desc->test_count == 1);
    CHECK(std::string(p.desc->tests[0]->name) == "noop");
    REQUIRE(p.desc->tests[0]->param_count == 1);
    CHECK(p.desc->tests[0]->params[0].max_int == 10);
}

TEST_CASE("a different ABI major is refused, naming the file and both versions") {
    std::string msg = refusal("major");
    CHECK_THAT(msg, Catch::StartsWith(fixture("major") + ": "));
    // The fixture is built for today's major + 1 (tests/fixtures).
    const std::string ours =
        std::to_string(CMDBENCH_ABI_MAJOR) + "." + std::to_string(CMDBENCH_ABI_MINOR);
    CHECK_THAT(msg,
               Catch::Contains("built for plugin ABI " + std::to_string(CMDBENCH_ABI_MAJOR + 1) +
                               "." + std::to_string(CMDBENCH_ABI_MINOR)));
    CHECK_THAT(msg, Catch::Contains("supports ABI " + std::to_string(CMDBENCH_ABI_MAJOR) +
                                    ".0 to " + ours));
}

TEST_CASE("a newer ABI minor is refused, naming both versions") {
    std::string msg = refusal("newer_minor");
    CHECK_THAT(msg, Catch::StartsWith(fixture("newer_minor") + ": "));
    // The fixture is built for today's minor + 1 (tests/fixtures).
    CHECK_THAT(msg, Catch::Contains("built for plugin ABI " + std::to_string(CMDBENCH_ABI_MAJOR) +
                                    "." + std::to_string(CMDBENCH_ABI_MINOR + 1) +
                                    ", newer than this cmdbench's ABI " +
                                    std::to_string(CMDBENCH_ABI_MAJOR) + "." +
                                    std::to_string(CMDBENCH_ABI_MINOR)));
}

TEST_CASE("a struct smaller than its required fields is refused") {
    std::string msg = refusal("small_test");
    CHECK_THAT(msg, Catch::Contains("test #0 has struct_size 8, smaller than the"));
}

TEST_CASE("a shared object without the entry point is refused") {
    std::string msg = refusal("no_entry");
    CHECK_THAT(msg, Catch::StartsWith(fixture("no_entry") + ": "));
    CHECK_THAT(msg, Catch::Contains("no cmdbench_plugin_entry entry point"));
}

TEST_CASE("a file that is not a shared object is refused") {
    std::string msg = refusal("not_elf");
    CHECK_THAT(msg, Catch::StartsWith(fixture("not_elf") + ": not a loadable shared object"));
}

TEST_CASE("a parameter default outside its own range is refused") {
    std::string msg = refusal("bad_default");
    CHECK_THAT(msg, Catch::Contains("test 'noop' param 'count' default \"0\""));
}

TEST_CASE("two plugins registering the same test name is an error naming both files") {
    Registry registry;
    auto failures = load_plugins(registry, {fixture("good"), fixture("dup")}, true);
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].reason ==
          "test 'noop' is registered by both " + fixture("good") + " and " + fixture("dup"));
    CHECK(registry.find_test("noop") != nullptr);
}

TEST_CASE("two plugins of one name are refused, naming both files and versions") {
    Registry registry;
    auto failures = load_plugins(registry, {fixture("good"), fixture("same_name")}, true);
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].file == fixture("same_name"));
    CHECK(failures[0].reason == "plugin 'fixture' is registered by both " + fixture("good") +
                                    " (version 1.2.3) and " + fixture("same_name") +
                                    " (version 0.9)");
    CHECK(registry.plugins().size() == 1);
    CHECK(registry.find_test("noop-later") == nullptr);
}

TEST_CASE("loading the same file twice registers it once") {
    Registry registry;
    auto failures = load_plugins(registry, {fixture("good"), fixture("good")}, true);
    CHECK(failures.empty());
    CHECK(registry.plugins().size() == 1);
}

TEST_CASE("a missing path named by the user is an error, a missing default dir is not") {
    Registry registry;
    CHECK(load_plugins(registry, {"/nonexistent/plugins"}, false).empty());
    auto failures = load_plugins(registry, {"/nonexistent/plugins"}, true);
    REQUIRE(failures.size() == 1);
    CHECK_THAT(failures[0].reason,
               Catch::Contains("/nonexistent/plugins: no such plugin file or directory"));
}

TEST_CASE(
    "a directory's .so files without the entry point are skipped once, and its plugins load") {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("cmdbench-loader-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char *name :
         {"good", "no_entry", "helper_missing_dep", "plugin_missing_dep", "not_elf"})
        fs::copy_file(fixture(name), dir / (std::string(name) + ".so"));
    Registry registry;
    std::vector<LoadSkip> skipped;
    // The directory twice, as when it is both on the default path and named.
    auto failures = load_plugins(registry, {dir.string(), dir.string()}, true, &skipped);
    REQUIRE(skipped.size() == 2);
    CHECK(skipped[0].file == (dir / "helper_missing_dep.so").string());
    CHECK(skipped[1].file == (dir / "no_entry.so").string());
    CHECK(skip_warning(skipped[1]) ==
          "warning: skipping " + skipped[1].file +
              ": it does not export cmdbench_plugin_entry, so it is not a cmdbench plugin "
              "(helper libraries belong in a subdirectory, which is not searched, found through "
              "the plugin's RUNPATH, e.g. $ORIGIN/lib; a plugin must export the entry point)");
    // One with the entry point that does not load, and one whose symbols
    // cannot be read, are refused (twice: the directory came twice).
    REQUIRE(failures.size() == 4);
    CHECK_THAT(failures[0].reason, Catch::Contains("not_elf.so: not a loadable shared object"));
    CHECK_THAT(failures[1].reason, Catch::Contains("plugin_missing_dep.so: not a loadable shared "
                                                   "object: libfixturedep.so"));
    CHECK(registry.find_test("noop") != nullptr);

    // Named directly, a file is meant as a plugin: no entry point is refused.
    Registry named;
    skipped.clear();
    failures = load_plugins(named, {(dir / "no_entry.so").string()}, true, &skipped);
    CHECK(skipped.empty());
    REQUIRE(failures.size() == 1);
    CHECK_THAT(failures[0].reason, Catch::Contains("no cmdbench_plugin_entry entry point"));
    fs::remove_all(dir);
}
