// The heatmap's colour scale (docs/matrix.md): a cell is coloured by the
// ratio of its value to the matrix median on a log scale, so that a link
// many times slower than the others stands out and a few percent of noise
// between healthy links does not. A linear best-to-worst scale does the
// opposite: one outlier squeezes every other cell into one colour, and
// without one, noise spreads over the whole range.
#pragma once
#include <string>

namespace cmdbench {

// The ratio to the median at which the scale ends (full red, or full blue
// for better than the median).
constexpr double kHeatScaleEnd = 10;

// Where `value` sits on the scale: log(ratio to the median) / log(10),
// signed so that worse is positive (a slower latency, a lower bandwidth),
// clamped to [-1, 1]. 0 = the median. A non-positive value or median is 0.
double heat_position(double value, double median, bool higher_is_better);

// The cell's background for a position: green at the median, yellow at about
// 3x worse, red at 10x worse and beyond; cyan to blue for better.
std::string heat_color(double position);

// heat_color as 8-bit RGB, for a heatmap drawn as an image.
struct Rgb {
    unsigned char r = 0, g = 0, b = 0;
};
Rgb heat_rgb(double position);

} // namespace cmdbench
