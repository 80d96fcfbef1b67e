// output_file: replacing a results file safely, links, streams, failures,
// and the check made before a run, on real files in a temporary directory.
#include "../../support/scratch_dir.hpp"
#include "cmdbench/report/output_file.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace cmdbench;

namespace {

// Each test's scratch directory.
struct TempDir : ScratchDir {
    TempDir() : ScratchDir("cmdbench-output") {}
};

std::string slurp(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

mode_t mode_of(const std::string &path) {
    struct stat st;
    REQUIRE(lstat(path.c_str(), &st) == 0);
    return st.st_mode;
}

} // namespace

TEST_CASE("a new file is created with the umask's permissions") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    const mode_t old = umask(022);
    CHECK(write_output(dir + "/out.json", "{}\n").ok());
    umask(old);
    CHECK(slurp(dir + "/out.json") == "{}\n");
    CHECK((mode_of(dir + "/out.json") & 0777) == 0644);
    CHECK(entry_count(dir) == 1); // no temporary file left
}

TEST_CASE("an existing file is replaced whole and keeps its permissions") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    const std::string out = dir + "/out.csv";
    std::ofstream(out) << "a much longer previous content\n";
    REQUIRE(chmod(out.c_str(), 0600) == 0);
    CHECK(write_output(out, "new\n").ok());
    CHECK(slurp(out) == "new\n");
    CHECK((mode_of(out) & 0777) == 0600);
    CHECK(entry_count(dir) == 1);
}

TEST_CASE("a document made as it is written arrives whole, across many blocks") {
    const TempDir scratch;
    const std::string out = scratch.path + "/big.json";
    std::string expected;
    for (int i = 0; i < 50000; ++i)
        expected += "line " + std::to_string(i) + "\n"; // ~500 KB: several blocks
    CHECK(write_output(out, [](std::ostream &o) {
              for (int i = 0; i < 50000; ++i)
                  o << "line " << i << '\n';
          }).ok());
    CHECK(slurp(out) == expected);
    CHECK(entry_count(scratch.path) == 1);
}

TEST_CASE("a document that fails half made leaves the previous file") {
    const TempDir scratch;
    const std::string out = scratch.path + "/out.json";
    std::ofstream(out) << "previous\n";
    const Status written = write_output(out, [](std::ostream &o) {
        o << std::string(200000, 'x'); // some of it already on disk
        throw std::runtime_error("no more");
    });
    REQUIRE_FALSE(written.ok());
    CHECK(written.error() == "the document could not be made: no more");
    CHECK(slurp(out) == "previous\n");
    CHECK(entry_count(scratch.path) == 1); // the half-written temporary is gone
}

TEST_CASE("links at the path stay links and the file at the end of them is replaced") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    REQUIRE(mkdir((dir + "/sub").c_str(), 0755) == 0);
    REQUIRE(symlink("sub/hop", (dir + "/out.json").c_str()) == 0);
    REQUIRE(symlink("final.json", (dir + "/sub/hop").c_str()) == 0); // relative to sub/
    CHECK(check_output(dir + "/out.json").ok());
    CHECK(write_output(dir + "/out.json", "one\n").ok());
    CHECK(write_output(dir + "/out.json", "two\n").ok());
    CHECK(S_ISLNK(mode_of(dir + "/out.json")));
    CHECK(S_ISLNK(mode_of(dir + "/sub/hop")));
    CHECK(S_ISREG(mode_of(dir + "/sub/final.json")));
    CHECK(slurp(dir + "/sub/final.json") == "two\n");
}

TEST_CASE("a symlink loop is refused") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    REQUIRE(symlink("b", (dir + "/a").c_str()) == 0);
    REQUIRE(symlink("a", (dir + "/b").c_str()) == 0);
    CHECK(check_output(dir + "/a").error() == "Too many levels of symbolic links");
    CHECK(write_output(dir + "/a", "x").error() == "Too many levels of symbolic links");
}

TEST_CASE("a failed write keeps the previous file and leaves no temporary file") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    const std::string out = dir + "/out.json";
    std::ofstream(out) << "previous\n";
    rlimit old{};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit small = old;
    small.rlim_cur = 4;
    auto *old_handler = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    const Status written = write_output(out, "a document longer than four bytes\n");
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK(written.error() == "File too large");
    CHECK(slurp(out) == "previous\n");
    CHECK(entry_count(dir) == 1);
}

TEST_CASE("stdout, FIFOs and devices are streams, files are not") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    REQUIRE(mkfifo((dir + "/fifo").c_str(), 0644) == 0);
    REQUIRE(symlink("fifo", (dir + "/to-fifo").c_str()) == 0);
    std::ofstream(dir + "/file") << "x";
    CHECK(output_is_stream("-"));
    CHECK(output_is_stream(dir + "/fifo"));
    CHECK(output_is_stream(dir + "/to-fifo"));
    CHECK(output_is_stream("/dev/null")); // only looked at
    CHECK_FALSE(output_is_stream(dir + "/file"));
    CHECK_FALSE(output_is_stream(dir + "/missing"));
}

TEST_CASE("the check before a run accepts what can be written and leaves nothing behind") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    std::ofstream(dir + "/file") << "kept";
    REQUIRE(mkfifo((dir + "/fifo").c_str(), 0644) == 0);
    CHECK(check_output("-").ok());
    CHECK(check_output(dir + "/new.json").ok());
    CHECK(check_output(dir + "/file").ok());
    CHECK(check_output(dir + "/fifo").ok()); // a reader may come later
    CHECK(entry_count(dir) == 2);
    CHECK(slurp(dir + "/file") == "kept");
}

TEST_CASE("the check before a run says why a path cannot be written") {
    const TempDir scratch;
    const std::string &dir = scratch.path;
    std::ofstream(dir + "/file") << "";
    CHECK(check_output("").error() == "the path is empty");
    CHECK(check_output(dir).error() == "it is a directory");
    CHECK(check_output(dir + "/").error() == "it names a directory");
    CHECK(check_output(dir + "/missing/out.json").error() ==
          "directory " + dir + "/missing: No such file or directory");
    CHECK(check_output(dir + "/file/out.json").error() == dir + "/file is not a directory");
    CHECK(check_output("/sys/out.json").error().rfind("cannot create a file in /sys: ", 0) == 0);

    const std::string sock = dir + "/sock";
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
    REQUIRE(bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0);
    close(fd);
    CHECK(check_output(sock).error() == "it is a socket");
    CHECK(write_output(sock, "x").error() == "it is a socket");
    CHECK(S_ISSOCK(mode_of(sock)));
}

TEST_CASE("a read-only file is refused by the check (not as root)") {
    if (geteuid() == 0) {
        WARN("root writes read-only files; not tested");
        return;
    }
    const TempDir scratch;
    const std::string &dir = scratch.path;
    std::ofstream(dir + "/ro") << "";
    REQUIRE(chmod((dir + "/ro").c_str(), 0444) == 0);
    CHECK(check_output(dir + "/ro").error() == "Permission denied");
}
