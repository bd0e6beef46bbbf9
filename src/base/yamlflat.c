#include "base/yamlflat.h"

#include <string.h>

static yaml_mark_t mark_of(hg_yaml_flat_mark m) { return (yaml_mark_t){m.index, m.line, m.column}; }

int hg_yaml_from_flat(hg_yaml *out, const char *path, const hg_yaml_flat *f, hg_error *err) {
  memset(out, 0, sizeof(*out));
  out->path = hg_xstrdup(path);
  if (!yaml_document_initialize(&out->doc, NULL, NULL, NULL, 1, 1))
    return hg_error_set(err, "%s: out of memory", path);
  out->loaded = 1;
  for (uint32_t i = 0; i < f->n_nodes; i++) {
    const hg_yaml_flat_node *n = &f->nodes[i];
    yaml_char_t *tag = (yaml_char_t *)(uintptr_t)n->tag;
    int id = n->type == YAML_SCALAR_NODE
                 ? yaml_document_add_scalar(&out->doc, tag, (yaml_char_t *)(uintptr_t)n->value, (int)n->length,
                                            (yaml_scalar_style_t)n->style)
             : n->type == YAML_SEQUENCE_NODE ? yaml_document_add_sequence(&out->doc, tag, (yaml_sequence_style_t)n->style)
             : n->type == YAML_MAPPING_NODE  ? yaml_document_add_mapping(&out->doc, tag, (yaml_mapping_style_t)n->style)
                                             : 0;
    if (id != (int)i + 1)
      return hg_error_set(err, "%s: node %u of the built document refused", path, i + 1);
    yaml_node_t *yn = yaml_document_get_node(&out->doc, id);
    yn->start_mark = mark_of(n->start);
    yn->end_mark = mark_of(n->end);
  }
  for (uint32_t i = 0; i < f->n_nodes; i++) {
    const hg_yaml_flat_node *n = &f->nodes[i];
    const int *ids = f->ids + n->first;
    bool mapping = n->type == YAML_MAPPING_NODE;
    if (n->n && !mapping && n->type != YAML_SEQUENCE_NODE)
      return hg_error_set(err, "%s: scalar node %u of the built document has items", path, i + 1);
    for (uint32_t k = 0; k < (mapping ? 2 * n->n : n->n); k++)  // libyaml asserts on an id it does not hold
      if (ids[k] < 1 || (uint32_t)ids[k] > f->n_nodes)
        return hg_error_set(err, "%s: an item of node %u of the built document refused", path, i + 1);
    for (uint32_t k = 0; k < n->n; k++)
      if (!(mapping ? yaml_document_append_mapping_pair(&out->doc, (int)i + 1, ids[2 * k], ids[2 * k + 1])
                    : yaml_document_append_sequence_item(&out->doc, (int)i + 1, ids[k])))
        return hg_error_set(err, "%s: out of memory", path);
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
