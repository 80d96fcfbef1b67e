// A test's or transport's parameters declared once, each entry bound to the
// field of the plugin's own struct it fills: name, field, default, range and
// help. From the one list come the ABI's parameter table (the same
// cmdbench_param entries hand-written code would pass) and the struct filled
// from a run's values, so a default cannot drift between table and struct.
//
//   static const ParamSpec<Settings> spec = ParamSpec<Settings>()
//       .integer("depth", &Settings::depth, 128, 1, 16384, "requests in flight")
//       .choice("mode", &Settings::mode, kModes, Mode::Poll, "how to wait");
//   ... test_descriptor(name, description, flags, spec.size(), spec.table(), run)
//   const Settings s = spec.read(ParamReader(env, "mytest"));
//
// Also here: ParamReader, the run's values by type, and Choice, a STRING
// parameter's fixed names and the values they stand for.
//
// Header-only (with run_error.hpp): the SDK installs both, so an out-of-tree
// plugin uses them with no library of cmdbench's (examples/unix-transport
// does).
#ifndef CMDBENCH_PLUGIN_SUPPORT_PARAM_SPEC_HPP
#define CMDBENCH_PLUGIN_SUPPORT_PARAM_SPEC_HPP

#include "cmdbench/plugin-support/run_error.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <limits>
#include <list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cmdbench::support {

// Typed access to a run's parameters. The host already checked each value
// against the test's table (type and range); what is left for the plugin is
// reading it with the right type, checks across keys, and a clear error when
// a key is missing (a test whose table lacks it).
class ParamReader {
  public:
    // `owner` prefixes every error ("verbs-bw: ..."); empty for none.
    ParamReader(const cmdbench_run_env &env, std::string owner)
        : host_(env.host), ctx_(env.ctx), owner_(std::move(owner)) {}
    // A transport's hooks get the host and context without a run env.
    ParamReader(const cmdbench_host *host, cmdbench_ctx *ctx, std::string owner)
        : host_(host), ctx_(ctx), owner_(std::move(owner)) {}

    // Each throws RunError "<owner>: parameter NAME: not available as a TYPE".
    bool boolean(const char *name) const;
    int64_t integer(const char *name) const;
    // integer() for keys whose table range fits an int.
    int small_int(const char *name) const { return static_cast<int>(integer(name)); }
    double number(const char *name) const;
    std::string text(const char *name) const;
    // May be empty: a test that needs an entry checks (and names) it.
    std::vector<int64_t> int_list(const char *name) const;

    // A value outside what another key allows: throws RunError
    // "<owner>: KEY = VALUE must be in RANGE" plus " (NOTE)" when given.
    [[noreturn]] void out_of_range(const char *key, int64_t value, const std::string &range,
                                   const std::string &note = std::string()) const;
    // Throws RunError "<owner>: MESSAGE".
    [[noreturn]] void bad(const std::string &message) const;

  private:
    [[noreturn]] void unavailable(const char *name, const char *as) const;

    const cmdbench_host *host_;
    cmdbench_ctx *ctx_;
    std::string owner_;
};

inline void ParamReader::bad(const std::string &message) const {
    fail(owner_.empty() ? message : owner_ + ": " + message);
}

inline void ParamReader::unavailable(const char *name, const char *as) const {
    bad(std::string("parameter ") + name + ": not available as " + as);
}

inline void ParamReader::out_of_range(const char *key, int64_t value, const std::string &range,
                                      const std::string &note) const {
    bad(std::string(key) + " = " + std::to_string(value) + " must be in " + range +
        (note.empty() ? std::string() : " (" + note + ")"));
}

