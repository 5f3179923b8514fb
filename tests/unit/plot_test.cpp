// plot(FILE, ...) (lang/Plot.cpp, lang/PlotDraw.cpp): the pictures are read back with cairo and
// their cells checked against the theory (Wythoff's P-positions; nim-values as colours), the
// files checked as SVG and PNG; and what plot refuses.
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "lang/PlotDraw.hpp"
#include "tests/unit/support.hpp"

using namespace grundy;

namespace {

// A file of this process's own (the test cases run as parallel processes).
std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("grundy_plot_" + std::to_string(getpid()) + "_" + name))
      .string();
}

}  // namespace

#ifdef GRUNDY_HAVE_CAIRO
#include <cairo.h>

namespace {

struct Pixel {
  int r, g, b;
};

// The picture's pixel at (x, y), read back from the PNG.
class Png {
 public:
  explicit Png(const std::string& path) : s_(cairo_image_surface_create_from_png(path.c_str())) {}
  ~Png() { cairo_surface_destroy(s_); }
  Png(const Png&) = delete;
  Png& operator=(const Png&) = delete;
  bool ok() const { return cairo_surface_status(s_) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(s_); }
  int height() const { return cairo_image_surface_get_height(s_); }
  Pixel at(double x, double y) const {
    const unsigned char* d = cairo_image_surface_get_data(s_);
    const int stride = cairo_image_surface_get_stride(s_);
    std::uint32_t p = 0;
    std::memcpy(&p, d + static_cast<std::ptrdiff_t>(std::lround(y)) * stride + 4 * std::lround(x), 4);
    return {static_cast<int>(p >> 16 & 0xFF), static_cast<int>(p >> 8 & 0xFF), static_cast<int>(p & 0xFF)};
  }

 private:
  cairo_surface_t* s_;
};

const char* kWythoff =
    "game W { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b"
    "  move (a - k, b - k) for k in 1..min(a, b) }\n";

// Wythoff's P-positions: (floor(k phi), floor(k phi) + k) and their mirror images.
bool wythoff_p(int a, int b) {
  if (a > b) std::swap(a, b);
  const double phi = (1 + std::sqrt(5.0)) / 2;
  const int k = b - a;
  return a == static_cast<int>(std::floor(k * phi));
}

lang::GridPicture layout(int nx, int ny) {
  lang::GridPicture g;
  for (int i = 0; i < nx; ++i) g.xs.push_back(i);
  for (int j = 0; j < ny; ++j) g.ys.push_back(j);
  return g;
}

}  // namespace

TEST_CASE("plot draws Wythoff's outcomes as a grid: its dark cells are the P-positions", "[fast][plot]") {
  const std::string path = temp_file("wythoff.png");
  const std::string out =
      test::run_ok(std::string(kWythoff) + "plot(\"" + path + "\", outcome(W(a, b)) for a in 0..12 for b in 0..9)\n");
  CHECK(out == path + ": 13 x 10 values of outcome(W(a, b))\n");
  const Png png(path);
  REQUIRE(png.ok());
  CHECK(png.width() == 780);
  CHECK(png.height() == 660);
  const lang::GridPicture g = layout(13, 10);
  int dark = 0;
  for (int a = 0; a <= 12; ++a) {
    for (int b = 0; b <= 9; ++b) {
      const auto [x, y] = lang::grid_cell_centre(g, static_cast<std::size_t>(a), static_cast<std::size_t>(b));
      const Pixel p = png.at(x, y);
      INFO("cell (" << a << ", " << b << ") is " << p.r << ", " << p.g << ", " << p.b);
      CHECK((p.r < 80) == wythoff_p(a, b));
      dark += p.r < 80;
    }
  }
  CHECK(dark == 8);  // (0, 0), (1, 2), (2, 1), (3, 5), (5, 3), (4, 7), (7, 4), and (10, 6), not (6, 10)
  std::filesystem::remove(path);
}

