// The control-plane conversation between the two sides of a run, over the
// host's barrier and exchange services: every error names the other side and
// what failed, and a test's first message (its set-up) carries a magic, a
// version and a count that both sides check before anything else runs.
#ifndef CMDBENCH_PLUGIN_SUPPORT_PEER_PROTOCOL_HPP
#define CMDBENCH_PLUGIN_SUPPORT_PEER_PROTOCOL_HPP

#include <cmdbench/plugin.h>
#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench::support {

// One side of a run, talking to the other. Barriers and exchanges are bounded
// by the run's timeout in the host; a failure is a RunError with the host's
// status (TIMEOUT, CANCELLED or ERR).
class Peer {
  public:
    // `tag` starts every error message ("verbs: ..."); "" for none, when the
    // caller's `what` already names the test.
    Peer(const cmdbench_host &host, cmdbench_ctx *ctx, bool client, std::string tag);
    Peer(const cmdbench_run_env &env, std::string tag);

    bool is_client() const { return client_; }
    const char *self() const { return client_ ? "client" : "server"; }
    const char *other() const { return client_ ? "server" : "client"; }

    // Returns once the other side reached the barrier `name` (passed to the
    // host as is). Throws 'TAG: barrier "NAME" with the server timed out'.
    void barrier(const std::string &name) const;

    // Sends `len` bytes and receives the other side's message into `buf`
    // (at most `cap` bytes); returns its length. Throws
    // "TAG: WHAT: exchange with the server failed".
    uint32_t exchange(const void *data, uint32_t len, void *buf, uint32_t cap,
                      const std::string &what) const;
    // As above, for a message of at most `cap` bytes from the other side.
    std::vector<uint8_t> exchange(const std::vector<uint8_t> &ours, const std::string &what,
                                  uint32_t cap = 65536) const;

    // Throws RunError(CMDBENCH_ERR, "TAG: " + message).
    [[noreturn]] void fail(const std::string &message) const;

  private:
    const cmdbench_host *host_;
    cmdbench_ctx *ctx_;
    bool client_;
    std::string tag_;
};

// A test's set-up message: {magic u32, version u16, role u8, count u64,
// payload}, big-endian. swap() sends ours, checks the other side's field by
// field and returns its payload; a mismatch names the other side and both
// values: "cm-steps: the server sent set-up version 2, this client speaks 3".
struct SetupSwap {
    uint32_t magic;         // the test's own, e.g. "SOCK"
    uint16_t version;       // bumped whenever the set-up or the steps after it change
    const char *count_name; // the parameter both sides must agree on, e.g. "count"
    const char *test;       // the test's name, for "the server is not running sock-steps"

    std::vector<uint8_t> swap(const Peer &peer, uint64_t count,
                              const std::vector<uint8_t> &payload = {}) const;
};

} // namespace cmdbench::support

#endif
