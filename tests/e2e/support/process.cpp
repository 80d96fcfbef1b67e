#include "process.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

std::string cmdbench_exe() {
    return std::string(CMDBENCH_BINARY_DIR) + "/bin/cmdbench";
}
std::string source_path(const std::string &rel) {
    return std::string(CMDBENCH_SOURCE_DIR) + "/" + rel;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string proc_stat_fields(pid_t pid) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const size_t close = stat.rfind(')');
    return close == std::string::npos || close + 2 >= stat.size() ? "" : stat.substr(close + 2);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

pid_t start_process(const std::vector<std::string> &argv, const std::string &out_file,
                    const std::string &err_file) {
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); // its own group, so a timeout kills its children too
        int out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, 1);
        dup2(err, 2);
        std::vector<char *> args;
        for (const auto &a : argv)
            args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    return pid;
}

int wait_process(pid_t pid, int timeout_s, double *cpu_seconds) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    int status = 0;
    rusage usage{};
    const auto cpu = [&] {
        if (cpu_seconds)
            *cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    };
    while (std::chrono::steady_clock::now() < deadline) {
        if (wait4(pid, &status, WNOHANG, &usage) == pid) {
            cpu();
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(-pid, SIGKILL);
    wait4(pid, &status, 0, &usage);
    cpu();
    return -1;
}

double wall_bound(double seconds) {
    double load = 0;
    std::ifstream("/proc/loadavg") >> load;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const double per_cpu = cpus > 0 ? load / double(cpus) : load;
    return seconds * std::max(1.0, per_cpu);
}

ProcessResult run_process(const std::vector<std::string> &argv, int timeout_s,
                          const std::vector<std::string> &extra_env) {
    std::string dir = temp_dir();
    std::vector<std::string> args = argv;
    if (!extra_env.empty()) {
        args.insert(args.begin(), extra_env.begin(), extra_env.end());
        args.insert(args.begin(), "/usr/bin/env");
    }
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid = start_process(args, dir + "/out", dir + "/err");
    ProcessResult r;
    r.exit_code = wait_process(pid, timeout_s, &r.cpu_seconds);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.out = read_file(dir + "/out");
    r.err = read_file(dir + "/err");
    return r;
}

bool process_running_with(const std::string &fragment) {
    DIR *d = opendir("/proc");
    if (!d) return false;
    bool found = false;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::string cmd = read_file(std::string("/proc/") + e->d_name + "/cmdline");
        for (auto &c : cmd)
            if (c == '\0') c = ' ';
        if (cmd.find(fragment) != std::string::npos) found = true;
    }
    closedir(d);
    return found;
}

std::set<std::string> exported_symbols(const std::string &file) {
    ProcessResult r = run_process({"/usr/bin/nm", "-D", "--defined-only", file}, 60);
    if (r.exit_code != 0) throw std::runtime_error("nm " + file + " failed: " + r.err);
    std::set<std::string> names;
    std::stringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        std::stringstream fields(line);
        std::string address, type, name;
        if (fields >> address >> type >> name) names.insert(name);
    }
    return names;
}
