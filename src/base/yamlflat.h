/* A YAML document written as C data: hg_rulegen writes the built-in policy this way when the binary
 * is built, so that a run builds the document from it instead of parsing 46 KB with libyaml (a
 * millisecond of every run's start, serial). The document built is the one libyaml loads: the same
 * nodes, numbered alike, with their tags, styles and places. */
#ifndef HG_YAMLFLAT_H
#define HG_YAMLFLAT_H

#include <stdint.h>
#include <stdio.h>

#include "base/yamldoc.h"

typedef struct {
  uint32_t index, line, column;  // libyaml's yaml_mark_t
} hg_yaml_flat_mark;

typedef struct {
  uint8_t type;   // yaml_node_type_t
  uint8_t style;  // the scalar's, sequence's or mapping's style
  const char *tag;
  const char *value;  // a scalar's bytes (length of them)
  uint32_t length;
  uint32_t first, n;  // a sequence's items (n ids), a mapping's pairs (n key and value ids): ids[first ..]
  hg_yaml_flat_mark start, end;
} hg_yaml_flat_node;

typedef struct {
  const hg_yaml_flat_node *nodes;  // node i + 1 (libyaml numbers nodes from 1)
  uint32_t n_nodes;
  const int *ids;
} hg_yaml_flat;

/** Builds the document `flat` holds into out, named `path` (hg_yaml_free it). 0, or -1 with err set
 *  when libyaml refuses a node (which a document it wrote does not give). */
int hg_yaml_from_flat(hg_yaml *out, const char *path, const hg_yaml_flat *flat, hg_error *err);
/** Writes the loaded document `y` as C, two static arrays, `prefix`_ids and `prefix`_nodes, and
 *  returns the number of nodes: the hg_yaml_flat is then {prefix_nodes, that number, prefix_ids}. */
uint32_t hg_yaml_write_flat(FILE *out, const hg_yaml *y, const char *prefix);

#endif
