#include "judge/options.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/table.h"

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
  if (v->kind == HG_VAL_NONE || v->kind == HG_VAL_FALSE)
    return true;
  if ((v->kind == HG_VAL_LIST || v->kind == HG_VAL_DICT) && v->n_items == 0)
    return true;
  if (v->kind == HG_VAL_NUM)
    return strtod(v->text, NULL) == 0.0 && strchr("0.-+", v->text[0]);
  if (v->kind == HG_VAL_STR)
    return v->text[0] == '\0' || !strcmp(v->text, "0") || !strcmp(v->text, "false");
  return false;
}

// Can `v` still match matcher `m`'s value regex? A string known in part (its interpolations, HG_HOLE,
// could hold anything) can only when what is known of its start can begin a match: f"seccomp={p}"
// is never no-new-privileges. Any other value may.
static bool may_match(const hg_judge *j, const hg_matcher *m, const hg_value *v) {
  if (v->kind != HG_VAL_STR)
    return true;
  return hg_matcher_value_may_start(m, v->text, strcspn(v->text, (const char[]){HG_HOLE, '\0'}), j->md);
}

typedef hg_state (*match_fn)(const hg_judge *j, const hg_matcher *m, const hg_value *v);

// Of a list, the best any element reaches (a list counts when one element does); an element on
// only some paths (`conditional`) never counts, as an occurrence on only some paths never does.
static hg_state best_item(const hg_judge *j, const hg_matcher *m, const hg_value *list, match_fn match) {
  hg_state best = HG_UNSAT;
  for (size_t i = 0; i < list->n_items; i++) {
    hg_state s = match(j, m, &list->items[i]);
    if (list->items[i].conditional && s == HG_SAT)
      s = HG_UNSAT;
    if (s > best)
      best = s;
  }
  return best;
}

// A list or dict set at all, for a requirement that asks only that (no value regex): an item on
// every path makes it (or a spread, on every path, of a list or dict that is); with none (every item
// on only some paths, or spread from what may be empty), a container on only some paths never
// counts and one spread from unknowns is unverifiable.
static hg_state filled(const hg_value *v) {
  bool every_conditional = true;
  for (size_t i = 0; i < v->n_items; i++) {
    const hg_value *it = &v->items[i];
    bool container = it->kind == HG_VAL_LIST || it->kind == HG_VAL_DICT;
    if (!it->conditional && (!it->splat || (container && filled(it) == HG_SAT)))
      return HG_SAT;
    every_conditional &= it->conditional;
  }
  return every_conditional ? HG_UNSAT : HG_UNVERIFIABLE;
}

// How value `v` stands against requirement matcher `m`: one rule for every surface. A literal
// counts by the matcher's regexes (a value that means "no limit" to Docker, pids_limit=-1 or
// --memory 0, sets nothing); a list counts when one element does; what a builder yields counts as
// written there; any other value hardguard does not know (a variable, a call, an interpolation
// with unknown parts) is unverifiable, limits included: an unknown limit is not a limit; but a
// string whose known start no value of the requirement begins with falls short of it.
static hg_state match_value(const hg_judge *j, const hg_matcher *m, const hg_value *v) {
  if (literal(v)) {
    if (hg_matcher_unlimited(m, v->text, j->md))
      return HG_UNSAT;
    if (!hg_matcher_has_value(m))
      return unset(v) ? HG_UNSAT : HG_SAT;
    return hg_matcher_value_ok(m, v->text, j->md) ? HG_SAT : HG_UNSAT;
  }
  if (hg_matcher_has_value(m) && !may_match(j, m, v))
    return HG_UNSAT;
  switch (v->kind) {
  case HG_VAL_LIST:
    if (!hg_matcher_has_value(m))
      return filled(v);
    return best_item(j, m, v, match_value);
  case HG_VAL_DICT: return hg_matcher_has_value(m) ? HG_UNVERIFIABLE : filled(v);
  case HG_VAL_BUILDER:
    if (v->n_items == 1)
      return match_value(j, m, &v->items[0]);
    return HG_UNVERIFIABLE;
  default: return HG_UNVERIFIABLE;
  }
}

