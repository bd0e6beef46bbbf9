#include "rules/rulefile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/surface.h"

int hg_rule_file_cmp(const void *a, const void *b) {
  return strcmp(((const hg_rule_file *)a)->name, ((const hg_rule_file *)b)->name);
}

bool hg_rule_file_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

void hg_rule_files_add(hg_rule_files *files, const char *shown, const char *name, const char *data, size_t len) {
  hg_rule_file f = {hg_xstrdup(shown), hg_xstrdup(name), hg_xstrndup(data, len), len, 0, -1};
  HG_VEC_PUSH(files, f);
}

int hg_rule_files_read_dir(hg_rule_files *files, const char *dir, const char *sub, hg_error *err) {
  char *path = hg_xasprintf("%s/%s", dir, sub);
  DIR *d = opendir(path);
  if (!d && errno == ENOENT) {  // a surface without rules (or without facts) is not checked
    free(path);
    return 0;
  }
  if (!d) {
    hg_error_set(err, "%s: cannot open rules directory: %s", path, strerror(errno));
    free(path);
    return -1;
  }
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (!hg_rule_file_ends_with(e->d_name, ".scm") && !hg_rule_file_ends_with(e->d_name, ".yml")) continue;
    char *full = hg_xasprintf("%s/%s", path, e->d_name), *name = hg_xasprintf("%s/%s", sub, e->d_name);
    char *data;
    size_t len;
    rc = hg_read_file(&data, &len, full, err);
    if (rc == 0) {
      hg_rule_files_add(files, full, name, data, len);
      free(data);
    }
    free(full);
    free(name);
  }
  closedir(d);
  free(path);
  return rc;
}

// Every folder of a rules directory is a surface's: one that is not would be silently unread.
int hg_rule_files_check_folders(const char *dir, hg_error *err) {
  DIR *d = opendir(dir);
  if (!d) return 0;  // reading its policy.yml says why
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char *path = hg_xasprintf("%s/%s", dir, e->d_name);
    DIR *sub = opendir(path);
    if (sub) {
      closedir(sub);
      if (hg_surface_by_id(e->d_name) < 0) {
        hg_buf known = {0};
        hg_surface_list(&known);
        rc = hg_error_set(err, "%s: not the folder of a surface (%s)", path, known.data);
        hg_buf_free(&known);
      }
    }
    free(path);
  }
  closedir(d);
  return rc;
}

void hg_rule_files_free(hg_rule_files *files) {
  for (size_t i = 0; i < files->len; i++) {
    free(files->items[i].path);
    free(files->items[i].name);
    free(files->items[i].data);
  }
  free(files->items);
}

// The file holding byte `offset` of the combined query source.
const hg_rule_file *hg_rule_files_at(const hg_rule_files *files, uint32_t offset) {
  const hg_rule_file *f = &files->items[0];
  for (size_t i = 0; i < files->len; i++)
    if (files->items[i].offset <= offset) f = &files->items[i];
  return f;
}

// file:line:col of byte `offset` of the combined query source.
int hg_rule_files_error(hg_error *err, const hg_rule_files *files, uint32_t offset, const char *what) {
  const hg_rule_file *f = hg_rule_files_at(files, offset);
  uint32_t rel = offset - f->offset, line = 1, col = 1;
  for (uint32_t i = 0; i < rel && i < f->len; i++) {
    if (f->data[i] == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  return hg_error_set(err, "%s:%u:%u: %s", f->path, line, col, what);
}

char *hg_rule_file_kind(const char *name) {
  const char *base = hg_path_base(name);
  return hg_xstrndup(base, strlen(base) - 4);
}

bool hg_rule_file_is_fact(const char *name) { return strstr(name, "/facts/") != NULL; }
