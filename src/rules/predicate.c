#include "rules/predicate.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


typedef enum {
  OP_EQ,
  OP_NOT_EQ,
  OP_ANY_OF,
  OP_CONTAINS,
  OP_MATCH,
  OP_NOT_MATCH,
  OP_RESOLVES_TO,
  OP_RESOLVES_SUFFIX,
  OP_FILE_CONTAINS,
  OP_IMPORTS,
  OP_NOT_IMPORTS,
  OP_SDK,
  OP_VALUE_CONTAINS,
  OP_DEFINED,
  OP_NOT_DEFINED,
  OP_MAPPING,
} op_kind;

typedef struct {
  op_kind op;
  uint32_t capture;
  bool required;          // the capture is in every match of the pattern (not optional, not in one alternative only)
  int64_t other_capture;  // #eq? @a @b; -1 otherwise
  char **args;
  size_t n_args;
  char **words;  // #resolves-to-suffix?: the longest component of each argument, for the prefilter
  char **lasts;  // #resolves-to?, #resolves-to-suffix?: the last component of each argument, its
                 // `()` left out (a call "docker.APIClient()" ends in its callee, APIClient) ...
  size_t *last_lens;  // ... and their lengths
  pcre2_code *re;
  // re compiled to machine code (pcre2's JIT), once it has been matched JIT_AFTER times: a run on a
  // few files does not pay for compiling what it barely uses (the JIT of the Python rules' regexes is
  // 1.5 % of a pre-commit run's instructions; interpreted, they cost corpus B 0.8 % more).
  _Atomic(pcre2_code *) jit;
  atomic_uint uses;
  // #file-contains?: the bits of its strings in `file_words` (hg_predicates_bind_words), which a context
  // with those words finds in one pass; 0: it searches the file itself.
  const hg_file_words *file_words;
  uint64_t word_mask;
} predicate;

enum { JIT_AFTER = 64 };

typedef struct {
  char *key, *value;
} property;

struct hg_predicates {
  HG_VEC(predicate) preds;
  HG_VEC(property) props;
};

static const struct {
  const char *name;
  op_kind op;
  int min_args;  // string arguments after the capture (-1: exactly one capture or string)
} OPS[] = {
    {"eq?", OP_EQ, -1},
    {"not-eq?", OP_NOT_EQ, -1},
    {"any-of?", OP_ANY_OF, 1},
    {"contains?", OP_CONTAINS, 1},
    {"match?", OP_MATCH, 1},
    {"not-match?", OP_NOT_MATCH, 1},
    {"resolves-to?", OP_RESOLVES_TO, 1},
    {"resolves-to-suffix?", OP_RESOLVES_SUFFIX, 1},
    {"file-contains?", OP_FILE_CONTAINS, 1},
    {"imports?", OP_IMPORTS, 1},
    {"not-imports?", OP_NOT_IMPORTS, 1},
    {"sdk?", OP_SDK, 1},
    {"value-contains?", OP_VALUE_CONTAINS, 1},
    {"defined-in-project?", OP_DEFINED, 0},
    {"not-defined-in-project?", OP_NOT_DEFINED, 0},
    {"mapping?", OP_MAPPING, 0},
    {"policy-calls?", OP_RESOLVES_TO, 1},
};

void hg_predicates_bind_words(hg_predicates *self, hg_file_words *words) {
  for (size_t i = 0; self && i < self->preds.len; i++) {
    predicate *p = &self->preds.items[i];
    if (p->op != OP_FILE_CONTAINS) continue;
    uint64_t mask = 0, bit = 1;
    for (size_t a = 0; a < p->n_args && bit; a++) mask |= bit = hg_file_words_bit(words, p->args[a]);
    if (bit) p->file_words = words, p->word_mask = mask;  // else one string has no bit: it searches itself
  }
}

