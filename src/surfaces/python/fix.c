#include "surfaces/python/fix.h"

#include <stdlib.h>
#include <string.h>

#include "fix/cmdline.h"
#include "surfaces/node.h"
#include "surfaces/python/offers.h"
#include "surfaces/python/project/index.h"

static uint32_t start_of(TSNode n) { return ts_node_start_byte(n); }
static uint32_t end_of(TSNode n) { return ts_node_end_byte(n); }

static bool text_is(const hg_fix_text *t, TSNode n, const char *s) { return hg_node_text_eq(n, t->src, s, strlen(s)); }

// ---- the site -----------------------------------------------------------------------------------

hg_fix_site_kind hg_fix_site(const hg_fix_text *t, uint32_t start, uint32_t end, TSNode *out) {
  TSNode n = ts_node_descendant_for_byte_range(t->root, start, start);
  TSNode found = {0};
  for (; !ts_node_is_null(n) && start_of(n) == start && ts_node_is_null(found); n = ts_node_parent(n))
    if (end_of(n) == end)
      found = n; // the innermost: an expression statement may span its call exactly
  *out = found;
  if (ts_node_is_null(found))
    return HG_FIX_SITE_NONE;
  if (hg_node_is(found, "list") || hg_node_is(found, "tuple"))
    return HG_FIX_SITE_ARGV;
  if (hg_node_is(found, "call") && hg_node_is(hg_node_child(found, HG_FIELD_ARGUMENTS), "argument_list"))
    return HG_FIX_SITE_KWARGS;
  return HG_FIX_SITE_OTHER;
}

// ---- imports ------------------------------------------------------------------------------------

// The offset just past the line holding byte `at` (its line ending included).
static uint32_t line_after(const hg_fix_text *t, uint32_t at) {
  const char *nl = memchr(t->src + at, '\n', t->len - at);
  return nl ? (uint32_t)(nl - t->src) + 1 : (uint32_t)t->len;
}

// The offset of the start of the line holding byte `at`.
static uint32_t line_start(const hg_fix_text *t, uint32_t at) {
  while (at > 0 && t->src[at - 1] != '\n')
    at--;
  return at;
}

static bool is_import(TSNode n) {
  return hg_node_is(n, "import_statement") || hg_node_is(n, "import_from_statement") ||
         hg_node_is(n, "future_import_statement");
}

static bool is_docstring(TSNode n) {
  return hg_node_is(n, "expression_statement") && ts_node_named_child_count(n) == 1 &&
         hg_node_is(ts_node_named_child(n, 0), "string");
}

uint32_t hg_fix_import_point(const hg_fix_text *t, uint32_t before) {
  TSNode after = {0};  // the statement the import goes after
  bool leading = true; // still in the docstring and __future__ block
  for (uint32_t i = 0, n = ts_node_named_child_count(t->root); i < n; i++) {
    TSNode c = ts_node_named_child(t->root, i);
    if (start_of(c) >= before)
      break;
    if (hg_node_is(c, "comment"))
      continue;
    if (is_import(c) || (leading && is_docstring(c) && i == 0) || (leading && hg_node_is(c, "future_import_statement")))
      after = c;
    if (!hg_node_is(c, "future_import_statement") && !(is_docstring(c) && i == 0))
      leading = false;
  }
  if (!ts_node_is_null(after))
    return line_after(t, end_of(after));
  // No import or docstring before the site: before the first statement (after leading comments,
  // a #! line or an encoding line).
  for (uint32_t i = 0, n = ts_node_named_child_count(t->root); i < n; i++) {
    TSNode c = ts_node_named_child(t->root, i);
    if (!hg_node_is(c, "comment"))
      return line_start(t, start_of(c));
  }
  return (uint32_t)t->len;
}

// The children of a from-import in field `name` (libtree-sitter 0.20.7 names only the first of
// repeated fields through ts_node_field_name_for_child, tree-sitter#1642; a cursor names them all),
// up to `max`; a wildcard import counts as one with *wildcard set.
static uint32_t import_names(TSNode from, TSNode *out, uint32_t max, bool *wildcard) {
  uint32_t n = 0;
  *wildcard = false;
  TSTreeCursor c = ts_tree_cursor_new(from);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode node = ts_tree_cursor_current_node(&c);
      const char *field = ts_tree_cursor_current_field_name(&c);
      if (hg_node_is(node, "wildcard_import"))
        *wildcard = true;
      else if (field && !strcmp(field, "name") && n < max)
        out[n++] = node;
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return n;
}

