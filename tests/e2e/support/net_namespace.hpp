// A network namespace of a test's own (unshare -rnm), so that the TCP
// counters, which are the namespace's, count the test's traffic alone
// (docs/counters.md), and an nftables rule there drops its packets only.
#pragma once

#include <string>
#include <vector>

// A program's path from $PATH ("" when there is none): run_process does
// not search.
std::string program(const std::string &name);

// Whether `unshare -rnm` works here.
bool namespaces_work();

// One packet in 33 of the namespace's incoming TCP packets dropped: each of
// a few hundred packets has its chance, so no loss at all is out of reach.
extern const char *const kDropRule;

// argv running `argv` in a new network and mount namespace with its own
// sysfs (/sys/class/net shows the interfaces of the namespace that mounted
// it) and lo up, after the shell command `setup` ("" for none); it exits 99
// when the namespace or the setup cannot be made here.
std::vector<std::string> in_namespace(const std::string &setup,
                                      const std::vector<std::string> &argv);
