#include "base/yamldoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_yaml_parse(hg_yaml *out, const char *path, const char *bytes, size_t len, hg_yaml_problem *why) {
  memset(out, 0, sizeof(*out));
  out->path = hg_xstrdup(path);
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)bytes, len);
  int rc = 0;
  if (yaml_parser_load(&parser, &out->doc)) {
    out->loaded = 1;
  } else {
    *why = (hg_yaml_problem){.line = parser.problem_mark.line + 1,
                             .column = parser.problem_mark.column + 1,
                             .problem = parser.problem ? parser.problem : "parse error",
                             .context = parser.context};
    rc = -1;
  }
  yaml_parser_delete(&parser);
  return rc;
}

int hg_yaml_load(hg_yaml *out, const char *path, const char *bytes, size_t len, hg_error *err) {
  hg_yaml_problem why;
  if (hg_yaml_parse(out, path, bytes, len, &why) != 0)
    return hg_error_set(err, "%s:%zu:%zu: invalid YAML: %s", path, why.line, why.column, why.problem);
  if (!yaml_document_get_root_node(&out->doc))
    return hg_error_set(err, "%s:1:1: empty document, expected a mapping", path);
  return 0;
}

void hg_yaml_free(hg_yaml *self) {
  if (!self) return;
  if (self->borrowed) {
    free(self->doc.nodes.start);
    free(self->items);
    free(self->pairs);
  } else if (self->loaded) {
    yaml_document_delete(&self->doc);
  }
  free(self->path);
  memset(self, 0, sizeof(*self));
}

yaml_node_t *hg_yaml_root(hg_yaml *self) { return yaml_document_get_root_node(&self->doc); }

yaml_node_t *hg_yaml_node(hg_yaml *self, int id) { return yaml_document_get_node(&self->doc, id); }

int hg_yaml_error(hg_yaml *self, const yaml_node_t *node, hg_error *err, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  size_t line = node ? node->start_mark.line + 1 : 1, col = node ? node->start_mark.column + 1 : 1;
  return hg_error_set(err, "%s:%zu:%zu: %s", self->path, line, col, msg);
}

static const char *type_name(const yaml_node_t *node) {
  switch (node->type) {
  case YAML_SCALAR_NODE: return "a scalar";
  case YAML_SEQUENCE_NODE: return "a list";
  case YAML_MAPPING_NODE: return "a mapping";
  default: return "nothing";
  }
}

int hg_yaml_mapping(hg_yaml *self, yaml_node_t *node, const char *const *allowed, const char *what,
                    hg_error *err) {
  if (node->type != YAML_MAPPING_NODE)
    return hg_yaml_error(self, node, err, "%s: expected a mapping, found %s", what, type_name(node));
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *key = hg_yaml_node(self, p->key);
    if (key->type != YAML_SCALAR_NODE)
      return hg_yaml_error(self, key, err, "%s: keys must be scalars", what);
    const char *k = (const char *)key->data.scalar.value;
    bool known = false;
    for (const char *const *a = allowed; a && *a && !known; a++) known = strcmp(*a, k) == 0;
    if (!known) {
      hg_buf b = {0};
      for (const char *const *a = allowed; a && *a; a++) hg_buf_printf(&b, "%s%s", a == allowed ? "" : ", ", *a);
      hg_yaml_error(self, key, err, "%s: unknown key '%s' (expected one of: %s)", what, k,
                    b.data ? b.data : "");
      hg_buf_free(&b);
      return -1;
    }
  }
  return 0;
}

yaml_node_t *hg_yaml_get(hg_yaml *self, yaml_node_t *mapping, const char *key) {
  if (!mapping || mapping->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = mapping->data.mapping.pairs.start; p < mapping->data.mapping.pairs.top; p++) {
    yaml_node_t *k = hg_yaml_node(self, p->key);
    if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
      return hg_yaml_node(self, p->value);
  }
  return NULL;
}

int hg_yaml_scalar(hg_yaml *self, yaml_node_t *node, const char *what, const char **out, hg_error *err) {
  if (node->type != YAML_SCALAR_NODE)
    return hg_yaml_error(self, node, err, "%s: expected a string, found %s", what, type_name(node));
  *out = (const char *)node->data.scalar.value;
  return 0;
}

int hg_yaml_strings(hg_yaml *self, yaml_node_t *node, const char *what, char ***out, size_t *n,
                    hg_error *err) {
  *out = NULL;
  *n = 0;
  if (node->type == YAML_SCALAR_NODE) {
    *out = hg_xmalloc(sizeof(char *));
    (*out)[0] = hg_xstrdup((const char *)node->data.scalar.value);
    *n = 1;
    return 0;
  }
  if (node->type != YAML_SEQUENCE_NODE)
    return hg_yaml_error(self, node, err, "%s: expected a string or a list of strings, found %s", what,
                         type_name(node));
  size_t count = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
  char **v = hg_xcalloc(count, sizeof(char *));
  for (size_t i = 0; i < count; i++) {
    yaml_node_t *item = hg_yaml_node(self, node->data.sequence.items.start[i]);
    if (item->type != YAML_SCALAR_NODE) {
      hg_strv_free(v, i);
      return hg_yaml_error(self, item, err, "%s: expected a string, found %s", what, type_name(item));
    }
    v[i] = hg_xstrdup((const char *)item->data.scalar.value);
  }
  *out = v;
  *n = count;
  return 0;
}

