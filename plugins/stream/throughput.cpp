// Test "throughput": one-way streaming from client to server, one data
// connection per size; end of stream (EOF) marks the end. The receiver's
// figures are the reference, so both rows report delivered bytes. With
// bidirectional = true both peers stream at once (throughput_bidir.cpp).
#include "rate_row.hpp"
#include "rstream_rules.hpp"
#include "stream_io.hpp"
#include "stream_tests.hpp"
#include "throughput_bidir.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <cmdbench/plugin-support/run_guard.hpp>
#include <cstdio>
#include <optional>
#include <vector>

namespace cmdbench::stream {
namespace {

using cmdbench::support::get_be64;
using cmdbench::support::put_be64;

constexpr int64_t kMaxSize = 1073741824;
constexpr int64_t kMaxBytes = 1099511627776;

struct Settings : IoMode {
    std::vector<int64_t> sizes;
    double duration;
    int64_t bytes;
    uint16_t port;
    bool bidirectional;
    bool run_infinitely;
};

const cmdbench::support::ParamSpec<Settings> &params() {
    static const auto spec = [] {
        cmdbench::support::ParamSpec<Settings> p;
        p.int_list("sizes", &Settings::sizes, {65536, 1048576}, 1, kMaxSize,
                   "bytes per send call; one connection and result row each")
            .number("duration", &Settings::duration, "2.0", 0, 3600,
                    "seconds to stream per size; 0 = send `bytes` instead")
            .integer("bytes", &Settings::bytes, 0, 0, kMaxBytes,
                     "bytes to stream per size when duration is 0");
        add_io_params(p);
        p.flag("bidirectional", &Settings::bidirectional, false,
               "both peers send and receive at once (iperf3 --bidir): rows \"<size> c2s\", "
               "\"<size> s2c\" and their sum \"<size> bidir\"");
        p.flag("run_infinitely", &Settings::run_infinitely, false,
               "stream until the run is stopped, a row per `duration` window measured at the "
               "sender (\"<size> #1\", ...): one size, one way");
        return p;
    }();
    return spec;
}

// What the client sent, and what the server received, for one size. They
// cross the control channel as big-endian u64 fields.
struct SenderFigures {
    uint64_t bytes = 0;
    uint64_t messages = 0;
    uint64_t ns = 0;
};

struct ReceiverFigures {
    uint64_t bytes = 0;
    uint64_t ns = 0;
};

constexpr uint32_t kSenderLen = 24;
constexpr uint32_t kReceiverLen = 16;

// Both sides call this once per size: the client's figures go one way, the
// server's the other.
void swap_figures(const Run &s, SenderFigures &sender, ReceiverFigures &receiver) {
    uint8_t out[kSenderLen] = {};
    uint8_t in[kSenderLen] = {};
    uint32_t out_len = 0;
    if (s.is_client()) {
        put_be64(out, sender.bytes);
        put_be64(out + 8, sender.messages);
        put_be64(out + 16, sender.ns);
        out_len = kSenderLen;
    } else {
        put_be64(out, receiver.bytes);
        put_be64(out + 8, receiver.ns);
        out_len = kReceiverLen;
    }
    uint32_t got = s.exchange(out, out_len, in, sizeof(in), "throughput figures exchange");
    if (got != (s.is_client() ? kReceiverLen : kSenderLen))
        fail("throughput figures exchange: unexpected message length");
    if (s.is_client()) {
        receiver.bytes = get_be64(in);
        receiver.ns = get_be64(in + 8);
    } else {
        sender.bytes = get_be64(in);
        sender.messages = get_be64(in + 8);
        sender.ns = get_be64(in + 16);
    }
}

SenderFigures send_stream(const Run &s, DataChannel &channel, const uint8_t *buf, size_t size,
                          const Limits &limits) {
    const cmdbench_host &h = s.host();
    SenderFigures sent;
    const uint64_t start = h.now_ns();
    uint64_t now = start;
    if (limits.duration > 0) {
        const uint64_t deadline = start + static_cast<uint64_t>(limits.duration * 1e9);
        do {
            channel.send_all(buf, size);
            sent.bytes += size;
            ++sent.messages;
            now = h.now_ns();
        } while (now < deadline);
    } else {
        while (sent.bytes < limits.bytes) {
            const size_t len =
                static_cast<size_t>(std::min<uint64_t>(size, limits.bytes - sent.bytes));
            channel.send_all(buf, len);
            sent.bytes += len;
            ++sent.messages;
        }
        now = h.now_ns();
    }
    sent.ns = now - start;
    return sent;
}

// Read to EOF; time runs from the first received byte.
ReceiverFigures receive_stream(const Run &s, DataChannel &channel, uint8_t *buf, size_t size) {
    const cmdbench_host &h = s.host();
    ReceiverFigures got;
    // One byte first, so that the clock starts as close as possible to the
    // first byte's arrival rather than after a whole buffer has queued up.
    size_t n = channel.recv_some(buf, 1);
    const uint64_t first = h.now_ns();
    while (n > 0) {
        got.bytes += n;
        // Read up to the next send-size boundary: after the 1-byte read a
        // plain `size` read would straddle every sender write, doubling the
        // receive calls.
        n = channel.recv_some(buf, size - static_cast<size_t>(got.bytes % size));
    }
    got.ns = h.now_ns() - first;
    return got;
}

void report_row(const Run &s, int64_t size, const SenderFigures &sent,
                const ReceiverFigures &received) {
    const cmdbench_host &h = s.host();
    const double seconds = static_cast<double>(std::max<uint64_t>(received.ns, 1)) / 1e9;
    const double bytes = static_cast<double>(received.bytes);
    cmdbench_row *row =
        begin_rate_row(h, s.ctx(), rstream_size_label(size), size, bytes, seconds,
                       static_cast<double>(sent.messages), cmdbench::support::meaning::kMoved);
    namespace m = cmdbench::support::meaning;
    if (s.is_client())
        h.row_metric_ex(row, "send_time", static_cast<double>(sent.ns) / 1e9, CMDBENCH_UNIT_SECONDS,
                        &m::kElapsed);
    h.row_end(row);
}

void check_delivered(const SenderFigures &sent, const ReceiverFigures &received) {
    if (sent.bytes == received.bytes) return;
    char text[128];
    std::snprintf(text, sizeof(text), "throughput: the receiver got %llu of %llu bytes",
                  static_cast<unsigned long long>(received.bytes),
                  static_cast<unsigned long long>(sent.bytes));
    fail(text);
}

// run_infinitely at the client: window after window of `duration`, each a
// row from the sender's figures as soon as it ends, until the run is
// stopped (the send fails as cancelled); every finished window is kept.
// The receiver reads until the stream ends.
[[noreturn]] void stream_forever(const Run &s, uint16_t server_port, const IoMode &mode,
                                 uint8_t *buf, int64_t size, double window) {
    DataChannel channel(s, connect_to_server(s, server_port, CMDBENCH_HINT_BANDWIDTH), mode);
    const Limits limits{window, 0};
    for (unsigned k = 1;; ++k) {
        const SenderFigures sent = send_stream(s, channel, buf, static_cast<size_t>(size), limits);
        const double seconds = static_cast<double>(std::max<uint64_t>(sent.ns, 1)) / 1e9;
        cmdbench_row *row =
            begin_rate_row(s.host(), s.ctx(), rstream_size_label(size) + " #" + std::to_string(k),
                           size, static_cast<double>(sent.bytes), seconds,
                           static_cast<double>(sent.messages), cmdbench::support::meaning::kMoved);
        s.host().row_end(row);
    }
}

void check_forever_params(const Settings &p) {
    if (!p.run_infinitely) return;
    if (p.duration <= 0) fail("throughput: run_infinitely needs duration > 0 (the window)");
    if (p.sizes.size() != 1 || p.bidirectional)
        fail("throughput: run_infinitely takes one size and one direction (bidirectional = "
             "false)");
}

// One size streamed one way, client to server, and its row.
void run_one_way_size(Run &s, std::optional<Listener> &listener, uint16_t server_port,
                      const IoMode &mode, uint8_t *buf, int64_t size_bytes, const Limits &limits) {
    const auto size = static_cast<size_t>(size_bytes);
    SenderFigures sent;
    ReceiverFigures received;
    if (s.is_client()) {
        DataChannel channel(s, connect_to_server(s, server_port, CMDBENCH_HINT_BANDWIDTH), mode);
        sent = send_stream(s, channel, buf, size, limits);
        channel.shutdown_send();
        swap_figures(s, sent, received);
        channel.close();
    } else {
        DataChannel channel(s, listener->accept_client(), mode);
        received = receive_stream(s, channel, buf, size);
        channel.close();
        swap_figures(s, sent, received);
    }
    check_delivered(sent, received);
    report_row(s, size_bytes, sent, received);
}

void run_throughput(Run &s) {
    const Settings p = read_settings(s, params());
    const std::vector<int64_t> &sizes = p.sizes;
    const Limits limits{p.duration, static_cast<uint64_t>(p.bytes)};
    const IoMode mode = p;
    const uint16_t port = p.port;
    if (limits.duration <= 0 && limits.bytes == 0)
        fail("throughput: duration and bytes are both 0; set one of them");
    const bool both_ways = p.bidirectional;
    if (both_ways) check_bidir_params(mode);
    check_forever_params(p);

    const int64_t largest = *std::max_element(sizes.begin(), sizes.end());
    std::vector<uint8_t> buf(static_cast<size_t>(largest));

    // The server keeps one listener for all sizes (as rstream keeps its own).
    std::optional<Listener> listener;
    uint16_t server_port = port;
    if (s.is_client()) {
        server_port = learn_port(s, port);
    } else {
        listener.emplace(s, port, CMDBENCH_HINT_BANDWIDTH);
        announce_port(s, *listener, port);
    }

    if (p.run_infinitely) {
        if (s.is_client()) {
            stream_forever(s, server_port, mode, buf.data(), sizes[0], p.duration);
            return;
        }
        DataChannel channel(s, listener->accept_client(), mode);
        receive_stream(s, channel, buf.data(), static_cast<size_t>(sizes[0]));
        return;
    }
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (both_ways) {
            DataChannel channel(s,
                                s.is_client()
                                    ? connect_to_server(s, server_port, CMDBENCH_HINT_BANDWIDTH)
                                    : listener->accept_client(),
                                mode);
            run_bidir_size(s, channel, buf.data(), sizes[i], limits);
            s.host().progress(s.ctx(), i + 1, sizes.size());
            continue;
        }
        run_one_way_size(s, listener, server_port, mode, buf.data(), sizes[i], limits);
        s.host().progress(s.ctx(), i + 1, sizes.size());
    }
}

} // namespace

const cmdbench_test &throughput_test() {
    static const cmdbench_test test = cmdbench::support::test_descriptor(
        "throughput",
        "One-way (or with bidirectional, two-way) streaming throughput per send size, measured at "
        "the receiver",
        CMDBENCH_TEST_USES_TRANSPORT, params().size(), params().table(),
        cmdbench::support::guarded_run<Run, run_throughput>);
    return test;
}

} // namespace cmdbench::stream
