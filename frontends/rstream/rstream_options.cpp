// rstream's option parsing, with ranges checked.
#include "rstream_options.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <getopt.h>
#include <netdb.h>
#include <strings.h>

namespace cmdbench::rstream_frontend {
namespace {

constexpr int64_t kMaxSize = 1073741824;
constexpr int64_t kMaxCount = 1000000000;

// A whole decimal number in [lo, hi], or a UsageError naming the option.
int64_t number(char opt, const char *text, int64_t lo, int64_t hi) {
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
        throw UsageError(std::string("-") + opt + " must be an integer in [" + std::to_string(lo) +
                         ", " + std::to_string(hi) + "], got '" + text + "'");
    return v;
}

int port_number(const char *text) {
    char *end = nullptr;
    long v = std::strtol(text, &end, 10);
    if (end != text && *end == '\0') {
        if (v < 1 || v > 65535)
            throw UsageError(
                std::string("-p must be a port in [1, 65535] or a service name, got '") + text +
                "'");
        return static_cast<int>(v);
    }
    // rstream passes -p to the resolver as a service: names work too.
    if (const servent *s = getservbyname(text, "tcp"))
        return ntohs(static_cast<uint16_t>(s->s_port));
    throw UsageError(std::string("-p must be a port in [1, 65535] or a service name, got '") +
                     text + "'");
}

// A -T value: its letter alone, or a word matched by its first n letters.
bool is(const char *value, char letter, const char *word, size_t n) {
    return (value[0] == letter && value[1] == '\0') || strncasecmp(value, word, n) == 0;
}

void test_option(Options &o, const char *v, bool &dontwait) {
    if (is(v, 's', "socket", 6)) {
        o.sockets = true;
    } else if (is(v, 'a', "async", 5)) {
        o.async = true;
    } else if (is(v, 'b', "block", 5)) {
        dontwait = false;
    } else if (is(v, 'f', "fork", 4)) {
        o.fork = true;
        o.sockets = true;
    } else if (is(v, 'n', "nonblock", 8)) {
        dontwait = true;
    } else if (is(v, 'r', "resolve", 7)) {
        o.resolve = true;
    } else if (is(v, 'v', "verify", 6)) {
        o.verify = true;
    } else {
        throw UsageError(std::string("-T: unknown test option '") + v + "'");
    }
}

} // namespace

std::string usage_text() {
    return "usage: cmdbench rstream\n"
           "\t[-s server_address]\n"
           "\t[-b bind_address]\n"
           "\t[-f address_format]\n"
           "\t    name, ip, ipv6, or gid\n"
           "\t[-B buffer_size]\n"
           "\t[-i inline_size]\n"
           "\t[-I iterations]\n"
           "\t[-C transfer_count]\n"
           "\t[-S transfer_size or all]\n"
           "\t[-p port_number]\n"
           "\t[-k keepalive_time]\n"
           "\t[-T test_option]\n"
           "\t    s|sockets - use standard tcp/ip sockets\n"
           "\t    a|async - asynchronous operation (use poll)\n"
           "\t    b|blocking - use blocking calls\n"
           "\t    f|fork - fork server processing\n"
           "\t    n|nonblocking - use nonblocking calls\n"
           "\t    r|resolve - use rdma cm to resolve address\n"
           "\t    v|verify - verify data\n"
           "\t[--timeout seconds]\n"
           "\t    cmdbench: bound the whole run (default 3600)\n";
}

namespace {

// -f: "ip" or "gid" (which resolves the server name); anything else is
// warned about and ignored, as rstream does.
void address_format(Options &o, const char *arg) {
    if (strncasecmp("ip", arg, 2) == 0) {
        o.format = "ip";
    } else if (strncasecmp("gid", arg, 3) == 0) {
        o.format = "gid";
        o.resolve = true;
    } else {
        std::fprintf(stderr, "Warning: unknown address format\n");
    }
}

// -s, -b, -f and -p: where to connect or listen. False if `c` is not one.
bool address_option(Options &o, int c, const char *arg) {
    switch (c) {
    case 's':
        o.server = arg;
        return true;
    case 'b':
        o.bind = arg;
        return true;
    case 'f':
        address_format(o, arg);
        return true;
    case 'p':
        o.port = port_number(arg);
        return true;
    default:
        return false;
    }
}

// -B, -i, -I, -C and -S: buffer sizes and what each test transfers. False if
// `c` is not one.
bool transfer_option(Options &o, int c, const char *arg) {
    switch (c) {
    case 'B':
        o.buffer_size = number('B', arg, 0, kMaxSize);
        return true;
    case 'i':
        o.inline_size = number('i', arg, 0, 65536);
        return true;
    case 'I':
        o.custom = true;
        o.iterations = number('I', arg, 1, kMaxCount);
        return true;
    case 'C':
        o.custom = true;
        o.transfer_count = number('C', arg, 1, kMaxCount);
        return true;
    case 'S':
        if (strncasecmp("all", arg, 3) == 0) {
            o.all_sizes = true;
        } else {
            o.custom = true;
            o.transfer_size = number('S', arg, 1, kMaxSize);
        }
        return true;
    default:
        return false;
    }
}

// -k, -T and --timeout: how the connection and the run behave. False if `c`
// is not one.
bool run_option(Options &o, int c, const char *arg, bool &dontwait) {
    switch (c) {
    case 'k':
        o.keepalive = number('k', arg, 0, 86400);
        return true;
    case 'T':
        test_option(o, arg, dontwait);
        return true;
    case 't':
        o.timeout_s = static_cast<double>(number('-', arg, 1, 86400 * 7));
        return true;
    default:
        return false;
    }
}

} // namespace

Options parse_options(int argc, char **argv) {
    static const option longs[] = {{"timeout", required_argument, nullptr, 't'},
                                   {nullptr, 0, nullptr, 0}};
    Options o;
    bool dontwait = true;
    optind = 1;
    opterr = 1; // getopt's own "invalid option" line on stderr, as rstream
    int c;
    while ((c = getopt_long(argc, argv, "s:b:f:B:i:I:C:S:p:k:T:", longs, nullptr)) != -1)
        if (!address_option(o, c, optarg) && !transfer_option(o, c, optarg) &&
            !run_option(o, c, optarg, dontwait))
            throw UsageError("");
    if (optind < argc) throw UsageError(std::string("unexpected argument '") + argv[optind] + "'");
    o.blocking = !dontwait;
    return o;
}

std::vector<int64_t> suite_sizes(bool all) {
    if (!all) return {64, 4096, 65536, 1048576};
    // 64, then 2^k and 2^k + 2^(k-1) for k = 7 ... 22.
    std::vector<int64_t> sizes{64};
    for (int k = 7; k <= 22; ++k) {
        sizes.push_back(int64_t{1} << k);
        sizes.push_back((int64_t{1} << k) + (int64_t{1} << (k - 1)));
    }
    return sizes;
}

} // namespace cmdbench::rstream_frontend