void hg_predicates_free(hg_predicates *self) {
  if (!self) return;
  for (size_t i = 0; i < self->preds.len; i++) {
    hg_strv_free(self->preds.items[i].args, self->preds.items[i].n_args);
    hg_strv_free(self->preds.items[i].words, self->preds.items[i].words ? self->preds.items[i].n_args : 0);
    hg_strv_free(self->preds.items[i].lasts, self->preds.items[i].lasts ? self->preds.items[i].n_args : 0);
    free(self->preds.items[i].last_lens);
    pcre2_code_free(self->preds.items[i].re);
    pcre2_code_free(atomic_load(&self->preds.items[i].jit));
  }
  for (size_t i = 0; i < self->props.len; i++) {
    free(self->props.items[i].key);
    free(self->props.items[i].value);
  }
  free(self->preds.items);
  free(self->props.items);
  free(self);
}

// Is `name` (len bytes) one of `list`'s entries' names?
static bool names_entry(char *const *list, size_t n, const char *name, size_t len) {
  const char *at;
  for (size_t i = 0; i < n; i++)
    if (hg_policy_call_name(list[i], &at) == len && !memcmp(list[i], name, len)) return true;
  return false;
}

// #policy-calls? @c "forwarding_calls" ["kw"] | "partial_calls": the names a #resolves-to? of the
// policy's classes list holds (predicate.h), so that a call is written once for the sites and for
// the search of a function's callers. 0, or -1 with err.
static int policy_calls(const hg_policy *policy, char *const *args, size_t n_args, char ***out, size_t *n_out,
                        hg_error *err) {
  if (!policy) return hg_error_set(err, "#policy-calls? needs the rules' policy");
  bool forwarding = !strcmp(args[0], "forwarding_calls"), partial = !strcmp(args[0], "partial_calls");
  if ((!forwarding && !partial) || n_args > 2 || (partial && n_args > 1))
    return hg_error_set(err, "#policy-calls? takes \"forwarding_calls\" (and the keyword the callable is handed "
                             "in, if any) or \"partial_calls\"");
  char *const *list = forwarding ? policy->forwarding_calls : policy->partial_calls;
  size_t n = forwarding ? policy->n_forwarding_calls : policy->n_partial_calls;
  const char *kw = n_args > 1 ? args[1] : NULL;
  *out = hg_xcalloc(n ? n : 1, sizeof(char *));
  *n_out = 0;
  for (size_t i = 0; i < n; i++) {
    const char *at;
    size_t len = hg_policy_call_name(list[i], &at), kw_len = hg_policy_call_keyword(at);
    bool keyword = kw_len > 0;
    bool take = !forwarding ? true
                : kw        ? keyword && strlen(kw) == kw_len && !memcmp(at, kw, kw_len)
                            // handed it by position and calling it now: a partial is called later
                            : !keyword && !names_entry(policy->partial_calls, policy->n_partial_calls, list[i], len);
    if (take) (*out)[(*n_out)++] = hg_xstrndup(list[i], len);
  }
  return 0;
}

