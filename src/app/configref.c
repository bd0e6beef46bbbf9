#include "app/configref.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path.h"

int hg_configref_file(hg_buf *out, bool *found, hg_repo *repo, const char *commit, const char *relpath, hg_error *err) {
  *found = false;
  hg_strings listed = {0};
  const char *paths[] = {relpath};
  int rc = hg_repo_ls_tree(repo, commit, paths, 1, false, &listed, err);
  // ls-tree names a directory too: only a file is one.
  *found = rc == 0 && listed.len == 1 && !strcmp(listed.items[0], relpath);
  hg_strvec_free(&listed);
  if (rc == 0 && *found)
    rc = hg_repo_blob(repo, commit, relpath, out, err);
  return rc;
}

// `path` relative to the root, or -1 with err when it lies outside the repository.
static int inside(char **out, hg_repo *repo, const char *path, const char *what, hg_error *err) {
  *out = hg_repo_relpath(repo, path);
  if ((*out)[0] != '/')
    return 0;
  int rc = hg_error_set(err, "--config-from: %s %s is outside the repository %s", what, path, hg_repo_root(repo));
  free(*out);
  *out = NULL;
  return rc;
}

// Reads `path` (`what`, relative to the working directory) from the commit into b: its path
// relative to the root goes to *rel (free it), and *here is false when the commit has no such file.
static int read_in_commit(hg_buf *b, bool *here, char **rel, hg_repo *repo, const char *commit, const char *path,
                          const char *what, hg_error *err) {
  if (inside(rel, repo, path, what, err) != 0)
    return -1;
  if (hg_configref_file(b, here, repo, commit, *rel, err) == 0)
    return 0;
  free(*rel);
  *rel = NULL;
  return -1;
}

// Parses the config `relpath` of the commit, read into `bytes`; `root` is its work-tree directory.
static int parse_config(hg_config **out, const char *ref, const char *relpath, const hg_buf *bytes, const char *root,
                        hg_error *err) {
  char *name = hg_xasprintf("%s:%s", ref, relpath);
  int rc = hg_config_parse(out, name, bytes->data ? bytes->data : "", bytes->len, err);
  free(name);
  if (rc == 0) {
    free((*out)->root);
    (*out)->root = hg_xstrdup(root);
  }
  return rc;
}

// The explicit --config FILE, from the commit.
static int given_config(hg_config **out, bool *found, hg_repo *repo, const char *commit, const char *ref,
                        const char *path, hg_error *err) {
  char *rel;
  hg_buf b = {0};
  bool here;
  int rc = read_in_commit(&b, &here, &rel, repo, commit, path, "the config", err);
  if (rc == 0 && !here && !found)
    rc = hg_error_set(err, "--config-from: %s has no file %s", ref, rel);
  if (rc == 0 && !here) {
    *found = false;
    char *root = hg_path_dir(path);
    *out = hg_config_empty(root);
    free(root);
  } else if (rc == 0) {
    char *root = hg_path_dir(path);
    rc = parse_config(out, ref, rel, &b, root, err);
    free(root);
  }
  hg_buf_free(&b);
  free(rel);
  return rc;
}

int hg_configref_config(hg_config **out, bool *found, hg_repo *repo, const char *commit, const char *ref,
                        const char *path, const char *start, hg_error *err) {
  *out = NULL;
  if (found)
    *found = true;
  if (path)
    return given_config(out, found, repo, commit, ref, path, err);
  struct stat st;
  char *dir = stat(start, &st) == 0 && S_ISDIR(st.st_mode) ? hg_xstrdup(start) : hg_path_dir(start);
  char *rel = NULL;
  if (inside(&rel, repo, dir, "the path", err) != 0) {
    free(dir);
    return -1;
  }
  // The candidates, nearest first: rel/.hardguard.yml, its parent's, ..., the root's.
  hg_strings candidates = {0};
  for (char *d = strcmp(rel, ".") ? hg_xstrdup(rel) : NULL;;) {
    HG_VEC_PUSH(&candidates, d ? hg_xasprintf("%s/.hardguard.yml", d) : hg_xstrdup(".hardguard.yml"));
    if (!d)
      break;
    char *slash = strrchr(d, '/');
    if (slash) {
      *slash = '\0';
    } else {
      free(d);
      d = NULL;
    }
  }
  hg_strings listed = {0};
  int rc = hg_repo_ls_tree(repo, commit, (const char *const *)candidates.items, candidates.len, false, &listed, err);
  size_t ups = 0;
  const char *hit = NULL;
  for (; rc == 0 && ups < candidates.len && !hit; ups++)
    for (size_t k = 0; k < listed.len && !hit; k++)
      if (!strcmp(listed.items[k], candidates.items[ups]))
        hit = candidates.items[ups];
  if (rc == 0 && hit) {
    ups--;
    hg_buf root = {0}, bytes = {0};
    hg_buf_puts(&root, dir);
    for (size_t i = 0; i < ups; i++)
      hg_buf_puts(&root, "/..");
    rc = hg_repo_blob(repo, commit, hit, &bytes, err);
    if (rc == 0)
      rc = parse_config(out, ref, hit, &bytes, root.data, err);
    hg_buf_free(&root);
    hg_buf_free(&bytes);
  } else if (rc == 0) {
    // No config in the commit: the defaults, which relax nothing.
    if (found)
      *found = false;
    *out = hg_config_empty(dir);
  }
  hg_strvec_free(&listed);
  hg_strvec_free(&candidates);
  free(rel);
  free(dir);
  return rc;
}