static const hg_value *first_unknown(const hg_value *v) {
  if (v->kind == HG_VAL_LIST)
    for (size_t i = 0; i < v->n_items; i++)
      if (!literal(&v->items[i]))
        return first_unknown(&v->items[i]);
  return v;
}

// The matcher's own copy of `name` (which may be the caller's scratch).
static const char *policy_name(const hg_matcher *m, const char *name) {
  for (size_t k = 0; k < m->n_names; k++)
    if (!strcmp(m->names[k], name))
      return m->names[k];
  return NULL;
}

// Sets requirement `r` from one occurrence, written at `where` (a value of the site, named in
// messages) under keyword or flag `name`, with value `value` (`where`'s text, or the part of it
// after `=` when the word holds both: `--cpus=0`, `-m0`). With `last_wins` the occurrence replaces what came
// before (a scalar CLI option: docker keeps the last value); otherwise the best occurrence counts
// (alternative keywords, CLI options that add up).
// An occurrence set on only some paths (`where->conditional`) can never satisfy a requirement,
// only fall short of it: the weakest path counts.

static void record(hg_judge *j, size_t r, hg_state s, const hg_value *where, const char *name, const char *value,
                   bool last_wins) {
  if (where->conditional) {
    j->cond_seen[r] = true;
    if (s >= j->req[r])
      return;
    last_wins = true;
  }
  if (!last_wins && s < j->req[r])
    return;
  j->req[r] = s;
  j->src[r] = where;
  j->src_name[r] = name;
  j->src_value[r] = value;
  j->unverifiable[r] = s == HG_UNVERIFIABLE ? first_unknown(where) : NULL;
}

// A value hardguard knows only in part: an UNKNOWN, or a string with interpolations it could not
// follow (HG_HOLE).
static bool partly_unknown(const hg_value *v) {
  return v->kind == HG_VAL_UNKNOWN || v->kind == HG_VAL_OBJECT ||
         (v->kind == HG_VAL_STR && strchr(v->text, HG_HOLE)) || (v->kind == HG_VAL_BUILDER && v->n_items != 1);
}

static const hg_value *dict_get(hg_judge *j, const hg_value *dict, const char *name, size_t len);

// The key a long-syntax list entry (compose's `volumes: [{type: bind, source: /x, target: /y}]`,
// the Engine API's `Mounts: [{"Source": ...}]`) names the host side with, and the container side:
// shared by every such entry, so it is not repeated in each policy matcher. Such an entry is judged
// as the `source:target` string it stands for.
#define SOURCE_KEY "source"
#define TARGET_KEY "target"

