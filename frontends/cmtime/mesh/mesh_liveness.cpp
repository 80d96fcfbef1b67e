// Mesh::check_peers (see mesh.hpp): a look at the control links without
// reading from them. Another thread may be receiving on the same link (a
// barrier kept pending while a server accepts), so nothing is consumed: an
// ended peer shows as end-of-file, an error as a complete Error frame at
// the head of the link.
#include "mesh.hpp"
#include "mesh_detail.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>

namespace cmdbench {
namespace {

using mesh_detail::now_ms;

constexpr int64_t kCheckEveryMs = 50;
constexpr size_t kPeekBytes = 16 * 1024; // an Error frame is a short sentence

} // namespace

std::string mesh_detail::peek_link(int fd, bool &ended) {
    std::vector<uint8_t> buf(kPeekBytes);
    const ssize_t n = ::recv(fd, buf.data(), buf.size(), MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) {
        ended = true;
        return "its control connection closed";
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        ended = true;
        return std::string("its control connection failed (") + std::strerror(errno) + ")";
    }
    if (n < ssize_t(control::kHeaderSize)) return "";
    control::MsgType type{};
    uint32_t len = 0;
    try {
        len = control::decode_header(buf.data(), type);
    } catch (const control::ControlError &) {
        // Not a frame's head: another thread has read part of a frame (its
        // header) and not the rest yet. Not ours to judge: that reader gets
        // the rest, or the error, itself.
        return "";
    }
    if (type != control::MsgType::Error || size_t(n) < control::kHeaderSize + len) return "";
    control::Message m{type, std::vector<uint8_t>(buf.begin() + control::kHeaderSize,
                                                  buf.begin() + control::kHeaderSize + len)};
    try {
        return control::parse_string(m);
    } catch (const control::ControlError &e) {
        return e.what();
    }
}

void Mesh::check_peers() {
    const int64_t now = now_ms();
    if (now - last_check_ms_ < kCheckEveryMs) return;
    last_check_ms_ = now;
    std::vector<pollfd> fds;
    for (const auto &ch : links_)
        fds.push_back({ch ? ch->fd() : -1, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), 0) <= 0) return;
    for (size_t i = 0; i < fds.size(); ++i) {
        if (!fds[i].revents) continue;
        const int peer = controller() ? int(i) + 1 : 0;
        bool ended = false;
        // Data first: a peer that sent its results and left is not lost.
        const std::string why = mesh_detail::peek_link(fds[i].fd, ended);
        if (why.empty()) continue;
        // A leaf hears the controller's verdict as is; the controller names
        // the peer, for everyone.
        if (!controller()) throw MeshError(ended ? peer_label(peer) + " ended: " + why : why);
        fail_everyone(peer_label(peer) + (ended ? " ended: " : " failed: ") + why);
    }
}

} // namespace cmdbench
