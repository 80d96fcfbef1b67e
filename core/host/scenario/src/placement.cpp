// The `cpus` and `numa` run keys applied with plain system calls
// (sched_setaffinity, set_mempolicy): no libnuma needed.
#include "cmdbench/host/scenario/placement.hpp"

#include "cmdbench/host/machine/cpu_list.hpp"
#include "cmdbench/host/machine/sysfs_files.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <linux/mempolicy.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace cmdbench {
namespace {

constexpr unsigned long kNodeBits = 1024; // sizeof saved_nodes_ * 8

long set_mempolicy_call(int mode, const unsigned long *nodes, unsigned long bits) {
    // The kernel reads maxnode - 1 bits.
    return syscall(SYS_set_mempolicy, mode, nodes, nodes ? bits + 1 : 0);
}

long get_mempolicy_call(int *mode, unsigned long *nodes, unsigned long bits, const void *addr,
                        unsigned long flags) {
    return syscall(SYS_get_mempolicy, mode, nodes, bits, addr, flags);
}

std::set<unsigned> list_file(const std::string &path) {
    auto parsed = parse_cpu_list(first_line(path));
    if (parsed) return *parsed;
    return {};
}

std::set<unsigned> mask_cpus(const cpu_set_t &set) {
    std::set<unsigned> out;
    for (unsigned c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) out.insert(c);
    return out;
}

std::set<unsigned> thread_cpus(pid_t tid) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(tid, sizeof set, &set) != 0) return {};
    return mask_cpus(set);
}

bool pin(pid_t tid, const std::set<unsigned> &cpus) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (unsigned c : cpus)
        if (c < CPU_SETSIZE) CPU_SET(c, &set);
    return sched_setaffinity(tid, sizeof set, &set) == 0;
}

// Every thread of this process now.
std::set<int> our_threads() {
    std::set<int> out;
    if (DIR *d = opendir("/proc/self/task")) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') out.insert(std::atoi(e->d_name));
        closedir(d);
    }
    if (out.empty()) out.insert(int(syscall(SYS_gettid)));
    return out;
}

std::string nodes_text(const unsigned long *mask) {
    std::set<unsigned> nodes;
    for (unsigned n = 0; n < kNodeBits; ++n)
        if (mask[n / (8 * sizeof(long))] >> (n % (8 * sizeof(long))) & 1UL) nodes.insert(n);
    return cpu_list_text(nodes);
}

std::string policy_name(int mode) {
    switch (mode & ~(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES)) {
    case MPOL_DEFAULT:
        return "default";
    case MPOL_PREFERRED:
        return "preferred";
    case MPOL_BIND:
        return "bind";
    case MPOL_INTERLEAVE:
        return "interleave";
    case MPOL_LOCAL:
        return "local";
    default:
        return "mode " + std::to_string(mode);
    }
}

// What unplace_child() restores: the mask before the placement in force, and
// whether a memory policy is in force. Written only by the thread that
// applies and restores placements, before and after the run.
cpu_set_t g_unplaced_cpus;
std::atomic<bool> g_cpus_placed{false}, g_memory_placed{false};

} // namespace

void unplace_child() {
    if (g_cpus_placed.load()) sched_setaffinity(0, sizeof g_unplaced_cpus, &g_unplaced_cpus);
    if (g_memory_placed.load()) syscall(SYS_set_mempolicy, MPOL_DEFAULT, nullptr, 0);
}

std::string SidePlacement::cpus_text() const {
    return cpu_list_text(cpus);
}

std::string SidePlacement::numa_text() const {
    if (numa == Numa::Device) return "device";
    if (numa == Numa::Node) return std::to_string(node);
    return {};
}

bool SidePlacement::operator==(const SidePlacement &o) const {
    return cpus == o.cpus && numa == o.numa && (numa != Numa::Node || node == o.node);
}

std::string placement_wire(const SidePlacement &p) {
    std::string out;
    if (!p.cpus.empty()) out = "cpus=" + p.cpus_text();
    if (p.numa != SidePlacement::Numa::Any)
        out += (out.empty() ? "" : ";") + std::string("numa=") + p.numa_text();
    return out;
}

