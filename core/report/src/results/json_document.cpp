// A SAX handler that builds the ordered_json tree (json_document.hpp).
#include "results/json_document.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;
using Members = Json::object_t::Container; // the vector under ordered_map

// Objects this small are searched for a repeated key; larger ones get an
// index of their keys (most objects of a results file have a few keys, and
// an index for each would cost more than it saves).
constexpr size_t kScanKeys = 16;

class TreeBuilder {
  public:
    explicit TreeBuilder(Json &root) : root_(root) {}

    bool null() { return put(Json(nullptr)); }
    bool boolean(bool v) { return put(Json(v)); }
    bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
    bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
    bool number_float(Json::number_float_t v, const Json::string_t &) { return put(Json(v)); }
    bool string(Json::string_t &v) { return put(Json(std::move(v))); }
    bool binary(Json::binary_t &v) { return put(Json::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(Json::object()); }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(Json::string_t &k) {
        key_ = std::move(k);
        return true;
    }
    // As ordered_json::parse: the parser's own exception, with its position.
    template <class Exception>
    bool parse_error(std::size_t, const std::string &, const Exception &e) {
        throw e;
    }

  private:
    // An open object or array; the tree's pointers stay valid while it is
    // open, since only it grows (its parent's last member is it).
    struct Open {
        Json *value;
        std::unordered_map<std::string, size_t> index; // objects of more than kScanKeys
    };

    bool open(Json value) {
        Json *placed = place(std::move(value));
        stack_.push_back({placed, {}});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    bool put(Json value) {
        place(std::move(value));
        return true;
    }

    Json *place(Json value) {
        if (stack_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        Open &top = stack_.back();
        if (top.value->is_array()) {
            auto &elements = top.value->get_ref<Json::array_t &>();
            elements.push_back(std::move(value));
            return &elements.back();
        }
        Members &members = top.value->get_ref<Json::object_t &>();
        if (const size_t at = find(top, members); at < members.size()) {
            members[at].second = std::move(value); // a repeated key: its last value
            return &members[at].second;
        }
        if (top.index.empty() && members.size() >= kScanKeys) index_all(top, members);
        if (!top.index.empty()) top.index.emplace(key_, members.size());
        members.emplace_back(std::move(key_), std::move(value));
        return &members.back().second;
    }

    // Where key_ already is among the members; members.size() if nowhere.
    size_t find(const Open &top, const Members &members) const {
        if (!top.index.empty()) {
            const auto it = top.index.find(key_);
            return it == top.index.end() ? members.size() : it->second;
        }
        for (size_t i = 0; i < members.size(); ++i)
            if (members[i].first == key_) return i;
        return members.size();
    }

    static void index_all(Open &top, const Members &members) {
        top.index.reserve(2 * members.size());
        for (size_t i = 0; i < members.size(); ++i)
            top.index.emplace(members[i].first, i);
    }

    Json &root_;
    std::vector<Open> stack_;
    Json::string_t key_;
};

} // namespace

Json parse_json_document(const std::string &text) {
    Json root;
    TreeBuilder builder(root);
    Json::sax_parse(text, &builder);
    return root;
}

} // namespace cmdbench