static int compile_one(hg_predicates *self, const hg_shapes *q, uint32_t pattern, const TSQueryPredicateStep *s,
                       uint32_t n, const hg_policy *policy, hg_error *err) {
  if (n == 0 || s[0].type != TSQueryPredicateStepTypeString)
    return hg_error_set(err, "a predicate must start with its name");
  const char *name = hg_shapes_string(q, s[0].value_id);
  if (strcmp(name, "set!") == 0) {
    if (n != 3 || s[1].type != TSQueryPredicateStepTypeString || s[2].type != TSQueryPredicateStepTypeString)
      return hg_error_set(err, "#set! takes a key and a value");
    property p = {hg_xstrdup(hg_shapes_string(q, s[1].value_id)),
                  hg_xstrdup(hg_shapes_string(q, s[2].value_id))};
    HG_VEC_PUSH(&self->props, p);
    return 0;
  }
  size_t k = 0;
  while (k < HG_ARRAY_LEN(OPS) && strcmp(OPS[k].name, name) != 0) k++;
  if (k == HG_ARRAY_LEN(OPS))
    return hg_error_set(err,
                        "unknown predicate #%s (known: #eq? #not-eq? #any-of? #contains? #match? "
                        "#not-match? #resolves-to? #resolves-to-suffix? #file-contains? #imports? "
                        "#not-imports? #sdk? #value-contains? #defined-in-project? #not-defined-in-project? "
                        "#mapping? #policy-calls? #set!)",
                        name);
  if (OPS[k].op == OP_FILE_CONTAINS || OPS[k].op == OP_IMPORTS || OPS[k].op == OP_NOT_IMPORTS) {
    // No capture: the file holds one of the strings (a site whose code may come from elsewhere in
    // the file, such as a command kept in a variable, still needs its words somewhere in it), or
    // imports (or does not import) one of the modules, in any form.
    predicate p = {.op = OPS[k].op, .capture = UINT32_MAX, .other_capture = -1, .required = true};
    if (n < 2) return hg_error_set(err, "#%s needs a string", name);
    p.args = hg_xcalloc(n - 1, sizeof(char *));
    for (uint32_t i = 1; i < n; i++) {
      if (s[i].type != TSQueryPredicateStepTypeString) {
        hg_strv_free(p.args, p.n_args);
        return hg_error_set(err, "#%s: argument %u must be a string", name, i);
      }
      p.args[p.n_args++] = hg_xstrdup(hg_shapes_string(q, s[i].value_id));
    }
    HG_VEC_PUSH(&self->preds, p);
    return 0;
  }
  if (OPS[k].min_args == 0) {
    // A capture alone: #defined-in-project? @callee
    if (n != 2 || s[1].type != TSQueryPredicateStepTypeCapture)
      return hg_error_set(err, "#%s takes one capture", name);
    TSQuantifier quantifier = hg_shapes_capture_quantifier(q, pattern, s[1].value_id);
    predicate p = {.op = OPS[k].op,
                   .capture = s[1].value_id,
                   .other_capture = -1,
                   .required = quantifier == TSQuantifierOne || quantifier == TSQuantifierOneOrMore};
    HG_VEC_PUSH(&self->preds, p);
    return 0;
  }
  if (n < 3 || s[1].type != TSQueryPredicateStepTypeCapture)
    return hg_error_set(err, "#%s needs a capture and an argument", name);
  TSQuantifier quantifier = hg_shapes_capture_quantifier(q, pattern, s[1].value_id);
  predicate p = {.op = OPS[k].op, .capture = s[1].value_id, .other_capture = -1,
                 .required = quantifier == TSQuantifierOne || quantifier == TSQuantifierOneOrMore};
  if (OPS[k].min_args < 0) {
    if (n != 3) return hg_error_set(err, "#%s takes exactly two arguments", name);
    if (s[2].type == TSQueryPredicateStepTypeCapture) p.other_capture = s[2].value_id;
  }
  if (p.other_capture < 0) {
    p.args = hg_xcalloc(n - 2, sizeof(char *));
    for (uint32_t i = 2; i < n; i++) {
      if (s[i].type != TSQueryPredicateStepTypeString) {
        hg_strv_free(p.args, p.n_args);
        return hg_error_set(err, "#%s: argument %u must be a string", name, i);
      }
      p.args[p.n_args++] = hg_xstrdup(hg_shapes_string(q, s[i].value_id));
    }
  }
  if (!strcmp(name, "policy-calls?")) {
    char **names = NULL;
    size_t n_names = 0;
    int rc = policy_calls(policy, p.args, p.n_args, &names, &n_names, err);
    hg_strv_free(p.args, p.n_args);
    if (rc != 0) return -1;
    p.args = names, p.n_args = n_names;
  }
  if (p.op == OP_RESOLVES_TO || p.op == OP_RESOLVES_SUFFIX) {
    p.lasts = hg_xcalloc(p.n_args, sizeof(char *));
    p.last_lens = hg_xcalloc(p.n_args, sizeof(size_t));
    for (size_t j = 0; j < p.n_args; j++) {
      const char *dot = strrchr(p.args[j], '.');
      const char *last = dot ? dot + 1 : p.args[j];
      size_t len = strlen(last);
      if (len > 2 && !strcmp(last + len - 2, "()"))
        len -= 2;
      p.lasts[j] = hg_xstrndup(last, len);
      p.last_lens[j] = len;
    }
  }
  if (p.op == OP_RESOLVES_SUFFIX) {
    // Every component of the suffix is written somewhere in the file (at the use, or where an
    // alias was made): the longest is the most selective literal.
    p.words = hg_xcalloc(p.n_args, sizeof(char *));
    for (size_t j = 0; j < p.n_args; j++) {
      const char *lit = p.args[j];
      size_t best = 0, best_len = 0;
      for (size_t c = 0; lit[c];) {
        size_t e = c;
        while (lit[e] && lit[e] != '.') e++;
        if (e - c > best_len) best = c, best_len = e - c;
        c = lit[e] ? e + 1 : e;
      }
      p.words[j] = hg_xstrndup(lit + best, best_len);
    }
  }
  if (p.op == OP_MATCH || p.op == OP_NOT_MATCH) {
    if (p.n_args != 1) {
      hg_strv_free(p.args, p.n_args);
      return hg_error_set(err, "#%s takes one regex", name);
    }
    int code;
    PCRE2_SIZE off;
    p.re = pcre2_compile((PCRE2_SPTR)p.args[0], PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code, &off, NULL);
    if (!p.re) {
      PCRE2_UCHAR msg[256];
      pcre2_get_error_message(code, msg, sizeof(msg));
      hg_error_set(err, "#%s: invalid regex \"%s\" at offset %zu: %s", name, p.args[0], (size_t)off, msg);
      hg_strv_free(p.args, p.n_args);
      return -1;
    }
  }
  HG_VEC_PUSH(&self->preds, p);
  return 0;
}