// The part of `v` that sets forbidden option matcher `m` (an element of a list, a mapping, or `v`
// itself), or NULL. The one rule for a value known only in part: it sets the option when the
// regex hits what is known of it; else it cannot set it when the matcher calls it harmless (a
// bind mount whose target is a fixed ordinary path); else it might, and it goes to *unknown (the
// site is unverifiable). Surfaces write unknown parts differently (HG_HOLE, compose's `${VAR}`);
// the policy's regexes read both.
static const hg_value *forbidden_part(hg_judge *j, const hg_matcher *m, const hg_value *v, const hg_value **unknown) {
  if (v->kind == HG_VAL_BUILDER && v->n_items == 1)
    v = &v->items[0];
  if (!hg_matcher_has_value(m)) {
    if (partly_unknown(v)) {
      if (!*unknown)
        *unknown = v;
      return NULL;
    }
    return unset(v) ? NULL : v;
  }
  if (v->kind == HG_VAL_LIST) {
    for (size_t i = 0; i < v->n_items; i++) {
      const hg_value *e = &v->items[i];
      const hg_value *src = e->kind == HG_VAL_DICT ? dict_get(j, e, SOURCE_KEY, strlen(SOURCE_KEY)) : NULL;
      if (src) {
        const hg_value *dst = dict_get(j, e, TARGET_KEY, strlen(TARGET_KEY));
        hg_buf b = {0};
        hg_buf_printf(&b, "%s:%s", src->text ? src->text : "", dst && dst->text ? dst->text : "");
        hg_value as_short = {.kind = partly_unknown(src) || !dst || partly_unknown(dst) ? HG_VAL_UNKNOWN : HG_VAL_STR,
                             .text = b.data ? b.data : ""};
        const hg_value *u = NULL;
        bool hit = forbidden_part(j, m, &as_short, &u) != NULL;
        hg_buf_free(&b);
        if (hit)
          return e;
        if (u && !*unknown)
          *unknown = src;
        continue;
      }
      if (forbidden_part(j, m, e, unknown))
        return e;
    }
    return NULL;
  }
  if (v->kind == HG_VAL_DICT) {
    for (size_t i = 0; i < v->n_items; i++)
      if ((v->items[i].key && hg_matcher_value_ok(m, v->items[i].key, j->md)) ||
          forbidden_part(j, m, &v->items[i], unknown))
        return v;
    return NULL;
  }
  if (!v->text)
    return NULL;
  if (hg_matcher_value_ok(m, v->text, j->md))
    return v; // a literal, or what is known of a value: the source of an expression, an interpolation
  if (partly_unknown(v) && !hg_matcher_harmless(m, v->text, j->md) && !*unknown)
    *unknown = v;
  return NULL;
}

// Records every forbidden option that keyword or flag `name` = `v` sets, in the judge's dialect
// (`v` NULL: a flag given without a value). `where` is named in the message. `given`: a command-line
// option that takes a value was given one, so an option forbidden whatever its value (--cap-add,
// --device) is set even when its value is not known; a keyword whose value is not known may be
// None (privileged=flag), so that is unverifiable. A list is set when it has an element.
static void check_forbidden(hg_judge *j, const char *name, const hg_value *v, const hg_value *where,
                            const hg_value *value_item, bool given) {
  for (size_t f = 0; f < j->policy->n_forbid; f++) {
    const hg_spelling *sp = &j->policy->forbid[f].spell[j->dialect];
    const hg_matcher *ms = sp->m;
    size_t n = sp->n;
    for (size_t m = 0; m < n && !j->forbid_hit[f]; m++) {
      if (!hg_matcher_has_name(&ms[m], name))
        continue;
      const hg_value *unknown = NULL;
      bool set = !hg_matcher_has_value(&ms[m]) && (!v || given);
      if (set || (v && forbidden_part(j, &ms[m], v, &unknown) != NULL)) {
        j->forbid_hit[f] = where;
        j->forbid_name[f] = policy_name(&ms[m], name);
        j->forbid_value[f] = value_item;
      } else if (unknown && !j->undoer) {
        // (an inline --name=value lives on the caller's stack: the word stands for it)
        j->undoer = unknown != v ? unknown : value_item ? value_item : where;
        j->undoer_forbid = f;
      }
    }
  }
}

// Does keyword `key` = `v` weaken a requirement (name one and not satisfy it)?
static bool weakens_requirement(const hg_judge *j, const char *key, const hg_value *v) {
  for (size_t r = 0; r < j->policy->n_req; r++) {
    const hg_spelling *sp = &j->policy->req[r].spell[j->dialect];
    for (size_t m = 0; m < sp->n; m++)
      if (hg_matcher_has_name(&sp->m[m], key) && match_value(j, &sp->m[m], v) != HG_SAT)
        return true;
  }
  return false;
}

