// RDMA atomics of the verbs tests (see atomics.hpp).
#include "atomics.hpp"

#include <cstdio>
#include <cstring>

namespace cmdbench::verbs {
namespace {

std::string hex(uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
    return text;
}

std::string list_text(const std::vector<int64_t> &list) {
    std::string out = "[";
    for (size_t i = 0; i < list.size(); ++i)
        out += (i ? ", " : "") + std::to_string(list[i]);
    return out + "]";
}

} // namespace

void check_atomic_params(const cmdbench::support::ParamReader &in, Params &p) {
    const std::string op = std::string("op = \"") + op_name(p.op) + "\"";
    // verbs-lat's table cannot say "by op", so its own default stands for
    // "not set" (an explicit sizes = [2] reads the same).
    if (p.sizes_by_default) p.sizes = {kAtomicSize};
    for (int64_t size : p.sizes)
        if (size != kAtomicSize)
            in.bad("sizes = " + list_text(p.sizes) + " does not apply to " + op +
                   ": an atomic moves an 8-byte operand, so sizes must be [8] (or left out)");
    if (p.inline_size > 0)
        in.bad("inline_size = " + std::to_string(p.inline_size) + " does not apply to " + op +
               " (an atomic carries no inline data): use -1 or 0");
    if (p.bidirectional)
        in.bad("bidirectional = true does not apply to " + op +
               ": the server stays passive (its target is the client's to change)");
}

void check_atomic_result(const Conn &conn, const AtomicSeq &seq) {
    uint64_t got = 0;
    std::memcpy(&got, conn.recv_buf(), sizeof got);
    if (got == seq.want()) return;
    fail("verbs-lat: atomic verification failed: QP " + std::to_string(conn.index()) + ", atomic " +
         std::to_string(seq.number()) + ": got " + hex(got) + ", want " + hex(seq.want()));
}

} // namespace cmdbench::verbs