int hg_predicates_compile(hg_predicates **out, const hg_shapes *query, uint32_t index, const hg_policy *policy,
                          hg_error *err) {
  *out = NULL;
  uint32_t n;
  const TSQueryPredicateStep *steps = hg_shapes_predicates(query, index, &n);
  if (n == 0) return 0;
  hg_predicates *self = hg_xcalloc(1, sizeof(hg_predicates));
  for (uint32_t start = 0, i = 0; i < n; i++) {
    if (steps[i].type != TSQueryPredicateStepTypeDone) continue;
    if (compile_one(self, query, index, steps + start, i - start, policy, err) != 0) {
      hg_predicates_free(self);
      return -1;
    }
    start = i + 1;
  }
  *out = self;
  return 0;
}

const char *hg_predicates_property(const hg_predicates *self, const char *key) {
  for (size_t i = 0; self && i < self->props.len; i++)
    if (strcmp(self->props.items[i].key, key) == 0) return self->props.items[i].value;
  return NULL;
}

void hg_predicates_literals(const hg_predicates *self,
                            void (*fn)(void *ctx, unsigned group, const char *lit, bool whole), void *ctx) {
  for (size_t i = 0; self && i < self->preds.len; i++) {
    const predicate *p = &self->preds.items[i];
    if (p->op != OP_EQ && p->op != OP_ANY_OF && p->op != OP_CONTAINS && p->op != OP_RESOLVES_TO &&
        p->op != OP_RESOLVES_SUFFIX && p->op != OP_FILE_CONTAINS && p->op != OP_VALUE_CONTAINS)
      continue;
    // A capture that a match may lack constrains nothing then: its literal need not be in the file.
    if (!p->required) continue;
    for (size_t j = 0; j < p->n_args; j++) {
      const char *lit = p->args[j];
      if (p->op == OP_RESOLVES_TO && strrchr(lit, '.')) lit = strrchr(lit, '.') + 1;
      if (p->op == OP_RESOLVES_SUFFIX) lit = p->words[j];
      if (!*lit) continue;
      // A whole capture equal to the literal is a whole token in the file (an identifier, or a
      // string's entire content); a #contains? literal may sit inside a word.
      fn(ctx, (unsigned)i, lit, p->op != OP_CONTAINS && p->op != OP_FILE_CONTAINS && p->op != OP_VALUE_CONTAINS);
    }
  }
}

