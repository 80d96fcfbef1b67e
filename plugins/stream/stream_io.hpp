// Connection and transfer helpers shared by the stream tests. Every data-plane
// call goes through the run's transport table, so the tests run unchanged over
// tcp, rsocket or a third-party transport. Every wait is bounded by the host's
// remaining time and ends on cancellation.
//
// Failures are thrown as the support library's RunError and turned into a
// status + set_error at the test's ABI edge (its run_guarded).
#ifndef CMDBENCH_STREAM_IO_HPP
#define CMDBENCH_STREAM_IO_HPP

#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cmdbench/plugin.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench::stream {

// fail(message); fail_errno(call, err): "<call>: <strerror(err)>", the way
// rstream names its failed calls.
using cmdbench::support::fail;
using cmdbench::support::fail_errno;

// One role of one run: the host services, the transport and the role.
class Run {
  public:
    // Fails without a transport: the stream tests need one.
    explicit Run(const cmdbench_run_env &env);

    const cmdbench_host &host() const { return *host_; }
    cmdbench_ctx *ctx() const { return ctx_; }
    const cmdbench_transport &transport() const { return *transport_; }
    bool is_client() const { return client_; }
    const char *peer_host() const { return peer_host_; }

    const cmdbench_run_env &env() const { return *env_; }

    // Throws TIMEOUT or CANCELLED (naming `what`) once the run must stop.
    void check_stop(const char *what) const;
    // A poll timeout for one bounded wait: min(remaining, kWaitSliceMs),
    // short so that a cancel (Ctrl-C, the peer gone) is seen at once.
    static constexpr int64_t kWaitSliceMs = 200;
    int wait_slice_ms(const char *what) const;

    // Control plane wrappers that throw on failure.
    void barrier(const char *name) const;
    uint32_t exchange(const void *data, uint32_t len, void *buf, uint32_t cap,
                      const char *what) const;

  private:
    const cmdbench_run_env *env_;
    const cmdbench_host *host_;
    cmdbench_ctx *ctx_;
    const cmdbench_transport *transport_;
    bool client_;
    const char *peer_host_;
};

// A transport handle, closed on destruction.
class Socket {
  public:
    Socket(const Run &run, int fd) : run_(&run), fd_(fd) {}
    Socket(Socket &&other) noexcept : run_(other.run_), fd_(other.fd_) { other.fd_ = -1; }
    Socket &operator=(Socket &&) = delete;
    Socket(const Socket &) = delete;
    ~Socket();

    int fd() const { return fd_; }
    // shutdown(SHUT_RDWR) then close, as rstream ends a phase.
    void shutdown_and_close();

  private:
    const Run *run_;
    int fd_;
};

// The server's listening socket, bound to the run's peer_host and `port`.
class Listener {
  public:
    Listener(const Run &run, uint16_t port, uint32_t hint);

    // The bound port (the ephemeral one when asked for 0).
    uint16_t local_port() const;
    // Configure the listener, wait (bounded) for a client, and configure the
    // accepted socket unless `configure_accepted` is false (fork mode
    // configures it in the child, as rstream does).
    Socket accept_client(bool configure_accepted = true);
    // The transport's configuration of an accepted socket, for this hint.
    void configure_accepted(int fd) const;
    // The hint for the next accept (rstream reconfigures its one listener
    // between the latency and the bandwidth phase).
    void set_hint(uint32_t hint) { hint_ = hint; }

  private:
    const Run *run_;
    Socket sock_;
    uint32_t hint_;
    // configure() ran before bind; the first accept needs no second call.
    bool fresh_configuration_ = true;
};

// Tell the client where to connect: the ephemeral port via exchange when
// `port` is 0, otherwise just a "listening" barrier.
void announce_port(const Run &run, const Listener &listener, uint16_t port);
// The client's side of announce_port; returns the port to connect to.
uint16_t learn_port(const Run &run, uint16_t port);

// Resolve peer_host:port (transport->resolve or getaddrinfo), create, configure
// and connect a client socket; the connect wait is bounded. A non-empty
// `local` is bound first, with the same port (rstream's client -b).
Socket connect_to_server(const Run &run, uint16_t port, uint32_t hint,
                         const std::string &local = std::string());

// rstream's IO modes.
struct IoMode {
    bool blocking = false; // MSG_WAITALL and a blocking socket, else MSG_DONTWAIT + O_NONBLOCK
    bool async = false;    // poll for readiness before every send/recv
};

// The keys both stream tests take for their data connection, bound to the
// test's settings: an IoMode (S derives from it) and `port`, the data port
// (announce_port / learn_port).
template <typename S> void add_io_params(cmdbench::support::ParamSpec<S> &spec) {
    spec.flag("blocking", &S::blocking, false,
              "blocking sockets with MSG_WAITALL instead of non-blocking busy polling")
        .flag("async", &S::async, false, "poll for readiness before every send and receive")
        .integer("port", &S::port, 0, 0, 65535,
                 "data port; 0 = ephemeral, announced over the control channel");
}

// The run's settings; `sizes` must list one size at least.
template <typename S> S read_settings(const Run &s, const cmdbench::support::ParamSpec<S> &spec) {
    S settings = spec.read(cmdbench::support::ParamReader(s.env(), std::string()));
    if (settings.sizes.empty()) fail("parameter sizes: not available as an integer list");
    return settings;
}

// A connected socket used in one IO mode: moves whole transfers.
class DataChannel {
  public:
    DataChannel(const Run &run, Socket sock, IoMode mode);

    // Move exactly len bytes; a peer that closes first is an error.
    void send_all(const uint8_t *buf, size_t len);
    void recv_all(uint8_t *buf, size_t len);
    // At least one byte, or 0 when the peer closed its sending side.
    size_t recv_some(uint8_t *buf, size_t len);

    void shutdown_send();
    void close() { sock_.shutdown_and_close(); }

    // Both directions from one thread (throughput's bidirectional mode;
    // non-blocking sockets only). One call each, no waiting: the bytes
    // moved, -1 when the call would block; recv_now's 0 is the peer's EOF.
    ssize_t send_now(const uint8_t *buf, size_t len);
    ssize_t recv_now(uint8_t *buf, size_t len);
    // After a round in which neither moved anything: in async mode a bounded
    // wait until readable (`want_recv`) or writable (`want_send`); else a
    // spin tick.
    void idle(bool want_recv, bool want_send);

  private:
    void wait_ready(short events, const char *call);
    // rstream -T a: a readiness wait that reports POLLERR/POLLHUP fails the
    // test with those bits as its status; the message ends in
    // "(poll revents: POLLERR|POLLHUP)" so that front ends can tell.
    [[noreturn]] void fail_poll(const char *call, short bits, const std::string &detail);
    // Why a socket failed, from SO_ERROR, or `fallback`.
    std::string socket_error(const std::string &fallback);
    // After a call that made no progress (EAGAIN, EINTR).
    void on_no_progress(const char *call);
    // Cheap: consults the host once every kSpinCheck calls.
    void tick(const char *call) {
        if ((++spins_ & (kSpinCheck - 1)) == 0) run_->check_stop(call);
    }
    static constexpr uint32_t kSpinCheck = 1024;

    const Run *run_;
    Socket sock_;
    IoMode mode_;
    int flags_;
    bool poll_first_; // async, or blocking without per-call socket timeouts
    uint32_t spins_ = 0;
    // POLLERR/POLLHUP of the last -T a wait that still had data to read:
    // the receive drains it, and fails with these bits once nothing is left.
    short hangup_ = 0;
};

} // namespace cmdbench::stream

#endif
