#include "evaluate.h"

#include <stdlib.h>
#include <string.h>

#include "argv.h"

typedef enum { UNSAT, UNVERIFIABLE, SAT } state;

// What one reading mode's options look like, for messages and fix hints.
static const struct {
  const char *subject;  // how the message names the site
  bool argv_style;      // fix flags written as list items ("--cap-drop", "ALL")
  bool flags;           // judged by CLI flags (else keywords)
  const char *apply;    // how a builder is applied, around its name
  const char *apply_end;
} MODES[] = {
    [HG_READS_KWARGS] = {"container created through docker-py", false, false, "**", "()"},
    [HG_READS_ARGV] = {"container command line", true, true, "*", "()"},
    [HG_READS_SHELL] = {"container shell command", false, true, "{shlex.join(", "())}"},
    [HG_READS_CLIENT] = {"Docker client", false, false, "", "()"},
    [HG_READS_OPAQUE] = {"code run at run time", false, false, "", "()"},
};

typedef struct {
  const hg_policy *policy;
  pcre2_match_data *md;
  state req[HG_POLICY_MAX_REQ];
  const hg_value *unverifiable[HG_POLICY_MAX_REQ];  // the value that left requirement i unverifiable
  const hg_value *src[HG_POLICY_MAX_REQ];           // the occurrence that decided requirement i ...
  const char *src_name[HG_POLICY_MAX_REQ];          // ... under this keyword or flag (the policy's)
  bool cond_seen[HG_POLICY_MAX_REQ];                // an occurrence on some paths only was seen
  const hg_value *carrier;           // the first spread hardguard could not follow
  bool builder;                      // a builder is applied ...
  bool builder_safe;                 // ... and nothing merged after it can replace what it sets
  const hg_value *overrider;         // what can, when no builder is safe
  bool trusted;                      // a builder taken at its word (`trust: true`) is applied
  const hg_value *trusted_by;        // ... this one
  const hg_value *applied;           // the last builder applied whose result was read
  bool in_builder;                   // reading the options a builder yields
  const hg_value *mismatch;          // a keyword builder spread into a command line, or the reverse
  hg_value *words;                   // argv: the words with builders' results spliced in (heap)
  // Per forbidden option (as many as the policy has: heap, freed by judge_free):
  const hg_value **forbid_hit;    // the value that sets forbidden option i
  const char **forbid_name;       // ... under this keyword or flag
  const hg_value **forbid_value;  // ... and, for a CLI option, the separate value word
} judge;

static void judge_init(judge *j, const hg_policy *policy, pcre2_match_data *md);
static void judge_free(judge *j);

static bool literal(const hg_value *v) {
  switch (v->kind) {
  case HG_VAL_STR: return !strchr(v->text, HG_HOLE);
  case HG_VAL_NUM:
  case HG_VAL_TRUE:
  case HG_VAL_FALSE:
  case HG_VAL_NONE: return true;
  default: return false;
  }
}

static bool unset(const hg_value *v) {
  if (v->kind == HG_VAL_NONE || v->kind == HG_VAL_FALSE) return true;
  if ((v->kind == HG_VAL_LIST || v->kind == HG_VAL_DICT) && v->n_items == 0) return true;
  if (v->kind == HG_VAL_NUM) return strtod(v->text, NULL) == 0.0 && strchr("0.-+", v->text[0]);
  if (v->kind == HG_VAL_STR) return v->text[0] == '\0' || !strcmp(v->text, "0") || !strcmp(v->text, "false");
  return false;
}

static state match_value(const judge *j, const hg_matcher *m, const hg_value *v) {
  if (!m->value) return unset(v) ? UNSAT : SAT;
  if (literal(v)) return hg_matcher_value_ok(m, v->text, j->md) ? SAT : UNSAT;
  if (v->kind == HG_VAL_LIST) {
    state best = UNSAT;
    for (size_t i = 0; i < v->n_items; i++) {
      state s = match_value(j, m, &v->items[i]);
      if (s > best) best = s;
    }
    return best;
  }
  return UNVERIFIABLE;
}

static const hg_value *first_unknown(const hg_value *v) {
  if (v->kind == HG_VAL_LIST)
    for (size_t i = 0; i < v->n_items; i++)
      if (!literal(&v->items[i])) return first_unknown(&v->items[i]);
  return v;
}

// Sets requirement `r` from one occurrence, written at `where` (a value of the site, named in
// messages). With `last_wins` the occurrence replaces what came before (a scalar CLI option:
// docker keeps the last value); otherwise the best occurrence counts (alternative keywords, CLI
// options that add up).
// An occurrence set on only some paths (`where->conditional`) can never satisfy a requirement,
// only fall short of it: the weakest path counts.
// The matcher's own copy of `name` (which may be the caller's scratch).
static const char *policy_name(const hg_matcher *m, const char *name) {
  for (size_t k = 0; k < m->n_names; k++)
    if (!strcmp(m->names[k], name)) return m->names[k];
  return NULL;
}