int hg_configref_baseline(hg_baseline *out, hg_repo *repo, const char *commit, const char *ref, const char *path,
                          bool missing_ok, hg_error *err) {
  char *rel;
  hg_buf b = {0};
  bool found;
  int rc = read_in_commit(&b, &found, &rel, repo, commit, path, "the baseline", err);
  if (rc == 0 && !found && !missing_ok)
    rc = hg_error_set(err, "--config-from: %s has no baseline %s (commit it there first)", ref, rel);
  if (rc == 0 && found) {
    char *name = hg_xasprintf("%s:%s", ref, rel);
    rc = hg_baseline_parse(out, name, b.data ? b.data : "", b.len, err);
    free(name);
  }
  hg_buf_free(&b);
  free(rel);
  return rc;
}

// Creates the directories of `path` below `base`.
static int make_parents(const char *base, const char *path, hg_error *err) {
  char *full = hg_xasprintf("%s/%s", base, path);
  int rc = 0;
  for (char *p = full + strlen(base) + 1; (p = strchr(p, '/')) != NULL; p++) {
    *p = '\0';
    if (mkdir(full, 0700) != 0 && errno != EEXIST)
      rc = hg_error_set(err, "cannot create %s: %s", full, strerror(errno));
    *p = '/';
    if (rc)
      break;
  }
  free(full);
  return rc;
}

int hg_configref_rules(char **out, hg_repo *repo, const char *commit, const char *ref, const char *dir, hg_error *err) {
  *out = NULL;
  char *rel;
  if (inside(&rel, repo, dir, "the rules directory", err) != 0)
    return -1;
  hg_strings files = {0};
  const char *paths[] = {rel};
  int rc = hg_repo_ls_tree(repo, commit, paths, 1, true, &files, err);
  // Only the files under rel/ (ls-tree also names a file that is rel itself).
  size_t prefix = strcmp(rel, ".") ? strlen(rel) + 1 : 0, w = 0;
  for (size_t i = 0; rc == 0 && i < files.len; i++) {
    if (!prefix || hg_path_below(files.items[i], rel, prefix - 1))
      files.items[w++] = files.items[i];
    else
      free(files.items[i]);
  }
  if (rc == 0)
    files.len = w;
  if (rc == 0 && files.len == 0)
    rc = hg_error_set(err, "--config-from: %s has no rules directory %s", ref, rel);
  const char *tmp = getenv("TMPDIR");
  char *base = hg_xasprintf("%s/hardguard-rules-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  bool made = rc == 0 && mkdtemp(base) != NULL;
  if (rc == 0 && !made)
    rc = hg_error_set(err, "cannot create a directory for the rules of %s: %s", ref, strerror(errno));
  for (size_t i = 0; rc == 0 && i < files.len; i++) {
    const char *inner = files.items[i] + prefix;
    hg_buf bytes = {0};
    char *to = hg_xasprintf("%s/%s", base, inner);
    if ((rc = make_parents(base, inner, err)) == 0 &&
        (rc = hg_repo_blob(repo, commit, files.items[i], &bytes, err)) == 0)
      rc = hg_write_new_file(to, bytes.data ? bytes.data : "", bytes.len, 0600, err);
    free(to);
    hg_buf_free(&bytes);
  }
  hg_strvec_free(&files);
  free(rel);
  if (rc != 0) {
    if (made)
      hg_configref_rules_remove(base);
    else
      free(base);
    return -1;
  }
  *out = base;
  return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

void hg_configref_rules_remove(char *dir) {
  if (!dir)
    return;
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  free(dir);
}
