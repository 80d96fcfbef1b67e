// The verdict summary of a matrix, as text and HTML (matrix_verdicts.hpp):
// written first, so the bad node or cable is what a reader sees first.
#include "cmdbench/report/matrix/matrix_verdicts.hpp"
#include "cmdbench/report/svg_plot.hpp"

#include <ostream>

namespace cmdbench {
namespace {

using svg::escape;

// Whether a tally has a link that did not pass.
bool troubled(const VerdictTally &t) {
    return t.count[int(Outcome::Pass)] < t.links;
}

// The nodes shown: every node with a link not passing, at most
// kListedLinks; how many more there are (troubled, and all passing).
struct Shown {
    size_t shown = 0, more_troubled = 0, all_pass = 0;
};

Shown shown_nodes(const MatrixVerdicts &m) {
    Shown s;
    for (const VerdictTally &t : m.nodes) {
        if (!troubled(t))
            ++s.all_pass;
        else if (s.shown < kListedLinks)
            ++s.shown;
        else
            ++s.more_troubled;
    }
    // No node troubled: show the first few, so the medians are there.
    if (s.shown == 0) s.shown = std::min(m.nodes.size(), kListedLinks);
    return s;
}

size_t problem_links(const MatrixVerdicts &m) {
    return m.links.size() - m.count[int(Outcome::Pass)];
}

std::string more_nodes_text(const Shown &s, size_t nodes) {
    std::string text;
    if (s.more_troubled)
        text = "and " + std::to_string(s.more_troubled) + " more nodes with links not passing";
    const size_t rest = nodes - s.shown - s.more_troubled;
    if (rest && s.all_pass)
        text += (text.empty() ? "" : "; ") + std::to_string(std::min(rest, s.all_pass)) +
                " more nodes, every link PASS";
    return text;
}

} // namespace

void write_matrix_verdicts_table(std::ostream &out, const MatrixVerdicts &m) {
    if (m.links.empty()) return;
    const std::string line = matrix_verdict_line(m);
    out << "verdicts: " << line.substr(0, line.find(';')) << '\n';
    if (!m.rails.empty()) {
        out << "per rail, worst first:\n";
        for (const VerdictTally &t : m.rails)
            out << "  rail " << tally_text(m, t) << '\n';
    }
    out << "per node, worst first:\n";
    const Shown s = shown_nodes(m);
    for (size_t i = 0; i < s.shown; ++i)
        out << "  " << tally_text(m, m.nodes[i]) << '\n';
    if (const std::string more = more_nodes_text(s, m.nodes.size()); !more.empty())
        out << "  " << more << '\n';
    const size_t bad = problem_links(m);
    if (bad == 0) return;
    out << "links not passing, worst first:\n";
    for (size_t i = 0; i < bad && i < kListedLinks; ++i) {
        std::string tag = outcome_label(m.links[i].outcome);
        tag.resize(7, ' ');
        out << "  " << tag << " " << verdict_text(m.links[i].worst) << '\n';
    }
    if (bad > kListedLinks)
        out << "  and " << bad - kListedLinks
            << " more (every verdict: the expectations below, or -o FILE.json)\n";
}

void write_matrix_verdicts_html(std::ostream &out, const MatrixVerdicts &m) {
    if (m.links.empty()) return;
    const bool held = m.count[int(Outcome::Pass)] == m.links.size();
    out << "<h2>Verdicts</h2>\n<p class=\"" << (held ? "held" : "banner")
        << "\" id=\"matrix-verdict-summary\">" << escape(matrix_verdict_line(m)) << ".</p>\n";
    auto tallies = [&](const char *caption, const std::vector<VerdictTally> &list, size_t shown,
                       const char *cls) {
        out << "<table class=\"" << cls << "\">\n<caption>" << caption
            << "</caption>\n<thead><tr><th>" << (list.data() == m.rails.data() ? "rail" : "node")
            << "</th><th>links</th><th>FAIL</th><th>UNKNOWN</th><th>NOT RUN</th><th>PASS</th>"
               "<th>summary</th></tr></thead>\n<tbody>\n";
        for (size_t i = 0; i < shown && i < list.size(); ++i) {
            const VerdictTally &t = list[i];
            out << "<tr class=\"" << (t.count[int(Outcome::Fail)] ? "verdict-fail" : "")
                << "\"><td>" << escape(t.name) << "</td><td>" << t.links << "</td>";
            for (Outcome o : {Outcome::Fail, Outcome::Unknown, Outcome::NotRun, Outcome::Pass})
                out << "<td>" << t.count[int(o)] << "</td>";
            out << "<td>" << escape(tally_text(m, t)) << "</td></tr>\n";
        }
        out << "</tbody>\n</table>\n";
    };
    if (!m.rails.empty())
        tallies("Per rail, worst first", m.rails, m.rails.size(), "verdicts rails");
    const Shown s = shown_nodes(m);
    tallies("Per node, worst first", m.nodes, s.shown, "verdicts nodes");
    if (const std::string more = more_nodes_text(s, m.nodes.size()); !more.empty())
        out << "<p class=\"legend\">" << escape(more) << ".</p>\n";
    const size_t bad = problem_links(m);
    if (bad == 0) return;
    out << "<table class=\"verdicts links\">\n<caption>Links not passing, worst first</caption>\n"
           "<thead><tr><th>verdict</th><th>link</th><th>worst expectation</th></tr></thead>\n"
           "<tbody>\n";
    for (size_t i = 0; i < bad && i < kListedLinks; ++i) {
        const LinkVerdict &l = m.links[i];
        out << "<tr class=\"verdict-" << to_string(l.outcome) << "\"><td>"
            << outcome_label(l.outcome) << "</td><td>" << escape(link_text(l.worst)) << "</td><td>"
            << escape(verdict_text(l.worst)) << "</td></tr>\n";
    }
    out << "</tbody>\n</table>\n";
    if (bad > kListedLinks)
        out << "<p class=\"legend\">And " << bad - kListedLinks
            << " more links not passing: every verdict is in the results (JSON "
               "<code>expectations</code>).</p>\n";
}

} // namespace cmdbench
