// Loading a program and its imports: each file parsed once (a module imported twice is
// read once), imports depth first so that a module comes before the files that use it, and
// an import of a file still being loaded reported as a cycle.
#include "lang/Loader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lang/Parser.hpp"
#include "lang/SourceText.hpp"
#include "lang/Suggest.hpp"
#include "stdlib/Stdlib.hpp"

namespace grundy::lang {

namespace fs = std::filesystem;

Program& Loader::parse(int file, std::uint32_t from) {
  w_.programs.push_back(parse_program(w_.sources, file, diags_, from, w_.limits.max_memory, w_.limits.interrupt));
  return w_.programs.back();
}

void Loader::start(const std::string& key, const std::string& name) {
  importing_.assign(1, Loading{key, name});
  importing_keys_ = {key};
  read_failed_ = false;
}

// An import of a file that is being loaded: a.game -> b.game -> a.game.
bool Loader::import_cycle(const Stmt& s, const std::string& key) {
  if (!importing_keys_.contains(key)) return false;  // a chain of 100,000 imports is scanned once
  const auto first =
      std::find_if(importing_.begin(), importing_.end(), [&](const Loading& l) { return l.key == key; });
  if (first == importing_.end()) return false;
  std::string chain;
  for (auto it = first; it != importing_.end(); ++it) chain += it->name + " -> ";
  chain += first->name;
  diags_.error(s.where, "import cycle: " + chain,
               "files may not import each other in a circle: move what they share into a file "
               "that each of them imports");
  return true;
}

// Imports of `p`, depth first, so that a module comes before the files that use it.
void Loader::load_imports(Program& p, std::vector<Program*>& batch) {
  const SourceFile& from = w_.sources.file(p.file);
  for (const Stmt& s : p.stmts) {
    if (s.kind != Stmt::Kind::Import) continue;
    check_interrupt(w_.limits.interrupt);
    std::string key, name, dir, text;
    if (s.import_path) {
      fs::path path = fs::path(s.name).is_absolute() ? fs::path(s.name) : fs::path(from.dir) / s.name;
      std::error_code ec;
      fs::path canon = fs::weakly_canonical(path, ec);
      key = (ec ? path : canon).string();
      if (import_cycle(s, key) || already_loaded(key)) continue;
      // Only regular files: a FIFO or a device (/dev/zero, /dev/stdin) would block or never
      // end. Why a file cannot be read is said as `grundy run` says it.
      std::string why, hint;
      const fs::file_status st = fs::status(path, ec);
      if (ec && ec.value() != ENOENT) {
        why = ec.message();  // a loop of symbolic links, a folder we may not enter
      } else if (fs::is_directory(st)) {
        why = "it is a directory, not a .game file";
      } else if (!fs::exists(st)) {
        why = std::strerror(ENOENT);
        hint = "imports are relative to the importing file: looked for " + path.string();
      } else if (!fs::is_regular_file(st)) {
        why = "not a regular file (a FIFO or a device is not read)";
      }
      if (!why.empty()) {
        diags_.error(s.where, "cannot open '" + s.name + "': " + why, hint);
        continue;
      }
      SourceRead r = read_source_file(path.string(), max_source_bytes(w_.limits.max_memory),
                                     w_.limits.interrupt);
      if (!r.text) {
        read_failed_ = true;
        diags_.error(s.where, "cannot read '" + s.name + "': " + r.why);
        continue;
      }
      text = std::move(*r.text);
      name = path.lexically_normal().string();
      dir = path.parent_path().string();
    } else {
      const std::string_view* module = stdlib::find_module(s.name);
      if (!module) {
        std::string names;
        std::vector<std::string_view> modules;
        for (std::string_view m : stdlib::module_names()) {
          names += (names.empty() ? "" : ", ") + std::string(m);
          modules.push_back(m);
        }
        const std::string close = did_you_mean(s.name, modules);
        diags_.error(s.where, "unknown module '" + s.name + "'",
                     !close.empty() ? close
                                    : "the standard modules are " + names + "; for a file write import \"" +
                                          s.name + ".game\"");
        continue;
      }
      key = "stdlib:" + s.name;
      if (import_cycle(s, key) || already_loaded(key)) continue;
      text = std::string(*module);
      name = "<stdlib>/" + s.name + ".game";
    }
    w_.loaded.insert(key);
    Program& imported = parse(w_.sources.add(name, dir, std::move(text)));
    importing_.push_back({key, name});
    importing_keys_.insert(key);
    load_imports(imported, batch);
    importing_keys_.erase(key);
    importing_.pop_back();
    batch.push_back(&imported);
  }
}

bool Loader::already_loaded(const std::string& key) const {
  return w_.loaded.contains(key);
}

}  // namespace grundy::lang
