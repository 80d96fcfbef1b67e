// The boundary between the host's C++ and C plugins: an exception must not
// unwind through a plugin's frames (undefined behaviour in C, and it would
// skip the plugin's cleanup). Guarded<...>::call runs a host service, turns
// any exception into the service's failure value (CMDBENCH_ERR, NULL, 0) and
// records the reason where set_error would.
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"

#include <exception>
#include <string>
#include <type_traits>

namespace cmdbench {

inline cmdbench_ctx *ctx_of(cmdbench_ctx *ctx) {
    return ctx;
}
cmdbench_ctx *ctx_of(cmdbench_row *row); // host_services.cpp
template <class T> cmdbench_ctx *ctx_of(T) {
    return nullptr;
}

// Records "host service <name> failed: <why>" as the run's error; never throws.
void note_service_failure(cmdbench_ctx *ctx, const char *service, const char *why) noexcept;

template <class Sig, Sig *Fn, const char *Name> struct Guarded;

template <class R, class... A, R (*Fn)(A...), const char *Name> struct Guarded<R(A...), Fn, Name> {
    static R call(A... args) noexcept {
        cmdbench_ctx *ctx = nullptr;
        if constexpr (sizeof...(A) > 0) ctx = first_ctx(args...);
        try {
            return Fn(args...);
        } catch (const std::exception &e) {
            note_service_failure(ctx, Name, e.what());
        } catch (...) {
            note_service_failure(ctx, Name, "unknown exception");
        }
        if constexpr (std::is_same_v<R, int>)
            return CMDBENCH_ERR;
        else if constexpr (!std::is_void_v<R>)
            return R{};
    }

  private:
    template <class First, class... Rest> static cmdbench_ctx *first_ctx(First f, Rest...) {
        return ctx_of(f);
    }
};

} // namespace cmdbench
