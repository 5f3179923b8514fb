// The pictures of plot(FILE, ...) (lang/Plot.cpp), drawn with cairo from plain data: a
// sequence as points against n, a grid as a heat map with a colour scale. SVG or PNG by the
// file's extension. The drawing is done by a module loaded at the first picture
// (lang/PlotModule.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grundy::lang {

// What the values are: numbers on a scale, or outcomes (P, N, D) as three colours.
enum class PlotScale : std::uint8_t { Numbers, Outcomes };

struct SequencePicture {
  std::string title, x_label, y_label;
  PlotScale scale = PlotScale::Numbers;
  std::vector<std::int64_t> x, y;  // y: for outcomes 0 P, 1 N, 2 D
  // A proven period: marked from n0 on.
  struct Period {
    std::int64_t n0 = 0, p = 0;
  };
  std::optional<Period> period;
};

// The most values a heat map's side may have (cairo's largest image).
inline constexpr std::size_t kMaxGridSide = 32767;

struct GridPicture {
  std::string title, x_label, y_label;
  PlotScale scale = PlotScale::Numbers;
  std::vector<std::int64_t> xs, ys;  // the loops' values, increasing
  // Cell (i, j) at xs[i], ys[j]: values[i * ys.size() + j]; `present` false where the
  // generator left it out (an `if`).
  std::vector<std::int64_t> values;
  std::vector<std::uint8_t> present;
};

// Writes the picture to `file` (.svg or .png); an empty string, or what went wrong.
std::string draw_sequence(const SequencePicture& pic, const std::string& file);
std::string draw_grid(const GridPicture& pic, const std::string& file);
// Where n lies across a sequence's picture, in pixels.
double sequence_x(const SequencePicture& pic, std::int64_t n);
// Where the centre of cell (i, j) of the heat map lies in its picture, in pixels.
std::pair<double, double> grid_cell_centre(const GridPicture& pic, std::size_t i, std::size_t j);
// Whether this build can draw (it was built with cairo, and its drawing module loads), and
// when not, why.
bool can_draw();
std::string why_cannot_draw();

}  // namespace grundy::lang
