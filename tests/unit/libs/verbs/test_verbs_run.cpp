// The verbs tests' stop checks through a fake host: the test's own thread
// asks the host for a cancel at every check (the rdma_cm waits of the
// set-up included), a worker thread only sees the abort the test's thread
// sets.
#include "fake_host.hpp"
#include "run/verbs_run.hpp"
#include "verbs_params.hpp"

#include <catch2/catch.hpp>
#include <thread>

using verbs_test::FakeHost;

namespace {

const cmdbench_test &bw_descriptor() {
    static const cmdbench_test bw = cmdbench::verbs::verbs_test_descriptor(true, "bw", nullptr);
    return bw;
}

// The status a check throws, CMDBENCH_OK when it does not.
int check_status(const cmdbench::verbs::Stopper &stop) {
    try {
        stop.check("waiting");
    } catch (const cmdbench::verbs::RunError &e) {
        return e.status;
    }
    return CMDBENCH_OK;
}

} // namespace

TEST_CASE("verbs run: a check on the test's thread sees the host's cancel") {
    FakeHost host(bw_descriptor());
    cmdbench::verbs::Run run(host.env());
    CHECK(check_status(run.stopper()) == CMDBENCH_OK);
    host.cancel = true; // Ctrl-C, or the peer lost
    CHECK(check_status(run.stopper()) == CMDBENCH_ERR_CANCELLED);
}

TEST_CASE("verbs run: a worker thread's check sees the abort, never asks the host") {
    FakeHost host(bw_descriptor());
    cmdbench::verbs::Run run(host.env());
    host.cancel = true;
    int before_abort = -1, after_abort = -1;
    std::thread([&] { before_abort = check_status(run.stopper()); }).join();
    run.stopper().abort();
    std::thread([&] { after_abort = check_status(run.stopper()); }).join();
    CHECK(before_abort == CMDBENCH_OK);
    CHECK(after_abort == CMDBENCH_ERR_CANCELLED);
}
