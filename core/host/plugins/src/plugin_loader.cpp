#include "cmdbench/host/plugins/plugin_loader.hpp"

#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/run_keys.hpp"
#include "dl_checks.hpp"
#include "elf_exports.hpp"
#include "libc_socket_hooks.hpp"
#include "plugin_path.hpp"
#include "shipped_names.hpp"
#include "sock_ops_routing.hpp"

#include <algorithm>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace cmdbench {
namespace {

// Everything the host keeps for one plugin: the library (so its code stays
// mapped) and copies of its structs in this host's layout.
struct Holder {
    boost::dll::shared_library lib;
    cmdbench_plugin desc{};
    std::vector<cmdbench_transport> transports;
    std::vector<cmdbench_test> tests;
    std::vector<std::vector<cmdbench_param>> params; // one vector per test/transport
    std::vector<cmdbench_sock_ops> sock_ops;         // ABI 1.2, normalised copies
    std::vector<std::shared_ptr<void>> routes;       // their routing (sock_ops_routing.hpp)
    std::vector<const cmdbench_transport *> transport_ptrs;
    std::vector<const cmdbench_test *> test_ptrs;
};

// Bytes of each struct that ABI 1.0 requires: every field 1.0 had. Fields
// added in later minors read as zero/NULL when a plugin's struct ends before
// them; each gets its own line here when it is appended.
constexpr uint32_t kRequiredPlugin = sizeof(cmdbench_plugin);
constexpr uint32_t kRequiredTransport = offsetof(cmdbench_transport, local_node); // 1.1
constexpr uint32_t kRequiredTest = sizeof(cmdbench_test);
constexpr uint32_t kRequiredParam = sizeof(cmdbench_param);
constexpr uint32_t kRequiredSockOps = sizeof(cmdbench_sock_ops); // 1.2

[[noreturn]] void refuse(const std::string &file, const std::string &why) {
    throw LoadError(file + ": " + why);
}

// Copies min(struct_size, sizeof(T)) bytes, leaving later fields zero.
template <class T> T normalised(const T *src) {
    T out{};
    std::memcpy(&out, src, std::min<size_t>(src->struct_size, sizeof(T)));
    out.struct_size = sizeof(T);
    return out;
}

void check_size(const std::string &file, const std::string &what, uint32_t have, uint32_t need) {
    if (have < need) {
        std::ostringstream m;
        m << what << " has struct_size " << have << ", smaller than the " << need
          << " bytes that plugin ABI " << CMDBENCH_ABI_MAJOR << "." << CMDBENCH_ABI_MINOR
          << " requires";
        refuse(file, m.str());
    }
}

bool valid_name(const char *name) {
    if (!name || !*name) return false;
    for (const char *p = name; *p; ++p)
        if (!(std::islower((unsigned char)*p) || std::isdigit((unsigned char)*p) || *p == '_' ||
              *p == '-'))
            return false;
    return true;
}

// Arrays of structs are strided by their first element's struct_size, so an
// array built against an older, smaller struct is still walked correctly.
std::vector<cmdbench_param> copy_params(const std::string &file, const std::string &owner,
                                        const cmdbench_param *params, uint32_t count) {
    std::vector<cmdbench_param> out;
    if (count == 0) return out;
    if (!params) refuse(file, owner + " declares " + std::to_string(count) + " params but none");
    uint32_t stride = params->struct_size;
    check_size(file, owner + " param 0", stride, kRequiredParam);
    auto base = reinterpret_cast<const unsigned char *>(params);
    for (uint32_t i = 0; i < count; ++i) {
        auto p = normalised(reinterpret_cast<const cmdbench_param *>(base + size_t(i) * stride));
        std::string what = owner + " param " +
                           (p.name ? "'" + std::string(p.name) + "'" : "#" + std::to_string(i));
        if (!valid_name(p.name)) refuse(file, what + " has no valid name ([a-z0-9_-])");
        if (kReservedRunKeys.count(p.name))
            refuse(file, what + " uses a name reserved for scenario run keys");
        if (p.type < CMDBENCH_PARAM_BOOL || p.type > CMDBENCH_PARAM_INT_LIST)
            refuse(file, what + " has unknown type " + std::to_string(p.type));
        if (p.default_value) {
            auto parsed = parse_text(p, p.default_value);
            if (!parsed)
                refuse(file, what + " default \"" + p.default_value + "\": " + parsed.error());
            if (const Status fits = check_value(p, *parsed); !fits)
                refuse(file, what + " default \"" + p.default_value + "\": " + fits.error());
        }
        for (const auto &q : out)
            if (std::strcmp(q.name, p.name) == 0) refuse(file, what + " is declared twice");
        out.push_back(p);
    }
    return out;
}

// Data-path hooks: all fourteen before ABI 1.2; from 1.2 a NULL one is
// libc's, and sock_ops hooks are routed in (sock_ops_routing.hpp).
void complete_socket_hooks(const std::string &file, const std::string &owner, Holder &h,
                           cmdbench_transport &t) {
    if (h.desc.abi_minor < 2)
        if (const char *hook = first_missing_socket_hook(t))
            refuse(file, owner + " lacks the required hook '" + hook + "' (plugin ABI " +
                             std::to_string(h.desc.abi_major) + "." +
                             std::to_string(h.desc.abi_minor) +
                             " requires every socket hook; from ABI 1.2 a NULL one means libc)");
    fill_libc_socket_hooks(t);
    if (!t.sock_ops) return;
    check_size(file, owner + " sock_ops", t.sock_ops->struct_size, kRequiredSockOps);
    h.sock_ops.push_back(normalised(t.sock_ops));
    t.sock_ops = &h.sock_ops.back();
    Expected<std::shared_ptr<void>> route = route_sock_ops(t, h.sock_ops.back());
    if (!route) refuse(file, owner + ": " + route.error());
    h.routes.push_back(std::move(*route));
}

// The version fields sit right after struct_size in every ABI, so they can
// be read before the size is trusted.
void check_abi_version(const std::string &path, const cmdbench_plugin *raw) {
    if (raw->struct_size < offsetof(cmdbench_plugin, name))
        refuse(path, "descriptor struct_size " + std::to_string(raw->struct_size) +
                         " is too small to hold the ABI version");
    std::string theirs = std::to_string(raw->abi_major) + "." + std::to_string(raw->abi_minor);
    std::string ours =
        std::to_string(CMDBENCH_ABI_MAJOR) + "." + std::to_string(CMDBENCH_ABI_MINOR);
    if (raw->abi_major != CMDBENCH_ABI_MAJOR)
        refuse(path, "built for plugin ABI " + theirs + ", this cmdbench supports ABI " +
                         std::to_string(CMDBENCH_ABI_MAJOR) + ".0 to " + ours +
                         " (a different major version is incompatible; rebuild the plugin)");
    if (raw->abi_minor > CMDBENCH_ABI_MINOR)
        refuse(path, "built for plugin ABI " + theirs + ", newer than this cmdbench's ABI " + ours +
                         " (upgrade cmdbench or rebuild the plugin against ABI " + ours + ")");
    check_size(path, "plugin descriptor", raw->struct_size, kRequiredPlugin);
}

// Opened with every symbol resolved, or refused with the loader's reason.
void open_library(const std::string &path, boost::dll::shared_library &lib) {
    // By type first: dlopen would block on a FIFO until something wrote to it.
    const PluginPath what = inspect_plugin_path(path);
    if (what.kind == PluginPathKind::absent) refuse(path, what.what);
    if (what.kind != PluginPathKind::file)
        refuse(path, what.what + ", where a plugin file (a shared object) is needed");
    // The loader's own reason; Boost.DLL's message ends in a stale errno.
    if (const Status loads = check_dlopen(path); !loads)
        refuse(path, "not a loadable shared object: " + loads.error());
    try {
        // rtld_now: an unresolved symbol is a refusal now, not a crash mid-run.
        lib.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception &e) {
        refuse(path, std::string("not a loadable shared object: ") + e.what());
    }
}

// What the entry point returns, once it is known to be a function.
const cmdbench_plugin *call_entry_point(const std::string &path,
                                        const boost::dll::shared_library &lib) {
    if (!lib.has(CMDBENCH_ENTRY_SYMBOL))
        refuse(path, "no " CMDBENCH_ENTRY_SYMBOL " entry point (not a cmdbench plugin?)");
    if (const Status code = check_entry_symbol(lib.native(), CMDBENCH_ENTRY_SYMBOL); !code)
        refuse(path, CMDBENCH_ENTRY_SYMBOL ": " + code.error());
    auto entry = lib.get<const cmdbench_plugin *()>(CMDBENCH_ENTRY_SYMBOL);
    const cmdbench_plugin *raw = entry();
    if (!raw) refuse(path, CMDBENCH_ENTRY_SYMBOL " returned no descriptor");
    return raw;
}

// The descriptor's own fields, before any of its arrays is walked.
void check_descriptor(const std::string &path, const cmdbench_plugin &d) {
    if (!valid_name(d.name)) refuse(path, "plugin has no valid name ([a-z0-9_-])");
    if (!d.version) refuse(path, "plugin '" + std::string(d.name) + "' has no version");
    if (d.transport_count && !d.transports)
        refuse(path, "transport_count is set but the transports array is missing");
    if (d.test_count && !d.tests) refuse(path, "test_count is set but the tests array is missing");
    if (d.transport_count + d.test_count == 0)
        refuse(path, "plugin registers no transport and no test");
}

void copy_transports(const std::string &path, Holder &h) {
    for (uint32_t i = 0; i < h.desc.transport_count; ++i) {
        const cmdbench_transport *t = h.desc.transports[i];
        if (!t) refuse(path, "transport #" + std::to_string(i) + " is NULL");
        check_size(path, "transport #" + std::to_string(i), t->struct_size, kRequiredTransport);
        cmdbench_transport n = normalised(t);
        if (!valid_name(n.name))
            refuse(path, "transport #" + std::to_string(i) + " has no valid name");
        std::string owner = "transport '" + std::string(n.name) + "'";
        complete_socket_hooks(path, owner, h, n);
        h.params.push_back(copy_params(path, owner, n.params, n.param_count));
        n.params = h.params.back().data();
        h.transports.push_back(n);
        h.transport_ptrs.push_back(&h.transports.back());
    }
}

void copy_tests(const std::string &path, Holder &h) {
    for (uint32_t i = 0; i < h.desc.test_count; ++i) {
        const cmdbench_test *t = h.desc.tests[i];
        if (!t) refuse(path, "test #" + std::to_string(i) + " is NULL");
        check_size(path, "test #" + std::to_string(i), t->struct_size, kRequiredTest);
        cmdbench_test n = normalised(t);
        if (!valid_name(n.name)) refuse(path, "test #" + std::to_string(i) + " has no valid name");
        std::string owner = "test '" + std::string(n.name) + "'";
        if (!n.run) refuse(path, owner + " has no run hook");
        h.params.push_back(copy_params(path, owner, n.params, n.param_count));
        n.params = h.params.back().data();
        h.tests.push_back(n);
        h.test_ptrs.push_back(&h.tests.back());
    }
}

std::string canonical_path(const fs::path &file) {
    std::error_code ec;
    std::string canon = fs::weakly_canonical(file, ec).string();
    return ec ? file.string() : canon;
}

} // namespace

