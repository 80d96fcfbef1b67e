// The settings a verbs run records for its header and results (Run::setting):
// what the QPs got and what the windows used, beyond the parameters.
#ifndef CMDBENCH_VERBS_RUN_SETTINGS_HPP
#define CMDBENCH_VERBS_RUN_SETTINGS_HPP

#include "run/verbs_run.hpp"

#include <cstdint>
#include <string>

namespace cmdbench::verbs {

// The inline size the QPs took (the device may cap what was asked) and the
// depths they were made with. rx_depth < 0: no receives (not recorded).
template <class Conns>
void record_qp_settings(const Run &run, const Conns &conns, int64_t tx_depth, int64_t rx_depth) {
    if (!conns.empty()) run.setting("inline_size", int64_t(conns.front()->inline_max()));
    run.setting("tx_depth", tx_depth);
    if (rx_depth >= 0) run.setting("rx_depth", rx_depth);
}

// A setting that may change with the message size, said once as "100", or
// as "100, 1 from 64k" when a later size changes it.
class SizedSetting {
  public:
    explicit SizedSetting(std::string key) : key_(std::move(key)) {}
    void record(const Run &run, const std::string &size_label, int64_t value);

  private:
    std::string key_;
    std::string text_;
    int64_t last_ = -1;
};

} // namespace cmdbench::verbs

#endif
