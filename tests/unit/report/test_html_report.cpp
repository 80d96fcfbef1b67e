// The HTML comparison report and its SVG charts (report_html.cpp,
// svg_plot.cpp) on hand-made comparisons: one chart per metric family,
// escaping, nothing external, the numbers in the tables, well-formed markup.
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/svg_plot.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace cmdbench;

namespace {

CompareCell value(double median, Verdict verdict, std::optional<double> ratio = {}) {
    return {Spread{median, median, median, 1}, ratio, verdict};
}

CompareCell spread(double median, double min, double max, unsigned n, Verdict verdict,
                   std::optional<double> ratio = {}) {
    return {Spread{median, min, max, n}, ratio, verdict};
}

const CompareCell kMissing{};

CompareRow row(const std::string &group, const std::string &item, double size, CompareMetric m,
               std::vector<CompareCell> cells) {
    return {group, item, size, m, std::move(cells)};
}

// tcp (baseline) and rsocket: latency and bandwidth at four sizes, three
// connection steps (one without an rsocket value), connection rate and CPU.
Comparison two_transports() {
    Comparison c;
    c.columns = {"tcp", "rsocket"};
    c.baseline = 0;
    const double sizes[] = {64, 4096, 65536, 1048576};
    const char *items[] = {"64_lat", "4k_lat", "64k_lat", "1m_lat"};
    const double tcp50[] = {10, 12, 30, 400}, rs50[] = {5, 6, 15, 150};
    for (int i = 0; i < 4; ++i) {
        c.rows.push_back(row("pingpong", items[i], sizes[i], CompareMetric::LatencyP50,
                             {value(tcp50[i], Verdict::Baseline),
                              i == 0 ? spread(5, 4.8, 5.3, 3, Verdict::Ratio, 0.5)
                                     : value(rs50[i], Verdict::Ratio, rs50[i] / tcp50[i])}));
        c.rows.push_back(row("pingpong", items[i], sizes[i], CompareMetric::LatencyP99,
                             {value(2 * tcp50[i], Verdict::Baseline),
                              value(3 * rs50[i], Verdict::NoClearDifference)}));
    }
    for (int i = 0; i < 4; ++i)
        c.rows.push_back(
            row("pingpong", items[i], sizes[i], CompareMetric::Bandwidth,
                {value(0.5 * (i + 1), Verdict::Baseline), value(i + 1.0, Verdict::Ratio, 2.0)}));
    c.rows.push_back(row("sock-steps", "create id", 0, CompareMetric::StepTime,
                         {value(3.5, Verdict::Baseline), value(40, Verdict::Ratio, 40 / 3.5)}));
    c.rows.push_back(row("sock-steps", "bind addr", 0, CompareMetric::StepTime,
                         {value(1.25, Verdict::Baseline), kMissing}));
    c.rows.push_back(row("sock-steps", "cm connect", 0, CompareMetric::StepTime,
                         {value(55, Verdict::Baseline), value(56, Verdict::NoClearDifference)}));
    c.rows.push_back(row("sock-steps", "full connect", 0, CompareMetric::ConnRate,
                         {value(15000, Verdict::Baseline), value(9000, Verdict::Ratio, 0.6)}));
    c.rows.push_back(row("sock-steps", "whole run", 0, CompareMetric::CpuPerConn,
                         {value(80, Verdict::Baseline), value(120, Verdict::Ratio, 1.5)}));
    c.notes = {"rsocket: skipped: no RDMA device"};
    return c;
}

std::string page(const Comparison &c, const std::vector<const Report *> &reports = {}) {
    std::ostringstream out;
    write_html_report(out, c, reports);
    return out.str();
}

size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// xmllint's verdict on a document; the page is written to be well-formed XML.
bool well_formed(const std::string &doc, const std::string &name, std::string &errors) {
    if (std::system("command -v xmllint >/dev/null 2>&1") != 0)
        FAIL("xmllint not found: install Debian's libxml2-utils (tools/install-deps.sh)");
    const std::string base = std::string(CMDBENCH_BINARY_DIR) + "/test_html_report-" + name;
    std::ofstream(base + ".xml") << doc;
    const int rc = std::system(("xmllint --noout '" + base + ".xml' 2>'" + base + ".err'").c_str());
    std::ifstream err(base + ".err");
    errors.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
    return rc == 0;
}

// The first `tag` element (not nested in another) that contains `text`.
std::string element_with(const std::string &html, const std::string &tag, const std::string &text) {
    const size_t at = html.find(text);
    REQUIRE(at != std::string::npos);
    const size_t start = html.rfind("<" + tag, at);
    const size_t end = html.find("</" + tag + ">", at);
    REQUIRE(start != std::string::npos);
    REQUIRE(end != std::string::npos);
    return html.substr(start, end - start);
}

std::string figure_titled(const std::string &html, const std::string &title) {
    return element_with(html, "figure", "<figcaption>" + title);
}

} // namespace

