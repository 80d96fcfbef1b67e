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

constexpr const char *kKinds[] = {"metrics", "histograms"};

size_t text_bytes(const Json &j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace).size();
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

MatrixSharedIndex::MatrixSharedIndex(const Json &shared) {
    if (!shared.is_object()) return;
    if (const auto runs = shared.find("runs"); runs != shared.end() && runs->is_object())
        for (const auto &[name, mine] : runs->items()) {
            if (!mine.is_object()) continue;
            RunParts &parts = runs_[name];
            if (const auto p = mine.find("params"); p != mine.end())
                parts.params = Part{&*p, text_bytes(*p)};
            for (int kind = 0; kind < 2; ++kind) {
                const auto table = mine.find(kKinds[kind]);
                if (table == mine.end() || !table->is_object()) continue;
                for (const auto &[key, meaning] : table->items())
                    parts.meanings[kind].emplace(key, Part{&meaning, text_bytes(meaning)});
            }
        }
    if (const auto paths = shared.find("paths"); paths != shared.end()) {
        paths_ = &*paths;
        if (paths->is_array())
            for (const Json &end : *paths)
                path_bytes_.push_back(text_bytes(end));
    }
}

// Each metric (or histogram) of ROWS without a unit gets its run's shared
// meaning back: the keys a meaning has (what MatrixShared wrote), no others.
size_t MatrixSharedIndex::restore(Json &rows, int kind, const RunParts &mine) const {
    size_t copied = 0;
    for (Json &row : rows) {
        if (!row.is_object() || !row.contains(kKinds[kind]) || !row[kKinds[kind]].is_object())
            continue;
        for (auto &[key, entry] : row[kKinds[kind]].items()) {
            if (!entry.is_object() || entry.contains("unit")) continue;
            const auto it = mine.meanings[kind].find(key);
            if (it == mine.meanings[kind].end() || !it->second.value->is_object()) continue;
            copied += it->second.bytes;
            for (const char *k : kMeaningKeys)
                if (const auto v = it->second.value->find(k); v != it->second.value->end())
                    entry[k] = *v;
        }
    }
    return copied;
}

size_t MatrixSharedIndex::resolve(Json &path, const std::string &where) const {
    size_t copied = 0;
    if (!path.is_object()) return copied;
    for (const char *side : {"client", "server"}) {
        if (!path.contains(side) || !path[side].is_number()) continue;
        const Json &i = path[side];
        const size_t entries = paths_ ? paths_->size() : 0;
        if (!i.is_number_unsigned() || !paths_ || !paths_->is_array() || i.get<size_t>() >= entries)
            throw std::invalid_argument(where + "." + side + ": " + i.dump() +
                                        " is not an index of matrix.shared.paths (" +
                                        std::to_string(entries) + " entries)");
        const size_t at = i.get<size_t>();
        copied += path_bytes_[at];
        path[side] = (*paths_)[at];
    }
    return copied;
}

Json MatrixSharedIndex::expand(const Json &run, size_t &copied) const {
    if (!run.is_object()) return run;
    Json out = run;
    if (out.contains("name") && out["name"].is_string())
        if (const auto mine = runs_.find(out["name"].get<std::string>()); mine != runs_.end()) {
            if (!out.contains("params") && mine->second.params) {
                out["params"] = *mine->second.params->value;
                copied += mine->second.params->bytes;
            }
            if (out.contains("rows") && out["rows"].is_array())
                for (int kind = 0; kind < 2; ++kind)
                    copied += restore(out["rows"], kind, mine->second);
        }
    if (out.contains("path")) copied += resolve(out["path"], "path");
    if (out.contains("rails") && out["rails"].is_array())
        for (size_t i = 0; i < out["rails"].size(); ++i)
            if (out["rails"][i].is_object() && out["rails"][i].contains("path"))
                copied += resolve(out["rails"][i]["path"], "rails[" + std::to_string(i) + "].path");
    return out;
}

Json expand_matrix_run(const Json &run, const Json &shared) {
    size_t copied = 0;
    return MatrixSharedIndex(shared).expand(run, copied);
}

} // namespace cmdbench
