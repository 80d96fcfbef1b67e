// ParamSpec and Choice (libs/plugin-support) against the real host: the
// table they make is what the host parses and checks, defaults included,
// and the struct they fill holds what the run was given.
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "host_run_env.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

using namespace cmdbench::support;

namespace {

enum class Mode { Poll, Event, Spin };

struct Settings {
    Mode mode;
    int depth;
    int64_t bytes;
    uint16_t port;
    double duration;
    bool verify;
    std::string bind;
    std::vector<int64_t> sizes;
    int untouched = 7; // bound by no entry
};

const Choice<Mode> kModes{{"poll", Mode::Poll}, {"event", Mode::Event}, {"spin", Mode::Spin}};

const ParamSpec<Settings> &spec() {
    static const ParamSpec<Settings> s = [] {
        ParamSpec<Settings> p;
        p.choice("mode", &Settings::mode, kModes, Mode::Event, "how to wait")
            .integer("depth", &Settings::depth, 128, 1, 16384, "requests in flight")
            .integer("bytes", &Settings::bytes, -1, -1, int64_t{1} << 40, "bytes; -1 = all")
            .integer("port", &Settings::port, 0, 0, 65535, "port")
            .number("duration", &Settings::duration, "2.0", 0, 3600, "seconds")
            .flag("verify", &Settings::verify, true, "check bytes")
            .text("bind", &Settings::bind, "", "address")
            .int_list("sizes", &Settings::sizes, {64, 4096}, 1, 1 << 30, "sizes");
        return p;
    }();
    return s;
}

const cmdbench_param &decl(const char *name) {
    for (uint32_t i = 0; i < spec().size(); ++i)
        if (std::strcmp(spec().table()[i].name, name) == 0) return spec().table()[i];
    FAIL("no parameter " << name);
    throw;
}

// What the host puts in a run for a key the scenario leaves out.
cmdbench::ParamValue host_default(const cmdbench_param &d) {
    auto parsed = cmdbench::parse_text(d, d.default_value);
    REQUIRE(parsed.has_value());
    return *parsed;
}

// The run's values as the host fills them: every key's table default.
void fill_defaults(cmdbench_ctx &ctx) {
    for (uint32_t i = 0; i < spec().size(); ++i)
        ctx.params[spec().table()[i].name] = host_default(spec().table()[i]);
}

} // namespace

TEST_CASE("ParamSpec: the table holds each entry's name, type, default, range and help") {
    REQUIRE(spec().size() == 8);
    const cmdbench_param &depth = decl("depth");
    CHECK(depth.struct_size == sizeof(cmdbench_param));
    CHECK(depth.type == CMDBENCH_PARAM_INT);
    CHECK(std::string(depth.default_value) == "128");
    CHECK(depth.min_int == 1);
    CHECK(depth.max_int == 16384);
    CHECK(std::string(depth.help) == "requests in flight");
    CHECK(std::string(decl("bytes").default_value) == "-1");
    CHECK(decl("duration").type == CMDBENCH_PARAM_DOUBLE);
    CHECK(std::string(decl("duration").default_value) == "2.0");
    CHECK(decl("duration").max_double == 3600);
    CHECK(std::string(decl("verify").default_value) == "true");
    CHECK(std::string(decl("bind").default_value) == "\"\"");
    CHECK(decl("bind").choices == nullptr);
    CHECK(std::string(decl("sizes").default_value) == "[64, 4096]");
    CHECK(decl("sizes").type == CMDBENCH_PARAM_INT_LIST);
    CHECK(std::string(decl("mode").default_value) == "\"event\"");
    CHECK(std::string(decl("mode").choices) == "poll|event|spin");
}

TEST_CASE("ParamSpec: the host's defaults from the table fill the declared defaults") {
    cmdbench_ctx ctx;
    fill_defaults(ctx);
    const cmdbench_run_env env = env_of(ctx);
    const Settings s = spec().read(ParamReader(env, "t"));
    CHECK(s.mode == Mode::Event);
    CHECK(s.depth == 128);
    CHECK(s.bytes == -1);
    CHECK(s.port == 0);
    CHECK(s.duration == 2.0);
    CHECK(s.verify);
    CHECK(s.bind.empty());
    CHECK(s.sizes == std::vector<int64_t>{64, 4096});
    CHECK(s.untouched == 7);

    const Settings d = spec().defaults();
    CHECK(d.mode == s.mode);
    CHECK(d.depth == s.depth);
    CHECK(d.bytes == s.bytes);
    CHECK(d.duration == s.duration);
    CHECK(d.verify == s.verify);
    CHECK(d.sizes == s.sizes);
}

