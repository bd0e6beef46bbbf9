/* libFuzzer harness: the command-line parser. The input, split on NUL bytes, is the argument list
 * after the program name (at most 64 arguments); hg_cli_parse parses it as hardguard would and
 * runs nothing. Usage errors go to /dev/null. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { MAX_ARGS = 64 };

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (!(devnull = fopen("/dev/null", "w"))) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One copy holds every argument, each NUL-terminated, so that getopt sees separate strings
  // whose ends ASan can see too.
  char *copy = malloc(size + 1);
  memcpy(copy, data, size);
  copy[size] = '\0';
  char *argv[MAX_ARGS + 2];
  int argc = 0;
  argv[argc++] = "hardguard";
  for (size_t start = 0; start < size && argc <= MAX_ARGS;) {
    size_t n = strlen(copy + start);
    // Each argument gets its own allocation so an overread past one is caught.
    argv[argc] = malloc(n + 1);
    memcpy(argv[argc++], copy + start, n + 1);
    start += n + 1;
  }
  argv[argc] = NULL;
  (void)hg_cli_parse(argc, argv, devnull);
  for (int i = 1; i < argc; i++) free(argv[i]);
  free(copy);
  return 0;
}
