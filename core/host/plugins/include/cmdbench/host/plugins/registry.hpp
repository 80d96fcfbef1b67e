// Every loaded plugin and the tests and transports it registered, by name.
#pragma once
#include <cmdbench/plugin.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cmdbench {

struct LoadError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct LoadedPlugin {
    std::string file; // path it was loaded from
    const cmdbench_plugin *desc = nullptr;
    std::shared_ptr<void> library; // keeps the .so loaded while referenced
};

class Registry {
  public:
    // Adds a validated descriptor (see plugin_loader). Throws LoadError when
    // its plugin name, or a test or transport name, is already registered,
    // naming both files.
    void add(LoadedPlugin plugin);

    const cmdbench_test *find_test(std::string_view name) const;
    const cmdbench_transport *find_transport(std::string_view name) const;
    // Every registered test's (transport's) name, in registration order.
    std::vector<std::string> test_names() const;
    std::vector<std::string> transport_names() const;
    // The file that registered a test or transport (for messages).
    std::string file_of(const void *test_or_transport) const;
    // The name of the plugin that registered it (empty when none did).
    std::string plugin_name_of(const void *test_or_transport) const;
    const std::vector<LoadedPlugin> &plugins() const { return plugins_; }
    bool has_file(const std::string &canonical_path) const;

  private:
    std::vector<LoadedPlugin> plugins_;
};

} // namespace cmdbench
