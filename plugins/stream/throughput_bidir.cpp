// throughput, bidirectional (see throughput_bidir.hpp). One thread per side
// serves both directions: it alternates non-blocking sends and receives, so
// its sender and its receiver are active at once and neither waits for the
// other. Each direction is measured by its receiver, from the first byte to
// the EOF, as one-way throughput is; the client puts the server's receive
// window on its own clock (bidir::measure_peer_clock) to report both
// directions on one time line.
#include "throughput_bidir.hpp"

#include "rate_row.hpp"
#include "rstream_rules.hpp"

#include <algorithm>
#include <cmdbench/bidir/bidir_rows.hpp>
#include <cmdbench/bidir/peer_clock.hpp>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <string>
#include <vector>

namespace cmdbench::stream {
namespace {

// What one side did for one size, on its own clock.
struct SideFigures {
    uint64_t sent_bytes = 0, sent_msgs = 0, send_start = 0, send_end = 0;
    uint64_t recv_bytes = 0, recv_start = 0, recv_end = 0;
};
constexpr size_t kFields = 7;

std::vector<uint8_t> encode(const SideFigures &f) {
    std::vector<uint8_t> out;
    for (uint64_t v : {f.sent_bytes, f.sent_msgs, f.send_start, f.send_end, f.recv_bytes,
                       f.recv_start, f.recv_end})
        bidir::put_u64(out, v);
    return out;
}

SideFigures decode(const std::vector<uint8_t> &in) {
    std::vector<uint64_t> v;
    if (!bidir::get_u64s(in, kFields, v))
        fail("throughput figures exchange: unexpected message length");
    return {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
}

// When a side sends its end of stream: at once, or, for the client, once
// it has the server's (see move_both).
class HalfClose {
  public:
    HalfClose(DataChannel &channel, bool after_peer) : channel_(channel), after_peer_(after_peer) {}
    void sent_all(bool peer_sending) {
        if (after_peer_ && peer_sending)
            pending_ = true;
        else
            channel_.shutdown_send();
    }
    void peer_ended() {
        if (pending_) channel_.shutdown_send();
        pending_ = false;
    }

  private:
    DataChannel &channel_;
    bool after_peer_, pending_ = false;
};

// Streams `limits` out while reading the peer's stream to its EOF. The
// client half-closes only once it has the server's EOF, so the two
// half-closes never cross: with rsockets, a side that gets the peer's
// shutdown while its own is still waiting for its sends ends that wait and
// tears the connection down, and sends it had not put on the wire yet are
// lost (docs/bidirectional.md). The client's bytes are counted when sent;
// its EOF can reach the server later, by as much as the server's stream
// outlasts its own.
SideFigures move_both(const Run &s, DataChannel &channel, uint8_t *buf, size_t size,
                      const Limits &limits) {
    HalfClose half_close(channel, s.is_client());
    const cmdbench_host &h = s.host();
    SideFigures f;
    f.send_start = h.now_ns();
    const uint64_t deadline =
        limits.duration > 0 ? f.send_start + static_cast<uint64_t>(limits.duration * 1e9) : 0;
    size_t message = deadline ? size : static_cast<size_t>(std::min<uint64_t>(size, limits.bytes));
    size_t message_done = 0;
    bool sending = true, receiving = true;
    for (uint32_t rounds = 1; sending || receiving; ++rounds) {
        bool moved = false;
        if (receiving) {
            // One byte first, so that the clock starts at the first byte's
            // arrival (as the one-way receiver's), then up to the next
            // send-size boundary.
            const size_t want =
                f.recv_bytes == 0 ? 1 : size - static_cast<size_t>(f.recv_bytes % size);
            const ssize_t n = channel.recv_now(buf, want);
            if (n == 0) {
                f.recv_end = h.now_ns();
                if (f.recv_bytes == 0) f.recv_start = f.recv_end;
                receiving = false;
                half_close.peer_ended();
            } else if (n > 0) {
                if (f.recv_bytes == 0) f.recv_start = h.now_ns();
                f.recv_bytes += static_cast<uint64_t>(n);
            }
            moved = n >= 0;
        }
        if (sending) {
            // The same buffer as the receiver's: the content is not checked.
            const ssize_t n = channel.send_now(buf + message_done, message - message_done);
            if (n > 0) {
                moved = true;
                message_done += static_cast<size_t>(n);
            }
            if (message_done == message) {
                f.sent_bytes += message;
                ++f.sent_msgs;
                message_done = 0;
                const uint64_t now = h.now_ns();
                if (deadline ? now >= deadline : f.sent_bytes >= limits.bytes) {
                    f.send_end = now;
                    half_close.sent_all(receiving);
                    sending = false;
                } else if (!deadline) {
                    message =
                        static_cast<size_t>(std::min<uint64_t>(size, limits.bytes - f.sent_bytes));
                }
            }
        }
        if (!moved) channel.idle(receiving, sending);
        if ((rounds & 1023) == 0) s.check_stop("throughput");
    }
    return f;
}

void check_delivered(const char *direction, uint64_t sent, uint64_t received) {
    if (sent == received) return;
    fail(std::string("throughput ") + direction + ": the receiver got " + std::to_string(received) +
         " of " + std::to_string(sent) + " bytes");
}

struct DirectionRow {
    bidir::Direction direction;
    uint64_t bytes, messages, send_ns;
};

void report_direction(const Run &s, int64_t size, const DirectionRow &d, const bidir::Timeline &t) {
    const cmdbench_host &h = s.host();
    const bidir::Span &span = d.direction == bidir::Direction::ClientToServer ? t.c2s : t.s2c;
    const double seconds = static_cast<double>(std::max<uint64_t>(span.ns(), 1)) / 1e9;
    const double bytes = static_cast<double>(d.bytes);
    cmdbench_row *row = begin_rate_row(
        h, s.ctx(), bidir::row_name(rstream_size_label(size), d.direction), size, bytes, seconds,
        static_cast<double>(d.messages), cmdbench::support::meaning::kMoved);
    namespace m = cmdbench::support::meaning;
    h.row_metric_ex(row, "send_time", static_cast<double>(d.send_ns) / 1e9, CMDBENCH_UNIT_SECONDS,
                    &m::kElapsed);
    bidir::put_span(h, row, t, d.direction);
    h.row_end(row);
}

// Both directions' bytes over the union of their windows: what the link
// carried while either direction was moving.
void report_sum(const Run &s, int64_t size, const DirectionRow &c2s, const DirectionRow &s2c,
                const bidir::Timeline &t, const bidir::PeerClock &clock) {
    const cmdbench_host &h = s.host();
    const double seconds = static_cast<double>(std::max<uint64_t>(t.union_ns(), 1)) / 1e9;
    const double bytes = static_cast<double>(c2s.bytes + s2c.bytes);
    cmdbench_row *row = begin_rate_row(
        h, s.ctx(), bidir::row_name(rstream_size_label(size), bidir::Direction::Both), size, bytes,
        seconds, static_cast<double>(c2s.messages + s2c.messages), bidir::kSumBytes);
    bidir::put_overlap(h, row, t, clock);
    h.row_end(row);
}

} // namespace

void check_bidir_params(const IoMode &mode) {
    if (mode.blocking)
        fail("throughput: blocking = true cannot be combined with bidirectional = true (one "
             "thread serves both directions, so its calls must not block): use blocking = false, "
             "with async = true to wait in poll");
}

void run_bidir_size(const Run &s, DataChannel &channel, uint8_t *buf, int64_t size,
                    const Limits &limits) {
    s.barrier("throughput both ways");
    const SideFigures mine = move_both(s, channel, buf, static_cast<size_t>(size), limits);
    channel.close();
    std::vector<uint8_t> theirs(8 * kFields);
    const std::vector<uint8_t> ours = encode(mine);
    const uint32_t got = s.exchange(ours.data(), uint32_t(ours.size()), theirs.data(),
                                    uint32_t(theirs.size()), "throughput figures exchange");
    theirs.resize(got);
    const SideFigures peer = decode(theirs);
    const bidir::Exchange exchange = [&s](const std::vector<uint8_t> &out) {
        std::vector<uint8_t> in(64);
        const uint32_t n = s.exchange(out.data(), uint32_t(out.size()), in.data(),
                                      uint32_t(in.size()), "throughput clock exchange");
        in.resize(n);
        return in;
    };
    const bidir::PeerClock clock =
        bidir::measure_peer_clock(exchange, s.host().now_ns, s.is_client());
    const SideFigures &client = s.is_client() ? mine : peer;
    const SideFigures &server = s.is_client() ? peer : mine;
    check_delivered("client to server", client.sent_bytes, server.recv_bytes);
    check_delivered("server to client", server.sent_bytes, client.recv_bytes);
    if (!s.is_client()) return;
    bidir::Timeline t;
    t.c2s = {clock.to_client(server.recv_start), clock.to_client(server.recv_end)};
    t.s2c = {client.recv_start, client.recv_end};
    const DirectionRow c2s{bidir::Direction::ClientToServer, server.recv_bytes, client.sent_msgs,
                           client.send_end - client.send_start};
    const DirectionRow s2c{bidir::Direction::ServerToClient, client.recv_bytes, server.sent_msgs,
                           server.send_end - server.send_start};
    report_direction(s, size, c2s, t);
    report_direction(s, size, s2c, t);
    report_sum(s, size, c2s, s2c, t, clock);
}

} // namespace cmdbench::stream
