// What the pairs of a matrix document share, written once (docs/results.md,
// "Matrix documents"): each run's parameters, what its metrics and
// histograms mean, and every end of a data path the pairs took. A pair's
// entry then holds its own figures and refers to the rest, about 1 KB
// where it was 2.5 (a thousand nodes are a million pairs). Works on the
// JSON form: the writer compacts what report_json.cpp made, the reader
// expands an entry back before reading it as any other run.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>

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

// RUN (an entry of a matrix document's runs) with what it refers to in
// SHARED (the matrix section's `shared`) put back. Throws
// std::invalid_argument naming what is wrong when RUN refers to a path end
// SHARED lacks.
nlohmann::ordered_json expand_matrix_run(const nlohmann::ordered_json &run,
                                         const nlohmann::ordered_json &shared);

} // namespace cmdbench
