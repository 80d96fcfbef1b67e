// The core's one currency for "a value, or why not": what a function returns
// when failing is an outcome its caller handles (a bad value in a file, a
// device with no NUMA node), not the end of a command. Exceptions stay for
// what ends a command (usage_error.hpp, ScenarioError, ControlError).
#pragma once
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace cmdbench {

// Why something failed: a sentence for the user ("must be in [1, 65535], got 0").
struct Unexpected {
    std::string why;
};
inline Unexpected unexpected(std::string why) {
    return Unexpected{std::move(why)};
}

// A T, or why there is none.
template <class T> class [[nodiscard]] Expected {
  public:
    Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Expected(Unexpected failure) : v_(std::in_place_index<1>, std::move(failure)) {}
    // Anything else that a T could be made from is refused, so that an error
    // text can never pass for a value (a ParamValue holds strings): a
    // failure goes through unexpected().
    template <class U, class = std::enable_if_t<!std::is_same_v<std::decay_t<U>, T> &&
                                                !std::is_same_v<std::decay_t<U>, Unexpected>>>
    Expected(U &&) = delete;

    bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T &value() & { return std::get<0>(v_); }
    const T &value() const & { return std::get<0>(v_); }
    T &&value() && { return std::get<0>(std::move(v_)); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    // Only when !has_value().
    const std::string &error() const { return std::get<1>(v_).why; }

  private:
    std::variant<T, Unexpected> v_;
};

// Fine, or why not. No operator*: a caller asks ok() and reads error().
class [[nodiscard]] Status {
  public:
    Status() = default; // fine
    Status(Unexpected failure) : failed_(true), why_(std::move(failure.why)) {}

    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    // Only when !ok().
    const std::string &error() const { return why_; }

  private:
    bool failed_ = false;
    std::string why_;
};

} // namespace cmdbench
