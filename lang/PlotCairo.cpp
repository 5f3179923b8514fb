// The drawing module of plot(FILE, ...): cairo writes SVG and PNG from one set of calls, with
// text, clipping and images, and Debian ships it (libcairo2-dev); the README says why it was
// chosen. Built as a module of its own (grundy_plot.so) that lang/PlotDraw.cpp loads at the
// first picture: cairo and the libraries it needs (fontconfig, freetype, pixman, X11's) would
// otherwise be loaded by every run of grundy, a few milliseconds, most of its start-up.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>

#include <cairo-svg.h>
#include <cairo.h>

#include "lang/PlotDraw.hpp"
#include "lang/PlotLayout.hpp"
#include "lang/PlotModule.hpp"

namespace grundy::lang {

namespace {

struct Rgb {
  double r, g, b;
};
constexpr Rgb kInk{0.13, 0.13, 0.13}, kRule{0.88, 0.88, 0.88}, kPoint{0.12, 0.31, 0.61},
    kLine{0.62, 0.71, 0.82}, kMark{0.85, 0.37, 0.01};
// Outcomes: P dark, N light, D the mark's orange.
constexpr std::array<Rgb, 3> kOutcome{{{0.11, 0.11, 0.11}, {0.86, 0.86, 0.86}, {0.85, 0.37, 0.01}}};
constexpr std::array<const char*, 3> kOutcomeName{"P", "N", "D"};

// Viridis (van der Walt and Smith's colour map for matplotlib), nine stops: even in
// lightness, readable in grey and by most colour-blind readers.
Rgb viridis(double t) {
  static constexpr std::array<Rgb, 9> stops{{{0.267, 0.005, 0.329},
                                             {0.283, 0.157, 0.471},
                                             {0.243, 0.286, 0.537},
                                             {0.192, 0.408, 0.557},
                                             {0.149, 0.510, 0.557},
                                             {0.122, 0.620, 0.537},
                                             {0.208, 0.718, 0.475},
                                             {0.431, 0.808, 0.345},
                                             {0.992, 0.906, 0.145}}};
  t = std::clamp(t, 0.0, 1.0) * 8;
  const auto i = std::min<std::size_t>(7, static_cast<std::size_t>(t));
  const double f = t - static_cast<double>(i);
  const Rgb& a = stops[i];
  const Rgb& b = stops[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

// Ticks at 1, 2 or 5 times a power of ten, about `want` of them over [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int want) {
  std::vector<double> out;
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / want;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  step = std::max(step, 1.0);  // the values are integers
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(v);
  return out;
}

// A tick's label: whole numbers as they are up to a million, larger ones as 2.5e18 (which
// fits the margin).
std::string number(double v) {
  char buf[32];
  if (std::fabs(v) < 1e6) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  std::snprintf(buf, sizeof buf, "%.3ge%d", v / std::pow(10.0, e), e);
  return buf;
}

// A picture being drawn: its surface (SVG on file, or an image written as PNG at the end).
class Canvas {
 public:
  Canvas(const std::string& file, int w, int h) : file_(file) {
    const auto dot = file.rfind('.');
    std::string ext = dot == std::string::npos ? "" : file.substr(dot + 1);
    for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (ext == "svg") {
      surface_ = cairo_svg_surface_create(file.c_str(), w, h);
    } else if (ext == "png") {
      png_ = true;
      surface_ = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    } else {
      error_ = "plot writes .svg or .png files, not '" + file + "'";
      return;
    }
    if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS) {
      error_ = "cannot write " + file + ": " + cairo_status_to_string(cairo_surface_status(surface_));
      return;
    }
    cr_ = cairo_create(surface_);
    cairo_set_source_rgb(cr_, 1, 1, 1);
    cairo_paint(cr_);
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  }
  ~Canvas() {
    if (cr_) cairo_destroy(cr_);
    if (surface_) cairo_surface_destroy(surface_);
  }
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  const std::string& error() const { return error_; }
  cairo_t* cr() { return cr_; }

  void colour(Rgb c) { cairo_set_source_rgb(cr_, c.r, c.g, c.b); }
  void line(double x0, double y0, double x1, double y1, double width, Rgb c) {
    colour(c);
    cairo_set_line_width(cr_, width);
    cairo_move_to(cr_, x0, y0);
    cairo_line_to(cr_, x1, y1);
    cairo_stroke(cr_);
  }
  // Text with its anchor at (x, y): ax 0 left, 0.5 centre, 1 right; ay likewise, 0 top.
  void text(const std::string& s, double x, double y, double size, double ax, double ay, bool bold = false,
            double angle = 0) {
    cairo_save(cr_);
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr_, s.c_str(), &e);
    cairo_translate(cr_, x, y);
    cairo_rotate(cr_, angle);
    colour(kInk);
    cairo_move_to(cr_, -e.x_advance * ax, size * (1 - ay) - size * 0.2);
    cairo_show_text(cr_, s.c_str());
    cairo_restore(cr_);
  }

