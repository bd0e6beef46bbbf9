#include "rules/queryprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

size_t hg_query_stacked_quantifier(const char *text, size_t len) {
  char prev = 0;  // the character before, outside comments and strings
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (c == ';') {
      while (i < len && text[i] != '\n') i++;
      prev = '\n';
      continue;
    }
    if (c == '"') {
      for (i++; i < len && text[i] != '"'; i++)
        if (text[i] == '\\') i++;
      prev = '"';
      continue;
    }
    bool quantifier = c == '?' || c == '*' || c == '+';
    if (quantifier && (prev == '?' || prev == '*' || prev == '+')) return i;
    prev = c;
  }
  return len;
}

int hg_query_probe(const TSLanguage *language, const char *text, uint32_t len, unsigned seconds, hg_error *err) {
  // The child says it survived with one byte on a pipe: its exit status alone could be a tool's
  // (valgrind's error exit code in a forked child), not the compilation's.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return hg_error_set(err, "cannot try the query: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return hg_error_set(err, "cannot fork to try the query: %s", strerror(errno));
  }
  if (pid == 0) {
    // The child: default signal dispositions (no sanitizer or fuzzer handler reporting its death
    // as the parent's), a deadline, the compilation, and nothing else.
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM, SIGTRAP};
    for (size_t i = 0; i < HG_ARRAY_LEN(sigs); i++) signal(sigs[i], SIG_DFL);
    int null = open("/dev/null", O_WRONLY);  // the library's assertion text: the parent explains
    if (null >= 0) dup2(null, STDERR_FILENO);
    close(fds[0]);
    alarm(seconds);
    uint32_t eoff;
    TSQueryError etype;
    TSQuery *q = ts_query_new(language, text, len, &eoff, &etype);
    (void)q;
    ssize_t w = write(fds[1], "k", 1);
    _exit(w == 1 ? 0 : 1);
  }
  close(fds[1]);
  char byte;
  ssize_t got;
  while ((got = read(fds[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return hg_error_set(err, "cannot wait for the query's trial: %s", strerror(errno));
  if (got == 1) return 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    return hg_error_set(err,
                        "libtree-sitter took over %u s to compile this query (simplify it: fewer "
                        "quantified or alternative steps per pattern)",
                        seconds);
  if (WIFSIGNALED(status))
    return hg_error_set(err,
                        "libtree-sitter crashed compiling this query (%s); it is malformed in a way the "
                        "library does not report (a predicate as an alternative, a quantifier on a "
                        "quantifier)",
                        strsignal(WTERMSIG(status)));
  return hg_error_set(err, "libtree-sitter failed compiling this query (exit %d)", WEXITSTATUS(status));
}
