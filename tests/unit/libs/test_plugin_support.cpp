// libs/plugin-support against the real host services: what a test's run
// returns and reports for each kind of failure, typed parameter reading and
// its errors, and the byte order, size names and errno text plugins share.
#include "cmdbench/host/plugins/host_services.hpp"
#include "host_run_env.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/plugin-support/clock.hpp>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cmdbench/plugin-support/run_guard.hpp>
#include <cmdbench/plugin-support/size_label.hpp>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace cmdbench::support;

namespace {

int run(cmdbench_ctx &ctx, void (*body)(const cmdbench_run_env &)) {
    const cmdbench_run_env env = env_of(ctx);
    return run_guarded(&env, body);
}

// A role object as the stream and verbs plugins build one from the env.
struct Role {
    explicit Role(const cmdbench_run_env &env) : client(env.role == CMDBENCH_ROLE_CLIENT) {}
    bool client;
};

void needs_server(Role &role) {
    if (role.client) throw RunError(CMDBENCH_ERR_SKIP, "role: not a server");
}

} // namespace

TEST_CASE("run_guarded: a RunError becomes its status and set_error") {
    cmdbench_ctx ctx;
    CHECK(run(ctx, [](const cmdbench_run_env &) {
              throw RunError(CMDBENCH_ERR_SKIP, "needs an RDMA device");
          }) == CMDBENCH_ERR_SKIP);
    CHECK(ctx.error == "needs an RDMA device");
    CHECK(run(ctx, [](const cmdbench_run_env &) {}) == CMDBENCH_OK);
}

TEST_CASE("run_guarded: a reported error keeps the reason the host already has") {
    cmdbench_ctx ctx;
    CHECK(run(ctx, [](const cmdbench_run_env &env) {
              env.host->set_error(env.ctx, "bad histogram: truncated");
              throw reported_error(CMDBENCH_ERR_TIMEOUT, "receiving the histogram failed");
          }) == CMDBENCH_ERR_TIMEOUT);
    CHECK(ctx.error == "bad histogram: truncated");
}

TEST_CASE("run_guarded: other exceptions are CMDBENCH_ERR with their text") {
    cmdbench_ctx ctx;
    CHECK(run(ctx, [](const cmdbench_run_env &) { throw std::runtime_error("plain"); }) ==
          CMDBENCH_ERR);
    CHECK(ctx.error == "plain");
    CHECK(run(ctx, [](const cmdbench_run_env &) { throw std::bad_alloc(); }) == CMDBENCH_ERR);
    CHECK(ctx.error == "out of memory");
    CHECK(run(ctx, [](const cmdbench_run_env &) { throw 42; }) == CMDBENCH_ERR);
    CHECK(ctx.error == "unknown failure");
    CHECK(run_guarded(nullptr, [](const cmdbench_run_env &) {}) == CMDBENCH_ERR);
}

TEST_CASE("guarded_run builds the role from the env and guards its body") {
    cmdbench_ctx ctx;
    const cmdbench_run_env env = env_of(ctx);
    CHECK(guarded_run<Role, needs_server>(&env) == CMDBENCH_ERR_SKIP);
    CHECK(ctx.error == "role: not a server");
}

TEST_CASE("check_stop: past the deadline the run times out, naming the wait") {
    cmdbench_ctx ctx;
    ctx.deadline_ns = 1; // long past
    CHECK(run(ctx, [](const cmdbench_run_env &env) { check_stop(env, "rrecv"); }) ==
          CMDBENCH_ERR_TIMEOUT);
    CHECK(ctx.error == "rrecv: timed out");
}

TEST_CASE("ParamReader: typed values, and errors that name the owner and the key") {
    cmdbench_ctx ctx;
    ctx.params["count"] = int64_t{7};
    ctx.params["verify"] = true;
    ctx.params["sizes"] = std::vector<int64_t>{64, 4096};
    ctx.params["op"] = std::string("write");
    const cmdbench_run_env env = env_of(ctx);
    const ParamReader in(env, "verbs-bw");
    CHECK(in.integer("count") == 7);
    CHECK(in.small_int("count") == 7);
    CHECK(in.boolean("verify"));
    CHECK(in.int_list("sizes") == std::vector<int64_t>{64, 4096});
    CHECK(in.text("op") == "write");
    CHECK_THROWS_WITH(in.number("count"), "verbs-bw: parameter count: not available as a number");
    CHECK_THROWS_WITH(in.text("missing"), "verbs-bw: parameter missing: not available as a string");
    CHECK_THROWS_WITH(in.out_of_range("threads", 3, "[1, qps]", "qps = 2"),
                      "verbs-bw: threads = 3 must be in [1, qps] (qps = 2)");
    CHECK_THROWS_WITH(ParamReader(env, "").integer("op"),
                      "parameter op: not available as an integer");
}

TEST_CASE("byte order: big-endian fields round-trip") {
    uint8_t buf[8];
    put_be64(buf, 0x0102030405060708);
    CHECK(buf[0] == 1);
    CHECK(buf[7] == 8);
    CHECK(get_be64(buf) == 0x0102030405060708);
    std::vector<uint8_t> out;
    append_be(out, 0x434d5354, 4);
    append_be(out, 0xbeef, 2);
    CHECK(out == std::vector<uint8_t>{0x43, 0x4d, 0x53, 0x54, 0xbe, 0xef});
    const uint8_t *p = out.data();
    CHECK(take_be(p, 4) == 0x434d5354);
    CHECK(take_be(p, 2) == 0xbeef);
    CHECK(p == out.data() + out.size());
}

TEST_CASE("size_label names sizes the way rstream does") {
    CHECK(size_label(64) == "64");
    CHECK(size_label(1023) == "1023");
    CHECK(size_label(4096) == "4k");
    CHECK(size_label(1536 * 1024) == "1.5m");
    CHECK(size_label(65536) == "64k");
    CHECK(size_label(int64_t{1} << 30) == "1g");
}

TEST_CASE("errno_text is strerror's text, from any thread") {
    std::string there;
    std::thread t([&] { there = errno_text(ENOENT); });
    t.join();
    CHECK(there == "No such file or directory");
    CHECK(errno_text(EINVAL) == "Invalid argument");
    CHECK_THROWS_WITH(fail_errno("open x", ENOENT), "open x: No such file or directory");
}

TEST_CASE("TickClock: its ticks converted read as CLOCK_MONOTONIC's nanoseconds") {
    TickClock clock;
    CHECK(std::string(clock.source()) == (kernel_keeps_time_with_tsc() ? "tsc" : "monotonic"));
    // Spans of 20 ms and 2 ms, each timed by both clocks, the ticks
    // converted after the spans as a timed loop does.
    for (const auto span : {std::chrono::milliseconds(20), std::chrono::milliseconds(2)}) {
        const uint64_t t0 = clock.now(), ns0 = monotonic_ns();
        std::this_thread::sleep_for(span);
        const uint64_t t1 = clock.now(), ns1 = monotonic_ns();
        const double ns = double(t1 - t0) * clock.ns_per_tick();
        const double want = double(ns1 - ns0);
        CHECK(want >= 1e6);
        // a preemption between the paired reads is the only slack
        CHECK(ns == Approx(want).epsilon(0.02).margin(50e3));
    }
}
