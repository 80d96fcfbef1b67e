// Where results go as each run completes: the console, and the -o file
// (rewritten whole after every run, so nothing is lost if a later run hangs
// or the process is killed; see output_file.hpp for how). At the end, the
// comparison of the variants: as a table on a table stdout, in the final JSON
// document (`comparison.result`), and as the --report HTML page. A failed write is printed at once
// and remembered for the exit status; the runs go on, as the next rewrite may succeed.
#pragma once
#include "comparison.hpp"
#include "result.hpp"

#include <optional>
#include <string>

namespace cmdbench {

class ResultSink {
  public:
    ResultSink(std::string stdout_format, std::string output_file, std::string report_file = "");
    void run_done(const Report &report);                // the last run of `report` just ended
    void finish(const Report &report);                  // all runs ended (or were interrupted)
    bool write_failed() const { return write_failed_; } // some output could not be written

  private:
    // `comparison`: for the final write only (null before, or when none).
    void write_file(const Report &report, bool final, const Comparison *comparison);
    std::string file_format() const; // of -o, by its name's ending
    std::optional<Comparison> compare(const Report &report) const;
    void write_to(const std::string &path, const std::string &text);
    std::string format_, file_, report_file_;
    bool write_failed_ = false;
    std::string last_error_; // printed once, not after every run
};

} // namespace cmdbench
