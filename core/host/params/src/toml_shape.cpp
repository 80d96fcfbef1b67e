#include "cmdbench/host/params/toml_shape.hpp"

#include <vector>

namespace cmdbench {
namespace {

// One pass over the text. The depth it counts is an upper bound on the
// nesting toml++ builds: a header's segments, then for each open array or
// inline table the segments of the key it is the value of, plus one.
class ShapeScan {
  public:
    explicit ShapeScan(std::string_view text) : text_(text) {}

    std::optional<TomlShapeError> run() {
        while (i_ < text_.size() && !error_) {
            const char c = text_[i_];
            if (c == '"' || c == '\'') {
                skip_string(c);
                has_token_ = true;
                continue;
            }
            if (c == '#') {
                while (i_ < text_.size() && text_[i_] != '\n')
                    advance();
                continue;
            }
            step(c);
            advance();
        }
        return error_;
    }

  private:
    void step(char c) {
        switch (c) {
        case '\n':
            if (stack_.empty() && !in_header_) in_value_ = false;
            end_run();
            break;
        case '.':
            if (++dots_ + 1 > kMaxTomlKeySegments)
                fail("a dotted key has more than " + std::to_string(kMaxTomlKeySegments) +
                     " segments");
            has_token_ = true;
            break;
        case '=':
            pending_ = segments();
            check_depth(depth() + pending_);
            if (stack_.empty()) in_value_ = true;
            end_run();
            break;
        case '[':
            if (stack_.empty() && !in_value_) {
                if (!in_header_) base_ = 0; // `[[` opens one header
                in_header_ = true;
                end_run();
                break;
            }
            open();
            break;
        case '{':
            open();
            break;
        case ']':
            if (stack_.empty() && in_header_) {
                if (has_token_) base_ = segments();
                check_depth(base_);
                in_header_ = false;
                end_run();
                break;
            }
            close();
            break;
        case '}':
            close();
            break;
        case ',':
            pending_ = 0;
            end_run();
            break;
        case ' ':
        case '\t':
        case '\r':
            break;
        default:
            has_token_ = true;
        }
    }

    void open() {
        stack_.push_back(pending_ + 1);
        pending_ = 0;
        end_run();
        check_depth(depth());
    }

    void close() {
        if (!stack_.empty()) stack_.pop_back();
        end_run();
    }

    size_t depth() const {
        size_t d = base_;
        for (size_t level : stack_)
            d += level;
        return d;
    }

    void check_depth(size_t d) {
        if (d > kMaxTomlDepth)
            fail("tables, arrays and inline tables nest more than " +
                 std::to_string(kMaxTomlDepth) + " deep");
    }

    size_t segments() const { return has_token_ ? dots_ + 1 : 0; }

    void end_run() {
        dots_ = 0;
        has_token_ = false;
    }

    // Past a string of any of TOML's four kinds; an unterminated one runs to
    // the end of the text (or line), where toml++ reports it properly.
    void skip_string(char quote) {
        const bool triple =
            text_.substr(i_, 3) == std::string_view(quote == '"' ? "\"\"\"" : "'''");
        advance(triple ? 3 : 1);
        while (i_ < text_.size()) {
            const char c = text_[i_];
            if (c == '\\' && quote == '"') {
                advance(2);
                continue;
            }
            if (c == '\n' && !triple) return;
            if (c == quote) {
                if (!triple) {
                    advance();
                    return;
                }
                if (text_.substr(i_, 3) == std::string_view(quote == '"' ? "\"\"\"" : "'''")) {
                    advance(3);
                    // Up to two more quotes belong to the string's content.
                    for (int k = 0; k < 2 && i_ < text_.size() && text_[i_] == quote; ++k)
                        advance();
                    return;
                }
            }
            advance();
        }
    }

    void advance(size_t n = 1) {
        for (; n > 0 && i_ < text_.size(); --n, ++i_) {
            if (text_[i_] == '\n') {
                ++line_;
                column_ = 1;
            } else {
                ++column_;
            }
        }
    }

    void fail(std::string message) {
        if (!error_) error_ = TomlShapeError{line_, column_, std::move(message)};
    }

    std::string_view text_;
    size_t i_ = 0;
    size_t line_ = 1;
    size_t column_ = 1;
    std::vector<size_t> stack_; // depth each open array or inline table adds
    size_t base_ = 0;           // the segments of the current [header]
    size_t pending_ = 0;        // the segments of the key just before `=`
    size_t dots_ = 0;           // in the current run of key or value text
    bool has_token_ = false;
    bool in_value_ = false;
    bool in_header_ = false;
    std::optional<TomlShapeError> error_;
};

} // namespace

std::optional<TomlShapeError> toml_shape_error(std::string_view text) {
    return ShapeScan(text).run();
}

} // namespace cmdbench
