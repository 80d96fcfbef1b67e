// `cmdbench compare FILE.json...`: result files side by side.
#include "cli_options.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/compare/comparison_json.hpp"
#include "cmdbench/report/output_file.hpp"
#include "cmdbench/report/results_reader.hpp"
#include "cmdbench/report/verdict.hpp"
#include "commands.hpp"
#include "output_clash.hpp"

#include <cstdio>
#include <iostream>
#include <new>

namespace cmdbench::cli {
namespace {

po::options_description compare_options() {
    po::options_description d("Options of `cmdbench compare FILE.json...`");
    d.add_options()("baseline", po::value<std::string>(),
                    "the column ratios are taken against: a column label, or a variant (its "
                    "first column); default: the first file's baseline, else the first column")(
        "common", "compare only the groups and sizes every file has, instead of refusing files "
                  "that do not line up")(
        "format", po::value<std::string>()->default_value("table"),
        ("stdout format: " + format_names(formats_for(kUseCompare))).c_str())(
        "report", po::value<std::string>(), "FILE.html: also write the comparison as a web page");
    return d;
}

// Exit 2 with the message: the inputs do not line up, or cannot be read.
// Messages quote the files' text (a key, a variant, a status), so escaped.
int compare_refused(const std::string &what, const std::vector<std::string> &files) {
    std::fprintf(stderr, "cmdbench: cannot compare: %s\n", printable_text(what).c_str());
    for (size_t i = 0; i < files.size() && files.size() > 1; ++i)
        std::fprintf(stderr, "  input %zu: %s\n", i + 1, printable_text(files[i]).c_str());
    return kExitUsage;
}

// The files read and lined up. `inputs` points into `reports`, so this is
// filled in place and never moved.
struct Compared {
    std::vector<Report> reports;
    std::vector<const Report *> inputs;
    Comparison c;
};

// Reads every file and builds the comparison; false, having said why, when
// a file cannot be read or the files do not line up.
bool read_and_compare(const std::vector<std::string> &files, const CompareOptions &options,
                      Compared &out) {
    std::string reading; // the file being read, for an exception the reader lets through
    try {
        for (const auto &f : files) {
            reading = f;
            out.reports.push_back(read_results_file(f));
        }
        reading.clear();
        for (const auto &r : out.reports)
            out.inputs.push_back(&r);
        out.c = build_comparison(out.inputs, options);
        return true;
    } catch (const ResultsError &e) {
        compare_refused(e.what(), {});
    } catch (const CompareError &e) {
        const std::string what = e.what();
        compare_refused(what, files);
        if (!options.common_only && what.rfind("unknown baseline", 0) != 0)
            std::fprintf(stderr, "(--common compares only the groups and sizes every input has)\n");
    } catch (const std::bad_alloc &) {
        throw; // cli_main's message: out of memory
    } catch (const std::exception &e) {
        compare_refused(reading.empty() ? e.what() : reading + ": " + e.what(), {});
    }
    return false;
}

// --report: the comparison as a web page; false, having said why, when it
// cannot be written.
bool write_html_page(const std::string &html, const Compared &in, const VerdictStream &verdicts) {
    // Written as it is made, never whole in memory (a page per chart of
    // every family can be hundreds of megabytes).
    const Status written = write_output(html, [&](std::ostream &page) {
        format_named("html").make()->finish_comparison(page, in.c, in.inputs, verdicts);
    });
    if (written.ok()) return true;
    std::fprintf(stderr, "cmdbench: cannot write %s: %s\n", html.c_str(), written.error().c_str());
    return false;
}

} // namespace

void print_compare_help(std::ostream &out) {
    out << "Usage: cmdbench compare FILE.json... [options]\n\n" << compare_options();
}

int cmd_compare(const std::vector<std::string> &args) {
    po::positional_options_description pos;
    pos.add("positional", -1);
    auto desc = compare_options();
    auto vm = parse(desc, args, &pos);
    if (vm.count("help")) {
        print_compare_help(std::cout);
        return 0;
    }
    if (!vm.count("positional"))
        throw UsageError("compare needs results files: cmdbench compare A.json B.json");
    const auto files = vm["positional"].as<std::vector<std::string>>();
    const OutputFormat &format = *format_option(vm, kUseCompare);
    CompareOptions options;
    if (vm.count("baseline")) options.baseline = vm["baseline"].as<std::string>();
    options.common_only = vm.count("common") > 0;
    if (vm.count("report")) {
        std::vector<NamedPath> inputs;
        for (const auto &f : files)
            inputs.push_back({"the input", f});
        check_outputs_apart({{"--report", vm["report"].as<std::string>()}}, inputs);
        if (!outputs_writable({{"--report", vm["report"].as<std::string>()}})) return kExitUsage;
    }

    Compared in;
    if (!read_and_compare(files, options, in)) return kExitUsage;
    // The saved expectations (runs[].expect), judged again on each file's
    // own runs: the same verdicts `run` gave, kept with the files. Judged
    // each time they are read, never all held (a file may give a million).
    const VerdictStream verdicts = verdicts_of(in.inputs);
    format.make()->finish_comparison(std::cout, in.c, in.inputs, verdicts);
    if (vm.count("report") && !write_html_page(vm["report"].as<std::string>(), in, verdicts))
        return kExitRunFailed;
    return total_verdicts(verdicts).all_held() ? 0 : kExitExpectation;
}

} // namespace cmdbench::cli
