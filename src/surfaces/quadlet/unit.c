#include "surfaces/quadlet/unit.h"

#include <stdlib.h>
#include <string.h>

typedef HG_VEC(hg_unit_entry) entry_vec;
typedef HG_VEC(hg_unit_comment) comment_vec;

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The line from `at` to its end (without the newline): *end, and the offset after it.
static size_t line_end(const char *data, size_t len, size_t at) {
  const char *nl = memchr(data + at, '\n', len - at);
  return nl ? (size_t)(nl - data) : len;
}

void hg_unit_read(hg_unit *out, const char *data, size_t len, hg_arena *arena) {
  *out = (hg_unit){0};
  entry_vec entries = {0};
  comment_vec comments = {0};
  HG_VEC(const char *) sections = {0};
  HG_VEC(uint32_t) section_lines = {0}, section_bytes = {0};
  const char *section = NULL;
  uint32_t line = 1;
  hg_buf value = {0};
  for (size_t at = 0; at < len;) {
    size_t end = line_end(data, len, at), a = at;
    uint32_t here = line;
    at = end < len ? end + 1 : len;
    line++;
    while (a < end && blank(data[a]))
      a++;
    size_t b = end;
    while (b > a && blank(data[b - 1]))
      b--;
    if (a == b)
      continue;
    if (data[a] == '#' || data[a] == ';') {
      hg_unit_comment c = {here, (uint32_t)a, hg_arena_strndup(arena, data + a, b - a)};
      HG_VEC_PUSH(&comments, c);
      continue;
    }
    if (data[a] == '[') {
      const char *close = memchr(data + a, ']', b - a);
      if (close && (size_t)(close - data) == b - 1) {
        section = hg_arena_strndup(arena, data + a + 1, b - a - 2);
        HG_VEC_PUSH(&sections, section);
        HG_VEC_PUSH(&section_lines, here);
        HG_VEC_PUSH(&section_bytes, (uint32_t)a);
        continue;
      }
    }
    const char *eq = memchr(data + a, '=', b - a);
    if (!eq || eq == data + a) {
      if (!out->bad_line)
        out->bad_line = here, out->bad_byte = (uint32_t)a;
      continue;
    }
    size_t k = (size_t)(eq - data);
    while (k > a && blank(data[k - 1]))
      k--;
    hg_unit_entry e = {.section = section, .key = hg_arena_strndup(arena, data + a, k - a), .line = here,
                       .byte = (uint32_t)a};
    // The value, continued while a line ends in a backslash.
    value.len = 0;
    size_t v = (size_t)(eq - data) + 1;
    while (v < b && blank(data[v]))
      v++;
    for (;;) {
      bool more = b > v && data[b - 1] == '\\';
      hg_buf_add(&value, data + v, (more ? b - 1 : b) - v);
      if (!more || at >= len)
        break;
      hg_buf_add(&value, " ", 1);
      // The next line that is not a comment continues it.
      for (;;) {
        end = line_end(data, len, at);
        v = at;
        at = end < len ? end + 1 : len;
        line++;
        while (v < end && blank(data[v]))
          v++;
        b = end;
        while (b > v && blank(data[b - 1]))
          b--;
        if (v < b && (data[v] == '#' || data[v] == ';') && at < len)
          continue;
        break;
      }
    }
    e.value = hg_arena_strndup(arena, value.data ? value.data : "", value.len);
    HG_VEC_PUSH(&entries, e);
  }
  hg_buf_free(&value);
  out->entries = hg_arena_alloc(arena, (entries.len ? entries.len : 1) * sizeof(hg_unit_entry));
  if (entries.len)
    memcpy(out->entries, entries.items, entries.len * sizeof(hg_unit_entry));
  out->n_entries = entries.len;
  out->comments = hg_arena_alloc(arena, (comments.len ? comments.len : 1) * sizeof(hg_unit_comment));
  if (comments.len)
    memcpy(out->comments, comments.items, comments.len * sizeof(hg_unit_comment));
  out->n_comments = comments.len;
  size_t ns = sections.len ? sections.len : 1;
  out->sections = hg_arena_alloc(arena, ns * sizeof(char *));
  out->section_lines = hg_arena_alloc(arena, ns * sizeof(uint32_t));
  out->section_bytes = hg_arena_alloc(arena, ns * sizeof(uint32_t));
  for (size_t i = 0; i < sections.len; i++) {
    out->sections[i] = sections.items[i];
    out->section_lines[i] = section_lines.items[i];
    out->section_bytes[i] = section_bytes.items[i];
  }
  out->n_sections = sections.len;
  free(entries.items);
  free(comments.items);
  free(sections.items);
  free(section_lines.items);
  free(section_bytes.items);
}
