#include "base/yamlflat.h"

#include <string.h>

static yaml_mark_t mark_of(hg_yaml_flat_mark m) { return (yaml_mark_t){m.index, m.line, m.column}; }

// The document is laid out in libyaml's public structures directly, its strings those of `f` (static,
// never freed: hg_yaml_free frees only the three arrays), instead of a copy of each through
// libyaml's builders (2.7 M instructions a start, half of hardguard's start-up).
int hg_yaml_from_flat(hg_yaml *out, const char *path, const hg_yaml_flat *f, hg_error *err) {
  memset(out, 0, sizeof(*out));
  out->path = hg_xstrdup(path);
  size_t n_items = 0, n_pairs = 0;
  for (uint32_t i = 0; i < f->n_nodes; i++) {
    const hg_yaml_flat_node *n = &f->nodes[i];
    bool mapping = n->type == YAML_MAPPING_NODE;
    if (n->type != YAML_SCALAR_NODE && !mapping && n->type != YAML_SEQUENCE_NODE)
      return hg_error_set(err, "%s: node %u of the built document refused", path, i + 1);
    if (n->n && n->type == YAML_SCALAR_NODE)
      return hg_error_set(err, "%s: scalar node %u of the built document has items", path, i + 1);
    const int *ids = f->ids + n->first;
    for (uint32_t k = 0; k < (mapping ? 2 * n->n : n->n); k++)  // libyaml's look-ups trust the ids
      if (ids[k] < 1 || (uint32_t)ids[k] > f->n_nodes)
        return hg_error_set(err, "%s: an item of node %u of the built document refused", path, i + 1);
    if (mapping) n_pairs += n->n;
    else n_items += n->n;
  }
  yaml_document_t *doc = &out->doc;
  doc->nodes.start = hg_xcalloc(f->n_nodes ? f->n_nodes : 1, sizeof(yaml_node_t));
  doc->nodes.end = doc->nodes.top = doc->nodes.start + f->n_nodes;
  out->items = hg_xcalloc(n_items ? n_items : 1, sizeof(yaml_node_item_t));
  out->pairs = hg_xcalloc(n_pairs ? n_pairs : 1, sizeof(yaml_node_pair_t));
  doc->start_implicit = 1;
  doc->end_implicit = 1;
  out->loaded = 1;
  out->borrowed = 1;
  yaml_node_item_t *item = out->items;
  yaml_node_pair_t *pair = out->pairs;
  for (uint32_t i = 0; i < f->n_nodes; i++) {
    const hg_yaml_flat_node *n = &f->nodes[i];
    const int *ids = f->ids + n->first;
    yaml_node_t *yn = &doc->nodes.start[i];
    yn->type = (yaml_node_type_t)n->type;
    yn->tag = (yaml_char_t *)(uintptr_t)n->tag;
    yn->start_mark = mark_of(n->start);
    yn->end_mark = mark_of(n->end);
    if (n->type == YAML_SCALAR_NODE) {
      yn->data.scalar.value = (yaml_char_t *)(uintptr_t)n->value;
      yn->data.scalar.length = n->length;
      yn->data.scalar.style = (yaml_scalar_style_t)n->style;
    } else if (n->type == YAML_SEQUENCE_NODE) {
      yn->data.sequence.items.start = item;
      for (uint32_t k = 0; k < n->n; k++) *item++ = ids[k];
      yn->data.sequence.items.end = yn->data.sequence.items.top = item;
      yn->data.sequence.style = (yaml_sequence_style_t)n->style;
    } else {
      yn->data.mapping.pairs.start = pair;
      for (uint32_t k = 0; k < n->n; k++) *pair++ = (yaml_node_pair_t){ids[2 * k], ids[2 * k + 1]};
      yn->data.mapping.pairs.end = yn->data.mapping.pairs.top = pair;
      yn->data.mapping.style = (yaml_mapping_style_t)n->style;
    }
  }
  return 0;
}

// A C string literal of `len` bytes: printable ASCII as is, the rest octal-escaped (three digits,
// so that a digit after one is not read into it).
static void c_bytes(FILE *out, const unsigned char *s, size_t len) {
  fputc('"', out);
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '"' || s[i] == '\\' || s[i] == '?')
      fprintf(out, "\\%c", s[i]);
    else if (s[i] >= 0x20 && s[i] < 0x7f)
      fputc(s[i], out);
    else
      fprintf(out, "\\%03o", s[i]);
  }
  fputc('"', out);
}

static void put_mark(FILE *out, yaml_mark_t m) { fprintf(out, "{%zuu, %zuu, %zuu}", m.index, m.line, m.column); }

uint32_t hg_yaml_write_flat(FILE *out, const hg_yaml *y, const char *prefix) {
  const yaml_document_t *d = &y->doc;
  uint32_t n = (uint32_t)(d->nodes.top - d->nodes.start), first = 0;
  fprintf(out, "static const int %s_ids[] = {\n", prefix);
  for (uint32_t i = 0; i < n; i++) {
    const yaml_node_t *yn = &d->nodes.start[i];
    if (yn->type == YAML_SEQUENCE_NODE)
      for (const yaml_node_item_t *it = yn->data.sequence.items.start; it < yn->data.sequence.items.top; it++)
        fprintf(out, "%d,", *it);
    else if (yn->type == YAML_MAPPING_NODE)
      for (const yaml_node_pair_t *p = yn->data.mapping.pairs.start; p < yn->data.mapping.pairs.top; p++)
        fprintf(out, "%d,%d,", p->key, p->value);
    if (yn->type != YAML_SCALAR_NODE)
      fputc('\n', out);
  }
  fprintf(out, "0};\nstatic const hg_yaml_flat_node %s_nodes[] = {\n", prefix);
  for (uint32_t i = 0; i < n; i++) {
    const yaml_node_t *yn = &d->nodes.start[i];
    uint32_t count = yn->type == YAML_SEQUENCE_NODE ? (uint32_t)(yn->data.sequence.items.top - yn->data.sequence.items.start)
                     : yn->type == YAML_MAPPING_NODE ? (uint32_t)(yn->data.mapping.pairs.top - yn->data.mapping.pairs.start)
                                                     : 0;
    int style = yn->type == YAML_SCALAR_NODE     ? (int)yn->data.scalar.style
                : yn->type == YAML_SEQUENCE_NODE ? (int)yn->data.sequence.style
                                                 : (int)yn->data.mapping.style;
    fprintf(out, "    {%d, %d, ", (int)yn->type, style);
    c_bytes(out, yn->tag, strlen((const char *)yn->tag));
    fputs(", ", out);
    if (yn->type == YAML_SCALAR_NODE)
      c_bytes(out, yn->data.scalar.value, yn->data.scalar.length);
    else
      fputs("0", out);
    fprintf(out, ", %zuu, %uu, %uu, ", yn->type == YAML_SCALAR_NODE ? yn->data.scalar.length : 0, first, count);
    put_mark(out, yn->start_mark);
    fputs(", ", out);
    put_mark(out, yn->end_mark);
    fputs("},\n", out);
    first += yn->type == YAML_MAPPING_NODE ? 2 * count : count;
  }
  fputs("};\n", out);
  return n;
}
