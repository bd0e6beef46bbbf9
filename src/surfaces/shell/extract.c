// The sites of a shell script: the rules' cli-run patterns find commands that may run a container
// CLI; a command is a site when, after wrappers (sudo, timeout 60, env A=1) and the program's own
// options, its subcommand words hold a verb (run, create). Its words, with the script's variables
// substituted, are judged like an argv list.
#include <stdlib.h>
#include <string.h>

#include "base/argv.h"
#include "surfaces/node.h"
#include "surfaces/shell/sh.h"
#include "surfaces/shell/shell.h"
#include "surfaces/registry.h"
#include "surfaces/shell/row.h"

typedef HG_VEC(TSNode) node_vec;

static bool is_str(const hg_value *v) { return v->kind == HG_VAL_STR && !strchr(v->text, HG_HOLE); }

// The words of the command: its name and arguments, in order, and the node each comes from.
// Prefix assignments (`FOO=1 cmd`) and redirections are not words. Children are walked with a
// cursor: libtree-sitter 0.20.7 names only the first of repeated `argument` fields through
// ts_node_field_name_for_child.
static void command_words(hg_sh *sh, TSNode command, hg_value_vec *out, node_vec *from) {
  TSTreeCursor cur = ts_tree_cursor_new(command);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do {
      const char *field = ts_tree_cursor_current_field_name(&cur);
      if (field && (!strcmp(field, "name") || !strcmp(field, "argument"))) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        hg_sh_words(sh, n, out);
        while (from->len < out->len)
          HG_VEC_PUSH(from, n);
      }
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
}

static bool is_program(const hg_policy *policy, const hg_value *v) {
  return is_str(v) && hg_policy_is_program(policy, hg_path_base(v->text));
}

// The program word at `at` when it is not a program's name as it stands: a variable one of whose
// values is (`ENGINE=${ENGINE:-podman}; $ENGINE run`, both arms of an if). *program is then that
// value, with the condition that selects it (`cond`): the command starts a container only when the
// variable holds a program, so the site is judged as that program's command (the other values of
// the variable, which hg_sh_alternatives gives as an ALT, start none, and the judge need not split
// on them).
static bool program_in_variable(hg_sh *sh, const hg_policy *policy, const hg_value_vec *words, const node_vec *from,
                                size_t at, hg_value *program) {
  if (at > 0 && ts_node_eq(from->items[at - 1], from->items[at]))
    return false; // not the first word of its argument
  hg_value v;
  if (!hg_sh_alternatives(sh, from->items[at], &v))
    return false;
  const hg_value *found = is_program(policy, &v) ? &v : NULL;
  for (size_t k = 0; v.kind == HG_VAL_ALT && k < v.n_items && !found; k++)
    if (is_program(policy, &v.items[k]))
      found = &v.items[k];
  if (found) {
    *program = *found;
    program->line = words->items[at].line;
  }
  return found != NULL;
}

// Where the words of a command that starts a container begin to be judged: the index of its
// subcommand words, after the program at *program_at and its own options; 0 when the command starts
// no container. `known` holds the words as hg_policy_skip_wrappers reads them.
static size_t verb_words(const hg_policy *policy, const hg_value *w, size_t n, size_t i, size_t *program_at) {
  *program_at = i++;
  // The program's own options: `docker --context ci run`, `podman --remote run`.
  while (i < n && is_str(&w[i]) && w[i].text[0] == '-' && strcmp(w[i].text, "--"))
    i += hg_policy_is_global_value_flag(policy, w[i].text) ? 2 : 1;
  size_t sub = i;
  while (i < n && is_str(&w[i]) && hg_policy_is_subcommand(policy, w[i].text))
    if (hg_policy_is_verb(policy, w[i++].text))
      return sub;
  return 0;
}

// The words of a site as the judge reads them: the program, then the words from the subcommand on.
static hg_value site_flags(hg_arena *arena, hg_value program, const hg_value *w, size_t n, size_t sub,
                           const char *text, uint32_t line) {
  hg_value_vec kept = {0};
  HG_VEC_PUSH(&kept, program);
  for (size_t k = sub; k < n; k++)
    HG_VEC_PUSH(&kept, w[k]);
  return hg_values_finish(arena, (hg_value){.kind = HG_VAL_LIST, .text = text, .line = line}, &kept);
}

// The index of the word after the wrappers of words `w` (n of them), read by their grammar.
static size_t after_wrappers(const hg_policy *policy, const hg_value *w, size_t n) {
  const char **text = hg_xcalloc(n + 1, sizeof(char *));
  for (size_t k = 0; k < n; k++) // a word whose start is known reads as an option or an assignment
    text[k] = w[k].kind == HG_VAL_STR && w[k].text[0] != HG_HOLE ? w[k].text : NULL; // (--kill-after="$T")
  size_t i = hg_policy_skip_wrappers(policy, text, n);
  free(text);
  return i;
}