enum { MAX_IMPORT_NAMES = 256 };

// The local name a `from module import ...` statement gives `name`, or NULL.
static char *imported_as(const hg_fix_text *t, TSNode from, const char *name) {
  TSNode names[MAX_IMPORT_NAMES];
  bool wildcard;
  uint32_t n = import_names(from, names, MAX_IMPORT_NAMES, &wildcard);
  if (wildcard)
    return hg_xstrdup(name);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = names[i];
    if (hg_node_is(c, "dotted_name") && text_is(t, c, name))
      return hg_xstrdup(name);
    if (hg_node_is(c, "aliased_import") && text_is(t, hg_node_field(c, "name"), name)) {
      TSNode alias = hg_node_field(c, "alias");
      return hg_xstrndup(t->src + start_of(alias), end_of(alias) - start_of(alias));
    }
  }
  return NULL;
}

// The last imported name of a from-import (the import goes after it); null for a wildcard.
static TSNode last_name(TSNode from) {
  TSNode names[MAX_IMPORT_NAMES];
  bool wildcard;
  uint32_t n = import_names(from, names, MAX_IMPORT_NAMES, &wildcard);
  return n ? names[n - 1] : (TSNode){0};
}

void hg_fix_plan_import(const hg_fix_text *t, const char *module, char *const *names, size_t n, uint32_t before,
                        hg_edits *edits, char **calls) {
  TSNode from = {0};
  char *qualifier = NULL; // `import module [as x]`: calls go through it
  for (uint32_t i = 0, k = ts_node_named_child_count(t->root); i < k; i++) {
    TSNode c = ts_node_named_child(t->root, i);
    if (hg_node_is(c, "import_from_statement") && text_is(t, hg_node_field(c, "module_name"), module)) {
      if (ts_node_is_null(from))
        from = c;
    } else if (hg_node_is(c, "import_statement") && !qualifier) {
      for (uint32_t j = 0, m = ts_node_named_child_count(c); j < m; j++) {
        TSNode d = ts_node_named_child(c, j);
        if (hg_node_is(d, "dotted_name") && text_is(t, d, module))
          qualifier = hg_xstrdup(module);
        else if (hg_node_is(d, "aliased_import") && text_is(t, hg_node_field(d, "name"), module)) {
          TSNode alias = hg_node_field(d, "alias");
          qualifier = hg_xstrndup(t->src + start_of(alias), end_of(alias) - start_of(alias));
        }
      }
    }
  }
  hg_buf add = {0}; // names to import
  for (size_t i = 0; i < n; i++) {
    const char *dot = strchr(names[i], '.'); // Class.method: import the class
    char *head = dot ? hg_xstrndup(names[i], (size_t)(dot - names[i])) : hg_xstrdup(names[i]);
    char *local = ts_node_is_null(from) ? NULL : imported_as(t, from, head);
    if (local) {
      calls[i] = hg_xasprintf("%s%s", local, dot ? dot : "");
    } else if (qualifier && ts_node_is_null(from)) {
      calls[i] = hg_xasprintf("%s.%s", qualifier, names[i]);
    } else {
      calls[i] = hg_xstrdup(names[i]);
      bool dup = false; // two Class.methods of one class import it once
      for (size_t k = 0; k < i && !dup; k++)
        dup = !strncmp(names[k], head, strlen(head)) && (names[k][strlen(head)] == '.' || !names[k][strlen(head)]);
      if (!dup)
        hg_buf_printf(&add, "%s%s", add.len ? ", " : "", head);
    }
    free(local);
    free(head);
  }
  if (add.len && !ts_node_is_null(from)) {
    char *text = hg_xasprintf(", %s", add.data);
    hg_edits_add(edits, end_of(last_name(from)), end_of(last_name(from)), text);
    free(text);
  } else if (add.len) {
    uint32_t at = hg_fix_import_point(t, before);
    // A file whose last line has no line ending gets one before the import.
    bool need_eol = at == t->len && t->len && t->src[t->len - 1] != '\n';
    char *text = hg_xasprintf("%sfrom %s import %s%s", need_eol ? t->eol : "", module, add.data, t->eol);
    hg_edits_add(edits, at, at, text);
    free(text);
  }
  hg_buf_free(&add);
  free(qualifier);
}

