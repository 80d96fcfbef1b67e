// Job through the launcher's PMIx server (mpirun, srun --mpi=pmix): the
// PMIx client calls only, no MPI. Every failing call becomes a JobError that
// names the step and PMIx's own name for the status.
#include "cmdbench/host/matrix/job.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <pmix.h>
#include <unistd.h>
#include <vector>

namespace cmdbench {
namespace {

std::string status_text(pmix_status_t rc) {
    return std::string(PMIx_Error_string(rc)) + " (" + std::to_string(rc) + ")";
}

[[noreturn]] void fail(const std::string &step, pmix_status_t rc) {
    throw JobError(step + " failed: " + status_text(rc));
}

// PMIX_TIMEOUT is whole seconds and 0 means "forever": round up, never 0.
int timeout_seconds(double timeout_s) {
    if (!(timeout_s > 0)) return 1;
    if (timeout_s > 86400) return 86400;
    return std::max(1, static_cast<int>(std::ceil(timeout_s)));
}

// The directives of one call; PMIx copies what it keeps, so they live on the
// stack of the call.
class Directives {
  public:
    Directives() = default;
    Directives(const Directives &) = delete;
    Directives &operator=(const Directives &) = delete;
    ~Directives() {
        for (auto &i : infos_)
            PMIX_INFO_DESTRUCT(&i);
    }
    void timeout(double timeout_s) {
        int seconds = timeout_seconds(timeout_s);
        add(PMIX_TIMEOUT, &seconds, PMIX_INT);
    }
    void collect_data() {
        bool yes = true;
        add(PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    }
    pmix_info_t *data() { return infos_.empty() ? nullptr : infos_.data(); }
    size_t size() const { return infos_.size(); }

  private:
    void add(const char *key, const void *value, pmix_data_type_t type) {
        infos_.emplace_back();
        PMIX_INFO_CONSTRUCT(&infos_.back());
        PMIX_INFO_LOAD(&infos_.back(), key, value, type);
    }
    std::vector<pmix_info_t> infos_;
};

// A value PMIx_Get handed us, freed however the caller leaves.
struct GotValue {
    pmix_value_t *value = nullptr;
    ~GotValue() {
        if (value) PMIX_VALUE_RELEASE(value);
    }
};

class PmixJob : public Job {
  public:
    PmixJob() {
        pmix_status_t rc = PMIx_Init(&me_, nullptr, 0);
        if (rc != PMIX_SUCCESS)
            throw JobError(
                "PMIx_Init failed: " + status_text(rc) +
                ": PMIX_* variables say a launcher started this process, but its PMIx server "
                "cannot be reached; under Slurm run srun --mpi=pmix (or set MpiDefault=pmix), "
                "under Open MPI start it with mpirun");
        initialized_ = true;
        try {
            read_job_info();
        } catch (...) {
            PMIx_Finalize(nullptr, 0);
            throw;
        }
    }
    ~PmixJob() override {
        if (initialized_) PMIx_Finalize(nullptr, 0);
    }
    PmixJob(const PmixJob &) = delete;
    PmixJob &operator=(const PmixJob &) = delete;

    int rank() const override { return static_cast<int>(me_.rank); }
    int size() const override { return size_; }
    std::string node() const override { return node_; }
    std::string describe() const override {
        // "OpenPMIx 4.2.2rc2 (PMIx Standard: 4.2, ...)": the name and version.
        std::string version = PMIx_Get_version();
        version = version.substr(0, version.find(" ("));
        return version + ", namespace " + me_.nspace;
    }

    std::vector<std::string> allgather(const std::string &key, const std::string &value,
                                       double timeout_s) override {
        put(key, value);
        const std::string full_key = pmix_key(key);
        fence("allgather of '" + full_key + "'", timeout_s, true);

        std::vector<std::string> values;
        values.reserve(static_cast<size_t>(size_));
        for (int r = 0; r < size_; ++r)
            values.push_back(get_bytes(r, full_key, timeout_s));
        return values;
    }

    void put(const std::string &key, const std::string &value) override {
        const std::string full_key = pmix_key(key);
        pmix_value_t mine;
        PMIX_VALUE_CONSTRUCT(&mine);
        // A byte object, not a string: values may hold any byte, NUL too.
        mine.type = PMIX_BYTE_OBJECT;
        mine.data.bo.bytes = const_cast<char *>(value.data());
        mine.data.bo.size = value.size();
        pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, full_key.c_str(), &mine);
        if (rc != PMIX_SUCCESS) fail("PMIx_Put of '" + full_key + "'", rc);
        rc = PMIx_Commit();
        if (rc != PMIX_SUCCESS) fail("PMIx_Commit of '" + full_key + "'", rc);
    }

    std::string get(int rank, const std::string &key, double timeout_s) override {
        return get_bytes(rank, pmix_key(key), timeout_s);
    }

    void barrier(double timeout_s) override { fence("barrier", timeout_s, false); }