// Reads `command` as a site: false when it does not start a container. `flags` is then the
// program followed by the words after its own options.
static bool read_command(hg_sh *sh, const hg_policy *policy, TSNode command, hg_value *flags) {
  hg_value_vec words = {0};
  node_vec from = {0};
  command_words(sh, command, &words, &from);
  size_t n = words.len, i = after_wrappers(policy, words.items, n), at, sub = 0;
  hg_value program;
  if (i < n && (is_program(policy, &words.items[i]) ? (program = words.items[i], true)
                                                    : program_in_variable(sh, policy, &words, &from, i, &program)))
    sub = verb_words(policy, words.items, n, i, &at);
  if (sub)
    *flags = site_flags(sh->arena, program, words.items, n, sub, hg_node_text(command, sh->src, sh->arena),
                        ts_node_start_point(command).row + 1);
  free(words.items);
  free(from.items);
  return sub != 0;
}

// What one run of the shell query keeps from its site matches.
typedef struct {
  const hg_policy *policy;
  const hg_source *source;
  const hg_sh_env *env;
  hg_arena *arena;
  TSNode root;
  hg_site_vec *sites;
  const char *command_kind; // the kind and reading of the pattern that reads commands, for the
  hg_reads command_reads;   // sites read in regions that failed to parse (NULL: none)
  HG_VEC(uint32_t) seen;
  HG_VEC(TSNode) scripts;
  hg_sh sh;
  bool sh_ready;
} shell_run;

static void on_site(void *ctx, const hg_pattern *p, const TSQueryMatch *m, TSNode node) {
  (void)m;
  shell_run *r = ctx;
  if (p->reads == HG_READS_SCRIPT) { // read once the query is done: the cursor is needed again
    HG_VEC_PUSH(&r->scripts, node);
    return;
  }
  // Several patterns (or one pattern through several arguments) may match one command.
  uint32_t start = ts_node_start_byte(node);
  for (size_t i = 0; i < r->seen.len; i++)
    if (r->seen.items[i] == start)
      return;
  HG_VEC_PUSH(&r->seen, start);
  if (!r->sh_ready) {
    hg_sh_init(&r->sh, r->source->data, r->arena, r->root);
    r->sh.env = r->env;
    r->sh_ready = true;
  }
  hg_site s = {.path = r->source->path, .kind = p->kind, .reads = p->reads};
  if (!read_command(&r->sh, r->policy, node, &s.flags))
    return;
  hg_extract__position(&s, r->source, node);
  s.has_error = ts_node_has_error(node);
  HG_VEC_PUSH(r->sites, s);
}

// ---- regions that failed to parse ---------------------------------------------------------------

// Words that open a compound command or a branch before the command on the same line.
static bool reserved(const char *w) {
  static const char *const words[] = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "(", "time"};
  for (size_t i = 0; i < HG_ARRAY_LEN(words); i++)
    if (!strcmp(w, words[i]))
      return true;
  return false;
}

// The 0-based row of byte `to`, counted on from byte `from` at row `row` (from <= to).
static uint32_t row_at(const hg_source *src, uint32_t from, uint32_t row, uint32_t to) {
  for (uint32_t k = from; k < to; k++)
    row += src->data[k] == '\n';
  return row;
}

// Appends the value of word `t` of a command in a region that failed to parse: a variable standing
// alone (`$HARDEN`, `${ENGINE}`; quotes are gone, so it is split as if unquoted) is its value
// where the first command of the region using it stands (`start`), when the script assigns it in
// full before, in code that parsed; any other expansion is an
// unknown word that may be several. False when the word cannot be read at all (a command
// substitution, whose end the reader does not know).
// What the variables read in one region hold, looked up once each: a lookup walks the tree around
// the command (ts_node_parent is linear in the siblings, and a broken region may hold a whole file).
typedef struct {
  HG_VEC(const char *) names;
  HG_VEC(const char *) values; // NULL: not known
} region_vars;

