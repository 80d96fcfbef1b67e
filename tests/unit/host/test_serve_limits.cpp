// The policy `cmdbench serve` applies to what a client asks for.
#include "cmdbench/host/serve/serve_limits.hpp"
#include "cmdbench/host/serve/server.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cmdbench;
using Catch::Contains;

TEST_CASE("serve limits: the defaults refuse 1 GiB sizes and privileged ports, naming them") {
    const ServeLimits l = ServeLimits::defaults();
    std::map<std::string, ParamValue> p = {{"sizes", std::vector<int64_t>{64, 1073741824}}};
    Status why = l.check(p, 10);
    REQUIRE_FALSE(why.ok());
    CHECK_THAT(why.error(), Contains("'sizes' = 1073741824") && Contains("limit of 67108864") &&
                                Contains("--limit sizes="));
    p = {{"sizes", std::vector<int64_t>{64, 67108864}}, {"port", int64_t(0)}};
    CHECK(l.check(p, 10).ok());
    p = {{"port", int64_t(22)}};
    why = l.check(p, 10);
    REQUIRE_FALSE(why.ok());
    CHECK_THAT(why.error(), Contains("'port' = 22") && Contains("--allow-privileged-ports"));
    p = {{"port", int64_t(1024)}};
    CHECK(l.check(p, 10).ok());
    why = l.check({}, 7200);
    REQUIRE_FALSE(why.ok());
    CHECK_THAT(why.error(), Contains("'timeout' = 7200") && Contains("limit of 3600"));
}

TEST_CASE("serve limits: options raise, remove and turn them off") {
    Registry none; // no plugins: only "timeout" can be named
    CHECK_THROWS_WITH(limits_from_options({"timeout=2h"}, false, false, none),
                      Contains("--limit timeout") && Contains("K, M, G or T"));
    ServeLimits l = limits_from_options({"timeout=7200"}, true, false, none);
    CHECK(l.check({{"port", int64_t(22)}}, 7200).ok());
    l = limits_from_options({"timeout=none"}, false, false, none);
    CHECK(l.check({}, 86400).ok());
    CHECK_THROWS_WITH(limits_from_options({"sizes=1G"}, false, false, none),
                      Contains("--limit sizes") && Contains("no loaded test or transport"));
    CHECK_THROWS_WITH(limits_from_options({"=5"}, false, false, none), Contains("KEY=MAX"));
    l = limits_from_options({}, false, true, none);
    CHECK(l.check({{"sizes", std::vector<int64_t>{1073741824}}, {"port", int64_t(22)}}, 1e5).ok());
}

TEST_CASE("serve limits: byte counts with suffixes") {
    CHECK(parse_byte_count("0", "--x") == 0);
    CHECK(parse_byte_count("64M", "--x") == 67108864);
    CHECK(parse_byte_count("1G", "--x") == 1073741824);
    CHECK(parse_byte_count("2k", "--x") == 2048);
    CHECK(parse_byte_count("3T", "--x") == (int64_t(3) << 40));
    CHECK_THROWS_WITH(parse_byte_count("-1", "--max-memory"), Contains("--max-memory"));
    CHECK_THROWS(parse_byte_count("1.5G", "--x"));
    CHECK_THROWS(parse_byte_count("", "--x"));
    CHECK_THROWS(parse_byte_count("99999999999T", "--x"));
}

TEST_CASE("serve: a setup that fails (no room for the session table) exits 2, saying why") {
    // In a child, its address space capped a little above what it maps, so
    // the listener fits but the table for 100,000 clients (24 MB) does not.
    int err[2];
    REQUIRE(pipe(err) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        dup2(err[1], STDERR_FILENO);
        close(err[0]);
        Registry registry;
        ServeOptions opt;
        opt.bind = "127.0.0.1";
        opt.port = 0;
        opt.max_clients = 100000;
        static const std::atomic<bool> interrupted{true}; // set up, then stop at once
        std::ifstream statm("/proc/self/statm");
        long pages = 0;
        statm >> pages;
        const rlim_t cap = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(4) << 20);
        const rlimit limit{cap, cap};
        if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(99);
        try {
            _exit(serve(registry, opt, interrupted));
        } catch (const std::exception &e) { // never back into the test runner
            std::fprintf(stderr, "escaped: %s\n", e.what());
            _exit(98);
        }
    }
    close(err[1]);
    std::string said;
    char buf[512];
    for (ssize_t n; (n = read(err[0], buf, sizeof buf)) > 0;)
        said.append(buf, size_t(n));
    close(err[0]);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    INFO(said);
    REQUIRE(WIFEXITED(status)); // not killed by an uncaught exception
    CHECK(WEXITSTATUS(status) == 2);
    CHECK_THAT(said, Contains("cannot start serving: cannot map the session table: Cannot "
                              "allocate memory"));
    CHECK_THAT(said, !Contains("listening"));
}