// ---- keyword calls ------------------------------------------------------------------------------

static bool listed(char *const *list, size_t n, const char *s, size_t len) {
  for (size_t i = 0; list && i < n; i++)
    if (strlen(list[i]) == len && !memcmp(list[i], s, len))
      return true;
  return false;
}

static bool listed0(const char *const *list, const char *s, size_t len) {
  for (; list && *list; list++)
    if (strlen(*list) == len && !memcmp(*list, s, len))
      return true;
  return false;
}

// The indentation of the line holding byte `at` when `at` is the first thing on it; else NULL.
static char *own_line_indent(const hg_fix_text *t, uint32_t at) {
  uint32_t ls = line_start(t, at);
  for (uint32_t i = ls; i < at; i++)
    if (t->src[i] != ' ' && t->src[i] != '\t')
      return NULL;
  return hg_xstrndup(t->src + ls, at - ls);
}

// Is the rest of the line from `at` blank or a comment?
static bool blank_to_eol(const hg_fix_text *t, uint32_t at) {
  while (at < t->len && (t->src[at] == ' ' || t->src[at] == '\t'))
    at++;
  return at >= t->len || t->src[at] == '\n' || t->src[at] == '\r' || t->src[at] == '#';
}

// Deletes argument `a` and the comma after it: its whole line when it stands alone on it.
static void drop_argument(const hg_fix_text *t, TSNode a, hg_edits *edits) {
  TSNode next = ts_node_next_sibling(a);
  uint32_t to = hg_node_is(next, ",") ? end_of(next) : end_of(a);
  char *indent = own_line_indent(t, start_of(a));
  if (indent && blank_to_eol(t, to)) {
    hg_edits_add(edits, line_start(t, start_of(a)), line_after(t, to), "");
  } else {
    while (to < t->len && (t->src[to] == ' ' || t->src[to] == '\t'))
      to++;
    hg_edits_add(edits, start_of(a), to, "");
  }
  free(indent);
}

