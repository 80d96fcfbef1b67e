// Statistics and table layout of cmtime's steps.
#include "cmdbench/cmtime/step_table.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace cmdbench::cmtime {
namespace {

const char *const kLabels[kStepCount] = {
    "full connect", "create id", "bind addr",   "resolve addr", "resolve route", "create qp",
    "init qp attr", "init qp",   "rtr qp attr", "rtr qp",       "rts qp attr",   "rts qp",
    "cm connect",   "establish", "disconnect",  "destroy id",   "destroy qp"};

// cmtime truncates each stamp to whole microseconds before subtracting.
uint64_t us(uint64_t ns) {
    return ns / 1000;
}

void put_u64(std::vector<uint8_t> &out, uint64_t v) {
    cmdbench::support::append_be(out, v, 8);
}

struct Cursor {
    const std::vector<uint8_t> &in;
    size_t pos = 0;
    uint64_t u64() {
        if (in.size() - pos < 8) throw std::runtime_error("step report: truncated");
        const uint64_t v = cmdbench::support::get_be64(in.data() + pos);
        pos += 8;
        return v;
    }
};

constexpr uint64_t kReportMagic = 0x636d74696d650001; // "cmtime", version 1
// Version 2: the same figures, no samples (encode_figures).
constexpr uint64_t kFiguresMagic = 0x636d74696d650002;

void put_figures(std::vector<uint8_t> &out, const StepReport &r, uint64_t magic) {
    put_u64(out, magic);
    put_u64(out, r.conns);
    put_u64(out, r.threads);
    put_u64(out, r.real_qps ? 1 : 0);
}

void put_step(std::vector<uint8_t> &out, const StepStats &st) {
    put_u64(out, st.total_us);
    put_u64(out, st.sum_us);
    put_u64(out, st.max_us);
    put_u64(out, st.min_us);
    put_u64(out, st.samples);
}

StepReport get_figures(Cursor &c, uint64_t magic) {
    const uint64_t got = c.u64();
    if (got == kReportMagic && magic == kFiguresMagic)
        throw std::runtime_error("step report: the peer sent samples (version 1), not figures and "
                                 "histograms (version 2): run the same cmdbench on both sides");
    if (got != magic) throw std::runtime_error("step report: bad magic or version");
    StepReport r;
    r.conns = c.u64();
    r.threads = static_cast<uint32_t>(c.u64());
    r.real_qps = c.u64() != 0;
    return r;
}

void get_step(Cursor &c, StepStats &st) {
    st.total_us = c.u64();
    st.sum_us = c.u64();
    st.max_us = c.u64();
    st.min_us = c.u64();
    st.samples = c.u64();
}

} // namespace

const char *step_label(int step) {
    return step >= 0 && step < kStepCount ? kLabels[step] : "?";
}

uint64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const uint64_t ns = uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
    return ns ? ns : 1;
}

StepReport compute_report(const StepTimes &times, uint32_t threads, bool real_qps) {
    StepReport r;
    r.conns = times.conn.size();
    r.threads = threads;
    r.real_qps = real_qps;
    for (int s = 0; s < kStepCount; ++s) {
        StepStats &st = r.step[s];
        const Interval &t = times.total[s];
        // Upstream subtracts blindly and can wrap; a half-stamped total is 0.
        if (t.start && t.end && t.end >= t.start) st.total_us = us(t.end) - us(t.start);
        for (const ConnTimes &c : times.conn) {
            const Interval &i = c.step[s];
            if (!i.start || !i.end) continue;
            const uint64_t d = static_cast<uint32_t>(us(i.end) - us(i.start));
            st.sum_us += d;
            st.max_us = std::max(st.max_us, d);
            st.min_us = st.samples ? std::min(st.min_us, d) : d;
            ++st.samples;
            st.sample_ns.push_back(i.end >= i.start ? i.end - i.start : 0);
        }
        // Overlapping per-connection intervals make their sum meaningless.
        if (s == kFullConnect) st.sum_us = 0;
    }
    return r;
}

void merge_report(StepReport &into, const StepReport &from) {
    into.conns += from.conns;
    into.real_qps = into.real_qps || from.real_qps;
    into.threads = std::max(into.threads, from.threads);
    for (int s = 0; s < kStepCount; ++s) {
        StepStats &a = into.step[s];
        const StepStats &b = from.step[s];
        a.total_us = std::max(a.total_us, b.total_us);
        a.sum_us += b.sum_us;
        a.max_us = std::max(a.max_us, b.max_us);
        if (b.samples) a.min_us = a.samples ? std::min(a.min_us, b.min_us) : b.min_us;
        a.samples += b.samples;
        a.sample_ns.insert(a.sample_ns.end(), b.sample_ns.begin(), b.sample_ns.end());
    }
}

std::string format_table(const StepReport &r) {
    std::string out;
    char line[160];
    const unsigned long long n = r.conns;
    std::snprintf(line, sizeof line, "%-15s%10llu\n", r.real_qps ? "qp_conn" : "cm_conn", n);
    out += line;
    std::snprintf(line, sizeof line, "%-15s%10u\n", "threads", r.threads);
    out += line;
    std::snprintf(line, sizeof line, "%-13s  %10s %10s %10s %10s %10s %10s\n", "step", "avg/conn",
                  "total(us)", "us/conn", "sum(us)", "max(us)", "min(us)");
    out += line;
    for (int s = 0; s < kStepCount; ++s) {
        const StepStats &st = r.step[s];
        auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
        std::snprintf(line, sizeof line, "%-13s  %10llu %10llu %10llu %10llu %10llu %10llu\n",
                      kLabels[s], u(n ? st.total_us / n : 0), u(st.total_us),
                      u(n ? st.sum_us / n : 0), u(st.sum_us), u(st.max_us), u(st.min_us));
        out += line;
    }
    return out;
}

std::vector<uint8_t> encode_report(const StepReport &r) {
    std::vector<uint8_t> out;
    put_figures(out, r, kReportMagic);
    for (const StepStats &st : r.step) {
        put_step(out, st);
        put_u64(out, st.sample_ns.size());
        for (uint64_t v : st.sample_ns)
            put_u64(out, v);
    }
    return out;
}

StepReport decode_report(const std::vector<uint8_t> &bytes) {
    Cursor c{bytes};
    StepReport r = get_figures(c, kReportMagic);
    for (StepStats &st : r.step) {
        get_step(c, st);
        const uint64_t n = c.u64();
        if (n > (bytes.size() - c.pos) / 8) throw std::runtime_error("step report: truncated");
        st.sample_ns.resize(n);
        for (uint64_t &v : st.sample_ns)
            v = c.u64();
    }
    if (c.pos != bytes.size()) throw std::runtime_error("step report: trailing bytes");
    return r;
}

std::vector<uint8_t> encode_figures(const StepReport &r) {
    std::vector<uint8_t> out;
    put_figures(out, r, kFiguresMagic);
    for (const StepStats &st : r.step)
        put_step(out, st);
    return out;
}

StepReport decode_figures(const std::vector<uint8_t> &bytes) {
    Cursor c{bytes};
    StepReport r = get_figures(c, kFiguresMagic);
    for (StepStats &st : r.step)
        get_step(c, st);
    if (c.pos != bytes.size()) throw std::runtime_error("step report: trailing bytes");
    return r;
}

} // namespace cmdbench::cmtime
