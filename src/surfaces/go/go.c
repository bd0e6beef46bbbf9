// Go sources: the sites the rules in rules/go/ match, their options read as Go values
// (src/surfaces/go/eval.c). A body site (ContainerCreate) takes its mapping from the call's
// arguments as the pattern's `hardguard.arguments` names them; an argv site (exec.Command) takes the
// call's arguments as the command's words.
#include "surfaces/go/go.h"

#include <string.h>

#include "base/argv.h"
#include "rules/pattern.h"
#include "rules/predicate.h"
#include "surfaces/go/eval.h"
#include "surfaces/node.h"
#include "surfaces/registry.h"

// Nodes evaluated for one site at most; past them a value is unknown, naming the budget.
enum { BUDGET = 20000 };

typedef struct {
  const hg_source *source;
  const hg_go_src *file;
  const hg_config *config;
  const hg_policy *policy;
  hg_go_packages *packages;
  hg_arena *arena;
  bool imports_builder;
  hg_site_vec *sites;
} go_ctx;

static uint32_t line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

static hg_go_eval evaluator(const go_ctx *c) {
  return (hg_go_eval){.arena = c->arena,
                      .config = c->config,
                      .packages = c->packages,
                      .site = c->file->path,
                      .budget = BUDGET};
}

// A functional option (testcontainers-go's `testcontainers.WithHostConfigModifier(fn)`) as an entry
// of the body: keyed by the option's name, its argument's value (a list of them when several, true
// when none). A modifier option given twice applies both: their mappings are merged. Anything
// else (`opts...`, an option held in a name) is an entry hardguard cannot read.
static void option(const go_ctx *c, hg_go_eval *e, TSNode a, TSNode call, hg_value_vec *items) {
  TSNode callee = hg_node_field(a, "function");
  TSNode name = hg_node_is(callee, "selector_expression") ? hg_node_field(callee, "field") : callee;
  if (!hg_node_is(a, "call_expression") || !(hg_node_is(name, "identifier") || hg_node_is(name, "field_identifier"))) {
    hg_value v = {.kind = HG_VAL_UNKNOWN,
                  .text = hg_node_text(a, c->source->data, c->arena),
                  .line = line_of(a),
                  .splat = true,
                  .origin = "an option hardguard cannot read (a spread, or an option held in a name)"};
    HG_VEC_PUSH(items, v);
    return;
  }
  TSNode args = hg_node_field(a, "arguments");
  uint32_t n = hg_node_arg_count(args);
  hg_value v;
  if (n == 0) {
    v = (hg_value){.kind = HG_VAL_TRUE, .text = "true", .line = line_of(a)};
  } else if (n == 1 && !hg_node_is(hg_node_arg(args, 0), "variadic_argument")) {
    v = hg_go_value(e, c->file, hg_node_arg(args, 0), call);
  } else {
    hg_value_vec list = {0};
    for (uint32_t i = 0; i < n; i++) {
      TSNode x = hg_node_arg(args, i);
      bool spread = hg_node_is(x, "variadic_argument");
      hg_value w = hg_go_value(e, c->file, spread ? ts_node_named_child(x, 0) : x, call);
      w.splat = spread;
      HG_VEC_PUSH(&list, w);
    }
    v = hg_values_finish(c->arena, (hg_value){.kind = HG_VAL_LIST, .text = hg_node_text(args, c->source->data, c->arena),
                                              .line = line_of(a)}, &list);
  }
  v.key = hg_node_text(name, c->source->data, c->arena);
  v.line = line_of(a);
  for (size_t i = items->len; i-- > 0;) {
    hg_value *was = &items->items[i];
    if (!was->key || strcmp(was->key, v.key) != 0 || was->kind != HG_VAL_DICT || v.kind != HG_VAL_DICT)
      continue;
    hg_value_vec both = {0};
    for (size_t k = 0; k < was->n_items; k++) HG_VEC_PUSH(&both, was->items[k]);
    for (size_t k = 0; k < v.n_items; k++) HG_VEC_PUSH(&both, v.items[k]);
    *was = hg_values_finish(c->arena, *was, &both);
    return;
  }
  HG_VEC_PUSH(items, v);
}

