// CPU and NUMA node lists as Linux writes them ("0-3,8"): the `cpus` run key,
// /sys/devices/system/cpu/online, Cpus_allowed_list in /proc.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <set>
#include <string>
#include <variant>

namespace cmdbench {

// CPU numbers go up to this (a cpu_set_t holds 1024).
constexpr unsigned kMaxCpu = 1023;

// "0-3,8" -> {0,1,2,3,8}. Spaces around the items are allowed; an empty
// list, an empty item, a range that runs backwards, anything but digits and
// a number above `max` are errors (the message says which item).
Expected<std::set<unsigned>> parse_cpu_list(const std::string &text, unsigned max = kMaxCpu);

// The reverse, ranges folded: {0,1,2,3,8} -> "0-3,8"; {} -> "".
std::string cpu_list_text(const std::set<unsigned> &cpus);

} // namespace cmdbench
