#include "surfaces/shell/fix.h"

#include <stdlib.h>
#include <string.h>

#include "fix/cmdline.h"
#include "surfaces/node.h"

static uint32_t start_of(TSNode n) { return ts_node_start_byte(n); }
static uint32_t end_of(TSNode n) { return ts_node_end_byte(n); }

static TSNode first_command(TSNode n) {
  if (hg_node_is(n, "command"))
    return n;
  for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
    TSNode c = first_command(ts_node_named_child(n, i));
    if (!ts_node_is_null(c))
      return c;
  }
  return (TSNode){0};
}

TSNode hg_fix_shell_command(const hg_fix_text *t, uint32_t start, uint32_t end) {
  TSNode n = ts_node_descendant_for_byte_range(t->root, start, start);
  for (; !ts_node_is_null(n) && start_of(n) == start; n = ts_node_parent(n))
    if (end_of(n) >= end)
      return first_command(n);
  return (TSNode){0};
}

// A word as the shell passes it, when it is literal: a bare word or number, or a quoted string
// without expansions; NULL otherwise. *spread: it may expand to several words (unquoted
// expansions, "$@", command substitutions).
static char *literal(const hg_fix_text *t, TSNode n, bool *spread) {
  *spread = false;
  const char *s = t->src + start_of(n);
  size_t len = end_of(n) - start_of(n);
  if (hg_node_is(n, "word") || hg_node_is(n, "number"))
    return memchr(s, '\\', len) ? NULL : hg_xstrndup(s, len);
  if (hg_node_is(n, "raw_string") && len >= 2)
    return hg_xstrndup(s + 1, len - 2);
  if (hg_node_is(n, "string")) {
    bool plain = true;
    for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k && plain; i++) {
      TSNode c = ts_node_named_child(n, i);
      plain = hg_node_is(c, "string_content") && !memchr(t->src + start_of(c), '\\', end_of(c) - start_of(c));
      // "$@" and "${a[@]}" are several words
      *spread |= (hg_node_is(c, "simple_expansion") || hg_node_is(c, "expansion")) &&
                 (memchr(t->src + start_of(c), '@', end_of(c) - start_of(c)) != NULL);
    }
    return plain && len >= 2 ? hg_xstrndup(s + 1, len - 2) : NULL;
  }
  *spread = !hg_node_is(n, "concatenation");
  return NULL;
}

// Quotes a word for the shell when it holds anything but safe characters.
static void put_word(hg_buf *b, const char *w) {
  bool safe = *w != '\0';
  for (const char *c = w; *c && safe; c++)
    safe = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-", *c) != NULL;
  if (safe) {
    hg_buf_puts(b, w);
    return;
  }
  hg_buf_putc(b, '\'');
  for (const char *c = w; *c; c++)
    hg_buf_puts(b, *c == '\'' ? "'\\''" : (char[]){*c, 0});
  hg_buf_putc(b, '\'');
}

char *hg_fix_shell_flags(const hg_policy *p, int dialect, const char *const *missing, size_t n) {
  hg_buf b = {0};
  for (size_t i = 0; i < n; i++) {
    size_t r;
    if (!hg_policy_requirement(p, missing[i], &r) || !p->req[r].spell[dialect].n_set) {
      hg_buf_free(&b);
      return NULL;
    }
    for (size_t k = 0; k < p->req[r].spell[dialect].n_set; k++) {
      if (b.len)
        hg_buf_putc(&b, ' ');
      put_word(&b, p->req[r].spell[dialect].set[k]);
    }
  }
  return b.len ? hg_buf_detach(&b) : NULL;
}

int hg_fix_plan_command(const hg_fix_text *t, TSNode command, const char *flags, const hg_policy *p, hg_edits *edits,
                        hg_buf *why) {
  // The command's name and arguments, in order (a cursor: libtree-sitter 0.20.7 names only the
  // first of repeated fields through ts_node_field_name_for_child).
  HG_VEC(TSNode) nodes = {0};
  TSTreeCursor c = ts_tree_cursor_new(command);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      const char *field = ts_tree_cursor_current_field_name(&c);
      if (field && (!strcmp(field, "name") || !strcmp(field, "argument")))
        HG_VEC_PUSH(&nodes, ts_tree_cursor_current_node(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  size_t n = nodes.len;
  char **words = hg_xcalloc(n + 1, sizeof(char *)), **shown = hg_xcalloc(n + 1, sizeof(char *));
  bool *spread = hg_xcalloc(n + 1, sizeof(bool));
  for (size_t i = 0; i < n; i++) {
    TSNode a = hg_node_is(nodes.items[i], "command_name") ? ts_node_named_child(nodes.items[i], 0) : nodes.items[i];
    words[i] = literal(t, a, &spread[i]);
    shown[i] = hg_xstrndup(t->src + start_of(a), end_of(a) - start_of(a));
  }
  int at = hg_fix_image_word(p, (const char *const *)words, (const char *const *)shown, spread, n, why);
  if (at >= 0) {
    uint32_t where = start_of(nodes.items[at]), ls = where;
    while (ls > 0 && t->src[ls - 1] != '\n')
      ls--;
    bool first = true; // the image starts its line (a command continued with backslashes)
    for (uint32_t i = ls; i < where && first; i++)
      first = t->src[i] == ' ' || t->src[i] == '\t';
    char *text =
        first ? hg_xasprintf("%s \\%s%.*s", flags, t->eol, (int)(where - ls), t->src + ls) : hg_xasprintf("%s ", flags);
    hg_edits_add(edits, where, where, text);
    free(text);
  }
  hg_strv_free(words, n);
  hg_strv_free(shown, n);
  free(spread);
  free(nodes.items);
  return at >= 0 ? 0 : -1;
}

// ---- the planner --fix asks (fix/plan.h) -------------------------------------------------------

static char *locate(const hg_fix_text *t, const hg_finding *f, const hg_policy *policy, size_t n_builders,
                    uint32_t start, uint32_t end, TSNode *node, hg_fix_site_kind *kind) {
  (void)policy;
  (void)n_builders;
  (void)kind;
  *node = hg_fix_shell_command(t, start, end);
  if (ts_node_is_null(*node))
    return hg_xstrdup("--fix finds no command there");
  if (f->also & ~(UINT32_C(1) << HG_RULE_UNHARDENED_SITE))
    return hg_xstrdup("the site also fails another rule (a weakening option, say): a human decides first");
  return NULL;
}

// No builder: the missing flags themselves, as the policy writes them.
static int plan_missing(const hg_fix_text *t, TSNode site, const hg_finding *f, const hg_policy *policy,
                        hg_edits *edits, char **note, hg_buf *why) {
  int d = hg_policy_dialect(policy, f->dialect);
  char *flags = d >= 0 ? hg_fix_shell_flags(policy, d, f->missing, f->n_missing) : NULL;
  int rc = flags ? hg_fix_plan_command(t, site, flags, policy, edits, why) : -1;
  if (!flags)
    hg_buf_puts(why, "the policy has no `set:` value for a missing requirement");
  *note = flags;
  return rc;
}

static void describe(hg_buf *b, bool dry_run, hg_fix_site_kind kind, const char *note, const char *builder,
                     const char *module) {
  (void)kind;
  (void)builder;
  (void)module;
  hg_buf_printf(b, "%s `%s` before the image", dry_run ? "would add" : "added", note);
}

const hg_fix_planner hg_shell_fix = {.locate = locate,
                                     .plan_missing = plan_missing,
                                     .describe = describe,
                                     .still_fails = "the command still fails with the flags added"};