static bool capture_node(const TSQueryMatch *m, uint32_t id, TSNode *out) {
  for (uint16_t i = 0; i < m->capture_count; i++)
    if (m->captures[i].index == id) {
      *out = m->captures[i].node;
      return true;
    }
  return false;
}

static bool text_eq(const char *src, TSNode n, const char *s) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return strlen(s) == b - a && memcmp(src + a, s, b - a) == 0;
}

// The surface's answers, or none.
static bool imports(const hg_predctx *ctx, const char *module) {
  return ctx->names && ctx->names->imports(ctx->model, module);
}

static bool qualify(hg_predctx *ctx, TSNode node) {
  ctx->scratch->len = 0;
  return ctx->names && ctx->names->qualify(ctx->model, node, ctx->scratch);
}

// The predicate's regex to match with: the JIT's copy once made; the JIT_AFTER-th use makes it (one
// thread: the one whose use it is), on a copy, so that no thread matches a code being compiled.
// Best effort: where the JIT is not available, the interpreter goes on.
static const pcre2_code *regex_of(const predicate *cp) {
  predicate *p = (predicate *)(uintptr_t)cp;  // the JIT copy and the count are a cache
  pcre2_code *jit = atomic_load_explicit(&p->jit, memory_order_acquire);
  if (jit) return jit;
  if (atomic_fetch_add_explicit(&p->uses, 1, memory_order_relaxed) == JIT_AFTER) {
    pcre2_code *copy = pcre2_code_copy(p->re);
    if (copy && pcre2_jit_compile(copy, PCRE2_JIT_COMPLETE) == 0) {
      atomic_store_explicit(&p->jit, copy, memory_order_release);
      return copy;
    }
    pcre2_code_free(copy);
  }
  return p->re;
}

