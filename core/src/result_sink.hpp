// Where results go as each run completes: the console, and the -o file
// (rewritten whole after every run, so nothing is lost if a later run hangs
// or the process is killed). At the end, the comparison of the variants: as
// a table on a table stdout, and as the --report HTML page.
#pragma once
#include "result.hpp"

#include <string>

namespace cmdbench {

class ResultSink {
  public:
    ResultSink(std::string stdout_format, std::string output_file, std::string report_file = "");
    void run_done(const Report &report); // the last run of `report` just ended
    void finish(const Report &report);   // all runs ended (or were interrupted)

  private:
    void write_file(const Report &report) const;
    void write_comparison(const Report &report) const;
    std::string format_, file_, report_file_;
};

} // namespace cmdbench
