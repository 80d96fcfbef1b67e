// What rank 0 says of the ranks' start-up problems: each distinct problem
// once, with its ranks as ranges and its nodes, however many there are.
#include "cmdbench/host/matrix/start_problems.hpp"
#include "cmdbench/report/matrix/matrix_ranks.hpp"

#include <catch2/catch.hpp>

using namespace cmdbench;

TEST_CASE("rank_list_text: runs of consecutive ranks as ranges") {
    CHECK(rank_list_text({}) == "");
    CHECK(rank_list_text({3}) == "3");
    CHECK(rank_list_text({0, 1, 2, 3, 5, 7, 8}) == "0-3, 5, 7-8");
}

TEST_CASE("start_problem_lines: each problem once, with the ranks and nodes it concerns") {
    const std::vector<std::string> nodes = {"n0", "n0", "n1", "n2"};
    CHECK(start_problem_lines(nodes, {"", "", "", ""}).empty());
    const auto lines = start_problem_lines(nodes, {"s.toml:6:7: rails = \"all\": no RDMA",
                                                   "s.toml:6:7: rails = \"all\": no RDMA", "",
                                                   "cmdbench: plugin refused: x.so"});
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "ranks 0-1 (node n0): s.toml:6:7: rails = \"all\": no RDMA");
    CHECK(lines[1] == "rank 3 (node n2): plugin refused: x.so");
}

TEST_CASE("start_problem_lines: 1,024 ranks on 1,024 nodes stay one short line") {
    std::vector<std::string> nodes, problems;
    for (int r = 0; r < 1024; ++r) {
        nodes.push_back("node" + std::to_string(r));
        problems.push_back("no RDMA");
    }
    const auto lines = start_problem_lines(nodes, problems);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == "ranks 0-1023 (nodes node0, node1, node2, node3, node4, node5, node6, "
                      "node7 and 1016 more nodes): no RDMA");
}
