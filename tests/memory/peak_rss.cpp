// Runs a command and holds it to a memory limit as the operating system measures it: the
// child's peak resident set (wait4's ru_maxrss), not what grundy estimates or counts. Used by
// the tests of --max-memory (tests/memory/CMakeLists.txt).
//
//   peak_rss MB CODE [--big-list N FILE] -- COMMAND ARGS...
//
// Fails (exit 1) unless COMMAND exits with CODE and its peak resident set stays within MB
// megabytes. --big-list first writes FILE, a program of one list literal of N numbers (a
// source of megabytes, too large to keep in the repository).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: peak_rss MB CODE [--big-list N FILE] -- COMMAND ARGS...\n");
    return 64;
  }
  const long limit_kb = std::atol(argv[1]) * 1024;
  const int want = std::atoi(argv[2]);
  int i = 3;
  if (std::strcmp(argv[i], "--big-list") == 0 && i + 2 < argc) {
    const long n = std::atol(argv[i + 1]);
    std::ofstream out(argv[i + 2]);
    out << "len([";
    for (long k = 0; k < n; ++k) out << (k ? ", " : "") << k;
    out << "])\n";
    i += 3;
  }
  if (std::strcmp(argv[i], "--") != 0) {
    std::fprintf(stderr, "peak_rss: expected -- before the command\n");
    return 64;
  }
  std::vector<char*> command(argv + i + 1, argv + argc);
  command.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execv(command[0], command.data());
    std::perror("peak_rss: exec");
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) {
    std::perror("peak_rss");
    return 1;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::printf("exit %d (want %d), peak resident set %ld KB (limit %ld KB)\n", code, want, usage.ru_maxrss,
              limit_kb);
  return code == want && usage.ru_maxrss <= limit_kb ? 0 : 1;
}
