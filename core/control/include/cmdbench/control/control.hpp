// The out-of-band control channel between peers: versioned, length-prefixed
// messages in network byte order, a timeout on every wait, a bound on every
// message read. Never raw structs on the wire.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench::control {

constexpr uint32_t kMagic = 0x434d4442; // "CMDB"
// 2: RunEnd carries the sender's CPU time. 3: Hello carries a nonce and an
// Auth/AuthAck exchange follows it (control_auth.hpp). Peers of another
// version are refused at the handshake (decode_header).
constexpr uint16_t kProtocolVersion = 3;
constexpr uint32_t kHeaderSize = 12;       // magic u32, version u16, type u16, length u32
constexpr uint32_t kMaxPayload = 1u << 20; // larger frames are refused unread
// Bound on handshake and run set-up replies, where no run deadline applies yet.
constexpr int kHandshakeTimeoutMs = 10000;
// A server waits this long for a new client's Hello.
constexpr int kHelloTimeoutMs = 5000;
// And this long for the whole handshake (Hello to Auth): a connection that
// has not proved it holds the token is short-lived (docs/security.md).
constexpr int kServerHandshakeMs = 5000;

enum class MsgType : uint16_t {
    Hello = 1,      // Hello
    HelloAck = 2,   // Hello (the server's)
    RunRequest = 3, // RunRequest
    RunAccept = 4,  // empty: the server's side of the run has started
    Barrier = 5,    // string name
    Exchange = 6,   // bytes
    RunEnd = 7,     // RunEnd
    Error = 8,      // string
    Bye = 9,        // empty
    Auth = 10,      // bytes: the client's proof of the token (empty without one)
    AuthAck = 11    // bytes: the server's proof of the token (empty without one)
};

struct ControlError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Message {
    MsgType type{};
    std::vector<uint8_t> payload;
};

// Framing.
std::vector<uint8_t> encode(const Message &m);
// Decodes the 12-byte header: returns the payload length, throws ControlError
// for a bad magic, another protocol version, an unknown type or an oversize
// length ("message of N bytes exceeds the 1048576-byte limit").
uint32_t decode_header(const uint8_t *header, MsgType &type);

// Payload building blocks (big-endian; strings and byte blocks are u32
// length + bytes). Reader throws ControlError on truncation or trailing junk.
class Writer {
  public:
    Writer &u8(uint8_t v);
    Writer &u16(uint16_t v);
    Writer &u32(uint32_t v);
    Writer &u64(uint64_t v);
    Writer &i32(int32_t v);
    Writer &i64(int64_t v);
    Writer &f64(double v);
    Writer &str(const std::string &s);
    Writer &bytes(const void *p, uint32_t n);
    std::vector<uint8_t> take() { return std::move(buf_); }

  private:
    std::vector<uint8_t> buf_;
};

class Reader {
  public:
    explicit Reader(const std::vector<uint8_t> &b) : data_(b.data()), size_(b.size()) {}
    uint8_t u8();
    uint16_t u16();
    uint32_t u32();
    uint64_t u64();
    int32_t i32();
    int64_t i64();
    double f64();
    std::string str();
    std::vector<uint8_t> bytes();
    bool done() const { return pos_ == size_; }
    void finish() const; // throws if bytes are left over

  private:
    const uint8_t *take(size_t n);
    const uint8_t *data_;
    size_t size_, pos_ = 0;
};

// Typed messages.
struct Hello {
    uint16_t version = kProtocolVersion;
    std::string software; // "cmdbench 0.1.0"
    // A fresh random challenge from a side that holds a token, else empty.
    std::vector<uint8_t> nonce{};
};
struct RunRequest {
    std::string run_name, test, transport;
    double timeout_s = 60;
    std::vector<std::pair<std::string, std::string>> params; // key, value text
    // Where the server side runs ("cpus=0-1;numa=device", the run's `cpus`
    // and `numa` for the server), or empty. Sent only to a server that
    // announced kFeatureAffinity: it follows the fields above, and an older
    // server refuses trailing bytes.
    std::string placement{};
};
// The most of a RunEnd's error text that is sent: a plugin's error of any
// length is cut to this (bounded_text), so a RunEnd always fits a frame with
// room to spare for the path. The receiver is told how much was cut.
constexpr size_t kMaxRunEndError = 64 * 1024;
struct RunEnd {
    int32_t status = 0; // cmdbench_status
    std::string error;
    // CPU time the sender's process used for its side of the run, in whole
    // microseconds; -1 when it did not measure (a run refused or never run).
    int64_t cpu_user_us = -1;
    int64_t cpu_sys_us = -1;
    // The sender's data path (a JSON object, docs/results.md `runs[].path`),
    // or empty. Sent only to a peer that announced kFeaturePath: it follows
    // the fields above, and a peer without the feature refuses trailing bytes.
    std::string path{};
    // The sender's counter deltas over the run (a JSON object, docs/results.md
    // `runs[].counters`), or empty. Sent only with a path, to a peer that
    // announced kFeatureCounters: it follows the path.
    std::string counters{};
};