TEST_CASE("one chart per group and metric family, and a table per metric") {
    const std::string html = page(two_transports());
    // pingpong: latency and bandwidth against size; sock-steps: step times,
    // connection rate, CPU per connection.
    CHECK(count(html, "<svg class=\"chart\"") == 5);
    CHECK(count(html, "<figure class=\"plot\"") == 5);
    CHECK(count(html, "<figcaption>") == 5);
    CHECK(count(html, "<polyline") == 4); // two series in each of the two line charts
    CHECK(html.find("<figcaption>pingpong: one-way latency against message size") !=
          std::string::npos);
    CHECK(html.find("<figcaption>sock-steps: connection step times") != std::string::npos);
    // pingpong: p50, p99, bandwidth; sock-steps: steps, rate, CPU.
    CHECK(count(html, "<table class=\"data\"") == 6);
    CHECK(count(html, "<table class=\"context\"") == 1);
}

TEST_CASE("the tables carry the values, spreads and verdicts") {
    const std::string html = page(two_transports());
    const std::string p50 =
        element_with(html, "table", "<caption>one-way latency p50 (µs)</caption>");
    CHECK(p50.find("<tr><th>row</th><th>size</th><th>tcp (baseline)</th><th>rsocket</th></tr>") !=
          std::string::npos);
    // 64_lat: the baseline, then a median over three repeats with its range.
    CHECK(p50.find("<tr><td>64_lat</td><td>64</td><td>10.0</td>"
                   "<td>5.00 <span class=\"range\" title=\"min–max of 3 repeats\">[4.80–5.30]"
                   "</span><span class=\"verdict better\">0.50× better</span></td></tr>") !=
          std::string::npos);
    CHECK(count(p50, "<tr><td>") == 4);
    const std::string p99 =
        element_with(html, "table", "<caption>one-way latency p99 (µs)</caption>");
    CHECK(p99.find("<tr><td>1m_lat</td><td>1m</td><td>800</td><td>450<span "
                   "class=\"verdict\">no clear difference</span></td></tr>") != std::string::npos);
    // Higher bandwidth is better; a lower connection rate is worse.
    CHECK(element_with(html, "table", "<caption>bandwidth").find("2.00× better") !=
          std::string::npos);
    CHECK(element_with(html, "table", "<caption>connection rate").find("0.60× worse") !=
          std::string::npos);
    // Rows without a size have no size column; a missing value is a dash.
    const std::string steps = element_with(html, "table", "<caption>step time");
    CHECK(steps.find("<tr><th>row</th><th>tcp (baseline)</th><th>rsocket</th></tr>") !=
          std::string::npos);
    CHECK(steps.find("<tr><td>create id</td><td>3.50</td><td>40.0<span class=\"verdict "
                     "worse\">11.4× worse</span></td></tr>") != std::string::npos);
    CHECK(steps.find("<tr><td>bind addr</td><td>1.25</td><td><span class=\"missing\" "
                     "title=\"no value\">—</span></td></tr>") != std::string::npos);
    CHECK(html.find("<li>rsocket: skipped: no RDMA device</li>") != std::string::npos);
}

