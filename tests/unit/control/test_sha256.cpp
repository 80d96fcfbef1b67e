// SHA-256 against the FIPS 180-4 example vectors and HMAC-SHA256 against
// the RFC 4231 test cases: the token handshake of `cmdbench serve` rests on them.
#include "cmdbench/control/hmac.hpp"
#include "cmdbench/control/sha256.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace cmdbench;

namespace {

std::string hex(const Sha256Digest &d, size_t n = 32) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < n; ++i) {
        out += digits[d[i] >> 4];
        out += digits[d[i] & 15];
    }
    return out;
}

std::string sha_hex(const std::string &s) {
    return hex(sha256(s.data(), s.size()));
}

std::string hmac_hex(const std::string &key, const std::string &data, size_t n = 32) {
    return hex(hmac_sha256(key.data(), key.size(), data.data(), data.size()), n);
}

} // namespace

TEST_CASE("SHA-256: the FIPS 180-4 examples") {
    CHECK(sha_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // 448 bits: the padding needs a second block.
    CHECK(sha_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(sha_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    CHECK(sha_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("SHA-256: lengths at the padding edges, fed whole and a byte at a time") {
    const std::vector<std::pair<size_t, std::string>> cases = {
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
        {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"}};
    for (const auto &[n, want] : cases) {
        INFO(n << " bytes of 'a'");
        const std::string s(n, 'a');
        CHECK(sha_hex(s) == want);
        Sha256 h;
        for (char c : s)
            h.update(&c, 1);
        CHECK(hex(h.finish()) == want);
    }
}

TEST_CASE("HMAC-SHA256: RFC 4231 test cases 1-7") {
    CHECK(hmac_hex(std::string(20, '\x0b'), "Hi There") ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    CHECK(hmac_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    CHECK(hmac_hex(std::string(20, '\xaa'), std::string(50, '\xdd')) ==
          "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    std::string key4;
    for (char c = 1; c <= 25; ++c)
        key4 += c;
    CHECK(hmac_hex(key4, std::string(50, '\xcd')) ==
          "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    // Case 5 is specified truncated to 128 bits.
    CHECK(hmac_hex(std::string(20, '\x0c'), "Test With Truncation", 16) ==
          "a3b6167473100ee06e0c796c2955552b");
    // Keys longer than the 64-byte block are hashed first.
    CHECK(hmac_hex(std::string(131, '\xaa'),
                   "Test Using Larger Than Block-Size Key - Hash Key First") ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    CHECK(hmac_hex(std::string(131, '\xaa'),
                   "This is a test using a larger than block-size key and a larger than "
                   "block-size data. The key needs to be hashed before being used by the HMAC "
                   "algorithm.") ==
          "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST_CASE("constant_time_equal compares contents and lengths") {
    const uint8_t a[] = {1, 2, 3, 4}, b[] = {1, 2, 3, 4}, c[] = {1, 2, 3, 5};
    CHECK(constant_time_equal(a, 4, b, 4));
    CHECK_FALSE(constant_time_equal(a, 4, c, 4));
    CHECK_FALSE(constant_time_equal(a, 4, b, 3));
    CHECK(constant_time_equal(a, 0, c, 0));
}
