// RDMA atomics (op = "fetch_add", "cmp_swap"): their key checks, the
// operands of each atomic in a QP's sequence and the check of what it
// returned (a lab check may corrupt the server's target first: faults.hpp).
//
// Each QP's target is the first 8 bytes of the server's send region (what
// RDMA READ reads), 8-byte aligned; the value an atomic returns lands in the
// first 8 bytes of the client's receive region.
#ifndef CMDBENCH_VERBS_ATOMICS_HPP
#define CMDBENCH_VERBS_ATOMICS_HPP

#include "qp/conn.hpp"
#include "verbs_params.hpp"

#include <cmdbench/plugin-support/param_spec.hpp>
#include <cstdint>
#include <infiniband/verbs.h>

namespace cmdbench::verbs {

// What every fetch_add adds (perftest adds 1 too).
constexpr uint64_t kAtomicAdd = 1;

// Cross-key checks for an atomic op: sizes left at the test's default become
// [8], any other size fails; inline_size > 0 and bidirectional fail.
void check_atomic_params(const cmdbench::support::ParamReader &in, Params &p);

inline ibv_wr_opcode atomic_opcode(Op op) {
    return op == Op::CmpSwap ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
}

// One QP's atomics, numbered from 0 over the whole run. The target starts at
// 0; fetch_add k returns k * kAtomicAdd; cmp_swap k compares with value(k),
// what swap k - 1 wrote, and swaps in value(k + 1), so it returns value(k).
class AtomicSeq {
  public:
    explicit AtomicSeq(Op op) : op_(op) {}
    uint64_t number() const { return n_; }
    uint64_t compare_add() const { return op_ == Op::FetchAdd ? kAtomicAdd : value(n_); }
    uint64_t swap() const { return op_ == Op::FetchAdd ? 0 : value(n_ + 1); }
    // What atomic number() must return.
    uint64_t want() const { return op_ == Op::FetchAdd ? n_ * kAtomicAdd : value(n_); }
    void next() { ++n_; }

  private:
    // Distinct, far-apart values (value(0) = 0, the target's first value).
    static uint64_t value(uint64_t k) { return k * 0x9e3779b97f4a7c15ull; }
    Op op_;
    uint64_t n_ = 0;
};

// verify: the value the last atomic returned (in conn's receive region) must
// be seq.want(); else the run fails naming the QP, the atomic, got and want.
void check_atomic_result(const Conn &conn, const AtomicSeq &seq);

} // namespace cmdbench::verbs

#endif
