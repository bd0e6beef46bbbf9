#include "surfaces/python/extract.h"

#include <stdlib.h>
#include <string.h>

#include "base/table.h"
#include "judge/worlds.h"
#include "surfaces/embed.h"
#include "surfaces/node.h"
#include "surfaces/python/eval.h"
#include "surfaces/python/names.h"
#include "surfaces/python/offers.h"
#include "surfaces/python/project/index.h"
#include "surfaces/python/project/summary.h"
#include "surfaces/python/resolve.h"
#include "surfaces/python/scope.h"
#include "surfaces/shell/sh.h"
#include "surfaces/shell/shell.h"
#include "model/surface.h"
#include "surfaces/registry.h"

typedef struct {
  uint32_t pattern;
  uint16_t n;
  TSQueryCapture *captures;
  uint32_t start, end;  // the site's bytes
} saved_match;

// A match's captures in one order, whichever engine found them: by capture, then by place.
static int capture_cmp(const void *pa, const void *pb) {
  const TSQueryCapture *a = pa, *b = pb;
  if (a->index != b->index) return a->index < b->index ? -1 : 1;
  uint32_t x = ts_node_start_byte(a->node), y = ts_node_start_byte(b->node);
  if (x != y) return x < y ? -1 : 1;
  x = ts_node_end_byte(a->node), y = ts_node_end_byte(b->node);
  return x < y ? -1 : x > y;
}

// The order sites are judged in, whatever order the matches came in: by the site's start, the
// inner of two sites that start together first (of two sites of one kind at one start byte, the
// first judged is kept), then by pattern and by where the captures stand.
static int saved_cmp(const void *pa, const void *pb) {
  const saved_match *a = pa, *b = pb;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->end != b->end) return a->end < b->end ? -1 : 1;
  if (a->pattern != b->pattern) return a->pattern < b->pattern ? -1 : 1;
  for (uint16_t i = 0; i < a->n && i < b->n; i++) {
    uint32_t x = ts_node_start_byte(a->captures[i].node), y = ts_node_start_byte(b->captures[i].node);
    if (x != y) return x < y ? -1 : 1;
    x = ts_node_end_byte(a->captures[i].node), y = ts_node_end_byte(b->captures[i].node);
    if (x != y) return x < y ? -1 : 1;
  }
  return a->n < b->n ? -1 : a->n > b->n;
}

// The matches in saved_cmp's order. The walk gives them by the start of their root node, which is
// their site's in the built-in rules: then only the runs that start together (a method chain's
// calls) are out of order, and each is sorted alone (qsort is glibc's merge sort, stable: the same
// order as sorting the whole). Rules whose site is not their root sort them all.
static void sort_saved(saved_match *m, size_t n) {
  size_t i = 1;
  while (i < n && m[i - 1].start <= m[i].start) i++;
  if (i < n) {
    qsort(m, n, sizeof(saved_match), saved_cmp);
    return;
  }
  for (size_t a = 0, b; a < n; a = b) {
    for (b = a + 1; b < n && m[b].start == m[a].start;) b++;
    if (b - a > 1)
      qsort(m + a, b - a, sizeof(saved_match), saved_cmp);
  }
}

// The sites already taken, by (start byte, kind): several patterns may match one call, and the
// first of them in the rule files is taken (an SDK's own pattern before docker-py's catch-all).
typedef struct {
  hg_table table; // a taken_key's bytes -> its taken (a pointer), in the arena; cap 0 until used
} seen_set;

typedef struct {
  uint64_t kind, start; // the kind's address and the start byte (a table key: no padding)
} taken_key;

typedef struct {
  taken_key key;
  uint32_t pattern; // the pattern that took it ...
  size_t site;      // ... and where its site stands in the vector (SIZE_MAX: none, a script)
} taken;

// Where the site taken at (start, kind) stands in the sites vector (SIZE_MAX while it has none);
// *by is the pattern that took it, UINT32_MAX when none had (then `pattern` takes it now).
// The table starts small and grows: a file's sites are a few dozen where its matches are hundreds.
static size_t *seen_slot(seen_set *set, hg_arena *arena, const hg_site *s, uint32_t pattern, uint32_t *by) {
  if (!set->table.cap)
    hg_table_init(&set->table, arena, 0);
  taken_key key = {(uint64_t)(uintptr_t)s->kind, s->start_byte};
  const size_t *known = hg_table_get(&set->table, (const char *)&key, sizeof key);
  if (known) {
    taken *t = (taken *)(uintptr_t)*known;
    *by = t->pattern;
    if (pattern < t->pattern)
      t->pattern = pattern;
    return &t->site;
  }
  taken *t = hg_arena_alloc(arena, sizeof(taken));
  *t = (taken){.key = key, .pattern = pattern, .site = SIZE_MAX};
  *hg_table_put(&set->table, (const char *)&t->key, sizeof t->key, NULL) = (size_t)(uintptr_t)t;
  *by = UINT32_MAX;
  return &t->site;
}