LoadedPlugin load_plugin(const std::string &path) {
    auto holder = std::make_shared<Holder>();
    Holder &h = *holder;
    open_library(path, h.lib);
    const cmdbench_plugin *raw = call_entry_point(path, h.lib);
    check_abi_version(path, raw);
    h.desc = normalised(raw);
    check_descriptor(path, h.desc);

    // Reserve first: the registry keeps pointers into these vectors.
    h.transports.reserve(h.desc.transport_count);
    h.tests.reserve(h.desc.test_count);
    h.params.reserve(h.desc.transport_count + h.desc.test_count);
    h.sock_ops.reserve(h.desc.transport_count);
    copy_transports(path, h);
    copy_tests(path, h);
    h.desc.transports = h.transport_ptrs.data();
    h.desc.tests = h.test_ptrs.data();
    return LoadedPlugin{path, &h.desc, holder};
}

namespace {

// Loads what load_plugins finds, collecting refusals and skipped helpers.
struct PathLoader {
    Registry &registry;
    std::string shipped_dir;
    std::vector<LoadSkip> *skipped;
    std::vector<LoadFailure> failures;

    void one(const std::string &canon) {
        if (registry.has_file(canon)) return;
        try {
            LoadedPlugin p = load_plugin(canon);
            if (const Status own = check_shipped_name(registry, p, shipped_dir); !own)
                throw LoadError(own.error());
            registry.add(std::move(p));
        } catch (const LoadError &e) {
            failures.push_back({canon, e.what()});
        }
    }

