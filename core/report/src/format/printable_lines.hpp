// An output stream that passes its text on a line at a time, each line made
// printable (printable_text): the console table shows names that scenarios,
// plugins and peers chose -- runs, variants, rails, rows --, and none of
// them may move the cursor, retitle the window or clear the screen of
// whoever reads it. A line's end is kept; everything else a terminal would
// act on becomes a visible escape ("\x1b").
#pragma once
#include <ostream>
#include <streambuf>
#include <string>

namespace cmdbench {

class PrintableLineBuf : public std::streambuf {
  public:
    explicit PrintableLineBuf(std::ostream &sink) : sink_(sink) {}
    // What is left of a line without its end is passed on, too.
    int sync() override;

  protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char *s, std::streamsize n) override;

  private:
    void pass_line();
    std::ostream &sink_;
    std::string line_;
};

// The stream to write to: passes everything on by the time it is destroyed.
class PrintableLines : public std::ostream {
  public:
    explicit PrintableLines(std::ostream &sink) : std::ostream(&buf_), buf_(sink) {}
    ~PrintableLines() override { buf_.pubsync(); }

  private:
    PrintableLineBuf buf_;
};

} // namespace cmdbench