static void record(judge *j, size_t r, state s, const hg_value *where, const char *name, bool last_wins) {
  if (where->conditional) {
    j->cond_seen[r] = true;
    if (s >= j->req[r]) return;
    last_wins = true;
  }
  if (!last_wins && s < j->req[r]) return;
  j->req[r] = s;
  j->src[r] = where;
  j->src_name[r] = name;
  j->unverifiable[r] = s == UNVERIFIABLE ? first_unknown(where) : NULL;
}


// Does `v` set forbidden option matcher `m`? See hg_forbidden.
static bool forbid_value(const judge *j, const hg_matcher *m, const hg_value *v) {
  if (!m->value) return !v || !unset(v);
  if (!v) return false;
  if (v->kind == HG_VAL_LIST || v->kind == HG_VAL_DICT) {
    for (size_t i = 0; i < v->n_items; i++) {
      const hg_value *item = &v->items[i];
      if (item->key && hg_matcher_value_ok(m, item->key, j->md)) return true;
      if (forbid_value(j, m, item)) return true;
    }
    return false;
  }
  return hg_matcher_value_ok(m, v->text, j->md);  // a literal, or the source of an expression
}

// Records every forbidden option that keyword or flag `name` = `v` sets; `flags` picks the CLI
// spellings. `where` is named in the message.
static void check_forbidden(judge *j, const char *name, const hg_value *v, const hg_value *where,
                            const hg_value *value_item, bool flags) {
  for (size_t f = 0; f < j->policy->n_forbid; f++) {
    const hg_forbidden *fb = &j->policy->forbid[f];
    const hg_matcher *ms = flags ? fb->flags : fb->kwargs;
    size_t n = flags ? fb->n_flags : fb->n_kwargs;
    for (size_t m = 0; m < n && !j->forbid_hit[f]; m++)
      if (hg_matcher_has_name(&ms[m], name) && forbid_value(j, &ms[m], v)) {
        j->forbid_hit[f] = where;
        j->forbid_name[f] = policy_name(&ms[m], name);
        j->forbid_value[f] = value_item;
      }
  }
}

// Does keyword `key` = `v` weaken a requirement (name one and not satisfy it)?
static bool weakens_requirement(const judge *j, const char *key, const hg_value *v) {
  for (size_t r = 0; r < j->policy->n_req; r++)
    for (size_t m = 0; m < j->policy->req[r].n_kwargs; m++)
      if (hg_matcher_has_name(&j->policy->req[r].kwargs[m], key) && match_value(j, &j->policy->req[r].kwargs[m], v) != SAT)
        return true;
  return false;
}

// A builder spread inside a `**{...}` literal is replaced by a later entry of the same literal
// that sets a requirement keyword to something short of it, or by a later spread that may hold
// anything. A later entry that itself satisfies the requirement (network_mode="none") is harmless.
static const hg_value *kwargs_overrider(const judge *j, const hg_value *dict, size_t i) {
  const hg_value *b = &dict->items[i];
  if (b->group == 0) return NULL;
  for (size_t k = i + 1; k < dict->n_items; k++) {
    const hg_value *v = &dict->items[k];
    if (v->group != b->group) continue;
    if (v->key ? weakens_requirement(j, v->key, v) : v->kind != HG_VAL_BUILDER) return v;
  }
  return NULL;
}

static void apply_keyword(judge *j, const char *key, const hg_value *v) {
  for (size_t r = 0; r < j->policy->n_req; r++) {
    const hg_requirement *req = &j->policy->req[r];
    for (size_t m = 0; m < req->n_kwargs; m++)
      if (hg_matcher_has_name(&req->kwargs[m], key))
        record(j, r, match_value(j, &req->kwargs[m], v), v, policy_name(&req->kwargs[m], key), false);
  }
}

