// Rank 0's finished pairs, on disk: each result is a compact JSON line in
// an unlinked file, found again by its key, so that rank 0's memory holds
// an index entry a pair rather than the pair (docs/matrix.md, "Scale").
// Nothing is left behind however the job ends: the file has no name.
#pragma once
#include "cmdbench/report/result.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

namespace cmdbench {

class PairStore {
  public:
    // Run name, repeat, client rank, server rank.
    using Key = std::tuple<std::string, unsigned, int, int>;

    // A store in directory DIR (the results file's, so that the disk that
    // takes the results takes this too). Throws std::runtime_error when no
    // file can be made there.
    explicit PairStore(const std::string &dir);
    ~PairStore();
    PairStore(const PairStore &) = delete;
    PairStore &operator=(const PairStore &) = delete;

    // Keeps a pair's result (one with r.pair); a later result of the same
    // key replaces it. Safe from any thread. A result the disk refuses is
    // kept in memory instead, and problem() says why once.
    void add(const RunResult &r);
    // The result kept for KEY, read back; none when there is none.
    std::optional<RunResult> get(const Key &key) const;
    size_t size() const;
    // Why a result had to stay in memory; "" when none did.
    std::string problem() const;

  private:
    struct Place {
        uint64_t offset = 0;
        uint32_t size = 0;
    };
    int fd_ = -1;
    std::string dir_;
    mutable std::mutex mu_;
    uint64_t end_ = 0;
    std::map<Key, Place> on_disk_;
    std::map<Key, std::string> in_memory_; // the disk refused them
    std::string problem_;
};

} // namespace cmdbench
