#include "model/surface.h"

#include <string.h>

#include "base/glob.h"

const hg_surface *hg_surface_get(hg_surface_id id) { return hg_surfaces[id]; }

void hg_surface_list(hg_buf *out) {
  for (int s = 0; s < hg_surface_count; s++)
    hg_buf_printf(out, "%s%s", s ? ", " : "", hg_surfaces[s]->id);
}

int hg_surface_by_id(const char *name) {
  for (int s = 0; s < hg_surface_count; s++)
    if (!strcmp(hg_surfaces[s]->id, name))
      return s;
  return -1;
}

static bool listed(const char *const *list, const char *s, size_t n) {
  for (; *list; list++)
    if (strlen(*list) == n && !memcmp(*list, s, n))
      return true;
  return false;
}

bool hg_surface_path_matches(const char *pattern, const char *path) {
  size_t slashes = 0;
  for (const char *p = pattern; *p; p++)
    slashes += *p == '/';
  const char *tail = path + strlen(path);
  for (size_t k = 0; k <= slashes; k++) {
    while (tail > path && tail[-1] != '/')
      tail--;
    if (k < slashes) {
      if (tail == path)
        return false;
      tail--;
    }
  }
  return hg_glob(pattern, tail, HG_GLOB_FNMATCH);
}

int hg_surface_by_name(const char *path) {
  const char *base = hg_path_base(path);
  const char *dot = strrchr(base, '.');
  for (int s = 0; s < hg_surface_count; s++) {
    for (const char *const *g = hg_surfaces[s]->names; *g; g++)
      if (hg_glob(*g, base, HG_GLOB_FNMATCH))
        return s;
    for (const char *const *g = hg_surfaces[s]->paths; *g; g++)
      if (hg_surface_path_matches(*g, path))
        return s;
    if (dot && dot != base && listed(hg_surfaces[s]->extensions, dot, strlen(dot)))
      return s;
  }
  return -1;
}

bool hg_surface_may_have_shebang(const char *path) {
  const char *base = hg_path_base(path);
  return strchr(base + (base[0] == '.'), '.') == NULL;
}

bool hg_surface_may_claim(const char *path) {
  const char *base = hg_path_base(path);
  for (int s = 0; s < hg_surface_count; s++)
    if (hg_surfaces[s]->claims && hg_surfaces[s]->claim_names)
      for (const char *const *g = hg_surfaces[s]->claim_names; *g; g++)
        if (hg_glob(*g, base, HG_GLOB_FNMATCH))
          return true;
  return false;
}

int hg_surface_by_content(const char *path, const char *data, size_t len) {
  const char *base = hg_path_base(path);
  for (int s = 0; s < hg_surface_count; s++)
    if (hg_surfaces[s]->claims && hg_surfaces[s]->claim_names)
      for (const char *const *g = hg_surfaces[s]->claim_names; *g; g++)
        if (hg_glob(*g, base, HG_GLOB_FNMATCH)) {
          if (hg_surfaces[s]->claims(data, len))
            return s;
          break;
        }
  return -1;
}

int hg_surface_of(const char *path, const char *data, size_t len, int by_name) {
  if (by_name >= 0)
    return by_name;
  int s = hg_surface_by_shebang(data, len);
  return s >= 0 ? s : hg_surface_by_content(path, data, len);
}

int hg_surface_by_shebang(const char *data, size_t len) {
  if (len < 3 || data[0] != '#' || data[1] != '!')
    return -1;
  size_t end = 2;
  while (end < len && end < 256 && data[end] != '\n')
    end++;
  return hg_surface_by_command(data + 2, end - 2);
}

int hg_surface_by_command(const char *cmd, size_t len) {
  // `/bin/sh -e`, ` /usr/bin/env bash`, `/usr/bin/env -S python3 -u`, `bash --noprofile {0}`: the
  // interpreter is the base name of the first word, or the first word after env (and its options)
  // when that is env.
  const char *p = cmd, *stop = cmd + len;
  bool after_env = false;
  for (;;) {
    while (p < stop && (*p == ' ' || *p == '\t'))
      p++;
    const char *w = p;
    while (p < stop && *p != ' ' && *p != '\t' && *p != '\r')
      p++;
    if (w == p)
      return -1;
    const char *b = w;
    for (const char *q = w; q < p; q++)
      if (*q == '/')
        b = q + 1;
    size_t n = (size_t)(p - b);
    if (after_env && *w == '-')
      continue; // env's own options (-S, -i)
    if (!after_env && n == 3 && !memcmp(b, "env", 3)) {
      after_env = true;
      continue;
    }
    // python3.11 names python3: drop a trailing version.
    while (n && ((b[n - 1] >= '0' && b[n - 1] <= '9') || b[n - 1] == '.'))
      n--;
    for (int s = 0; s < hg_surface_count; s++)
      for (const char *const *i = hg_surfaces[s]->interpreters; *i; i++) {
        size_t m = strlen(*i);
        while (m && (*i)[m - 1] >= '0' && (*i)[m - 1] <= '9')
          m--;
        if (m == n && !memcmp(*i, b, n))
          return s;
      }
    return -1;
  }
}
