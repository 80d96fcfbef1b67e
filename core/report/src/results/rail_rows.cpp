#include "cmdbench/report/rail_rows.hpp"

#include "cmdbench/report/old_metric_names.hpp"

#include <algorithm>
#include <cmdbench/plugin.h>

namespace cmdbench {
namespace {

// What a sum across rails means: data or operations per second, and data
// or operations moved. Latencies, sizes and durations do not add up.
bool adds_up(const MetricMeaning &m) {
    switch (m.kind) {
    case CMDBENCH_KIND_BANDWIDTH:
    case CMDBENCH_KIND_RATE:
        return true;
    case CMDBENCH_KIND_BYTES:
    case CMDBENCH_KIND_COUNT:
        return m.has(CMDBENCH_METRIC_MOVED);
    default:
        return false;
    }
}

const Row *row_named(const std::vector<Row> &rows, const std::string &name) {
    for (const Row &r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

} // namespace

std::vector<Row> rail_rows(const std::vector<std::pair<std::string, std::vector<Row>>> &rails) {
    std::vector<Row> out;
    for (const auto &[label, rows] : rails)
        for (Row r : rows) {
            r.name = label + "/" + r.name;
            give_old_name_meanings(r); // the old names' rules read the row's name
            out.push_back(std::move(r));
        }
    if (rails.empty()) return out;
    for (const Row &first : rails.front().second) {
        Row total;
        total.name = first.name;
        for (const Metric &m : first.metrics) {
            if (!adds_up(m.meaning)) continue;
            Metric sum = m;
            // The host says what its sum means: results keep it, even when
            // the rails' rows had theirs from an old name.
            sum.meaning.from_old_name = false;
            bool everywhere = true;
            for (size_t i = 1; i < rails.size() && everywhere; ++i) {
                const Row *other = row_named(rails[i].second, first.name);
                const Metric *same = other ? find_metric(*other, m.key) : nullptr;
                if (!same || same->unit != m.unit)
                    everywhere = false;
                else
                    sum.value += same->value;
            }
            if (everywhere) total.metrics.push_back(sum);
        }
        if (!total.metrics.empty()) out.push_back(std::move(total));
    }
    return out;
}

double rails_overlap_seconds(const std::vector<RailPart> &rails) {
    if (rails.empty()) return 0;
    double start = rails.front().start_seconds, end = start + rails.front().wall_seconds;
    for (const RailPart &r : rails) {
        start = std::max(start, r.start_seconds);
        end = std::min(end, r.start_seconds + r.wall_seconds);
    }
    return std::max(0.0, end - start);
}

} // namespace cmdbench