TEST_CASE("every string from the data is escaped") {
    Comparison c = two_transports();
    c.columns[1] = "a<b&c\"d'e";
    for (auto &r : c.rows)
        if (r.group == "sock-steps") r.group = "g<x>";
    c.rows.back().item = "<i>item</i>";
    c.notes.push_back("<script>alert(1)</script>");
    Report rep;
    rep.context.hostname = "host<&>";
    rep.context.cpu_model = "CPU \"fast\"";
    RunResult run;
    run.variant = "v<1>";
    rep.runs.push_back(run);
    const std::string html = page(c, {&rep});
    CHECK(html.find("a&lt;b&amp;c&quot;d&#39;e") != std::string::npos);
    CHECK(html.find("a<b") == std::string::npos);
    CHECK(html.find("g&lt;x&gt;") != std::string::npos);
    CHECK(html.find("&lt;i&gt;item&lt;/i&gt;") != std::string::npos);
    CHECK(html.find("<i>") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("host&lt;&amp;&gt;") != std::string::npos);
    CHECK(html.find("CPU &quot;fast&quot;") != std::string::npos);
    CHECK(html.find("v&lt;1&gt;") != std::string::npos);
    std::string errors;
    const bool ok = well_formed(html, "escaping", errors);
    INFO(errors);
    CHECK(ok);
}

TEST_CASE("the page loads nothing and runs nothing") {
    const std::string html = page(two_transports());
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("http:") == std::string::npos);
    CHECK(html.find("https:") == std::string::npos);
    CHECK(html.find("//") == std::string::npos);
    CHECK(html.find("src=") == std::string::npos);
    CHECK(html.find("href=") == std::string::npos);
    CHECK(html.find("@import") == std::string::npos);
    CHECK(html.find("@font-face") == std::string::npos);
    // The only "http" is the policy that forbids every load.
    CHECK(count(html, "http") == 1);
    CHECK(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src 'unsafe-inline'\"/>") != std::string::npos);
    // url() only for the bar charts' own hatch patterns.
    CHECK(count(html, "url(") == count(html, "url(#"));
    CHECK(count(html, "url(#") > 0);
}

TEST_CASE("the page is well-formed and its ids are unique") {
    const std::string html = page(two_transports());
    std::string errors;
    const bool ok = well_formed(html, "page", errors);
    INFO(errors);
    CHECK(ok);
    std::set<std::string> ids;
    const std::regex id_attr(" id=\"([^\"]*)\"");
    for (std::sregex_iterator it(html.begin(), html.end(), id_attr), end; it != end; ++it)
        CHECK(ids.insert((*it)[1]).second);
    CHECK(ids.size() >= 5);
}

TEST_CASE("the well-formedness check catches broken markup") {
    std::string errors;
    CHECK_FALSE(well_formed("<html><body><svg><g></svg></body></html>", "broken", errors));
    CHECK_FALSE(errors.empty());
}

TEST_CASE("a missing value is a gap in the line and said in the caption") {
    Comparison c = two_transports();
    c.rows[2].cells[1] = kMissing; // rsocket's 4k p50
    const std::string html = page(c);
    const std::string latency = figure_titled(html, "pingpong: one-way latency");
    // rsocket (the second colour, square markers) breaks at 4k: 64 is a lone
    // marker, and the line runs from 64k to 1m only.
    const std::regex rsocket_line("<polyline points=\"([^\"]*)\" fill=\"none\" stroke=\"#d55e00\"");
    std::smatch m;
    REQUIRE(std::regex_search(latency, m, rsocket_line));
    CHECK(count(m[1], " ") == 1); // two points
    CHECK(count(latency, "<polyline") == 2);
    CHECK(count(latency, "width=\"8\" height=\"8\"") == 4); // 3 points and the legend
    CHECK(latency.find("No value for rsocket at 4k.") != std::string::npos);
    // A variant without any value is named once, not size by size.
    for (auto &r : c.rows)
        if (r.metric == CompareMetric::Bandwidth) r.cells[1] = kMissing;
    const std::string bandwidth = figure_titled(page(c), "pingpong: bandwidth");
    CHECK(bandwidth.find("No values for rsocket.") != std::string::npos);
    CHECK(count(bandwidth, "<polyline") == 1);
    // The bar chart marks the step rsocket has no value for.
    const std::string steps = figure_titled(html, "sock-steps: connection step times");
    CHECK(count(steps, ">n/a</text>") == 1);
    CHECK(steps.find("n/a: no value for that variant.") != std::string::npos);
}