static bool eval_one(const predicate *p, const TSQueryMatch *m, hg_predctx *ctx) {
  TSNode node;
  if (p->op == OP_FILE_CONTAINS) {
    for (unsigned i = 0; i < ctx->n_file_memo; i++)
      if (ctx->file_memo[i].key == p) return ctx->file_memo[i].value;
    size_t len = ctx->len ? ctx->len : strlen(ctx->src);
    bool found = false;
    if (p->word_mask && ctx->words == p->file_words) {
      if (!ctx->words_read) ctx->words_in = hg_file_words_in(ctx->words, ctx->src, len), ctx->words_read = true;
      found = (ctx->words_in & p->word_mask) != 0;
    } else {
      for (size_t i = 0; i < p->n_args && !found; i++) found = memmem(ctx->src, len, p->args[i], strlen(p->args[i]));
    }
    if (ctx->n_file_memo < HG_ARRAY_LEN(ctx->file_memo))
      ctx->file_memo[ctx->n_file_memo].key = p, ctx->file_memo[ctx->n_file_memo++].value = found;
    return found;
  }
  if (p->op == OP_IMPORTS || p->op == OP_NOT_IMPORTS) {
    bool any = false;
    for (size_t i = 0; i < p->n_args && !any; i++)
      any = imports(ctx, p->args[i]);
    return p->op == OP_IMPORTS ? any : !any;
  }
  // A capture absent from the match (optional or quantified away) does not constrain it.
  if (!capture_node(m, p->capture, &node)) return true;
  const char *src = ctx->src;
  uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
  switch (p->op) {
  case OP_EQ:
  case OP_NOT_EQ: {
    bool eq;
    TSNode other;
    if (p->other_capture >= 0) {
      if (!capture_node(m, (uint32_t)p->other_capture, &other)) return true;
      uint32_t c = ts_node_start_byte(other), d = ts_node_end_byte(other);
      eq = b - a == d - c && memcmp(src + a, src + c, b - a) == 0;
    } else {
      eq = text_eq(src, node, p->args[0]);
    }
    return p->op == OP_EQ ? eq : !eq;
  }
  case OP_ANY_OF:
    for (size_t i = 0; i < p->n_args; i++)
      if (text_eq(src, node, p->args[i])) return true;
    return false;
  case OP_CONTAINS:
    for (size_t i = 0; i < p->n_args; i++)
      if (hg_find(src + a, b - a, p->args[i], strlen(p->args[i]))) return true;
    return false;
  case OP_MATCH:
  case OP_NOT_MATCH: {
    int rc = pcre2_match(regex_of(p), (PCRE2_SPTR)(src + a), b - a, 0, 0, ctx->md, NULL);
    // Undecided (pcre2's match or depth limit, on text built to make the regex backtrack): the
    // match is kept whichever the predicate, so that a site is reported rather than dropped.
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) return true;
    return p->op == OP_MATCH ? rc >= 0 : rc < 0;
  }
  case OP_RESOLVES_TO:
  case OP_RESOLVES_SUFFIX: {
    // Most calls end in some other name: rule them out before building qualified names.
    if (ctx->names && ctx->names->may_end_in && !ctx->names->may_end_in(ctx->model, node, p->lasts, p->last_lens, p->n_args))
      return false;
    if (!qualify(ctx, node)) return false;
    const char *q = ctx->scratch->data;
    size_t qn = strlen(q);
    for (size_t i = 0; i < p->n_args; i++) {
      size_t an = strlen(p->args[i]);
      // `*.name`: a method of that name, on any receiver
      if (!strncmp(p->args[i], "*.", 2) && qn > an - 2 && q[qn - an + 1] == '.' && !strcmp(q + qn - an + 2, p->args[i] + 2))
        return true;
      if (strcmp(q, p->args[i]) == 0) return true;
      if (p->op == OP_RESOLVES_SUFFIX && qn > an && q[qn - an - 1] == '.' && strcmp(q + qn - an, p->args[i]) == 0)
        return true;
    }
    return false;
  }
  case OP_VALUE_CONTAINS: {
    // The value the expression holds (a name followed to its string, an f-string's literal
    // parts), or its text when it cannot be followed, contains one of the strings.
    const char *text = ctx->names && ctx->names->string_value ? ctx->names->string_value(ctx->model, node) : NULL;
    size_t tn = text ? strlen(text) : b - a;
    if (!text) text = src + a;
    for (size_t i = 0; i < p->n_args; i++)
      if (hg_find(text, tn, p->args[i], strlen(p->args[i]))) return true;
    return false;
  }
  case OP_SDK: {
    // The first module is the call's SDK: its qualified name starts in it (or in another listed
    // one: then it is not). A name into another imported module without a call on the way
    // (`subprocess.run`) is that module's. Anything else (a parameter or local, `docker` in an
    // aiodocker module; a project's factory, `make_client().containers.run`) is the SDK's when the
    // file imports it and none of the others.
    bool ok = qualify(ctx, node);
    const char *q = ok ? ctx->scratch->data : "";
    for (size_t i = 0; ok && i < p->n_args; i++) {
      size_t an = strlen(p->args[i]);
      if (!strncmp(q, p->args[i], an) && (q[an] == '.' || q[an] == '(') && imports(ctx, p->args[i]))
        return i == 0;
    }
    size_t head = strcspn(q, ".(");
    char first[128];
    if (ok && !strstr(q, "()") && head < sizeof(first)) {
      memcpy(first, q, head);
      first[head] = '\0';
      if (imports(ctx, first)) return false;
    }
    for (size_t i = 1; i < p->n_args; i++)
      if (imports(ctx, p->args[i])) return false;
    return imports(ctx, p->args[0]);
  }
  case OP_DEFINED:
  case OP_NOT_DEFINED: {
    // Without the surface's answer (an import fact) nothing is known to be defined.
    bool defined = ctx->names && ctx->names->defined && ctx->names->defined(ctx->model, node);
    return p->op == OP_DEFINED ? defined : !defined;
  }
  case OP_MAPPING:
    // The capture's value, names followed, is a mapping (each of several, when it is one of them).
    return ctx->names && ctx->names->mapping && ctx->names->mapping(ctx->model, node);
  case OP_FILE_CONTAINS:
  case OP_IMPORTS:
  case OP_NOT_IMPORTS: break; // decided above
  }
  return false;
}

