// The transport table of `cmdbench rstream` (see rstream_transport.hpp).
#include "rstream_transport.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace cmdbench::rstream_frontend {
namespace {

const cmdbench_transport *g_plugin = nullptr;
cmdbench_transport g_table;

// rstream's set_keepalive(): each line only if its option reads back.
void print_keepalive(int sock) {
    int value = 0;
    socklen_t len = sizeof(value);
    if (g_plugin->getsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &value, &len) == 0)
        std::printf("Keepalive: %s\n", value ? "ON" : "OFF");
    len = sizeof(value);
    if (g_plugin->getsockopt(sock, IPPROTO_TCP, TCP_KEEPIDLE, &value, &len) == 0)
        std::printf("  time: %i\n", value);
    std::fflush(stdout);
}

int configure_then_print(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage,
                         uint32_t hint) {
    if (g_plugin->configure && g_plugin->configure(ctx, host, sock, stage, hint) != 0) return -1;
    print_keepalive(sock);
    return 0;
}

int plain_socket(int domain, int type, int protocol) {
    return ::socket(domain, type, protocol);
}

int plain_accept(int sock, sockaddr *addr, socklen_t *len) {
    return ::accept(sock, addr, len);
}

} // namespace

const cmdbench_transport *rstream_transport(const cmdbench_transport *plugin,
                                            const TransportAdditions &add) {
    if (!add.keepalive_lines && !add.plain_socket_calls) return plugin;
    g_plugin = plugin;
    // A plugin built for an older minor has a shorter table: the rest stays 0.
    g_table = cmdbench_transport{};
    std::memcpy(&g_table, plugin, std::min<size_t>(plugin->struct_size, sizeof g_table));
    if (add.keepalive_lines) g_table.configure = configure_then_print;
    if (add.plain_socket_calls) {
        g_table.socket = plain_socket;
        g_table.accept = plain_accept;
    }
    return &g_table;
}

} // namespace cmdbench::rstream_frontend
