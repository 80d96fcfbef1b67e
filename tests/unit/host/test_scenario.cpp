// Scenario files and the name registry, against plugin descriptors declared
// here. The bad-input catalogue lives in tests/scenarios/bad: each NAME.toml
// has its exact error in NAME.expected and, optionally, --set lines in NAME.set.
#include "cmdbench/host/scenario/scenario.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace cmdbench;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kParamSize = sizeof(cmdbench_param);

const cmdbench_param pingpong_params[] = {
    {kParamSize, "sizes", CMDBENCH_PARAM_INT_LIST, "[64, 4096]", 1, 1073741824, 0, 0, nullptr,
     "message sizes"},
    {kParamSize, "port", CMDBENCH_PARAM_INT, "0", 0, 65535, 0, 0, nullptr, "data port"},
    {kParamSize, "verify", CMDBENCH_PARAM_BOOL, "false", 0, 0, 0, 0, nullptr, "check data"},
    {kParamSize, "mode", CMDBENCH_PARAM_STRING, "a", 0, 0, 0, 0, "a|b", "mode"},
};
const cmdbench_test pingpong = {
    sizeof(cmdbench_test), "pingpong", "round trips", CMDBENCH_TEST_USES_TRANSPORT, 4,
    pingpong_params,       nullptr};

// A test without a transport, with a required parameter.
const cmdbench_param steps_params[] = {
    {kParamSize, "count", CMDBENCH_PARAM_INT, nullptr, 1, 1000, 0, 0, nullptr, "connections"},
    {kParamSize, "rate", CMDBENCH_PARAM_DOUBLE, "1.5", 0, 0, 0.5, 100, nullptr, "per second"},
};
const cmdbench_test steps = {sizeof(cmdbench_test), "steps", "connection steps", 0, 2,
                             steps_params,          nullptr};

const cmdbench_param tcp_params[] = {
    {kParamSize, "buffer_size", CMDBENCH_PARAM_INT, "0", 0, 1 << 30, 0, 0, nullptr, "SO_SNDBUF"},
};
cmdbench_transport make_transport(const char *name, uint32_t count, const cmdbench_param *p) {
    cmdbench_transport t{};
    t.struct_size = sizeof t;
    t.name = name;
    t.description = "test transport";
    t.param_count = count;
    t.params = p;
    return t;
}
const cmdbench_transport tcp = make_transport("tcp", 1, tcp_params);
const cmdbench_transport loop = make_transport("loop", 0, nullptr);

const cmdbench_test *const stream_tests[] = {&pingpong};
const cmdbench_test *const cm_tests[] = {&steps};
const cmdbench_transport *const stream_transports[] = {&tcp, &loop};

cmdbench_plugin make_plugin(const char *name, uint32_t transports,
                            const cmdbench_transport *const *t, uint32_t tests,
                            const cmdbench_test *const *s) {
    return {sizeof(cmdbench_plugin),
            CMDBENCH_ABI_MAJOR,
            CMDBENCH_ABI_MINOR,
            name,
            "1.0",
            "test plugin",
            transports,
            t,
            tests,
            s};
}
const cmdbench_plugin stream_plugin = make_plugin("stream", 2, stream_transports, 1, stream_tests);
const cmdbench_plugin cm_plugin = make_plugin("cm", 0, nullptr, 1, cm_tests);

const Registry &registry() {
    static const Registry r = [] {
        Registry reg;
        reg.add({"/plugins/stream.so", &stream_plugin, nullptr});
        reg.add({"/plugins/cm.so", &cm_plugin, nullptr});
        return reg;
    }();
    return r;
}

Scenario parse(const std::string &text, const std::vector<std::string> &overrides = {}) {
    return parse_scenario(text, "s.toml", registry(), overrides);
}