// Features a peer announces as words after its software string in Hello
// ("cmdbench 0.1.0 +path"). Within one protocol version they let a newer
// peer send more to a peer that can read it while an older peer, which only
// ever shows that string, goes on working unchanged.
constexpr const char *kFeaturePath = "+path";         // reads RunEnd.path
constexpr const char *kFeatureCounters = "+counters"; // reads RunEnd.counters
// A server that reads RunRequest.placement and places its side of a run.
constexpr const char *kFeatureAffinity = "+affinity";
bool has_feature(const std::string &software, const char *feature);

Message make_hello(MsgType type, const Hello &h);
Hello parse_hello(const Message &m);
Message make_run_request(const RunRequest &r);
RunRequest parse_run_request(const Message &m);
Message make_run_end(const RunEnd &e);
RunEnd parse_run_end(const Message &m);
Message make_proof(MsgType type, const std::vector<uint8_t> &mac); // Auth, AuthAck
std::vector<uint8_t> parse_proof(const Message &m);
Message make_string(MsgType type, const std::string &s); // Barrier, Error
std::string parse_string(const Message &m);

// A connected TCP control socket. Every call takes a timeout in ms and
// throws ControlError on timeout, peer close, or a bad frame.
class Channel {
  public:
    explicit Channel(int fd);
    ~Channel();
    Channel(Channel &&other) noexcept;
    Channel &operator=(Channel &&) = delete;
    Channel(const Channel &) = delete;

    static Channel connect(const std::string &host, uint16_t port, int timeout_ms);
    void send(const Message &m, int timeout_ms);
    Message recv(int timeout_ms);
    // Looks without reading (control_peek.cpp), so that a watcher can see
    // the peer go while another thread owns the reads:
    // whether a recv() would find something (data, the peer's close or an
    // error) within timeout_ms;
    bool wait_readable(int timeout_ms) const;
    // whether the peer closed its end or the connection failed;
    bool hung_up() const;
    // the first message waiting, when the whole of it has arrived (nullopt
    // otherwise, or for bytes that are not a message). Never blocks.
    std::optional<Message> peek() const;
    int fd() const { return fd_; }
    // "127.0.0.1:7000" or "[::1]:7000", taken when the channel was made so
    // it still names the peer after a reset.
    std::string peer_name() const;
    // The numeric address of our end ("127.0.0.1", "::1"): where a peer
    // that reached us can reach us again (the data plane meets there).
    std::string local_host() const;

  private:
    int fd_;
    std::string peer_;
};

class Listener {
  public:
    // Binds host:port and listens. host: empty = any address, IPv4 and IPv6
    // (one dual-stack socket where possible); "::" is dual-stack too; a name
    // listens on every address it resolves to ("localhost": 127.0.0.1 and
    // ::1); several, comma-separated ("127.0.0.1,::1"). port 0 = one
    // ephemeral port, the same on every address.
    Listener(const std::string &host, uint16_t port);
    ~Listener();
    Listener(const Listener &) = delete;
    Listener &operator=(const Listener &) = delete;
    uint16_t port() const;
    // Where it listens: "127.0.0.1:7470, [::1]:7470".
    std::string addresses() const;
    // Waits up to timeout_ms (-1 = forever) for a client; throws on timeout.
    Channel accept(int timeout_ms);
    // The same, but no client within timeout_ms is not an error: nullopt.
    std::optional<Channel> accept_within(int timeout_ms);
    // Stops listening (a forked session must not keep the port open).
    void close();

  private:
    void listen_on(const std::string &host, uint16_t &port);
    std::vector<int> fds_;
};

} // namespace cmdbench::control
