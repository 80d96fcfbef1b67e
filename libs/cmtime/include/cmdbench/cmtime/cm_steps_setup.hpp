// The set-up message cm-steps peers swap before the first iteration: who
// they are, what they will run, and where the server listens. Fixed-width
// big-endian fields, never raw structs.
#pragma once
#include <cstdint>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace cmdbench::cmtime {

struct PeerSetup {
    // 2: the barriers 112 and 114 (cm_engine.hpp) before 12 and 14.
    uint16_t version = 2;
    bool server = false;
    uint32_t count = 0;        // connections per client-server pair
    uint32_t base_qpn = 0;     // first fake QP number this peer announces
    sockaddr_storage listen{}; // server: its CM listener (family 0 for a client)
};

std::vector<uint8_t> encode_setup(const PeerSetup &s);
// Throws std::runtime_error naming what is wrong.
PeerSetup decode_setup(const std::vector<uint8_t> &bytes);

// "10.0.0.1:7471" / "[fe80::1]:7471".
std::string address_text(const sockaddr_storage &addr);

} // namespace cmdbench::cmtime
