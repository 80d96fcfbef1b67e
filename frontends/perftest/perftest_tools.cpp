// The tools and their options, from each perftest 4.5 tool's --help.
#include "perftest_tools.hpp"

namespace cmdbench::perftest_frontend {
namespace {

constexpr unsigned kAll = 0xff;
constexpr unsigned kLat = kSendLat | kWriteLat | kReadLat | kAtomicLat;
constexpr unsigned kBw = kSendBw | kWriteBw | kReadBw | kAtomicBw;
constexpr unsigned kSend = kSendLat | kSendBw;
constexpr unsigned kAtomic = kAtomicLat | kAtomicBw;
constexpr unsigned kSized = kAll & ~kAtomic;                 // -s, -a
constexpr unsigned kEvents = kAll & ~(kWriteLat | kWriteBw); // -e, -X
constexpr unsigned kInline = kSend | kWriteLat | kWriteBw;   // -I
constexpr unsigned kReadAtomic = kReadLat | kReadBw | kAtomic;

constexpr Support T = Support::Taken;
constexpr Support R = Support::Refused;

} // namespace

const std::vector<Tool> &tools() {
    static const std::vector<Tool> list = {
        {"ib_send_lat", kSendLat, false, "send", 2, 1000},
        {"ib_write_lat", kWriteLat, false, "write", 2, 1000},
        {"ib_read_lat", kReadLat, false, "read", 2, 1000},
        {"ib_atomic_lat", kAtomicLat, false, "fetch_add", 8, 1000},
        {"ib_send_bw", kSendBw, true, "send", 65536, 1000},
        {"ib_write_bw", kWriteBw, true, "write", 65536, 5000},
        {"ib_read_bw", kReadBw, true, "read", 65536, 1000},
        {"ib_atomic_bw", kAtomicBw, true, "fetch_add", 8, 1000},
    };
    return list;
}

const Tool *find_tool(const std::string &name) {
    for (const Tool &t : tools())
        if (name == t.name) return &t;
    return nullptr;
}

// Every option of the eight tools' --help, in one table.
const std::vector<OptionSpec> kOptionSpecs = {
    // Taken: mapped onto the verbs tests' keys (docs/perftest.md).
    {'a', "all", false, kSized, T},
    {'A', "atomic_type", true, kAtomic, T},
    {'b', "bidirectional", false, kBw, T},
    {'c', "connection", true, kAll, T},
    {'d', "ib-dev", true, kAll, T},
    {'D', "duration", true, kAll, T},
    {'e', "events", false, kEvents, T},
    {'F', "CPU-freq", false, kAll, T},
    {'h', "help", false, kAll, T},
    {'i', "ib-port", true, kAll, T},
    {'I', "inline_size", true, kInline, T},
    {'l', "post_list", true, kBw, T},
    {'m', "mtu", true, kAll, T},
    {'n', "iters", true, kAll, T},
    {'N', "noPeak", false, kBw, T},
    {'p', "port", true, kAll, T},
    {'q', "qp", true, kBw, T},
    {'Q', "cq-mod", true, kBw, T},
    {'r', "rx-depth", true, kSend, T},
    {'R', "rdma_cm", false, kAll, T},
    {'s', "size", true, kSized, T},
    {'S', "sl", true, kAll, T},
    {'t', "tx-depth", true, kBw, T},
    {'V', "version", false, kAll, T},
    {'x', "gid-index", true, kAll, T},
    {0, "output", true, kAll, T},
    {0, "report_gbits", false, kBw, T},
    {0, "run_infinitely", false, kBw, T},
    {0, "source_ip", true, kAll, T},
    {0, "tclass", true, kAll, T},
    // Refused by name: cmdbench has no counterpart.
    {'C', "report-cycles", false, kLat, R},
    {'f', "margin", true, kAll, R},
    {'g', "mcg", false, kSend, R},
    {'H', "report-histogram", false, kLat, R},
    {'L', "hop_limit", true, kAll, R},
    {'M', "MGID", true, kSend, R},
    {'o', "outs", true, kReadAtomic, R},
    {'O', "dualport", false, kBw, R},
    {'T', "tos", true, kAll, R},
    {'u', "qp-timeout", true, kAll, R},
    {'U', "report-unsorted", false, kLat, R},
    {'w', "limit_bw", true, kBw, R},
    {'W', "report-counters", true, kAll, R},
    {'X', "vector", true, kEvents, R},
    {'y', "limit_msgrate", true, kBw, R},
    {'z', "com_rdma_cm", false, kAll, R},
    {0, "aes_xts", false, kAll, R},
    {0, "encrypt_on_tx", false, kAll, R},
    {0, "sig_before", false, kAll, R},
    {0, "aes_block_size", true, kAll, R},
    {0, "data_enc_keys_number", true, kAll, R},
    {0, "kek_path", true, kAll, R},
    {0, "credentials_path", true, kAll, R},
    {0, "data_enc_key_app_path", true, kAll, R},
    {0, "log_dci_streams", true, kAll, R},
    {0, "log_active_dci_streams", true, kAll, R},
    {0, "burst_size", true, kBw, R},
    {0, "cpu_util", false, kAll, R},
    {0, "disable_pcie_relaxed", false, kBw, R},
    {0, "dlid", true, kAll, R},
    {0, "dont_xchg_versions", false, kAll, R},
    {0, "force-link", true, kAll, R},
    {0, "inline_recv", true, kEvents, R},
    {0, "ipv6", false, kAll, R},
    {0, "latency_gap", true, kLat, R},
    {0, "mmap", true, kAll, R},
    {0, "mmap-offset", true, kAll, R},
    {0, "mr_per_qp", false, kBw, R},
    {0, "odp", false, kAll, R},
    {0, "out_json", false, kAll, R},
    {0, "out_json_file", true, kAll, R},
    {0, "perform_warm_up", false, kAll, R},
    {0, "pkey_index", true, kAll, R},
    {0, "rate_limit", true, kBw, R},
    {0, "rate_limit_type", true, kBw, R},
    {0, "rate_units", true, kBw, R},
    {0, "recv_post_list", true, kBw, R},
    {0, "report-both", false, kBw, R},
    {0, "report-per-port", false, kBw, R},
    {0, "retry_count", true, kAll, R},
    {0, "reversed", false, kBw, R},
    {0, "typical_pkt_size", true, kBw, R},
    {0, "use-srq", false, kSend, R},
    {0, "use_hugepages", false, kAll, R},
    {0, "use_old_post_send", false, kAll, R},
    {0, "wait_destroy", true, kBw, R},
};

const std::vector<OptionSpec> &option_specs() {
    return kOptionSpecs;
}

} // namespace cmdbench::perftest_frontend