static bool region_word(shell_run *r, region_vars *vars, uint32_t start, const char *t, uint32_t line,
                        hg_value_vec *out) {
  size_t len = strlen(t);
  if (strstr(t, "$(") || strchr(t, '`'))
    return false;
  if (!strchr(t, '$') && !strchr(t, HG_HOLE)) {
    HG_VEC_PUSH(out, ((hg_value){.kind = HG_VAL_STR, .text = hg_arena_strndup(r->arena, t, len), .line = line}));
    return true;
  }
  bool braced = t[0] == '$' && t[1] == '{' && len > 3 && t[len - 1] == '}';
  size_t a = braced ? 2 : 1, b = braced ? len - 1 : len, k = a;
  while (k < b && (t[k] == '_' || (t[k] >= 'A' && t[k] <= 'Z') || (t[k] >= 'a' && t[k] <= 'z') ||
                   (k > a && t[k] >= '0' && t[k] <= '9')))
    k++;
  const char *value = NULL;
  if (t[0] == '$' && k == b && b > a) {
    size_t v = 0;
    while (v < vars->names.len && !(strlen(vars->names.items[v]) == b - a && !memcmp(vars->names.items[v], t + a, b - a)))
      v++;
    if (v == vars->names.len) {
      if (!r->sh_ready) {
        hg_sh_init(&r->sh, r->source->data, r->arena, r->root);
        r->sh.env = r->env;
        r->sh_ready = true;
      }
      const char *name = hg_arena_strndup(r->arena, t + a, b - a);
      HG_VEC_PUSH(&vars->names, name);
      HG_VEC_PUSH(&vars->values,
                  hg_sh_scalar_at(&r->sh, name, ts_node_descendant_for_byte_range(r->root, start, start)));
    }
    value = vars->values.items[v];
  }
  if (!value) {
    HG_VEC_PUSH(out, ((hg_value){.kind = HG_VAL_UNKNOWN, .text = hg_arena_strndup(r->arena, t, len), .splat = true,
                                 .line = line,
                                 .origin = "an expansion in code that failed to parse, which hardguard reads only "
                                           "where it is a variable assigned in full before that code"}));
    return true;
  }
  for (const char *v = value; *v;) { // split as an unquoted expansion is
    v += strspn(v, " \t\n");
    size_t m = strcspn(v, " \t\n");
    if (m)
      HG_VEC_PUSH(out, ((hg_value){.kind = HG_VAL_STR, .text = hg_arena_strndup(r->arena, v, m), .line = line}));
    v += m;
  }
  return true;
}

// The lines of a region that failed to parse, read with the command-line word reader (base/argv.c,
// no variables): each command there that starts a container (a program, after wrappers, then a
// verb) is a site judged on those words, an expansion standing as an unknown word that may be
// several; a command whose words cannot be read (a quote left open, a command substitution) leaves
// the region reported. A region with no such command hides no site.
static bool read_region(void *ctx, TSNode region, uint32_t a, uint32_t b, hg_site_vec *sites) {
  shell_run *r = ctx;
  const hg_source *src = r->source;
  if (!r->command_kind)
    return true; // the rules read no shell commands: nothing to judge the region by
  size_t found = sites->len;
  uint32_t ls = a, le = b;
  while (ls > 0 && src->data[ls - 1] != '\n')
    ls--;
  while (le < src->len && src->data[le] != '\n')
    le++;
  const char *text = hg_arena_strndup(r->arena, src->data + ls, le - ls);
  bool report = false;
  region_vars vars = {0};
  // Rows are counted on from the region's first line: the ERROR node's row, less the lines between
  // that line and the node (the statement around it may start lines earlier).
  uint32_t at_byte = ls, at_row = ts_node_start_point(region).row;
  for (uint32_t k = ls; k < ts_node_start_byte(region) && k < src->len; k++)
    at_row -= src->data[k] == '\n' && at_row > 0;
  for (const char *p = text; *p;) {
    p += strspn(p, " \t\r\n");
    hg_argv_words argv = {0};
    bool closed;
    const char *end = hg_argv_split_next(&argv, p, &closed);
    // Words that open a compound command stand before it (the reader drops comments).
    size_t n = argv.len, first = 0;
    while (first < n && reserved(argv.items[first]))
      first++;
    uint32_t start = ls + (uint32_t)(p - text), stop = ls + (uint32_t)(end - text);
    while (stop > start && strchr(" \t\r\n", src->data[stop - 1]))
      stop--;
    uint32_t row = row_at(src, at_byte, at_row, start); // counted on from the last command's start
    at_byte = start;
    at_row = row;
    hg_value_vec w = {0};
    bool readable = closed;
    for (size_t k = first; k < n; k++)
      readable = region_word(r, &vars, start, argv.items[k], row + 1, &w) && readable;
    size_t i = after_wrappers(r->policy, w.items, w.len), at, sub = 0;
    if (i < w.len && is_program(r->policy, &w.items[i]))
      sub = verb_words(r->policy, w.items, w.len, i, &at);
    bool inside = false; // a command the query found already, in or around the broken part
    for (size_t k = 0; sub && k < found && !inside; k++)
      inside = start >= sites->items[k].start_byte && start < sites->items[k].end_byte;
    if (sub && !inside && !readable) {
      report = true;
    } else if (sub && !inside) {
      hg_site s = {.path = src->path, .kind = r->command_kind, .reads = r->command_reads};
      s.flags = site_flags(r->arena, w.items[at], w.items, w.len, sub,
                           hg_arena_strndup(r->arena, src->data + start, stop - start), row + 1);
      s.start_byte = start;
      s.end_byte = stop;
      hg_pos pa = hg_source_pos(src, start, row), pb = hg_source_pos(src, stop, row_at(src, start, row, stop));
      s.line = pa.line;
      s.col = pa.col;
      s.end_line = pb.line;
      s.end_col = pb.col;
      HG_VEC_PUSH(sites, s);
    }
    free(w.items);
    hg_strv_free(argv.items, argv.len);
    p = *end ? end + 1 : end;
  }
  free(vars.names.items);
  free(vars.values.items);
  return report;
}