// A builder spread inside a `**{...}` literal is replaced by a later entry of the same literal
// that sets a requirement keyword to something short of it, or by a later spread that may hold
// anything. A later entry that itself satisfies the requirement (network_mode="none") is harmless.
static const hg_value *kwargs_overrider(const hg_judge *j, const hg_value *dict, size_t i) {
  const hg_value *b = &dict->items[i];
  if (b->group == 0)
    return NULL;
  for (size_t k = i + 1; k < dict->n_items; k++) {
    const hg_value *v = &dict->items[k];
    if (v->group != b->group)
      continue;
    if (v->key ? weakens_requirement(j, v->key, v) : v->kind != HG_VAL_BUILDER)
      return v;
  }
  return NULL;
}

// With `last_wins` the keyword replaces what came before it (an entry of a `{**builder(), ...}`
// literal after the builder: the dict keeps the later value).
static void apply_keyword(hg_judge *j, const char *key, const hg_value *v, bool last_wins) {
  for (size_t r = 0; r < j->policy->n_req; r++) {
    const hg_spelling *sp = &j->policy->req[r].spell[j->dialect];
    for (size_t m = 0; m < sp->n; m++)
      if (hg_matcher_has_name(&sp->m[m], key))
        record(j, r, match_value(j, &sp->m[m], v), v, policy_name(&sp->m[m], key), v->text, last_wins);
  }
  // A keyword the dialect's SDK reads otherwise than its docker-py namesake.
  const hg_dialect *d = &j->policy->dialects[j->dialect];
  for (size_t t = 0; t < d->n_traps; t++)
    if (!j->trap_hit[t] && !strcmp(d->traps[t].name, key))
      j->trap_hit[t] = v;
}

// Which keyed items a later unconditional item of the same key replaces; one pass from the end
// over a hash set of keys, so that a call with 100,000 keywords costs no more than its reading.
static bool *overridden_items(const hg_value *dict) {
  size_t n = dict->n_items;
  bool *over = hg_xcalloc(n ? n : 1, sizeof(bool));
  hg_table seen;
  hg_table_init(&seen, NULL, n);
  for (size_t i = n; i-- > 0;) {
    const hg_value *v = &dict->items[i];
    if (!v->key)
      continue;
    size_t len = strlen(v->key);
    over[i] = hg_table_get(&seen, v->key, len) != NULL;
    if (!over[i] && !v->conditional)
      hg_table_put(&seen, v->key, len, NULL);
  }
  hg_table_free(&seen);
  return over;
}

void hg_judge_read_kwargs(hg_judge *j, const hg_value *dict) {
  bool *over = overridden_items(dict);
  uint32_t builder_group = 0; // the dict literal a builder read here was spread into
  for (size_t i = 0; i < dict->n_items; i++) {
    const hg_value *v = &dict->items[i];
    if (!v->key) {
      if (v->kind == HG_VAL_BUILDER && v->conditional)
        continue; // applied on some paths only
      if (v->kind == HG_VAL_BUILDER) {
        if (v->n_items == 1 && v->items[0].kind == HG_VAL_LIST) {
          if (!j->mismatch)
            j->mismatch = v; // a command-line builder's words are no keywords
          continue;
        }
        if (v->n_items == 1 && v->items[0].kind != HG_VAL_DICT) {
          if (!j->carrier)
            j->carrier = &v->items[0];
          continue;
        }
        const hg_value *o = kwargs_overrider(j, dict, i);
        if (v->n_items == 1) {
          // What the builder yields, read from its definition, counts like the site's own keywords.
          bool was = j->in_builder;
          j->in_builder = true;
          hg_judge_read_kwargs(j, &v->items[0]);
          j->in_builder = was;
          j->applied = v;
          builder_group = v->group;
        } else {
          j->trusted = true;
          j->trusted_by = v;
        }
        j->builder = true;
        j->builder_safe |= !o;
        if (o && !j->overrider)
          j->overrider = o;
      } else if (!j->carrier) {
        j->carrier = v;
      }
      continue;
    }
    // A key merged again later (`{**{"read_only": True}, "read_only": False}`) takes its last value.
    if (!over[i]) {
      apply_keyword(j, v->key, v, builder_group && v->group == builder_group);
      check_forbidden(j, v->key, v, v, NULL, false);
    }
  }
  free(over);
}

