// Multi-rail runs (scenario key `rails`, docs/scenarios.md): each rail alone,
// then every rail at once, over real TCP on loopback (rails here differ in a
// transport parameter; on a cluster they differ in address or device).
#include "process.hpp"
#include "results_doc.hpp"
#include "serve_fixture.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

using Catch::Contains;
using nlohmann::json;

namespace {

const char *kTwoRails = R"([[run]]
name = "bw"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 0.5
rails = [{label = "a", buffer_size = 262144}, {label = "b", buffer_size = 524288}]
)";

} // namespace

TEST_CASE("rails: each rail alone, then both at once, with rows that add them up") {
    const auto r =
        run_process({cmdbench_exe(), "run", write_scenario(temp_dir(), "rails.toml", kTwoRails),
                     "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // Each rail's local server ends when its rail is done, quietly: not by
    // the signal it gets when the thread that started it ends.
    CHECK_THAT(r.err, !Contains("SIGTERM"));
    const json doc = json::parse(r.out);
    const json &runs = doc["runs"];
    REQUIRE(runs.size() == 3);
    CHECK(runs[0]["name"] == "bw @a");
    CHECK(runs[0]["variant"] == "tcp@a");
    CHECK(runs[0]["params"]["buffer_size"] == "262144");
    CHECK(runs[1]["variant"] == "tcp@b");
    CHECK(runs[1]["params"]["buffer_size"] == "524288");
    const json &all = runs[2];
    CHECK(all["variant"] == "tcp@all");
    CHECK(all["status"] == "ok");

    // Both rails ran, at the same time.
    const json &rails = all["rails"];
    REQUIRE(rails.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(rails[i]["status"] == "ok");
        CHECK(rails[i]["path"]["client"]["interface"]["name"] == "lo");
    }
    const double a0 = rails[0]["start_seconds"], a1 = a0 + rails[0]["wall_seconds"].get<double>();
    const double b0 = rails[1]["start_seconds"], b1 = b0 + rails[1]["wall_seconds"].get<double>();
    CHECK(std::min(a1, b1) - std::max(a0, b0) > 0.3); // 0.5 s of streaming each
    CHECK(all["rails_overlap_seconds"].get<double>() ==
          Approx(std::min(a1, b1) - std::max(a0, b0)));

    // Each rail's row, then the total under the row's own name.
    const json &rows = all["rows"];
    REQUIRE(rows.size() == 3);
    CHECK(rows[0]["name"] == "a/64k");
    CHECK(rows[1]["name"] == "b/64k");
    CHECK(rows[2]["name"] == "64k");
    CHECK(metric(rows[0], "Gb/sec") > 0);
    CHECK(metric(rows[1], "Gb/sec") > 0);
    CHECK(metric(rows[2], "Gb/sec") ==
          Approx(metric(rows[0], "Gb/sec") + metric(rows[1], "Gb/sec")));
    CHECK(metric(rows[2], "total") == metric(rows[0], "total") + metric(rows[1], "total"));
    // A size is not a sum: the total row leaves it out.
    CHECK_FALSE(rows[2]["metrics"].contains("bytes"));

    // The effective scenario keeps the rails, labels included.
    CHECK_THAT(doc["context"]["scenario"]["text"].get<std::string>(),
               Contains("rails = [{label = \"a\", buffer_size = 262144}"));
}

TEST_CASE("rails: the table and the HTML report say when and where each rail ran") {
    const std::string html = temp_dir() + "/rails.html";
    const auto r =
        run_process({cmdbench_exe(), "run", write_scenario(temp_dir(), "rails.toml", kTwoRails),
                     "-q", "--report", html});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("== bw @a:") && Contains("== bw @b:") &&
                          Contains("== bw @all rails:") && Contains("\nrail a: ok, ran 0.") &&
                          Contains("\nrail b: ok, ran 0.") &&
                          Contains("rows without a rail label add the rails up") &&
                          Contains("\na/64k ") && Contains("tcp@all"));
    // The data path table: each rail of the all-rails run on a line.
    CHECK_THAT(read_file(html), Contains("<td>bw @all rails (rail a)</td><td>lo ") &&
                                    Contains("<td>bw @all rails (rail b)</td><td>lo "));
}

TEST_CASE("rails: a rail that fails fails the all-rails run, naming the rail") {
    const std::string text = R"([[run]]
name = "bw"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 0.2
timeout = 20
rails = [{label = "good", buffer_size = 262144}, {label = "dead", server = "127.0.0.1:1"}]
)";
    const auto r =
        run_process({cmdbench_exe(), "run", write_scenario(temp_dir(), "rails.toml", text),
                     "--format", "json"});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    const json runs = json::parse(r.out)["runs"];
    REQUIRE(runs.size() == 3);
    CHECK(runs[0]["status"] == "ok");
    CHECK(runs[1]["status"] == "failed");
    CHECK(runs[2]["status"] == "failed");
    CHECK_THAT(runs[2]["error"].get<std::string>(), Contains("rail dead: "));
    CHECK(runs[2]["rails"][0]["status"] == "ok");
    // The good rail's rows survive; no total without every rail.
    REQUIRE(runs[2]["rows"].size() == 1);
    CHECK(runs[2]["rows"][0]["name"] == "good/64k");
}

