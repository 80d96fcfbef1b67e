#include "cmdbench/host/matrix/round_link.hpp"

#include <algorithm>

namespace cmdbench {

using Json = nlohmann::json;

bool RoundWord::is_gone(int rank) const {
    return std::any_of(gone.begin(), gone.end(), [&](const GoneRank &g) { return g.rank == rank; });
}

control::Message round_frame(const Json &j) {
    const std::string text = j.dump(-1, ' ', false, Json::error_handler_t::replace);
    return control::Message{control::MsgType::Exchange,
                            std::vector<uint8_t>(text.begin(), text.end())};
}

Json round_json(const control::Message &m) {
    if (m.type != control::MsgType::Exchange)
        throw control::ControlError("unexpected message type " + std::to_string(unsigned(m.type)) +
                                    " on the matrix link");
    try {
        Json j = Json::parse(m.payload.begin(), m.payload.end());
        if (!j.is_object() || !j.contains("t") || !j["t"].is_string())
            throw control::ControlError("a matrix frame without a kind");
        return j;
    } catch (const Json::exception &e) {
        throw control::ControlError(std::string("unreadable matrix frame: ") + e.what());
    }
}

Json round_word_json(const RoundWord &w) {
    Json gone = Json::array();
    for (const GoneRank &g : w.gone)
        gone.push_back({{"rank", g.rank}, {"why", g.why}, {"seq", g.seq}, {"silent", g.silent}});
    return Json{{"t", "go"}, {"seq", w.seq}, {"stop", w.stop}, {"gone", gone}};
}

RoundWord round_word_from(const Json &j) {
    RoundWord w;
    try {
        w.seq = j.at("seq").get<size_t>();
        w.stop = j.at("stop").get<std::string>();
        for (const Json &g : j.at("gone"))
            w.gone.push_back({g.at("rank").get<int>(), g.at("why").get<std::string>(),
                              g.at("seq").get<size_t>(), g.value("silent", false)});
    } catch (const Json::exception &e) {
        throw control::ControlError(std::string("unreadable round word: ") + e.what());
    }
    return w;
}

} // namespace cmdbench
