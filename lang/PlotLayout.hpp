// Where the parts of plot()'s pictures lie, in pixels: shared by the drawing module
// (lang/PlotCairo.cpp) and by the program that loads it (lang/PlotDraw.cpp), which answers
// sequence_x and grid_cell_centre without loading cairo.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "lang/PlotDraw.hpp"

namespace grundy::lang::layout {

// The plot area.
struct Frame {
  double left, right, top, bottom;
};

inline constexpr int kSequenceW = 960, kSequenceH = 480;
inline constexpr Frame kSequenceFrame{76, kSequenceW - 24, 46, kSequenceH - 58};

// The sequence's horizontal range: its least and largest n (one n alone in the middle).
inline std::pair<double, double> x_range(const SequencePicture& pic) {
  const double lo = static_cast<double>(*std::min_element(pic.x.begin(), pic.x.end()));
  const double hi = static_cast<double>(*std::max_element(pic.x.begin(), pic.x.end()));
  if (hi == lo) return {lo - 1, hi + 1};
  return {lo, hi};
}

inline constexpr int kGridW = 780, kGridH = 660;

// The heat map's area: square cells where they are a pixel or more.
inline Frame grid_frame(std::size_t nx, std::size_t ny) {
  Frame f{76, kGridW - 150, 46, kGridH - 58};
  const double cs =
      std::min((f.right - f.left) / static_cast<double>(nx), (f.bottom - f.top) / static_cast<double>(ny));
  if (cs >= 1) {
    f.right = f.left + cs * static_cast<double>(nx);
    f.top = f.bottom - cs * static_cast<double>(ny);
  }
  return f;
}

}  // namespace grundy::lang::layout