// The ScenarioError text, or "<no error>".
std::string error_of(const std::string &text, const std::vector<std::string> &overrides = {}) {
    try {
        parse(text, overrides);
    } catch (const ScenarioError &e) {
        return e.what();
    }
    return "<no error>";
}

using List = std::vector<int64_t>;
using Params = std::map<std::string, ParamValue>;

const std::string kSource = CMDBENCH_SOURCE_DIR;

std::vector<std::string> lines_of(const fs::path &p) {
    std::vector<std::string> out;
    std::ifstream in(p);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

} // namespace

TEST_CASE("registry finds tests and transports and their files") {
    const Registry &r = registry();
    CHECK(r.find_test("pingpong") == &pingpong);
    CHECK(r.find_test("steps") == &steps);
    CHECK(r.find_test("tcp") == nullptr);
    CHECK(r.find_transport("tcp") == &tcp);
    CHECK(r.find_transport("loop") == &loop);
    CHECK(r.find_transport("pingpong") == nullptr);
    CHECK(r.file_of(&steps) == "/plugins/cm.so");
    CHECK(r.file_of(&tcp) == "/plugins/stream.so");
    CHECK(r.file_of(&pingpong_params) == "");
    CHECK(r.has_file("/plugins/cm.so"));
    CHECK_FALSE(r.has_file("/plugins/other.so"));
    CHECK(r.plugins().size() == 2);
}

TEST_CASE("registry rejects a name registered twice, naming both files") {
    Registry r;
    r.add({"/a/x.so", &stream_plugin, nullptr});
    const cmdbench_transport *const again[] = {&tcp};
    cmdbench_plugin transport_clash = make_plugin("other", 1, again, 0, nullptr);
    CHECK_THROWS_WITH(r.add({"/b/y.so", &transport_clash, nullptr}),
                      "transport 'tcp' is registered by both /a/x.so and /b/y.so");
    cmdbench_plugin test_clash = make_plugin("other", 0, nullptr, 1, stream_tests);
    CHECK_THROWS_WITH(r.add({"/b/z.so", &test_clash, nullptr}),
                      "test 'pingpong' is registered by both /a/x.so and /b/z.so");
    // A refused plugin is not half-added.
    CHECK(r.plugins().size() == 1);
    CHECK(r.file_of(&pingpong) == "/a/x.so");

    // Twice within one plugin is refused too.
    const cmdbench_test *const twice[] = {&steps, &steps};
    cmdbench_plugin self_clash = make_plugin("twice", 0, nullptr, 2, twice);
    CHECK_THROWS_WITH(r.add({"/c/t.so", &self_clash, nullptr}),
                      "test 'steps' is registered by both /c/t.so and /c/t.so");
    // A test and a transport may share a name.
    const cmdbench_test *const named_like_transport[] = {&steps};
    cmdbench_plugin ok = make_plugin("ok", 0, nullptr, 1, named_like_transport);
    CHECK_NOTHROW(r.add({"/c/ok.so", &ok, nullptr}));
    CHECK(r.plugins().size() == 2);
}

TEST_CASE("a minimal run gets every default") {
    Scenario s = parse("[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                       "[[run]]\ntest = \"steps\"\ncount = 3\n");
    CHECK(s.path == "s.toml");
    CHECK(s.name.empty());
    CHECK(s.plugins.empty());
    REQUIRE(s.runs.size() == 2);
    const RunSpec &a = s.runs[0];
    CHECK(a.name == "pingpong/tcp");
    CHECK(a.test == "pingpong");
    CHECK(a.transport == "tcp");
    CHECK(a.timeout_s == 60);
    CHECK(a.server.empty());
    CHECK(a.test_params == Params{{"sizes", List{64, 4096}},
                                  {"port", int64_t{0}},
                                  {"verify", false},
                                  {"mode", std::string("a")}});
    CHECK(a.transport_params == Params{{"buffer_size", int64_t{0}}});
    CHECK(a.group == "pingpong");
    CHECK(a.variant == "tcp");
    CHECK(a.repeat == 1);
    CHECK(a.compare.empty());
    const RunSpec &b = s.runs[1];
    CHECK(b.name == "steps");
    CHECK(b.transport.empty());
    CHECK(b.test_params == Params{{"count", int64_t{3}}, {"rate", 1.5}});
    CHECK(b.transport_params.empty());
    // Without a transport, the variant is the test.
    CHECK(b.group == "steps");
    CHECK(b.variant == "steps");
    CHECK(s.baseline == "tcp");
}

