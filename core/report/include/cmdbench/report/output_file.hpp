// Writing a document (results, an HTML report) to the path a user named with
// -o or --report. A regular file is replaced whole: the text goes to a new
// temporary file in the same directory (created with O_EXCL|O_NOFOLLOW, so a
// planted symlink is never followed), is synced, and is renamed over the
// target, so a reader never sees half a document and a failed write keeps the
// previous file. A symlink at the path stays a link: the file it points to is
// the one replaced. Stdout ("-"), devices and FIFOs are written in place,
// never renamed over or turned into a regular file.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

// Whether PATH is written in place (stdout, a device, a FIFO) rather than
// replaced through a temporary file.
bool output_is_stream(const std::string &path);

// Whether PATH can be written, or why not: checked before anything runs.
// Its directory exists and a file can really be created there (one is
// created and removed), an existing target is writable and not a directory.
Status check_output(const std::string &path);

// Checks each (option, path), e.g. {"-o", "out.json"}, with check_output
// (an empty path: the option was not given); prints "cmdbench: cannot write OPTION PATH: WHY" for
// each that fails.
bool outputs_writable(const std::vector<std::pair<std::string, std::string>> &outputs);

// Makes a document on the stream it is given.
using DocumentWriter = std::function<void(std::ostream &)>;

// Writes what PRODUCE makes to PATH as described above, a block at a time
// as it is made (the whole text is never in memory). On failure (why, in
// the Status) a regular file at PATH keeps its previous content.
Status write_output(const std::string &path, const DocumentWriter &produce);
// The same for a text already made.
Status write_output(const std::string &path, const std::string &text);

} // namespace cmdbench
