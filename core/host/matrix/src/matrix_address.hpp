// Where a rank's server listens in a matrix run, and how that address is
// published to the other ranks (docs/matrix.md, "Addresses").
#pragma once
#include "cmdbench/host/scenario/matrix_spec.hpp"

#include <cstdint>
#include <string>

namespace cmdbench {

// `[matrix] address` when given; this node's address on `[matrix] interface`
// or `device` when given (MatrixAddressError when there is none); else the
// first address the rank's node name resolves to (IPv4 before IPv6), else
// 127.0.0.1.
std::string matrix_listen_address(const MatrixSpec &m, const std::string &node);

// "host:port", or "[v6]:port" for an IPv6 literal: what parse_host_port reads.
std::string published_address(const std::string &host, uint16_t port);

// 127.0.0.0/8 or ::1: reachable only from the rank's own node.
bool is_loopback_address(const std::string &address);

} // namespace cmdbench