TEST_CASE("rows that take turns by size (bidirectional) chart one line per kind") {
    Comparison c;
    c.columns = {"tcp", "rsocket"};
    c.baseline = 0;
    const double sizes[] = {65536, 1048576};
    const char *labels[] = {"64k", "1m"};
    for (int i = 0; i < 2; ++i)
        for (const char *d : {" c2s", " s2c", " bidir"})
            c.rows.push_back(
                row("throughput", std::string(labels[i]) + d, sizes[i], CompareMetric::Bandwidth,
                    {value(1 + i, Verdict::Baseline), value(2 + i, Verdict::Ratio, 2.0)}));
    const std::string html = page(c);
    CHECK(count(html, "<svg class=\"chart\"") == 3);
    for (const char *d : {"c2s", "s2c", "bidir"}) {
        const std::string title = std::string("throughput: bandwidth against message size (64k ") +
                                  d + " … 1m " + d + ")";
        INFO(title);
        CHECK(html.find("<figcaption>" + title) != std::string::npos);
    }
    CHECK(count(html, "<polyline") == 6); // two sizes per line: no line doubles back
}

TEST_CASE("a comparison with one column") {
    Comparison c = two_transports();
    c.columns = {"tcp"};
    for (auto &r : c.rows)
        r.cells.resize(1);
    const std::string html = page(c);
    CHECK(count(html, "<svg class=\"chart\"") == 5);
    CHECK(count(html, "<polyline") == 2);
    CHECK(html.find("×") == std::string::npos);
    CHECK(html.find("<th>tcp (baseline)</th></tr>") != std::string::npos);
    CHECK(html.find("<tr><td>64_lat</td><td>64</td><td>10.0</td></tr>") != std::string::npos);
    std::string errors;
    const bool ok = well_formed(html, "one-column", errors);
    INFO(errors);
    CHECK(ok);
}

TEST_CASE("line chart: a single point, and values a log axis cannot show") {
    svg::LineChart one;
    one.id = "one";
    one.title = "one point";
    one.x = {4096};
    one.series = {{"tcp", {12.0}, {20.0}}};
    one.y_scale = svg::Scale::Log;
    std::ostringstream a;
    svg::write_line_chart(a, one);
    CHECK(count(a.str(), "<circle") == 2); // the point and its legend entry
    CHECK(count(a.str(), "<polyline") == 0);
    CHECK(a.str().find(">4k</text>") != std::string::npos);
    CHECK(a.str().find("h8\" stroke=") != std::string::npos); // the whisker's cap

    svg::LineChart bad = one;
    bad.x = {0, 64, 128, 256};
    bad.series = {{"tcp", {1.0, 0.0, -3.0, 5.0}, {}}};
    std::ostringstream b;
    svg::write_line_chart(b, bad);
    CHECK(b.str().find("2 values of 0 or less left out: a log scale cannot show them.") !=
          std::string::npos);
    CHECK(b.str().find("Rows without a message size (0 or less) are not plotted.") !=
          std::string::npos);
    CHECK(count(b.str(), "<circle") == 2); // only 256 is drawable, plus the legend
    std::string errors;
    const bool ok = well_formed("<div>" + a.str() + b.str() + "</div>", "fragments", errors);
    INFO(errors);
    CHECK(ok);
}

TEST_CASE("chart with nothing to draw says so") {
    svg::BarChart none;
    none.id = "none";
    none.title = "empty";
    std::ostringstream out;
    svg::write_bar_chart(out, none);
    CHECK(out.str().find(">no data</text>") != std::string::npos);
    CHECK(count(out.str(), "<svg class=\"chart\"") == 1);
}

