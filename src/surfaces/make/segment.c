// The segments a Makefile is read in when its parse fails (segment.h).
#include "surfaces/make/segment.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/make/grammar.h"
#include "surfaces/embed.h"
#include "surfaces/node.h"

// The parse is recovered this many times in one file at most, and parses again at most twice the
// file's bytes in all (each recovery parses the rest of the file again, and tree-sitter's own
// error recovery is slow on a file of many errors: 3,000 broken lines cost 15 times one parse with
// 32 recoveries); past either, the rest is read as the last parse left it.
enum { MAX_RECOVERIES = 32, REPARSE_FACTOR = 2 };


static bool is_error(TSNode n) { return ts_node_is_missing(n) || !strcmp(ts_node_type(n), "ERROR"); }

// The first ERROR or MISSING node of the tree under `n` that starts at `from` or later, or a null node.
static TSNode next_error(TSNode n, uint32_t from) {
  if (ts_node_end_byte(n) < from || !ts_node_has_error(n))
    return (TSNode){0};
  if (is_error(n) && ts_node_start_byte(n) >= from)
    return n;
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode e = next_error(ts_node_child(n, i), from);
    if (!ts_node_is_null(e))
      return e;
  }
  return (TSNode){0};
}


// The statements of `tree` that hold an error, in order (one pass over the root's children).
void hg_make__broken_statements(TSTree *tree, hg_make_broken_vec *out) {
  TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
  if (ts_tree_cursor_goto_first_child(&cur))
    do {
      TSNode n = ts_tree_cursor_current_node(&cur);
      if (!ts_node_has_error(n) && !is_error(n))
        continue;
      hg_make_broken b = {.start = ts_node_start_byte(n), .end = ts_node_end_byte(n), .error = next_error(n, 0)};
      if (ts_node_is_null(b.error))
        b.error = n;
      HG_VEC_PUSH(out, b);
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  ts_tree_cursor_delete(&cur);
}

// The byte after the logical line holding byte `i` (its `\` continuations included).
uint32_t hg_make__line_end(const char *d, uint32_t len, uint32_t i) {
  while (i < len && d[i] != '\n')
    i++;
  while (i < len && i > 0 && d[i - 1] == '\\') {
    i++;
    while (i < len && d[i] != '\n')
      i++;
  }
  return i < len ? i + 1 : len;
}

static const char *const DIRECTIVES[] = {"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "define", "endef"};

// Does the line at `i` start a rule (`targets: ...`) or a variable assignment (`X = `, `:=`,
// `::=`, `?=`, `+=`, `!=`) at column 0?
static bool starts_statement(const char *d, uint32_t len, uint32_t i) {
  if (i >= len || d[i] == '\t' || d[i] == ' ' || d[i] == '#' || d[i] == '\n' || d[i] == ':' || d[i] == '=')
    return false;
  uint32_t w = i;
  while (i < len && !strchr(" \t\n:=#", d[i]) && !(strchr("?+!", d[i]) && i + 1 < len && d[i + 1] == '='))
    i++;
  for (size_t k = 0; k < HG_ARRAY_LEN(DIRECTIVES); k++)
    if (strlen(DIRECTIVES[k]) == i - w && !memcmp(d + w, DIRECTIVES[k], i - w))
      return false;
  // more targets, then the colon or the assignment
  while (i < len && d[i] != '\n' && d[i] != '#' && d[i] != ':' && d[i] != '=' &&
         !(strchr("?+!", d[i]) && i + 1 < len && d[i + 1] == '='))
    i++;
  return i < len && (d[i] == ':' || d[i] == '=' || strchr("?+!", d[i]));
}

// Splits the file into segments: where the parse of a segment fails on a line and the failure
// runs on past it (tree-sitter-make drops the rest of the file after some valid lines), the next
// segment is the file parsed again from the next line that starts a rule or an assignment.
void hg_make__segments(const hg_source *src, TSTree *tree, hg_make_segment_vec *out) {
  const char *d = src->data;
  uint32_t len = (uint32_t)src->len;
  hg_make_segment cur = {.lo = 0, .hi = len, .tree = tree};
  uint32_t from = 0;
  size_t reparsed = 0;
  TSParser *parser = NULL;
  hg_lines lines = {0};
  hg_arena *arena = NULL;
  hg_make_broken_vec bad = {0};
  hg_make__broken_statements(tree, &bad);
  for (size_t k = 0; k < bad.len && out->len < MAX_RECOVERIES; k++) {
    uint32_t a = ts_node_start_byte(bad.items[k].error), b = bad.items[k].end, end = hg_make__line_end(d, len, a);
    if (a < from)
      continue;
    uint32_t r = 0;
    if (b > end)
      for (uint32_t i = end; i < b && i < len && !r; i = hg_make__line_end(d, len, i))
        if (starts_statement(d, len, i))
          r = i;
    if (!r || reparsed + (len - r) > (size_t)REPARSE_FACTOR * len)
      continue;
    reparsed += len - r;
    if (!parser) {
      parser = ts_parser_new();
      ts_parser_set_language(parser, tree_sitter_make());
      arena = hg_arena_new();
      hg_lines_init(&lines, src, arena);
    }
    uint32_t last = len ? hg_lines_row(&lines, len - 1) : 0;
    TSRange range = {.start_point = {hg_lines_row(&lines, r), 0},
                     .end_point = {last + (len && d[len - 1] == '\n'), len && d[len - 1] == '\n' ? 0 : len - lines.start[last]},
                     .start_byte = r,
                     .end_byte = len};
    ts_parser_set_included_ranges(parser, &range, 1);
    TSTree *next = ts_parser_parse_string(parser, NULL, d, len);
    if (!next)
      break;
    cur.hi = r;
    HG_VEC_PUSH(out, cur);
    cur = (hg_make_segment){.lo = r, .hi = len, .tree = next};
    from = r;
    bad.len = 0;
    hg_make__broken_statements(next, &bad);
    k = (size_t)-1;
  }
  free(bad.items);
  HG_VEC_PUSH(out, cur);
  if (parser)
    ts_parser_delete(parser);
  if (arena)
    hg_arena_free(arena);
}
