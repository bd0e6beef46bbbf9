// Where the calls of a definition may stand, for the search of its callers (callers.c): which
// files the project's table of calls gives, narrowed by what a file must import or build to call
// it, and which calls of a parsed module may be its calls.
#include "surfaces/python/project/candidates.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/imports.h"
#include "surfaces/python/project/calls.h"
#include "surfaces/python/project/defs.h"

// Does dotted name `a` name module or definition `b`: the same, or `a` is `b` reached through the
// `src` of a src layout (`src.pkg.mod`: hg_package_of names the module `pkg.mod`; a project run
// from its top may still import it so)?
static bool same_name(const char *a, const char *b) {
  return !strcmp(a, b) || (!strncmp(a, "src.", 4) && !strcmp(a + 4, b)) || (!strncmp(b, "src.", 4) && !strcmp(b + 4, a));
}

// Are modules a and b one file (the same module, or the file being checked and the index's copy
// of it, whatever name the lookup that first read it gave it)?
static bool same_file(const hg_module *a, const hg_module *b) {
  if (!a || !b || a == b)
    return a && a == b;
  char ra[PATH_MAX], rb[PATH_MAX];
  return a->path && b->path && realpath(a->path, ra) && realpath(b->path, rb) && !strcmp(ra, rb);
}

// Is definition `node` of module `m` the definition `fn` of module `fm`? The same file may be
// parsed twice (the file being checked, and the index's copy of it when another module imports it),
// and the copy named by the first import that read it: the names, else the files, decide.
bool hg_candidates__same_def(const hg_module *m, TSNode node, const hg_module *fm, TSNode fn) {
  if (!m || !fm || ts_node_is_null(node))
    return false;
  if (m == fm)
    return ts_node_eq(node, fn);
  if (ts_node_start_byte(node) != ts_node_start_byte(fn) || ts_node_end_byte(node) != ts_node_end_byte(fn))
    return false;
  return (m->name && fm->name && *m->name && same_name(m->name, fm->name)) || same_file(m, fm);
}

// Can callee `f` in module m (r's own when `own`) be `target` (the dotted name of a function or
// class `name` of another module `def`, "pkg.mod.f"), not a method? `f`: in r's own module, or
// where m imports that very name; `a.b.f`: where it qualifies to that name through m's imports, or
// to a name of the same last part that the project's modules hand on to it (`from pkg import f`,
// pkg/__init__.py importing f from pkg.mod).
static bool may_call_function(const hg_resolver *r, const hg_module *m, TSNode f, bool own, const hg_module *def,
                              const char *name, size_t len, const char *target) {
  if (own && hg_node_is(f, "identifier"))
    return true;
  if (!target)
    return false;
  hg_buf q = {0};
  bool ok = hg_imports_qualify(m->imports, f, m->src, &q) && q.data && same_name(q.data, target);
  const char *last = q.data ? strrchr(q.data, '.') : NULL;
  if (!ok && last && strlen(last + 1) == len && !memcmp(last + 1, name, len)) {
    hg_resolver rm = hg_project__in_module(r, m);
    hg_target t = hg_defs__qualified(&rm, q.data, 0);
    ok = (t.kind == HG_DEF_FUNCTION || t.kind == HG_DEF_CLASS) && same_file(t.module, def) &&
         hg_node_text_eq(hg_node_field(t.node, "name"), t.module->src, name, len);
  }
  hg_buf_free(&q);
  return ok;
}

// The length of an entry's name (rules/policy.h hg_policy_call_name), without its `@` part.
static size_t entry_len(const char *entry) {
  const char *at;
  return hg_policy_call_name(entry, &at);
}

// The last name of an entry (`submit` of `*.submit`), len bytes.
static const char *last_name(const char *entry, size_t *len) {
  size_t n = entry_len(entry), start = n;
  while (start > 0 && entry[start - 1] != '.')
    start--;
  *len = n - start;
  return entry + start;
}

// Does the callee (qualified through the imports, or for `*.x` its own last name) match `entry`?
static bool forwarder_named(const char *entry, const char *qualified, TSNode callee, const char *src) {
  size_t n = entry_len(entry);
  if (!strncmp(entry, "*.", 2))
    return hg_node_is(callee, "attribute") && hg_node_text_eq(hg_node_field(callee, "attribute"), src, entry + 2, n - 2);
  return qualified && strlen(qualified) == n && !memcmp(qualified, entry, n);
}