namespace {

struct Bar {
    double x, y, width;
};

// The bars of a bar chart, in drawing order (category by category, a bar per
// series): the legend's swatches have height="12", the bars "12.0".
std::vector<Bar> bars_of(const std::string &svg) {
    std::vector<Bar> bars;
    const std::regex rect("<rect x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" width=\"([-0-9.]+)\" "
                          "height=\"12.0\"");
    for (std::sregex_iterator it(svg.begin(), svg.end(), rect), end; it != end; ++it)
        bars.push_back({std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3])});
    return bars;
}

// The x of the value axis' tick labelled `label`.
std::optional<double> tick_x(const std::string &svg, const std::string &label) {
    const std::regex tick("<text x=\"([-0-9.]+)\" y=\"[-0-9.]+\" dy=\"0.35em\" "
                          "text-anchor=\"middle\">" +
                          label + "</text>");
    std::smatch m;
    if (!std::regex_search(svg, m, tick)) return std::nullopt;
    return std::stod(m[1]);
}

} // namespace

TEST_CASE("bar chart on a log axis") {
    svg::BarChart chart;
    chart.id = "log";
    chart.title = "steps";
    chart.value_title = "step time (µs)";
    chart.value_scale = svg::Scale::Log;
    chart.categories = {"create id", "resolve addr", "cm connect", "destroy id"};
    // The smallest positive value is 2, so the axis starts at 1 and a bar's
    // length is proportional to log10(value); tcp's destroy id is 0.
    chart.series = {{"rdma", {9.0, 40.0, 100000.0, 2.0}, {}},
                    {"tcp", {20.0, std::nullopt, 500.0, 0.0}, {}}};
    std::ostringstream out;
    svg::write_bar_chart(out, chart);
    const std::string svg = out.str();

    // Ticks are the powers of ten from 1 to 100k, labelled as on other axes.
    for (const char *label : {"1", "10", "100", "1000", "10k", "100k"}) {
        INFO(label);
        CHECK(tick_x(svg, label));
    }
    CHECK_FALSE(tick_x(svg, "0"));
    CHECK_FALSE(tick_x(svg, "1M"));
    CHECK(svg.find("step time (µs) (log scale)</text>") != std::string::npos);
    // Faint lines at 2 and 5 times each power of ten, unlabelled.
    CHECK(count(svg, "stroke=\"#f2f2f2\"") == 10);

    // Six bars: the missing resolve addr and the 0 have none.
    const auto bars = bars_of(svg);
    REQUIRE(bars.size() == 6);
    const double values[] = {9, 20, 40, 100000, 500, 2};
    const auto one = tick_x(svg, "1"), top = tick_x(svg, "100k");
    REQUIRE(one);
    REQUIRE(top);
    const double per_decade = (*top - *one) / 5;
    CHECK(per_decade > 40);
    for (size_t i = 0; i < bars.size(); ++i) {
        INFO("bar " << i << " of value " << values[i]);
        CHECK(bars[i].x == Approx(*one).margin(0.1)); // all start at the axis minimum, 1
        CHECK(bars[i].width == Approx(std::log10(values[i]) * per_decade).margin(0.2));
        CHECK(bars[i].width > 0);
    }
    // Longer for larger values, whatever the category.
    for (size_t i = 0; i < bars.size(); ++i)
        for (size_t k = 0; k < bars.size(); ++k)
            if (values[i] < values[k]) CHECK(bars[i].width < bars[k].width);
    // The largest reaches the 100k tick; each value is printed at its bar.
    CHECK(bars[3].x + bars[3].width == Approx(*top).margin(0.1));
    for (const char *v : {">9.00</text>", ">20.0</text>", ">40.0</text>", ">100000</text>",
                          ">500</text>", ">2.00</text>"})
        CHECK(svg.find(v) != std::string::npos);

    // The 0 is printed, not drawn, and the caption says why.
    CHECK(count(svg, ">0 (left out)</text>") == 1);
    CHECK(count(svg, ">n/a</text>") == 1);
    CHECK(svg.find("<span class=\"note\">1 value of 0 or less left out: a log scale cannot "
                   "show it.</span>") != std::string::npos);
    CHECK(svg.find("n/a: no value for that variant.") != std::string::npos);
    CHECK(svg.find(">no data</text>") == std::string::npos);

    // The same chart on a linear axis: bars from 0, proportional to value,
    // no log note.
    svg::BarChart linear = chart;
    linear.value_scale = svg::Scale::Linear;
    std::ostringstream lin;
    svg::write_bar_chart(lin, linear);
    const auto lbars = bars_of(lin.str());
    REQUIRE(lbars.size() == 7); // the 0 is a bar of no width
    CHECK(lbars[3].width / lbars[4].width == Approx(100000.0 / 500).epsilon(0.01));
    CHECK(lin.str().find("left out") == std::string::npos);
    CHECK(lin.str().find("(log scale)") == std::string::npos);

    std::string errors;
    const bool ok = well_formed("<div>" + svg + lin.str() + "</div>", "log-bars", errors);
    INFO(errors);
    CHECK(ok);
}

