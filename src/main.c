#include <tree_sitter/api.h>

#include "base/grammar_alloc.h"
#include "cli/cli.h"

int main(int argc, char **argv) {
  // Before anything is parsed: libtree-sitter's nodes come from the allocator the scanners use.
  ts_set_allocator(hg_grammar_malloc, hg_grammar_calloc, hg_grammar_realloc, hg_grammar_free);
  return hg_cli_main(argc, argv, stdout, stderr);
}
