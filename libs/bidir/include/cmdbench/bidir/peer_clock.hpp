// The offset between the two peers' monotonic clocks, so that the client can
// put the server's timestamps on its own time line (one machine: 0; two:
// whatever their clocks differ by), measured over the control channel.
#ifndef CMDBENCH_BIDIR_PEER_CLOCK_HPP
#define CMDBENCH_BIDIR_PEER_CLOCK_HPP

#include <cstdint>
#include <functional>
#include <vector>

namespace cmdbench::bidir {

// One exchange with the peer (the plugin's wrapper, which throws on failure).
using Exchange = std::function<std::vector<uint8_t>(const std::vector<uint8_t> &)>;

struct PeerClock {
    int64_t offset_ns = 0;       // server clock - client clock
    uint64_t uncertainty_ns = 0; // |error| is at most this
    // A server timestamp on the client's clock.
    uint64_t to_client(uint64_t server_ns) const {
        return uint64_t(int64_t(server_ns) - offset_ns);
    }
};

// Both peers call it at the same point: `rounds` + 1 exchanges. The server
// stamps its clock right after each exchange returns (so after the client's
// previous stamp left) and sends it in the next one, which the client
// receives before its next stamp: the server's time lies between the
// client's two stamps. The tightest round wins. Only the client's result
// means anything; the server gets {0, 0}.
PeerClock measure_peer_clock(const Exchange &exchange, uint64_t (*now_ns)(), bool client,
                             int rounds = 3);

// Big-endian u64 fields, for the figures the peers swap.
void put_u64(std::vector<uint8_t> &out, uint64_t v);
// Reads `count` fields; false when `in` does not hold exactly that many.
bool get_u64s(const std::vector<uint8_t> &in, size_t count, std::vector<uint64_t> &out);

} // namespace cmdbench::bidir

#endif
