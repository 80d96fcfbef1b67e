// Scenario files (see scenario.hpp and docs/scenarios.md). Every value goes
// through parse_text, whether it comes from the file or from --set, so both
// are checked by the same rules; errors carry the position of the key or
// value at fault.
#include "cmdbench/host/scenario/scenario.hpp"

#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/params/toml_shape.hpp"
#include "cmdbench/host/plugins/run_keys.hpp"
#include "cmdbench/host/scenario/run_limits.hpp"
#include "cmdbench/host/scenario/uses_rdma.hpp"
#include "cmdbench/report/input_file.hpp"
#include "scenario_background.hpp"
#include "scenario_comparison.hpp"
#include "scenario_expect.hpp"
#include "scenario_matrix.hpp"
#include "scenario_placement.hpp"
#include "scenario_rails.hpp"
#include "toml_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace cmdbench {
namespace {

constexpr int64_t kMaxRepeat = 1000;
// The metric families a run's `compare` list may name (comparison.hpp).
// The last five: families of plugin-declared metrics, named after their kind.
constexpr const char *kCompareFamilies =
    "latency|bandwidth|connections|steps|cpu|rate|count|bytes|duration|other";
const std::set<std::string> kTopLevelKeys = {"name", "description", "plugins", "defaults",
                                             "run",  "baseline",    "matrix",  "comparison"};

[[noreturn]] void fail(const std::string &where, const std::string &message) {
    throw ScenarioError(where + ": " + message);
}

std::string at(const std::string &path, const toml::source_position &pos) {
    return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

std::string in_quotes(const std::string &s) {
    return "'" + s + "'";
}

// Restricted Damerau-Levenshtein distance, so a swapped pair counts as one.
size_t edit_distance(const std::string &a, const std::string &b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

// scenario_expect.hpp
std::string suggestion(const std::string &key, const std::set<std::string> &candidates) {
    const std::string *best = nullptr;
    size_t best_distance = 3;
    for (const std::string &c : candidates) {
        size_t dist = edit_distance(key, c);
        if (dist < best_distance) {
            best = &c;
            best_distance = dist;
        }
    }
    return best ? " (did you mean " + in_quotes(*best) + "?)" : "";
}

namespace {

std::string join_or_none(std::vector<std::string> names) {
    if (names.empty()) return "none";
    std::sort(names.begin(), names.end());
    std::string out;
    for (const std::string &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string registered_tests(const Registry &registry) {
    return join_or_none(registry.test_names());
}

std::string registered_transports(const Registry &registry) {
    return join_or_none(registry.transport_names());
}

// A plugin compiled against an older minor has a smaller cmdbench_param, so
// the array's stride is the author's struct_size, not ours.
std::vector<cmdbench_param> declared_params(const cmdbench_param *params, uint32_t count) {
    std::vector<cmdbench_param> out;
    if (!params || count == 0) return out;
    size_t stride = params[0].struct_size;
    for (uint32_t i = 0; i < count; ++i) {
        cmdbench_param p{};
        std::memcpy(&p, reinterpret_cast<const char *>(params) + i * stride,
                    std::min(stride, sizeof p));
        out.push_back(p);
    }
    return out;
}

// One `key = value`, from the file or from --set, with where to point at.
struct Setting {
    std::string key;
    std::string text;     // the value in TOML syntax
    std::string key_at;   // error prefix for a bad key
    std::string value_at; // error prefix for a bad value
};

// Turns "expected X, got Y" into "'key' expects X, got Y", and prefixes
// other messages with the key.
std::string about(const std::string &label, const std::string &message) {
    const std::string expected = "expected ";
    if (message.compare(0, expected.size(), expected) == 0)
        return label + " expects " + message.substr(expected.size());
    return label + " " + message;
}

ParamValue parse_setting(const cmdbench_param &decl, const Setting &s) {
    auto parsed = parse_text(decl, s.text);
    if (!parsed) fail(s.value_at, about(in_quotes(s.key), parsed.error()));
    return *parsed;
}

cmdbench_param run_key_decl(const char *name, uint32_t type) {
    cmdbench_param p{};
    p.struct_size = sizeof p;
    p.name = name;
    p.type = type;
    p.min_double = -INFINITY;
    p.max_double = INFINITY;
    return p;
}

std::string string_setting(const Setting &s) {
    return std::get<std::string>(parse_setting(run_key_decl("", CMDBENCH_PARAM_STRING), s));
}

// 30 rather than TOML's 30.0, for messages.
std::string seconds_text(double t) {
    std::string text = to_text(ParamValue{t});
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
        text.resize(text.size() - 2);
    return text;
}

double timeout_setting(const Setting &s) {
    // Type only: the range check below names timeout's own range, NaN and inf included.
    auto parsed = parse_text_unchecked(run_key_decl("", CMDBENCH_PARAM_DOUBLE), s.text);
    if (!parsed) fail(s.value_at, about(in_quotes(s.key), parsed.error()));
    const double t = std::get<double>(*parsed);
    if (!timeout_allowed(t))
        fail(s.value_at, "'timeout' must be > 0 and <= 86400 seconds, got " + seconds_text(t));
    return t;
}

// Empty means "start a server on loopback"; anything else is checked as
// --server is, before a run connects to the wrong port.
std::string server_setting(const Setting &s) {
    std::string value = string_setting(s);
    if (value.empty()) return value;
    // Only the check matters here; the runner parses it again.
    if (const Expected<HostPort> hp = parse_host_port(value, 1); !hp)
        fail(s.value_at, in_quotes(s.key) + " expects " + kHostPortForms + ", got " +
                             to_text(ParamValue{value}) + ": " + hp.error());
    return value;
}

unsigned repeat_setting(const Setting &s) {
    cmdbench_param decl = run_key_decl("", CMDBENCH_PARAM_INT);
    decl.min_int = 1;
    decl.max_int = kMaxRepeat;
    return unsigned(std::get<int64_t>(parse_setting(decl, s)));
}

// `pairs`: a count, or a list of counts (a scaling series), each 1..kMaxPairs
// and each once.
void pairs_setting(const Setting &s, RunSpec &spec) {
    cmdbench_param decl = run_key_decl("", CMDBENCH_PARAM_INT_LIST);
    decl.min_int = INT64_MIN;
    decl.max_int = INT64_MAX;
    const auto counts = std::get<std::vector<int64_t>>(parse_setting(decl, s));
    spec.pairs_series = !s.text.empty() && s.text[0] == '[';
    for (size_t i = 0; i < counts.size(); ++i) {
        const std::string what =
            spec.pairs_series ? "'pairs' element " + std::to_string(i + 1) : "'pairs'";
        if (counts[i] < 1 || counts[i] > int64_t(kMaxPairs))
            fail(s.value_at, what + " must be in 1.." + std::to_string(kMaxPairs) + ", got " +
                                 std::to_string(counts[i]));
        if (std::find(counts.begin(), counts.begin() + i, counts[i]) != counts.begin() + i)
            fail(s.value_at, "'pairs' lists " + std::to_string(counts[i]) + " twice");
        spec.pairs.push_back(unsigned(counts[i]));
    }
}

// `group` and `variant` label the rows and columns of a comparison, where an
// empty label would be unreadable.
std::string label_setting(const Setting &s) {
    std::string value = string_setting(s);
    if (value.empty()) fail(s.value_at, in_quotes(s.key) + " must not be empty");
    return value;
}

// `compare` is the one run key that is a list of strings: an array of family
// names, or a single name (a bare word from --set, like other strings).
std::vector<std::string> compare_setting(const Setting &s) {
    cmdbench_param family = run_key_decl("", CMDBENCH_PARAM_STRING);
    family.choices = kCompareFamilies;
    const std::string label = in_quotes(s.key);
    auto checked = [&](const std::string &name, const std::string &what) {
        if (const Status fits = check_value(family, ParamValue{name}); !fits)
            fail(s.value_at, what + " " + fits.error());
        return name;
    };
    toml::table doc;
    const toml::node *value = nullptr;
    if (s.text.find_first_of("\r\n") == std::string::npos) {
        if (const Status fit = check_value_text(s.text); !fit)
            fail(s.value_at, label + " " + fit.error());
        try {
            const std::string text = "v = " + s.text;
            doc = toml::parse(std::string_view(text), std::string_view("value"));
            value = doc.get("v");
        } catch (const toml::parse_error &) {
        }
    }
    const bool bare =
        !s.text.empty() && std::string_view("\"'[{").find(s.text[0]) == std::string::npos;
    if (!value && bare) return {checked(s.text, label)};
    if (!value)
        fail(s.value_at,
             label + " expects an array of strings, got " +
                 (s.text.empty() ? "nothing" : "'" + s.text + "', which is not a TOML value"));
    if (auto one = value->value_exact<std::string>()) return {checked(*one, label)};
    const toml::array *arr = value->as_array();
    if (!arr) fail(s.value_at, label + " expects an array of strings, got " + node_kind(*value));
    std::vector<std::string> out;
    for (size_t i = 0; i < arr->size(); ++i) {
        const std::string element = label + " element " + std::to_string(i + 1);
        auto name = (*arr)[i].value_exact<std::string>();
        if (!name) fail(s.value_at, element + " must be a string, got " + node_kind((*arr)[i]));
        out.push_back(checked(*name, element));
    }
    return out;
}

// The entries of a table in file order (toml++ iterates them sorted).
std::vector<Setting> settings_of(const toml::table &table, const std::string &path) {
    std::vector<std::pair<toml::source_position, Setting>> entries;
    for (auto &&[key, node] : table)
        entries.push_back({key.source().begin,
                           {std::string(key.str()), node_text(node), at(path, key.source().begin),
                            at(path, node.source().begin)}});
    std::sort(entries.begin(), entries.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<Setting> out;
    for (auto &e : entries)
        out.push_back(std::move(e.second));
    return out;
}

const Setting *find_setting(const std::vector<Setting> &settings, const std::string &key) {
    // The last one wins, as for repeated --set.
    for (auto it = settings.rbegin(); it != settings.rend(); ++it)
        if (it->key == key) return &*it;
    return nullptr;
}

std::string trimmed(const std::string &s) {
    size_t begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) return {};
    return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

std::vector<Setting> parse_overrides(const std::vector<std::string> &overrides) {
    std::vector<Setting> out;
    for (const std::string &o : overrides) {
        std::string where = "--set " + o;
        size_t eq = o.find('=');
        if (eq == std::string::npos) fail(where, "expected key=value");
        std::string key = trimmed(o.substr(0, eq));
        if (key.empty()) fail(where, "expected key=value");
        if (key == "test" || key == "name" || key == "rails" || key == "background")
            fail(where, in_quotes(key) + " cannot be set with --set; edit the scenario");
        out.push_back({key, trimmed(o.substr(eq + 1)), where, where});
    }
    return out;
}

toml::table parse_document(const std::string &text, const std::string &path) {
    if (auto bad = toml_shape_error(text))
        fail(path + ":" + std::to_string(bad->line) + ":" + std::to_string(bad->column),
             bad->message);
    try {
        return toml::parse(std::string_view(text), std::string_view(path));
    } catch (const toml::parse_error &e) {
        fail(at(path, e.source().begin), std::string(e.description()));
    }
}

std::vector<std::string> plugins_of(const toml::table &root, const std::string &path) {
    std::vector<std::string> out;
    const toml::node *node = root.get("plugins");
    if (!node) return out;
    const toml::array *arr = node->as_array();
    if (!arr)
        fail(at(path, node->source().begin),
             "'plugins' expects an array of strings, got " + node_kind(*node));
    for (size_t i = 0; i < arr->size(); ++i) {
        const toml::node &e = (*arr)[i];
        auto s = e.value_exact<std::string>();
        if (!s)
            fail(at(path, e.source().begin), "'plugins' element " + std::to_string(i + 1) +
                                                 " must be a string, got " + node_kind(e));
        out.push_back(*s);
    }
    return out;
}

// Everything that is the same for every run of one scenario.
struct Context {
    const std::string &path;
    const Registry &registry;
    std::vector<Setting> defaults;
    std::vector<Setting> overrides;
    // Keys that some run accepts: decides whether a [defaults] or --set key is
    // an error, and feeds the suggestions for those.
    std::set<std::string> declared_somewhere;
    // [defaults] `expect`, read once; a run's own replaces it whole.
    Expectations default_expect;
    std::string default_ratio_at;
};

// --set first, then the run's own table, then [defaults].
const Setting *lookup(const Context &cx, const std::vector<Setting> &run, const std::string &key) {
    if (const Setting *s = find_setting(cx.overrides, key)) return s;
    if (const Setting *s = find_setting(run, key)) return s;
    return find_setting(cx.defaults, key);
}

void fill_params(const Context &cx, const std::vector<Setting> &run, const std::string &header,
                 const std::vector<cmdbench_param> &decls, const std::set<std::string> &taken,
                 const std::string &owner, std::map<std::string, ParamValue> &into) {
    for (const cmdbench_param &decl : decls) {
        // A name the test declares too belongs to the test; this one keeps its default.
        const Setting *s = taken.count(decl.name) ? nullptr : lookup(cx, run, decl.name);
        if (s) {
            into[decl.name] = parse_setting(decl, *s);
            continue;
        }
        if (!decl.default_value)
            fail(header, "missing required parameter " + in_quotes(decl.name) + " for " + owner);
        auto parsed = parse_text(decl, decl.default_value);
        if (!parsed)
            fail(header, "invalid default of parameter " + in_quotes(decl.name) + " of " + owner +
                             ": " + parsed.error());
        into[decl.name] = *parsed;
    }
}

// The run's transport, for a test that takes one (else none, and a
// `transport` key is an error).
const cmdbench_transport *resolve_transport(Context &cx, const std::vector<Setting> &run,
                                            const std::string &header, const cmdbench_test *test,
                                            const std::string &test_label, RunSpec &spec) {
    if (!(test->flags & CMDBENCH_TEST_USES_TRANSPORT)) {
        if (const Setting *s = find_setting(run, "transport"))
            fail(s->key_at, test_label + " takes no transport");
        return nullptr;
    }
    const Setting *s = lookup(cx, run, "transport");
    if (!s)
        fail(header, "missing 'transport' for " + test_label +
                         " (registered: " + registered_transports(cx.registry) + ")");
    spec.transport = string_setting(*s);
    const cmdbench_transport *transport = cx.registry.find_transport(spec.transport);
    if (!transport)
        fail(s->value_at, "unknown transport " + in_quotes(spec.transport) +
                              " (registered: " + registered_transports(cx.registry) + ")");
    return transport;
}

// The transport, else the test; with the test's `op` (verbs' send, write,
// read, ...) after a colon, so two runs that differ in what they measure
// are two variants, not repeats of one ("verbs-lat:write").
std::string default_variant(const RunSpec &spec) {
    std::string v = spec.transport.empty() ? spec.test : spec.transport;
    if (auto op = spec.test_params.find("op"); op != spec.test_params.end())
        if (const auto *text = std::get_if<std::string>(&op->second)) v += ":" + *text;
    return v;
}

// `name`, `group` and `variant`, by default from the test and transport.
void resolve_labels(Context &cx, const std::vector<Setting> &run, RunSpec &spec) {
    const Setting *name = find_setting(run, "name");
    if (!name) name = find_setting(cx.defaults, "name");
    if (name)
        spec.name = string_setting(*name);
    else
        spec.name = spec.transport.empty() ? spec.test : spec.test + "/" + spec.transport;
    const Setting *group = lookup(cx, run, "group");
    spec.group = group ? label_setting(*group) : spec.test;
    const Setting *variant = lookup(cx, run, "variant");
    spec.variant = variant ? label_setting(*variant) : default_variant(spec);
}

// The run's test, from the run's table or [defaults].
const cmdbench_test *resolve_test(Context &cx, const std::vector<Setting> &run,
                                  const std::string &header, RunSpec &spec) {
    const Setting *test_s = find_setting(run, "test");
    if (!test_s) test_s = find_setting(cx.defaults, "test");
    if (!test_s) fail(header, "missing required key 'test'");
    spec.test = string_setting(*test_s);
    const cmdbench_test *test = cx.registry.find_test(spec.test);
    if (!test)
        fail(test_s->value_at, "unknown test " + in_quotes(spec.test) +
                                   " (registered: " + registered_tests(cx.registry) + ")");
    return test;
}

std::set<std::string> names_of(const std::vector<cmdbench_param> &params) {
    std::set<std::string> names;
    for (const cmdbench_param &p : params)
        names.insert(p.name);
    return names;
}

// Every key of the run must be a run key or a parameter of its test or
// transport (`transport` only for a test that takes one). What is allowed
// here also counts as declared somewhere, for [defaults] and --set.
void check_run_keys(Context &cx, const std::vector<Setting> &run, const cmdbench_test *test,
                    const std::set<std::string> &param_names, const std::string &test_label) {
    std::set<std::string> allowed = kReservedRunKeys;
    if (!(test->flags & CMDBENCH_TEST_USES_TRANSPORT)) allowed.erase("transport");
    allowed.insert(param_names.begin(), param_names.end());
    cx.declared_somewhere.insert(allowed.begin(), allowed.end());
    for (const Setting &s : run)
        if (!allowed.count(s.key))
            fail(s.key_at, "unknown key " + in_quotes(s.key) + " for " + test_label +
                               suggestion(s.key, allowed));
}

// The run keys that are plain settings: timeout, server, the labels,
// repeat and compare.
void resolve_run_settings(Context &cx, const std::vector<Setting> &run, RunSpec &spec) {
    const Setting *timeout = lookup(cx, run, "timeout");
    spec.timeout_s = timeout ? timeout_setting(*timeout) : kDefaultTimeout;
    if (const Setting *s = lookup(cx, run, "server")) {
        spec.server = server_setting(*s);
        spec.given_at["server"] = s->key_at;
    }
    resolve_labels(cx, run, spec);
    if (const Setting *s = lookup(cx, run, "repeat")) spec.repeat = repeat_setting(*s);
    if (const Setting *s = lookup(cx, run, "compare")) spec.compare = compare_setting(*s);
    if (const Setting *s = lookup(cx, run, "pairs")) {
        pairs_setting(*s, spec);
        spec.given_at["pairs"] = s->key_at;
    }
}

// `pairs` runs the run's own test several times at once; a run on every
// rail, or one with background traffic, already does that its own way.
void check_pairs_alone(Context &cx, const std::vector<Setting> &run, const toml::table &table) {
    const Setting *pairs = lookup(cx, run, "pairs");
    if (!pairs) return;
    for (const char *other : {"rails", "background"})
        if (table.get(other))
            fail(pairs->key_at, "'pairs' cannot be combined with " + in_quotes(other) +
                                    " in one run: give the pairs a run of their own");
}

// The run's own `expect`, else the one of [defaults].
void resolve_expect(const Context &cx, const toml::table &table, RunSpec &spec) {
    if (const toml::node *e = table.get("expect")) {
        spec.expect = read_expect(*e, cx.path, spec.expect_at);
    } else {
        spec.expect = cx.default_expect;
        spec.expect.inherited = true;
        spec.expect_at = cx.default_ratio_at;
    }
}

RunSpec resolve_background(const Context &cx, const RunSpec &spec, const toml::table &t,
                           const toml::table *params);

// `run`: the run's settings; `table`: where its tables (rails, background,
// expect) are; `header`: where to point at for the run as a whole.
RunSpec resolve_run(Context &cx, const toml::table &table, const std::vector<Setting> &run,
                    const std::string &header) {
    RunSpec spec;
    const cmdbench_test *test = resolve_test(cx, run, header, spec);
    const std::string test_label = "test " + in_quotes(spec.test);
    const cmdbench_transport *transport =
        resolve_transport(cx, run, header, test, test_label, spec);

    auto test_params = declared_params(test->params, test->param_count);
    auto transport_params = transport ? declared_params(transport->params, transport->param_count)
                                      : std::vector<cmdbench_param>{};
    const std::set<std::string> test_names = names_of(test_params);
    std::set<std::string> param_names = names_of(transport_params);
    param_names.insert(test_names.begin(), test_names.end());
    check_run_keys(cx, run, test, param_names, test_label);

    fill_params(cx, run, header, test_params, {}, test_label, spec.test_params);
    if (transport)
        fill_params(cx, run, header, transport_params, test_names,
                    "transport " + in_quotes(spec.transport), spec.transport_params);

    resolve_run_settings(cx, run, spec);
    if (const toml::node *rails = table.get("rails")) {
        spec.rails = read_rails(*rails, cx.path,
                                {test_params, transport_params, test_label,
                                 run_uses_rdma(cx.registry, test, transport)});
        spec.rails_all = rails->is_string();
        if (const Setting *s = find_setting(run, "rails")) spec.given_at["rails"] = s->key_at;
    }
    if (const toml::node *b = table.get("background"))
        spec.background = read_background(*b, cx.path, !spec.rails.empty(),
                                          [&](const toml::table &t, const toml::table *params) {
                                              return resolve_background(cx, spec, t, params);
                                          });
    check_pairs_alone(cx, run, table);
    resolve_expect(cx, table, spec);
    if (const Setting *s = lookup(cx, run, "cpus"))
        read_cpus_setting(s->text, s->value_at, spec.placement);
    if (const Setting *s = lookup(cx, run, "numa"))
        read_numa_setting(s->text, s->value_at, spec.placement);
    return spec;
}

RunSpec resolve_run(Context &cx, const toml::table &table) {
    return resolve_run(cx, table, settings_of(table, cx.path), at(cx.path, table.source().begin));
}

// A run's background: its test and transport, then its `params`, as the
// settings of a run of its own; only what the background says (no
// [defaults], no --set), and no tables of its own.
RunSpec resolve_background(const Context &cx, const RunSpec &spec, const toml::table &t,
                           const toml::table *params) {
    std::vector<Setting> run;
    for (Setting &s : settings_of(t, cx.path))
        if (s.key == "test" || s.key == "transport") run.push_back(std::move(s));
    if (params)
        for (Setting &s : settings_of(*params, cx.path))
            run.push_back(std::move(s));
    Context own{cx.path, cx.registry, {}, {}, {}, {}, {}};
    RunSpec bg = resolve_run(own, toml::table{}, run, at(cx.path, t.source().begin));
    bg.name = spec.name + " background";
    bg.server = spec.server;
    return bg;
}

// Run keys in [defaults] are checked even when no run uses them.
void check_default_run_keys(const Context &cx) {
    for (const char *key : {"name", "test", "transport", "server"})
        if (const Setting *s = find_setting(cx.defaults, key)) {
            std::string value = string_setting(*s);
            if (std::string(key) == "test" && !cx.registry.find_test(value))
                fail(s->value_at, "unknown test " + in_quotes(value) +
                                      " (registered: " + registered_tests(cx.registry) + ")");
            if (std::string(key) == "transport" && !cx.registry.find_transport(value))
                fail(s->value_at, "unknown transport " + in_quotes(value) +
                                      " (registered: " + registered_transports(cx.registry) + ")");
        }
    if (const Setting *s = find_setting(cx.defaults, "timeout")) timeout_setting(*s);
    for (const char *key : {"rails", "background"})
        if (const Setting *s = find_setting(cx.defaults, key))
            fail(s->key_at, in_quotes(key) + " is set in a run, not in [defaults]");
    for (const char *key : {"group", "variant"})
        if (const Setting *s = find_setting(cx.defaults, key)) label_setting(*s);
    if (const Setting *s = find_setting(cx.defaults, "repeat")) repeat_setting(*s);
    if (const Setting *s = find_setting(cx.defaults, "compare")) compare_setting(*s);
    RunSpec unused_spec;
    if (const Setting *s = find_setting(cx.defaults, "pairs")) pairs_setting(*s, unused_spec);
    RunPlacement unused;
    if (const Setting *s = find_setting(cx.defaults, "cpus"))
        read_cpus_setting(s->text, s->value_at, unused);
    if (const Setting *s = find_setting(cx.defaults, "numa"))
        read_numa_setting(s->text, s->value_at, unused);
}

std::set<std::string> variants_of(const Scenario &s) {
    std::set<std::string> out;
    for (const RunSpec &r : s.runs)
        out.insert(r.variant);
    return out;
}

// A baseline only means something when there are variants to set against it;
// with one variant it is kept as written (a later comparison of several
// reports may find it).
void check_baseline(const Scenario &s, const Setting &baseline) {
    const std::set<std::string> variants = variants_of(s);
    if (variants.size() > 1 && !variants.count(s.baseline))
        fail(baseline.key_at, "baseline " + in_quotes(s.baseline) +
                                  " is not the variant of any run (variants: " +
                                  join_or_none({variants.begin(), variants.end()}) + ")");
}

// A ratio expectation needs the baseline among the runs, else every ratio
// verdict would be "unknown" after the whole scenario ran.
void check_ratio_baseline(const Scenario &s) {
    const std::set<std::string> variants = variants_of(s);
    if (variants.count(s.baseline)) return;
    for (const RunSpec &r : s.runs)
        if (r.expect.has_ratio())
            fail(r.expect_at,
                 "a ratio expectation of run " + in_quotes(r.name) +
                     " needs a run of the baseline variant " + in_quotes(s.baseline) +
                     " (variants: " + join_or_none({variants.begin(), variants.end()}) +
                     "; set `baseline`)");
}

const toml::array &runs_of(const toml::table &root, const std::string &path) {
    const toml::node *node = root.get("run");
    if (!node) fail(at(path, {1, 1}), "no [[run]] table: a scenario needs at least one run");
    const toml::array *arr = node->as_array();
    if (!arr)
        fail(at(path, node->source().begin),
             "'run' expects an array of tables ([[run]]), got " + node_kind(*node));
    if (arr->empty())
        fail(at(path, node->source().begin), "'run' is empty: a scenario needs at least one run");
    for (size_t i = 0; i < arr->size(); ++i)
        if (!(*arr)[i].is_table())
            fail(at(path, (*arr)[i].source().begin), "'run' element " + std::to_string(i + 1) +
                                                         " expects a table, got " +
                                                         node_kind((*arr)[i]));
    return *arr;
}

// Top-level keys, in file order, checked before anything else.
void check_top_level(const toml::table &root, const std::string &path) {
    for (const Setting &s : settings_of(root, path))
        if (!kTopLevelKeys.count(s.key))
            fail(s.key_at,
                 "unknown top-level key " + in_quotes(s.key) + suggestion(s.key, kTopLevelKeys));
    if (const toml::node *d = root.get("defaults"); d && !d->is_table())
        fail(at(path, d->source().begin), "'defaults' expects a table, got " + node_kind(*d));
}

} // namespace

std::string read_scenario_file(const std::string &path) {
    Expected<std::string> text = read_input_file(path, kMaxScenarioBytes);
    if (!text) fail(path, text.error());
    return std::move(*text);
}

std::vector<std::string> scenario_plugins(const std::string &path) {
    return scenario_plugins_in(read_scenario_file(path), path);
}

std::vector<std::string> scenario_plugins_in(const std::string &text, const std::string &path) {
    toml::table root = parse_document(text, path);
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::vector<std::string> out;
    for (const std::string &p : plugins_of(root, path))
        out.push_back((dir / p).lexically_normal().string());
    return out;
}

Scenario load_scenario(const std::string &path, const Registry &registry,
                       const std::vector<std::string> &overrides) {
    return parse_scenario(read_scenario_file(path), path, registry, overrides);
}

Scenario parse_scenario(const std::string &text, const std::string &path, const Registry &registry,
                        const std::vector<std::string> &overrides) {
    const toml::table root = parse_document(text, path);
    check_top_level(root, path);
    Scenario s;
    s.path = path;
    const std::vector<Setting> top = settings_of(root, path);
    for (const Setting &e : top) {
        if (e.key == "name") s.name = string_setting(e);
        if (e.key == "description") s.description = string_setting(e);
        if (e.key == "baseline") s.baseline = string_setting(e);
    }
    s.plugins = plugins_of(root, path);
    s.matrix = read_matrix_table(root, path);
    s.comparison = read_comparison_table(root, path);

    Context cx{path, registry, {}, parse_overrides(overrides), {}, {}, {}};
    if (const toml::table *d = root.get_as<toml::table>("defaults")) {
        cx.defaults = settings_of(*d, path);
        if (const toml::node *e = d->get("expect"))
            cx.default_expect = read_expect(*e, path, cx.default_ratio_at);
    }
    check_default_run_keys(cx);

    for (const toml::node &run : runs_of(root, path))
        s.runs.push_back(resolve_run(cx, *run.as_table()));

    for (const Setting &d : cx.defaults)
        if (!kReservedRunKeys.count(d.key) && !cx.declared_somewhere.count(d.key))
            fail(d.key_at, "key " + in_quotes(d.key) +
                               " in [defaults] is not a parameter of any run's test or "
                               "transport" +
                               suggestion(d.key, cx.declared_somewhere));
    for (const Setting &o : cx.overrides)
        if (!cx.declared_somewhere.count(o.key))
            fail(o.key_at,
                 "no run declares " + in_quotes(o.key) + suggestion(o.key, cx.declared_somewhere));
    if (const Setting *b = find_setting(top, "baseline")) check_baseline(s, *b);
    check_ratio_baseline(s);
    return s;
}

namespace {

// `pairs` as given: a list stays a list, even of one count.
std::string pairs_toml(const RunSpec &r) {
    if (!r.pairs_series) return std::to_string(r.pairs.front());
    std::string out = "[";
    for (size_t i = 0; i < r.pairs.size(); ++i)
        out += (i ? ", " : "") + std::to_string(r.pairs[i]);
    return out + "]";
}

// `rails` as inline tables, each with its label.
std::string rails_toml(const std::vector<Rail> &rails) {
    std::string out = "[";
    for (const Rail &rail : rails) {
        out +=
            std::string(out.size() > 1 ? ", " : "") + "{label = " + to_text(ParamValue{rail.label});
        if (!rail.server.empty()) out += ", server = " + to_text(ParamValue{rail.server});
        for (const auto *params : {&rail.test_params, &rail.transport_params})
            for (const auto &[key, value] : *params)
                out += ", " + key + " = " + to_text(value);
        out += "}";
    }
    return out + "]";
}

} // namespace

void check_placement_here(const Scenario &s, bool local_server) {
    const Topology here = local_topology();
    for (const RunSpec &r : s.runs) {
        const bool server_here = local_server && r.server.empty();
        for (const auto &[side, name] :
             {std::pair{&r.placement.client, "client"}, {&r.placement.server, "server"}}) {
            if (side->empty() || (side == &r.placement.server && !server_here)) continue;
            if (const Status placed = check_placement(*side, here); !placed) {
                const bool cpus = placed.error().rfind("'cpus'", 0) == 0;
                fail(cpus ? side->cpus_at : side->numa_at,
                     placed.error() + " (the " + name + " side of run " + in_quotes(r.name) + ")");
            }
        }
    }
}

std::string to_toml(const Scenario &s) {
    std::string out;
    if (!s.name.empty()) out += "name = " + to_text(ParamValue{s.name}) + "\n";
    if (!s.description.empty()) out += "description = " + to_text(ParamValue{s.description}) + "\n";
    if (!s.plugins.empty()) {
        out += "plugins = [";
        for (size_t i = 0; i < s.plugins.size(); ++i)
            out += (i ? ", " : "") + to_text(ParamValue{s.plugins[i]});
        out += "]\n";
    }
    // Only a baseline that would be accepted back: the default "tcp" is not
    // one when the runs have other variants.
    const std::set<std::string> variants = variants_of(s);
    if (variants.size() <= 1 || variants.count(s.baseline))
        out += "baseline = " + to_text(ParamValue{s.baseline}) + "\n";
    if (s.matrix.given) out += "\n" + matrix_toml(s.matrix);
    if (s.comparison.given) out += "\n" + comparison_toml(s.comparison);
    for (const RunSpec &r : s.runs) {
        out += "\n[[run]]\n";
        out += "name = " + to_text(ParamValue{r.name}) + "\n";
        out += "test = " + to_text(ParamValue{r.test}) + "\n";
        if (!r.transport.empty()) out += "transport = " + to_text(ParamValue{r.transport}) + "\n";
        out += "timeout = " + to_text(ParamValue{r.timeout_s}) + "\n";
        if (!r.server.empty()) out += "server = " + to_text(ParamValue{r.server}) + "\n";
        out += "group = " + to_text(ParamValue{r.group}) + "\n";
        out += "variant = " + to_text(ParamValue{r.variant}) + "\n";
        out += "repeat = " + std::to_string(r.repeat) + "\n";
        out += "compare = [";
        for (size_t i = 0; i < r.compare.size(); ++i)
            out += (i ? ", " : "") + to_text(ParamValue{r.compare[i]});
        out += "]\n";
        if (!r.expect.empty()) out += expect_toml(r.expect);
        out += placement_toml(r.placement);
        for (const auto &[key, value] : r.test_params)
            out += key + " = " + to_text(value) + "\n";
        // A transport parameter named like a test one cannot be set by key.
        for (const auto &[key, value] : r.transport_params)
            if (!r.test_params.count(key)) out += key + " = " + to_text(value) + "\n";
        // "all" as written: the same text, and digest, on every rank of a
        // matrix job, whose nodes each have their own devices.
        if (!r.pairs.empty()) out += "pairs = " + pairs_toml(r) + "\n";
        if (r.rails_all)
            out += "rails = \"all\"\n";
        else if (!r.rails.empty())
            out += "rails = " + rails_toml(r.rails) + "\n";
        if (r.background) out += "background = " + background_toml(*r.background) + "\n";
    }
    return out;
}

} // namespace cmdbench