TEST_CASE("comparison keys from the run, [defaults] and --set") {
    const std::string text = R"(
[defaults]
group = "latency"
repeat = 2
compare = ["latency", "cpu"]
[[run]]
test = "pingpong"
transport = "tcp"
[[run]]
test = "pingpong"
transport = "loop"
group = "other"
variant = "loop-fast"
repeat = 1000
compare = "bandwidth"
[[run]]
test = "steps"
count = 1
compare = []
)";
    Scenario s = parse(text);
    REQUIRE(s.runs.size() == 3);
    CHECK(s.runs[0].group == "latency");
    CHECK(s.runs[0].variant == "tcp");
    CHECK(s.runs[0].repeat == 2);
    CHECK(s.runs[0].compare == std::vector<std::string>{"latency", "cpu"});
    CHECK(s.runs[1].group == "other");
    CHECK(s.runs[1].variant == "loop-fast");
    CHECK(s.runs[1].repeat == 1000);
    CHECK(s.runs[1].compare == std::vector<std::string>{"bandwidth"});
    CHECK(s.runs[2].group == "latency");
    CHECK(s.runs[2].variant == "steps");
    CHECK(s.runs[2].repeat == 2);
    CHECK(s.runs[2].compare.empty()); // an empty list compares everything

    // --set wins over both, bare words included.
    Scenario t = parse(text, {"repeat=3", "compare=steps", "variant=v"});
    for (const RunSpec &r : t.runs) {
        CHECK(r.repeat == 3);
        CHECK(r.compare == std::vector<std::string>{"steps"});
        CHECK(r.variant == "v");
    }
    Scenario u = parse(text, {"compare=[\"connections\", \"cpu\"]"});
    CHECK(u.runs[1].compare == std::vector<std::string>{"connections", "cpu"});

    CHECK(error_of(text, {"repeat=1001"}) ==
          "--set repeat=1001: 'repeat' must be in [1, 1000], got 1001");
    CHECK(error_of(text, {"group="}) == "--set group=: 'group' must not be empty");
    CHECK(error_of(text, {"compare=[\"cpu\", 1]"}) ==
          "--set compare=[\"cpu\", 1]: 'compare' element 2 must be a string, got an integer");
}

TEST_CASE("the baseline must be a variant of some run, unless there is only one variant") {
    const std::string two = "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                            "[[run]]\ntest = \"pingpong\"\ntransport = \"loop\"\n";
    CHECK(parse("baseline = \"loop\"\n" + two).baseline == "loop");
    CHECK(parse(two).baseline == "tcp");
    CHECK(error_of("baseline = \"nope\"\n" + two) ==
          "s.toml:1:1: baseline 'nope' is not the variant of any run (variants: loop, tcp)");
    // A variant set by hand counts; the transport it replaced does not.
    CHECK(error_of("baseline = \"tcp\"\n[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                   "variant = \"tcp-tuned\"\n[[run]]\ntest = \"pingpong\"\n"
                   "transport = \"loop\"\n") ==
          "s.toml:1:1: baseline 'tcp' is not the variant of any run (variants: loop, tcp-tuned)");
    // --set variant=x leaves one variant, and a baseline of one is not checked.
    CHECK(error_of("baseline = \"tcp\"\n" + two, {"variant=x"}) == "<no error>");
    // One variant: nothing to compare against here, so the baseline is kept
    // as written for a later comparison with other reports.
    Scenario one = parse("baseline = \"rsocket\"\n[[run]]\ntest = \"steps\"\ncount = 1\n");
    CHECK(one.baseline == "rsocket");
}