TEST_CASE("plot colours a grid of nim-values by value: equal values, equal colours", "[fast][plot]") {
  const std::string path = temp_file("nim.png");
  // The nim-value of two heaps is a xor b: 0 on the diagonal, 7 at (3, 4) and (2, 5).
  test::run_ok("plot(\"" + path + "\", a xor b for a in 0..7 for b in 0..7)\n");
  const Png png(path);
  REQUIRE(png.ok());
  const lang::GridPicture g = layout(8, 8);
  auto colour = [&](int a, int b) {
    const auto [x, y] = lang::grid_cell_centre(g, static_cast<std::size_t>(a), static_cast<std::size_t>(b));
    const Pixel p = png.at(x, y);
    return std::array<int, 3>{p.r, p.g, p.b};
  };
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      for (int c = 0; c < 8; ++c) {
        for (int d = 0; d < 8; ++d) CHECK((colour(a, b) == colour(c, d)) == ((a ^ b) == (c ^ d)));
      }
    }
  }
  CHECK(colour(0, 0) == std::array<int, 3>{68, 1, 84});      // the scale's least: viridis at 0
  CHECK(colour(3, 4) == std::array<int, 3>{253, 231, 37});   // its most
  std::filesystem::remove(path);
}

TEST_CASE("plot writes a sequence as SVG or PNG by the file's extension", "[fast][plot]") {
  const std::string svg = temp_file("seq.svg"), png = temp_file("seq.png");
  const std::string game = "game S = subtraction {1, 3, 4}\n";
  CHECK(test::run_ok(game + "plot(\"" + svg + "\", grundy(S(n)) for n in 0..99999)\n") ==
        svg + ": 100000 values of grundy(S(n))\n");
  const std::string text = test::read_file(svg);
  CHECK(text.rfind("<?xml", 0) == 0);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("</svg>") != std::string::npos);
  CHECK(text.size() < 2'000'000);
  test::run_ok(game + "plot(\"" + png + "\", grundy(S(n)) for n in 0..100)\n");
  const Png p(png);
  REQUIRE(p.ok());
  CHECK(p.width() == 960);
  CHECK(p.height() == 480);
  std::filesystem::remove(svg);
  std::filesystem::remove(png);
}

TEST_CASE("plot marks a proven period where it starts, and nothing where none is proven", "[fast][plot]") {
  const std::string kayles = temp_file("kayles.png"), grundys = temp_file("grundys.png");
  test::run_ok("import octal\nplot(\"" + kayles + "\", grundy(Kayles(n)) for n in 0..100)\n");
  test::run_ok("game G { state n  split [a, n - a] for a in 1..(n - 1) / 2 }\n"
               "plot(\"" + grundys + "\", grundy(G(n)) for n in 0..100)\n");
  lang::SequencePicture pic;
  for (int n = 0; n <= 100; ++n) pic.x.push_back(n);
  // The mark is orange and dashed: some of the column's pixels from top to bottom are orange.
  auto marked = [&](const Png& png, std::int64_t n) {
    const double x = lang::sequence_x(pic, n);
    for (int y = 50; y < 420; ++y) {
      for (double dx : {-0.5, 0.0, 0.5}) {
        const Pixel p = png.at(x + dx, y);
        if (p.r > 180 && p.g > 60 && p.g < 130 && p.b < 60) return true;
      }
    }
    return false;
  };
  const Png k(kayles), g(grundys);
  REQUIRE(k.ok());
  REQUIRE(g.ok());
  CHECK(marked(k, 71));  // Kayles: period 12 from 71 (Guy and Smith)
  CHECK_FALSE(marked(k, 60));
  CHECK_FALSE(marked(g, 71));  // Grundy's game has no known period
  std::filesystem::remove(kayles);
  std::filesystem::remove(grundys);
}

#endif  // GRUNDY_HAVE_CAIRO

TEST_CASE("plot says what it cannot draw, and where", "[fast][plot][errors]") {
  const auto ext = test::run_source("plot(\"values.txt\", n for n in 1..3)\n");
  if (lang::can_draw()) {
    CHECK(ext.code == kExitRuntime);
    CHECK(test::contains(ext.err, "plot writes .svg or .png files"));
  }
  const auto kind = test::run_source("plot(\"k.svg\", [n] for n in 1..3)\n");
  CHECK(kind.code == kExitRuntime);
  const auto none = test::run_source("plot(\"a.svg\", 3)\n");
  CHECK(none.code == kExitCompile);
  CHECK(test::contains(none.err, "plot needs a file and a generator"));
  // A generator after another argument is plot's alone.
  const auto min = test::run_source("min(3, n for n in 1..3)\n");
  CHECK(min.code == kExitCompile);
  CHECK(test::contains(min.err, "a generator must be the only argument of min"));
  // The file is outside the generator: its names are not bound there.
  const auto file = test::run_source("plot(n, n for n in 1..3)\n");
  CHECK(file.code == kExitCompile);
  CHECK(test::contains(file.err, "unknown name 'n'"));
  CHECK(test::run_ok("sum(n for n in 1..3)\n") == "6\n");
}
