// A SAX handler that builds the ordered_json tree (json_document.hpp).
#include "results/json_document.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

// Objects this small are searched for a repeated key; larger ones get an
// index of their keys (most objects of a results file have a few keys, and
// an index for each would cost more than it saves).
constexpr size_t kScanKeys = 16;

// Each object or array is made whole before it goes into its parent: an
// ordered_json object is a vector of pairs with a const key, which a vector
// copies (the whole subtree) rather than moves each time it grows.
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
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(Json::string_t &k) {
        stack_.back().key = std::move(k);
        return true;
    }
    // As ordered_json::parse: the parser's own exception, with its position.
    template <class Exception>
    bool parse_error(std::size_t, const std::string &, const Exception &e) {
        throw e;
    }

  private:
    // An object or array being read: its members so far, and for an object
    // the key whose value comes next.
    struct Open {
        bool object;
        std::string key; // objects: the key of the member read next
        std::vector<std::pair<std::string, Json>> members; // objects
        std::vector<Json> elements;                        // arrays
        std::unordered_map<std::string, size_t> index;     // objects of more than kScanKeys
    };

    bool open(bool object) {
        Open o{object, {}, {}, {}, {}};
        stack_.push_back(std::move(o));
        return true;
    }

    bool close() {
        Open done = std::move(stack_.back());
        stack_.pop_back();
        if (!done.object) return put(Json(std::move(done.elements)));
        Json object = Json::object();
        // The vector under ordered_map: its emplace would search the keys.
        Json::object_t::Container &members = object.get_ref<Json::object_t &>();
        members.reserve(done.members.size()); // so that no pair is copied
        for (auto &[k, v] : done.members)
            members.emplace_back(std::move(k), std::move(v));
        return put(std::move(object));
    }

    bool put(Json value) {
        if (stack_.empty()) {
            root_ = std::move(value);
            return true;
        }
        Open &top = stack_.back();
        if (!top.object) {
            top.elements.push_back(std::move(value));
            return true;
        }
        if (const size_t at = find(top); at < top.members.size()) {
            top.members[at].second = std::move(value); // a repeated key: its last value
            return true;
        }
        if (top.index.empty() && top.members.size() >= kScanKeys)
            for (size_t i = 0; i < top.members.size(); ++i)
                top.index.emplace(top.members[i].first, i);
        if (!top.index.empty()) top.index.emplace(top.key, top.members.size());
        top.members.emplace_back(std::move(top.key), std::move(value));
        return true;
    }

    // Where the pending key already is among the members; members.size() if nowhere.
    static size_t find(const Open &top) {
        if (!top.index.empty()) {
            const auto it = top.index.find(top.key);
            return it == top.index.end() ? top.members.size() : it->second;
        }
        for (size_t i = 0; i < top.members.size(); ++i)
            if (top.members[i].first == top.key) return i;
        return top.members.size();
    }

    Json &root_;
    std::vector<Open> stack_;
};

} // namespace

Json parse_json_document(const std::string &text) {
    Json root;
    TreeBuilder builder(root);
    Json::sax_parse(text, &builder);
    return root;
}

} // namespace cmdbench