TEST_CASE("run keys and parameters set in the file") {
    Scenario s = parse(R"(
name = "loopback"
description = "tcp against loop"
plugins = ["../x.so", "dir"]
[[run]]
name = "latency"
test = "pingpong"
transport = "loop"
timeout = 2.5
server = "10.0.0.2"
sizes = 128
port = 5000
verify = true
mode = "b"
)");
    CHECK(s.name == "loopback");
    CHECK(s.description == "tcp against loop");
    CHECK(s.plugins == std::vector<std::string>{"../x.so", "dir"});
    REQUIRE(s.runs.size() == 1);
    const RunSpec &r = s.runs[0];
    CHECK(r.name == "latency");
    CHECK(r.transport == "loop");
    CHECK(r.timeout_s == 2.5);
    CHECK(r.server == "10.0.0.2");
    CHECK(r.given_at.at("server") == "s.toml:10:1"); // for matrix mode's refusal
    CHECK(r.test_params == Params{{"sizes", List{128}},
                                  {"port", int64_t{5000}},
                                  {"verify", true},
                                  {"mode", std::string("b")}});
    CHECK(r.transport_params.empty());
}

TEST_CASE("[defaults] apply to the runs that declare the key") {
    Scenario s = parse(R"(
[defaults]
transport = "tcp"
timeout = 30
port = 7
count = 9
buffer_size = 65536
[[run]]
test = "pingpong"
[[run]]
test = "pingpong"
transport = "loop"
port = 8
timeout = 1
[[run]]
test = "steps"
)");
    REQUIRE(s.runs.size() == 3);
    CHECK(s.runs[0].transport == "tcp");
    CHECK(s.runs[0].timeout_s == 30);
    CHECK(s.runs[0].test_params.at("port") == ParamValue{int64_t{7}});
    CHECK(s.runs[0].transport_params.at("buffer_size") == ParamValue{int64_t{65536}});
    CHECK(s.runs[0].test_params.count("count") == 0);
    // The run's own values win.
    CHECK(s.runs[1].transport == "loop");
    CHECK(s.runs[1].timeout_s == 1);
    CHECK(s.runs[1].test_params.at("port") == ParamValue{int64_t{8}});
    // transport and port are not applied to a test that takes neither.
    CHECK(s.runs[2].name == "steps");
    CHECK(s.runs[2].transport.empty());
    CHECK(s.runs[2].timeout_s == 30);
    CHECK(s.runs[2].test_params == Params{{"count", int64_t{9}}, {"rate", 1.5}});
}

TEST_CASE("overrides (--set) apply to every run that declares the key") {
    const std::string text = R"(
[[run]]
test = "pingpong"
transport = "tcp"
port = 1
[[run]]
test = "steps"
count = 2
timeout = 5
)";
    Scenario s = parse(
        text, {"port=9", "server=host-a", "timeout=7", "sizes=[1, 2]", "port=10", "rate = 2"});
    CHECK(s.runs[0].test_params.at("port") == ParamValue{int64_t{10}}); // the last --set wins
    CHECK(s.runs[0].test_params.at("sizes") == ParamValue{List{1, 2}});
    CHECK(s.runs[0].server == "host-a");
    CHECK(s.runs[1].server == "host-a");
    CHECK(s.runs[0].timeout_s == 7);
    CHECK(s.runs[1].timeout_s == 7);
    CHECK(s.runs[1].test_params.at("rate") == ParamValue{2.0});
    CHECK(s.runs[1].test_params.count("port") == 0);

    // Switching the transport changes the transport parameters that apply.
    Scenario t = parse(text, {"transport=loop"});
    CHECK(t.runs[0].transport == "loop");
    CHECK(t.runs[0].name == "pingpong/loop");
    CHECK(t.runs[0].transport_params.empty());
    CHECK(t.runs[1].transport.empty());
    Scenario u = parse(text, {"transport=\"tcp\"", "buffer_size=4096"});
    CHECK(u.runs[0].transport_params.at("buffer_size") == ParamValue{int64_t{4096}});
}

