// Control channel: codec round trips and rejections, then real TCP sockets on
// 127.0.0.1 (a Listener/Channel pair, raw sockets playing a broken peer).
#include "cmdbench/control/bounded_text.hpp"
#include "cmdbench/control/control.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <future>
#include <limits>
#include <memory>
#include <netinet/in.h>
#include <new>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace cmdbench::control;
using Catch::Matchers::Contains;
using Clock = std::chrono::steady_clock;

// Largest single operator new request, so tests can prove that a hostile
// length field was refused before anything of that size was allocated.
static std::atomic<size_t> g_largest_alloc{0};

void *operator new(std::size_t n) {
    size_t prev = g_largest_alloc.load(std::memory_order_relaxed);
    while (n > prev && !g_largest_alloc.compare_exchange_weak(prev, n)) {
    }
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
// Every non-aligned form is replaced so that no allocation pairs our delete
// with another library's new (sanitizer runtimes provide their own).
void *operator new[](std::size_t n) {
    return operator new(n);
}
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
    try {
        return operator new(n);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, const std::nothrow_t &t) noexcept {
    return operator new(n, t);
}
// Released through a pointer GCC cannot see through: it otherwise flags
// free() on operator new memory, though here new is malloc by construction.
static void (*volatile g_release)(void *) = std::free;
void operator delete(void *p) noexcept {
    g_release(p);
}
void operator delete(void *p, std::size_t) noexcept {
    g_release(p);
}
void operator delete(void *p, const std::nothrow_t &) noexcept {
    g_release(p);
}
void operator delete[](void *p) noexcept {
    g_release(p);
}
void operator delete[](void *p, std::size_t) noexcept {
    g_release(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept {
    g_release(p);
}

namespace {

long ms_since(Clock::time_point t0) {
    return static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
}

std::vector<uint8_t> header(uint32_t magic, uint16_t version, uint16_t type, uint32_t len) {
    return Writer().u32(magic).u16(version).u16(type).u32(len).take();
}

// Every strict prefix of a valid payload must be refused as truncated.
void require_prefixes_rejected(const Message &m, void (*parse)(const Message &)) {
    for (size_t cut = 0; cut < m.payload.size(); ++cut) {
        Message t{m.type, std::vector<uint8_t>(m.payload.begin(), m.payload.begin() + cut)};
        INFO("payload cut to " << cut << " of " << m.payload.size() << " bytes");
        REQUIRE_THROWS_WITH(parse(t), Contains("truncated"));
    }
}

void require_trailing_rejected(Message m, void (*parse)(const Message &)) {
    m.payload.push_back(0);
    REQUIRE_THROWS_WITH(parse(m), Contains("trailing"));
}

// A plain blocking client socket, for playing a peer that breaks the protocol.
struct RawClient {
    int fd = -1;
    explicit RawClient(uint16_t port) {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(fd >= 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
    }
    ~RawClient() { close_now(); }
    void write(const std::vector<uint8_t> &b) {
        REQUIRE(::send(fd, b.data(), b.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(b.size()));
    }
    void write(const std::string &s) { write(std::vector<uint8_t>(s.begin(), s.end())); }
    void close_now() {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
};

// A connected pair over a real Listener on 127.0.0.1.
struct Pair {
    Listener listener{"127.0.0.1", 0};
    std::unique_ptr<Channel> client, server;
    Pair() {
        auto c = std::async(std::launch::async, [this] {
            return Channel::connect("127.0.0.1", listener.port(), 2000);
        });
        server = std::make_unique<Channel>(listener.accept(2000));
        client = std::make_unique<Channel>(c.get());
    }
};

} // namespace

TEST_CASE("control: header is big-endian magic, version, type, length") {
    const Message m{MsgType::Barrier, {0xAA, 0xBB}};
    const auto f = encode(m);
    const std::vector<uint8_t> want{'C', 'M', 'D', 'B', 0, 3, 0, 5, 0, 0, 0, 2, 0xAA, 0xBB};
    REQUIRE(f == want);
    MsgType t{};
    REQUIRE(decode_header(f.data(), t) == 2);
    REQUIRE(t == MsgType::Barrier);
}

TEST_CASE("control: Writer/Reader round trip every field type in network order") {
    const uint8_t blob[] = {0, 1, 0, 0, 255, 0};
    auto buf = Writer()
                   .u8(0xFE)
                   .u16(0x0102)
                   .u32(0x03040506)
                   .u64(0x0708090A0B0C0D0Eull)
                   .i32(-2)
                   .f64(1.0)
                   .str("")
                   .str(std::string("a\0b", 3))
                   .bytes(blob, sizeof blob)
                   .take();
    // Spot-check the bytes themselves, not just the round trip.
    REQUIRE(buf[0] == 0xFE);
    REQUIRE(buf[1] == 0x01);
    REQUIRE(buf[2] == 0x02);
    REQUIRE(buf[3] == 0x03);
    REQUIRE(buf[15] == 0xFF); // -2 as i32: FF FF FF FE
    REQUIRE(buf[18] == 0xFE);
    REQUIRE(buf[19] == 0x3F); // 1.0 = 0x3FF0000000000000
    REQUIRE(buf[20] == 0xF0);

    Reader r(buf);
    REQUIRE(r.u8() == 0xFE);
    REQUIRE(r.u16() == 0x0102);
    REQUIRE(r.u32() == 0x03040506u);
    REQUIRE(r.u64() == 0x0708090A0B0C0D0Eull);
    REQUIRE(r.i32() == -2);
    REQUIRE(r.f64() == 1.0);
    REQUIRE(r.str().empty());
    REQUIRE(r.str() == std::string("a\0b", 3));
    REQUIRE(r.bytes() == std::vector<uint8_t>(blob, blob + sizeof blob));
    REQUIRE_NOTHROW(r.finish());
    REQUIRE_THROWS_WITH(r.u8(), Contains("truncated"));
}

TEST_CASE("control: f64 keeps exact IEEE bits") {
    const double values[] = {0.0,
                             -0.0,
                             0.1,
                             -1e300,
                             std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
    for (double v : values) {
        auto buf = Writer().f64(v).take();
        REQUIRE(buf.size() == 8);
        Reader r(buf);
        const double back = r.f64();
        REQUIRE(std::memcmp(&back, &v, sizeof v) == 0);
    }
}

TEST_CASE("control: Hello and HelloAck round trip") {
    Hello h;
    h.version = 7;
    h.software = "cmdbench 0.1.0";
    const Hello a = parse_hello(make_hello(MsgType::Hello, h));
    REQUIRE(a.version == 7);
    REQUIRE(a.software == "cmdbench 0.1.0");

    const Message ack = make_hello(MsgType::HelloAck, Hello{});
    REQUIRE(ack.type == MsgType::HelloAck);
    const Hello b = parse_hello(ack);
    REQUIRE(b.version == kProtocolVersion);
    REQUIRE(b.software.empty());
    REQUIRE_THROWS_AS(make_hello(MsgType::Bye, h), ControlError);
}

TEST_CASE("control: RunRequest round trip with many params") {
    RunRequest q;
    q.run_name = "";
    q.test = "pingpong";
    q.transport = "tcp";
    q.timeout_s = 0.25;
    for (int i = 0; i < 1000; ++i)
        q.params.emplace_back("key" + std::to_string(i), i % 3 ? std::to_string(i * 7) : "");
    q.params.emplace_back("", std::string("nul\0inside", 10));
    const Message m = make_run_request(q);
    REQUIRE(m.type == MsgType::RunRequest);
    const RunRequest b = parse_run_request(m);
    REQUIRE(b.run_name.empty());
    REQUIRE(b.test == "pingpong");
    REQUIRE(b.transport == "tcp");
    REQUIRE(b.timeout_s == 0.25);
    REQUIRE(b.params == q.params);

    RunRequest empty;
    const RunRequest e = parse_run_request(make_run_request(empty));
    REQUIRE(e.params.empty());
    REQUIRE(e.timeout_s == 60);
}

TEST_CASE("control: RunEnd carries the sender's path after its old fields, only when given") {
    // Without a path the payload is the old one, byte for byte: what an
    // older peer (no kFeaturePath) reads, refusing trailing bytes.
    const Message old = make_run_end(RunEnd{0, "", 7, 8});
    REQUIRE(old.payload.size() == 4 + 4 + 8 + 8);
    REQUIRE(parse_run_end(old).path.empty());
    const Message m = make_run_end(RunEnd{0, "", 7, 8, R"({"address":"127.0.0.1"})"});
    REQUIRE(m.payload.size() == old.payload.size() + 4 + 23);
    REQUIRE(std::equal(old.payload.begin(), old.payload.end(), m.payload.begin()));
    const RunEnd e = parse_run_end(m);
    REQUIRE(e.cpu_sys_us == 8);
    REQUIRE(e.path == R"({"address":"127.0.0.1"})");
    // A path cut short is a bad message, not a missing path.
    Message cut = m;
    cut.payload.pop_back();
    REQUIRE_THROWS_AS(parse_run_end(cut), ControlError);
}

TEST_CASE("control: RunEnd carries the sender's counters after its path, only when given") {
    // Without counters the payload is the path's RunEnd, byte for byte: what
    // a peer of kFeaturePath alone reads, refusing trailing bytes.
    const Message path_only = make_run_end(RunEnd{0, "", 7, 8, "{}"});
    REQUIRE(parse_run_end(path_only).counters.empty());
    const Message m = make_run_end(RunEnd{0, "", 7, 8, "{}", R"({"machine":"m"})"});
    REQUIRE(m.payload.size() == path_only.payload.size() + 4 + 15);
    REQUIRE(std::equal(path_only.payload.begin(), path_only.payload.end(), m.payload.begin()));
    const RunEnd e = parse_run_end(m);
    REQUIRE(e.path == "{}");
    REQUIRE(e.counters == R"({"machine":"m"})");
    // Counters follow a path: never without one, never empty.
    REQUIRE_THROWS_AS(make_run_end(RunEnd{0, "", 7, 8, "", "{}"}), ControlError);
    Message empty = path_only;
    for (int i = 0; i < 4; ++i)
        empty.payload.push_back(0);
    REQUIRE_THROWS_WITH(parse_run_end(empty), Contains("empty counters"));
}

TEST_CASE("control: RunRequest carries the server side's placement after its params, only when "
          "given") {
    RunRequest q{"r", "pingpong", "tcp", 30, {{"sizes", "[64]"}}};
    // Without one the payload is the old one, byte for byte: what an older
    // server (no kFeatureAffinity) reads, refusing trailing bytes.
    const Message old = make_run_request(q);
    REQUIRE(parse_run_request(old).placement.empty());
    q.placement = "cpus=0-1;numa=device";
    const Message m = make_run_request(q);
    REQUIRE(m.payload.size() == old.payload.size() + 4 + q.placement.size());
    REQUIRE(std::equal(old.payload.begin(), old.payload.end(), m.payload.begin()));
    const RunRequest back = parse_run_request(m);
    REQUIRE(back.placement == "cpus=0-1;numa=device");
    REQUIRE(back.params.size() == 1);
    // An empty placement is never sent: one form per request.
    Message empty = old;
    for (int i = 0; i < 4; ++i)
        empty.payload.push_back(0);
    REQUIRE_THROWS_WITH(parse_run_request(empty), Contains("empty placement"));
    Message cut = m;
    cut.payload.pop_back();
    REQUIRE_THROWS_AS(parse_run_request(cut), ControlError);
    REQUIRE(has_feature("cmdbench 0.1.0 +affinity", kFeatureAffinity));
}

TEST_CASE("control: features are whole words after the software string") {
    REQUIRE(has_feature("cmdbench 0.1.0 +path", kFeaturePath));
    REQUIRE(has_feature("cmdbench 0.1.0 +path +other", kFeaturePath));
    REQUIRE_FALSE(has_feature("cmdbench 0.1.0", kFeaturePath));
    REQUIRE_FALSE(has_feature("cmdbench 0.1.0 +pathological", kFeaturePath));
    REQUIRE_FALSE(has_feature("+path", kFeaturePath)); // the name, not a feature word
    REQUIRE_FALSE(has_feature("cmdbench x+path", kFeaturePath));
}

TEST_CASE("bounded_text cuts at a UTF-8 character boundary and says how much it cut") {
    using cmdbench::bounded_text;
    CHECK(bounded_text("short", 64) == "short");
    const std::string fits(100, 'x');
    CHECK(bounded_text(fits, 100) == fits);
    // 'a' then U+20AC (three bytes) 100 times: the marker " [... N more bytes
    // cut]" takes 27 bytes for a three-digit N, so 64 leaves 37 for the text,
    // which would end inside the 13th euro sign; the cut goes before it.
    std::string euros = "a";
    for (int i = 0; i < 100; ++i)
        euros += "\xe2\x82\xac";
    const std::string cut = bounded_text(euros, 64);
    CHECK(cut.size() <= 64);
    CHECK(cut.substr(0, 37) == euros.substr(0, 37));
    CHECK(cut == euros.substr(0, 37) + " [... 264 more bytes cut]");
    // Four-byte characters, cut at every offset: never a piece of one kept.
    std::string emoji;
    for (int i = 0; i < 50; ++i)
        emoji += "\xf0\x9f\x98\x80";
    for (size_t max = 40; max < 120; ++max) {
        const std::string c = bounded_text(emoji, max);
        INFO(max);
        CHECK(c.size() <= max);
        const size_t text = c.find(" [... ");
        REQUIRE(text != std::string::npos);
        CHECK(text % 4 == 0);
        CHECK(c.substr(text) ==
              " [... " + std::to_string(emoji.size() - text) + " more bytes cut]");
    }
    // Not UTF-8 at all (continuation bytes only): cut where it must be.
    const std::string junk(200, '\x80');
    CHECK(bounded_text(junk, 64).size() <= 64);
}

TEST_CASE("control: a RunEnd's error text of any length fits a frame, cut") {
    const std::string huge(4u << 20, 'e');
    RunEnd e{2, huge, 1, 2, R"({"address":"127.0.0.1"})"};
    const Message m = make_run_end(e);
    REQUIRE(m.payload.size() < kMaxPayload);
    REQUIRE_NOTHROW(encode(m));
    const RunEnd back = parse_run_end(m);
    CHECK(back.error.size() <= kMaxRunEndError);
    CHECK_THAT(back.error, Contains(" more bytes cut]"));
    CHECK(back.path == e.path);
    CHECK(back.cpu_sys_us == 2);
    // An error at the limit is sent whole.
    e.error = std::string(kMaxRunEndError, 'e');
    CHECK(parse_run_end(make_run_end(e)).error == e.error);
}

TEST_CASE("control: RunEnd and string messages round trip") {
    const RunEnd e = parse_run_end(make_run_end(RunEnd{-5, "peer vanished"}));
    REQUIRE(e.status == -5);
    REQUIRE(e.error == "peer vanished");
    // CPU time not given: -1 (not measured) both ways.
    REQUIRE(e.cpu_user_us == -1);
    REQUIRE(e.cpu_sys_us == -1);
    const RunEnd empty = parse_run_end(make_run_end(RunEnd{}));
    REQUIRE(empty.error.empty());
    REQUIRE(empty.cpu_user_us == -1);

    // CPU time travels as two big-endian i64 after the error text.
    const Message m = make_run_end(RunEnd{0, "", 1234567, int64_t{1} << 40});
    const std::vector<uint8_t> want = {0, 0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0x12, 0xD6, 0x87, 0, 0, 1, 0, 0, 0, 0, 0};
    REQUIRE(m.payload == want);
    const RunEnd cpu = parse_run_end(m);
    REQUIRE(cpu.cpu_user_us == 1234567);
    REQUIRE(cpu.cpu_sys_us == int64_t{1} << 40);
    REQUIRE(parse_run_end(make_run_end(RunEnd{0, "", -1, 0})).cpu_user_us == -1);

    REQUIRE(parse_string(make_string(MsgType::Barrier, "step-3")) == "step-3");
    REQUIRE(parse_string(make_string(MsgType::Error, "")).empty());
    const std::string bin("\0\x01\xff\0", 4);
    REQUIRE(parse_string(make_string(MsgType::Error, bin)) == bin);
    REQUIRE_THROWS_AS(make_string(MsgType::Hello, "x"), ControlError);
}

TEST_CASE("control: parse_* refuse the wrong message type") {
    const Message end = make_run_end(RunEnd{});
    REQUIRE_THROWS_WITH(parse_hello(end), Contains("RunEnd"));
    REQUIRE_THROWS_AS(parse_run_request(end), ControlError);
    REQUIRE_THROWS_AS(parse_string(end), ControlError);
    REQUIRE_THROWS_AS(parse_run_end(make_string(MsgType::Barrier, "x")), ControlError);
}

TEST_CASE("control: truncated payloads and trailing junk are rejected") {
    RunRequest q{"run", "pingpong", "tcp", 3.5, {{"size", "64"}, {"iters", "10"}}};
    const Message rq = make_run_request(q);
    const Message he = make_hello(MsgType::Hello, Hello{1, "cmdbench"});
    const Message re = make_run_end(RunEnd{2, "oops"});
    const Message st = make_string(MsgType::Barrier, "b1");

    auto p_rq = [](const Message &m) { parse_run_request(m); };
    auto p_he = [](const Message &m) { parse_hello(m); };
    auto p_re = [](const Message &m) { parse_run_end(m); };
    auto p_st = [](const Message &m) { parse_string(m); };
    // RunRequest prefixes that end exactly on a params boundary fail on the
    // count bound or on truncation; both say what is wrong.
    for (size_t cut = 0; cut < rq.payload.size(); ++cut) {
        Message t{rq.type, std::vector<uint8_t>(rq.payload.begin(), rq.payload.begin() + cut)};
        INFO("cut " << cut);
        REQUIRE_THROWS_AS(p_rq(t), ControlError);
    }
    require_prefixes_rejected(he, p_he);
    require_prefixes_rejected(re, p_re);
    require_prefixes_rejected(st, p_st);
    // After its params a RunRequest may carry a placement (kFeatureAffinity):
    // a stray byte there is a placement cut short; after it, junk.
    Message rq_junk = rq;
    rq_junk.payload.push_back(0);
    REQUIRE_THROWS_WITH(p_rq(rq_junk), Contains("truncated"));
    RunRequest placed = q;
    placed.placement = "cpus=1";
    require_trailing_rejected(make_run_request(placed), p_rq);
    require_trailing_rejected(he, p_he);
    // After its fixed fields a RunEnd may carry a path (kFeaturePath), and
    // after the path counters (kFeatureCounters): a stray byte after either
    // is the next string cut short; after the counters, junk.
    Message re_junk = re;
    re_junk.payload.push_back(0);
    REQUIRE_THROWS_WITH(p_re(re_junk), Contains("truncated"));
    Message path_junk = make_run_end(RunEnd{2, "oops", -1, -1, "{}"});
    path_junk.payload.push_back(0);
    REQUIRE_THROWS_WITH(p_re(path_junk), Contains("truncated"));
    require_trailing_rejected(make_run_end(RunEnd{2, "oops", -1, -1, "{}", "{}"}), p_re);
    require_trailing_rejected(st, p_st);
}

TEST_CASE("control: hostile length fields are refused without allocating them") {
    SECTION("header claiming kMaxPayload + 1") {
        const auto h = header(kMagic, kProtocolVersion, 6, kMaxPayload + 1);
        MsgType t{};
        REQUIRE_THROWS_WITH(decode_header(h.data(), t),
                            Contains("message of 1048577 bytes exceeds the 1048576-byte limit"));
        const auto ok = header(kMagic, kProtocolVersion, 6, kMaxPayload);
        REQUIRE(decode_header(ok.data(), t) == kMaxPayload);
    }
    SECTION("4 GB string length inside a 10-byte payload") {
        Message m{MsgType::Error, Writer().u32(0xFFFFFFFFu).u16(0).u32(0).take()};
        REQUIRE(m.payload.size() == 10);
        g_largest_alloc = 0;
        REQUIRE_THROWS_WITH(parse_string(m), Contains("truncated"));
        REQUIRE(g_largest_alloc.load() < 4096);
        Reader r(m.payload);
        REQUIRE_THROWS_WITH(r.bytes(), Contains("truncated"));
    }
    SECTION("RunRequest parameter count beyond the payload") {
        Message m{MsgType::RunRequest,
                  Writer().str("r").str("t").str("x").f64(1).u32(0xFFFFFFFFu).u32(0).take()};
        g_largest_alloc = 0;
        REQUIRE_THROWS_WITH(parse_run_request(m), Contains("4294967295 parameters"));
        REQUIRE(g_largest_alloc.load() < 4096);
    }
    SECTION("encode refuses an oversize payload") {
        Message big{MsgType::Exchange, std::vector<uint8_t>(kMaxPayload + 1)};
        REQUIRE_THROWS_WITH(encode(big), Contains("exceeds"));
    }
}

TEST_CASE("control: bad magic, other version and unknown type are rejected") {
    MsgType t{};
    const auto http = std::string("GET / HTTP/1.1");
    REQUIRE_THROWS_WITH(decode_header(reinterpret_cast<const uint8_t *>(http.data()), t),
                        "not a cmdbench control message (bad magic 0x47455420)");
    // A peer of protocol 1 (no CPU time in RunEnd) is refused at its first frame.
    const auto v1 = header(kMagic, 1, 1, 0);
    REQUIRE_THROWS_WITH(decode_header(v1.data(), t),
                        "peer speaks control protocol version 1, this cmdbench speaks 3");
    for (uint16_t bad : {uint16_t{0}, uint16_t{12}, uint16_t{0xFFFF}}) {
        const auto h = header(kMagic, kProtocolVersion, bad, 0);
        REQUIRE_THROWS_WITH(decode_header(h.data(), t), Contains("unknown control message type"));
    }
    for (uint16_t good = 1; good <= 9; ++good) {
        const auto h = header(kMagic, kProtocolVersion, good, 3);
        REQUIRE(decode_header(h.data(), t) == 3);
        REQUIRE(static_cast<uint16_t>(t) == good);
    }
}

TEST_CASE("control: a listener and a client exchange a whole run across threads") {
    Listener l("127.0.0.1", 0);
    REQUIRE(l.port() != 0);
    std::vector<uint8_t> blob(512 * 1024);
    for (size_t i = 0; i < blob.size(); ++i)
        blob[i] = static_cast<uint8_t>(i * 31 + (i >> 9));

    // The server thread echoes the protocol back; its exceptions surface via get().
    auto server = std::async(std::launch::async, [&] {
        Channel ch = l.accept(5000);
        const Hello h = parse_hello(ch.recv(5000));
        ch.send(make_hello(MsgType::HelloAck, Hello{kProtocolVersion, "server:" + h.software}),
                5000);
        const RunRequest q = parse_run_request(ch.recv(5000));
        ch.send(Message{MsgType::RunAccept, {}}, 5000);
        Message ex = ch.recv(5000);
        REQUIRE(ex.type == MsgType::Exchange);
        ch.send(ex, 5000); // echo a payload far larger than the socket buffers
        ch.send(make_string(MsgType::Barrier, parse_string(ch.recv(5000))), 5000);
        ch.send(make_run_end(RunEnd{static_cast<int32_t>(q.params.size()), q.test}), 5000);
        REQUIRE(ch.recv(5000).type == MsgType::Bye);
        return ch.peer_name();
    });

    Channel c = Channel::connect("127.0.0.1", l.port(), 5000);
    REQUIRE(c.peer_name() == "127.0.0.1:" + std::to_string(l.port()));
    c.send(make_hello(MsgType::Hello, Hello{kProtocolVersion, "client"}), 5000);
    const Message ack = c.recv(5000);
    REQUIRE(ack.type == MsgType::HelloAck);
    REQUIRE(parse_hello(ack).software == "server:client");
    c.send(make_run_request(RunRequest{"r1", "throughput", "tcp", 9, {{"a", "1"}, {"b", "2"}}}),
           5000);
    REQUIRE(c.recv(5000).type == MsgType::RunAccept);
    c.send(Message{MsgType::Exchange, blob}, 5000);
    const Message echo = c.recv(5000);
    REQUIRE(echo.type == MsgType::Exchange);
    REQUIRE(echo.payload == blob);
    c.send(make_string(MsgType::Barrier, "step-1"), 5000);
    REQUIRE(parse_string(c.recv(5000)) == "step-1");
    const RunEnd end = parse_run_end(c.recv(5000));
    REQUIRE(end.status == 2);
    REQUIRE(end.error == "throughput");
    c.send(Message{MsgType::Bye, {}}, 5000);
    REQUIRE_THAT(server.get(), Catch::Matchers::StartsWith("127.0.0.1:"));
}

TEST_CASE("control: connect by name reaches a 127.0.0.1 listener") {
    // "localhost" may resolve to ::1 first; connect must move on to 127.0.0.1.
    Listener l("127.0.0.1", 0);
    auto server = std::async(std::launch::async, [&] {
        Channel ch = l.accept(5000);
        return parse_string(ch.recv(5000));
    });
    Channel c = Channel::connect("localhost", l.port(), 5000);
    c.send(make_string(MsgType::Barrier, "by-name"), 5000);
    REQUIRE(server.get() == "by-name");
}

TEST_CASE("control: recv honours its timeout") {
    Pair p;
    const auto t0 = Clock::now();
    REQUIRE_THROWS_WITH(p.client->recv(200),
                        "control channel: timed out after 200 ms waiting for 127.0.0.1:" +
                            std::to_string(p.listener.port()));
    const long ms = ms_since(t0);
    REQUIRE(ms >= 190);
    REQUIRE(ms < 2000);
}

TEST_CASE("control: the timeout covers the whole message, not each byte") {
    Listener l("127.0.0.1", 0);
    RawClient raw(l.port());
    Channel ch = l.accept(2000);
    const auto frame = encode(make_string(MsgType::Barrier, "slow"));
    // A peer dribbling one byte every 40 ms would need ~800 ms for the frame.
    auto dribble = std::async(std::launch::async, [&] {
        for (uint8_t b : frame) {
            if (::send(raw.fd, &b, 1, MSG_NOSIGNAL) != 1) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(40));
        }
    });
    const auto t0 = Clock::now();
    REQUIRE_THROWS_WITH(ch.recv(250), Contains("timed out after 250 ms"));
    const long ms = ms_since(t0);
    REQUIRE(ms >= 240);
    REQUIRE(ms < 2000); // generous for a loaded machine; the throw is what matters
    dribble.get();
}

TEST_CASE("control: a negative timeout waits as long as it takes") {
    Pair p;
    auto later = std::async(std::launch::async, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        p.server->send(make_string(MsgType::Barrier, "late"), 1000);
    });
    const auto t0 = Clock::now();
    REQUIRE(parse_string(p.client->recv(-1)) == "late");
    REQUIRE(ms_since(t0) >= 140);
    later.get();
}

TEST_CASE("control: peer close is detected") {
    Pair p;
    const std::string peer = p.server->peer_name();
    p.client.reset();
    REQUIRE_THROWS_WITH(p.server->recv(2000),
                        "control channel: " + peer + " closed the connection");
}

TEST_CASE("control: sending to a closed peer throws instead of raising SIGPIPE") {
    Pair p;
    p.server.reset();
    bool threw = false;
    for (int i = 0; i < 100 && !threw; ++i) {
        try {
            p.client->send(make_string(MsgType::Barrier, "anyone?"), 1000);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        } catch (const ControlError &e) {
            threw = true;
            REQUIRE_THAT(e.what(), Contains("closed the connection"));
        }
    }
    REQUIRE(threw);
}

TEST_CASE("control: send times out when the peer stops reading") {
    Pair p;
    const Message big{MsgType::Exchange, std::vector<uint8_t>(kMaxPayload)};
    bool timed_out = false;
    // Loopback buffers hold a few MB at most; the server never reads.
    for (int i = 0; i < 64 && !timed_out; ++i) {
        const auto t0 = Clock::now();
        try {
            p.client->send(big, 200);
        } catch (const ControlError &e) {
            REQUIRE_THAT(e.what(), Contains("timed out after 200 ms sending to 127.0.0.1:"));
            REQUIRE(ms_since(t0) >= 190);
            REQUIRE(ms_since(t0) < 2000);
            timed_out = true;
        }
    }
    REQUIRE(timed_out);
}

TEST_CASE("control: broken peers are rejected with the right error") {
    Listener l("127.0.0.1", 0);
    RawClient raw(l.port());
    Channel ch = l.accept(2000);

    SECTION("garbage bytes") {
        raw.write(std::string("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        raw.close_now();
        REQUIRE_THROWS_WITH(ch.recv(2000),
                            Contains("not a cmdbench control message (bad magic 0x47455420)"));
    }
    SECTION("truncated frame, then close") {
        auto frame = encode(make_string(MsgType::Error, "this will be cut short"));
        frame.resize(frame.size() - 5);
        raw.write(frame);
        raw.close_now();
        REQUIRE_THROWS_WITH(ch.recv(2000), Contains("closed the connection in the middle"));
    }
    SECTION("truncated header, then close") {
        raw.write(std::vector<uint8_t>{'C', 'M', 'D'});
        raw.close_now();
        REQUIRE_THROWS_WITH(ch.recv(2000), Contains("closed the connection in the middle"));
    }
    SECTION("oversize length is refused before the payload is read") {
        raw.write(header(kMagic, kProtocolVersion, 6, 0xFFFFFFF0u));
        g_largest_alloc = 0;
        const auto t0 = Clock::now();
        REQUIRE_THROWS_WITH(ch.recv(2000), Contains("exceeds the 1048576-byte limit"));
        REQUIRE(ms_since(t0) < 1000); // no waiting for a payload that never comes
        REQUIRE(g_largest_alloc.load() < 65536);
    }
    SECTION("other protocol version") {
        raw.write(header(kMagic, 4, 1, 0));
        REQUIRE_THROWS_WITH(ch.recv(2000), Contains("peer speaks control protocol version 4"));
    }
}

TEST_CASE("control: connecting where nobody listens fails fast and clearly") {
    // A bound but non-listening socket reserves the port and answers SYN with RST.
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
    socklen_t len = sizeof a;
    REQUIRE(getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0);
    const uint16_t port = ntohs(a.sin_port);

    const auto t0 = Clock::now();
    REQUIRE_THROWS_WITH(Channel::connect("127.0.0.1", port, 5000),
                        "control channel: cannot connect to 127.0.0.1:" + std::to_string(port) +
                            ": Connection refused");
    REQUIRE(ms_since(t0) < 1000);
    ::close(fd);
}

TEST_CASE("control: connect gives up at its timeout") {
    // A listener with a full accept queue drops further SYNs, so a new
    // connect gets no answer at all: the closest loopback gets to a dead host.
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
    REQUIRE(listen(fd, 0) == 0);
    socklen_t len = sizeof a;
    REQUIRE(getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0);
    const uint16_t port = ntohs(a.sin_port);

    std::vector<Channel> queued;
    bool timed_out = false;
    for (int i = 0; i < 8 && !timed_out; ++i) {
        const auto t0 = Clock::now();
        try {
            queued.push_back(Channel::connect("127.0.0.1", port, 300));
        } catch (const ControlError &e) {
            REQUIRE_THAT(e.what(), Contains("timed out after 300 ms connecting to 127.0.0.1:"));
            const long ms = ms_since(t0);
            REQUIRE(ms >= 290);
            REQUIRE(ms < 2000);
            timed_out = true;
        }
    }
    REQUIRE(timed_out);
    ::close(fd);
}

TEST_CASE("control: accept honours its timeout and ports cannot be taken twice") {
    Listener l("127.0.0.1", 0);
    const auto t0 = Clock::now();
    REQUIRE_THROWS_WITH(l.accept(150), Contains("timed out after 150 ms waiting for a client"));
    const long ms = ms_since(t0);
    REQUIRE(ms >= 140);
    REQUIRE(ms < 2000);

    REQUIRE_THROWS_WITH(Listener("127.0.0.1", l.port()),
                        "control channel: cannot listen on 127.0.0.1:" + std::to_string(l.port()) +
                            ": Address already in use");
}