// One option `name` with value `v` (NULL: none given), written as the argv item `word`;
// `value_item` is the separate item holding the value (NULL for --name=value and booleans, whose
// value lives on the caller's stack). After a builder, an option that sets a requirement again to
// something short of it replaces what the builder set.
static const hg_value TRUE_VALUE = {.kind = HG_VAL_TRUE, .text = "True"};

static void apply_flag(hg_judge *j, const char *name, const hg_value *v, const hg_value *word,
                       const hg_value *value_item) {
  const hg_value *where = value_item ? value_item : word;
  bool repeatable = hg_policy_is_repeatable_flag(j->policy, name);
  check_forbidden(j, name, v, word, value_item, v && v != &TRUE_VALUE && !hg_policy_is_boolean_flag(j->policy, name));
  for (size_t r = 0; r < j->policy->n_req; r++) {
    const hg_spelling *sp = &j->policy->req[r].spell[j->dialect];
    for (size_t m = 0; m < sp->n; m++)
      if (hg_matcher_has_name(&sp->m[m], name)) {
        hg_state s = v ? match_value(j, &sp->m[m], v) : HG_UNSAT;
        record(j, r, s, where, policy_name(&sp->m[m], name), v ? v->text : NULL, !repeatable);
        if (j->builder && !j->in_builder && !repeatable && s != HG_SAT) {
          j->builder_safe = false;
          if (!j->overrider)
            j->overrider = word;
        }
      }
  }
}

// One option word at items[*i]; advances *i past the value it consumes.
static void read_option(hg_judge *j, const hg_value *items, size_t n, size_t *i) {
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
    if (value_item && value_item->splat && !j->carrier)
      j->carrier = value_item; // it may split into the value and more words: flags among them
    if (strchr(name, HG_HOLE) && !j->carrier)
      j->carrier = &items[*i];
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
    if (value_item && value_item->splat && !j->carrier)
      j->carrier = value_item; // it may split into the value and more words: flags among them
    apply_flag(j, name, v, where, value_item);
    return;
  }
}

typedef HG_VEC(hg_value) word_vec;
typedef HG_VEC(const hg_value *) from_vec;