// The calls of module m (the i-th looked in: 0 is r's own) written `name` or `x.name` that may call
// the function or class `name` of module `def` (NULL: any call so written, confirmed later; so for
// a method, called on objects).
void hg_candidates__candidate_calls(const hg_resolver *r, const hg_module *m, size_t i, const char *name, size_t len,
                            const hg_module *def, hg_node_vec *out) {
  size_t n;
  const TSNode *calls;
  if (!hg_index_calls(r->index, m, name, len, &calls, &n))
    calls = hg_calls_named(hg_summary__calls(r, m), name, len, &n);
  const char *target = def && def->name && *def->name
                           ? hg_project__printf(r->arena, "%s.%.*s", def->name, (int)len, name)
                           : NULL;
  for (size_t k = 0; k < n; k++)
    if (!def || may_call_function(r, m, hg_node_field(calls[k], "function"), i == 0 && def == m, def, name, len, target))
      HG_VEC_PUSH(out, calls[k]);
  // Forwarding calls handed it (`partial(f, ...)`, `executor.submit(self.f, ...)`), by their last names.
  const hg_policy *p = r->policy;
  enum { LASTS = 32 };  // entries whose last names are worked out once a call (more: each time)
  const char *lasts[LASTS];
  size_t last_lens[LASTS];
  for (size_t w = 0; p && w < p->n_forwarding_calls && w < LASTS; w++)
    lasts[w] = last_name(p->forwarding_calls[w], &last_lens[w]);
  for (size_t w = 0; p && w < p->n_forwarding_calls; w++) {
    size_t last_len;
    const char *last = w < LASTS ? (last_len = last_lens[w], lasts[w]) : last_name(p->forwarding_calls[w], &last_len);
    bool seen = false;  // an earlier entry of the same last name took these calls
    for (size_t e = 0; e < w && !seen; e++) {
      size_t ol;
      const char *o = e < LASTS ? (ol = last_lens[e], lasts[e]) : last_name(p->forwarding_calls[e], &ol);
      seen = ol == last_len && !memcmp(o, last, ol);
    }
    if (seen)
      continue;
    if (!hg_index_calls(r->index, m, last, last_len, &calls, &n))
      calls = hg_calls_named(hg_summary__calls(r, m), last, last_len, &n);
    for (size_t k = 0; k < n; k++) {
      TSNode callable;
      hg_forward how;
      if (hg_candidates__forwarded(r, m, calls[k], &callable, &how) &&
          hg_node_text_eq(hg_node_is(callable, "attribute") ? hg_node_field(callable, "attribute") : callable, m->src,
                          name, len) &&
          (!def || may_call_function(r, m, callable, i == 0 && def == m, def, name, len, target)))
        HG_VEC_PUSH(out, calls[k]);
    }
  }
}

// The keyword of a `@kw(args,kwargs)` entry's part `at` (after its `@`) that holds the callable, and
// the two that hand on its arguments; false for `@N`.
static bool keyword_form(const char *at, hg_forward *how, const char **kw, size_t *kw_len) {
  *kw = at;
  *kw_len = hg_policy_call_keyword(at);
  if (!*kw_len)
    return false;
  const char *open = at + *kw_len;
  how->args_kw = *open == '(' ? open + 1 : NULL;
  how->args_len = how->args_kw ? strcspn(how->args_kw, ",)") : 0;
  const char *comma = how->args_kw && how->args_kw[how->args_len] == ',' ? how->args_kw + how->args_len : NULL;
  how->kwargs_kw = comma ? comma + 1 : NULL;
  how->kwargs_len = comma ? strcspn(comma + 1, ")") : 0;
  return true;
}

