// The mapping of perftest's options onto the verbs keys.
#include "perftest_params.hpp"

#include <cstring>

namespace cmdbench::perftest_frontend {
namespace {

const cmdbench_param *declared(const cmdbench_test &test, const std::string &key) {
    for (uint32_t i = 0; i < test.param_count; ++i)
        if (key == test.params[i].name) return &test.params[i];
    return nullptr;
}

bool takes_choice(const cmdbench_param &p, const std::string &value) {
    if (!p.choices) return true;
    const std::string list = std::string("|") + p.choices + "|";
    return list.find("|" + value + "|") != std::string::npos;
}

std::string quoted(const std::string &s) {
    return "\"" + s + "\"";
}

std::string lower(std::string s) {
    for (char &c : s)
        c = char(c | 0x20);
    return s;
}

struct Mapper {
    const Options &o;
    const cmdbench_test &test;
    WireParams out;

    // Adds key = value; `option` names what asked for it when the loaded
    // test lacks the key or the value.
    void put(const std::string &key, const std::string &value, const std::string &option,
             const std::string &choice = "") {
        const cmdbench_param *p = declared(test, key);
        if (!p)
            throw UsageError(option + " needs a verbs plugin with key " + key + " (the " +
                             test.name + " test this cmdbench loaded has none)");
        if (!choice.empty() && !takes_choice(*p, choice))
            throw UsageError(option + " needs a verbs plugin whose " + key + " takes \"" + choice +
                             "\" (this one takes " + p->choices + ")");
        out.emplace_back(key, value);
    }
    bool given(const char *name) const { return o.given.count(name) > 0; }
    void put_if(const char *name, const std::string &key, const std::string &value,
                const std::string &option) {
        if (given(name)) put(key, value, option);
    }
};

void connection_keys(Mapper &m) {
    const Options &o = m.o;
    if (!declared(m.test, "connect")) {
        if (!o.rdma_cm)
            throw UsageError(std::string("without -R/--rdma_cm, cmdbench ") + o.tool->name +
                             " connects its QPs by exchanging their numbers over the TCP "
                             "connection, which needs a verbs plugin with key connect; add -R "
                             "(this plugin connects through rdma_cm only)");
    } else {
        const std::string mode = o.rdma_cm ? "rdma_cm" : "exchange";
        m.put("connect", quoted(mode), o.rdma_cm ? "-R/--rdma_cm" : "connecting without -R", mode);
    }
    if (m.given("connection")) {
        const std::string type = lower(o.connection);
        m.put("qp_type", quoted(type), "-c/--connection " + o.connection, type);
    }
}

void device_keys(Mapper &m) {
    const Options &o = m.o;
    m.put_if("ib-dev", "device", quoted(o.device), "-d/--ib-dev");
    m.put_if("ib-port", "ib_port", std::to_string(o.ib_port), "-i/--ib-port");
    m.put_if("gid-index", "gid_index", std::to_string(o.gid_index), "-x/--gid-index");
    m.put_if("mtu", "mtu", std::to_string(o.mtu), "-m/--mtu");
    m.put_if("sl", "sl", std::to_string(o.sl), "-S/--sl");
    m.put_if("tclass", "traffic_class", std::to_string(o.traffic_class), "--tclass");
    m.put_if("source_ip", "bind_address", quoted(o.source_ip), "--source_ip");
}

void test_keys(Mapper &m) {
    const Options &o = m.o;
    const bool cas = o.atomic_type == "CMP_AND_SWAP";
    m.put("op", quoted(cas ? "cmp_swap" : o.tool->op), "the tool");
    // UD's default size is the path MTU, which the plugin knows ([-1]).
    const bool ud_default =
        o.tool->bandwidth && lower(o.connection) == "ud" && !m.given("size") && !m.given("all");
    if (ud_default)
        m.put("sizes", "[-1]", "-c/--connection UD");
    else if (!o.tool->atomic())
        m.put("sizes", to_text(ParamValue(o.sizes)), "-s/--size");
    m.put("iterations", std::to_string(o.iterations), "-n/--iters");
    m.put_if("duration", "duration", std::to_string(int64_t(o.duration)), "-D/--duration");
    if (o.run_infinitely && !m.given("duration"))
        m.put("duration", std::to_string(int64_t(o.duration)), "--run_infinitely");
    m.put_if("run_infinitely", "run_infinitely", "true", "--run_infinitely");
    m.put_if("qp", "qps", std::to_string(o.qps), "-q/--qp");
    m.put_if("bidirectional", "bidirectional", "true", "-b/--bidirectional");
    m.put_if("events", "mode", quoted("event"), "-e/--events");
    m.put_if("inline_size", "inline_size", std::to_string(o.inline_size), "-I/--inline_size");
    m.put_if("tx-depth", "tx_depth", std::to_string(o.tx_depth), "-t/--tx-depth");
    m.put_if("cq-mod", "cq_mod", std::to_string(o.cq_mod), "-Q/--cq-mod");
    m.put_if("rx-depth", "rx_depth", std::to_string(o.rx_depth), "-r/--rx-depth");
    m.put_if("post_list", "post_list", std::to_string(o.post_list), "-l/--post_list");
}

std::string value_of(const WireParams &w, const std::string &key) {
    for (const auto &[k, v] : w)
        if (k == key) return v;
    return "(default)";
}

} // namespace

const char *test_name(const Tool &tool) {
    return tool.bandwidth ? "verbs-bw" : "verbs-lat";
}

WireParams wire_params(const Options &o, const cmdbench_test &test) {
    Mapper m{o, test, {}};
    test_keys(m);
    connection_keys(m);
    device_keys(m);
    return m.out;
}

const std::vector<SharedKey> &shared_keys() {
    static const std::vector<SharedKey> keys = {
        {"op", "-A/--atomic_type"},
        {"sizes", "-s/--size (or -a/--all)"},
        {"iterations", "-n/--iters"},
        {"duration", "-D/--duration"},
        {"run_infinitely", "--run_infinitely"},
        {"qps", "-q/--qp"},
        {"bidirectional", "-b/--bidirectional"},
        {"qp_type", "-c/--connection"},
        {"connect", "-R/--rdma_cm"},
    };
    return keys;
}

std::string disagreement(const WireParams &ours, const WireParams &theirs) {
    for (const SharedKey &k : shared_keys()) {
        const std::string a = value_of(ours, k.key), b = value_of(theirs, k.key);
        if (a != b)
            return std::string(k.option) + " differs: the client has " + k.key + " = " + b +
                   ", the server " + k.key + " = " + a + "; run both sides with the same value";
    }
    return {};
}

} // namespace cmdbench::perftest_frontend