// Predicates hg_predicates_may_hold decides on their capture's node, or on the file.
static bool node_test(const predicate *p) {
  return (p->op == OP_EQ || p->op == OP_NOT_EQ) ? p->other_capture < 0
         : p->op == OP_ANY_OF || p->op == OP_CONTAINS || p->op == OP_FILE_CONTAINS || p->op == OP_RESOLVES_TO ||
           p->op == OP_RESOLVES_SUFFIX;
}

void hg_predicates_node_tests(const hg_predicates *self, void (*fn)(void *ctx, uint32_t i, uint32_t capture),
                              void *ctx) {
  for (size_t i = 0; self && i < self->preds.len; i++) {
    const predicate *p = &self->preds.items[i];
    if (node_test(p)) fn(ctx, (uint32_t)i, p->op == OP_FILE_CONTAINS ? UINT32_MAX : p->capture);
  }
}

bool hg_predicates_may_hold(const hg_predicates *self, uint32_t i, TSNode node, hg_predctx *ctx) {
  const predicate *p = &self->preds.items[i];
  if (p->op == OP_RESOLVES_TO || p->op == OP_RESOLVES_SUFFIX)
    return !(ctx->names && ctx->names->ends_elsewhere &&
             ctx->names->ends_elsewhere(ctx->model, node, p->lasts, p->last_lens, p->n_args));
  // The others read the node's text (or the file) alone: asked of a match holding just that node.
  TSQueryCapture c = {node, p->capture};
  TSQueryMatch m = {.capture_count = 1, .captures = &c};
  return eval_one(p, &m, ctx);
}

bool hg_predicates_same_test(const hg_predicates *a, uint32_t i, const hg_predicates *b, uint32_t j) {
  const predicate *x = &a->preds.items[i], *y = &b->preds.items[j];
  if (x->op != y->op || x->n_args != y->n_args || (x->other_capture < 0) != (y->other_capture < 0)) return false;
  for (size_t k = 0; k < x->n_args; k++)
    if (strcmp(x->args[k], y->args[k]) != 0) return false;
  return true;
}

// Predicates read from the match's text alone (not the file's imports or aliases).
static bool text_only(op_kind op) {
  return op == OP_EQ || op == OP_NOT_EQ || op == OP_ANY_OF || op == OP_CONTAINS || op == OP_MATCH ||
         op == OP_NOT_MATCH || op == OP_FILE_CONTAINS;
}

// The predicates of one side: those that read the match's text alone, or the others.
static bool eval_side(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx, bool text) {
  for (size_t i = 0; self && i < self->preds.len; i++)
    if (text_only(self->preds.items[i].op) == text && !eval_one(&self->preds.items[i], match, ctx)) return false;
  return true;
}

bool hg_predicates_eval_text(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx) {
  return eval_side(self, match, ctx, true);
}

bool hg_predicates_eval_context(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx) {
  return eval_side(self, match, ctx, false);
}

bool hg_predicates_eval(const hg_predicates *self, const TSQueryMatch *match, hg_predctx *ctx) {
  for (size_t i = 0; self && i < self->preds.len; i++)
    if (!eval_one(&self->preds.items[i], match, ctx)) return false;
  return true;
}
