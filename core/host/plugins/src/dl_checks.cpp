#include "dl_checks.hpp"

#include <dlfcn.h>
#include <link.h>

namespace cmdbench {

Status check_dlopen(const std::string &path) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
        dlclose(handle);
        return {};
    }
    const char *err = dlerror();
    std::string why = err ? err : "dlopen failed";
    if (why.compare(0, path.size() + 2, path + ": ") == 0) why.erase(0, path.size() + 2);
    return unexpected(why);
}

Status check_entry_symbol(void *dl_handle, const char *symbol) {
    void *addr = dlsym(dl_handle, symbol);
    if (!addr) return unexpected("its entry point cannot be found");
    Dl_info info{};
    void *entry = nullptr; // the symbol's ElfW(Sym)
    if (!dladdr1(addr, &info, &entry, RTLD_DL_SYMENT) || !entry)
        return unexpected("its entry point's symbol type cannot be read");
    const auto *sym = static_cast<const ElfW(Sym) *>(entry);
    switch (ELF64_ST_TYPE(sym->st_info)) {
    case STT_FUNC:
    case STT_GNU_IFUNC:
        return {};
    case STT_OBJECT:
    case STT_COMMON:
    case STT_TLS:
        return unexpected("its entry point is a data object (a variable), not a function");
    default:
        return unexpected("its entry point is not a function (ELF symbol type " +
                          std::to_string(ELF64_ST_TYPE(sym->st_info)) + ")");
    }
}

} // namespace cmdbench
