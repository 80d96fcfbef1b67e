// An RGB image as a PNG file, for pictures with too many parts for SVG (a
// heatmap of 1,024 x 1,024 pairs is one pixel a pair).
#pragma once
#include "cmdbench/report/matrix/matrix_heat.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// `pixels` row after row, width * height of them; the PNG file's bytes.
std::string png_image(const std::vector<Rgb> &pixels, unsigned width, unsigned height);

// RFC 4648 base64, for a data: URI.
std::string base64(const std::string &bytes);

} // namespace cmdbench
