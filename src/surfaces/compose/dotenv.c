/* The `.env` beside a compose file (dotenv.h). */
#include "surfaces/compose/dotenv.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool name_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-'; }
static bool blank(char c) { return c == ' ' || c == '\t'; }

// The value of one line from `s` (just past '=') to `e` (the line's end) into `out`; false when it
// interpolates (a `$` outside single quotes) and so is not kept.
static bool value_of(const char *s, const char *e, hg_buf *out) {
  while (s < e && blank(*s))
    s++;
  if (s < e && *s == '\'') {
    const char *q = memchr(s + 1, '\'', (size_t)(e - s - 1));
    hg_buf_add(out, s + 1, (size_t)((q ? q : e) - s - 1));
    return true;
  }
  if (s < e && *s == '"') {
    for (s++; s < e && *s != '"'; s++) {
      if (*s == '$')
        return false;
      if (*s == '\\' && s + 1 < e) {
        s++;
        hg_buf_putc(out, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s);
      } else {
        hg_buf_putc(out, *s);
      }
    }
    return true;
  }
  const char *end = s;
  for (const char *p = s; p < e; p++) {
    if (*p == '#' && p > s && blank(p[-1]))
      break;
    if (*p == '$')
      return false;
    if (!blank(*p))
      end = p + 1;
  }
  hg_buf_add(out, s, (size_t)(end - s));
  return true;
}

void hg_dotenv_parse(hg_dotenv *out, hg_arena *arena, const char *text, size_t len, const char *path) {
  HG_VEC(const char *) names = {0}, values = {0};
  HG_VEC(uint32_t) lines = {0};
  uint32_t line = 0;
  for (const char *p = text, *end = text + len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    if (e > p && e[-1] == '\r')
      e--;
    line++;
    const char *s = p;
    p = nl ? nl + 1 : end;
    while (s < e && blank(*s))
      s++;
    if (e - s > 7 && !memcmp(s, "export", 6) && blank(s[6]))
      for (s += 6; s < e && blank(*s);)
        s++;
    if (s == e || *s == '#' || !name_start(*s))
      continue;
    const char *n = s;
    while (s < e && name_char(*s))
      s++;
    size_t n_len = (size_t)(s - n);
    while (s < e && blank(*s))
      s++;
    if (s == e || *s != '=')
      continue;
    hg_buf v = {0};
    if (value_of(s + 1, e, &v)) {
      HG_VEC_PUSH(&names, hg_arena_strndup(arena, n, n_len));
      HG_VEC_PUSH(&values, hg_arena_strndup(arena, v.data ? v.data : "", v.len));
      HG_VEC_PUSH(&lines, line);
    }
    hg_buf_free(&v);
  }
  *out = (hg_dotenv){.path = path, .n = names.len};
  out->names = hg_arena_alloc(arena, (names.len ? names.len : 1) * sizeof(char *));
  out->values = hg_arena_alloc(arena, (names.len ? names.len : 1) * sizeof(char *));
  out->lines = hg_arena_alloc(arena, (names.len ? names.len : 1) * sizeof(uint32_t));
  hg_table_init(&out->index, arena, names.len);
  for (size_t i = 0; i < names.len; i++) {
    out->names[i] = names.items[i], out->values[i] = values.items[i], out->lines[i] = lines.items[i];
    *hg_table_put(&out->index, out->names[i], strlen(out->names[i]), NULL) = i; // the last line wins
  }
  free(names.items);
  free(values.items);
  free(lines.items);
}

void hg_dotenv_load(hg_dotenv *out, hg_arena *arena, const char *compose_path) {
  *out = (hg_dotenv){0};
  char *dir = hg_path_dir(compose_path);
  char *path = hg_arena_printf(arena, "%s/.env", dir);
  free(dir);
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > HG_DOTENV_MAX_BYTES)
    return;
  char *text;
  size_t len;
  hg_error err = {0};
  if (hg_read_file(&text, &len, path, &err) != 0 || len > HG_DOTENV_MAX_BYTES) {
    free(text);
    return;
  }
  hg_dotenv_parse(out, arena, text, len, path);
  free(text);
}

const char *hg_dotenv_get(const hg_dotenv *self, const char *name, size_t len, uint32_t *line) {
  const size_t *i = self && self->n ? hg_table_get(&self->index, name, len) : NULL;
  if (!i)
    return NULL;
  if (line)
    *line = self->lines[*i];
  return self->values[*i];
}
