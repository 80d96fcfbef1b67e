// A STRING parameter with fixed choices, declared once as {"poll",
// Mode::Poll}, ... : the "poll|event" text of the parameter table, the value
// each name stands for, and the name of each value, all from one list.
#ifndef CMDBENCH_PLUGIN_SUPPORT_CHOICE_HPP
#define CMDBENCH_PLUGIN_SUPPORT_CHOICE_HPP

#include "cmdbench/plugin-support/param_reader.hpp"

#include <initializer_list>
#include <string>
#include <vector>

namespace cmdbench::support {

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

} // namespace cmdbench::support

#endif
