// Peer clock offset over the control channel (see peer_clock.hpp).
#include "cmdbench/bidir/peer_clock.hpp"

namespace cmdbench::bidir {

void put_u64(std::vector<uint8_t> &out, uint64_t v) {
    for (int i = 7; i >= 0; --i)
        out.push_back(uint8_t(v >> (8 * i)));
}

bool get_u64s(const std::vector<uint8_t> &in, size_t count, std::vector<uint64_t> &out) {
    if (in.size() != 8 * count) return false;
    out.assign(count, 0);
    for (size_t k = 0; k < count; ++k)
        for (size_t i = 0; i < 8; ++i)
            out[k] = out[k] << 8 | in[8 * k + i];
    return true;
}

PeerClock measure_peer_clock(const Exchange &exchange, uint64_t (*now_ns)(), bool client,
                             int rounds) {
    PeerClock best;
    bool have = false;
    if (!client) {
        exchange({});
        for (int r = 0; r < rounds; ++r) {
            std::vector<uint8_t> stamp;
            put_u64(stamp, now_ns());
            exchange(stamp);
        }
        return best;
    }
    uint64_t sent_at = now_ns();
    exchange({});
    for (int r = 0; r < rounds; ++r) {
        const uint64_t t0 = sent_at;
        sent_at = now_ns();
        const std::vector<uint8_t> reply = exchange({});
        const uint64_t t1 = now_ns();
        std::vector<uint64_t> v;
        if (!get_u64s(reply, 1, v)) continue;
        // The server stamped after our message sent at t0 arrived and before
        // its reply left, which we had by t1.
        const uint64_t width = (t1 - t0) / 2;
        if (have && width >= best.uncertainty_ns) continue;
        best.uncertainty_ns = width;
        best.offset_ns = int64_t(v[0]) - int64_t(t0 + width);
        have = true;
    }
    return best;
}

} // namespace cmdbench::bidir
