#include "elf_exports.hpp"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <vector>

namespace cmdbench {
namespace {

// Tables larger than this are not believed (a real .dynsym is kilobytes).
constexpr uint64_t kMaxTable = uint64_t(256) << 20;

// Bounded reads: every offset and length comes from the file itself.
class File {
  public:
    explicit File(const std::string &path) : in_(path, std::ios::binary) {
        if (!in_) return;
        in_.seekg(0, std::ios::end);
        const std::streamoff end = in_.tellg();
        if (end > 0) size_ = uint64_t(end);
    }

    bool read(uint64_t offset, void *out, uint64_t len) {
        if (!in_ || offset > size_ || len > size_ - offset) return false;
        in_.seekg(std::streamoff(offset));
        in_.read(static_cast<char *>(out), std::streamsize(len));
        return bool(in_);
    }

    // Empty when the range is not in the file (or is implausibly large).
    std::vector<char> read(uint64_t offset, uint64_t len) {
        std::vector<char> out;
        if (len == 0 || len > kMaxTable) return out;
        out.resize(len);
        if (!read(offset, out.data(), len)) out.clear();
        return out;
    }

  private:
    std::ifstream in_;
    uint64_t size_ = 0;
};

template <class Ehdr, class Shdr, class Sym> Export scan(File &f, const char *symbol) {
    Ehdr eh;
    if (!f.read(0, &eh, sizeof eh)) return Export::unknown;
    if (eh.e_type != ET_DYN || eh.e_shoff == 0 || eh.e_shnum == 0 || eh.e_shentsize < sizeof(Shdr))
        return Export::unknown;
    auto section = [&](uint64_t i, Shdr &sh) {
        return i < eh.e_shnum && f.read(uint64_t(eh.e_shoff) + i * eh.e_shentsize, &sh, sizeof sh);
    };
    Shdr dynsym{}, dynstr{};
    bool found = false;
    for (uint64_t i = 0; i < eh.e_shnum && !found; ++i) {
        if (!section(i, dynsym)) return Export::unknown;
        found = dynsym.sh_type == SHT_DYNSYM;
    }
    // A shared object without dynamic symbols exports nothing.
    if (!found) return Export::no;
    if (!section(dynsym.sh_link, dynstr) || dynstr.sh_type != SHT_STRTAB ||
        dynsym.sh_entsize < sizeof(Sym))
        return Export::unknown;
    const std::vector<char> syms = f.read(dynsym.sh_offset, dynsym.sh_size);
    const std::vector<char> strs = f.read(dynstr.sh_offset, dynstr.sh_size);
    if (syms.empty() || strs.empty()) return Export::unknown;
    const size_t want = std::strlen(symbol);
    for (size_t at = 0; at + sizeof(Sym) <= syms.size(); at += dynsym.sh_entsize) {
        Sym s;
        std::memcpy(&s, syms.data() + at, sizeof s);
        if (s.st_shndx == SHN_UNDEF || (s.st_info >> 4) == STB_LOCAL) continue;
        if (s.st_name >= strs.size() || strs.size() - s.st_name <= want) continue;
        if (std::memcmp(strs.data() + s.st_name, symbol, want + 1) == 0) return Export::yes;
    }
    return Export::no;
}

} // namespace

Export exports_symbol(const std::string &path, const char *symbol) {
    File f(path);
    unsigned char ident[EI_NIDENT];
    if (!f.read(0, ident, sizeof ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0)
        return Export::unknown;
    // Only this machine's byte order is read; a foreign one is no plugin of
    // ours, but whether it is meant as one cannot be read either.
    const uint16_t probe = 1;
    const unsigned char native =
        *reinterpret_cast<const unsigned char *>(&probe) == 1 ? ELFDATA2LSB : ELFDATA2MSB;
    if (ident[EI_DATA] != native) return Export::unknown;
    if (ident[EI_CLASS] == ELFCLASS64) return scan<Elf64_Ehdr, Elf64_Shdr, Elf64_Sym>(f, symbol);
    if (ident[EI_CLASS] == ELFCLASS32) return scan<Elf32_Ehdr, Elf32_Shdr, Elf32_Sym>(f, symbol);
    return Export::unknown;
}

} // namespace cmdbench
