// Tables of nim-values in a file (--save-values, --load-values, --checkpoint): what a native
// kernel computed, kept so that a long run can be resumed and its values read by other
// programs. The format (docs/values-file.md) is a text header and the values in binary, a
// section per game:
//
//   grundy-values 1
//   game GrundysGame
//   code 0.0 unequal 4
//   key 14
//   width 1
//   heaps 16777216
//   rare 0xfe 1090
//   end
//   <heaps * width bytes: the value of heap 0, 1, ..., little-endian>
//
// `key` is the code exactly (runtime/HeapSpec.hpp, HeapSpec::key): a table is handed only to
// a kernel of the same code, and the kernel checks its first heaps against it before it goes
// on from the table's end.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include "runtime/Dense.hpp"

namespace grundy {

class ValuesFile {
 public:
  // Tables read from `load` (when not empty), written to `save` (when not empty) at every
  // write(): every `every` seconds while a kernel fills its table, and when it stops.
  ValuesFile(std::string load, std::string save, double every_seconds);

  // Reads the tables of `load`; false with `error` set when it cannot (a missing file is no
  // error for a checkpoint: `missing_ok`).
  bool read(bool missing_ok, std::string& error);

  // The table saved for this code, handed over once (the kernel owns it from then on).
  std::optional<DenseTable> take(const std::string& key);

  // A kernel's table as it fills: written when the interval has passed (`due` false) or at
  // once (`due` true: the kernel stopped). Other games' sections are copied from the file as
  // it was, so that no table is held twice in memory. Throws Error (kind Io) when it cannot write.
  void offer(const std::string& key, const std::string& game, const std::string& code, const DenseTable& t,
             std::uint32_t mask, bool due);

  // What the last read or write did, for --explain.
  const std::string& last() const { return last_; }

 private:
  struct Section {
    std::string game, code;
    int width = 1;
    std::uint64_t heaps = 0;
    std::uint64_t offset = 0;  // of its values in the file written last
    std::uint32_t mask = 0;
    std::uint64_t rare = 0;
  };
  static void header(std::ofstream& out, const std::string& key, const Section& s);
  void write(const std::string& key, const std::string& game, const std::string& code, const DenseTable& t,
             std::uint32_t mask);

  std::string load_, save_;
  double every_;
  std::map<std::string, DenseTable> loaded_;
  std::map<std::string, Section> written_;  // the sections of save_ as last written
  std::map<std::string, std::uint64_t> sizes_;  // heaps of each game's table when last written
  std::chrono::steady_clock::time_point last_write_ = std::chrono::steady_clock::now();
  std::string last_;
};

}  // namespace grundy
