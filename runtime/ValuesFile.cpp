#include "runtime/ValuesFile.hpp"

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "runtime/Error.hpp"

namespace grundy {

namespace {

constexpr const char* kMagic = "grundy-values 1";

[[noreturn]] void cannot_write(const std::string& path, const char* what) {
  throw Error(ErrorKind::Runtime,
              "cannot write the values to " + path + ": " + what + " (" + std::strerror(errno) + ")",
              "check that the folder exists and has room");
}

// Values as little-endian bytes of `width` each (the machines Grundy runs on are little-endian
// as a rule; the loop keeps the file the same on any).
void put_values(std::ofstream& out, const DenseTable& t) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<char> buf;
  const int w = t.width();
  for (std::size_t from = 0; from < t.size(); from += kChunk) {
    const std::size_t to = std::min(t.size(), from + kChunk);
    buf.resize((to - from) * static_cast<std::size_t>(w));
    if constexpr (std::endian::native == std::endian::little) {
      t.visit([&](const auto& v) { std::memcpy(buf.data(), v.data() + from, buf.size()); });
    } else {
      for (std::size_t i = from; i < to; ++i) {
        const std::uint32_t x = t.get(i);
        for (int b = 0; b < w; ++b)
          buf[(i - from) * static_cast<std::size_t>(w) + static_cast<std::size_t>(b)] =
              static_cast<char>((x >> (8 * b)) & 0xFF);
      }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  }
}

}  // namespace

void ValuesFile::header(std::ofstream& out, const std::string& key, const Section& s) {
  out << "game " << s.game << "\ncode " << s.code << "\nkey " << key << "\nwidth " << s.width << "\nheaps "
      << s.heaps << '\n';
  if (s.mask) {
    char m[32];
    std::snprintf(m, sizeof m, "0x%x", s.mask);
    out << "rare " << m << ' ' << s.rare << '\n';
  }
  out << "end\n";
}

ValuesFile::ValuesFile(std::string load, std::string save, double every_seconds)
    : load_(std::move(load)), save_(std::move(save)), every_(every_seconds) {}

bool ValuesFile::read(bool missing_ok, std::string& error) {
  if (load_.empty()) return true;
  std::ifstream in(load_, std::ios::binary);
  if (!in) {
    if (missing_ok && errno == ENOENT) {
      last_ = load_ + " does not exist yet: every table starts from heap 0";
      return true;
    }
    error = "cannot read " + load_ + ": " + std::strerror(errno);
    return false;
  }
  auto bad = [&](const std::string& why) {
    error = load_ + " is not a file of values (" + why + ")";
    loaded_.clear();
    return false;
  };
  std::string line;
  if (!std::getline(in, line) || line != kMagic) return bad("its first line is not '" + std::string(kMagic) + "'");
  std::string said;
  while (true) {
    Section s;
    std::string key;
    bool ended = false;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string field;
      words >> field;
      std::string rest;
      std::getline(words >> std::ws, rest);
      if (field == "game") s.game = rest;
      else if (field == "code") s.code = rest;
      else if (field == "key") key = rest;
      else if (field == "width") s.width = std::atoi(rest.c_str());
      else if (field == "heaps") s.heaps = std::strtoull(rest.c_str(), nullptr, 10);
      else if (field == "rare") {
        std::istringstream r(rest);
        std::string mask;
        r >> mask >> s.rare;
        s.mask = static_cast<std::uint32_t>(std::strtoul(mask.c_str(), nullptr, 16));
      } else if (field == "end") {
        ended = true;
        break;
      } else if (field == kMagic || line.empty()) {
        continue;
      } else {
        return bad("a header line '" + line + "'");
      }
    }
    if (!ended) {
      if (key.empty() && s.game.empty()) break;  // the end of the file
      return bad("a header without its 'end'");
    }
    if (key.empty() || (s.width != 1 && s.width != 2 && s.width != 4)) return bad("a section without key or width");
    s.offset = static_cast<std::uint64_t>(in.tellg());
    DenseTable t;
    if (s.width > 1) t.widen_for(s.width == 2 ? 0xFFFFu : 0xFFFFFFFFu);
    t.reserve(static_cast<std::size_t>(s.heaps));
    std::vector<unsigned char> buf;
    constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
    for (std::uint64_t from = 0; from < s.heaps; from += kChunk) {
      const std::uint64_t n = std::min(kChunk, s.heaps - from);
      buf.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(s.width));
      if (!in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(buf.size()))) {
        return bad("the values of " + s.game + " stop short of " + std::to_string(s.heaps) + " heaps");
      }
      for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        std::uint32_t x = 0;
        for (int b = 0; b < s.width; ++b) x |= std::uint32_t{buf[i * static_cast<std::size_t>(s.width) + static_cast<std::size_t>(b)]} << (8 * b);
        t.push(x);
      }
    }
    said += (said.empty() ? "" : ", ") + s.game + " to heap " + std::to_string(s.heaps);
    sizes_[key] = s.heaps;
    if (load_ == save_) written_[key] = s;
    loaded_[key] = std::move(t);
  }
  last_ = "read " + load_ + ": " + (said.empty() ? std::string("no tables") : said);
  return true;
}

