// Which plugin log lines the host prints: info by default, debug with
// CMDBENCH_DEBUG, the level CMDBENCH_LOG_LEVEL names; matrix mode's
// quiet_plugin_info() drops info lines unless the user chose a level.
#include "cmdbench/host/plugins/host_services.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

using namespace cmdbench;

TEST_CASE("plugin_log_level: the environment's choice, else info") {
    unsetenv("CMDBENCH_LOG_LEVEL");
    unsetenv("CMDBENCH_DEBUG");
    CHECK(plugin_log_level() == CMDBENCH_LOG_INFO);
    setenv("CMDBENCH_DEBUG", "1", 1);
    CHECK(plugin_log_level() == CMDBENCH_LOG_DEBUG);
    unsetenv("CMDBENCH_DEBUG");
    setenv("CMDBENCH_LOG_LEVEL", "error", 1);
    CHECK(plugin_log_level() == CMDBENCH_LOG_ERROR);
    setenv("CMDBENCH_LOG_LEVEL", "nonsense", 1);
    CHECK(plugin_log_level() == CMDBENCH_LOG_INFO);

    unsetenv("CMDBENCH_LOG_LEVEL");
    quiet_plugin_info();
    CHECK(plugin_log_level() == CMDBENCH_LOG_WARN);
    // A level the user set stays.
    setenv("CMDBENCH_LOG_LEVEL", "debug", 1);
    quiet_plugin_info();
    CHECK(plugin_log_level() == CMDBENCH_LOG_DEBUG);
    unsetenv("CMDBENCH_LOG_LEVEL");
}