    bool kill_rank(int rank) override {
        pmix_proc_t target;
        PMIX_PROC_LOAD(&target, me_.nspace, pmix_rank_t(rank));
        pmix_info_t kill;
        bool yes = true;
        PMIX_INFO_LOAD(&kill, PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
        pmix_info_t *results = nullptr;
        size_t nresults = 0;
        const pmix_status_t rc = PMIx_Job_control(&target, 1, &kill, 1, &results, &nresults);
        PMIX_INFO_DESTRUCT(&kill);
        if (results) PMIX_INFO_FREE(results, nresults);
        return rc == PMIX_SUCCESS;
    }

    void abort(int status, const std::string &why) override {
        // Returns only when the launcher cannot do it.
        pmix_status_t rc = PMIx_Abort(status, why.c_str(), nullptr, 0);
        if (rc != PMIX_SUCCESS) fail("PMIx_Abort", rc);
    }

  private:
    static std::string pmix_key(const std::string &key) {
        std::string full = "cmdbench." + key;
        if (key.empty() || full.size() > PMIX_MAX_KEYLEN)
            throw JobError("allgather key '" + key + "' must be 1-" +
                           std::to_string(PMIX_MAX_KEYLEN - 9) + " characters");
        return full;
    }

    void read_job_info() {
        pmix_proc_t job;
        PMIX_PROC_LOAD(&job, me_.nspace, PMIX_RANK_WILDCARD);
        GotValue got;
        pmix_status_t rc = PMIx_Get(&job, PMIX_JOB_SIZE, nullptr, 0, &got.value);
        if (rc != PMIX_SUCCESS) fail("PMIx_Get(PMIX_JOB_SIZE)", rc);
        if (got.value->type != PMIX_UINT32 || got.value->data.uint32 == 0 ||
            got.value->data.uint32 > 1u << 24)
            throw JobError("PMIx_Get(PMIX_JOB_SIZE) returned no usable job size");
        size_ = static_cast<int>(got.value->data.uint32);
        node_ = my_hostname();
    }

    std::string my_hostname() {
        GotValue got;
        pmix_status_t rc = PMIx_Get(&me_, PMIX_HOSTNAME, nullptr, 0, &got.value);
        if (rc == PMIX_SUCCESS && got.value->type == PMIX_STRING && got.value->data.string)
            return got.value->data.string;
        if (rc != PMIX_SUCCESS && rc != PMIX_ERR_NOT_FOUND) fail("PMIx_Get(PMIX_HOSTNAME)", rc);
        // A launcher that does not name nodes: this machine's name is what
        // it would have said.
        char name[256] = {};
        gethostname(name, sizeof name - 1);
        return name;
    }

    void fence(const std::string &what, double timeout_s, bool collect) {
        pmix_proc_t all;
        PMIX_PROC_LOAD(&all, me_.nspace, PMIX_RANK_WILDCARD);
        Directives directives;
        if (collect) directives.collect_data();
        directives.timeout(timeout_s);
        pmix_status_t rc = PMIx_Fence(&all, 1, directives.data(), directives.size());
        if (rc != PMIX_SUCCESS)
            fail("PMIx_Fence (" + what + ", timeout " + std::to_string(timeout_seconds(timeout_s)) +
                     " s)",
                 rc);
    }

    std::string get_bytes(int rank, const std::string &key, double timeout_s) {
        pmix_proc_t peer;
        PMIX_PROC_LOAD(&peer, me_.nspace, static_cast<pmix_rank_t>(rank));
        Directives directives;
        directives.timeout(timeout_s);
        GotValue got;
        pmix_status_t rc =
            PMIx_Get(&peer, key.c_str(), directives.data(), directives.size(), &got.value);
        std::string step = "PMIx_Get of '" + key + "' from rank " + std::to_string(rank);
        if (rc != PMIX_SUCCESS) fail(step, rc);
        if (got.value->type == PMIX_BYTE_OBJECT)
            return std::string(got.value->data.bo.bytes, got.value->data.bo.size);
        if (got.value->type == PMIX_STRING && got.value->data.string) return got.value->data.string;
        throw JobError(step + " returned a value of PMIx type " + std::to_string(got.value->type) +
                       ", not bytes");
    }

    pmix_proc_t me_{};
    bool initialized_ = false;
    int size_ = 0;
    std::string node_;
};

} // namespace

std::unique_ptr<Job> join_job() {
    if (!launched_by_pmix()) return nullptr;
    return std::make_unique<PmixJob>();
}

} // namespace cmdbench

// libpmix 4.2.2 keeps two strings from PMIx_Init that PMIx_Finalize never
// frees: LeakSanitizer builds would fail every launcher run on them. Read by
// the sanitizer runtime only; an unused function otherwise.
extern "C" const char *__lsan_default_suppressions() {
    return "leak:libpmix.so\n";
}

// Nor print a "Suppressions used" table for them at every exit.
extern "C" const char *__lsan_default_options() {
    return "print_suppressions=0";
}
