// Beginning a result row (see result_rows.hpp).
#include "cmdbench/plugin-support/result_rows.hpp"

#include "cmdbench/plugin-support/run_error.hpp"

namespace cmdbench::support {

cmdbench_row *begin_row(const cmdbench_host &host, cmdbench_ctx *ctx, const std::string &name) {
    cmdbench_row *row = host.row_begin(ctx, name.c_str());
    if (!row) fail("row_begin failed");
    return row;
}

} // namespace cmdbench::support