  std::string finish() {
    if (!error_.empty()) return error_;
    cairo_surface_flush(surface_);
    if (png_) {
      const cairo_status_t st = cairo_surface_write_to_png(surface_, file_.c_str());
      if (st != CAIRO_STATUS_SUCCESS) return "cannot write " + file_ + ": " + cairo_status_to_string(st);
    }
    cairo_surface_finish(surface_);
    if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS)
      return "cannot write " + file_ + ": " + cairo_status_to_string(cairo_surface_status(surface_));
    return {};
  }

 private:
  std::string file_;
  bool png_ = false;
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;
  std::string error_;
};

using layout::Frame;

// The axes' labels and the title.
void axes_labels(Canvas& cv, const Frame& f, const std::string& title, const std::string& xl,
                 const std::string& yl) {
  cv.text(title, f.left, 14, 15, 0, 0, true);
  cv.text(xl, (f.left + f.right) / 2, f.bottom + 34, 13, 0.5, 0);
  cv.text(yl, 18, (f.top + f.bottom) / 2, 13, 0.5, 0, false, -M_PI / 2);
}

std::string sequence_picture(const SequencePicture& pic, const std::string& file) {
  constexpr int W = layout::kSequenceW, H = layout::kSequenceH;
  Canvas cv(file, W, H);
  if (!cv.error().empty()) return cv.error();
  cairo_t* cr = cv.cr();
  const Frame f = layout::kSequenceFrame;
  const bool outcomes = pic.scale == PlotScale::Outcomes;
  const auto [xmin, xmax] = layout::x_range(pic);
  double ymin = outcomes ? 0 : std::min(0.0, static_cast<double>(*std::min_element(pic.y.begin(), pic.y.end())));
  double ymax = outcomes ? 2 : static_cast<double>(*std::max_element(pic.y.begin(), pic.y.end()));
  if (ymax == ymin) ymax = ymin + 1;
  const double pad = (ymax - ymin) * 0.04;
  const double y0 = ymin - pad, y1 = ymax + pad;
  auto X = [&](double x) { return f.left + (x - xmin) / (xmax - xmin) * (f.right - f.left); };
  auto Y = [&](double y) { return f.bottom - (y - y0) / (y1 - y0) * (f.bottom - f.top); };

  // Grid lines and ticks.
  for (double t : nice_ticks(xmin, xmax, 10)) {
    cv.line(X(t), f.top, X(t), f.bottom, 1, kRule);
    cv.line(X(t), f.bottom, X(t), f.bottom + 5, 1, kInk);
    cv.text(number(t), X(t), f.bottom + 8, 11, 0.5, 0);
  }
  if (outcomes) {
    for (int k = 0; k < 3; ++k) {
      cv.line(f.left, Y(k), f.right, Y(k), 1, kRule);
      cv.text(kOutcomeName[static_cast<std::size_t>(k)], f.left - 8, Y(k), 11, 1, 0.5);
    }
  } else {
    for (double t : nice_ticks(ymin, ymax, 6)) {
      cv.line(f.left, Y(t), f.right, Y(t), 1, kRule);
      cv.line(f.left - 5, Y(t), f.left, Y(t), 1, kInk);
      cv.text(number(t), f.left - 8, Y(t), 11, 1, 0.5);
    }
  }

  // The period: a dashed line where it starts, a tick above each period after it (where they
  // are far enough apart to see), and a note.
  if (pic.period && pic.period->p > 0) {
    const double n0 = static_cast<double>(pic.period->n0), p = static_cast<double>(pic.period->p);
    if (n0 >= xmin && n0 <= xmax) {
      cairo_save(cr);
      const double dash[] = {5, 4};
      cairo_set_dash(cr, dash, 2, 0);
      cv.line(X(n0), f.top, X(n0), f.bottom, 1.4, kMark);
      cairo_restore(cr);
    }
    const double px = p / (xmax - xmin) * (f.right - f.left);
    if (px >= 6) {
      double k = std::max(0.0, std::ceil((xmin - n0) / p));
      for (int drawn = 0; n0 + k * p <= xmax && drawn < 1000; ++k, ++drawn)
        cv.line(X(n0 + k * p), f.top - 6, X(n0 + k * p), f.top, 1.2, kMark);
    }
    cv.text("period " + number(p) + " from " + number(n0) + " (proven)", f.right, 16, 12, 1, 0);
  }

  // The points: few, joined by a thin line and dotted; many, thinned to what shows, each
  // pixel column a few vertical runs that cover every point in it (so no extreme is lost),
  // the runs merged across gaps of up to q pixels until the picture stays small.
  cairo_rectangle(cr, f.left - 3, f.top - 3, f.right - f.left + 6, f.bottom - f.top + 6);
  cairo_clip(cr);
  const std::size_t n = pic.x.size();
  if (n <= static_cast<std::size_t>((f.right - f.left) / 4)) {
    cairo_set_line_width(cr, 0.8);
    cv.colour(kLine);
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0) cairo_move_to(cr, X(static_cast<double>(pic.x[i])), Y(static_cast<double>(pic.y[i])));
      else cairo_line_to(cr, X(static_cast<double>(pic.x[i])), Y(static_cast<double>(pic.y[i])));
    }
    cairo_stroke(cr);
    cv.colour(kPoint);
    for (std::size_t i = 0; i < n; ++i) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, X(static_cast<double>(pic.x[i])), Y(static_cast<double>(pic.y[i])), 2.3, 0, 2 * M_PI);
    }
    cairo_fill(cr);
  } else {
    std::vector<std::pair<int, int>> cells;  // (column, row) in pixels
    cells.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      cells.emplace_back(static_cast<int>(std::lround(X(static_cast<double>(pic.x[i])))),
                         static_cast<int>(std::lround(Y(static_cast<double>(pic.y[i])))));
    }
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    struct Run {
      int col, from, to;
    };
    std::vector<Run> runs;
    for (int q = 1;; q *= 2) {
      runs.clear();
      for (const auto& [c, r] : cells) {
        if (!runs.empty() && runs.back().col == c && r - runs.back().to <= q) runs.back().to = r;
        else runs.push_back({c, r, r});
      }
      if (runs.size() <= 24000 || q >= 64) break;  // an SVG of under 2 MB
    }
    // Dots as wide as the points' spacing allows, 1.5 to 2.5 pixels.
    const double d = std::clamp((f.right - f.left) / static_cast<double>(n), 1.5, 2.5);
    cv.colour(kPoint);
    for (const Run& r : runs) cairo_rectangle(cr, r.col - d / 2, r.from - d / 2, d, r.to - r.from + d);
    cairo_fill(cr);
  }
  cairo_reset_clip(cr);
  cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
  cv.colour(kInk);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
  axes_labels(cv, f, pic.title, pic.x_label, pic.y_label);
  return cv.finish();
}