TEST_CASE("log bar chart: values of 0 or less only, and one value") {
    svg::BarChart chart;
    chart.id = "zeros";
    chart.title = "zeros";
    chart.value_scale = svg::Scale::Log;
    chart.categories = {"a", "b"};
    chart.series = {{"tcp", {0.0, -3.0}, {}}};
    std::ostringstream out;
    svg::write_bar_chart(out, chart);
    CHECK(out.str().find(">no data</text>") != std::string::npos);
    CHECK(bars_of(out.str()).empty());
    CHECK(out.str().find(">-3.00 (left out)</text>") != std::string::npos);
    CHECK(out.str().find("2 values of 0 or less left out: a log scale cannot show them.") !=
          std::string::npos);

    // A smallest value of exactly a power of ten: the axis starts a decade
    // below it, so its bar is not empty.
    chart.series = {{"tcp", {10.0, 500.0}, {}}};
    std::ostringstream ten;
    svg::write_bar_chart(ten, chart);
    auto bars = bars_of(ten.str());
    REQUIRE(bars.size() == 2);
    const auto one = tick_x(ten.str(), "1"), thousand = tick_x(ten.str(), "1000");
    REQUIRE(one);
    REQUIRE(thousand);
    CHECK(bars[0].x == Approx(*one).margin(0.1));
    CHECK(bars[0].width == Approx((*thousand - *one) / 3).margin(0.2));
    CHECK(ten.str().find("left out") == std::string::npos);
    // A single value likewise.
    chart.series = {{"tcp", {100.0, std::nullopt}, {}}};
    std::ostringstream single;
    svg::write_bar_chart(single, chart);
    bars = bars_of(single.str());
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].width > 100);
    CHECK(tick_x(single.str(), "10"));
    CHECK(tick_x(single.str(), "100"));
}

TEST_CASE("the report puts a bar chart on a log axis when its values span more than 50 times") {
    // two_transports' steps span 1.25 to 56 µs, 44.8 times: linear.
    Comparison c = two_transports();
    const std::string linear = figure_titled(page(c), "sock-steps: connection step times");
    CHECK(linear.find("log scale") == std::string::npos);
    CHECK(tick_x(linear, "0"));
    // rsocket's cm connect at 100 ms, 80000 times bind addr's 1.25 µs: log.
    for (auto &r : c.rows)
        if (r.item == "cm connect") r.cells[1] = value(100000, Verdict::Ratio, 100000 / 55.0);
    const std::string html = page(c);
    const std::string steps = figure_titled(html, "sock-steps: connection step times");
    CHECK(steps.find("<span class=\"note\">log scale: values span 80000×.</span>") !=
          std::string::npos);
    CHECK(steps.find("(log scale)</text>") != std::string::npos);
    CHECK_FALSE(tick_x(steps, "0"));
    CHECK(tick_x(steps, "1"));
    CHECK(tick_x(steps, "100k"));
    // The other bar charts keep their linear axes.
    CHECK(count(html, "(log scale)</text>") == 1);
    CHECK(count(html, "values span") == 1);
    // Exactly 50 times stays linear; a little more does not.
    for (auto &r : c.rows)
        if (r.item == "cm connect") r.cells[1] = value(62.5, Verdict::Ratio, 62.5 / 55);
    CHECK(figure_titled(page(c), "sock-steps: connection step times").find("log scale") ==
          std::string::npos);
    for (auto &r : c.rows)
        if (r.item == "cm connect") r.cells[1] = value(63, Verdict::Ratio, 63 / 55.0);
    CHECK(figure_titled(page(c), "sock-steps: connection step times")
              .find("log scale: values span 50.4×.") != std::string::npos);
}

