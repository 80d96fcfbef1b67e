// Framing and payload codec for the control channel. Everything is explicit
// big-endian byte shuffling so the wire format never depends on the host.
#include "cmdbench/control/bounded_text.hpp"
#include "cmdbench/control/control.hpp"

#include <cstdio>
#include <cstring>

namespace cmdbench::control {
namespace {

void put_be(std::vector<uint8_t> &out, uint64_t v, int nbytes) {
    for (int i = nbytes - 1; i >= 0; --i)
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t get_be(const uint8_t *p, int nbytes) {
    uint64_t v = 0;
    for (int i = 0; i < nbytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

bool known_type(uint16_t t) {
    return t >= static_cast<uint16_t>(MsgType::Hello) &&
           t <= static_cast<uint16_t>(MsgType::AuthAck);
}

const char *type_name(MsgType t) {
    switch (t) {
    case MsgType::Hello:
        return "Hello";
    case MsgType::HelloAck:
        return "HelloAck";
    case MsgType::RunRequest:
        return "RunRequest";
    case MsgType::RunAccept:
        return "RunAccept";
    case MsgType::Barrier:
        return "Barrier";
    case MsgType::Exchange:
        return "Exchange";
    case MsgType::RunEnd:
        return "RunEnd";
    case MsgType::Error:
        return "Error";
    case MsgType::Bye:
        return "Bye";
    case MsgType::Auth:
        return "Auth";
    case MsgType::AuthAck:
        return "AuthAck";
    }
    return "unknown";
}

void expect_type(const Message &m, MsgType a, MsgType b, const char *what) {
    if (m.type != a && m.type != b)
        throw ControlError(std::string("expected a ") + what + " control message, got " +
                           type_name(m.type) + " (type " +
                           std::to_string(static_cast<unsigned>(m.type)) + ")");
}

} // namespace

std::vector<uint8_t> encode(const Message &m) {
    if (m.payload.size() > kMaxPayload)
        throw ControlError("message of " + std::to_string(m.payload.size()) +
                           " bytes exceeds the " + std::to_string(kMaxPayload) + "-byte limit");
    std::vector<uint8_t> out;
    out.reserve(kHeaderSize + m.payload.size());
    put_be(out, kMagic, 4);
    put_be(out, kProtocolVersion, 2);
    put_be(out, static_cast<uint16_t>(m.type), 2);
    put_be(out, m.payload.size(), 4);
    out.insert(out.end(), m.payload.begin(), m.payload.end());
    return out;
}

uint32_t decode_header(const uint8_t *header, MsgType &type) {
    const auto magic = static_cast<uint32_t>(get_be(header, 4));
    if (magic != kMagic) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08x", magic);
        throw ControlError(std::string("not a cmdbench control message (bad magic ") + hex + ")");
    }
    const auto version = static_cast<uint16_t>(get_be(header + 4, 2));
    if (version != kProtocolVersion)
        throw ControlError("peer speaks control protocol version " + std::to_string(version) +
                           ", this cmdbench speaks " + std::to_string(kProtocolVersion));
    const auto t = static_cast<uint16_t>(get_be(header + 6, 2));
    if (!known_type(t)) throw ControlError("unknown control message type " + std::to_string(t));
    const auto len = static_cast<uint32_t>(get_be(header + 8, 4));
    if (len > kMaxPayload)
        throw ControlError("message of " + std::to_string(len) + " bytes exceeds the " +
                           std::to_string(kMaxPayload) + "-byte limit");
    type = static_cast<MsgType>(t);
    return len;
}

Writer &Writer::u8(uint8_t v) {
    put_be(buf_, v, 1);
    return *this;
}
Writer &Writer::u16(uint16_t v) {
    put_be(buf_, v, 2);
    return *this;
}
Writer &Writer::u32(uint32_t v) {
    put_be(buf_, v, 4);
    return *this;
}
Writer &Writer::u64(uint64_t v) {
    put_be(buf_, v, 8);
    return *this;
}
Writer &Writer::i32(int32_t v) {
    return u32(static_cast<uint32_t>(v));
}
Writer &Writer::i64(int64_t v) {
    return u64(static_cast<uint64_t>(v));
}

Writer &Writer::f64(double v) {
    uint64_t bits;
    static_assert(sizeof bits == sizeof v, "IEEE double expected");
    std::memcpy(&bits, &v, sizeof bits);
    return u64(bits);
}

Writer &Writer::str(const std::string &s) {
    if (s.size() > UINT32_MAX) throw ControlError("control string too long");
    return bytes(s.data(), static_cast<uint32_t>(s.size()));
}

Writer &Writer::bytes(const void *p, uint32_t n) {
    u32(n);
    const auto *b = static_cast<const uint8_t *>(p);
    if (n) buf_.insert(buf_.end(), b, b + n);
    return *this;
}

// The single bounds check every read goes through: nothing is allocated
// for a length field until the bytes are known to be present.
const uint8_t *Reader::take(size_t n) {
    const size_t left = size_ - pos_;
    if (n > left)
        throw ControlError("truncated control message: need " + std::to_string(n) +
                           " bytes at offset " + std::to_string(pos_) + ", only " +
                           std::to_string(left) + " left");
    const uint8_t *p = data_ + pos_;
    pos_ += n;
    return p;
}

uint8_t Reader::u8() {
    return static_cast<uint8_t>(get_be(take(1), 1));
}
uint16_t Reader::u16() {
    return static_cast<uint16_t>(get_be(take(2), 2));
}
uint32_t Reader::u32() {
    return static_cast<uint32_t>(get_be(take(4), 4));
}
uint64_t Reader::u64() {
    return get_be(take(8), 8);
}
int32_t Reader::i32() {
    return static_cast<int32_t>(u32());
}
int64_t Reader::i64() {
    return static_cast<int64_t>(u64());
}

double Reader::f64() {
    const uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

std::string Reader::str() {
    const uint32_t n = u32();
    const uint8_t *p = take(n);
    return std::string(reinterpret_cast<const char *>(p), n);
}

std::vector<uint8_t> Reader::bytes() {
    const uint32_t n = u32();
    const uint8_t *p = take(n);
    return std::vector<uint8_t>(p, p + n);
}

void Reader::finish() const {
    if (pos_ != size_)
        throw ControlError("control message has " + std::to_string(size_ - pos_) +
                           " unexpected trailing bytes");
}

Message make_hello(MsgType type, const Hello &h) {
    if (type != MsgType::Hello && type != MsgType::HelloAck)
        throw ControlError("make_hello: type must be Hello or HelloAck");
    if (h.nonce.size() > UINT32_MAX) throw ControlError("make_hello: nonce too long");
    return {type, Writer()
                      .u16(h.version)
                      .str(h.software)
                      .bytes(h.nonce.data(), static_cast<uint32_t>(h.nonce.size()))
                      .take()};
}

Hello parse_hello(const Message &m) {
    expect_type(m, MsgType::Hello, MsgType::HelloAck, "Hello");
    Reader r(m.payload);
    Hello h;
    h.version = r.u16();
    h.software = r.str();
    h.nonce = r.bytes();
    r.finish();
    return h;
}

Message make_proof(MsgType type, const std::vector<uint8_t> &mac) {
    if (type != MsgType::Auth && type != MsgType::AuthAck)
        throw ControlError("make_proof: type must be Auth or AuthAck");
    if (mac.size() > UINT32_MAX) throw ControlError("make_proof: proof too long");
    return {type, Writer().bytes(mac.data(), static_cast<uint32_t>(mac.size())).take()};
}

std::vector<uint8_t> parse_proof(const Message &m) {
    expect_type(m, MsgType::Auth, MsgType::AuthAck, "Auth");
    Reader r(m.payload);
    std::vector<uint8_t> mac = r.bytes();
    r.finish();
    return mac;
}

Message make_run_request(const RunRequest &q) {
    Writer w;
    w.str(q.run_name).str(q.test).str(q.transport).f64(q.timeout_s);
    w.u32(static_cast<uint32_t>(q.params.size()));
    for (const auto &[k, v] : q.params)
        w.str(k).str(v);
    if (!q.placement.empty()) w.str(q.placement);
    return {MsgType::RunRequest, w.take()};
}

RunRequest parse_run_request(const Message &m) {
    expect_type(m, MsgType::RunRequest, MsgType::RunRequest, "RunRequest");
    Reader r(m.payload);
    RunRequest q;
    q.run_name = r.str();
    q.test = r.str();
    q.transport = r.str();
    q.timeout_s = r.f64();
    const uint32_t count = r.u32();
    // Each pair costs at least two length fields, so a count the rest of the
    // payload cannot hold is refused before reserving anything for it.
    const size_t used = 3 * 4 + q.run_name.size() + q.test.size() + q.transport.size() + 8 + 4;
    const size_t left = m.payload.size() - used;
    if (count > left / 8)
        throw ControlError("RunRequest claims " + std::to_string(count) + " parameters but only " +
                           std::to_string(left) + " payload bytes remain");
    q.params.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        std::string k = r.str();
        std::string v = r.str();
        q.params.emplace_back(std::move(k), std::move(v));
    }
    if (!r.done()) {
        q.placement = r.str(); // a client older than kFeatureAffinity sends none
        // make_run_request leaves an empty placement out: one form per request.
        if (q.placement.empty()) throw ControlError("RunRequest carries an empty placement");
    }
    r.finish();
    return q;
}

Message make_run_end(const RunEnd &e) {
    Writer w;
    w.i32(e.status).str(bounded_text(e.error, kMaxRunEndError));
    w.i64(e.cpu_user_us).i64(e.cpu_sys_us);
    if (!e.counters.empty() && e.path.empty())
        throw ControlError("make_run_end: counters without a path");
    if (!e.path.empty()) w.str(e.path);
    if (!e.counters.empty()) w.str(e.counters);
    return {MsgType::RunEnd, w.take()};
}

RunEnd parse_run_end(const Message &m) {
    expect_type(m, MsgType::RunEnd, MsgType::RunEnd, "RunEnd");
    Reader r(m.payload);
    RunEnd e;
    e.status = r.i32();
    e.error = r.str();
    e.cpu_user_us = r.i64();
    e.cpu_sys_us = r.i64();
    if (!r.done()) {
        e.path = r.str(); // a peer older than kFeaturePath sends none
        // make_run_end leaves an empty path out: one form per RunEnd.
        if (e.path.empty()) throw ControlError("RunEnd carries an empty path");
    }
    if (!r.done()) {
        e.counters = r.str(); // a peer older than kFeatureCounters sends none
        if (e.counters.empty()) throw ControlError("RunEnd carries empty counters");
    }
    r.finish();
    return e;
}

bool has_feature(const std::string &software, const char *feature) {
    const std::string word = feature;
    for (size_t at = software.find(word); at != std::string::npos;
         at = software.find(word, at + 1)) {
        const size_t end = at + word.size();
        if (at > 0 && software[at - 1] == ' ' && (end == software.size() || software[end] == ' '))
            return true;
    }
    return false;
}

Message make_string(MsgType type, const std::string &s) {
    if (type != MsgType::Barrier && type != MsgType::Error)
        throw ControlError("make_string: type must be Barrier or Error");
    return {type, Writer().str(s).take()};
}

std::string parse_string(const Message &m) {
    expect_type(m, MsgType::Barrier, MsgType::Error, "Barrier or Error");
    Reader r(m.payload);
    std::string s = r.str();
    r.finish();
    return s;
}

} // namespace cmdbench::control
