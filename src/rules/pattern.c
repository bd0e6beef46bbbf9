#include "rules/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hg_pattern_site_dialect(const hg_policy *p, hg_reads reads, const char *name, uint8_t *out, char *msg, size_t cap) {
  *out = 0;
  if (name) {
    int d = hg_policy_dialect(p, name);
    if (d < 0) return snprintf(msg, cap, "unknown dialect \"%s\" (not under 'dialects' in the policy)", name), -1;
    if (!(p->dialects[d].reads & (UINT32_C(1) << reads)))
      return snprintf(msg, cap, "dialect \"%s\" does not read \"%s\"", name, hg_reads_name((int)reads)), -1;
    *out = (uint8_t)(d + 1);
    return 0;
  }
  if (hg_readings[reads].options && hg_policy_site_dialect(p, (int)reads, -1) < 0)
    return snprintf(msg, cap, "the policy has no dialect that reads \"%s\"", hg_reads_name((int)reads)), -1;
  return 0;
}

static bool pattern_has(const hg_shapes *q, uint32_t pattern, uint32_t capture) {
  return capture != UINT32_MAX && hg_shapes_capture_quantifier(q, pattern, capture) != TSQuantifierZero;
}

// (#set! hardguard.kind-by "@capture verb=kind ..."): a capture of the pattern, then verbs each
// naming a kind some rule file is named for.
static int kind_by_setup(char *const *kinds, size_t n_kinds, const hg_shapes *q, uint32_t i, hg_pattern *p,
                         const char *text, char *msg, size_t cap) {
  hg_argv_words w = {0};
  hg_argv_split(&w, text);
  int rc = 0;
  if (w.len < 2 || w.items[0][0] != '@' || !pattern_has(q, i, hg_shapes_capture_id(q, w.items[0] + 1))) {
    snprintf(msg, cap, "hardguard.kind-by is \"@capture verb=kind ...\", the capture one of the pattern's");
    rc = -1;
  } else {
    p->kind_capture = hg_shapes_capture_id(q, w.items[0] + 1);
  }
  p->kind_ids = hg_xcalloc(w.len, sizeof(char *));
  for (size_t k = 1; rc == 0 && k < w.len; k++) {
    char *eq = strchr(w.items[k], '=');
    const char *kind = NULL;
    for (size_t j = 0; eq && j < n_kinds && !kind; j++)
      if (!strcmp(eq + 1, kinds[j])) kind = kinds[j];
    if (!eq || eq == w.items[k] || !kind) {
      snprintf(msg, cap, "hardguard.kind-by: \"%s\" is not verb=kind, the kind a rule file's name", w.items[k]);
      rc = -1;
      break;
    }
    *eq = '\0';
    HG_VEC_PUSH(&p->kind_verbs, hg_xstrdup(w.items[k]));
    p->kind_ids[p->kind_verbs.len - 1] = kind;
  }
  hg_strvec_free(&w);
  return rc;
}

int hg_pattern_setup(hg_pattern *p, const hg_shapes *q, uint32_t i, const hg_captures *c, const char *kind,
                     char *const *kinds, size_t n_kinds, const hg_policy *policy, hg_error *err) {
  if (hg_predicates_compile(&p->predicates, q, i, policy, err) != 0) return -1;
  if (!kind) {
    const char *fact = hg_predicates_property(p->predicates, "hardguard.fact");
    if (fact && strcmp(fact, "marker") == 0) {
      if (!pattern_has(q, i, c->marker))
        return hg_error_set(err, "a marker fact captures @marker");
      p->role = HG_PATTERN_MARKER;
      return 0;
    }
    if (!fact || strcmp(fact, "import") != 0)
      return hg_error_set(err, "a facts pattern needs (#set! hardguard.fact \"import\" or \"marker\")");
    if (!pattern_has(q, i, c->import_module) && !pattern_has(q, i, c->import_from))
      return hg_error_set(err, "an import fact captures @import.module or @import.from");
    p->role = HG_PATTERN_IMPORT;
    return 0;
  }
  p->role = HG_PATTERN_SITE;
  for (size_t k = 0; k < n_kinds; k++)
    if (!strcmp(kind, kinds[k])) p->kind = kinds[k];
  const char *reads = hg_predicates_property(p->predicates, "hardguard.reads");
  int r = reads ? hg_reads_by_name(reads) : -1;
  if (r < 0)
    return hg_error_set(err, "a site pattern needs (#set! hardguard.reads "
                       "\"kwargs|argv|shell|command|script|client|opaque|body\")");
  p->reads = (hg_reads)r;
  char msg[192];
  if (hg_pattern_site_dialect(policy, p->reads, hg_predicates_property(p->predicates, "hardguard.dialect"), &p->dialect, msg,
                   sizeof(msg)) != 0)
    return hg_error_set(err, "%s", msg);
  if (!pattern_has(q, i, c->site)) return hg_error_set(err, "a site pattern captures @site");
  const char *keywords = hg_predicates_property(p->predicates, "hardguard.body-keyword");
  const char *unwrap = hg_predicates_property(p->predicates, "hardguard.body-unwrap");
  if (keywords) hg_argv_split(&p->body_keywords, keywords);
  if (unwrap) hg_argv_split(&p->body_unwrap, unwrap);
  p->options_keyword = hg_predicates_property(p->predicates, "hardguard.options-keyword");
  if (p->options_keyword && p->reads != HG_READS_KWARGS)
    return hg_error_set(err, "hardguard.options-keyword is for a \"kwargs\" pattern");
  const char *own = hg_predicates_property(p->predicates, "hardguard.own-keywords");
  if (own && !p->options_keyword)
    return hg_error_set(err, "hardguard.own-keywords goes with hardguard.options-keyword");
  if (own) hg_argv_split(&p->own_keywords, own);
  p->kind_capture = UINT32_MAX;
  const char *kind_by = hg_predicates_property(p->predicates, "hardguard.kind-by");
  if (kind_by && kind_by_setup(kinds, n_kinds, q, i, p, kind_by, msg, sizeof(msg)) != 0)
    return hg_error_set(err, "%s", msg);
  const char *position = hg_predicates_property(p->predicates, "hardguard.body-position");
  p->body_position = UINT32_MAX;
  if (position && !strcmp(position, "keywords")) {
    p->body_is_keywords = true;
  } else if (position) {
    char *end;
    unsigned long v = strtoul(position, &end, 10);
    if (!*position || *end || v > 255)
      return hg_error_set(err, "hardguard.body-position is a number (the positional argument, from 0) or "
                               "\"keywords\" (the call's keywords as the body)");
    p->body_position = (uint32_t)v;
  }
  if (hg_readings[r].capture && !pattern_has(q, i, hg_shapes_capture_id(q, hg_readings[r].capture))) {
    snprintf(msg, sizeof(msg), "a \"%s\" pattern captures @%s", reads, hg_readings[r].capture);
    return hg_error_set(err, "%s", msg);
  }
  return 0;
}

void hg_pattern_free(hg_pattern *p) {
  hg_predicates_free(p->predicates);
  hg_strvec_free(&p->body_keywords);
  hg_strvec_free(&p->body_unwrap);
  hg_strvec_free(&p->own_keywords);
  hg_strvec_free(&p->kind_verbs);
  free(p->kind_ids);
}