void hg_shell_sites(hg_extractor *self, const hg_ruleset *rules, const hg_source *source, TSNode root,
                    const hg_sh_env *env, hg_arena *arena, hg_site_vec *sites, hg_marker_vec *markers) {
  size_t first = sites->len;
  shell_run run = {.policy = hg_ruleset_policy(rules),
                   .source = source,
                   .env = env,
                   .arena = arena,
                   .root = root,
                   .sites = sites};
  hg_extract_matches(self, rules, HG_SURFACE_SHELL, source, root, arena, markers, on_site, &run);
  free(run.seen.items);
  // `bash -c '...'`, `eval "..."`: the string is shell code, read again as a script of its own.
  hg_lines lines = {0};
  for (size_t i = 0; i < run.scripts.len; i++) {
    TSNode str = run.scripts.items[i];
    uint32_t a = ts_node_start_byte(str) + 1, b = ts_node_end_byte(str);
    if (b > a)
      b--; // inside the quotes
    hg_embed_builder eb = {0};
    hg_embed_put(&eb, source->data + a, b - a, a, true);
    hg_embed e = hg_embed_finish(&eb, arena, b);
    if (!lines.start)
      hg_lines_init(&lines, source, arena);
    hg_shell_embedded(self, rules, source, &lines, &e, NULL, arena, sites, markers);
  }
  free(run.scripts.items);
  if (ts_node_has_error(root)) {
    // Regions are judged against the sites of this script only.
    hg_site_vec mine = {0};
    for (size_t i = first; i < sites->len; i++)
      HG_VEC_PUSH(&mine, sites->items[i]);
    size_t before = mine.len;
    const hg_rules_query *q = hg_ruleset_query_for(rules, HG_SURFACE_SHELL, HG_UNITS_ALL);
    for (uint32_t k = 0; q && k < q->n_patterns && !run.command_kind; k++) {
      const hg_pattern *p = &q->patterns[k];
      if (p && p->role == HG_PATTERN_SITE && p->reads == HG_READS_COMMAND) {
        run.command_kind = p->kind;
        run.command_reads = p->reads;
      }
    }
    hg_extract__error_regions_read(self, rules, HG_SURFACE_SHELL, source, root, &mine, read_region, &run);
    for (size_t i = before; i < mine.len; i++)
      HG_VEC_PUSH(sites, mine.items[i]);
    free(mine.items);
  }
}

void hg_shell_extract(hg_extractor *self, const hg_ruleset *rules, const hg_config *config, void *project,
                      const hg_source *source, TSTree *tree, hg_arena *arena, hg_sites *out) {
  (void)config;
  (void)project;
  hg_site_vec sites = {0};
  hg_marker_vec markers = {0};
  hg_shell_sites(self, rules, source, ts_tree_root_node(tree), NULL, arena, &sites, &markers);
  hg_extract__finish(out, arena, &sites, &markers);
}

void hg_shell_embedded(hg_extractor *self, const hg_ruleset *rules, const hg_source *file, const hg_lines *lines,
                       const hg_embed *e, const hg_sh_env *env, hg_arena *arena, hg_site_vec *sites,
                       hg_marker_vec *markers) {
  if (!hg_ruleset_may_contain_site(rules, HG_SURFACE_SHELL, e->text, e->len, NULL) || !hg_extractor_enter(self))
    return;
  hg_source sub = {.path = file->path, .data = (char *)e->text, .len = e->len};
  TSTree *tree = ts_parser_parse_string(hg_extractor_parser(self, tree_sitter_bash()), NULL, e->text, e->len);
  if (!tree) {
    hg_extractor_leave(self);
    return;
  }
  size_t s0 = sites->len, m0 = markers->len;
  hg_shell_sites(self, rules, &sub, ts_tree_root_node(tree), env, arena, sites, markers);
  for (size_t i = s0; i < sites->len; i++)
    hg_embed_place_site(lines, e, &sites->items[i]);
  for (size_t i = m0; i < markers->len; i++)
    hg_embed_place_marker(lines, e, &markers->items[i]);
  hg_tree_delete(tree);
  hg_extractor_leave(self);
}
