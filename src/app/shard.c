#include "app/shard.h"

#include <stdlib.h>
#include <string.h>

bool hg_shard_parse(const char *text, hg_shard *out) {
  unsigned long v[2];
  const char *p = text;
  for (int i = 0; i < 2; i++) {
    if (*p < '0' || *p > '9') return false;
    char *end;
    v[i] = strtoul(p, &end, 10);
    if (end - p > 5 || (i == 0 ? *end != '/' : *end != '\0')) return false;
    p = end + 1;
  }
  if (v[0] < 1 || v[0] > v[1] || v[1] > HG_SHARD_MAX) return false;
  *out = (hg_shard){.k = (unsigned)v[0], .n = (unsigned)v[1]};
  return true;
}

bool hg_shard_holds(const hg_shard *self, const char *relpath) {
  if (!self || self->n == 0) return true;
  return hg_hash(relpath, strlen(relpath)) % self->n == self->k - 1;
}

static bool holds_path(const hg_shard *self, hg_repo *repo, const char *path) {
  char *rel = hg_repo_relpath(repo, path);
  bool in = hg_shard_holds(self, rel);
  free(rel);
  return in;
}

void hg_shard_keep_paths(const hg_shard *self, hg_repo *repo, hg_paths *paths) {
  if (!self || self->n == 0) return;
  size_t w = 0;
  for (size_t i = 0; i < paths->len; i++)
    if (holds_path(self, repo, paths->items[i])) paths->items[w++] = paths->items[i];
    else free(paths->items[i]);
  paths->len = w;
}

void hg_shard_keep_errors(const hg_shard *self, hg_repo *repo, hg_file_errors *errors) {
  if (!self || self->n == 0) return;
  size_t w = 0;
  for (size_t i = 0; i < errors->len; i++) {
    hg_file_error *e = &errors->items[i];
    if (holds_path(self, repo, e->path)) {
      errors->items[w++] = *e;
    } else {
      free(e->path);
      free(e->message);
    }
  }
  errors->len = w;
}

void hg_shard_keep_relaxations(const hg_shard *self, hg_repo *repo, hg_relaxations *relaxations) {
  if (!self || self->n == 0) return;
  size_t w = 0;
  for (size_t i = 0; i < relaxations->len; i++) {
    hg_relaxation *r = &relaxations->items[i];
    if (holds_path(self, repo, r->path)) {
      relaxations->items[w++] = *r;
    } else {
      free(r->path);
      free(r->message);
      free(r->reason);
    }
  }
  relaxations->len = w;
}

char *hg_shard_automation_id(const hg_shard *self) {
  if (!self || self->n == 0) return NULL;
  return hg_xasprintf("hardguard/shard-%u-of-%u/", self->k, self->n);
}