std::string grid_picture(const GridPicture& pic, const std::string& file) {
  Canvas cv(file, layout::kGridW, layout::kGridH);
  if (!cv.error().empty()) return cv.error();
  cairo_t* cr = cv.cr();
  const auto nx = static_cast<int>(pic.xs.size()), ny = static_cast<int>(pic.ys.size());
  const Frame f = layout::grid_frame(pic.xs.size(), pic.ys.size());
  const bool outcomes = pic.scale == PlotScale::Outcomes;
  std::int64_t vmin = 0, vmax = 0;
  bool any = false;
  for (std::size_t k = 0; k < pic.values.size(); ++k) {
    if (!pic.present[k]) continue;
    vmin = any ? std::min(vmin, pic.values[k]) : pic.values[k];
    vmax = any ? std::max(vmax, pic.values[k]) : pic.values[k];
    any = true;
  }
  const double span = vmax > vmin ? static_cast<double>(vmax - vmin) : 1.0;
  auto colour_of = [&](std::int64_t v) {
    if (outcomes) return kOutcome[static_cast<std::size_t>(std::clamp<std::int64_t>(v, 0, 2))];
    return viridis(static_cast<double>(v - vmin) / span);
  };

  // The cells as an image, a pixel each, scaled up without smoothing.
  cairo_surface_t* img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, nx, ny);
  cairo_surface_flush(img);
  unsigned char* data = cairo_image_surface_get_data(img);
  const int stride = cairo_image_surface_get_stride(img);
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) {
      const std::size_t k = static_cast<std::size_t>(i) * static_cast<std::size_t>(ny) + static_cast<std::size_t>(j);
      auto* px = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(ny - 1 - j) * stride) + i;
      if (!pic.present[k]) {
        *px = 0;  // transparent: the white page shows
        continue;
      }
      const Rgb c = colour_of(pic.values[k]);
      auto byte = [](double x) { return static_cast<std::uint32_t>(std::lround(std::clamp(x, 0.0, 1.0) * 255)); };
      *px = 0xFF000000u | byte(c.r) << 16 | byte(c.g) << 8 | byte(c.b);
    }
  }
  cairo_surface_mark_dirty(img);
  cairo_save(cr);
  cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
  cairo_clip(cr);
  cairo_translate(cr, f.left, f.top);
  cairo_scale(cr, (f.right - f.left) / nx, (f.bottom - f.top) / ny);
  cairo_set_source_surface(cr, img, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(img);

  // Axes: ticks at the loops' values (by value where they run on by one, else by place).
  auto ticks = [&](const std::vector<std::int64_t>& vs, int want, auto place, auto draw) {
    const bool consecutive = vs.back() - vs.front() + 1 == static_cast<std::int64_t>(vs.size());
    if (consecutive) {
      for (double t : nice_ticks(static_cast<double>(vs.front()), static_cast<double>(vs.back()), want))
        draw(place(t - static_cast<double>(vs.front())), number(t));
    } else {
      for (double t : nice_ticks(0, static_cast<double>(vs.size() - 1), want))
        draw(place(t), number(static_cast<double>(vs[static_cast<std::size_t>(t)])));
    }
  };
  const double cw = (f.right - f.left) / nx, ch = (f.bottom - f.top) / ny;
  ticks(pic.xs, 8, [&](double i) { return f.left + (i + 0.5) * cw; },
        [&](double x, const std::string& s) {
          cv.line(x, f.bottom, x, f.bottom + 5, 1, kInk);
          cv.text(s, x, f.bottom + 8, 11, 0.5, 0);
        });
  ticks(pic.ys, 8, [&](double j) { return f.bottom - (j + 0.5) * ch; },
        [&](double y, const std::string& s) {
          cv.line(f.left - 5, y, f.left, y, 1, kInk);
          cv.text(s, f.left - 8, y, 11, 1, 0.5);
        });
  cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
  cv.colour(kInk);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);

  // The colour scale: a swatch per value when there are few (or outcomes), else a bar.
  const double sx = f.right + 28, sw = 18;
  if (outcomes || vmax - vmin <= 15) {
    std::vector<std::int64_t> shown;
    if (outcomes) {
      for (std::size_t k = 0; k < pic.values.size(); ++k) {
        if (pic.present[k] && std::find(shown.begin(), shown.end(), pic.values[k]) == shown.end())
          shown.push_back(pic.values[k]);
      }
      std::sort(shown.begin(), shown.end());
    } else {
      for (std::int64_t v = vmin; v <= vmax && any; ++v) shown.push_back(v);
    }
    const double step = std::min(24.0, (f.bottom - f.top) / std::max<double>(1, static_cast<double>(shown.size())));
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const double y = f.top + step * static_cast<double>(k);
      cv.colour(colour_of(shown[k]));
      cairo_rectangle(cr, sx, y, sw, step - 3);
      cairo_fill_preserve(cr);
      cv.colour(kInk);
      cairo_set_line_width(cr, 0.6);
      cairo_stroke(cr);
      cv.text(outcomes ? kOutcomeName[static_cast<std::size_t>(std::clamp<std::int64_t>(shown[k], 0, 2))]
                       : number(static_cast<double>(shown[k])),
              sx + sw + 6, y + (step - 3) / 2, 11, 0, 0.5);
    }
  } else {
    const double top = f.top, bottom = f.bottom;
    cairo_pattern_t* grad = cairo_pattern_create_linear(0, bottom, 0, top);
    for (int s = 0; s <= 16; ++s) {
      const Rgb c = viridis(s / 16.0);
      cairo_pattern_add_color_stop_rgb(grad, s / 16.0, c.r, c.g, c.b);
    }
    cairo_rectangle(cr, sx, top, sw, bottom - top);
    cairo_set_source(cr, grad);
    cairo_fill(cr);
    cairo_pattern_destroy(grad);
    for (double t : nice_ticks(static_cast<double>(vmin), static_cast<double>(vmax), 8)) {
      const double y = bottom - (t - static_cast<double>(vmin)) / span * (bottom - top);
      cv.line(sx + sw, y, sx + sw + 4, y, 1, kInk);
      cv.text(number(t), sx + sw + 7, y, 11, 0, 0.5);
    }
  }
  axes_labels(cv, f, pic.title, pic.x_label, pic.y_label);
  return cv.finish();
}