TEST_CASE("override (--set) errors name the override") {
    const std::string text = "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n";
    CHECK(error_of(text, {"port"}) == "--set port: expected key=value");
    CHECK(error_of(text, {"=1"}) == "--set =1: expected key=value");
    CHECK(error_of(text, {"prot=1"}) ==
          "--set prot=1: no run declares 'prot' (did you mean 'port'?)");
    CHECK(error_of(text, {"count=1"}) == "--set count=1: no run declares 'count'");
    CHECK(error_of(text, {"port=70000"}) ==
          "--set port=70000: 'port' must be in [0, 65535], got 70000");
    CHECK(error_of(text, {"port=x"}) ==
          "--set port=x: 'port' expects an integer, got 'x', which is not a TOML value");
    CHECK(error_of(text, {"transport=ib"}) ==
          "--set transport=ib: unknown transport 'ib' (registered: loop, tcp)");
    CHECK(error_of(text, {"timeout=0"}) ==
          "--set timeout=0: 'timeout' must be > 0 and <= 86400 seconds, got 0");
    CHECK(error_of(text, {"test=steps"}) ==
          "--set test=steps: 'test' cannot be set with --set; edit the scenario");
}

TEST_CASE("pairs: a count or a series, from the run, [defaults] or --set, kept by to_toml") {
    Scenario s = parse(R"(
[defaults]
pairs = 2
[[run]]
test = "pingpong"
transport = "tcp"
[[run]]
test = "pingpong"
transport = "tcp"
pairs = [1, 4, 8]
)");
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].pairs == std::vector<unsigned>{2});
    CHECK_FALSE(s.runs[0].pairs_series);
    CHECK(s.runs[1].pairs == std::vector<unsigned>{1, 4, 8});
    CHECK(s.runs[1].pairs_series);
    // Where each run's `pairs` was given, for a refusal at run time (matrix mode).
    CHECK(s.runs[0].given_at.at("pairs") == "s.toml:3:1");
    CHECK(s.runs[1].given_at.at("pairs") == "s.toml:10:1");
    CHECK(s.runs[0].given_at.count("server") == 0);
    const std::string text = to_toml(s);
    CHECK(text.find("pairs = 2\n") != std::string::npos);
    CHECK(text.find("pairs = [1, 4, 8]\n") != std::string::npos);
    Scenario back = parse(text);
    CHECK(back.runs[1].pairs == s.runs[1].pairs);
    CHECK(back.runs[1].pairs_series);
    Scenario set = parse("[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n", {"pairs=[1]"});
    CHECK(set.runs[0].pairs == std::vector<unsigned>{1});
    CHECK(set.runs[0].pairs_series);
    CHECK(set.runs[0].given_at.at("pairs") == "--set pairs=[1]");
}

