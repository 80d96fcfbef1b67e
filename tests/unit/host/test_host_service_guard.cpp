// Host services never let a C++ exception into a (C) plugin: a service that
// fails inside the host returns its failure value and records why.
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/role_run.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace cmdbench;

namespace {

// A peer link whose calls throw, as a broken control channel's code might.
class ThrowingPeer : public PeerLink {
  public:
    int barrier(cmdbench_ctx *, const std::string &) override {
        throw std::runtime_error("barrier boom");
    }
    int exchange(cmdbench_ctx *, const void *, uint32_t, void *, uint32_t, uint32_t *) override {
        throw std::length_error("exchange boom");
    }
};

} // namespace

TEST_CASE("host services: an exception inside the host becomes CMDBENCH_ERR and the run's error") {
    ThrowingPeer peer;
    cmdbench_ctx ctx;
    ctx.peer = &peer;
    const cmdbench_host *h = host_services();
    char buf[8];
    uint32_t got = 0;
    CHECK(h->exchange(&ctx, "x", 1, buf, sizeof buf, &got) == CMDBENCH_ERR);
    CHECK(ctx.error == "host service exchange failed: exchange boom");
    CHECK(h->barrier(&ctx, "b") == CMDBENCH_ERR);
    CHECK(ctx.error == "host service barrier failed: barrier boom");
}

TEST_CASE("host services: a row sink that throws does not reach the plugin") {
    cmdbench_ctx ctx;
    ctx.on_row = [](const Row &) { throw std::runtime_error("disk full"); };
    const cmdbench_host *h = host_services();
    cmdbench_row *row = h->row_begin(&ctx, "r");
    REQUIRE(row);
    h->row_metric(row, "m", 1, CMDBENCH_UNIT_PLAIN);
    h->row_end(row); // returns, instead of unwinding into the caller
    CHECK(ctx.error == "host service row_end failed: disk full");
    REQUIRE(ctx.rows.size() == 1);
    CHECK(ctx.rows[0].name == "r");
}

namespace {

int report_kind_99(const cmdbench_run_env *env) {
    const cmdbench_host *h = env->host;
    static const cmdbench_metric_meaning bad = CMDBENCH_MEANING(99, CMDBENCH_BETTER_HIGHER, 0);
    cmdbench_row *row = h->row_begin(env->ctx, "r");
    h->row_metric_ex(row, "m", 1, CMDBENCH_UNIT_PLAIN, &bad);
    h->row_end(row);
    return CMDBENCH_OK;
}

} // namespace

TEST_CASE("host services: a metric meaning plugin.h does not define fails the run, naming it") {
    const cmdbench_test test = {sizeof test, "unit-meaning", "", 0, 0, nullptr, report_kind_99};
    RoleSetup setup;
    setup.test = &test;
    RoleRun run(setup);
    run.start_clock(30);
    Execution ex = run.run(CMDBENCH_ROLE_CLIENT, "", nullptr);
    CHECK(ex.status == RunStatus::Failed);
    CHECK(ex.error == "test 'unit-meaning': metric 'm' of row 'r' declares kind 99, which plugin.h "
                      "does not define (enum cmdbench_metric_kind: 0 to 7)");
    // The row stays, its metric shown but not compared.
    REQUIRE(run.rows().size() == 1);
    CHECK_FALSE(run.rows()[0].metrics[0].meaning.declared());
}
