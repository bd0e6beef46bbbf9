#include "rules/matcher.h"

#include <stdlib.h>
#include <string.h>

void hg_matcher_clear(hg_matcher *m) {
  hg_strv_free(m->names, m->n_names);
  pcre2_code_free(m->value);
  pcre2_code_free(m->unlimited);
  pcre2_code_free(m->harmless);
  free(m->value_src);
}

static int compile_regex(hg_yaml *y, yaml_node_t *node, const char *what, pcre2_code **out, char **src_out,
                         hg_error *err) {
  const char *src;
  if (hg_yaml_scalar(y, node, what, &src, err) != 0)
    return -1;
  int code;
  PCRE2_SIZE off;
  *out = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code, &off, NULL);
  if (!*out) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof(msg));
    return hg_yaml_error(y, node, err, "%s: invalid regex at offset %zu: %s", what, (size_t)off, msg);
  }
  if (src_out)
    *src_out = hg_xstrdup(src);
  return 0;
}

static int load_one(hg_yaml *y, yaml_node_t *node, const char *what, hg_matcher *m, hg_error *err) {
  static const char *const keys[] = {"name", "value", "unlimited", "harmless", NULL};
  if (hg_yaml_mapping(y, node, keys, what, err) != 0)
    return -1;
  yaml_node_t *name = hg_yaml_get(y, node, "name"), *value = hg_yaml_get(y, node, "value"),
              *unlimited = hg_yaml_get(y, node, "unlimited"), *harmless = hg_yaml_get(y, node, "harmless");
  if (!name)
    return hg_yaml_error(y, node, err, "%s: missing 'name'", what);
  if (hg_yaml_strings(y, name, what, &m->names, &m->n_names, err) != 0)
    return -1;
  if (value && compile_regex(y, value, what, &m->value, &m->value_src, err) != 0)
    return -1;
  if (unlimited && compile_regex(y, unlimited, what, &m->unlimited, NULL, err) != 0)
    return -1;
  if (harmless && compile_regex(y, harmless, what, &m->harmless, NULL, err) != 0)
    return -1;
  return 0;
}

// A dialect's spelling is one matcher mapping or a list of them.
int hg_matchers_load(hg_yaml *y, yaml_node_t *node, const char *what, hg_matcher **out, size_t *n, hg_error *err) {
  if (node->type == YAML_MAPPING_NODE) {
    *out = hg_xcalloc(1, sizeof(hg_matcher));
    *n = 1;
    return load_one(y, node, what, *out, err);
  }
  if (node->type != YAML_SEQUENCE_NODE)
    return hg_yaml_error(y, node, err, "%s: expected a mapping {name, value} or a list of them", what);
  size_t count = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
  *out = hg_xcalloc(count, sizeof(hg_matcher));
  *n = count;
  for (size_t i = 0; i < count; i++)
    if (load_one(y, hg_yaml_node(y, node->data.sequence.items.start[i]), what, &(*out)[i], err) != 0)
      return -1;
  return 0;
}

bool hg_matcher_unlimited(const hg_matcher *self, const char *text, pcre2_match_data *md) {
  return self->unlimited && pcre2_match(self->unlimited, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL) >= 0;
}

bool hg_matcher_harmless(const hg_matcher *self, const char *text, pcre2_match_data *md) {
  return self->harmless && pcre2_match(self->harmless, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL) >= 0;
}

bool hg_matcher_value_ok(const hg_matcher *self, const char *text, pcre2_match_data *md) {
  if (!self->value)
    return true;
  return pcre2_match(self->value, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL) >= 0;
}

bool hg_matcher_has_name(const hg_matcher *self, const char *name) {
  for (size_t i = 0; i < self->n_names; i++)
    if (strcmp(self->names[i], name) == 0)
      return true;
  return false;
}