TEST_CASE("to_toml writes every parameter and parses back to the same runs") {
    Scenario s = parse(R"(
name = "round \"trip\""
description = "all kinds"
plugins = ["a.so"]
baseline = "steps"
[defaults]
timeout = 12.25
[[run]]
test = "pingpong"
transport = "tcp"
server = "peer"
sizes = [1, 2, 3]
repeat = 4
compare = ["latency", "cpu"]
[[run]]
name = "custom"
test = "steps"
count = 5
rate = 0.75
group = "setup"
)",
                       {"mode=b"});
    std::string text = to_toml(s);
    INFO(text);
    CHECK(text.find("buffer_size = 0\n") != std::string::npos);
    CHECK(text.find("verify = false\n") != std::string::npos);
    CHECK(text.find("mode = \"b\"\n") != std::string::npos);
    CHECK(text.find("baseline = \"steps\"\n") != std::string::npos);
    CHECK(text.find("repeat = 4\ncompare = [\"latency\", \"cpu\"]\n") != std::string::npos);
    CHECK(text.find("group = \"setup\"\nvariant = \"steps\"\nrepeat = 1\ncompare = []\n") !=
          std::string::npos);
    Scenario back = parse_scenario(text, "back.toml", registry(), {});
    CHECK(back.name == s.name);
    CHECK(back.description == s.description);
    CHECK(back.plugins == s.plugins);
    CHECK(back.baseline == "steps");
    REQUIRE(back.runs.size() == s.runs.size());
    for (size_t i = 0; i < s.runs.size(); ++i) {
        CHECK(back.runs[i].name == s.runs[i].name);
        CHECK(back.runs[i].test == s.runs[i].test);
        CHECK(back.runs[i].transport == s.runs[i].transport);
        CHECK(back.runs[i].timeout_s == s.runs[i].timeout_s);
        CHECK(back.runs[i].server == s.runs[i].server);
        CHECK(back.runs[i].group == s.runs[i].group);
        CHECK(back.runs[i].variant == s.runs[i].variant);
        CHECK(back.runs[i].repeat == s.runs[i].repeat);
        CHECK(back.runs[i].compare == s.runs[i].compare);
        CHECK(back.runs[i].test_params == s.runs[i].test_params);
        CHECK(back.runs[i].transport_params == s.runs[i].transport_params);
    }
    CHECK(to_toml(back) == text);

    // The default baseline is left out where it would not be accepted back.
    Scenario other = parse("[[run]]\ntest = \"pingpong\"\ntransport = \"loop\"\n"
                           "[[run]]\ntest = \"steps\"\ncount = 1\n");
    CHECK(to_toml(other).find("baseline") == std::string::npos);
    CHECK_NOTHROW(parse_scenario(to_toml(other), "back.toml", registry(), {}));
}

TEST_CASE("scenario files are read from disk, plugins resolved against them") {
    const std::string path = kSource + "/tests/scenarios/good/loopback.toml";
    Scenario s = load_scenario(path, registry(), {});
    CHECK(s.path == path);
    CHECK(s.name == "loopback");
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].name == "pingpong/tcp");
    CHECK(s.runs[1].name == "connect");

    CHECK(scenario_plugins(path) ==
          std::vector<std::string>{kSource + "/tests/plugins/extra.so", "/opt/cmdbench/plugins",
                                   kSource + "/tests/scenarios/good/local"});

    CHECK_THROWS_WITH(load_scenario("/nonexistent/x.toml", registry(), {}),
                      "/nonexistent/x.toml: cannot read: No such file or directory");
    CHECK_THROWS_WITH(scenario_plugins("/nonexistent/x.toml"),
                      "/nonexistent/x.toml: cannot read: No such file or directory");
    CHECK_THROWS_WITH(scenario_plugins(kSource + "/tests/scenarios/good"),
                      kSource + "/tests/scenarios/good: cannot read: Is a directory");
}

TEST_CASE("scenario_plugins reports a bad plugins list") {
    const std::string path = kSource + "/tests/scenarios/bad/plugins-element-not-string.toml";
    CHECK_THROWS_WITH(scenario_plugins(path),
                      path + ":1:20: 'plugins' element 2 must be a string, got an integer");
}