inline bool ParamReader::boolean(const char *name) const {
    int value = 0;
    if (host_->param_bool(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "a boolean");
    return value != 0;
}

inline int64_t ParamReader::integer(const char *name) const {
    int64_t value = 0;
    if (host_->param_int(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "an integer");
    return value;
}

inline double ParamReader::number(const char *name) const {
    double value = 0;
    if (host_->param_double(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "a number");
    return value;
}

inline std::string ParamReader::text(const char *name) const {
    const char *value = nullptr;
    if (host_->param_string(ctx_, name, &value) != CMDBENCH_OK || !value)
        unavailable(name, "a string");
    return value;
}

inline std::vector<int64_t> ParamReader::int_list(const char *name) const {
    const int64_t *values = nullptr;
    size_t count = 0;
    if (host_->param_int_list(ctx_, name, &values, &count) != CMDBENCH_OK)
        unavailable(name, "an integer list");
    return std::vector<int64_t>(values, values + count);
}

// A STRING parameter with fixed choices, declared once as {"poll",
// Mode::Poll}, ... : the "poll|event" text of the parameter table, the value
// each name stands for, and the name of each value, all from one list.
// Throws RunError "<owner>: parameter KEY: "TEXT" is not one of ALLOWED".
[[noreturn]] inline void bad_choice(const ParamReader &in, const char *key, const std::string &text,
                                    const std::string &allowed) {
    in.bad(std::string("parameter ") + key + ": \"" + text + "\" is not one of " + allowed);
}

template <typename E> struct ChoiceName {
    const char *name;
    E value;
};

template <typename E> class Choice {
  public:
    Choice(std::initializer_list<ChoiceName<E>> names) : names_(names) {
        for (const ChoiceName<E> &n : names_) {
            if (!joined_.empty()) joined_ += '|';
            joined_ += n.name;
        }
    }

    // "a|b|c", the table's `choices`.
    const std::string &joined() const { return joined_; }

    // The name of `value`, or "?" for one the list lacks.
    const char *name(E value) const {
        for (const ChoiceName<E> &n : names_)
            if (n.value == value) return n.name;
        return "?";
    }

    // The value `text` names. The host checks scenario values against the
    // table first, so a miss means a table and a list that disagree.
    E value(const ParamReader &in, const char *key, const std::string &text) const {
        for (const ChoiceName<E> &n : names_)
            if (text == n.name) return n.value;
        bad_choice(in, key, text, joined_);
    }

  private:
    std::vector<ChoiceName<E>> names_;
    std::string joined_;
};

// Defaults in scenario syntax, as the table carries them.
inline std::string bool_text(bool value) {
    return value ? "true" : "false";
}
inline std::string quoted_text(const std::string &value) {
    return "\"" + value + "\"";
}
inline std::string int_list_text(const std::vector<int64_t> &values) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
    return out + "]";
}
// A double default, written as the listing shows it ("2.0", "0"); throws
// std::invalid_argument when it is not a number.
inline double number_of(const std::string &text) {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
        throw std::invalid_argument("parameter default \"" + text + "\" is not a number");
    return value;
}

template <typename S> class ParamSpec {
  public:
    ParamSpec() = default;
    // The table points into this object's strings: keep one, do not copy it.
    ParamSpec(const ParamSpec &) = delete;
    ParamSpec &operator=(const ParamSpec &) = delete;
    ParamSpec(ParamSpec &&) = default;

    ParamSpec &flag(const char *name, bool S::*field, bool dflt, const char *help) {
        add(
            {sizeof(cmdbench_param), name, CMDBENCH_PARAM_BOOL, keep(bool_text(dflt)), 0, 0, 0, 0,
             nullptr, help},
            [field, dflt](S &s) { s.*field = dflt; },
            [field, name](const ParamReader &in, S &s) { s.*field = in.boolean(name); });
        return *this;
    }

    // Any integer field; the range must fit its type.
    template <typename T>
    ParamSpec &integer(const char *name, T S::*field, int64_t dflt, int64_t lo, int64_t hi,
                       const char *help) {
        static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "an integer field");
        fits<T>(name, lo, hi);
        add(
            {sizeof(cmdbench_param), name, CMDBENCH_PARAM_INT, keep(std::to_string(dflt)), lo, hi,
             0, 0, nullptr, help},
            [field, dflt](S &s) { s.*field = static_cast<T>(dflt); },
            [field, name](const ParamReader &in, S &s) {
                s.*field = static_cast<T>(in.integer(name));
            });
        return *this;
    }

    // `dflt` is text so the listing shows it as written ("2.0").
    ParamSpec &number(const char *name, double S::*field, const char *dflt, double lo, double hi,
                      const char *help) {
        const double value = number_of(dflt);
        add(
            {sizeof(cmdbench_param), name, CMDBENCH_PARAM_DOUBLE, keep(dflt), 0, 0, lo, hi, nullptr,
             help},
            [field, value](S &s) { s.*field = value; },
            [field, name](const ParamReader &in, S &s) { s.*field = in.number(name); });
        return *this;
    }

    // Free text; `dflt` unquoted ("" for empty).
    ParamSpec &text(const char *name, std::string S::*field, const std::string &dflt,
                    const char *help) {
        add(
            {sizeof(cmdbench_param), name, CMDBENCH_PARAM_STRING, keep(quoted_text(dflt)), 0, 0, 0,
             0, nullptr, help},
            [field, dflt](S &s) { s.*field = dflt; },
            [field, name](const ParamReader &in, S &s) { s.*field = in.text(name); });
        return *this;
    }

    template <typename E>
    ParamSpec &choice(const char *name, E S::*field, const Choice<E> &choices, E dflt,
                      const char *help) {
        add(
            {sizeof(cmdbench_param), name, CMDBENCH_PARAM_STRING,
             keep(quoted_text(choices.name(dflt))), 0, 0, 0, 0, keep(choices.joined()), help},
            [field, dflt](S &s) { s.*field = dflt; },
            [field, name, choices](const ParamReader &in, S &s) {
                s.*field = choices.value(in, name, in.text(name));
            });
        return *this;
    }

    // May be read empty (a scenario's []): the test checks and names that.
    ParamSpec &int_list(const char *name, std::vector<int64_t> S::*field,
                        const std::vector<int64_t> &dflt, int64_t lo, int64_t hi,
                        const char *help) {
        add(
            {sizeof(cmdbench_param), name, CMDBENCH_PARAM_INT_LIST, keep(int_list_text(dflt)), lo,
             hi, 0, 0, nullptr, help},
            [field, dflt](S &s) { s.*field = dflt; },
            [field, name](const ParamReader &in, S &s) { s.*field = in.int_list(name); });
        return *this;
    }

    const cmdbench_param *table() const { return table_.data(); }
    uint32_t size() const { return static_cast<uint32_t>(table_.size()); }

    // Every bound field set to its declared default.
    void apply_defaults(S &s) const {
        for (const Entry &e : entries_)
            e.apply_default(s);
    }
    S defaults() const {
        S s{};
        apply_defaults(s);
        return s;
    }

    // Every bound field read from the run (the host has applied defaults and
    // checked types and ranges); fields the list does not bind keep theirs.
    void fill(const ParamReader &in, S &s) const {
        for (const Entry &e : entries_)
            e.read(in, s);
    }
    S read(const ParamReader &in) const {
        S s{};
        fill(in, s);
        return s;
    }

  private:
    struct Entry {
        std::function<void(S &)> apply_default;
        std::function<void(const ParamReader &, S &)> read;
    };

    template <typename T> static void fits(const char *name, int64_t lo, int64_t hi) {
        using L = std::numeric_limits<T>;
        constexpr int64_t top = static_cast<uint64_t>(L::max()) > uint64_t{INT64_MAX}
                                    ? INT64_MAX
                                    : static_cast<int64_t>(L::max());
        if (lo > hi || lo < static_cast<int64_t>(L::min()) || hi > top)
            throw std::invalid_argument(std::string("parameter ") + name +
                                        ": range does not fit its field");
    }

    // A list's nodes stay put, so the table's pointers into them do too.
    const char *keep(std::string text) {
        texts_.push_back(std::move(text));
        return texts_.back().c_str();
    }

    void add(const cmdbench_param &decl, std::function<void(S &)> apply_default,
             std::function<void(const ParamReader &, S &)> read) {
        table_.push_back(decl);
        entries_.push_back({std::move(apply_default), std::move(read)});
    }

    std::list<std::string> texts_;
    std::vector<cmdbench_param> table_;
    std::vector<Entry> entries_;
};

} // namespace cmdbench::support

#endif
