// libFuzzer target: the control channel's decoder on arbitrary bytes. The
// input is a frame as it arrives on the wire (12-byte header, payload).
// decode_header and every parse_* must either succeed or throw
// control::ControlError; anything else escaping is a crash. A payload that
// parses must also re-encode to the same bytes (the codec is canonical; a
// RunEnd's over-long error text is the one exception: it is sent cut).
#include "cmdbench/control/control.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace cmdbench::control;

namespace {

// Parses `m` with `parse`, and on success checks make(parse(m)) == m.
template <class Parse, class Make>
void parse_and_reencode(const Message &m, Parse parse, Make make) {
    try {
        const Message again = make(parse(m));
        if (again.payload != m.payload) __builtin_trap();
    } catch (const ControlError &) {
    }
}

void parse_all(MsgType type, const std::vector<uint8_t> &payload) {
    const Message m{type, payload};
    parse_and_reencode(m, parse_hello, [&](const Hello &h) { return make_hello(m.type, h); });
    parse_and_reencode(m, parse_run_request, make_run_request);
    // Canonical too, except that an error text past kMaxRunEndError (from
    // an older peer) is sent on cut, so shorter.
    try {
        const RunEnd e = parse_run_end(m);
        const Message again = make_run_end(e);
        if (e.error.size() <= kMaxRunEndError ? again.payload != m.payload
                                              : again.payload.size() >= m.payload.size())
            __builtin_trap();
    } catch (const ControlError &) {
    }
    parse_and_reencode(m, parse_string,
                       [&](const std::string &s) { return make_string(m.type, s); });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::vector<uint8_t> payload;
    MsgType type = MsgType::Bye;
    if (size >= kHeaderSize) {
        payload.assign(data + kHeaderSize, data + size);
        try {
            const uint32_t length = decode_header(data, type);
            if (length > kMaxPayload) __builtin_trap(); // decode_header promised a bound
            if (length < payload.size()) payload.resize(length);
        } catch (const ControlError &) {
            // Still parse the payload, under the raw type (maybe unknown).
            type = static_cast<MsgType>((uint16_t(data[6]) << 8) | data[7]);
        }
    } else {
        payload.assign(data, data + size);
    }
    parse_all(type, payload);
    // And under the type each parser expects, so every parser sees every payload.
    for (MsgType t : {MsgType::Hello, MsgType::HelloAck, MsgType::RunRequest, MsgType::RunEnd,
                      MsgType::Barrier, MsgType::Error})
        parse_all(t, payload);
    return 0;
}