void write_error(const std::string& what, char* error, std::size_t size) {
  if (size == 0) return;
  const std::size_t n = std::min(what.size(), size - 1);
  std::memcpy(error, what.data(), n);
  error[n] = '\0';
}

}  // namespace
}  // namespace grundy::lang

// The entry points (lang/PlotModule.hpp), the module's only exported names.
#define GRUNDY_PLOT_EXPORT extern "C" __attribute__((visibility("default")))

GRUNDY_PLOT_EXPORT int grundy_plot_abi() { return grundy::lang::plot_module::kAbi; }

GRUNDY_PLOT_EXPORT void grundy_plot_sequence(const grundy::lang::SequencePicture* pic, const char* file,
                                            char* error, std::size_t size) {
  try {
    grundy::lang::write_error(grundy::lang::sequence_picture(*pic, file), error, size);
  } catch (const std::exception& e) {  // nothing is thrown across the boundary
    grundy::lang::write_error(e.what(), error, size);
  }
}

GRUNDY_PLOT_EXPORT void grundy_plot_grid(const grundy::lang::GridPicture* pic, const char* file, char* error,
                                        std::size_t size) {
  try {
    grundy::lang::write_error(grundy::lang::grid_picture(*pic, file), error, size);
  } catch (const std::exception& e) {
    grundy::lang::write_error(e.what(), error, size);
  }
}
