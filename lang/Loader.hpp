// Loading a program and its imports (lang/Loader.cpp): files relative to the importing file,
// and the standard modules built into the binary (stdlib/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lang/Diagnostics.hpp"
#include "lang/World.hpp"

namespace grundy::lang {

class Loader {
 public:
  Loader(World& world, Diagnostics& diags) : w_(world), diags_(diags) {}
  // A new batch, run from the file `key` (its canonical path; empty for text that is not a
  // file) that diagnostics call `name`: an import of it is a cycle.
  void start(const std::string& key, const std::string& name);
  // Parses the source `file` from byte `from` into a program the world keeps.
  Program& parse(int file, std::uint32_t from = 0);
  // The imports of `p` not loaded yet, parsed and added to `batch`, depth first.
  void load_imports(Program& p, std::vector<Program*>& batch);
  // An import could not be read (a read error, not a missing file): the batch fails with an
  // I/O error (exit 74) rather than a compile error. Cleared by start().
  bool read_failed() const { return read_failed_; }

 private:
  // An import of a file that is being loaded: a.game -> b.game -> a.game.
  bool import_cycle(const Stmt& s, const std::string& key);
  bool already_loaded(const std::string& key) const;

  World& w_;
  Diagnostics& diags_;
  bool read_failed_ = false;
  // The files being loaded, the file run first, then each import inside the one before.
  struct Loading {
    std::string key;   // as World::loaded keeps it
    std::string name;  // as diagnostics name the file
  };
  std::vector<Loading> importing_;
  absl::flat_hash_set<std::string> importing_keys_;  // the keys of importing_
};

}  // namespace grundy::lang
