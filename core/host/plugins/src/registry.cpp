// Name registry of tests and transports (see registry.hpp). Descriptors were
// validated by the loader, so every name here is readable and non-null.
#include "cmdbench/host/plugins/registry.hpp"

#include <filesystem>
#include <system_error>
#include <type_traits>

namespace cmdbench {
namespace {

// The tests or the transports of one plugin.
template <typename Item> std::vector<const Item *> items_of(const cmdbench_plugin &desc) {
    std::vector<const Item *> out;
    if constexpr (std::is_same_v<Item, cmdbench_test>) {
        for (uint32_t i = 0; i < desc.test_count; ++i)
            if (desc.tests[i]) out.push_back(desc.tests[i]);
    } else {
        for (uint32_t i = 0; i < desc.transport_count; ++i)
            if (desc.transports[i]) out.push_back(desc.transports[i]);
    }
    return out;
}

// The plugin that registered `name`, or null.
template <typename Item>
const LoadedPlugin *owner_of(const std::vector<LoadedPlugin> &plugins, std::string_view name,
                             const Item **found = nullptr) {
    for (const LoadedPlugin &p : plugins)
        for (const Item *item : items_of<Item>(*p.desc))
            if (name == item->name) {
                if (found) *found = item;
                return &p;
            }
    return nullptr;
}

// Throws when a name of `incoming` is taken already, or twice in `incoming`.
template <typename Item>
void reject_duplicates(const std::vector<LoadedPlugin> &present, const LoadedPlugin &incoming,
                       const char *kind) {
    std::vector<const Item *> items = items_of<Item>(*incoming.desc);
    for (size_t i = 0; i < items.size(); ++i) {
        std::string_view name = items[i]->name;
        const LoadedPlugin *owner = owner_of<Item>(present, name);
        for (size_t j = 0; !owner && j < i; ++j)
            if (name == items[j]->name) owner = &incoming;
        if (owner)
            throw LoadError(std::string(kind) + " '" + std::string(name) +
                            "' is registered by both " + owner->file + " and " + incoming.file);
    }
}

// Throws when another plugin has the name of `incoming`: crash reports and
// refusals name plugins, and two of one name (two versions of one plugin)
// would leave them saying which file meant nothing.
void reject_duplicate_name(const std::vector<LoadedPlugin> &present, const LoadedPlugin &incoming) {
    const std::string_view name = incoming.desc->name;
    for (const LoadedPlugin &p : present)
        if (name == p.desc->name)
            throw LoadError("plugin '" + std::string(name) + "' is registered by both " + p.file +
                            " (version " + p.desc->version + ") and " + incoming.file +
                            " (version " + incoming.desc->version + ")");
}

} // namespace

void Registry::add(LoadedPlugin plugin) {
    // The plugin first: two versions of one plugin clash on their tests too,
    // and the plugin is what the user has to pick between.
    reject_duplicate_name(plugins_, plugin);
    reject_duplicates<cmdbench_test>(plugins_, plugin, "test");
    reject_duplicates<cmdbench_transport>(plugins_, plugin, "transport");
    plugins_.push_back(std::move(plugin));
}

namespace {

template <typename Item>
std::vector<std::string> names_of(const std::vector<LoadedPlugin> &plugins) {
    std::vector<std::string> out;
    for (const LoadedPlugin &p : plugins)
        for (const Item *item : items_of<Item>(*p.desc))
            out.push_back(item->name);
    return out;
}

} // namespace

std::vector<std::string> Registry::test_names() const {
    return names_of<cmdbench_test>(plugins_);
}

std::vector<std::string> Registry::transport_names() const {
    return names_of<cmdbench_transport>(plugins_);
}

const cmdbench_test *Registry::find_test(std::string_view name) const {
    const cmdbench_test *found = nullptr;
    owner_of<cmdbench_test>(plugins_, name, &found);
    return found;
}

const cmdbench_transport *Registry::find_transport(std::string_view name) const {
    const cmdbench_transport *found = nullptr;
    owner_of<cmdbench_transport>(plugins_, name, &found);
    return found;
}

std::string Registry::file_of(const void *test_or_transport) const {
    for (const LoadedPlugin &p : plugins_) {
        for (const cmdbench_test *t : items_of<cmdbench_test>(*p.desc))
            if (t == test_or_transport) return p.file;
        for (const cmdbench_transport *t : items_of<cmdbench_transport>(*p.desc))
            if (t == test_or_transport) return p.file;
    }
    return {};
}

std::string Registry::plugin_name_of(const void *test_or_transport) const {
    const std::string file = file_of(test_or_transport);
    for (const LoadedPlugin &p : plugins_)
        if (p.file == file) return p.desc->name;
    return {};
}

bool Registry::has_file(const std::string &canonical_path) const {
    for (const LoadedPlugin &p : plugins_) {
        if (p.file == canonical_path) return true;
        // The loader may have stored the path as given; compare it resolved too.
        std::error_code ec;
        auto canonical = std::filesystem::weakly_canonical(p.file, ec);
        if (!ec && canonical == canonical_path) return true;
    }
    return false;
}

} // namespace cmdbench
