#include "app/gate.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/configref.h"
#include "app/project.h"

void hg_gate_init(hg_gate *self, const hg_config *c) {
  const char *path = c->path ? c->path : ".hardguard.yml";
  for (size_t i = 0; i < c->n_exclude; i++) {
    char *msg = hg_xasprintf("`exclude: %s`: the files it matches are not checked", c->exclude[i]);
    hg_relaxations_add(&self->in_force, path, c->exclude_lines ? c->exclude_lines[i] : 0, HG_RELAX_EXCLUDE, msg, NULL);
    free(msg);
  }
  for (size_t i = 0; i < c->n_allow; i++) {
    const hg_allowance *a = &c->allow[i];
    hg_buf b = {0};
    hg_buf_puts(&b, "`allow:` relaxes ");
    for (size_t r = 0; r < a->n_requirements; r++)
      hg_buf_printf(&b, "%s%s", r ? ", " : "", a->requirements[r]);
    hg_buf_puts(&b, " for ");
    for (size_t g = 0; g < a->n_paths; g++)
      hg_buf_printf(&b, "%s`%s`", g ? ", " : "", a->paths[g]);
    hg_relaxations_add(&self->in_force, path, a->line, HG_RELAX_ALLOW, b.data, a->reason);
    hg_buf_free(&b);
  }
  for (int s = 0; s < hg_surface_count; s++) {
    if (!c->surface_off[s])
      continue;
    char *msg = hg_xasprintf("the `%s` surface is off: its files are not read", hg_surface_get((hg_surface_id)s)->id);
    hg_relaxations_add(&self->in_force, path, c->surface_line[s], HG_RELAX_SURFACE, msg, NULL);
    free(msg);
  }
  for (size_t i = 0; i < c->n_builders; i++) {
    if (!c->builders[i].trust)
      continue;
    self->trusted_builders++;
    char *msg = hg_xasprintf("the builder `%s` is taken at its word (`trust: true`): what it yields is not read",
                             c->builders[i].module);
    hg_relaxations_add(&self->in_force, path, c->builders[i].line, HG_RELAX_TRUST, msg, NULL);
    free(msg);
  }
}

void hg_gate_free(hg_gate *self) {
  if (!self)
    return;
  hg_relaxations_free(&self->in_force);
  hg_relaxations_free(&self->added);
}

int hg_gate_check_builders(const hg_config *config, const struct hg_projects *projects, hg_error *err) {
  for (size_t i = 0; i < config->n_builders; i++) {
    const hg_builder *b = &config->builders[i];
    if (b->trust || hg_projects_has_module(projects, b->module))
      continue;
    return hg_error_set(err,
                        "%s:%u: builders: '%s' is not a module of this project, so what it yields cannot be read; "
                        "a builder from an installed package needs `trust: true`",
                        config->path ? config->path : ".hardguard.yml", b->line, b->module);
  }
  return 0;
}

int hg_gate_check_empty(const char *const *paths, size_t n, const hg_config *config, size_t n_files, size_t excluded,
                        hg_error *err) {
  if (n_files || !excluded)
    return 0;
  hg_config *none = hg_config_empty(config->root);
  hg_paths all = {0};
  hg_file_errors errors = {0};
  hg_walk(paths, n, none, &all, &errors, NULL, NULL);
  size_t readable = all.len;
  hg_strvec_free(&all);
  hg_file_errors_free(&errors);
  hg_config_free(none);
  if (!readable)
    return 0;
  return hg_error_set(err,
                      "%s: `exclude` leaves nothing to check: it excludes %zu path%s holding all %zu file%s a "
                      "surface reads (pass --allow-empty if that is meant)",
                      config->path ? config->path : ".hardguard.yml", excluded, excluded == 1 ? "" : "s", readable,
                      readable == 1 ? "" : "s");
}

// Compares the markers of the files the run judges with their text in the commit.
static int review_markers(hg_gate *self, hg_repo *repo, const char *commit, const hg_paths *files, hg_error *err) {
  typedef struct {
    const char *path; // the caller's
    char *bytes;
    size_t len;
  } marked;
  HG_VEC(marked) heads = {0};
  hg_strings rels = {0};
  for (size_t i = 0; i < files->len; i++) {
    marked m = {.path = files->items[i]};
    hg_error ignored;
    // An unreadable file is the run's error already; a file without a marker relaxes nothing.
    if (hg_read_file(&m.bytes, &m.len, m.path, &ignored) != 0)
      continue;
    if (!memmem(m.bytes, m.len, "hardguard:", 10)) {
      free(m.bytes);
      continue;
    }
    HG_VEC_PUSH(&heads, m);
    HG_VEC_PUSH(&rels, hg_repo_relpath(repo, m.path));
  }
  hg_strings in_base = {0};
  hg_buf text = {0};
  int rc =
      rels.len ? hg_repo_ls_tree(repo, commit, (const char *const *)rels.items, rels.len, false, &in_base, err) : 0;
  for (size_t i = 0; rc == 0 && i < rels.len; i++) {
    bool found = hg_strings_contains(&in_base, rels.items[i]);
    text.len = 0;
    if (found && (rc = hg_repo_blob(repo, commit, rels.items[i], &text, err)) != 0)
      break;
    hg_gate_compare_markers(found ? (text.data ? text.data : "") : NULL, text.len, heads.items[i].bytes,
                            heads.items[i].len, heads.items[i].path, &self->added);
  }
  for (size_t i = 0; i < heads.len; i++)
    free(heads.items[i].bytes);
  free(heads.items);
  hg_buf_free(&text);
  hg_strvec_free(&in_base);
  hg_strvec_free(&rels);
  return rc;
}

static void unread(hg_gate *self, const char *path, const char *what, const hg_error *e) {
  char *msg = hg_xasprintf("%s cannot be compared with the base: %s", what, e->message);
  hg_relaxations_add(&self->added, path, 0, HG_RELAX_UNREAD, msg, NULL);
  free(msg);
}

int hg_gate_review(hg_gate *self, hg_repo *repo, const char *ref, const char *config_path, const char *start,
                   const hg_config *head, const char *baseline, const hg_paths *files, hg_error *err) {
  self->reviewed = true;
  char *commit = NULL;
  if (hg_repo_commit(repo, "--diff", ref, &commit, err) != 0)
    return -1;
  hg_config *base = NULL, *loaded = NULL;
  bool found;
  int rc = hg_configref_config(&base, &found, repo, commit, ref, config_path, start, err);
  if (rc == 0 && !head) {
    hg_error e;
    if ((config_path ? hg_config_load(&loaded, config_path, &e) : hg_config_discover(&loaded, start, &e)) == 0)
      head = loaded;
    else
      unread(self, config_path ? config_path : ".hardguard.yml", "the work tree's config", &e);
  }
  if (rc == 0 && head)
    hg_gate_compare_config(base, head, &self->added);
  if (rc == 0 && baseline) {
    hg_baseline b = {0}, h = {0};
    hg_error e;
    rc = hg_configref_baseline(&b, repo, commit, ref, baseline, true, err);
    if (rc == 0 && hg_baseline_load(&h, baseline, &e) == 0)
      hg_gate_compare_baseline(&b, &h, baseline, &self->added);
    else if (rc == 0 && access(baseline, F_OK) == 0)
      unread(self, baseline, "the baseline", &e);
    hg_baseline_free(&b);
    hg_baseline_free(&h);
  }
  if (rc == 0)
    rc = review_markers(self, repo, commit, files, err);
  hg_relaxations_sort(&self->added);
  hg_config_free(base);
  hg_config_free(loaded);
  free(commit);
  return rc;
}
