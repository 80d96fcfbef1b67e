// The HTML comparison report: one self-contained page with a chart per
// (group, metric family) and the same numbers as tables. It has no script and
// no external reference; its Content-Security-Policy forbids every load, so
// anything added later that tries one is blocked and shows in the browser's
// console (which the headless Chromium test watches).
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/pair_scaling.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/svg_plot.hpp"
#include "cmdbench/report/verdict.hpp"
#include "html/html_counters.hpp"
#include "html/html_style.hpp"
#include "html/report_html_verdicts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>

namespace cmdbench {
namespace {

using svg::escape;

// After kHtmlBaseStyle (html_style.hpp).
constexpr const char *kStyle = R"(h3{font-size:16px;margin:20px 0 8px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(600px,1fr));gap:16px;align-items:start}
figure.plot{margin:0;padding:8px;border:1px solid #ddd;border-radius:4px;background:#fff}
svg.chart{display:block;max-width:100%;height:auto}
figcaption{font-size:14px;font-weight:bold;margin-top:6px}
figcaption .note{display:block;font-weight:normal;font-size:12px;color:#555}
.tables{display:flex;flex-wrap:wrap;gap:0 28px;align-items:flex-start}
table{border-collapse:collapse;margin:8px 0 20px;font-size:13px}
caption{text-align:left;font-weight:bold;padding:4px 0}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;vertical-align:top}
th{background:#f3f3f3}th:first-child,td:first-child{text-align:left}
table.context td,table.context th{text-align:left}
.range{color:#666;font-size:11px}.verdict{display:block;font-size:11px;color:#555}
.better{color:#1a7f37}.worse{color:#b3261e}.missing{color:#999}
footer{margin-top:32px;font-size:12px;color:#666}
.held{border:2px solid #1a7f37;background:#e9f5ec;padding:8px 12px;font-weight:bold}
.banner{border:2px solid #b3261e;background:#fdecea;color:#7a1a14;padding:8px 12px;font-weight:bold}
)";

// A bar chart whose positive values span more than this factor gets a log
// value axis.
constexpr double kLogSpan = 50;

// Each group's rows, so a page of many groups is not a scan of every row
// per group and family.
using GroupRows = std::map<std::string, std::vector<const CompareRow *>>;
// The rows of each (group, metric id), in table order: each family's chart
// and table look theirs up, where a scan of the group's rows for each was
// quadratic in the families (a row of many declared metrics).
using FamilyRows = std::map<std::pair<std::string, std::string>, std::vector<const CompareRow *>>;

struct Page {
    std::ostream &out;
    const Comparison &c;
    const GroupRows &by_group;
    const FamilyRows &by_family;
    int next_chart = 0;

    std::string chart_id() { return "chart-" + std::to_string(++next_chart); }

    std::vector<const CompareRow *> rows_of(const std::string &group,
                                            const CompareMetric &m) const {
        const auto it = by_family.find({group, m.id});
        return it == by_family.end() ? std::vector<const CompareRow *>{} : it->second;
    }

    std::optional<double> median(const CompareRow &r, size_t col) const {
        if (col >= r.cells.size() || !r.cells[col].value || r.cells[col].value->n == 0)
            return std::nullopt;
        return r.cells[col].value->median;
    }

    bool repeated(const std::vector<const CompareRow *> &rows) const {
        for (const auto *r : rows)
            for (const auto &cell : r->cells)
                if (cell.value && cell.value->n > 1) return true;
        return false;
    }

    void line_charts(const std::string &group, const CompareMetric &m,
                     const std::vector<const CompareRow *> &whiskers);
    void bar_chart(const std::string &group, const CompareMetric &m);
    void chart(const std::string &group, const CompareMetric &m);
    void group_charts(const std::string &group);
    void cell(const CompareCell &cell, const CompareMetric &m);
    void table(const std::string &group, const CompareMetric &m);
    void context(const std::vector<const Report *> &reports);
    void paths(const std::vector<const Report *> &reports);
};

// "rxe0 2.5 Gb/s: 64k 0.012, 1m 0.41", or "unknown".
std::string link(const RunResult &run) {
    const auto rate = result_link_rate(run);
    if (!rate) return "<span class=\"missing\">unknown</span>";
    std::string text = link_rate_text(*rate);
    std::string sep = ": ";
    const auto fractions = row_link_fractions(run);
    for (const auto &row : run.rows)
        if (auto f = fractions.find(row.name); f != fractions.end()) {
            text += sep + row.name + " " + fixed_str(f->second, f->second < 0.1 ? 3 : 2);
            sep = ", ";
        }
    return escape(text);
}

// Splits rows plotted against size into sets with one row per size: a group
// whose rows repeat sizes (rstream's suite: 64_lat and 64_bw both report
// Gb/s) gets one chart per set instead of a line that doubles back. Each row
// joins the first set that lacks its size, so rows that take turns by size
// (a bidirectional run's "64k c2s", "64k s2c", "64k bidir", then "1m c2s"
// ...) give one set per kind rather than a set per size.
std::vector<std::vector<const CompareRow *>>
split_by_size(const std::vector<const CompareRow *> &rows) {
    std::vector<std::vector<const CompareRow *>> sets(1);
    std::vector<std::set<double>> seen(1);
    for (const auto *r : rows) {
        size_t k = 0;
        while (k < sets.size() && seen[k].count(r->size))
            ++k;
        if (k == sets.size()) {
            sets.emplace_back();
            seen.emplace_back();
        }
        seen[k].insert(r->size);
        sets[k].push_back(r);
    }
    return sets;
}

std::string group_label(const std::string &group) {
    return group.empty() ? "(no group)" : group;
}

void Page::line_charts(const std::string &group, const CompareMetric &m,
                       const std::vector<const CompareRow *> &whiskers) {
    const auto rows = rows_of(group, m);
    const bool latency = m.chart == ChartStyle::Latency;
    const auto sets = split_by_size(rows);
    std::map<std::string, const CompareRow *> whisker_of; // by item: no search per point
    for (const CompareRow *w : whiskers)
        whisker_of.emplace(w->item, w);
    for (const auto &set : sets) {
        svg::LineChart chart;
        chart.id = chart_id();
        chart.title = group_label(group) + (latency ? ": one-way latency" : ": " + m.title) +
                      " against message size";
        if (sets.size() > 1)
            chart.title += " (" + set.front()->item + " … " + set.back()->item + ")";
        chart.x_title = "message size (bytes)";
        chart.y_title = latency ? "one-way latency (µs)" : m.title + " (" + m.html_unit + ")";
        chart.y_scale = latency ? svg::Scale::Log : svg::Scale::Linear;
        for (const auto *r : set)
            chart.x.push_back(r->size);
        for (size_t col = 0; col < c.columns.size(); ++col) {
            svg::Series s{c.columns[col], {}, {}};
            for (const auto *r : set) {
                s.values.push_back(median(*r, col));
                if (whiskers.empty()) continue;
                const auto w = whisker_of.find(r->item);
                s.whiskers.push_back(w == whisker_of.end() ? std::nullopt
                                                           : median(*w->second, col));
            }
            chart.series.push_back(std::move(s));
        }
        if (latency)
            chart.note = whiskers.empty() ? "Points: " + m.title + "; log scale."
                                          : "Points: p50, whiskers up to p99; log scale.";
        if (repeated(set))
            chart.note += (chart.note.empty() ? "" : " ") + std::string("Medians over repeats.");
        svg::write_line_chart(out, chart);
    }
}

void Page::bar_chart(const std::string &group, const CompareMetric &m) {
    const auto rows = rows_of(group, m);
    svg::BarChart chart;
    chart.id = chart_id();
    chart.title = group_label(group) + ": " + m.chart_what;
    chart.value_title = m.title + (m.html_unit.empty() ? "" : " (" + m.html_unit + ")");
    for (const auto *r : rows)
        chart.categories.push_back(r->item);
    for (size_t col = 0; col < c.columns.size(); ++col) {
        svg::Series s{c.columns[col], {}, {}};
        for (const auto *r : rows)
            s.values.push_back(median(*r, col));
        chart.series.push_back(std::move(s));
    }
    // One dominant value (rdma's cm connect: 100 ms against steps of a few µs)
    // leaves the other bars as slivers on a linear axis: past a factor of
    // kLogSpan between the smallest and largest positive value, use a log one.
    double lo = 0, hi = 0;
    for (const auto &s : chart.series)
        for (const auto &v : s.values)
            if (v && *v > 0 && std::isfinite(*v)) {
                lo = lo > 0 ? std::min(lo, *v) : *v;
                hi = std::max(hi, *v);
            }
    if (lo > 0 && hi / lo > kLogSpan) {
        chart.value_scale = svg::Scale::Log;
        chart.note = "log scale: values span " + svg::format_value(hi / lo) + "×.";
    }
    if (!m.note.empty()) chart.note += (chart.note.empty() ? "" : " ") + m.note;
    if (repeated(rows))
        chart.note += (chart.note.empty() ? "" : " ") + std::string("Medians over repeats.");
    svg::write_bar_chart(out, chart);
}

bool all_sized(const std::vector<const CompareRow *> &rows) {
    return std::all_of(rows.begin(), rows.end(), [](const CompareRow *r) { return r->size > 0; });
}

// Every family of the group's rows, in table order (built-ins first).
std::vector<CompareMetric> families(const GroupRows &by_group, const std::string &group) {
    std::vector<CompareMetric> out;
    const auto it = by_group.find(group);
    if (it == by_group.end()) return out;
    std::set<std::string> seen; // ids
    for (const CompareRow *r : it->second)
        if (seen.insert(r->metric.id).second) out.push_back(r->metric);
    std::stable_sort(out.begin(), out.end(), [](const CompareMetric &a, const CompareMetric &b) {
        return a.rank < b.rank;
    });
    return out;
}

// A family against message size when every row has one, else as bars.
void Page::chart(const std::string &group, const CompareMetric &m) {
    if (m.chart != ChartStyle::Bars && all_sized(rows_of(group, m)))
        line_charts(group, m, {});
    else
        bar_chart(group, m);
}

void Page::group_charts(const std::string &group) {
    // Latency: p50 points with p99 whiskers; p99 alone if that is all there is.
    const auto p50 = rows_of(group, CompareMetric::LatencyP50);
    const auto p99 = rows_of(group, CompareMetric::LatencyP99);
    const CompareMetric &lat = p50.empty() ? CompareMetric::LatencyP99 : CompareMetric::LatencyP50;
    const auto &lat_rows = p50.empty() ? p99 : p50;
    const auto whiskers = p50.empty() ? std::vector<const CompareRow *>{} : p99;
    if (!lat_rows.empty()) {
        if (all_sized(lat_rows))
            line_charts(group, lat, whiskers);
        else
            bar_chart(group, lat);
    }
    for (const CompareMetric &m : families(by_group, group))
        if (m.chart != ChartStyle::Latency) chart(group, m);
}

std::string ratio_text(double r) {
    char buf[48];
    std::snprintf(buf, sizeof buf, r >= 10 ? "%.1f×" : "%.2f×", r);
    return buf;
}

void Page::cell(const CompareCell &cell, const CompareMetric &m) {
    out << "<td>";
    const bool has = cell.value && cell.value->n > 0;
    if (has) {
        const Spread &v = *cell.value;
        out << escape(svg::format_value(v.median));
        if (v.n > 1)
            out << " <span class=\"range\" title=\"min–max of " << v.n << " repeats\">["
                << escape(svg::format_value(v.min)) << "–" << escape(svg::format_value(v.max))
                << "]</span>";
    } else {
        out << "<span class=\"missing\" title=\"no value\">—</span>";
    }
    switch (cell.verdict) {
    case Verdict::Baseline: // the column header says so
        break;
    case Verdict::Ratio:
        if (cell.ratio) {
            const double r = *cell.ratio;
            const bool better = higher_is_better(m) ? r > 1 : r < 1;
            const char *cls = r == 1 ? "" : better ? " better" : " worse";
            out << "<span class=\"verdict" << cls << "\">" << escape(ratio_text(r))
                << (r == 1   ? ""
                    : better ? " better"
                             : " worse")
                << "</span>";
        }
        break;
    case Verdict::NoClearDifference:
        out << "<span class=\"verdict\">no clear difference</span>";
        break;
    case Verdict::Missing:
        if (has) out << "<span class=\"verdict missing\">no baseline value</span>";
        break;
    }
    out << "</td>";
}

void Page::table(const std::string &group, const CompareMetric &m) {
    const auto rows = rows_of(group, m);
    if (rows.empty()) return;
    const bool sized =
        std::any_of(rows.begin(), rows.end(), [](const CompareRow *r) { return r->size > 0; });
    out << "<table class=\"data\">\n<caption>" << escape(m.title)
        << (m.html_unit.empty() ? "" : " (" + escape(m.html_unit) + ")")
        << "</caption>\n<thead><tr><th>row</th>" << (sized ? "<th>size</th>" : "");
    for (size_t col = 0; col < c.columns.size(); ++col)
        out << "<th>" << escape(c.columns[col]) << (col == c.baseline ? " (baseline)" : "")
            << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (const CompareRow *rp : rows) {
        const CompareRow &r = *rp;
        out << "<tr><td>" << escape(r.item) << "</td>";
        if (sized) out << "<td>" << (r.size > 0 ? escape(size_str(r.size)) : "") << "</td>";
        for (size_t col = 0; col < c.columns.size(); ++col) {
            if (col < r.cells.size())
                cell(r.cells[col], r.metric);
            else
                out << "<td><span class=\"missing\" title=\"no value\">—</span></td>";
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
}

void Page::context(const std::vector<const Report *> &reports) {
    out << "<table class=\"context\">\n<thead><tr><th>host</th><th>kernel</th><th>CPU</th>"
           "<th>start time</th><th>cmdbench</th><th>scenario</th><th>variants</th></tr></thead>\n"
           "<tbody>\n";
    for (const Report *rep : reports) {
        if (!rep) continue;
        const RunContext &x = rep->context;
        std::vector<std::string> variants;
        for (const auto &run : rep->runs)
            if (std::find(variants.begin(), variants.end(), run.variant) == variants.end())
                variants.push_back(run.variant);
        std::string joined;
        for (const auto &v : variants)
            joined += (joined.empty() ? "" : ", ") + v;
        out << "<tr><td>" << escape(x.hostname) << "</td><td>" << escape(x.kernel) << "</td><td>"
            << escape(x.cpu_model) << (x.cpu_count ? " × " + std::to_string(x.cpu_count) : "")
            << "</td><td>" << escape(x.start_time) << "</td><td>" << escape(x.cmdbench_version)
            << "</td><td>" << escape(x.scenario_path) << "</td><td>" << escape(joined)
            << "</td></tr>\n";
    }
    out << "</tbody>\n</table>\n";
}

// The data path of each run (its first repeat that recorded one): which
// interface and RDMA device each side used.
void Page::paths(const std::vector<const Report *> &reports) {
    std::set<std::string> shown;
    std::string body;
    for (const Report *rep : reports) {
        if (!rep) continue;
        for (const auto &run : rep->runs) {
            // Where each side ran, when the run placed a side (`cpus`, `numa`).
            const auto asked = [](const std::optional<SidePath> &s) {
                return s && s->affinity && s->affinity->asked();
            };
            const auto side = [](const std::optional<SidePath> &s, bool placed) {
                if (!s) return std::string("<span class=\"missing\">unknown (not reported)</span>");
                std::string cell = escape(side_path_text(*s));
                if (placed && s->affinity)
                    cell += "<br>affinity: " + escape(side_affinity_text(*s->affinity));
                return cell;
            };
            // A run on every rail at once: a line per rail.
            std::vector<std::pair<std::string, const RunPath *>> lines;
            if (run.path.known()) lines.emplace_back(run.name, &run.path);
            for (const RailPart &rail : run.rails)
                if (rail.path.known())
                    lines.emplace_back(run.name + " (rail " + rail.label + ")", &rail.path);
            for (const auto &[name, path] : lines) {
                if (!shown.insert(run.variant + "\n" + name).second) continue;
                const bool placed = asked(path->client) || asked(path->server);
                body += "<tr><td>" + escape(run.variant) + "</td><td>" + escape(name) +
                        "</td><td>" + side(path->client, placed) + "</td><td>" +
                        side(path->server, placed) + "</td><td>" +
                        (path == &run.path ? link(run) : std::string()) + "</td></tr>\n";
            }
        }
    }
    if (body.empty()) return;
    out << "<table class=\"context path\">\n<caption>Data "
           "path</caption>\n<thead><tr><th>variant</th>"
           "<th>run</th><th>client</th><th>server</th><th>link rate (bandwidth rows as a "
           "fraction of it)</th></tr></thead>\n<tbody>\n"
        << body << "</tbody>\n</table>\n";
}

// The page's head and its opening paragraphs: the variants, what a ratio
// means, and the software-RDMA banner. Well-formed XML as well as HTML
// (void elements closed with "/>"), so the tests can check the markup with
// an XML parser.
void write_page_top(std::ostream &out, const Comparison &c) {
    std::string versus;
    for (const auto &col : c.columns)
        versus += (versus.empty() ? "" : " vs ") + col;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'\"/>\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>"
        << escape("cmdbench: " + (versus.empty() ? std::string("comparison") : versus))
        << "</title>\n<style>" << kHtmlBaseStyle << kStyle << "</style>\n</head>\n<body>\n"
        << "<h1>cmdbench comparison</h1>\n<p>Variants: ";
    for (size_t col = 0; col < c.columns.size(); ++col)
        out << (col ? ", " : "") << "<strong>" << escape(c.columns[col]) << "</strong>"
            << (col == c.baseline ? " (baseline)" : "");
    if (c.columns.empty()) out << "none";
    out << ".";
    if (c.baseline < c.columns.size())
        out << " Ratios are each variant's median divided by the baseline's ("
            << escape(c.columns[c.baseline])
            << "); “no clear difference” means within the run-to-run spread of either side.";
    out << "</p>\n";
    if (!c.software_rdma.empty())
        out << "<p class=\"banner\" id=\"software-rdma\">"
            << escape(std::string(
                          1, char(std::toupper(static_cast<unsigned char>(c.software_rdma[0])))) +
                      c.software_rdma.substr(1))
            << ".</p>\n";
}

// One chart section and one table section per group, in `groups`' order.
// Beside each group's charts, its runs' counters that say the path lost
// or held back packets.
void write_groups(std::ostream &out, Page &page, const std::vector<std::string> &groups,
                  const std::vector<const Report *> &reports) {
    out << "<h2>Charts</h2>\n";
    if (groups.empty()) out << "<p>Nothing to compare.</p>\n";
    for (const auto &g : groups) {
        out << "<h3>" << escape(group_label(g)) << "</h3>\n<div class=\"charts\">\n";
        page.group_charts(g);
        out << "</div>\n";
        write_html_counters(out, g, reports);
    }
    out << "<h2>Tables</h2>\n";
    for (const auto &g : groups) {
        out << "<h3>" << escape(group_label(g)) << "</h3>\n<div class=\"tables\">\n";
        for (const CompareMetric &m : families(page.by_group, g))
            page.table(g, m);
        out << "</div>\n";
    }
}

// Each `pairs` series' scaling table (pair_scaling.hpp), as in the console.
void write_scaling(std::ostream &out, const std::vector<const Report *> &reports) {
    std::string body;
    for (const Report *rep : reports)
        for (const PairScaling &s : rep ? pair_scaling(*rep) : std::vector<PairScaling>{})
            for (const ScalingRow &row : s.rows)
                for (const ScalingPoint &p : row.points)
                    body += "<tr><td>" + escape(s.series) + "</td><td>" + escape(row.row) +
                            "</td><td>" + std::to_string(p.pairs) + "</td><td>" + escape(s.metric) +
                            "</td><td>" + escape(svg::format_value(p.aggregate)) + "</td><td>" +
                            escape(svg::format_value(p.min_pair)) + "</td><td>" +
                            escape(svg::format_value(p.max_pair)) + "</td><td>" +
                            (p.ratio ? fixed_str(*p.ratio, 2) + "x (vs " +
                                           std::to_string(s.base_pairs) + ")"
                                     : std::string("-")) +
                            "</td></tr>\n";
    if (body.empty()) return;
    out << "<h2>Message rate by pairs</h2>\n<table class=\"context scaling\">\n<thead><tr>"
           "<th>series</th><th>row</th><th>pairs</th><th>metric</th><th>aggregate</th>"
           "<th>pair min</th><th>pair max</th><th>ratio</th></tr></thead>\n<tbody>\n"
        << body << "</tbody>\n</table>\n";
}

void write_page_end(std::ostream &out, const Comparison &c) {
    if (!c.notes.empty()) {
        out << "<h2>Notes</h2>\n<ul class=\"notes\">\n";
        for (const auto &n : c.notes)
            out << "<li>" << escape(n) << "</li>\n";
        out << "</ul>\n";
    }
    out << "<footer>Written by cmdbench " << escape(CMDBENCH_VERSION)
        << ". Self-contained: no script, nothing loaded from "
           "elsewhere.</footer>\n</body>\n</html>\n";
}

} // namespace

void write_html_report(std::ostream &out, const Comparison &c,
                       const std::vector<const Report *> &reports) {
    std::vector<std::string> groups; // first-seen order
    GroupRows by_group;
    FamilyRows by_family;
    for (const auto &r : c.rows) {
        auto &rows = by_group[r.group];
        if (rows.empty()) groups.push_back(r.group);
        rows.push_back(&r);
        by_family[{r.group, r.metric.id}].push_back(&r);
    }
    write_page_top(out, c);
    write_html_verdicts(out, verdicts_of(reports));
    Page page{out, c, by_group, by_family};
    out << "<h2>Context</h2>\n";
    page.context(reports);
    page.paths(reports);
    write_groups(out, page, groups, reports);
    write_scaling(out, reports);
    write_page_end(out, c);
}

namespace {

// The page of the variants compared: it is the comparison, so a report
// without one (the comparison failed) has no page.
class HtmlReporter : public Reporter {
  public:
    void finish(std::ostream &out, const Report &report, const Comparison *comparison) override {
        if (comparison) write_html_report(out, *comparison, {&report});
    }
    void finish_comparison(std::ostream &out, const Comparison &c,
                           const std::vector<const Report *> &inputs,
                           const VerdictStream &) override {
        write_html_report(out, c, inputs);
    }
};

} // namespace

std::unique_ptr<Reporter> make_html_reporter() {
    return std::make_unique<HtmlReporter>();
}

} // namespace cmdbench
