// How a thread waits for its completions (the tests' `mode`).
#ifndef CMDBENCH_VERBS_WAIT_MODE_HPP
#define CMDBENCH_VERBS_WAIT_MODE_HPP

namespace cmdbench::verbs {

// Poll: busy-poll the CQ; Event: arm it and sleep on the completion channel.
enum class WaitMode { Poll, Event };

} // namespace cmdbench::verbs

#endif
