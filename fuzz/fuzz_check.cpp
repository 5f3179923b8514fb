// Parse + resolve + compile of arbitrary text, as `grundy check` does: whatever the bytes,
// the session answers 0 or 65, and every diagnostic has file:line:col, the line and a caret.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz/FuzzSupport.hpp"
#include "lang/Session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::ostringstream out, err;
  grundy::SessionOptions options;
  options.check_only = true;
  const int code = grundy::fuzz::run_on_big_stack([&] {
    grundy::Session session(out, err, options);
    return session.run_source(text, "fuzz.game");
  });
  if (!out.str().empty()) grundy::fuzz::contract_broken("grundy check printed on stdout", out.str());
  grundy::fuzz::check_run(code, err.str(), true);
  return 0;
}
