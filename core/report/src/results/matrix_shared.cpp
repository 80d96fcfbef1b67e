#include "cmdbench/report/matrix/matrix_shared.hpp"

#include <stdexcept>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

// What a metric or histogram says of itself besides its figures.
constexpr const char *kMeaningKeys[] = {"unit", "kind", "better", "flags"};

// Equal as values, whatever the order of their keys: a pair's result that
// came from another rank was read and written again, in another order.
bool same(const Json &a, const Json &b) {
    if (a.is_object() && b.is_object()) {
        if (a.size() != b.size()) return false;
        for (auto it = a.begin(); it != a.end(); ++it) {
            const auto other = b.find(it.key());
            if (other == b.end() || !same(it.value(), *other)) return false;
        }
        return true;
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i])) return false;
        return true;
    }
    return a == b;
}

Json meaning_of(const Json &entry) {
    Json m = Json::object();
    for (const char *k : kMeaningKeys)
        if (entry.contains(k)) m[k] = entry[k];
    return m;
}

// Each metric (or histogram) of ROWS whose meaning is TABLE's: without it.
void drop_meanings(Json &rows, const char *kind, const Json &table) {
    for (Json &row : rows) {
        if (!row.is_object() || !row.contains(kind) || !row[kind].is_object()) continue;
        for (auto &[key, entry] : row[kind].items()) {
            if (!entry.is_object() || !table.contains(key) || !same(meaning_of(entry), table[key]))
                continue;
            for (const char *k : kMeaningKeys)
                entry.erase(k);
        }
    }
}

// The reverse: each entry without a unit gets TABLE's meaning back.
void restore_meanings(Json &rows, const char *kind, const Json &table) {
    for (Json &row : rows) {
        if (!row.is_object() || !row.contains(kind) || !row[kind].is_object()) continue;
        for (auto &[key, entry] : row[kind].items())
            if (entry.is_object() && !entry.contains("unit") && table.contains(key))
                for (auto &[k, v] : table[key].items())
                    entry[k] = v;
    }
}

} // namespace

void MatrixShared::add(const Json &run) {
    if (!run.is_object() || !run.contains("name") || !run["name"].is_string()) return;
    Json &mine = runs_[run["name"].get<std::string>()];
    if (mine.is_null()) {
        mine = {{"params", run.value("params", Json::object())},
                {"metrics", Json::object()},
                {"histograms", Json::object()}};
    }
    for (const Json &row : run.value("rows", Json::array()))
        for (const char *kind : {"metrics", "histograms"}) {
            const Json entries = row.is_object() ? row.value(kind, Json::object()) : Json();
            if (!entries.is_object()) continue;
            for (const auto &[key, entry] : entries.items())
                if (!mine[kind].contains(key) && entry.is_object())
                    mine[kind][key] = meaning_of(entry);
        }
    auto ends = [this](const Json &path) {
        if (!path.is_object()) return;
        for (const char *side : {"client", "server"})
            if (path.contains(side) && path[side].is_object()) {
                const std::string text = path[side].dump();
                if (path_index_.emplace(text, paths_.size()).second) paths_.push_back(path[side]);
            }
    };
    ends(run.value("path", Json()));
    for (const Json &rail : run.value("rails", Json::array()))
        ends(rail.value("path", Json()));
}

Json MatrixShared::section() const {
    return {{"runs", runs_}, {"paths", paths_}};
}

Json MatrixShared::compact(Json run) const {
    if (!run.is_object() || !run.contains("name") || !run["name"].is_string()) return run;
    const auto mine = runs_.find(run["name"].get<std::string>());
    if (mine == runs_.end()) return run;
    if (run.contains("params") && same(run["params"], (*mine)["params"])) run.erase("params");
    if (run.contains("rows")) {
        drop_meanings(run["rows"], "metrics", (*mine)["metrics"]);
        drop_meanings(run["rows"], "histograms", (*mine)["histograms"]);
    }
    auto refer = [this](Json &path) {
        if (!path.is_object()) return;
        for (const char *side : {"client", "server"})
            if (path.contains(side) && path[side].is_object())
                if (auto at = path_index_.find(path[side].dump()); at != path_index_.end())
                    path[side] = at->second;
    };
    if (run.contains("path")) refer(run["path"]);
    if (run.contains("rails"))
        for (Json &rail : run["rails"])
            if (rail.is_object() && rail.contains("path")) refer(rail["path"]);
    return run;
}

Json expand_matrix_run(const Json &run, const Json &shared) {
    if (!run.is_object() || !shared.is_object()) return run;
    Json out = run;
    const Json runs = shared.value("runs", Json::object());
    const Json paths = shared.value("paths", Json::array());
    if (out.contains("name") && out["name"].is_string() && runs.is_object()) {
        const auto mine = runs.find(out["name"].get<std::string>());
        if (mine != runs.end() && mine->is_object()) {
            if (!out.contains("params") && mine->contains("params"))
                out["params"] = (*mine)["params"];
            if (out.contains("rows") && out["rows"].is_array()) {
                restore_meanings(out["rows"], "metrics", mine->value("metrics", Json::object()));
                restore_meanings(out["rows"], "histograms",
                                 mine->value("histograms", Json::object()));
            }
        }
    }
    auto resolve = [&paths](Json &path, const std::string &where) {
        if (!path.is_object()) return;
        for (const char *side : {"client", "server"}) {
            if (!path.contains(side) || !path[side].is_number()) continue;
            const Json &i = path[side];
            if (!i.is_number_unsigned() || !paths.is_array() || i.get<size_t>() >= paths.size())
                throw std::invalid_argument(where + "." + side + ": " + i.dump() +
                                            " is not an index of matrix.shared.paths (" +
                                            std::to_string(paths.size()) + " entries)");
            path[side] = paths[i.get<size_t>()];
        }
    };
    if (out.contains("path")) resolve(out["path"], "path");
    if (out.contains("rails") && out["rails"].is_array())
        for (size_t i = 0; i < out["rails"].size(); ++i)
            if (out["rails"][i].is_object() && out["rails"][i].contains("path"))
                resolve(out["rails"][i]["path"], "rails[" + std::to_string(i) + "].path");
    return out;
}

} // namespace cmdbench
