// The loader refuses every ABI violation with the file and the reason, and
// loads a good plugin. Fixtures: tests/fixtures/fixture_plugin.c.
#include "plugin_loader.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>

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
    CHECK_THAT(failures[0].reason, Catch::Contains("good.so"));
    CHECK_THAT(failures[0].reason, Catch::Contains("dup.so"));
    CHECK(registry.find_test("noop") != nullptr);
}

TEST_CASE("loading the same file twice registers it once") {
    Registry registry;
    auto failures = load_plugins(registry, {fixture("good"), fixture("good")}, true);
    CHECK(failures.empty());
    CHECK(registry.plugins().size() == 1);
}

TEST_CASE("a missing path named by the user is an error; a missing default dir is not") {
    Registry registry;
    CHECK(load_plugins(registry, {"/nonexistent/plugins"}, false).empty());
    auto failures = load_plugins(registry, {"/nonexistent/plugins"}, true);
    REQUIRE(failures.size() == 1);
    CHECK_THAT(failures[0].reason,
               Catch::Contains("/nonexistent/plugins: no such plugin file or directory"));
}