// The body of a call whose arguments the pattern names (`hardguard.arguments "_ Config HostConfig |
// _ ."`: one shape per number of arguments, `_` an argument that is not read, `.` one that is the
// body itself, `*` last: the remaining arguments are functional options, see option()): a DICT of
// the named arguments' values. *site is false when no shape takes that many arguments and none is
// spread: another method of the name (the daemon's own ContainerCreate(config)), not the SDK's.
static hg_value body_of(const go_ctx *c, const hg_pattern *p, TSNode call, bool *site) {
  TSNode args = hg_node_field(call, "arguments");
  uint32_t n = hg_node_arg_count(args);
  hg_go_eval e = evaluator(c);
  const char *shapes = hg_predicates_property(p->predicates, "hardguard.arguments");
  hg_argv_words words = {0};
  bool matched = false;
  for (const char *s = shapes ? shapes : "."; s && !matched;) {
    const char *bar = strchr(s, '|');
    size_t len = bar ? (size_t)(bar - s) : strlen(s);
    char *shape = hg_arena_strndup(c->arena, s, len);
    hg_strvec_free(&words);
    words = (hg_argv_words){0};
    hg_argv_split(&words, shape);
    bool options = words.len && !strcmp(words.items[words.len - 1], "*");
    matched = options ? n + 1 >= words.len : words.len == n;
    s = bar ? bar + 1 : NULL;
  }
  size_t fixed = words.len && !strcmp(words.items[words.len - 1], "*") ? words.len - 1 : words.len;
  bool spread = false;
  for (uint32_t i = 0; i < n && i < fixed; i++)
    spread |= hg_node_is(hg_node_arg(args, i), "variadic_argument");
  *site = matched || spread;
  matched &= !spread;
  hg_value out;
  if (!matched) {
    out = (hg_value){.kind = HG_VAL_UNKNOWN,
                     .text = hg_node_text(args, c->source->data, c->arena),
                     .line = line_of(args),
                     .origin = "arguments spread from a slice, which hardguard cannot match to the call's parameters"};
  } else {
    hg_value_vec items = {0};
    for (uint32_t i = 0; i < n; i++) {
      if (i >= fixed) {
        option(c, &e, hg_node_arg(args, i), call, &items);
        continue;
      }
      const char *w = words.items[i];
      if (!strcmp(w, "_"))
        continue;
      hg_value v = hg_go_value(&e, c->file, hg_node_arg(args, i), call);
      if (!strcmp(w, ".") && v.kind == HG_VAL_DICT) {
        for (size_t k = 0; k < v.n_items; k++) HG_VEC_PUSH(&items, v.items[k]);
        continue;
      }
      if (!strcmp(w, ".")) {
        v.splat = true; // a body that is not a literal mapping: a builder's, or unknown
      } else {
        v.key = hg_arena_strndup(c->arena, w, strlen(w));
      }
      HG_VEC_PUSH(&items, v);
    }
    out = hg_values_finish(c->arena,
                           (hg_value){.kind = HG_VAL_DICT,
                                      .text = hg_node_text(args, c->source->data, c->arena),
                                      .line = line_of(args)},
                           &items);
  }
  hg_strvec_free(&words);
  return out;
}

// The command's words: the call's arguments from the program on (a context or another value before
// a string is not a word: exec.CommandContext(ctx, "docker", ...)), a `args...` spread in place.
// *site is false when the words are known and the command does not create a container
// (`exec.Command("docker", buildArgs...)` whose words are `build ...`).
static hg_value argv_of(const go_ctx *c, TSNode call, bool *site) {
  TSNode args = hg_node_field(call, "arguments");
  hg_go_eval e = evaluator(c);
  hg_value_vec words = {0};
  uint32_t n = hg_node_arg_count(args), i = 0;
  if (n && !hg_go_string(c->arena, c->source->data, hg_node_arg(args, 0)))
    i = 1;
  for (; i < n; i++) {
    TSNode a = hg_node_arg(args, i);
    bool spread = hg_node_is(a, "variadic_argument");
    hg_value v = hg_go_value(&e, c->file, spread ? ts_node_named_child(a, 0) : a, call);
    if (spread && v.kind == HG_VAL_LIST) {
      for (size_t k = 0; k < v.n_items; k++) HG_VEC_PUSH(&words, v.items[k]);
      continue;
    }
    v.splat = spread;
    HG_VEC_PUSH(&words, v);
  }
  // The first known word after the program and its subcommand words decides.
  *site = true;
  for (size_t k = 1; k < words.len; k++) {
    const hg_value *w = &words.items[k];
    if (w->kind != HG_VAL_STR)
      break; // unknown: it may be `run`
    if (hg_policy_is_verb(c->policy, w->text))
      break;
    if (!hg_policy_is_subcommand(c->policy, w->text)) {
      *site = false;
      break;
    }
  }
  return hg_values_finish(c->arena,
                          (hg_value){.kind = HG_VAL_LIST, .text = hg_node_text(args, c->source->data, c->arena),
                                     .line = line_of(args)},
                          &words);
}

static void site(void *ctx, const hg_pattern *p, const TSQueryMatch *m, TSNode node) {
  (void)m;
  go_ctx *c = ctx;
  hg_site s = {.path = c->source->path,
               .kind = p->kind,
               .reads = p->reads,
               .dialect = p->dialect,
               .imports_builder = c->imports_builder};
  hg_extract__position(&s, c->source, node);
  s.has_error = ts_node_has_error(node);
  bool keep = true;
  switch (p->reads) {
  case HG_READS_BODY: s.flags = body_of(c, p, node, &keep); break;
  case HG_READS_ARGV: s.flags = argv_of(c, node, &keep); break;
  default: break;
  }
  if (keep)
    HG_VEC_PUSH(c->sites, s);
}

// Is the import a configured builder's package?
static bool builder_import(void *ctx, const char *path, const char *name, size_t len) {
  (void)name, (void)len;
  size_t b;
  return hg_go_builder_package(ctx, path, &b);
}

void hg_go_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                   const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  TSNode root = ts_tree_root_node(tree);
  hg_go_src file = {source->path, source->data, source->len, root};
  go_ctx c = {.source = source,
              .file = &file,
              .config = config,
              .policy = hg_ruleset_policy(rules),
              .packages = project,
              .arena = arena,
              .imports_builder = hg_go_each_import(arena, &file, builder_import, (void *)config),
              .sites = &sites};
  hg_extract_matches(self, rules, HG_SURFACE_GO, source, root, arena, &markers, site, &c);
  if (ts_node_has_error(root))
    hg_extract__error_regions(self, rules, HG_SURFACE_GO, source, root, &sites);
  hg_extract__finish(out, arena, &sites, &markers);
}