// The words from `items`, each builder whose result was read replaced by the words it yields (its
// own builders in turn), with the builder each word came from.
static void splice(hg_judge *j, const hg_value *items, size_t n, const hg_value *builder, word_vec *out, from_vec *from,
                   int depth) {
  for (size_t i = 0; i < n; i++) {
    const hg_value *v = &items[i];
    if (v->splat && v->kind == HG_VAL_BUILDER && !v->conditional && v->n_items == 1 && depth < 8) {
      const hg_value *y = &v->items[0];
      if (y->kind == HG_VAL_LIST) {
        splice(j, y->items, y->n_items, v, out, from, depth + 1);
        continue;
      }
      if (y->kind == HG_VAL_DICT) {
        if (!j->mismatch)
          j->mismatch = v; // a keyword builder's keys are no flags
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
static void read_options(hg_judge *j, const hg_value *items, const hg_value *const *from, size_t n) {
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
      if (v->kind == HG_VAL_BUILDER && v->conditional)
        continue; // applied on some paths only
      if (v->kind == HG_VAL_BUILDER) {
        // A builder taken at its word (trust: true).
        j->builder = j->builder_safe = j->trusted = true;
        j->trusted_by = v;
        j->overrider = NULL;
      } else {
        if (!j->carrier)
          j->carrier = v;
        if (j->builder && !j->in_builder) {
          j->builder_safe = false;
          if (!j->overrider)
            j->overrider = v;
        }
      }
      continue;
    }
    if (v->kind != HG_VAL_STR || v->text[0] != '-' || v->text[1] == '\0' || v->text[0] == HG_HOLE)
      break;
    if (!strcmp(v->text, "--"))
      break; // end of options: the image follows
    read_option(j, items, n, &i);
  }
  j->in_builder = false;
}

void hg_judge_read_argv(hg_judge *j, const hg_value *list) {
  const hg_value *items = list->items;
  size_t n = list->n_items;
  // The wrappers the command runs through (sudo -u ci, timeout -s KILL 30, nice -n N: the policy's
  // cli.wrappers, a word not known standing for an operand where one is due), then the program,
  // then the subcommand words within the next three.
  enum { MAX_LEAD = 64 };
  const char *lead[MAX_LEAD] = {0};
  size_t m = n < MAX_LEAD ? n : MAX_LEAD;
  for (size_t k = 0; k < m; k++)
    lead[k] = items[k].kind == HG_VAL_STR ? items[k].text : NULL;
  size_t program = hg_policy_skip_wrappers(j->policy, lead, m);
  if (program >= m)
    program = 0;
  size_t i = program + 1;
  for (size_t k = program + 1; k < n && k < program + 4; k++)
    if (items[k].kind == HG_VAL_STR && hg_policy_is_subcommand(j->policy, items[k].text)) {
      i = k;
      break;
    }
  while (i < n && items[i].kind == HG_VAL_STR && hg_policy_is_subcommand(j->policy, items[i].text))
    i++;
  word_vec words = {0};
  from_vec from = {0};
  splice(j, items + (i < n ? i : n), n - (i < n ? i : n), NULL, &words, &from, 0);
  j->words = words.items; // the hg_judge's messages point into it until hg_evaluate returns
  read_options(j, words.items, from.items, words.len);
  free(from.items);
}

// ---- mappings (compose services, Engine API bodies) ---------------------------------------------

static bool key_is(const hg_judge *j, const char *k, const char *name, size_t len) {
  if (!k || strlen(k) != len)
    return false;
  return j->fold_case ? !strncasecmp(k, name, len) : !memcmp(k, name, len);
}

// The item keyed `name` (len bytes) of a DICT: the last one, as Python and Go's encoding/json keep
// it, looking into the mappings builders yield where they are spread; NULL when none. A spread
// hardguard cannot follow could hold anything: it becomes the carrier (the site is unverifiable).
static const hg_value *dict_get(hg_judge *j, const hg_value *dict, const char *name, size_t len) {
  if (dict->kind == HG_VAL_BUILDER && dict->n_items == 1)
    dict = &dict->items[0]; // a builder's call in place of the mapping: what it yields
  if (dict->kind == HG_VAL_UNKNOWN && !j->carrier)
    j->carrier = dict; // a mapping on the way that could not be followed (a parameter) could hold it
  if (dict->kind != HG_VAL_DICT)
    return NULL;
  const hg_value *found = NULL;
  for (size_t i = 0; i < dict->n_items; i++) {
    const hg_value *v = &dict->items[i];
    if (v->key) {
      if (key_is(j, v->key, name, len))
        found = v;
    } else if (v->kind == HG_VAL_BUILDER && v->n_items == 1 && v->items[0].kind == HG_VAL_DICT) {
      const hg_value *in = dict_get(j, &v->items[0], name, len);
      if (in)
        found = in;
    } else if (!j->carrier) {
      j->carrier = v;
    }
  }
  return found;
}

typedef HG_VEC(const hg_value *) value_ptrs;

// The values at dotted name `p` below `at`. A list on the way is walked element by element (a pod's
// `spec.containers.securityContext...`): each end reached goes to `out`, and *absent is set when
// some element lacks the rest of the name while another has it.
static void path_values(hg_judge *j, const hg_value *at, const char *p, value_ptrs *out, bool *absent, int depth) {
  if (depth > 32)
    return;
  if (at->kind == HG_VAL_BUILDER && at->n_items == 1)
    at = &at->items[0]; // a builder's call in place of the mapping: what it yields
  if (at->kind == HG_VAL_UNKNOWN && depth > 0) {
    // Under a name on the way, a value hardguard could not follow (Go's `Config: cfg`, a
    // parameter): it can hold only what lies below that name, so it is the value looked up there,
    // unknown, not a spread that could hold anything.
    HG_VEC_PUSH(out, at);
    return;
  }
  if (at->kind == HG_VAL_LIST) {
    size_t before = out->len;
    bool missing = false;
    for (size_t i = 0; i < at->n_items; i++) {
      size_t had = out->len;
      path_values(j, &at->items[i], p, out, absent, depth + 1);
      missing |= out->len == had;
    }
    if (missing && out->len > before)
      *absent = true;
    return;
  }
  const char *dot = strchr(p, '.');
  const hg_value *v = dict_get(j, at, p, dot ? (size_t)(dot - p) : strlen(p));
  if (v && !dot)
    HG_VEC_PUSH(out, v);
  else if (v)
    path_values(j, v, dot + 1, out, absent, depth + 1);
}

// The values at a policy's dotted mapping name (`deploy.resources.limits.memory`,
// `HostConfig.CapDrop`, `spec.containers.securityContext.privileged`): see path_values. A dialect
// whose sites hold the mapping found `at` a name (`HostConfig`) reads the names below it there, and
// has none of the others.
static void mapping_lookup(hg_judge *j, const hg_value *mapping, const char *name, value_ptrs *out, bool *absent) {
  out->len = 0;
  *absent = false;
  const char *within = j->policy->dialects[j->dialect].at;
  if (within) {
    size_t n = strlen(within);
    if (strncmp(name, within, n) != 0 || name[n] != '.')
      return;
    name += n + 1;
  }
  path_values(j, mapping, name, out, absent, 0);
}

// How `v` stands against requirement matcher `m`: a mapping where a scalar belongs never
// satisfies; an interpolation is unverifiable when the matcher reads the value.
static hg_state mapping_match(const hg_judge *j, const hg_matcher *m, const hg_value *v) {
  switch (v->kind) {
  case HG_VAL_DICT: return HG_UNSAT;
  case HG_VAL_LIST: return best_item(j, m, v, mapping_match);
  default: return match_value(j, m, v);
  }
}

void hg_judge_read_mapping(hg_judge *j, const hg_value *mapping) {
  const hg_policy *p = j->policy;
  value_ptrs ends = {0};
  if (mapping->kind != HG_VAL_DICT && !(mapping->kind == HG_VAL_BUILDER && mapping->n_items == 1) && !j->carrier)
    j->carrier = mapping; // a service whose merge keys, or a body, that could not be followed
  for (size_t r = 0; r < p->n_req; r++) {
    const hg_spelling *sp = &p->req[r].spell[j->dialect];
    for (size_t m = 0; m < sp->n; m++) {
      const hg_matcher *mt = &sp->m[m];
      for (size_t k = 0; k < mt->n_names; k++) {
        // Reached through a list, every element must carry it: the weakest counts, and an element
        // without it leaves the requirement unmet.
        bool absent;
        mapping_lookup(j, mapping, mt->names[k], &ends, &absent);
        const hg_value *worst = NULL;
        hg_state state = HG_SAT;
        for (size_t e = 0; e < ends.len; e++) {
          hg_state st = mapping_match(j, mt, ends.items[e]);
          if (!worst || st < state)
            worst = ends.items[e], state = st;
        }
        if (worst)
          record(j, r, absent ? HG_UNSAT : state, worst, mt->names[k], worst->text, false);
      }
    }
  }
  for (size_t f = 0; f < p->n_forbid; f++) {
    const hg_spelling *sp = &p->forbid[f].spell[j->dialect];
    for (size_t m = 0; m < sp->n && !j->forbid_hit[f]; m++) {
      const hg_matcher *mt = &sp->m[m];
      for (size_t k = 0; k < mt->n_names && !j->forbid_hit[f]; k++) {
        bool absent;
        mapping_lookup(j, mapping, mt->names[k], &ends, &absent);
        for (size_t e = 0; e < ends.len && !j->forbid_hit[f]; e++) {
          const hg_value *v = ends.items[e], *unknown = NULL;
          const hg_value *hit = forbidden_part(j, mt, v, &unknown);
          if (hit) {
            j->forbid_hit[f] = v;
            j->forbid_name[f] = mt->names[k];
            j->forbid_value[f] = hit != v ? hit : NULL; // the list entry that sets it
          } else if (unknown && !j->undoer) {
            j->undoer = unknown;
            j->undoer_forbid = f;
          }
        }
      }
    }
  }
  // A name the dialect's tool reads otherwise, or that says what a failing site needs to hear (a
  // compose service publishing `ports` needs a network): the first value found at it.
  const hg_dialect *d = &p->dialects[j->dialect];
  for (size_t t = 0; t < d->n_traps; t++) {
    bool absent;
    mapping_lookup(j, mapping, d->traps[t].name, &ends, &absent);
    if (!j->trap_hit[t] && ends.len)
      j->trap_hit[t] = ends.items[0];
  }
  free(ends.items);
}

void hg_judge_read_words(hg_judge *j, const hg_value *list) {
  word_vec words = {0};
  from_vec from = {0};
  splice(j, list->items, list->n_items, NULL, &words, &from, 0);
  free(j->words);
  j->words = words.items;
  read_options(j, words.items, from.items, words.len);
  free(from.items);
}

bool hg_judge_unlimited(const hg_judge *j, size_t r) {
  const hg_value *v = j->src[r];
  const char *name = j->src_name[r], *value = j->src_value[r];
  if (j->req[r] == HG_SAT || !v || !name || !value || !literal(v))
    return false;
  const hg_spelling *sp = &j->policy->req[r].spell[j->dialect];
  for (size_t m = 0; m < sp->n; m++)
    if (policy_name(&sp->m[m], name) && hg_matcher_unlimited(&sp->m[m], value, j->md))
      return true;
  return false;
}

void hg_judge_init(hg_judge *j, const hg_policy *policy, int dialect, pcre2_match_data *md) {
  size_t nf = policy->n_forbid ? policy->n_forbid : 1;
  const hg_dialect *d = &policy->dialects[dialect];
  *j = (hg_judge){.policy = policy,
                  .dialect = (size_t)dialect,
                  .fold_case = d->fold_case,
                  .trap_hit = hg_xcalloc(d->n_traps ? d->n_traps : 1, sizeof(hg_value *)),
                  .md = md,
                  .forbid_hit = hg_xcalloc(nf, sizeof(hg_value *)),
                  .forbid_name = hg_xcalloc(nf, sizeof(char *)),
                  .forbid_value = hg_xcalloc(nf, sizeof(hg_value *)),
                  .forbid_cond = hg_xcalloc(nf, sizeof(char *))};
}

void hg_judge_free(hg_judge *j) {
  free(j->words);
  free(j->trap_hit);
  free(j->forbid_hit);
  free(j->forbid_name);
  free(j->forbid_value);
  for (size_t f = 0; f < j->policy->n_forbid; f++)
    free(j->forbid_cond[f]);
  free(j->forbid_cond);
  for (size_t r = 0; r < HG_POLICY_MAX_REQ; r++)
    free(j->alt_cond[r]);
  for (size_t i = 0; i < j->kept.len; i++)
    free(j->kept.items[i]);
  free(j->kept.items);
  free(j->ctx.items);
}