    // Helper libraries a plugin links against may sit beside it; they are
    // told apart without dlopen, which would run their constructors and
    // fail alike for a plugin and a helper whose dependency is missing.
    void in_directory(const fs::path &file) {
        const std::string canon = canonical_path(file);
        if (exports_symbol(canon, CMDBENCH_ENTRY_SYMBOL) != Export::no) return one(canon);
        if (!skipped) return;
        for (const LoadSkip &s : *skipped)
            if (s.file == canon) return;
        skipped->push_back(
            {canon, "it does not export " CMDBENCH_ENTRY_SYMBOL ", so it is not a cmdbench plugin "
                    "(helper libraries belong in a subdirectory, which is not searched, found "
                    "through the plugin's RUNPATH, e.g. $ORIGIN/lib; a plugin must export the "
                    "entry point)"});
    }

    // Its *.so regular files (through symlinks) in name order; a FIFO or a
    // device there is not a plugin and is left alone.
    void directory(const std::string &dir) {
        std::error_code ec;
        std::vector<fs::path> files;
        for (const auto &entry : fs::directory_iterator(dir, ec))
            if (entry.path().extension() == ".so" && entry.is_regular_file())
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto &f : files)
            in_directory(f);
    }
};

} // namespace

std::string shipped_plugin_dir() {
    boost::dll::fs::error_code ec;
    auto exe = boost::dll::program_location(ec);
    if (ec) return {};
    return (fs::path(exe.parent_path().string()) / CMDBENCH_PLUGIN_RELDIR)
        .lexically_normal()
        .string();
}

