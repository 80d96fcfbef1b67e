// A send is an exchange whose answer must be empty, a receive an exchange
// that sends nothing: both peers take part in one exchange, so the calls
// pair up like the peers' barriers, and each is bounded by the run's timeout
// as exchange is.
#include "host_hist_exchange.hpp"

#include "cmdbench/report/histogram_wire.hpp"

#include <string>
#include <vector>

namespace cmdbench {
namespace {

// Puts `service: ` before the reason the failed exchange left.
int failed(cmdbench_ctx *ctx, const char *service, int status) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->error = std::string(service) + ": " + ctx->error;
    return status;
}

int refuse(cmdbench_ctx *ctx, const std::string &why) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->error = why;
    return CMDBENCH_ERR;
}

} // namespace

int hist_send(cmdbench_ctx *ctx, const cmdbench_hist *hist) {
    if (!hist) return refuse(ctx, "hist_send: no histogram (NULL)");
    const std::vector<uint8_t> wire = encode_hist_wire(*reinterpret_cast<const Histogram *>(hist));
    // Room for a histogram, so a peer that sent one too is named as such.
    std::vector<uint8_t> answer(kHistWireMaxBytes);
    uint32_t got = 0;
    const int status = host_services()->exchange(ctx, wire.data(), uint32_t(wire.size()),
                                                 answer.data(), uint32_t(answer.size()), &got);
    if (status != CMDBENCH_OK) return failed(ctx, "hist_send", status);
    if (got != 0)
        return refuse(ctx, "hist_send: the peer sent " + std::to_string(got) +
                               " bytes instead of receiving (each hist_send must meet the "
                               "peer's hist_recv)");
    return CMDBENCH_OK;
}

int hist_recv(cmdbench_ctx *ctx, cmdbench_hist **out) {
    if (!out) return refuse(ctx, "hist_recv: nowhere to put the histogram (out is NULL)");
    *out = nullptr;
    std::vector<uint8_t> wire(kHistWireMaxBytes);
    uint32_t got = 0;
    const int status =
        host_services()->exchange(ctx, nullptr, 0, wire.data(), uint32_t(wire.size()), &got);
    if (status != CMDBENCH_OK) return failed(ctx, "hist_recv", status);
    if (got == 0)
        return refuse(ctx, "hist_recv: the peer sent no histogram (each hist_recv must meet the "
                           "peer's hist_send)");
    Histogram decoded;
    try {
        decoded = decode_hist_wire(wire.data(), got);
    } catch (const std::invalid_argument &e) {
        return refuse(ctx, std::string("hist_recv: from the peer: ") + e.what());
    }
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->hists.push_back(std::move(decoded)); // deque: addresses stay valid
    *out = reinterpret_cast<cmdbench_hist *>(&ctx->hists.back());
    return CMDBENCH_OK;
}

} // namespace cmdbench
