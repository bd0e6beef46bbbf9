#include "base/argv.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/util.h"

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static bool ends_command(char c) { return c == ';' || c == '&' || c == '|' || c == '\n'; }

void hg_argv_split(hg_argv_words *out, const char *s) { hg_argv_split_next(out, s, NULL); }

const char *hg_argv_split_next(hg_argv_words *out, const char *s, bool *closed) {
  hg_buf word = {0};
  bool in_word = false;
  if (closed) *closed = true;
  const char *p = s;
  for (;; p++) {
    char c = *p;
    if (c == '\0' || is_space(c) || ends_command(c)) {
      if (in_word) HG_VEC_PUSH(out, hg_buf_detach(&word));
      in_word = false;
      if (c == '\0' || ends_command(c)) break;
      continue;
    }
    if (c == '#' && !in_word) {
      while (p[1] && p[1] != '\n') p++;  // a comment, to the end of the line
      continue;
    }
    if (c == '\\' && p[1] == '\n' && !in_word) {
      p++;  // a line continuation between words
      continue;
    }
    in_word = true;
    if (c == '\\' && p[1]) {
      // Backslash-newline is a line continuation; any other escaped byte is literal.
      if (p[1] != '\n') hg_buf_putc(&word, p[1]);
      p++;
    } else if (c == '\'') {
      for (p++; *p && *p != '\''; p++) hg_buf_putc(&word, *p);
      hg_buf_add(&word, "", 0);
      if (!*p) {  // unterminated: take the rest as the word
        p--;
        if (closed) *closed = false;
      }
    } else if (c == '"') {
      for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`')) p++;
        hg_buf_putc(&word, *p);
      }
      hg_buf_add(&word, "", 0);
      if (!*p) {
        p--;
        if (closed) *closed = false;
      }
    } else {
      hg_buf_putc(&word, c);
    }
  }
  hg_buf_free(&word);
  return p;
}