std::optional<DenseTable> ValuesFile::take(const std::string& key) {
  auto it = loaded_.find(key);
  if (it == loaded_.end()) return std::nullopt;
  DenseTable t = std::move(it->second);
  loaded_.erase(it);
  return t;
}

void ValuesFile::offer(const std::string& key, const std::string& game, const std::string& code,
                       const DenseTable& t, std::uint32_t mask, bool due) {
  if (save_.empty()) return;
  if (auto it = sizes_.find(key); it != sizes_.end() && it->second >= t.size()) return;  // nothing new
  if (!due) {
    const double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
    if (since < every_) return;
  }
  write(key, game, code, t, mask);
}

void ValuesFile::write(const std::string& key, const std::string& game, const std::string& code,
                       const DenseTable& t, std::uint32_t mask) {
  const std::string tmp = save_ + ".tmp";
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) cannot_write(save_, "cannot create its temporary file");
  out << kMagic << '\n';
  std::map<std::string, Section> now;
  // The other games' sections, from the file as it was.
  std::ifstream old(save_, std::ios::binary);
  std::vector<char> buf(std::size_t{1} << 20);
  for (const auto& [k, s] : written_) {
    if (k == key || !old) continue;
    header(out, k, s);
    Section moved = s;
    moved.offset = static_cast<std::uint64_t>(out.tellp());
    old.seekg(static_cast<std::streamoff>(s.offset));
    std::uint64_t left = s.heaps * static_cast<std::uint64_t>(s.width);
    while (left > 0) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size()));
      if (!old.read(buf.data(), static_cast<std::streamsize>(n))) cannot_write(save_, "its old values could not be read");
      out.write(buf.data(), static_cast<std::streamsize>(n));
      left -= n;
    }
    now[k] = moved;
  }
  Section s;
  s.game = game;
  s.code = code;
  s.width = t.width();
  s.heaps = t.size();
  s.mask = mask;
  if (mask) {
    for (std::size_t i = 1; i < t.size(); ++i) s.rare += (std::popcount(t.get(i) & mask) & 1) == 0 ? 1 : 0;
  }
  header(out, key, s);
  s.offset = static_cast<std::uint64_t>(out.tellp());
  put_values(out, t);
  out.close();
  if (!out) cannot_write(save_, "writing failed");
  old.close();
  if (std::rename(tmp.c_str(), save_.c_str()) != 0) cannot_write(save_, "cannot replace it");
  now[key] = s;
  written_ = std::move(now);
  sizes_[key] = t.size();
  last_write_ = std::chrono::steady_clock::now();
  last_ = "wrote " + save_ + ": " + game + " to heap " + std::to_string(t.size());
}

}  // namespace grundy
