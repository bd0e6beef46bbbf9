#include <malloc.h>
#include <tree_sitter/api.h>

#include "base/grammar_alloc.h"
#include "cli/cli.h"

int main(int argc, char **argv) {
  // A worker's malloc heap (every thread but the first has its own) grows by at least 1 MB at a
  // time, not by the pages a request lacks: a pre-commit run's second worker grew its heap with 235
  // mprotect calls, 26 so. Pages reserved and not touched cost no memory.
  mallopt(M_TOP_PAD, 1 << 20);
  // Before anything is parsed: libtree-sitter's nodes come from the allocator the scanners use.
  ts_set_allocator(hg_grammar_malloc, hg_grammar_calloc, hg_grammar_realloc, hg_grammar_free);
  return hg_cli_main(argc, argv, stdout, stderr);
}
