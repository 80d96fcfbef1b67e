// JSON form of a Comparison (docs/compare.md, "JSON"). Cells line up with
// `columns`; a missing value or ratio is null, never a made-up number.
#include "cmdbench/report/compare/comparison_json.hpp"

#include "compare/comparison_document.hpp"
#include "format/json_slots.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json cell_json(const Comparison &c, const std::string &column, const CompareCell &cell) {
    Json j = {{"column", column}};
    if (cell.value) {
        j["median"] = number(cell.value->median);
        j["min"] = number(cell.value->min);
        j["max"] = number(cell.value->max);
        j["n"] = cell.value->n;
    } else {
        j["median"] = j["min"] = j["max"] = nullptr;
        j["n"] = 0;
    }
    j["ratio"] = cell.ratio ? number(*cell.ratio) : Json(nullptr);
    j["verdict"] = to_string(cell.verdict);
    const auto spread = relative_spread(cell);
    j["spread"] = spread ? number(*spread) : Json(nullptr);
    j["spread_wide"] = wide_spread(c, cell);
    return j;
}

Json row_json(const Comparison &c, const CompareRow &row) {
    Json cells = Json::array();
    for (size_t i = 0; i < row.cells.size(); ++i)
        cells.push_back(cell_json(c, i < c.columns.size() ? c.columns[i] : "", row.cells[i]));
    return {{"group", row.group},          {"item", row.item},
            {"size", number(row.size)},    {"metric", to_string(row.metric)},
            {"unit", unit_of(row.metric)}, {"higher_is_better", higher_is_better(row.metric)},
            {"kind", row.metric.kind},     {"cells", cells}};
}

// The document with ROWS as its `rows`.
Json document_with(const Comparison &c, Json rows) {
    Json doc = {{"schema", "cmdbench-comparison"},
                {"schema_version", kComparisonSchemaVersion},
                {"columns", c.columns},
                {"baseline", c.columns.empty() ? Json(nullptr) : Json(c.columns[c.baseline])},
                {"spread_limit", c.spread_limit},
                {"rows", std::move(rows)},
                {"notes", c.notes},
                {"software_rdma", c.software_rdma.empty() ? Json(nullptr) : Json(c.software_rdma)}};
    return doc;
}

constexpr const char *kRowsPlaceholder = "cmdbench-comparison-rows-placeholder-91b3";

// The rows as the document's `rows` array, each compact on a line of its own.
JsonSlot rows_slot(const Comparison &c) {
    return {
        "\n  \"rows\": ", kRowsPlaceholder, [&c](std::ostream &out) {
            out << "[";
            for (size_t i = 0; i < c.rows.size(); ++i)
                out << (i ? ",\n    " : "\n    ")
                    << row_json(c, c.rows[i]).dump(-1, ' ', false, Json::error_handler_t::replace);
            out << (c.rows.empty() ? "]" : "\n  ]");
        }};
}

} // namespace

Json comparison_document(const Comparison &c) {
    Json rows = Json::array();
    for (const auto &row : c.rows)
        rows.push_back(row_json(c, row));
    return document_with(c, std::move(rows));
}

void write_comparison_json(std::ostream &out, const Comparison &c, const VerdictStream &verdicts) {
    // The rows and the verdicts one at a time, a line each, never a tree of
    // them all (it takes about ten times their text's size).
    Json doc = document_with(c, kRowsPlaceholder);
    const VerdictTotals totals = total_verdicts(verdicts);
    if (totals.total()) {
        doc["expectations"] = verdicts_json(totals);
        doc["expectations"]["verdicts"] = kVerdictsPlaceholder;
    }
    write_with_slots(out, doc.dump(2, ' ', false, Json::error_handler_t::replace),
                     {rows_slot(c), verdicts_slot(verdicts)});
    out << '\n';
}

} // namespace cmdbench
