// Host service run_setting (ABI 1.3): what a test records of its run, kept in
// order, replaced by key, and refused with a reason when it is not plain.
#include "cmdbench/host/plugins/host_services.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cmdbench/plugin-support/run_settings.hpp>
#include <string>

using namespace cmdbench;

using Settings = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("run_setting: settings in the order first set, a key set again replaced") {
    cmdbench_ctx ctx;
    const cmdbench_host *h = host_services();
    REQUIRE(h->abi_minor >= 3);
    REQUIRE(h->struct_size >= offsetof(cmdbench_host, run_setting) + sizeof h->run_setting);
    CHECK(h->run_setting(&ctx, "inline_size", "236") == CMDBENCH_OK);
    CHECK(h->run_setting(&ctx, "tx_depth", "128") == CMDBENCH_OK);
    CHECK(h->run_setting(&ctx, "inline_size", "64") == CMDBENCH_OK);
    CHECK(ctx.settings == Settings{{"inline_size", "64"}, {"tx_depth", "128"}});
    CHECK(ctx.error.empty());
}

TEST_CASE("run_setting: a key that is not plain, a long value, too many: refused with why") {
    cmdbench_ctx ctx;
    const cmdbench_host *h = host_services();
    CHECK(h->run_setting(&ctx, "Tx Depth", "1") == CMDBENCH_ERR);
    CHECK(ctx.error == "run_setting: key 'Tx Depth' is not 1-64 characters of [a-z0-9_]");
    CHECK(h->run_setting(&ctx, "", "1") == CMDBENCH_ERR);
    CHECK(h->run_setting(&ctx, nullptr, "1") == CMDBENCH_ERR);
    CHECK(h->run_setting(&ctx, "mtu", nullptr) == CMDBENCH_ERR);
    CHECK(h->run_setting(&ctx, "gid", std::string(257, 'x').c_str()) == CMDBENCH_ERR);
    CHECK(ctx.error == "run_setting: the value of 'gid' is longer than 256 bytes");
    CHECK(ctx.settings.empty());
    for (int i = 0; i < 64; ++i)
        REQUIRE(h->run_setting(&ctx, ("k" + std::to_string(i)).c_str(), "v") == CMDBENCH_OK);
    CHECK(h->run_setting(&ctx, "k64", "v") == CMDBENCH_ERR);
    CHECK(ctx.settings.size() == 64);
}

TEST_CASE("run_setting: plugin-support's wrapper records, fails the run when refused") {
    cmdbench_ctx ctx;
    const cmdbench_host &h = *host_services();
    support::record_setting(h, &ctx, "rx_depth", int64_t(512));
    support::record_setting(h, &ctx, "cq_mod", "100, 1 from 64k");
    CHECK(ctx.settings == Settings{{"rx_depth", "512"}, {"cq_mod", "100, 1 from 64k"}});
    CHECK_THROWS_AS(support::record_setting(h, &ctx, "Bad Key", "1"), support::RunError);
    // A host table without the service (older than 1.3) records nothing.
    cmdbench_host old = h;
    old.struct_size = offsetof(cmdbench_host, run_setting);
    support::record_setting(old, &ctx, "mtu", "1024");
    CHECK(ctx.settings.size() == 2);
}
