// Host services never let a C++ exception into a (C) plugin: a service that
// fails inside the host returns its failure value and records why.
#include "host_services.hpp"

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
