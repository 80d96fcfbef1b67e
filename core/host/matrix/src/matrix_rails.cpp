#include "cmdbench/host/matrix/matrix_rails.hpp"

#include "cmdbench/control/host_port.hpp"
#include "matrix_address.hpp"

namespace cmdbench {
namespace {

// rails = "all" puts each device's address in bind_address (scenario_rails.hpp).
std::string bind_address_of(const Rail &rail) {
    for (const auto *params : {&rail.test_params, &rail.transport_params})
        if (auto it = params->find("bind_address"); it != params->end())
            if (auto *s = std::get_if<std::string>(&it->second)) return *s;
    return "";
}

} // namespace

std::vector<RailAddress> rails_of(const Scenario &scenario) {
    for (const RunSpec &spec : scenario.runs)
        if (spec.rails_all) {
            std::vector<RailAddress> out;
            for (const Rail &rail : spec.rails)
                out.push_back({rail.label, bind_address_of(rail)});
            return out;
        }
    return {};
}

std::string rails_text(const std::vector<RailAddress> &rails) {
    if (rails.empty()) return "no rail";
    std::string out = std::to_string(rails.size()) + (rails.size() == 1 ? " rail (" : " rails (");
    for (size_t i = 0; i < rails.size(); ++i)
        out += (i ? ", " : "") + rails[i].label + " " + rails[i].address;
    return out + ")";
}

std::string rail_server_address(const std::string &server, const std::string &rail_address) {
    // published_address wrote `server`: it parses.
    return published_address(rail_address, parse_host_port(server, 0)->port);
}

} // namespace cmdbench
