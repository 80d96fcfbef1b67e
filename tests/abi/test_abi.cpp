// Plugin ABI compatibility through the real binary: plugins built against
// frozen older headers load and run, one built for the next minor is
// refused naming both versions, and shipped plugins export nothing but
// their entry point.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> frozen_tags() {
    std::vector<std::string> tags;
    std::stringstream in(ABI_FROZEN_TAGS);
    for (std::string tag; std::getline(in, tag, ',');)
        if (!tag.empty()) tags.push_back(tag);
    return tags;
}

std::string probe_plugin(const std::string &tag) {
    return std::string(ABI_PLUGIN_DIR) + "/abi-probe-" + tag + ".so";
}

std::string current_version() {
    return std::to_string(CMDBENCH_ABI_MAJOR) + "." + std::to_string(CMDBENCH_ABI_MINOR);
}

std::string next_version() {
    return std::to_string(CMDBENCH_ABI_MAJOR) + "." + std::to_string(CMDBENCH_ABI_MINOR + 1);
}

double metric(const json &row, const char *key) {
    return row.at("metrics").at(key).at("value").get<double>();
}

// The names `nm -D --defined-only` lists for a shared object.
} // namespace

TEST_CASE("a plugin built against each released minor's frozen header loads and runs") {
    const auto tags = frozen_tags();
    REQUIRE_FALSE(tags.empty()); // at least tests/abi/1.0
    for (const std::string &tag : tags) {
        INFO("frozen ABI " << tag);
        const std::string file = probe_plugin(tag);
        ProcessResult listing =
            run_process({cmdbench_exe(), "plugins", "--json", "--plugin-dir", file}, 60);
        INFO(listing.out << listing.err);
        REQUIRE(listing.exit_code == 0);
        CHECK_THAT(listing.out, Catch::Contains("\"abi-probe-" + tag + "\""));
        CHECK_THAT(listing.out, Catch::Contains("\"tcp-abi-" + tag + "\""));

        const std::string scenario = temp_dir() + "/abi.toml";
        std::ofstream(scenario) << "[[run]]\ntest = \"abi-probe-" << tag
                                << "\"\necho = 42\n"
                                   "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp-abi-"
                                << tag << "\"\nsizes = [64, 4096]\niterations = 50\n";
        ProcessResult r = run_process(
            {cmdbench_exe(), "run", scenario, "--format", "json", "--plugin-dir", file}, 120);
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        json doc = json::parse(r.out);
        REQUIRE(doc["runs"].size() == 2);
        for (const auto &run : doc["runs"])
            CHECK(run["status"] == "ok");

        bool listed = false;
        for (const auto &p : doc["context"]["plugins"])
            if (p["file"] == file) {
                listed = true;
                std::string abi = p["abi"].get<std::string>();
                CHECK(abi == tag.substr(0, tag.find('-')) + "." + tag.substr(tag.find('-') + 1));
            }
        CHECK(listed);

        // The host gives an old plugin today's tables: at least as large as
        // what it was compiled with, and announces today's version.
        const json &row = doc["runs"][0]["rows"].at(0);
        CHECK(metric(row, "host_abi_major") == CMDBENCH_ABI_MAJOR);
        CHECK(metric(row, "host_abi_minor") == CMDBENCH_ABI_MINOR);
        CHECK(metric(row, "host_struct_size") == sizeof(cmdbench_host));
        CHECK(metric(row, "host_struct_size") >= metric(row, "built_host_size"));
        CHECK(metric(row, "env_struct_size") >= metric(row, "built_env_size"));
        CHECK(metric(row, "built_abi_minor") <= CMDBENCH_ABI_MINOR);
        CHECK(metric(row, "echo") == 42);

        // Today's stream test ran over the old transport table.
        const json &rows = doc["runs"][1]["rows"];
        REQUIRE(rows.size() == 2);
        CHECK(metric(rows[0], "iters") == 50);
    }
}

TEST_CASE("a plugin built for the next minor is refused, naming both versions") {
    const std::string file = probe_plugin("next");
    const std::string expected = "built for plugin ABI " + next_version() +
                                 ", newer than this cmdbench's ABI " + current_version();

    ProcessResult listing = run_process({cmdbench_exe(), "plugins", "--plugin-dir", file}, 60);
    INFO(listing.out << listing.err);
    CHECK(listing.exit_code != 0);
    CHECK_THAT(listing.out + listing.err, Catch::Contains(file));
    CHECK_THAT(listing.out + listing.err, Catch::Contains(expected));
    CHECK_THAT(listing.out, !Catch::Contains("abi-probe-next 0.0.1")); // not listed as loaded

    const std::string scenario = temp_dir() + "/next.toml";
    std::ofstream(scenario) << "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                               "sizes = [64]\niterations = 10\n";
    ProcessResult r = run_process({cmdbench_exe(), "run", scenario, "--plugin-dir", file}, 60);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2); // nothing ran
    CHECK_THAT(r.err, Catch::Contains(expected));
    CHECK_THAT(r.out, !Catch::Contains("64_lat"));
}

TEST_CASE("every shipped plugin exports its entry point alone") {
    const fs::path dir = fs::path(CMDBENCH_BINARY_DIR) / ABI_PLUGIN_SUBDIR;
    size_t checked = 0;
    for (const auto &entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".so") continue;
        INFO(entry.path().string());
        CHECK(exported_symbols(entry.path().string()) ==
              std::set<std::string>{CMDBENCH_ENTRY_SYMBOL});
        ++checked;
    }
    // tcp-socket and stream at least: an empty glob proves nothing.
    CHECK(checked >= 2);
}
