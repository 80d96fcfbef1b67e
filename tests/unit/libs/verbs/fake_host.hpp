// A fake host for plugin verbs' pure parts: the host services a verbs test
// calls outside the QPs (parameters, clock, log, histograms, rows, the
// cancel), backed by
// maps and vectors a test reads back. Parameters start at the test's table
// defaults and take scenario syntax ("[64, 4096]", "true"; strings bare:
// "write").
#ifndef CMDBENCH_TESTS_VERBS_FAKE_HOST_HPP
#define CMDBENCH_TESTS_VERBS_FAKE_HOST_HPP

#include <cmdbench/plugin.h>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace verbs_test {

struct FakeHist {
    std::vector<uint64_t> values;
};

struct FakeRow {
    std::string name;
    std::map<std::string, double> metrics;
    std::map<std::string, uint32_t> units;
    std::map<std::string, size_t> hist_counts; // a histogram's samples, by key
    bool ended = false;
};

class FakeHost {
  public:
    // The parameters of `test` (its table's defaults) for role `role`.
    FakeHost(const cmdbench_test &test, uint32_t role = CMDBENCH_ROLE_CLIENT) {
        for (uint32_t i = 0; i < test.param_count; ++i) {
            const cmdbench_param &p = test.params[i];
            if (p.default_value) params_[p.name] = p.default_value;
        }
        host_.struct_size = sizeof host_;
        host_.now_ns = [] { return now_; };
        host_.log = [](cmdbench_ctx *ctx, int, const char *msg) { self(ctx).logs.push_back(msg); };
        host_.param_bool = [](cmdbench_ctx *ctx, const char *name, int *out) {
            const std::string *v = self(ctx).find(name);
            if (!v) return int(CMDBENCH_ERR);
            *out = *v == "true";
            return int(CMDBENCH_OK);
        };
        host_.param_int = [](cmdbench_ctx *ctx, const char *name, int64_t *out) {
            const std::string *v = self(ctx).find(name);
            if (!v) return int(CMDBENCH_ERR);
            *out = std::strtoll(v->c_str(), nullptr, 10);
            return int(CMDBENCH_OK);
        };
        host_.param_double = [](cmdbench_ctx *ctx, const char *name, double *out) {
            const std::string *v = self(ctx).find(name);
            if (!v) return int(CMDBENCH_ERR);
            *out = std::strtod(v->c_str(), nullptr);
            return int(CMDBENCH_OK);
        };
        host_.param_string = [](cmdbench_ctx *ctx, const char *name, const char **out) {
            FakeHost &h = self(ctx);
            const std::string *v = h.find(name);
            if (!v) return int(CMDBENCH_ERR);
            // Defaults come quoted ("send"), values set by a test bare.
            std::string &text = h.strings_[name];
            text = v->size() >= 2 && v->front() == '"' && v->back() == '"'
                       ? v->substr(1, v->size() - 2)
                       : *v;
            *out = text.c_str();
            return int(CMDBENCH_OK);
        };
        host_.param_int_list = [](cmdbench_ctx *ctx, const char *name, const int64_t **values,
                                  size_t *count) {
            FakeHost &h = self(ctx);
            const std::string *v = h.find(name);
            if (!v) return int(CMDBENCH_ERR);
            std::vector<int64_t> &list = h.lists_[name];
            list.clear();
            for (const char *c = v->c_str(); *c;) {
                char *end = nullptr;
                const long long n = std::strtoll(c, &end, 10);
                if (end != c) {
                    list.push_back(n);
                    c = end;
                } else {
                    ++c;
                }
            }
            *values = list.data();
            *count = list.size();
            return int(CMDBENCH_OK);
        };
        host_.hist_create = [](cmdbench_ctx *ctx) {
            FakeHost &h = self(ctx);
            h.hists_.emplace_back();
            return reinterpret_cast<cmdbench_hist *>(&h.hists_.back());
        };
        host_.hist_record = [](cmdbench_hist *hist, uint64_t v) { fake(hist).values.push_back(v); };
        host_.hist_merge = [](cmdbench_hist *into, const cmdbench_hist *from) {
            const FakeHist &f = *reinterpret_cast<const FakeHist *>(from);
            fake(into).values.insert(fake(into).values.end(), f.values.begin(), f.values.end());
        };
        host_.row_begin = [](cmdbench_ctx *ctx, const char *name) {
            FakeHost &h = self(ctx);
            h.rows.push_back({name, {}, {}, {}, false});
            return reinterpret_cast<cmdbench_row *>(&h.rows.back());
        };
        host_.row_metric_ex = [](cmdbench_row *row, const char *key, double value, uint32_t unit,
                                 const cmdbench_metric_meaning *) {
            reinterpret_cast<FakeRow *>(row)->metrics[key] = value;
            reinterpret_cast<FakeRow *>(row)->units[key] = unit;
        };
        host_.row_hist_ex = [](cmdbench_row *row, const char *key, const cmdbench_hist *hist,
                               const cmdbench_metric_meaning *) {
            reinterpret_cast<FakeRow *>(row)->hist_counts[key] =
                reinterpret_cast<const FakeHist *>(hist)->values.size();
        };
        host_.row_end = [](cmdbench_row *row) { reinterpret_cast<FakeRow *>(row)->ended = true; };
        host_.cancelled = [](cmdbench_ctx *ctx) { return int(self(ctx).cancel); };
        host_.remaining_ms = [](cmdbench_ctx *) { return int64_t(60000); };
        env_.struct_size = sizeof env_;
        env_.host = &host_;
        env_.ctx = reinterpret_cast<cmdbench_ctx *>(this);
        env_.role = role;
    }
    FakeHost(const FakeHost &) = delete;
    FakeHost &operator=(const FakeHost &) = delete;

    // A parameter as a scenario would set it.
    FakeHost &set(const std::string &key, const std::string &value) {
        params_[key] = value;
        return *this;
    }
    const cmdbench_run_env &env() const { return env_; }

    std::deque<FakeRow> rows;
    std::vector<std::string> logs;
    bool cancel = false; // what cancelled() answers
    static inline uint64_t now_ = 1'000'000'000;

  private:
    static FakeHost &self(cmdbench_ctx *ctx) { return *reinterpret_cast<FakeHost *>(ctx); }
    static FakeHist &fake(cmdbench_hist *hist) { return *reinterpret_cast<FakeHist *>(hist); }
    const std::string *find(const std::string &name) const {
        const auto it = params_.find(name);
        return it == params_.end() ? nullptr : &it->second;
    }

    cmdbench_host host_{};
    cmdbench_run_env env_{};
    std::map<std::string, std::string> params_;
    std::map<std::string, std::string> strings_;
    std::map<std::string, std::vector<int64_t>> lists_;
    std::deque<FakeHist> hists_;
};

} // namespace verbs_test

#endif