// Shell code in a Python string (`sh -c`'s script, a `shell=True` command line): its value
// followed, parsed as shell and read by the shell rules; what they find is placed in the file (a
// plain literal byte for byte, anything else at the expression). Parts hardguard cannot follow are
// variables the shell reading reports as unverifiable.
static void python_script(hg_extractor *self, const hg_ruleset *rules, const hg_resolver *r, const hg_source *source,
                          TSNode command, hg_arena *arena, hg_lines *lines, hg_site_vec *sites,
                          hg_marker_vec *markers) {
  // ["sh", "-c", script, ...]: the script is the third item.
  if (hg_node_is(command, "list") || hg_node_is(command, "tuple")) {
    command = hg_node_arg(command, 2);
    if (ts_node_is_null(command))
      return;
  }
  hg_buf text = {0};
  hg_value_vec holes = {0};
  hg_resolve_shell_text(r, command, &text, &holes);
  const char *t = text.data ? text.data : "";
  size_t n = text.len;
  if (!hg_ruleset_may_contain_site(rules, HG_SURFACE_SHELL, t, n, NULL)) {
    hg_buf_free(&text);
    free(holes.items);
    return;
  }
  // Each part of the string hardguard cannot follow stands in the shell code as a variable named by
  // the Python expression when that is a name (`${image}`), else by its place (`${python_2}`), and
  // the shell reading says which expression it is.
  const char **exprs = holes.len ? hg_arena_alloc(arena, holes.len * sizeof(char *)) : NULL;
  for (size_t i = 0; i < holes.len; i++) {
    const char *x = holes.items[i].text ? holes.items[i].text : "";
    size_t xl = strlen(x);
    exprs[i] = xl >= 2 && x[0] == '{' && x[xl - 1] == '}' ? hg_arena_strndup(arena, x + 1, xl - 2) // f-string's {x}
                                                          : x;
  }
  hg_embed_holes named = hg_embed_name_holes(arena, t, n, exprs, holes.len, "python", "Python");
  free(holes.items);
  const hg_sh_env HOLES = {named.names, named.origins, named.n, "a part of the Python string hardguard cannot follow"};
  // A plain literal maps byte for byte; anything else (parts joined, a name followed) to the expression.
  TSNode content = {0};
  if (hg_node_is(command, "string"))
    for (uint32_t i = 0; i < ts_node_named_child_count(command); i++) {
      TSNode c = ts_node_named_child(command, i);
      if (hg_node_is(c, "string_content"))
        content = ts_node_is_null(content) ? c : (TSNode){0};
    }
  bool exact = !ts_node_is_null(content) && ts_node_end_byte(content) - ts_node_start_byte(content) == n &&
               !memcmp(source->data + ts_node_start_byte(content), t, n);
  uint32_t at = ts_node_start_byte(command);
  hg_embed_builder b = {0};
  if (exact) {
    hg_embed_put(&b, t, n, ts_node_start_byte(content), true);
  } else {
    hg_embed_put_holes(&b, t, n, at, &named, arena);
  }
  hg_buf_free(&text);
  hg_embed e = hg_embed_finish(&b, arena, ts_node_end_byte(command));
  if (!lines->start)
    hg_lines_init(lines, source, arena);
  hg_shell_embedded(self, rules, source, lines, &e, &HOLES, arena, sites, markers);
}