TEST_CASE("rails: bad rails are scenario errors with their position") {
    struct Case {
        const char *rails;
        const char *message;
    };
    const Case cases[] = {
        {"rails = [{label = \"a\", buffer_size = 1024}]", ":8:9: 'rails' needs at least 2 rails"},
        {"rails = [{buffer_size = 1024}, {bufer_size = 2}]",
         ":8:33: unknown key 'bufer_size' in a rail of test 'throughput'"},
        {"rails = [{buffer_size = 1024}, {buffer_size = \"big\"}]",
         ":8:47: rail parameter 'buffer_size': expected an integer"},
        {"rails = [{label = \"x\", nodelay = true}, {label = \"x\", nodelay = false}]",
         "two rails are labelled \"x\""},
        {"rails = [{label = \"x\"}, {label = \"y\", nodelay = false}]",
         "rail 1 sets nothing that puts the run on it"},
        {"rails = \"all\"", ":8:9: rails = \"all\" puts each rail's address in bind_address, "
                            "which test 'throughput' does not have"},
        {"rails = \"some\"", "'rails' expects \"all\" or an array of tables"},
        {"rails = [1, 2]", "'rails' element 1 expects a table, got an integer"},
    };
    for (const Case &c : cases) {
        const std::string text = std::string("[[run]]\nname = \"bw\"\ntest = \"throughput\"\n"
                                             "transport = \"tcp\"\nsizes = [65536]\n"
                                             "duration = 0.2\ntimeout = 20\n") +
                                 c.rails + "\n";
        const auto r =
            run_process({cmdbench_exe(), "run", write_scenario(temp_dir(), "rails.toml", text)});
        INFO(c.rails << "\n" << r.err);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains(c.message));
        CHECK(r.out.empty());
    }
}

TEST_CASE("rails: not in [defaults], not from --set") {
    auto r =
        run_process({cmdbench_exe(), "run",
                     write_scenario(temp_dir(), "rails.toml",
                                    "[defaults]\nrails = \"all\"\n[[run]]\ntest = \"throughput\"\n"
                                    "transport = \"tcp\"\n")});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(":2:1: 'rails' is set in a run, not in [defaults]"));
    r = run_process({cmdbench_exe(), "run", write_scenario(temp_dir(), "rails.toml", kTwoRails),
                     "--set", "rails=all"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("'rails' cannot be set with --set"));
}

TEST_CASE("rails: against serve, each rail keeps its session, so --max-clients 2 serves 2 rails") {
    // Two names of one server (IPv4 and IPv6 loopback) stand for two rails'
    // addresses of a server on a node.
    ServeProcess server({"--bind", "127.0.0.1,::1", "--max-clients", "2"});
    const std::string port = std::to_string(server.port());
    const std::string text = R"([[run]]
name = "bw"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 0.3
timeout = 30
rails = [{server = "127.0.0.1:)" +
                             port + R"("}, {server = "[::1]:)" + port + R"("}]
)";
    const auto r =
        run_process({cmdbench_exe(), "run", write_scenario(temp_dir(), "rails.toml", text),
                     "--format", "json"});
    INFO(r.err << server.err());
    REQUIRE(r.exit_code == 0);
    const json runs = json::parse(r.out)["runs"];
    REQUIRE(runs.size() == 3);
    // Labelled by server when no address of theirs is bound.
    CHECK(runs[0]["name"] == "bw @127.0.0.1:" + port);
    CHECK(runs[1]["name"] == "bw @[::1]:" + port);
    CHECK(runs[2]["rails"][1]["path"]["client"]["address"] == "::1");
    CHECK(runs[2]["rails_overlap_seconds"].get<double>() > 0.1);
    CHECK_THAT(server.err(), !Contains("turned away"));
}