bool hg_candidates__forwarded(const hg_resolver *r, const hg_module *m, TSNode call, TSNode *callable,
                              hg_forward *how) {
  const hg_policy *p = r->policy;
  TSNode callee = hg_node_field(call, "function"), args = hg_node_field(call, "arguments");
  if (!p || !p->n_forwarding_calls || ts_node_is_null(args) || !hg_node_arg_count(args))
    return false;
  hg_buf q = {0};
  const char *qualified = m->imports && hg_imports_qualify(m->imports, callee, m->src, &q) ? q.data : NULL;
  const char *entry = NULL;
  for (size_t w = 0; w < p->n_forwarding_calls && !entry; w++)
    if (forwarder_named(p->forwarding_calls[w], qualified, callee, m->src))
      entry = p->forwarding_calls[w];
  *how = (hg_forward){0};
  for (size_t w = 0; w < p->n_partial_calls && entry && !how->later; w++)
    how->later = forwarder_named(p->partial_calls[w], qualified, callee, m->src);
  hg_buf_free(&q);
  const char *part = NULL, *kw = NULL;
  if (entry)
    hg_policy_call_name(entry, &part);
  size_t kw_len = 0;
  TSNode f = {0};
  if (part && *part && keyword_form(part, how, &kw, &kw_len)) {
    for (uint32_t i = 0, k = hg_node_arg_count(args); i < k && ts_node_is_null(f); i++) {
      TSNode a = hg_node_arg(args, i);
      if (hg_node_is(a, "keyword_argument") && hg_node_text_eq(hg_node_field(a, "name"), m->src, kw, kw_len))
        f = hg_node_field(a, "value");
    }
  } else if (entry) {
    uint32_t at = part ? (uint32_t)strtoul(part, NULL, 10) : 0;
    f = at < hg_node_arg_count(args) ? hg_node_arg(args, at) : (TSNode){0};
    how->skip = at + 1;
  }
  if (!hg_node_is(f, "identifier") && !hg_node_is(f, "attribute"))
    return false;
  *callable = f;
  return true;
}

// The last part of a dotted module name ("pkg.sandbox": "sandbox"), or NULL for none.
const char *hg_candidates__last_part(const hg_module *m) {
  if (!m->name || !*m->name)
    return NULL;
  const char *dot = strrchr(m->name, '.');
  return dot ? dot + 1 : m->name;
}

// The i-th module to look for calls in: r's own first (read from its own tree, never parsed again),
// then each file the project's table names (`own`: the real path of r's module). With `word` (the
// last part of the defining module's name, for a function or a class `name` called by name), a
// file that imports nothing so named, nor the name itself, is not parsed.
const hg_module *hg_candidates__module_of(const hg_resolver *r, const char *own, const char *const *files, size_t i,
                                          const char *word, const char *name, size_t len) {
  if (i == 0)
    return r->module;
  if (*own && !strcmp(own, files[i - 1]))
    return NULL;
  if (word && !hg_index_imports(r->index, files[i - 1], word, strlen(word)) &&
      !hg_index_imports(r->index, files[i - 1], name, len))
    return NULL;
  const hg_module *m = hg_index_module_at(r->index, files[i - 1]);
  if (m && m->name && r->module->name && *m->name && same_name(m->name, r->module->name))
    return NULL;
  return m;
}

// Can file `path` hold an instance of class `cls` (len) of r's module: does it import that module
// (its last part) or the class, or build the class (`builders`: the files writing it as a call)?
bool hg_candidates__may_hold_instance(const hg_resolver *r, const char *path, const char *cls, size_t len,
                              const char *const *builders, size_t n_builders) {
  const char *mod = hg_candidates__last_part(r->module);
  if ((mod && hg_index_imports(r->index, path, mod, strlen(mod))) || hg_index_imports(r->index, path, cls, len))
    return true;
  for (size_t i = 0; i < n_builders; i++)
    if (builders[i] == path || !strcmp(builders[i], path))
      return true;
  return false;
}

// The files to look for calls in: those writing the name as a call, or, when fewer, those importing
// `word` (the defining module's last part, which a file calling the name by its module must
// import; NULL: none) or the name itself (handed on by a package): the search then costs what the
// smaller list does, not every site times every file that writes a common name.
void hg_candidates__fewer_files(const hg_resolver *r, const char *word, const char *name, size_t len,
                                const char *const **files, size_t *n) {
  if (!word)
    return;
  size_t n_imp = 0, n_named = 0;
  const char *const *imp = hg_index_importers(r->index, word, strlen(word), &n_imp);
  const char *const *named = hg_index_importers(r->index, name, len, &n_named);
  if (n_imp + n_named >= *n)
    return;
  const char **both = hg_arena_alloc(r->arena, (n_imp + n_named + 1) * sizeof(*both));
  size_t k = 0;
  for (size_t i = 0; i < n_imp; i++)
    both[k++] = imp[i];
  for (size_t i = 0; i < n_named; i++) {
    bool dup = false;
    for (size_t j = 0; j < n_imp && !dup; j++)
      dup = imp[j] == named[i] || !strcmp(imp[j], named[i]);
    if (!dup)
      both[k++] = named[i];
  }
  *files = both;
  *n = k;
}
