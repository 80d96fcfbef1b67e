// One `cmdbench rstream` process: rstream's options turned into one role of
// the pingpong test, run in-process without a control channel.
#ifndef CMDBENCH_RSTREAM_RUN_HPP
#define CMDBENCH_RSTREAM_RUN_HPP

#include "rstream_options.hpp"

namespace cmdbench::rstream_frontend {

// Runs the test and prints rstream's table; returns rstream's exit status,
// with the deviations README's "Where cmdbench differs from rstream on
// purpose" lists.
int run_rstream(const Options &options);

} // namespace cmdbench::rstream_frontend

#endif