std::vector<std::string> frontend_plugin_dirs(const std::string &reldir) {
    std::vector<std::string> dirs;
    boost::dll::fs::error_code ec;
    auto exe = boost::dll::program_location(ec);
    if (!ec)
        dirs.push_back((fs::path(exe.parent_path().string()) / reldir).lexically_normal().string());
    for (const auto &d : default_plugin_dirs())
        dirs.push_back(d);
    return dirs;
}

std::vector<std::string> default_plugin_dirs() {
    std::vector<std::string> dirs;
    std::string shipped = shipped_plugin_dir();
    if (!shipped.empty()) dirs.push_back(shipped);
    if (const char *env = std::getenv("CMDBENCH_PLUGIN_PATH")) {
        std::stringstream ss(env);
        std::string item;
        while (std::getline(ss, item, ':'))
            if (!item.empty()) dirs.push_back(item);
    }
    return dirs;
}

std::vector<LoadFailure> load_plugins(Registry &registry, const std::vector<std::string> &paths,
                                      bool paths_must_exist, std::vector<LoadSkip> *skipped) {
    PathLoader loader{registry, shipped_plugin_dir(), skipped, {}};
    for (const auto &p : paths) {
        const PluginPath path = inspect_plugin_path(p);
        switch (path.kind) {
        case PluginPathKind::absent:
            if (paths_must_exist) loader.failures.push_back({p, p + ": " + path.what});
            break;
        case PluginPathKind::other:
            loader.failures.push_back(
                {p, p + ": " + path.what + ", not a plugin file or a directory of plugins"});
            break;
        case PluginPathKind::directory:
            loader.directory(p);
            break;
        case PluginPathKind::file:
            // Named directly: meant as a plugin, so anything amiss is refused.
            loader.one(canonical_path(p));
            break;
        }
    }
    return loader.failures;
}

std::string skip_warning(const LoadSkip &skip) {
    return "warning: skipping " + skip.file + ": " + skip.reason;
}

} // namespace cmdbench
