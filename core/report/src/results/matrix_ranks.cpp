#include "cmdbench/report/matrix/matrix_ranks.hpp"

#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/svg_plot.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace cmdbench {
namespace {

// Distinct values in first-seen order.
struct Seen {
    std::vector<std::string> values;
    void add(const std::string &v) {
        if (!v.empty() && v != kUnknown &&
            std::find(values.begin(), values.end(), v) == values.end())
            values.push_back(v);
    }
    std::string text(const char *none = kUnknown) const {
        if (values.empty()) return none;
        std::string out;
        for (const auto &v : values)
            out += (out.empty() ? "" : ", ") + v;
        return out;
    }
};

struct RankSeen {
    Seen devices, rates, mtus, cpus, software;
    void add(const SidePath &s) {
        std::string rate;
        if (s.rdma && !s.devices.empty()) {
            const RdmaDevice &d = s.devices.front();
            devices.add(d.name);
            mtus.add(d.active_mtu);
            rate = d.rate;
        } else {
            devices.add(s.interface.name);
            mtus.add(s.interface.mtu);
            rate = s.interface.speed;
        }
        if (const auto bps = parse_link_rate(rate))
            rates.add(svg::format_value(*bps / 1e9) + " Gb/s");
        if (s.affinity) cpus.add(s.affinity->cpus_allowed);
        for (const RdmaDevice &d : s.devices)
            if (d.software()) software.add(d.driver);
    }
    void add(const RunPath &p, bool client) {
        const std::optional<SidePath> &side = client ? p.client : p.server;
        if (side) add(*side);
    }
};

} // namespace

std::string rank_list_text(const std::vector<int> &ranks) {
    std::string out;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]);
        if (j > i) out += "-" + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

std::string node_list_text(const std::vector<std::string> &nodes, size_t listed) {
    std::string out;
    for (size_t i = 0; i < nodes.size() && i < listed; ++i)
        out += (i ? ", " : "") + nodes[i];
    if (nodes.size() > listed) out += " and " + std::to_string(nodes.size() - listed) + " more";
    return out;
}

std::vector<RankPaths> matrix_rank_paths(const Report &report) {
    if (!report.matrix) return {};
    const size_t n = report.matrix->ranks.size();
    std::vector<RankSeen> seen(n);
    for_each_run(report, [&](const RunResult &r) {
        if (!r.pair) return;
        for (const bool client : {true, false}) {
            const int rank = client ? r.pair->client : r.pair->server;
            if (rank < 0 || size_t(rank) >= n) continue;
            seen[size_t(rank)].add(r.path, client);
            for (const RailPart &rail : r.rails)
                seen[size_t(rank)].add(rail.path, client);
        }
    });
    std::vector<RankPaths> out;
    std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, size_t>
        index;
    for (size_t i = 0; i < n; ++i) {
        const MatrixRank &rank = report.matrix->ranks[i];
        const RankSeen &s = seen[i];
        RankPaths p;
        p.devices = s.devices.text();
        p.rate = s.rates.text();
        p.mtu = s.mtus.text();
        p.cpus = s.cpus.text();
        p.software = s.software.text("");
        const auto key = std::make_tuple(p.devices, p.rate, p.mtu, p.cpus, p.software);
        auto [at, added] = index.emplace(key, out.size());
        if (added) out.push_back(std::move(p));
        RankPaths &entry = out[at->second];
        entry.ranks.push_back(rank.rank);
        if (std::find(entry.nodes.begin(), entry.nodes.end(), rank.node) == entry.nodes.end())
            entry.nodes.push_back(rank.node);
    }
    return out;
}

} // namespace cmdbench
