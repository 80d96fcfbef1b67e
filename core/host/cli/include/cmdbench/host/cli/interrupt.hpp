// Ctrl-C, SIGTERM and SIGHUP set a flag that runs look at, and the
// interrupt event (wake_event.hpp) that wakes their waits; a second Ctrl-C
// or SIGTERM exits at once.
#pragma once
#include <atomic>

namespace cmdbench {

const std::atomic<bool> &install_interrupt_handler();

} // namespace cmdbench
