// Outputs of one command line that would destroy another file it names:
// `-o X --report X` (the page would replace the results), `-o` naming the
// scenario (the results would overwrite it). Files are compared by identity,
// not by spelling: the same device and inode for a file that exists (hard
// links and symlinks included), the same resolved path for one not yet made.
#pragma once
#include <string>
#include <vector>

namespace cmdbench::cli {

struct NamedPath {
    std::string what; // "-o", "--report", "the scenario", ...
    std::string path; // empty: not given
};

// Throws UsageError naming both when an output is another output or one of
// the inputs. Outputs written in place (stdout, devices, FIFOs) never clash.
void check_outputs_apart(const std::vector<NamedPath> &outputs,
                         const std::vector<NamedPath> &inputs);

} // namespace cmdbench::cli
