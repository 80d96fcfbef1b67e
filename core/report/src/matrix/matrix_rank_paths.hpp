// The "data path per rank" sections of the matrix table and page
// (report_matrix_ranks.cpp): device, link rate, MTU, CPUs and the
// software-RDMA mark of each rank, ranks alike on one line.
#pragma once
#include "cmdbench/report/result.hpp"

#include <ostream>

namespace cmdbench {

void write_rank_paths_text(std::ostream &out, const Report &report);
void write_rank_paths_html(std::ostream &out, const Report &report);

} // namespace cmdbench