Expected<SidePlacement> placement_from_wire(const std::string &text) {
    SidePlacement p;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t end = std::min(text.find(';', at), text.size());
        const std::string item = text.substr(at, end - at);
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq),
                          value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (key == "cpus" && p.cpus.empty()) {
            auto cpus = parse_cpu_list(value);
            if (!cpus) return unexpected("placement cpus: " + cpus.error());
            p.cpus = *cpus;
        } else if (key == "numa" && p.numa == SidePlacement::Numa::Any) {
            if (value == "device") {
                p.numa = SidePlacement::Numa::Device;
            } else {
                auto node = parse_cpu_list(value);
                if (!node || node->size() != 1 ||
                    value.find_first_not_of("0123456789") != std::string::npos)
                    return unexpected(
                        "placement numa: expected \"device\" or a node number, got '" + value +
                        "'");
                p.numa = SidePlacement::Numa::Node;
                p.node = *node->begin();
            }
        } else {
            return unexpected("placement: unexpected item '" + item + "'");
        }
        at = end + 1;
    }
    return p;
}

// The CPUs our cgroup's cpuset lets us use (v2, else v1); empty when it
// cannot be read. Not our affinity mask: a launcher may have narrowed that
// (mpirun binds each rank to a core), and a placement may widen it again.
std::set<unsigned> cpuset_cpus() {
    std::ifstream in("/proc/self/cgroup");
    for (std::string line; std::getline(in, line);) {
        const size_t a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        std::set<unsigned> cpus;
        if (controllers.empty())
            cpus = list_file("/sys/fs/cgroup" + path + "/cpuset.cpus.effective");
        else if (controllers == "cpuset")
            cpus = list_file("/sys/fs/cgroup/cpuset" + path + "/cpuset.effective_cpus");
        if (!cpus.empty()) return cpus;
    }
    return {};
}

Topology local_topology() {
    Topology t;
    t.online = list_file("/sys/devices/system/cpu/online");
    if (t.online.empty()) t.online = thread_cpus(0);
    t.allowed = cpuset_cpus();
    if (t.allowed.empty()) t.allowed = t.online;
    const std::set<unsigned> nodes = list_file("/sys/devices/system/node/online");
    for (unsigned n : nodes)
        t.nodes[n] = list_file("/sys/devices/system/node/node" + std::to_string(n) + "/cpulist");
    // A kernel without NUMA has one node with every CPU.
    if (t.nodes.empty()) t.nodes[0] = t.online;
    return t;
}

Status check_placement(const SidePlacement &p, const Topology &t, const std::string &machine) {
    for (unsigned c : p.cpus) {
        if (!t.online.count(c))
            return unexpected("'cpus' names CPU " + std::to_string(c) + ", which " + machine +
                              " does not have (CPUs: " + cpu_list_text(t.online) + ")");
        if (!t.allowed.count(c))
            return unexpected("'cpus' names CPU " + std::to_string(c) +
                              ", which this process's cpuset does not allow (cpuset: " +
                              cpu_list_text(t.allowed) + ")");
    }
    if (p.numa == SidePlacement::Numa::Node && !t.nodes.count(p.node)) {
        std::set<unsigned> nodes;
        for (const auto &[n, cpus] : t.nodes)
            nodes.insert(n);
        return unexpected("'numa' names node " + std::to_string(p.node) + ", which " + machine +
                          " does not have (nodes: " + cpu_list_text(nodes) + ")");
    }
    return {};
}

std::set<unsigned> placement_cpus(const SidePlacement &p, int node, const Topology &t) {
    if (!p.cpus.empty()) return p.cpus;
    std::set<unsigned> out;
    if (node < 0) return out;
    const auto it = t.nodes.find(unsigned(node));
    if (it == t.nodes.end()) return out;
    for (unsigned c : it->second)
        if (t.allowed.count(c)) out.insert(c);
    return out;
}

Expected<int> device_numa_node(const SidePath &path) {
    std::string what, node;
    if (path.rdma && !path.devices.empty()) {
        const RdmaDevice &d = path.devices.front();
        what = d.name;
        node = d.numa_node;
        if (!d.netdev.empty() && d.netdev != kUnknown) what += " (on " + d.netdev + ")";
    }
    // Software RDMA devices have no bus of their own: their interface may.
    if ((node.empty() || node == kUnknown || node == "-1") && path.interface.name != kUnknown) {
        what += std::string(what.empty() ? "" : ", ") + "interface " + path.interface.name;
        node = path.interface.numa_node;
    }
    if (what.empty()) what = "address " + path.address + " (no interface has it)";
    if (node.empty() || node == kUnknown || node == "-1" ||
        node.find_first_not_of("0123456789") != std::string::npos)
        return unexpected("numa = \"device\": the system gives no NUMA node for " + what +
                          " (name the node instead, e.g. numa = 0)");
    return std::stoi(node);
}