int hg_fix_plan_kwargs(const hg_fix_text *t, TSNode site, const char *call, char *const *yielded, size_t n_yielded,
                       const char *const *policy_names, hg_edits *edits, hg_buf *note, hg_buf *why) {
  TSNode args = hg_node_child(site, HG_FIELD_ARGUMENTS);
  uint32_t n = hg_node_arg_count(args);
  bool *drop = hg_xcalloc(n + 1, sizeof(bool));
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    TSNode a = hg_node_arg(args, i);
    if (hg_node_is(a, "dictionary_splat")) {
      hg_buf_printf(why, "the call spreads `%.*s`, which may pass a keyword the builder also yields (a TypeError)",
                    (int)(end_of(a) - start_of(a)), t->src + start_of(a));
      rc = -1;
      break;
    }
    if (!hg_node_is(a, "keyword_argument"))
      continue;
    TSNode name = hg_node_field(a, "name");
    const char *s = t->src + start_of(name);
    size_t len = end_of(name) - start_of(name);
    if (yielded ? listed(yielded, n_yielded, s, len) : listed0(policy_names, s, len)) {
      if (!yielded) {
        hg_buf_printf(why, "cannot tell which keywords %s yields, and the call passes `%.*s`", call, (int)len, s);
        rc = -1;
        break;
      }
      drop[i] = true;
      hg_buf_printf(note, "%s`%.*s`", note->len ? ", " : "replaced ", (int)(end_of(a) - start_of(a)),
                    t->src + start_of(a));
    }
  }
  if (rc != 0) {
    free(drop);
    return rc;
  }
  // One argument per line with a trailing comma: dropped arguments go with their lines and the
  // builder gets a line of its own before the closing parenthesis.
  TSNode last = n ? hg_node_arg(args, n - 1) : (TSNode){0};
  TSNode trailing = n ? ts_node_next_sibling(last) : (TSNode){0};
  char *indent = n ? own_line_indent(t, start_of(last)) : NULL;
  if (indent && hg_node_is(trailing, ",") && blank_to_eol(t, end_of(trailing))) {
    for (uint32_t i = 0; i < n; i++)
      if (drop[i])
        drop_argument(t, hg_node_arg(args, i), edits);
    uint32_t at = line_after(t, end_of(trailing));
    char *text = hg_xasprintf("%s**%s,%s", indent, call, t->eol);
    hg_edits_add(edits, at, at, text);
    free(text);
    free(indent);
    free(drop);
    return 0;
  }
  free(indent);
  // Otherwise the builder goes right after the last argument kept. Arguments dropped before it go
  // with their comma; those after it go with everything up to the end of the last argument.
  int64_t keep = -1;
  for (uint32_t i = 0; i < n; i++)
    if (!drop[i])
      keep = i;
  for (uint32_t i = 0; i < n && (int64_t)i < keep; i++)
    if (drop[i])
      drop_argument(t, hg_node_arg(args, i), edits);
  char *text;
  uint32_t at, to;
  if (keep < 0) {
    // Nothing kept (no arguments): right after the opening parenthesis.
    at = start_of(args) + 1;
    to = n ? end_of(last) : at;
    text = hg_xasprintf("**%s", call);
  } else {
    TSNode k = hg_node_arg(args, (uint32_t)keep);
    at = end_of(k);
    to = (uint32_t)keep + 1 < n ? end_of(last) : at;
    // Arguments on lines of their own: the builder too, indented like the last one kept.
    char *ind = ts_node_start_point(k).row != ts_node_start_point(args).row ? own_line_indent(t, start_of(k)) : NULL;
    text = ind ? hg_xasprintf(",%s%s**%s", t->eol, ind, call) : hg_xasprintf(", **%s", call);
    free(ind);
  }
  hg_edits_add(edits, at, to, text);
  free(text);
  free(drop);
  return 0;
}

// ---- argv lists ---------------------------------------------------------------------------------

// The text of a plain string literal element (no interpolation, no escapes), or NULL.
static char *literal(const hg_fix_text *t, TSNode n) {
  if (!hg_node_is(n, "string"))
    return NULL;
  hg_buf b = {0};
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (hg_node_is(c, "string_content"))
      hg_buf_add(&b, t->src + start_of(c), end_of(c) - start_of(c));
    else if (!hg_node_is(c, "string_start") && !hg_node_is(c, "string_end")) {
      hg_buf_free(&b);
      return NULL;
    }
  }
  return hg_buf_detach(&b);
}

int hg_fix_plan_argv(const hg_fix_text *t, TSNode site, const char *call, const hg_policy *p, hg_edits *edits,
                     hg_buf *why) {
  uint32_t n = hg_node_arg_count(site);
  char **words = hg_xcalloc(n + 1, sizeof(char *)), **shown = hg_xcalloc(n + 1, sizeof(char *));
  bool *spread = hg_xcalloc(n + 1, sizeof(bool));
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = hg_node_arg(site, i);
    words[i] = literal(t, a);
    shown[i] = hg_xstrndup(t->src + start_of(a), end_of(a) - start_of(a));
    spread[i] = hg_node_is(a, "list_splat");
  }
  int at = hg_fix_image_word(p, (const char *const *)words, (const char *const *)shown, spread, n, why);
  if (at >= 0) {
    TSNode image = hg_node_arg(site, (uint32_t)at);
    char *indent = own_line_indent(t, start_of(image));
    char *text = indent ? hg_xasprintf("*%s,%s%s", call, t->eol, indent) : hg_xasprintf("*%s, ", call);
    hg_edits_add(edits, start_of(image), start_of(image), text);
    free(text);
    free(indent);
  }
  hg_strv_free(words, n);
  hg_strv_free(shown, n);
  free(spread);
  return at >= 0 ? 0 : -1;
}

// ---- the planner --fix asks (fix/plan.h) -------------------------------------------------------

