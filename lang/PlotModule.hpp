// The boundary between grundy and its drawing module (grundy_plot.so, lang/PlotCairo.cpp),
// which lang/PlotDraw.cpp loads with dlopen at the first picture. Its entry points have C
// names, to be found by dlsym; the pictures cross it by pointer, read in place (the two sides
// are built together, from the same headers), and what went wrong comes back as text in the
// caller's buffer, so that no memory allocated on one side is freed on the other.
#pragma once

#include <cstddef>

#include "lang/PlotDraw.hpp"

namespace grundy::lang::plot_module {

// The module's file name, and where it lies from the executable's folder (bin/ beside lib/,
// as installed, and as the build tree lays them out).
inline constexpr const char* kFile = "grundy_plot.so";
inline constexpr const char* kFromExecutable = "../lib/grundy/";

// Raised when the pictures' structs or the entry points change: a module left over from
// another build is refused rather than read wrongly.
inline constexpr int kAbi = 1;

// int grundy_plot_abi(void)
using Abi = int (*)();
// void grundy_plot_sequence(const SequencePicture*, const char* file, char* error, size_t size):
// error gets "" when the picture was written.
using DrawSequence = void (*)(const SequencePicture*, const char*, char*, std::size_t);
// void grundy_plot_grid(const GridPicture*, const char* file, char* error, size_t size)
using DrawGrid = void (*)(const GridPicture*, const char*, char*, std::size_t);

}  // namespace grundy::lang::plot_module
