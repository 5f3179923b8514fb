// plot()'s pictures (lang/PlotDraw.hpp) drawn by the module grundy_plot.so (lang/PlotCairo.cpp),
// loaded at the first picture rather than linked: a run that draws nothing does not load cairo
// and the fifteen libraries it pulls in.
#include "lang/PlotDraw.hpp"

#ifdef GRUNDY_HAVE_CAIRO
#include <dlfcn.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "lang/PlotLayout.hpp"
#include "lang/PlotModule.hpp"

namespace grundy::lang {

double sequence_x(const SequencePicture& pic, std::int64_t n) {
  const auto [lo, hi] = layout::x_range(pic);
  const layout::Frame& f = layout::kSequenceFrame;
  return f.left + (static_cast<double>(n) - lo) / (hi - lo) * (f.right - f.left);
}

std::pair<double, double> grid_cell_centre(const GridPicture& pic, std::size_t i, std::size_t j) {
  const layout::Frame f = layout::grid_frame(pic.xs.size(), pic.ys.size());
  const double cw = (f.right - f.left) / static_cast<double>(pic.xs.size());
  const double ch = (f.bottom - f.top) / static_cast<double>(pic.ys.size());
  return {f.left + (static_cast<double>(i) + 0.5) * cw, f.bottom - (static_cast<double>(j) + 0.5) * ch};
}

namespace {

// The module's entry points once loaded, or why it could not be.
struct Module {
  plot_module::DrawSequence sequence = nullptr;
  plot_module::DrawGrid grid = nullptr;
  std::string why;
};

#ifdef GRUNDY_HAVE_CAIRO
// The folder of the running executable, with its '/': the module lies beside it, in
// ../lib/grundy/, in the build tree as where it is installed.
std::string executable_folder() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return {};
  std::string p(path, static_cast<std::size_t>(n));
  return p.substr(0, p.rfind('/') + 1);
}

Module load() {
  Module m;
  // GRUNDY_PLOT_MODULE when set; beside the executable; where this build put it; where it
  // installs it, and where the Debian package does (a program that embeds the language, or
  // an executable moved out of its tree).
  std::vector<std::string> places;
  if (const char* env = std::getenv("GRUNDY_PLOT_MODULE"); env != nullptr && *env != '\0') places.emplace_back(env);
  if (const std::string exe = executable_folder(); !exe.empty())
    places.push_back(exe + plot_module::kFromExecutable + plot_module::kFile);
  for (const char* p : {GRUNDY_PLOT_MODULE_BUILT, GRUNDY_PLOT_MODULE_INSTALLED, "/usr/lib/grundy/grundy_plot.so"}) {
    if (std::find(places.begin(), places.end(), p) == places.end()) places.emplace_back(p);
  }
  std::string tried;
  for (const std::string& place : places) {
    if (access(place.c_str(), F_OK) != 0) {
      tried += (tried.empty() ? "" : ", ") + place;
      continue;
    }
    // Never closed: it stays for the life of the process, as a linked library would.
    void* h = dlopen(place.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* e = dlerror();
      m.why = "cannot load the drawing module " + place + ": " + (e ? e : "dlopen failed");
      return m;
    }
    auto abi = reinterpret_cast<plot_module::Abi>(dlsym(h, "grundy_plot_abi"));
    m.sequence = reinterpret_cast<plot_module::DrawSequence>(dlsym(h, "grundy_plot_sequence"));
    m.grid = reinterpret_cast<plot_module::DrawGrid>(dlsym(h, "grundy_plot_grid"));
    if (abi == nullptr || m.sequence == nullptr || m.grid == nullptr || abi() != plot_module::kAbi) {
      m = Module{};
      m.why = "the drawing module " + place + " is from another build of grundy: rebuild or reinstall it";
    }
    return m;
  }
  m.why = std::string("cannot draw: the drawing module ") + plot_module::kFile + " is not installed (looked for " +
          tried + ")";
  return m;
}
#else
Module load() {
  Module m;
  m.why = "this grundy was built without cairo: it cannot draw pictures";
  return m;
}
#endif

const Module& module() {
  static std::once_flag once;
  static Module m;
  std::call_once(once, [] { m = load(); });
  return m;
}

template <class Draw, class Picture>
std::string draw_with(Draw draw, const Picture& pic, const std::string& file) {
  if (draw == nullptr) return module().why;
  char error[512] = "";
  draw(&pic, file.c_str(), error, sizeof error);
  return error;
}

}  // namespace

bool can_draw() { return module().sequence != nullptr; }
std::string why_cannot_draw() { return module().why; }

std::string draw_sequence(const SequencePicture& pic, const std::string& file) {
  return draw_with(module().sequence, pic, file);
}
std::string draw_grid(const GridPicture& pic, const std::string& file) {
  return draw_with(module().grid, pic, file);
}

}  // namespace grundy::lang