PlacementScope::~PlacementScope() {
    restore();
}

Status PlacementScope::apply(const SidePlacement &p, int node) {
    const Topology t = local_topology();
    const std::set<unsigned> cpus = placement_cpus(p, node, t);
    if (!cpus.empty()) {
        caller_cpus_ = thread_cpus(0);
        CPU_ZERO(&g_unplaced_cpus);
        for (unsigned c : caller_cpus_)
            if (c < CPU_SETSIZE) CPU_SET(c, &g_unplaced_cpus);
        g_cpus_placed = true;
        for (int tid : our_threads()) {
            saved_cpus_[tid] = thread_cpus(tid);
            // A thread that ended since the listing is no loss.
            if (!pin(tid, cpus) && tid == int(syscall(SYS_gettid))) {
                const std::string why = std::strerror(errno);
                restore();
                return unexpected("cannot run on CPUs " + cpu_list_text(cpus) + ": " + why);
            }
        }
        cpus_set_ = true;
    }
    if (node >= 0) {
        if (unsigned(node) >= kNodeBits)
            return unexpected("NUMA node " + std::to_string(node) + " is too high");
        if (get_mempolicy_call(&saved_mode_, saved_nodes_, kNodeBits, nullptr, 0) != 0) {
            const std::string why = std::strerror(errno);
            restore();
            return unexpected("cannot read the memory policy: " + why);
        }
        unsigned long mask[kNodeBits / (8 * sizeof(long))] = {};
        mask[unsigned(node) / (8 * sizeof(long))] |= 1UL << (unsigned(node) % (8 * sizeof(long)));
        if (set_mempolicy_call(MPOL_BIND, mask, kNodeBits) != 0) {
            const std::string why = std::strerror(errno);
            restore();
            return unexpected("cannot bind memory to NUMA node " + std::to_string(node) + ": " +
                              why);
        }
        memory_set_ = true;
        g_memory_placed = true;
    }
    return {};
}

void PlacementScope::restore() {
    if (memory_set_) {
        const int mode = saved_mode_ & ~(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES);
        set_mempolicy_call(saved_mode_,
                           mode == MPOL_DEFAULT || mode == MPOL_LOCAL ? nullptr : saved_nodes_,
                           kNodeBits);
        memory_set_ = false;
        g_memory_placed = false;
    }
    if (cpus_set_ || !saved_cpus_.empty()) {
        // Threads started during the run get the caller's mask back.
        for (int tid : our_threads()) {
            const auto it = saved_cpus_.find(tid);
            const std::set<unsigned> &mask = it != saved_cpus_.end() ? it->second : caller_cpus_;
            if (!mask.empty()) pin(tid, mask);
        }
        saved_cpus_.clear();
        cpus_set_ = false;
        g_cpus_placed = false;
    }
}

void note_thread_placement(SideAffinity &into) {
    into.cpus_allowed = cpu_list_text(thread_cpus(0));
    int mode = 0;
    unsigned long nodes[kNodeBits / (8 * sizeof(long))] = {};
    if (get_mempolicy_call(&mode, nodes, kNodeBits, nullptr, 0) == 0) {
        into.memory_policy = policy_name(mode);
        into.memory_nodes = nodes_text(nodes);
    }
    // A fresh page, touched here: where the policy puts new memory. (Not
    // the thread's stack: glibc reuses the stacks of ended threads, whose
    // pages stay where an earlier run put them.)
    const long page = sysconf(_SC_PAGESIZE);
    void *p =
        mmap(nullptr, size_t(page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    *static_cast<volatile char *>(p) = 1;
    int node = -1;
    if (get_mempolicy_call(&node, nullptr, 0, p, MPOL_F_NODE | MPOL_F_ADDR) == 0 && node >= 0)
        into.memory_node_seen = std::to_string(node);
    munmap(p, size_t(page));
}

SideAffinity asked_affinity(const SidePlacement &p, int node) {
    SideAffinity a;
    a.requested_cpus = p.cpus_text();
    a.requested_numa = p.numa_text();
    if (node >= 0) a.numa_node = std::to_string(node);
    return a;
}

} // namespace cmdbench