TEST_CASE("ParamSpec: a run's values land in their fields") {
    cmdbench_ctx ctx;
    fill_defaults(ctx);
    ctx.params["mode"] = std::string("spin");
    ctx.params["depth"] = int64_t{16384};
    ctx.params["port"] = int64_t{65535};
    ctx.params["duration"] = 0.5;
    ctx.params["verify"] = false;
    ctx.params["bind"] = std::string("10.0.0.1");
    ctx.params["sizes"] = std::vector<int64_t>{8};
    const cmdbench_run_env env = env_of(ctx);
    Settings s = spec().defaults();
    spec().fill(ParamReader(env, "t"), s);
    CHECK(s.mode == Mode::Spin);
    CHECK(s.depth == 16384);
    CHECK(s.port == 65535);
    CHECK(s.duration == 0.5);
    CHECK_FALSE(s.verify);
    CHECK(s.bind == "10.0.0.1");
    CHECK(s.sizes == std::vector<int64_t>{8});
}

TEST_CASE("ParamSpec: the host refuses values outside an entry's range") {
    CHECK(cmdbench::check_value(decl("depth"), int64_t{0}).error() ==
          "must be in [1, 16384], got 0");
    CHECK(cmdbench::check_value(decl("depth"), int64_t{1}).ok());
    CHECK_FALSE(cmdbench::check_value(decl("depth"), int64_t{16385}).ok());
    CHECK_FALSE(cmdbench::check_value(decl("duration"), 3601.0).ok());
    CHECK_FALSE(cmdbench::check_value(decl("sizes"), std::vector<int64_t>{64, 0}).ok());
    CHECK_FALSE(cmdbench::check_value(decl("mode"), std::string("sleep")).ok());
    CHECK(cmdbench::check_value(decl("mode"), std::string("poll")).ok());
}

TEST_CASE("ParamSpec: a range its field cannot hold is refused when declared") {
    ParamSpec<Settings> p;
    CHECK_THROWS_AS(p.integer("port", &Settings::port, 0, 0, 65536, "port"), std::invalid_argument);
    CHECK_THROWS_AS(p.integer("port", &Settings::port, 0, -1, 10, "port"), std::invalid_argument);
    CHECK_THROWS_AS(p.integer("depth", &Settings::depth, 0, 0, int64_t{1} << 31, "depth"),
                    std::invalid_argument);
    CHECK_THROWS_AS(p.number("duration", &Settings::duration, "two", 0, 1, "s"),
                    std::invalid_argument);
    CHECK(p.size() == 0);
}

TEST_CASE("Choice: names to values and values to names") {
    CHECK(kModes.joined() == "poll|event|spin");
    CHECK(std::string(kModes.name(Mode::Poll)) == "poll");
    CHECK(std::string(kModes.name(Mode::Spin)) == "spin");
    const Choice<Mode> partial{{"poll", Mode::Poll}};
    CHECK(std::string(partial.name(Mode::Event)) == "?");
    cmdbench_ctx ctx;
    const cmdbench_run_env env = env_of(ctx);
    const ParamReader in(env, "t");
    CHECK(kModes.value(in, "mode", "poll") == Mode::Poll);
    CHECK(kModes.value(in, "mode", "event") == Mode::Event);
    CHECK(kModes.value(in, "mode", "spin") == Mode::Spin);
}

TEST_CASE("Choice: a name not in the list names the key and the allowed values") {
    cmdbench_ctx ctx;
    const cmdbench_run_env env = env_of(ctx);
    CHECK_THROWS_WITH(kModes.value(ParamReader(env, "verbs-bw"), "mode", "sleep"),
                      "verbs-bw: parameter mode: \"sleep\" is not one of poll|event|spin");
    // Through the spec: a value the host let through (a table and a list
    // that disagree) fails the same way.
    fill_defaults(ctx);
    ctx.params["mode"] = std::string("Poll");
    CHECK_THROWS_AS(spec().read(ParamReader(env, "t")), RunError);
    CHECK_THROWS_WITH(spec().read(ParamReader(env, "t")),
                      "t: parameter mode: \"Poll\" is not one of poll|event|spin");
}
