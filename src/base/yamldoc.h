/* A loaded YAML document (libyaml's node API) with the checks every data file needs: expected
 * types, known keys only, and errors that name file:line:col. Used by policy.c and config.c. */
#ifndef HG_YAMLDOC_H
#define HG_YAMLDOC_H

#include <yaml.h>

#include "base/util.h"

typedef struct {
  yaml_document_t doc;
  char *path;  // owned
  int loaded;
  // A document laid out from a flat one (hg_yaml_from_flat): its strings are static, and its nodes,
  // items and pairs three arrays of its own, not libyaml's.
  int borrowed;
  yaml_node_item_t *items;
  yaml_node_pair_t *pairs;
} hg_yaml;

/** Where and why libyaml stopped reading a document. */
typedef struct {
  size_t line, column;  // 1-based
  const char *problem;  // libyaml's words (static), or "parse error"
  const char *context;  // or NULL
} hg_yaml_problem;

/** Parses the first document of `len` bytes named `path`: 0, or -1 with the problem in *why (the
 *  document is then not loaded; hg_yaml_free it either way). */
int hg_yaml_parse(hg_yaml *out, const char *path, const char *bytes, size_t len, hg_yaml_problem *why);
/** Parses `len` bytes named `path`; 0, or -1 with "path:line:col: message" in err. */
int hg_yaml_load(hg_yaml *out, const char *path, const char *bytes, size_t len, hg_error *err);
void hg_yaml_free(hg_yaml *self);

yaml_node_t *hg_yaml_root(hg_yaml *self);
yaml_node_t *hg_yaml_node(hg_yaml *self, int id);
/** Formats "path:line:col: message" for `node` into err; returns -1. */
int hg_yaml_error(hg_yaml *self, const yaml_node_t *node, hg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** Checks that `node` is a mapping whose keys are all in NULL-terminated `allowed`. */
int hg_yaml_mapping(hg_yaml *self, yaml_node_t *node, const char *const *allowed, const char *what,
                    hg_error *err);
/** The value for `key` in a mapping, or NULL. */
yaml_node_t *hg_yaml_get(hg_yaml *self, yaml_node_t *mapping, const char *key);
/** A scalar's text (owned by the document), or -1 with an error naming `what`. */
int hg_yaml_scalar(hg_yaml *self, yaml_node_t *node, const char *what, const char **out, hg_error *err);
/** A scalar or a sequence of scalars as a new heap array of heap strings (free with hg_strv_free). */
int hg_yaml_strings(hg_yaml *self, yaml_node_t *node, const char *what, char ***out, size_t *n,
                    hg_error *err);

#endif