// The node a BODY site reads: @body itself, or, when it is a call's arguments, the argument the
// pattern names (a keyword of `hardguard.body-keyword`, else the positional at
// `hardguard.body-position`): aiodocker's `run(config)` / `run(config=...)`, a request's `json=`
// or `data=json.dumps(...)`, unwrapped when it is a call the pattern names (`hardguard.body-unwrap
// "json.dumps"`: its first argument). A null node when the arguments do not hold it (`run(**kw)`
// stands for the body and cannot be followed).
static TSNode body_node(const hg_resolver *r, const hg_pattern *p, TSNode body) {
  if (!hg_node_is(body, "argument_list"))
    return body;
  TSNode value = {0};
  uint32_t position = 0;
  for (uint32_t i = 0, n = ts_node_named_child_count(body); i < n && ts_node_is_null(value); i++) {
    TSNode a = ts_node_named_child(body, i);
    if (hg_node_is(a, "comment"))
      continue;
    if (hg_node_is(a, "keyword_argument")) {
      TSNode name = hg_node_field(a, "name");
      if (hg_policy_list_has(p->body_keywords.items, p->body_keywords.len, r->src + ts_node_start_byte(name),
                             ts_node_end_byte(name) - ts_node_start_byte(name)))
        value = hg_node_field(a, "value");
      continue;
    }
    if (hg_node_is(a, "list_splat") || hg_node_is(a, "dictionary_splat"))
      break; // the body may be among what it spreads
    if (position++ == p->body_position)
      value = a;
  }
  if (p->body_unwrap.len && hg_node_is(value, "call")) {
    hg_buf q = {0};
    bool named = hg_resolve_qualify(r, hg_node_child(value, HG_FIELD_FUNCTION), &q) &&
                 hg_policy_list_has(p->body_unwrap.items, p->body_unwrap.len, q.data, q.len);
    hg_buf_free(&q);
    TSNode first = hg_node_arg(hg_node_child(value, HG_FIELD_ARGUMENTS), 0);
    if (named && !ts_node_is_null(first))
      return first;
  }
  return value;
}

// The site's kind: the pattern's, or the one its kind-by names for the last name the capture's
// value resolves to (`client.containers.create`, an alias of it: create), else its text's.
static const char *kind_of(const hg_pattern *p, const hg_resolver *r, const saved_match *sm, const char *src) {
  TSNode node;
  if (!p->kind_verbs.len || !hg_extract__capture(sm->captures, sm->n, p->kind_capture, &node))
    return p->kind;
  hg_buf name = {0};
  if (!hg_resolve_qualify(r, node, &name) || !name.len) {
    name.len = 0;
    hg_buf_add(&name, src + ts_node_start_byte(node), ts_node_end_byte(node) - ts_node_start_byte(node));
  }
  size_t n = name.len;
  while (n >= 2 && name.data[n - 2] == '(' && name.data[n - 1] == ')') n -= 2;  // "x.create()" is create's
  size_t start = n;
  while (start > 0 && name.data[start - 1] != '.') start--;
  const char *kind = p->kind;
  for (size_t k = 0; k < p->kind_verbs.len; k++)
    if (strlen(p->kind_verbs.items[k]) == n - start && !memcmp(name.data + start, p->kind_verbs.items[k], n - start))
      kind = p->kind_ids[k];
  hg_buf_free(&name);
  return kind;
}

// Can a caller's arguments decide anything at this site? Only where its first reading, judged by
// the one rule, leaves something it cannot verify (a requirement, a spread, a value that might
// undo one): a site whose every option is known is what it is, whoever calls it, and is not read
// again per caller (nor its findings named with one).
static bool callers_can_decide(hg_extractor *self, const hg_policy *policy, const hg_pattern *p, const hg_value *v) {
  int dialect = policy ? hg_policy_site_dialect(policy, p->reads, (int)p->dialect - 1) : -1;
  if (dialect < 0)
    return false;
  hg_judge j;
  hg_judge_init(&j, policy, dialect, hg_extractor_match_data(self));
  hg_judge_read_worlds(&j,
                       p->reads == HG_READS_KWARGS ? hg_judge_read_kwargs
                       : p->reads == HG_READS_BODY ? hg_judge_read_mapping
                                                   : hg_judge_read_argv,
                       v);
  bool open = j.carrier || j.undoer;
  for (size_t r = 0; r < policy->n_req && !open; r++)
    open = j.req[r] == HG_UNVERIFIABLE;
  hg_judge_free(&j);
  return open;
}

// The nodes the walk keeps: the file's calls, for the table of its callers' calls
// (project/calls.c), and its function definitions, for the scope of a node (scope.c).
static const char *const KEPT[] = {"call", "function_definition", NULL};

