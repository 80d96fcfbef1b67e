// What the pairs of a matrix document share, written once (docs/results.md,
// "Matrix documents"): each run's parameters, what its metrics and
// histograms mean, and every end of a data path the pairs took. A pair's
// entry then holds its own figures and refers to the rest, about 1 KB
// where it was 2.5 (a thousand nodes are a million pairs). Works on the
// JSON form: the writer compacts what report_json.cpp made, the reader
// expands an entry back before reading it as any other run.
#pragma once
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cmdbench {

class MatrixShared {
  public:
    // A first pass over the runs' entries: what each shares with the others.
    void add(const nlohmann::ordered_json &run);
    // {"runs": {NAME: {"params", "metrics", "histograms"}}, "paths": [...]}:
    // the matrix section's `shared`.
    nlohmann::ordered_json section() const;
    // RUN without what section() holds for it.
    nlohmann::ordered_json compact(nlohmann::ordered_json run) const;

  private:
    nlohmann::ordered_json runs_ = nlohmann::ordered_json::object();
    nlohmann::ordered_json paths_ = nlohmann::ordered_json::array();
    std::map<std::string, size_t> path_index_; // a path end's text -> its index
};

// The matrix section's `shared` as the reader uses it: indexed once (a
// lookup in an ordered_json searches its keys, and a copy of the section
// for each run made reading quadratic in the runs), each part's size known.
class MatrixSharedIndex {
  public:
    explicit MatrixSharedIndex(const nlohmann::ordered_json &shared);
    // RUN (an entry of a matrix document's runs) with what it refers to put
    // back; `copied` grows by the bytes (as JSON text) put back, for a bound
    // on what a small document may expand to. Throws std::invalid_argument
    // naming what is wrong when RUN refers to a path end the section lacks.
    nlohmann::ordered_json expand(const nlohmann::ordered_json &run, size_t &copied) const;

  private:
    using Json = nlohmann::ordered_json;
    struct Part { // a value of the section, and its size as text
        const Json *value;
        size_t bytes;
    };
    struct RunParts {
        std::optional<Part> params;
        std::unordered_map<std::string, Part> meanings[2]; // metrics, histograms
    };
    std::unordered_map<std::string, RunParts> runs_;
    const Json *paths_ = nullptr;
    std::vector<size_t> path_bytes_;
    size_t restore(Json &rows, int kind, const RunParts &mine) const;
    size_t resolve(Json &path, const std::string &where) const;
};

// The same for one run, indexing SHARED for it alone.
nlohmann::ordered_json expand_matrix_run(const nlohmann::ordered_json &run,
                                         const nlohmann::ordered_json &shared);

} // namespace cmdbench