TEST_CASE("catalogue of bad scenario files, each with its exact message") {
    const fs::path dir = kSource + "/tests/scenarios/bad";
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(dir))
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());

    size_t cases = 0;
    for (const fs::path &file : files) {
        INFO("file: " << file.filename().string());
        std::string ext = file.extension().string();
        fs::path stem = file;
        stem.replace_extension();
        if (ext == ".expected" || ext == ".set") {
            CHECK(fs::exists(fs::path(stem).concat(".toml")));
            continue;
        }
        CHECK(ext == ".toml");
        fs::path expected_file = fs::path(stem).concat(".expected");
        std::vector<std::string> expected = lines_of(expected_file);
        CHECK(expected.size() == 1);
        if (ext != ".toml" || expected.size() != 1) continue;
        std::vector<std::string> overrides;
        if (fs::exists(fs::path(stem).concat(".set")))
            overrides = lines_of(fs::path(stem).concat(".set"));

        std::string message = "<no error>";
        try {
            load_scenario(file.string(), registry(), overrides);
        } catch (const ScenarioError &e) {
            message = e.what();
        }
        // The .expected files give paths relative to the source directory.
        const std::string prefix = kSource + "/";
        if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
        CHECK(message == expected[0]);
        ++cases;
    }
    CHECK(cases >= 20);
}

TEST_CASE("expect: a run's own replaces the one in [defaults], and it writes back as TOML") {
    const std::string text = R"(
[defaults]
expect = { link_fraction = 0.9 }

[[run]]
test = "pingpong"
transport = "tcp"

[[run]]
test = "pingpong"
transport = "loop"
[run.expect]
"burst_time p99" = { max = 20 }
latency_p99 = { max = 15.5, max_ratio = 2 }
)";
    Scenario s = parse(text);
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].expect.link_fraction == 0.9);
    CHECK(s.runs[0].expect.metrics.empty());
    const Expectations &e = s.runs[1].expect;
    CHECK_FALSE(e.link_fraction);
    REQUIRE(e.metrics.size() == 2);
    CHECK(e.metrics[0].first == "burst_time p99"); // a plugin's metric: in file order
    CHECK(e.metrics[1].first == "latency_p99");
    CHECK(e.metrics[1].second.max == 15.5);
    CHECK(e.metrics[1].second.max_ratio == 2);
    const std::string back = to_toml(s);
    CHECK(back.find("expect = { link_fraction = 0.9 }\n") != std::string::npos);
    CHECK(back.find("expect = { \"burst_time p99\" = { max = 20.0 }, latency_p99 = { max = 15.5, "
                    "max_ratio = 2.0 } }\n") != std::string::npos);
    CHECK(to_toml(parse(back)) == back);
}

TEST_CASE("background: its own test, transport and parameters, flows, and back from to_toml") {
    Scenario s = parse(R"(
[defaults]
sizes = [8]
[[run]]
name = "lat"
test = "pingpong"
transport = "tcp"
server = "peer"

[run.background]
test = "pingpong"
transport = "loop"
flows = 3
params = { mode = "b" }
)",
                       {"verify=true"});
    REQUIRE(s.runs.size() == 1);
    REQUIRE(s.runs[0].background);
    const Background &b = *s.runs[0].background;
    CHECK(b.flows == 3);
    CHECK(b.spec.name == "lat background");
    CHECK(b.spec.transport == "loop");
    CHECK(b.spec.server == "peer");
    CHECK(std::get<std::string>(b.spec.test_params.at("mode")) == "b");
    // Neither [defaults] nor --set reach the background: only what it says.
    CHECK(std::get<std::vector<int64_t>>(b.spec.test_params.at("sizes")) ==
          std::vector<int64_t>{64, 4096});
    CHECK(std::get<bool>(b.spec.test_params.at("verify")) == false);
    CHECK(std::get<bool>(s.runs[0].test_params.at("verify")) == true);

    const std::string text = to_toml(s);
    INFO(text);
    Scenario back = parse_scenario(text, "back.toml", registry(), {});
    REQUIRE(back.runs[0].background);
    CHECK(back.runs[0].background->flows == 3);
    CHECK(back.runs[0].background->spec.test_params == b.spec.test_params);
    CHECK(to_toml(back) == text);
}