static uint64_t key_hash(const char *s) {
  uint64_t h = 1469598103934665603u;  // FNV-1a
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

// Which keyed items a later unconditional item of the same key replaces; one pass from the end
// over a hash set of keys, so that a call with 100,000 keywords costs no more than its reading.
static bool *overridden_items(const hg_value *dict) {
  size_t n = dict->n_items, cap = 16;
  while (cap < 2 * n) cap *= 2;
  bool *over = hg_xcalloc(n ? n : 1, sizeof(bool));
  const char **seen = hg_xcalloc(cap, sizeof(char *));
  for (size_t i = n; i-- > 0;) {
    const hg_value *v = &dict->items[i];
    if (!v->key) continue;
    size_t at = key_hash(v->key) & (cap - 1);
    while (seen[at] && strcmp(seen[at], v->key) != 0) at = (at + 1) & (cap - 1);
    over[i] = seen[at] != NULL;
    if (!seen[at] && !v->conditional) seen[at] = v->key;
  }
  free(seen);
  return over;
}

static void read_kwargs(judge *j, const hg_value *dict);
static void read_kwargs(judge *j, const hg_value *dict) {
  bool *over = overridden_items(dict);
  for (size_t i = 0; i < dict->n_items; i++) {
    const hg_value *v = &dict->items[i];
    if (!v->key) {
      if (v->kind == HG_VAL_BUILDER && v->conditional) continue;  // applied on some paths only
      if (v->kind == HG_VAL_BUILDER) {
        if (v->n_items == 1 && v->items[0].kind == HG_VAL_LIST) {
          if (!j->mismatch) j->mismatch = v;  // a command-line builder's words are no keywords
          continue;
        }
        if (v->n_items == 1 && v->items[0].kind != HG_VAL_DICT) {
          if (!j->carrier) j->carrier = &v->items[0];
          continue;
        }
        const hg_value *o = kwargs_overrider(j, dict, i);
        if (v->n_items == 1) {
          // What the builder yields, read from its definition, counts like the site's own keywords.
          bool was = j->in_builder;
          j->in_builder = true;
          read_kwargs(j, &v->items[0]);
          j->in_builder = was;
          j->applied = v;
        } else {
          j->trusted = true;
          j->trusted_by = v;
        }
        j->builder = true;
        j->builder_safe |= !o;
        if (o && !j->overrider) j->overrider = o;
      } else if (!j->carrier) {
        j->carrier = v;
      }
      continue;
    }
    // A key merged again later (`{**{"read_only": True}, "read_only": False}`) takes its last value.
    if (!over[i]) {
      apply_keyword(j, v->key, v);
      check_forbidden(j, v->key, v, v, NULL, false);
    }
  }
  free(over);
}

// One option `name` with value `v` (NULL: none given), written as the argv item `word`;
// `value_item` is the separate item holding the value (NULL for --name=value and booleans, whose
// value lives on the caller's stack). After a builder, an option that sets a requirement again to
// something short of it replaces what the builder set.
static void apply_flag(judge *j, const char *name, const hg_value *v, const hg_value *word,
                       const hg_value *value_item) {
  const hg_value *where = value_item ? value_item : word;
  bool repeatable = hg_policy_is_repeatable_flag(j->policy, name);
  check_forbidden(j, name, v, word, value_item, true);
  for (size_t r = 0; r < j->policy->n_req; r++) {
    const hg_requirement *req = &j->policy->req[r];
    for (size_t m = 0; m < req->n_flags; m++)
      if (hg_matcher_has_name(&req->flags[m], name)) {
        state s = v ? match_value(j, &req->flags[m], v) : UNSAT;
        record(j, r, s, where, policy_name(&req->flags[m], name), !repeatable);
        if (j->builder && !j->in_builder && !repeatable && s != SAT) {
          j->builder_safe = false;
          if (!j->overrider) j->overrider = word;
        }
      }
  }
}

static const hg_value TRUE_VALUE = {.kind = HG_VAL_TRUE, .text = "True"};

// One option word at items[*i]; advances *i past the value it consumes.
static void read_option(judge *j, const hg_value *items, size_t n, size_t *i) {
  const hg_value *where = &items[*i], *value_item = NULL;
  const char *w = where->text;
  const char *eq = strchr(w, '=');
  hg_value inline_value;
  if (w[1] == '-') {
    // --name, --name=value, --name value
    char *name = hg_xstrndup(w, eq ? (size_t)(eq - w) : strlen(w));
    const hg_value *v = NULL;
    if (eq) {
      inline_value = (hg_value){.kind = HG_VAL_STR, .text = eq + 1, .line = items[*i].line};
      v = &inline_value;
    } else if (hg_policy_is_boolean_flag(j->policy, name)) {
      v = &TRUE_VALUE;
    } else if (*i + 1 < n) {
      v = value_item = &items[++*i];
    }
    if (strchr(name, HG_HOLE) && !j->carrier) j->carrier = &items[*i];
    apply_flag(j, name, v, where, value_item);
    free(name);
    return;
  }
  // -x, -x value, -xVALUE, and combined boolean short options (-it, -dit).
  for (const char *p = w + 1; *p; p++) {
    char name[3] = {'-', *p, '\0'};
    if (hg_policy_is_boolean_flag(j->policy, name)) {
      apply_flag(j, name, &TRUE_VALUE, where, NULL);
      continue;
    }
    const hg_value *v = NULL;
    if (p[1]) {
      inline_value = (hg_value){.kind = HG_VAL_STR, .text = p[1] == '=' ? p + 2 : p + 1, .line = items[*i].line};
      v = &inline_value;
    } else if (*i + 1 < n) {
      v = value_item = &items[++*i];
    }
    apply_flag(j, name, v, where, value_item);
    return;
  }
}

typedef HG_VEC(hg_value) word_vec;
typedef HG_VEC(const hg_value *) from_vec;

// The words from `items`, each builder whose result was read replaced by the words it yields (its
// own builders in turn), with the builder each word came from.
static void splice(judge *j, const hg_value *items, size_t n, const hg_value *builder, word_vec *out,
                   from_vec *from, int depth) {
  for (size_t i = 0; i < n; i++) {
    const hg_value *v = &items[i];
    if (v->splat && v->kind == HG_VAL_BUILDER && !v->conditional && v->n_items == 1 && depth < 8) {
      const hg_value *y = &v->items[0];
      if (y->kind == HG_VAL_LIST) {
        splice(j, y->items, y->n_items, v, out, from, depth + 1);
        continue;
      }
      if (y->kind == HG_VAL_DICT) {
        if (!j->mismatch) j->mismatch = v;  // a keyword builder's keys are no flags
        continue;
      }
      hg_value u = *y;
      u.splat = true;
      HG_VEC_PUSH(out, u);
      HG_VEC_PUSH(from, builder);
      continue;
    }
    HG_VEC_PUSH(out, *v);
    HG_VEC_PUSH(from, builder);
  }
}

// The options in words[0..n), up to the image.
static void read_options(judge *j, const hg_value *items, const hg_value *const *from, size_t n) {
  const hg_value *current = NULL;
  for (size_t i = 0; i < n; i++) {
    const hg_value *v = &items[i];
    if (from[i] != current) {
      current = from[i];
      if (current && current != j->applied) {
        // The last builder's options win over everything before it.
        j->builder = j->builder_safe = true;
        j->overrider = NULL;
        j->applied = current;
      }
    }
    j->in_builder = current != NULL;
    if (v->splat) {
      if (v->kind == HG_VAL_BUILDER && v->conditional) continue;  // applied on some paths only
      if (v->kind == HG_VAL_BUILDER) {
        // A builder taken at its word (trust: true).
        j->builder = j->builder_safe = j->trusted = true;
        j->trusted_by = v;
        j->overrider = NULL;
      } else {
        if (!j->carrier) j->carrier = v;
        if (j->builder && !j->in_builder) {
          j->builder_safe = false;
          if (!j->overrider) j->overrider = v;
        }
      }
      continue;
    }
    if (v->kind != HG_VAL_STR || v->text[0] != '-' || v->text[1] == '\0' || v->text[0] == HG_HOLE) break;
    if (!strcmp(v->text, "--")) break;  // end of options: the image follows
    read_option(j, items, n, &i);
  }
  j->in_builder = false;
}

static void read_argv(judge *j, const hg_value *list) {
  const hg_value *items = list->items;
  size_t n = list->n_items, i = 1;
  // Skip the program (and a wrapper such as sudo) up to the subcommand words.
  for (size_t k = 1; k < n && k < 4; k++)
    if (items[k].kind == HG_VAL_STR && hg_policy_is_subcommand(j->policy, items[k].text)) {
      i = k;
      break;
    }
  while (i < n && items[i].kind == HG_VAL_STR && hg_policy_is_subcommand(j->policy, items[i].text)) i++;
  word_vec words = {0};
  from_vec from = {0};
  splice(j, items + (i < n ? i : n), n - (i < n ? i : n), NULL, &words, &from, 0);
  j->words = words.items;  // the judge's messages point into it until hg_evaluate returns
  read_options(j, words.items, from.items, words.len);
  free(from.items);
}

// What a builder yields by itself, as requirement bits.
static uint64_t yields_of(const judge *parent, const hg_value *builder, bool flags) {
  judge j;
  judge_init(&j, parent->policy, parent->md);
  const hg_value *y = builder->n_items == 1 ? &builder->items[0] : NULL;
  if (y && !flags && y->kind == HG_VAL_DICT) {
    read_kwargs(&j, y);
  } else if (y && flags && y->kind == HG_VAL_LIST) {
    word_vec words = {0};
    from_vec from = {0};
    splice(&j, y->items, y->n_items, NULL, &words, &from, 0);
    j.words = words.items;
    read_options(&j, words.items, from.items, words.len);
    free(from.items);
  }
  uint64_t sat = 0;
  for (size_t r = 0; r < j.policy->n_req; r++)
    if (j.req[r] == SAT) sat |= UINT64_C(1) << r;
  judge_free(&j);
  return sat;
}

// An expression as the user wrote it: a string with interpolations is shown as f"...{…}...".
static void put_expr(hg_buf *b, const hg_value *v, bool with_key) {
  if (with_key && v->key && v->group) hg_buf_printf(b, "\"%s\": ", v->key);  // an entry of a dict literal
  if (v->kind != HG_VAL_STR) {
    hg_buf_puts(b, v->text);
    return;
  }
  bool fstring = strchr(v->text, HG_HOLE) != NULL;
  hg_buf_puts(b, fstring ? "f\"" : "\"");
  for (const char *p = v->text; *p; p++) {
    if (*p == HG_HOLE)
      hg_buf_puts(b, "{…}");
    else
      hg_buf_putc(b, *p);
  }
  hg_buf_putc(b, '"');
}

static const char *builder_modules(const hg_config *c, hg_buf *b) {
  for (size_t i = 0; i < c->n_builders; i++) hg_buf_printf(b, "%s%s", i ? ", " : "", c->builders[i].module);
  return b->data ? b->data : "";
}

static void list_missing(const hg_policy *p, uint64_t missing, hg_buf *b) {
  bool first = true;
  for (size_t r = 0; r < p->n_req; r++)
    if (missing & (UINT64_C(1) << r)) {
      hg_buf_printf(b, "%s%s", first ? "" : ", ", p->req[r].id);
      first = false;
    }
}

static char *fix_hint(const hg_policy *p, const hg_config *c, hg_reads reads, uint64_t missing) {
  hg_buf b = {0};
  if (c->n_builders == 1 && c->builders[0].n_callables == 1) {
    hg_buf_printf(&b, "apply `%s%s%s` from %s", MODES[reads].apply, c->builders[0].callables[0],
                  MODES[reads].apply_end, c->builders[0].module);
  } else {
    for (size_t i = 0; i < c->n_builders; i++) {
      const hg_builder *bl = &c->builders[i];
      hg_buf_printf(&b, "%s%s: ", i ? "; " : "apply a hardening builder (", bl->module);
      for (size_t k = 0; k < bl->n_callables; k++) hg_buf_printf(&b, "%s%s", k ? ", " : "", bl->callables[k]);
    }
    if (c->n_builders) hg_buf_puts(&b, ")");
  }
  if (c->n_builders) {
    hg_buf_puts(&b, ", merged last");
    if (missing) hg_buf_puts(&b, "; or add ");
  } else if (missing) {
    hg_buf_puts(&b, "add ");
  }
  bool first = true;
  for (size_t r = 0; r < p->n_req; r++) {
    if (!(missing & (UINT64_C(1) << r))) continue;
    hg_buf_puts(&b, first ? "" : ", ");
    first = false;
    const hg_requirement *req = &p->req[r];
    if (!MODES[reads].flags) {
      hg_buf_puts(&b, req->fix_kwarg);
    } else if (!MODES[reads].argv_style) {
      hg_buf_puts(&b, req->fix_flag);
    } else {
      hg_argv_words w = {0};
      hg_argv_split(&w, req->fix_flag);
      for (size_t k = 0; k < w.len; k++) hg_buf_printf(&b, "%s\"%s\"", k ? ", " : "", w.items[k]);
      hg_argv_words_free(&w);
    }
  }
  return hg_buf_detach(&b);
}

static void judge_client(hg_verdict *out, const hg_config *config, const hg_site *site) {
  if (site->imports_builder) {
    out->via = HG_VIA_BUILDER;
    out->message = hg_xstrdup("Docker client in a module that imports the hardening builder");
    return;
  }
  hg_buf mods = {0};
  out->rule = HG_RULE_CLIENT_WITHOUT_BUILDER;
  if (config->n_builders) {
    out->message = hg_xasprintf("Docker client opened in a module that does not import the hardening "
                                "builder (%s)", builder_modules(config, &mods));
    out->fix = hg_xasprintf("import the builder from %s here and apply it at every container site",
                            config->builders[0].module);
  } else {
    out->message = hg_xstrdup("Docker client opened, and no hardening builder is configured");
    out->fix = hg_xstrdup("name the project's builder under `builders:` in .hardguard.yml and import it here");
  }
  hg_buf_free(&mods);
}

// The options that undo hardening become the first rule; whatever else fails stays in `also` and
// in the message.
static void put_where(hg_buf *b, const hg_site *site, const hg_value *v);

static void add_weakening(hg_verdict *out, const judge *j, const hg_site *site) {
  hg_reads reads = site->reads;
  hg_buf msg = {0}, fix = {0};
  hg_buf_printf(&msg, "%s undoes hardening:", MODES[reads].subject);
  hg_buf_puts(&fix, "remove ");
  bool first = true;
  for (size_t f = 0; f < j->policy->n_forbid; f++) {
    const hg_value *v = j->forbid_hit[f];
    if (!v) continue;
    hg_buf_puts(&msg, first ? " `" : "; `");
    hg_buf_puts(&fix, first ? "`" : ", `");
    if (reads == HG_READS_KWARGS) {
      hg_buf_printf(&msg, "%s=", j->forbid_name[f]);
      hg_buf_printf(&fix, "%s", j->forbid_name[f]);
    } else {
      hg_buf_puts(&fix, j->forbid_name[f]);
    }
    put_expr(&msg, v, false);
    if (j->forbid_value[f]) {
      hg_buf_puts(&msg, ", ");
      put_expr(&msg, j->forbid_value[f], false);
    }
    hg_buf_puts(&msg, "` (");
    put_where(&msg, site, v);
    hg_buf_printf(&msg, ") %s", j->policy->forbid[f].message);
    hg_buf_puts(&fix, "`");
    first = false;
  }
  if (out->rule != HG_RULE_NONE) {
    out->also |= UINT32_C(1) << out->rule;
    hg_buf_printf(&msg, "; also %s: %s", hg_rules[out->rule].id, out->message);
    hg_buf_printf(&fix, "; %s", out->fix);
  }
  free(out->message);
  free(out->fix);
  out->message = hg_buf_detach(&msg);
  out->fix = hg_buf_detach(&fix);
  out->rule = HG_RULE_WEAKENING_OPTION;
}

static void judge_flags(hg_verdict *out, const judge *j, const hg_policy *policy, const hg_config *config,
                        const hg_site *site);

// ---- what reached the site ----------------------------------------------------------------------

typedef HG_VEC(hg_effect) effect_vec;

// An occurrence as written: `key=value` for a keyword, the option and its value for a flag.
static char *written(const hg_site *site, const char *name, const hg_value *v) {
  hg_buf b = {0};
  if (site->reads == HG_READS_KWARGS) {
    hg_buf_printf(&b, "%s=", name ? name : "");
    put_expr(&b, v, false);
  } else if (v->text[0] == '-' || !name) {
    hg_buf_puts(&b, v->text);  // the option word itself: --read-only, --network=none
  } else {
    hg_buf_printf(&b, "%s %s", name, v->text);
  }
  return hg_buf_detach(&b);
}

static void add_effect(effect_vec *out, const hg_site *site, hg_effect e, const hg_value *v, char *value) {
  if (v) {
    e.value = value;
    e.line = v->line;
    e.via = v->via && v->kind != HG_VAL_BUILDER ? v->via : NULL;
    e.path = v->path && site->path && strcmp(v->path, site->path) != 0 ? v->path : NULL;
  }
  HG_VEC_PUSH(out, e);
}

static size_t str_size(const char *s) { return s ? strlen(s) + 1 : 0; }
static const char *pack(char **at, const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  memcpy(*at, s, n);
  const char *out = *at;
  *at += n;
  return out;
}

// Per requirement what decided it and where it came from, then the forbidden options set, in one
// heap block (the array, then its strings): a site's findings are kept until the run ends.
static void effective(hg_verdict *out, const judge *j, const hg_site *site) {
  const hg_policy *p = j->policy;
  effect_vec v = {0};
  for (size_t r = 0; r < p->n_req; r++) {
    hg_effect e = {.id = p->req[r].id};
    const hg_value *src = j->src[r];
    e.status = j->req[r] == SAT ? HG_EFFECT_SATISFIED
               : j->req[r] == UNVERIFIABLE ? HG_EFFECT_UNVERIFIABLE
               : j->cond_seen[r] ? HG_EFFECT_CONDITIONAL
                                 : HG_EFFECT_MISSING;
    if (site->allowed & (UINT64_C(1) << r)) e.status = HG_EFFECT_ALLOWED;
    if (j->trusted && j->trusted_by && e.status != HG_EFFECT_SATISFIED) {
      e.status = HG_EFFECT_TRUSTED;
      e.reason = "a builder marked `trust: true` in the config, not read";
      add_effect(&v, site, e, j->trusted_by, hg_xstrdup(j->trusted_by->text));
    } else if (e.status == HG_EFFECT_UNVERIFIABLE && j->unverifiable[r]) {
      src = j->unverifiable[r];
      e.reason = src->origin;
      add_effect(&v, site, e, src, hg_xstrdup(src->text));
    } else {
      add_effect(&v, site, e, src, src ? written(site, j->src_name[r], src) : NULL);
    }
  }
  for (size_t f = 0; f < p->n_forbid; f++) {
    const hg_value *hit = j->forbid_hit[f];
    if (!hit) continue;
    hg_effect e = {.id = p->forbid[f].id, .forbidden = true, .status = HG_EFFECT_FORBIDDEN};
    char *value = written(site, j->forbid_name[f], j->forbid_value[f] ? j->forbid_value[f] : hit);
    add_effect(&v, site, e, hit, value);
  }
  size_t size = v.len * sizeof(hg_effect);
  for (size_t i = 0; i < v.len; i++)
    size += str_size(v.items[i].value) + str_size(v.items[i].path) + str_size(v.items[i].via) +
            str_size(v.items[i].reason);
  out->effective = hg_xmalloc(size ? size : 1);
  char *at = (char *)(out->effective + v.len);
  for (size_t i = 0; i < v.len; i++) {
    hg_effect e = v.items[i];
    e.path = pack(&at, e.path);
    e.via = pack(&at, e.via);
    e.reason = pack(&at, e.reason);
    const char *value = pack(&at, e.value);
    free((char *)e.value);
    e.value = value;
    out->effective[i] = e;
  }
  out->n_effective = v.len;
  free(v.items);
}

static void judge_init(judge *j, const hg_policy *policy, pcre2_match_data *md) {
  size_t nf = policy->n_forbid ? policy->n_forbid : 1;
  *j = (judge){.policy = policy, .md = md, .forbid_hit = hg_xcalloc(nf, sizeof(hg_value *)),
               .forbid_name = hg_xcalloc(nf, sizeof(char *)), .forbid_value = hg_xcalloc(nf, sizeof(hg_value *))};
}

static void judge_free(judge *j) {
  free(j->words);
  free(j->forbid_hit);
  free(j->forbid_name);
  free(j->forbid_value);
}

void hg_evaluate(hg_verdict *out, const hg_policy *policy, const hg_config *config, const hg_site *site,
                 pcre2_match_data *md) {
  memset(out, 0, sizeof(*out));
  out->rule = HG_RULE_NONE;
  if (site->has_error) {
    out->rule = HG_RULE_UNPARSABLE_SITE;
    out->message = hg_xstrdup(site->region ? "code that failed to parse mentions a container or client site's "
                                             "words, so a site may be hidden in it"
                                           : "the site's own code has a syntax error, so its flags cannot be judged");
    out->fix = hg_xstrdup("fix the syntax error; the site is judged once it parses");
    return;
  }
  if (site->reads == HG_READS_OPAQUE) {
    out->rule = HG_RULE_UNVERIFIABLE_FLAGS;
    out->message = hg_xstrdup("code that mentions Docker is run through exec/eval/compile or imported by a "
                              "computed name, so what it starts cannot be checked");
    out->fix = hg_xstrdup("call docker-py or build the command in ordinary code, with the hardening builder");
    return;
  }
  if (site->reads == HG_READS_CLIENT) {
    judge_client(out, config, site);
    return;
  }
  judge j;
  judge_init(&j, policy, md);
  if (site->reads == HG_READS_KWARGS)
    read_kwargs(&j, &site->flags);
  else
    read_argv(&j, &site->flags);
  for (size_t r = 0; r < policy->n_req; r++)
    if (site->allowed & (UINT64_C(1) << r)) {
      j.req[r] = SAT;  // relaxed by a named exception at the site
      j.unverifiable[r] = NULL;
    }
  judge_flags(out, &j, policy, config, site);
  for (size_t f = 0; f < policy->n_forbid; f++)
    if (j.forbid_hit[f]) {
      add_weakening(out, &j, site);
      break;
    }
  effective(out, &j, site);
  judge_free(&j);
}

// Where a value stands, for a message: "line 7" in the site's file, else "path:7", and the builder
// or constant it came through.
static void put_where(hg_buf *b, const hg_site *site, const hg_value *v) {
  if (v->path && site->path && strcmp(v->path, site->path) != 0)
    hg_buf_printf(b, "%s:%u", v->path, v->line);
  else
    hg_buf_printf(b, "line %u", v->line);
  if (v->via && v->kind != HG_VAL_BUILDER) hg_buf_printf(b, ", via %s", v->via);
}

// For each missing requirement a branch of the builder mentions (by keyword or flag name) but
// did not take: "; cap-drop-all is added only when `self.cap_drop_all` is true, and it is False (x.py:12)"
static void explain_skipped(hg_buf *msg, const hg_policy *p, const hg_site *site, uint64_t missing) {
  for (size_t r = 0; r < p->n_req; r++) {
    if (!(missing & (UINT64_C(1) << r))) continue;
    const hg_requirement *req = &p->req[r];
    for (size_t k = 0; k < site->n_notes; k++) {
      const hg_note *n = &site->notes[k];
      bool mentions = false;
      for (size_t m = 0; m < req->n_kwargs && !mentions; m++)
        for (size_t x = 0; x < req->kwargs[m].n_names && !mentions; x++) mentions = strstr(n->branch, req->kwargs[m].names[x]);
      for (size_t m = 0; m < req->n_flags && !mentions; m++)
        for (size_t x = 0; x < req->flags[m].n_names && !mentions; x++) mentions = strstr(n->branch, req->flags[m].names[x]);
      if (!mentions) continue;
      hg_buf_printf(msg, "; %s is added only when `%s` is true (%s:%u), and it is %s", req->id, n->condition, n->path,
                    n->line, n->why);
      break;
    }
  }
}

static void judge_flags(hg_verdict *out, const judge *jp, const hg_policy *policy, const hg_config *config,
                        const hg_site *site) {
  const judge j = *jp;
  const hg_value *unverifiable = j.carrier;
  for (size_t r = 0; r < policy->n_req; r++) {
    if (j.req[r] != SAT) out->missing |= UINT64_C(1) << r;
    if (j.req[r] == UNVERIFIABLE && !unverifiable) unverifiable = j.unverifiable[r];
  }
  hg_buf msg = {0}, mods = {0};
  const char *subject = MODES[site->reads].subject;
  if (j.builder) {
    out->via = HG_VIA_BUILDER;
    if (!j.builder_safe) {
      out->missing = 0;
      out->rule = HG_RULE_BUILDER_OVERRIDABLE;
      hg_buf_printf(&msg, "%s applies the hardening builder, but `", subject);
      put_expr(&msg, j.overrider, true);
      hg_buf_puts(&msg, "` (");
      put_where(&msg, site, j.overrider);
      hg_buf_puts(&msg, "), merged after it, can replace what it sets");
      out->message = hg_buf_detach(&msg);
      out->fix = hg_xstrdup(site->reads == HG_READS_KWARGS
                                ? "merge the builder last: **{**caller_kwargs, **hardening_kwargs()}"
                                : "put the builder's options after every other option");
      return;
    }
    if (j.trusted) {
      out->missing = 0;
      out->message = hg_xasprintf("%s applies the hardening builder, taken at its word (`trust: true`)", subject);
      return;
    }
    // Nothing merged after the builder can replace what it sets, so what came before it (an
    // unknown spread of the caller's options, say) cannot take a requirement away.
    if (!out->missing) {
      out->message = hg_xasprintf("%s applies the hardening builder %s, which yields every requirement", subject,
                                  j.applied->via ? j.applied->via : j.applied->text);
      return;
    }
    if (!unverifiable) {
      out->rule = HG_RULE_BUILDER_INCOMPLETE;
      uint64_t yields = yields_of(&j, j.applied, MODES[site->reads].flags);
      hg_buf_printf(&msg, "%s applies the hardening builder %s, which yields ", subject,
                    j.applied->via ? j.applied->via : j.applied->text);
      if (yields)
        list_missing(policy, yields, &msg);
      else
        hg_buf_puts(&msg, "none of the requirements");
      hg_buf_puts(&msg, "; missing: ");
      list_missing(policy, out->missing, &msg);
      explain_skipped(&msg, policy, site, out->missing);
      out->message = hg_buf_detach(&msg);
      out->fix = fix_hint(policy, config, site->reads, out->missing);
      return;
    }
    out->via = HG_VIA_NONE;
  }
  if (!out->missing && !unverifiable) {
    out->via = HG_VIA_FLAGS;
    // Where the flags came from, when not from the site itself: constants and helpers.
    hg_buf_puts(&msg, MODES[site->reads].subject);
    hg_buf_puts(&msg, " passes every hardening requirement");
    bool any = false;
    for (size_t r = 0; r < policy->n_req; r++) {
      const char *via = j.src[r] ? j.src[r]->via : NULL;
      bool seen = false;
      for (size_t k = 0; via && k < r && !seen; k++) seen = j.src[k] && j.src[k]->via && !strcmp(j.src[k]->via, via);
      if (!via || seen) continue;
      hg_buf_printf(&msg, "%s%s", any ? ", " : ", via flags from ", via);
      any = true;
    }
    if (!any) hg_buf_puts(&msg, " literally");
    out->message = hg_buf_detach(&msg);
    return;
  }
  // A builder that was called but could not be read is unverifiable, not "not applied".
  if (site->imports_builder && !j.builder && !(unverifiable && unverifiable->of_builder)) {
    out->rule = HG_RULE_BUILDER_NOT_APPLIED;
    hg_buf_printf(&msg, "%s does not apply the hardening builder this module imports (%s)", subject,
                  builder_modules(config, &mods));
  } else if (unverifiable) {
    out->rule = HG_RULE_UNVERIFIABLE_FLAGS;
    hg_buf_printf(&msg, "%s takes options from `", subject);
    put_expr(&msg, unverifiable, true);
    hg_buf_puts(&msg, "` at ");
    put_where(&msg, site, unverifiable);
    hg_buf_printf(&msg, " (%s), which cannot be verified", unverifiable->origin ? unverifiable->origin : "not a literal");
  } else {
    out->rule = HG_RULE_UNHARDENED_SITE;
    hg_buf_printf(&msg, "%s without the hardening builder or the full flag set", subject);
  }
  if (out->missing) {
    hg_buf_puts(&msg, out->rule == HG_RULE_UNVERIFIABLE_FLAGS ? "; not literally present: " : "; missing: ");
    list_missing(policy, out->missing, &msg);
  }
  if (j.mismatch) {
    hg_buf_printf(&msg, "; `%s` (line %u) is a %s builder used as %s, which does not count", j.mismatch->text,
                  j.mismatch->line, MODES[site->reads].flags ? "keyword" : "command-line",
                  MODES[site->reads].flags ? "command-line flags" : "keywords");
  }
  out->message = hg_buf_detach(&msg);
  out->fix = fix_hint(policy, config, site->reads, out->missing);
  hg_buf_free(&mods);
}

void hg_verdict_clear(hg_verdict *self) {
  free(self->message);
  free(self->fix);
  free(self->effective);
  memset(self, 0, sizeof(*self));
}
