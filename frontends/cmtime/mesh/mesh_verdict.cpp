// Mesh::failure_verdict (see mesh.hpp): what a peer that failed on its own
// reports. When the job is already ending because a peer was lost, the
// others leave the data plane too, and a survivor that is slower than the
// rest fails there with a mere symptom (its connects refused by a server
// that left): the controller saw the first failure and has told every leaf,
// so its word is the one to report.
#include "mesh.hpp"
#include "mesh_detail.hpp"

namespace cmdbench {

using namespace mesh_detail;

namespace {

// Whether the controller's verdict is `label`'s failure `why`, as the
// controller words it: "LABEL failed: WHY", where the controller may know
// more of the label than the leaf itself ("peer 2 (10.0.0.3:41000)").
bool names_us(const std::string &verdict, const std::string &label, const std::string &why) {
    const std::string tail = " failed: " + why;
    if (verdict.size() < label.size() + tail.size() ||
        verdict.compare(0, label.size(), label) != 0 ||
        verdict.compare(verdict.size() - tail.size(), tail.size(), tail) != 0)
        return false;
    const std::string between =
        verdict.substr(label.size(), verdict.size() - tail.size() - label.size());
    return between.empty() ||
           (between.size() > 2 && between.compare(0, 2, " (") == 0 && between.back() == ')');
}

} // namespace

std::string Mesh::failure_verdict(const std::string &why, int ms) {
    if (controller()) {
        abort(peer_label(index_) + " failed: " + why); // the arbiter: its word is the verdict
        return why;
    }
    abort(why); // the controller names us, unless it has a verdict already
    if (links_.empty() || !links_[0]) return why;
    const int64_t deadline = now_ms() + ms;
    for (int64_t left; (left = deadline - now_ms()) > 0;) {
        try {
            // What the run left unread before the verdict is dropped.
            const Message m = links_[0]->recv(int(left));
            if (m.type != MsgType::Error) continue;
            const std::string verdict = control::parse_string(m);
            return names_us(verdict, peer_label(index_), why) ? why : verdict;
        } catch (const ControlError &) {
            break; // the controller is gone, or the time is up
        }
    }
    return why;
}

} // namespace cmdbench
