// verbs-bw's send window at defaults and with user-set values: perftest's
// CQ moderation rule by message size and its caps.
#include "bw/bw_window.hpp"

#include <catch2/catch.hpp>

using cmdbench::verbs::bw_window;
using cmdbench::verbs::kCqModAuto;

TEST_CASE("verbs window: default cq_mod is 100 up to 8 KiB and 1 above") {
    CHECK(bw_window(128, kCqModAuto, 64, 5000).cq_mod == 100);
    CHECK(bw_window(128, kCqModAuto, 8192, 5000).cq_mod == 100);
    CHECK(bw_window(128, kCqModAuto, 8193, 5000).cq_mod == 1);
    CHECK(bw_window(128, kCqModAuto, 1 << 20, 200).cq_mod == 1);
    CHECK(bw_window(128, kCqModAuto, 65536, 0).cq_mod == 1); // a duration phase
    CHECK(bw_window(128, kCqModAuto, 64, 5000).cq_mod_auto);
}

TEST_CASE("verbs window: the depth is capped to the messages, cq_mod to the depth") {
    const auto few = bw_window(128, kCqModAuto, 64, 50);
    CHECK(few.tx_depth == 50);
    CHECK(few.cq_mod == 50);
    const auto shallow = bw_window(16, kCqModAuto, 64, 5000);
    CHECK(shallow.tx_depth == 16);
    CHECK(shallow.cq_mod == 16);
    CHECK(bw_window(128, kCqModAuto, 64, 0).tx_depth == 128); // duration: no cap
}

TEST_CASE("verbs window: a cq_mod the user set is kept, whatever the size") {
    const auto big = bw_window(128, 100, 1 << 20, 200);
    CHECK(big.cq_mod == 100);
    CHECK_FALSE(big.cq_mod_auto);
    CHECK(bw_window(64, 16, 64, 5000).cq_mod == 16);
    CHECK(bw_window(64, 16, 65536, 5000).cq_mod == 16);
    CHECK(bw_window(128, 100, 64, 10).cq_mod == 10); // only 10 messages to signal
}