void hg_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  // The kinds of site the prefilter says the file may hold (with every fact pattern).
  const hg_rules_query *q = hg_ruleset_query_for(rules, HG_SURFACE_PYTHON,
                                                 hg_ruleset_units(rules, HG_SURFACE_PYTHON, source->data, source->len));
  const hg_captures *c = &q->captures;
  TSNode root = ts_tree_root_node(tree);
  const char *package = hg_package_of(arena, config->root, source->path);
  hg_imports *imports = hg_imports_new(arena, package);
  HG_VEC(saved_match) saved = {0};
  hg_marker_vec markers = {0};

  // Pass 1: imports take effect at once; site matches wait until every import is known, since
  // an import may follow its use in the file (function-local imports, late imports).
  // The walk keeps the file's calls and function definitions too: the table of its callers' calls
  // (project/calls.c) and the scopes' definitions are made from them, not from other walks.
  // The walk does not make the matches a predicate rules out on one node before any import is
  // known (an attribute callee ending in another name, a list without "docker").
  hg_python_model names = {.src = source->data, .imports = imports};
  hg_predctx pctx = {.src = source->data,
                     .len = source->len,
                     .md = hg_extractor_match_data(self),
                     .names = &hg_python_names,
                     .model = &names,
                     .scratch = hg_extractor_scratch(self)};
  hg_matches *cursor = hg_extractor_cursor(self);
  size_t n_kept, n_calls = 0, n_defs = 0;
  const TSNode *walked =
      hg_matches_exec_keeping(cursor, q, root, hg_extract__types(self, ts_tree_language(tree), KEPT), &pctx, &n_kept);
  // Each kind in pre-order, as the walk kept them (NULL: the reference engine kept nothing).
  size_t room = (n_kept ? n_kept : 1) * sizeof(TSNode);
  TSNode *own_calls = walked ? hg_arena_alloc(arena, room) : NULL, *defs = walked ? hg_arena_alloc(arena, room) : NULL;
  for (size_t i = 0; walked && i < n_kept; i++)
    if (hg_node_is(walked[i], "call"))
      own_calls[n_calls++] = walked[i];
    else
      defs[n_defs++] = walked[i];
  TSQueryMatch m;
  while (hg_matches_next(cursor, &m)) {
    const hg_pattern *p = &q->patterns[m.pattern_index];
    if (p->role == HG_PATTERN_IMPORT) {
      if (hg_predicates_eval(p->predicates, &m, &pctx))
        hg_python_record_import(imports, c, m.captures, m.capture_count, source->data, arena);
      continue;
    }
    if (p->role == HG_PATTERN_MARKER) {
      TSNode comment;
      if (hg_predicates_eval(p->predicates, &m, &pctx) && hg_extract__capture(m.captures, m.capture_count, c->marker, &comment))
        hg_extract__marker(&markers, arena, source, comment);
      continue;
    }
    // Predicates on the match's text alone drop most matches of the flat patterns here, before
    // their captures are kept.
    if (!hg_predicates_eval_text(p->predicates, &m, &pctx))
      continue;
    TSNode site_node;
    if (!hg_extract__capture(m.captures, m.capture_count, c->site, &site_node))
      continue;
    saved_match s = {m.pattern_index, m.capture_count, hg_arena_alloc(arena, m.capture_count * sizeof(TSQueryCapture)),
                     ts_node_start_byte(site_node), ts_node_end_byte(site_node)};
    memcpy(s.captures, m.captures, m.capture_count * sizeof(TSQueryCapture));
    for (uint16_t i = 1; i < s.n; i++)  // insertion sort: a few captures
      for (uint16_t j = i; j > 0 && capture_cmp(&s.captures[j - 1], &s.captures[j]) > 0; j--) {
        TSQueryCapture t = s.captures[j];
        s.captures[j] = s.captures[j - 1];
        s.captures[j - 1] = t;
      }
    HG_VEC_PUSH(&saved, s);
  }

  // Pass 2: predicates (with imports and local aliases), then the site and its flags.
  sort_saved(saved.items, saved.len);
  hg_module self_module = {.path = source->path,
                           .name = hg_module_name(arena, package, source->path),
                           .src = source->data,
                           .len = source->len,
                           .root = root,
                           .imports = imports,
                           .calls = own_calls,
                           .n_calls = n_calls};
  hg_resolver r = {.engine = &hg_python_engine,
                   .src = source->data,
                   .imports = imports,
                   .config = config,
                   .policy = hg_ruleset_policy(rules),
                   .arena = arena,
                   .module = &self_module,
                   .index = project,
                   .cache = hg_summary_cache_new(arena)};
  r.memo = hg_name_memo_new(arena);
  r.scopes = hg_scope_memo_new(arena, tree);
  hg_scope_memo_functions(r.scopes, defs, n_defs);
  size_t budget = HG_RESOLVE_BUDGET;
  r.budget = &budget;
  names.resolver = &r;
  bool imports_builder = hg_imports_builder_module(imports, config);
  hg_site_vec sites = {0};
  seen_set seen = {0};
  hg_lines lines = {0};
  for (size_t i = 0; i < saved.len; i++) {
    const saved_match *sm = &saved.items[i];
    const hg_pattern *p = &q->patterns[sm->pattern];
    TSQueryMatch qm = {.pattern_index = (uint16_t)sm->pattern, .capture_count = sm->n, .captures = sm->captures};
    if (!hg_predicates_eval_context(p->predicates, &qm, &pctx)) // the text-only ones held in pass 1
      continue;
    TSNode site_node, flags;
    if (!hg_extract__capture(sm->captures, sm->n, c->site, &site_node))
      continue;
    hg_site s = {.path = source->path,
                 .kind = kind_of(p, &r, sm, source->data),
                 .reads = p->reads,
                 .dialect = p->dialect,
                 .imports_builder = imports_builder};
    hg_extract__position(&s, source, site_node);
    if (p->reads == HG_READS_SCRIPT) {
      // Not a site itself (and not taking the place of one): the shell code's commands are.
      if (hg_extract__capture(sm->captures, sm->n, c->command, &flags))
        python_script(self, rules, &r, source, flags, arena, &lines, &sites, &markers);
      continue;
    }
    // A later pattern's site gives way to an earlier pattern's for the same call.
    uint32_t by;
    size_t *slot = seen_slot(&seen, arena, &s, sm->pattern, &by);
    if (by != UINT32_MAX && by <= sm->pattern)
      continue;
    s.has_error = ts_node_has_error(site_node);
    hg_notes notes = {0};
    r.notes = &notes;
    hg_summary_cache_next_read(r.cache);
    hg_param_reads params = {0};
    r.params = &params;
    hg_value (*read)(const hg_resolver *, TSNode) = NULL; // a reading its callers may decide
    switch (p->reads) {
    case HG_READS_KWARGS:
      if (hg_extract__capture(sm->captures, sm->n, c->args, &flags))
        read = p->options_keyword ? hg_resolve_options_at : hg_resolve_kwargs;
      r.keywords_of = p->options_keyword;
      r.own_keywords = &p->own_keywords;
      break;
    case HG_READS_ARGV:
      if (hg_extract__capture(sm->captures, sm->n, c->argv, &flags))
        read = hg_resolve_argv;
      break;
    case HG_READS_SHELL:
      if (hg_extract__capture(sm->captures, sm->n, c->command, &flags))
        s.flags = hg_resolve_shell(&r, flags);
      break;
    case HG_READS_BODY:
      if (!hg_extract__capture(sm->captures, sm->n, c->body, &flags))
        break;
      if (p->body_is_keywords && hg_node_is(flags, "argument_list")) {
        read = hg_resolve_kwargs; // the keywords are the body (docker-py's services.create)
      } else {
        TSNode arg = body_node(&r, p, flags);
        if (ts_node_is_null(arg))
          s.flags = hg_resolve_unknown(&r, flags, "arguments without the body (the config) hardguard can read");
        else
          flags = arg, read = hg_resolve_value; // its callers may decide what it takes from parameters
      }
      break;
    case HG_READS_SCRIPT:  // read above
    case HG_READS_COMMAND: // a shell surface's reading, never a Python pattern's
    case HG_READS_COMPOSE: // the compose surface's reading, likewise
    case HG_READS_CLIENT:
    case HG_READS_OPAQUE:
    case HG_READS_COUNT: break;
    }
    if (read) {
      s.flags = read(&r, flags);
      r.params = NULL;
      if (!ts_node_is_null(params.fn) && callers_can_decide(self, r.policy, p, &s.flags))
        s.flags = hg_summary_callers(&r, site_node, &params, read, flags, s.flags);
    }
    r.notes = NULL;
    r.params = NULL;
    r.keywords_of = NULL;
    r.own_keywords = NULL;
    if (notes.len) {
      hg_note *kept = hg_arena_alloc(arena, notes.len * sizeof(hg_note));
      memcpy(kept, notes.items, notes.len * sizeof(hg_note));
      s.notes = kept;
      s.n_notes = notes.len;
    }
    free(notes.items);
    if (*slot != SIZE_MAX) {
      sites.items[*slot] = s;
    } else {
      *slot = sites.len;
      HG_VEC_PUSH(&sites, s);
    }
  }
  free(saved.items);
  if (project && config->n_builders && sites.len) {
    size_t n_offers;
    const hg_value *offers = hg_python_builder_offers(project, arena, config, source->path, &n_offers);
    for (size_t i = 0; i < sites.len; i++)
      sites.items[i].offers = offers, sites.items[i].n_offers = n_offers;
  }
  if (ts_node_has_error(root))
    hg_extract__error_regions(self, rules, HG_SURFACE_PYTHON, source, root, &sites);
  hg_extract__finish(out, arena, &sites, &markers);
}
