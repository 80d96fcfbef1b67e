// Writes the control fuzzer's seeds: real frames from the codec, one per
// message kind, into the directory given (tests/fuzz/corpus/control).
// Build with `cmake --build build --target fuzz_control_seeds`.
#include "cmdbench/control/control.hpp"

#include <cstdio>
#include <fstream>
#include <string>

using namespace cmdbench::control;

namespace {

void write(const std::string &dir, const std::string &name, const Message &m) {
    const std::vector<uint8_t> frame = encode(m);
    std::ofstream(dir + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char *>(frame.data()), std::streamsize(frame.size()));
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    write(dir, "seed-hello", make_hello(MsgType::Hello, {kProtocolVersion, "cmdbench 0.1.0"}));
    write(dir, "seed-hello-ack", make_hello(MsgType::HelloAck, {kProtocolVersion, "cmdbench"}));
    RunRequest q;
    q.run_name = "latency";
    q.test = "pingpong";
    q.transport = "tcp";
    q.timeout_s = 120;
    q.params = {{"sizes", "[64, 4096]"}, {"iterations", "0"}, {"nodelay", "true"}};
    write(dir, "seed-run-request", make_run_request(q));
    write(dir, "seed-run-request-empty", make_run_request(RunRequest{}));
    // A client's request that places the server side (kFeatureAffinity).
    q.placement = "cpus=0-1,3;numa=device";
    write(dir, "seed-run-request-placement", make_run_request(q));
    write(dir, "seed-run-accept", Message{MsgType::RunAccept, {}});
    write(dir, "seed-barrier", make_string(MsgType::Barrier, "ready"));
    write(dir, "seed-exchange", Message{MsgType::Exchange, Writer().u32(1).u32(2).take()});
    write(dir, "seed-run-end", make_run_end({0, "", 1234, 567}));
    write(dir, "seed-run-end-error", make_run_end({2, "connection refused", -1, -1}));
    // A server's RunEnd to a client that reads its data path (kFeaturePath).
    write(dir, "seed-run-end-path",
          make_run_end({0, "", 1234, 567,
                        R"({"address":"127.0.0.1","interface":{"name":"lo","mtu":"65536"},)"
                        R"("rdma":null,"software_rdma":false,"devices":[]})"}));
    write(dir, "seed-error", make_string(MsgType::Error, "unknown test 'x'"));
    write(dir, "seed-bye", Message{MsgType::Bye, {}});
    return 0;
}