TEST_CASE("nice ticks and their labels") {
    auto ticks = [](double lo, double hi, svg::Scale s, std::vector<double> want) {
        const auto got = svg::nice_ticks(lo, hi, s);
        REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < got.size(); ++i)
            CHECK(got[i] == Approx(want[i]).margin(1e-12));
    };
    ticks(0, 9.4, svg::Scale::Linear, {0, 2, 4, 6, 8, 10});
    ticks(0, 1, svg::Scale::Linear, {0, 0.2, 0.4, 0.6, 0.8, 1});
    ticks(0, 0, svg::Scale::Linear, {0, 0.2, 0.4, 0.6, 0.8, 1});
    ticks(-3, 12, svg::Scale::Linear, {-5, 0, 5, 10, 15});
    ticks(3, 400, svg::Scale::Log, {1, 10, 100, 1000});
    ticks(20, 150, svg::Scale::Log, {10, 20, 50, 100, 200, 500, 1000});
    ticks(100, 100, svg::Scale::Log, {10, 20, 50, 100, 200, 500, 1000});
    CHECK(svg::tick_label(0.6000000000000001) == "0.6");
    CHECK(svg::tick_label(2500) == "2500");
    CHECK(svg::tick_label(25000) == "25k");
    CHECK(svg::tick_label(1.5e6) == "1.5M");
    CHECK(svg::format_value(12.345) == "12.3");
    CHECK(svg::format_value(0.04567) == "0.0457");
    CHECK(svg::format_value(0.5) == "0.500");
    CHECK(svg::format_value(1234.4) == "1234");
}

TEST_CASE("escape") {
    CHECK(svg::escape("<a href=\"x\">&'</a>") ==
          "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    CHECK(svg::escape(std::string("a\x01z")) == "a\xEF\xBF\xBDz");
}

TEST_CASE("html: a run's non-zero retransmit, error and congestion counters beside its charts") {
    Report rep;
    RunResult r;
    r.name = "lat/rsocket";
    r.test = "pingpong";
    r.group = "pingpong";
    r.variant = "rsocket";
    r.counters.client = SideCounters{
        {"rdma rxe0/1", std::map<std::string, int64_t>{
                            {"completer_retry_err", 4}, {"sent_pkts", 900}, {"send_err", 0}}}};
    rep.runs.push_back(r);
    RunResult clean = r;
    clean.name = "lat/tcp";
    clean.variant = "tcp";
    clean.counters.client = SideCounters{{"tcp", std::map<std::string, int64_t>{{"InSegs", 5}}}};
    rep.runs.push_back(clean);
    const std::string html = page(two_transports(), {&rep});
    const std::string line = "<li>lat/rsocket: counters: retransmits +4: client rdma rxe0/1 "
                             "completer_retry_err +4</li>";
    REQUIRE(count(html, line) == 1);
    // Under the group's charts, before the tables.
    const size_t charts = html.find("<h2>Charts</h2>");
    CHECK(html.find(line) > charts);
    CHECK(html.find(line) < html.find("<h2>Tables</h2>"));
    CHECK(html.find("lat/tcp: counters") == std::string::npos); // traffic only
    CHECK(html.find("sent_pkts") == std::string::npos);         // in JSON only
}
