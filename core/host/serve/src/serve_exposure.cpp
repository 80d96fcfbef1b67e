#include "cmdbench/host/serve/serve_exposure.hpp"

#include <arpa/inet.h>
#include <cstring>
#include <netinet/in.h>

namespace cmdbench {

bool is_loopback_host(const std::string &host) {
    if (host == "localhost") return true;
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6{};
    if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) {
        if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
        return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
    }
    return false;
}

// `bind` may be a comma-separated list: loopback only if every entry is.
bool is_loopback_bind(const std::string &bind) {
    if (bind.empty()) return false;
    size_t start = 0;
    while (start <= bind.size()) {
        size_t comma = bind.find(',', start);
        if (comma == std::string::npos) comma = bind.size();
        if (!is_loopback_host(bind.substr(start, comma - start))) return false;
        start = comma + 1;
    }
    return true;
}

std::string exposure_warning(const std::string &bind, bool has_token) {
    if (has_token || is_loopback_bind(bind)) return "";
    const std::string where = bind.empty() ? "every address" : bind;
    return "warning: listening on " + where +
           " without a token: anyone who can reach this port can run tests here (give "
           "--token-file FILE or CMDBENCH_TOKEN; see docs/security.md)";
}

} // namespace cmdbench
