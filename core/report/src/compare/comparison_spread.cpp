// Flags comparison cells whose repeats disagree too much to be read: a
// ratio between two medians means little when one side's repeats spread
// wider than the difference being reported (docs/compare.md, "Wide spreads").
#include "cmdbench/report/compare/comparison.hpp"

#include <cmath>
#include <limits>

namespace cmdbench {

std::optional<double> relative_spread(const CompareCell &cell) {
    if (!cell.value || cell.value->n < 2) return std::nullopt;
    const Spread &s = *cell.value;
    const double range = s.max - s.min;
    const double median = std::fabs(s.median);
    if (median > 0) return range / median;
    return range > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

bool wide_spread(const Comparison &c, const CompareCell &cell) {
    const auto spread = relative_spread(cell);
    return spread && *spread > c.spread_limit;
}

size_t count_wide_spreads(const Comparison &c) {
    size_t n = 0;
    for (const auto &row : c.rows)
        for (const auto &cell : row.cells)
            n += wide_spread(c, cell) ? 1 : 0;
    return n;
}

} // namespace cmdbench
