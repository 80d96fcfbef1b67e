#include "format/printable_lines.hpp"

#include "cmdbench/control/printable_text.hpp"

#include <cstring>

namespace cmdbench {

void PrintableLineBuf::pass_line() {
    sink_ << printable_text(line_);
    line_.clear();
}

PrintableLineBuf::int_type PrintableLineBuf::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    if (ch == '\n') {
        pass_line();
        sink_ << '\n';
    } else {
        line_ += ch;
    }
    return sink_ ? c : traits_type::eof();
}

std::streamsize PrintableLineBuf::xsputn(const char *s, std::streamsize n) {
    for (std::streamsize i = 0; i < n;) {
        const auto *end = static_cast<const char *>(std::memchr(s + i, '\n', size_t(n - i)));
        const std::streamsize upto = end ? end - s : n;
        line_.append(s + i, size_t(upto - i));
        i = upto;
        if (!end) break;
        pass_line();
        sink_ << '\n';
        ++i;
    }
    return sink_ ? n : 0;
}

int PrintableLineBuf::sync() {
    if (!line_.empty()) pass_line();
    sink_.flush();
    return sink_ ? 0 : -1;
}

} // namespace cmdbench
