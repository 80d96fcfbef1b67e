// Meeting of the two sides over TCP (see perftest_link.hpp).
#include "perftest_link.hpp"

#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "perftest_params.hpp"

#include <chrono>

namespace cmdbench::perftest_frontend {
namespace {

using control::ControlError;
using control::Message;
using control::MsgType;

constexpr int kSliceMs = 200;

std::string software() {
    return std::string("cmdbench ") + CMDBENCH_VERSION + " +perftest";
}

// The server's verdict on the client's settings: the run request answered
// with RunAccept, or a RunEnd that says what differs.
void judge(const Options &o, const WireParams &ours, control::Channel &ch) {
    const Message m = ch.recv(control::kHandshakeTimeoutMs);
    if (m.type != MsgType::RunRequest)
        throw ControlError("the client sent message type " + std::to_string(unsigned(m.type)) +
                           " instead of its settings");
    const control::RunRequest req = control::parse_run_request(m);
    std::string why;
    if (req.run_name != o.tool->name)
        why = "the client runs " + printable_excerpt(req.run_name) + ", this server " +
              o.tool->name + ": start both sides with the same tool";
    else
        why = disagreement(ours, req.params);
    if (!why.empty()) {
        ch.send(control::make_run_end({CMDBENCH_ERR, why}), control::kHandshakeTimeoutMs);
        throw Mismatch(why);
    }
    ch.send(Message{MsgType::RunAccept, {}}, control::kHandshakeTimeoutMs);
}

std::string host_of(const std::string &peer_name) {
    return peer_name.substr(0, peer_name.rfind(':'));
}

// The client's heartbeat connection, which it opens right after RunAccept;
// only from the client's own address.
std::unique_ptr<control::Channel> accept_beat(control::Listener &listener,
                                              const control::Channel &control) {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(control::kHandshakeTimeoutMs);
    while (std::chrono::steady_clock::now() < until) {
        auto ch = listener.accept_within(kSliceMs);
        if (ch && host_of(ch->peer_name()) == host_of(control.peer_name()))
            return std::make_unique<control::Channel>(std::move(*ch));
    }
    throw ControlError("the client opened no heartbeat connection within " +
                       std::to_string(control::kHandshakeTimeoutMs / 1000) + " s");
}

} // namespace

std::optional<Link> accept_client(const Options &o, const WireParams &ours,
                                  const std::atomic<bool> &interrupted) {
    control::Listener listener("", uint16_t(o.port));
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<control::Channel> ch;
    while (!ch) {
        if (interrupted) return std::nullopt;
        if (o.timeout_s > 0 &&
            std::chrono::steady_clock::now() - start > std::chrono::duration<double>(o.timeout_s))
            throw ControlError("no client connected to port " + std::to_string(o.port) +
                               " within --timeout " + std::to_string(int64_t(o.timeout_s)) + " s");
        if (auto got = listener.accept_within(kSliceMs))
            ch = std::make_unique<control::Channel>(std::move(*got));
    }
    Link link;
    link.label = "the client (" + ch->peer_name() + ")";
    control::accept_handshake(*ch, "", software());
    link.data_host = ch->local_host();
    link.channel = std::move(ch);
    judge(o, ours, *link.channel);
    link.beat = accept_beat(listener, *link.channel);
    listener.close();
    return link;
}

Link connect_server(const Options &o, const WireParams &ours) {
    Link link;
    link.label = "the server (" + o.server + ":" + std::to_string(o.port) + ")";
    link.channel = std::make_unique<control::Channel>(
        control::Channel::connect(o.server, uint16_t(o.port), control::kHandshakeTimeoutMs));
    control::open_handshake(*link.channel, "", software(), link.label);
    link.data_host = o.server;
    control::RunRequest req;
    req.run_name = o.tool->name;
    req.test = o.tool->bandwidth ? "verbs-bw" : "verbs-lat";
    req.timeout_s = run_timeout(o);
    req.params = ours;
    link.channel->send(control::make_run_request(req), control::kHandshakeTimeoutMs);
    const Message m = link.channel->recv(control::kHandshakeTimeoutMs);
    if (m.type == MsgType::RunEnd)
        throw Mismatch("the server refused: " + printable_text(control::parse_run_end(m).error));
    if (m.type != MsgType::RunAccept)
        throw ControlError(link.label + " answered with message type " +
                           std::to_string(unsigned(m.type)));
    link.beat = std::make_unique<control::Channel>(
        control::Channel::connect(o.server, uint16_t(o.port), control::kHandshakeTimeoutMs));
    return link;
}

} // namespace cmdbench::perftest_frontend
