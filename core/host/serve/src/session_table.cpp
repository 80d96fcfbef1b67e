#include "session_table.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>
#include <new>
#include <random>
#include <stdexcept>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

namespace cmdbench {
namespace {

enum State : int {
    kFree = 0,
    kHandshake,     // a child waits for the Hello of a client not yet authenticated
    kHeard,         // its client's Hello has come; not yet authenticated
    kAuthenticated, // its client holds the token; no session (yet)
    kSession,
    kEvicted, // ended by the parent while in its handshake
    kLeft,    // its session is over; the child is on its way out
};

constexpr size_t kPeerBytes = 64; // "[ffff:...]:65535" fits
// Lines about refused connections: a few a second show what happens; a
// flood of connections is then only counted.
constexpr uint32_t kRefusalLinesPerSecond = 5;

// Lock-free atomics are address-free, so they work across processes in
// shared memory (the processes are the same binary).
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<int64_t>::is_always_lock_free);

struct Entry {
    std::atomic<int> state{kFree};
    std::atomic<int64_t> since_s{0}; // when it became a session (UTC seconds)
    char peer[kPeerBytes] = {};
};

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string utc_text(int64_t secs) {
    const std::time_t t = secs;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

} // namespace

struct SessionTable::Shared {
    std::atomic<int64_t> refusal_window_ns{0};
    std::atomic<uint32_t> refusal_lines{0};
    std::atomic<uint64_t> suppressed{0};
    Entry entries[1]; // capacity of them: the mapping is sized for it
};

SessionTable::SessionTable(int max_sessions, size_t capacity)
    : max_sessions_(max_sessions), capacity_(std::max<size_t>(capacity, 1)) {
    bytes_ = sizeof(Shared) + (capacity_ - 1) * sizeof(Entry);
    void *p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::runtime_error(std::string("cannot map the session table: ") +
                                 std::strerror(errno));
    shared_ = new (p) Shared;
    for (size_t i = 1; i < capacity_; ++i)
        new (&shared_->entries[i]) Entry;
}

SessionTable::~SessionTable() {
    if (shared_) munmap(shared_, bytes_);
}

std::optional<size_t> SessionTable::add(const std::string &peer, bool heard) {
    // Only the parent turns a free entry into another state: no race here.
    for (size_t i = 0; i < capacity_; ++i) {
        Entry &e = shared_->entries[i];
        if (e.state.load() != kFree) continue;
        std::memset(e.peer, 0, kPeerBytes);
        std::memcpy(e.peer, peer.data(), std::min(peer.size(), kPeerBytes - 1));
        e.since_s.store(0);
        e.state.store(heard ? kHeard : kHandshake); // publishes the peer written above
        return i;
    }
    return std::nullopt;
}

void SessionTable::remove(size_t entry) {
    shared_->entries[entry].state.store(kFree);
}

bool SessionTable::evict(size_t entry) {
    std::atomic<int> &state = shared_->entries[entry].state;
    int expected = kHandshake;
    if (state.compare_exchange_strong(expected, kEvicted)) return true;
    expected = kHeard;
    return state.compare_exchange_strong(expected, kEvicted);
}

bool SessionTable::in_handshake(size_t entry) const {
    const int state = shared_->entries[entry].state.load();
    return state == kHandshake || state == kHeard;
}

bool SessionTable::silent(size_t entry) const {
    return shared_->entries[entry].state.load() == kHandshake;
}

void SessionTable::heard(size_t entry) {
    int expected = kHandshake;
    shared_->entries[entry].state.compare_exchange_strong(expected, kHeard);
}

size_t SessionTable::count(int state) const {
    size_t n = 0;
    for (size_t i = 0; i < capacity_; ++i)
        n += shared_->entries[i].state.load() == state;
    return n;
}

size_t SessionTable::handshakes() const {
    size_t n = 0; // one pass: an entry turning from silent to heard counts once
    for (size_t i = 0; i < capacity_; ++i)
        n += in_handshake(i);
    return n;
}

size_t SessionTable::silent_handshakes() const {
    return count(kHandshake);
}

size_t SessionTable::sessions() const {
    return count(kSession);
}

Status SessionTable::claim(size_t entry, std::chrono::milliseconds wait) {
    Entry &e = shared_->entries[entry];
    int expected = kHeard;
    if (!e.state.compare_exchange_strong(expected, kAuthenticated)) {
        expected = kHandshake;
        if (!e.state.compare_exchange_strong(expected, kAuthenticated))
            return unexpected("the server ended this handshake");
    }
    // Optimistic: become a session, then count. Of two children that do so
    // at once, the one that counts last sees both, so no more than
    // max_sessions are ever kept (both may back off; a random pause parts them).
    std::minstd_rand pause{unsigned(getpid())};
    const auto end = std::chrono::steady_clock::now() + wait;
    for (;;) {
        e.since_s.store(int64_t(std::time(nullptr)));
        e.state.store(kSession);
        if (count(kSession) <= size_t(max_sessions_)) return {};
        e.state.store(kAuthenticated);
        if (std::chrono::steady_clock::now() >= end) return unexpected(busy_text());
        std::this_thread::sleep_for(std::chrono::milliseconds(1 + pause() % 5));
    }
}

void SessionTable::leave(size_t entry) {
    shared_->entries[entry].state.store(kLeft);
}

std::string SessionTable::busy_text() const {
    // The oldest session names the server's business; the rest are counted.
    size_t n = 0;
    int64_t oldest = 0;
    std::string peer;
    for (size_t i = 0; i < capacity_; ++i) {
        const Entry &e = shared_->entries[i];
        if (e.state.load() != kSession) continue;
        ++n;
        const int64_t since = e.since_s.load();
        if (peer.empty() || since < oldest) {
            oldest = since;
            peer.assign(e.peer, strnlen(e.peer, kPeerBytes));
        }
    }
    std::string text = "server busy";
    if (n > 0) {
        text += " with " + peer + " since " + utc_text(oldest);
        if (n > 1) text += " and " + std::to_string(n - 1) + " other client" + (n > 2 ? "s" : "");
    }
    return text + " (" + std::to_string(n) + " of " + std::to_string(max_sessions_) +
           " clients); try again later, or start `cmdbench serve` with a larger --max-clients";
}

bool SessionTable::refusal_log_due(size_t &suppressed) {
    const int64_t now = now_ns();
    int64_t start = shared_->refusal_window_ns.load();
    if (now - start >= 1000000000 && shared_->refusal_window_ns.compare_exchange_strong(start, now))
        shared_->refusal_lines.store(0);
    if (shared_->refusal_lines.fetch_add(1) >= kRefusalLinesPerSecond) {
        shared_->suppressed.fetch_add(1);
        return false;
    }
    suppressed = size_t(shared_->suppressed.exchange(0));
    return true;
}

} // namespace cmdbench