static char *locate(const hg_fix_text *t, const hg_finding *f, const hg_policy *policy, size_t n_builders,
                    uint32_t start, uint32_t end, TSNode *node, hg_fix_site_kind *kind) {
  *kind = hg_fix_site(t, start, end, node);
  int d = f->dialect ? hg_policy_dialect(policy, f->dialect) : -1;
  bool keywords = d >= 0 && policy->dialects[d].shape == HG_SHAPE_KEYWORDS;
  bool flags = d >= 0 && policy->dialects[d].shape == HG_SHAPE_FLAGS;
  TSNode args = *kind == HG_FIX_SITE_KWARGS ? hg_node_child(*node, HG_FIELD_ARGUMENTS) : (TSNode){0};
  if (flags && hg_node_arg_count(args) >= 2 && hg_node_is(hg_node_arg(args, 0), "string") &&
      hg_node_is(hg_node_arg(args, 1), "string"))
    return hg_xstrdup("an argv given as a helper's arguments (run_cmd(\"docker\", \"run\", ...)): add the flags "
                      "after the verb by hand; --fix rewrites argv lists only");
  if (*kind != HG_FIX_SITE_ARGV && flags)
    return hg_xstrdup("a command string run by a shell: write it as an argv list ([\"docker\", \"run\", ...]) "
                      "and run --fix again; --fix does not rewrite shell strings");
  if ((*kind == HG_FIX_SITE_ARGV && !flags) || (*kind == HG_FIX_SITE_KWARGS && !keywords))
    return hg_xasprintf("--fix applies builders to keyword calls and argv lists, not to %s sites",
                        f->dialect ? f->dialect : "these");
  if (*kind == HG_FIX_SITE_NONE || *kind == HG_FIX_SITE_OTHER)
    return hg_xstrdup("--fix applies a builder to keyword calls and argv lists only");
  if (f->also & ~((UINT32_C(1) << HG_RULE_UNHARDENED_SITE) | (UINT32_C(1) << HG_RULE_BUILDER_NOT_APPLIED)))
    return hg_xstrdup("the site also fails another rule (a weakening option, say): a human decides first");
  if (!n_builders)
    return hg_xstrdup("no builder configured: run `hardguard init` first");
  return NULL;
}

static int plan_builder(const hg_fix_text *t, TSNode site, hg_fix_site_kind kind, const char *call,
                        char *const *yields, size_t n_yields, const char *const *names, const hg_policy *policy,
                        hg_edits *edits, hg_buf *note, hg_buf *why) {
  return kind == HG_FIX_SITE_ARGV ? hg_fix_plan_argv(t, site, call, policy, edits, why)
                                  : hg_fix_plan_kwargs(t, site, call, yields, n_yields, names, edits, note, why);
}

static void describe(hg_buf *b, bool dry_run, hg_fix_site_kind kind, const char *note, const char *builder,
                     const char *module) {
  hg_buf_printf(b, "%s %s%s() from %s", dry_run ? "would apply" : "applied", kind == HG_FIX_SITE_ARGV ? "*" : "**",
                builder, module);
  hg_buf_puts(b, kind == HG_FIX_SITE_ARGV ? " before the image" : ", merged last");
  if (note)
    hg_buf_printf(b, " (%s, which it sets)", note);
}

// What the callable yields, read by the value model as the judge reads it; a Class.method is not
// read: what it yields stays unknown.
static void builder_yields(void *project, const char *module, const char *name, const char *from_path, char ***yields,
                           size_t *n) {
  *yields = NULL;
  *n = 0;
  const hg_config *c = project ? hg_index_config(project) : NULL;
  for (size_t i = 0; c && i < c->n_builders; i++)
    if (!strcmp(c->builders[i].module, module)) {
      hg_arena *arena = hg_arena_new();
      hg_value v = hg_python_builder_value(project, arena, &c->builders[i], name, from_path);
      if (v.kind == HG_VAL_BUILDER && !hg_python_builder_keys(&v, yields, n))
        *yields = NULL;
      hg_arena_free(arena);
      return;
    }
}

const hg_fix_planner hg_python_fix = {.builders = true,
                                      .builder_yields = builder_yields,
                                      .locate = locate,
                                      .plan_import = hg_fix_plan_import,
                                      .plan_builder = plan_builder,
                                      .describe = describe};
