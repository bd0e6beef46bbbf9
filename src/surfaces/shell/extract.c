// The sites of a shell script: the rules' cli-run patterns find commands that may run a container
// CLI; a command is a site when, after wrappers (sudo, timeout 60, env A=1) and the program's own
// options, its subcommand words hold a verb (run, create). Its words, with the script's variables
// substituted, are judged like an argv list.
#include <stdlib.h>
#include <string.h>

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
// values is (`ENGINE=${ENGINE:-podman}; $ENGINE run`, both arms of an if). *program is then what
// it may hold (an ALT, or the one value).
static bool program_in_variable(hg_sh *sh, const hg_policy *policy, const hg_value_vec *words, const node_vec *from,
                                size_t at, hg_value *program) {
  if (at > 0 && ts_node_eq(from->items[at - 1], from->items[at]))
    return false; // not the first word of its argument
  hg_value v;
  if (!hg_sh_alternatives(sh, from->items[at], &v))
    return false;
  bool any = is_program(policy, &v);
  for (size_t k = 0; v.kind == HG_VAL_ALT && k < v.n_items && !any; k++)
    any = is_program(policy, &v.items[k]);
  if (any) {
    *program = v;
    program->line = words->items[at].line;
  }
  return any;
}

// Reads `command` as a site: false when it does not start a container. `flags` is then the
// program followed by the words after its own options.
static bool read_command(hg_sh *sh, const hg_policy *policy, TSNode command, hg_value *flags) {
  hg_value_vec words = {0};
  node_vec from = {0};
  command_words(sh, command, &words, &from);
  size_t n = words.len, i;
  hg_value *w = words.items;
  // Wrappers, each read by its grammar in the policy, up to the program.
  const char **text = hg_xcalloc(n + 1, sizeof(char *));
  for (size_t k = 0; k < n; k++) // a word whose start is known reads as an option or an assignment
    text[k] = w[k].kind == HG_VAL_STR && w[k].text[0] != HG_HOLE ? w[k].text : NULL; // (--kill-after="$T")
  i = hg_policy_skip_wrappers(policy, text, n);
  free(text);
  bool site = false;
  hg_value program;
  if (i < n && (is_program(policy, &w[i]) ? (program = w[i], true)
                                          : program_in_variable(sh, policy, &words, &from, i, &program))) {
    i++;
    // The program's own options: `docker --context ci run`, `podman --remote run`.
    while (i < n && is_str(&w[i]) && w[i].text[0] == '-' && strcmp(w[i].text, "--"))
      i += hg_policy_is_global_value_flag(policy, w[i].text) ? 2 : 1;
    size_t sub = i;
    while (i < n && is_str(&w[i]) && hg_policy_is_subcommand(policy, w[i].text) && !site)
      site = hg_policy_is_verb(policy, w[i++].text);
    if (site) {
      hg_value_vec kept = {0};
      HG_VEC_PUSH(&kept, program);
      for (size_t k = sub; k < n; k++)
        HG_VEC_PUSH(&kept, w[k]);
      *flags = hg_values_finish(sh->arena,
                                (hg_value){.kind = HG_VAL_LIST,
                                           .text = hg_node_text(command, sh->src, sh->arena),
                                           .line = ts_node_start_point(command).row + 1},
                                &kept);
    }
  }
  free(words.items);
  free(from.items);
  return site;
}

// What one run of the shell query keeps from its site matches.
typedef struct {
  const hg_policy *policy;
  const hg_source *source;
  const hg_sh_env *env;
  hg_arena *arena;
  TSNode root;
  hg_site_vec *sites;
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
    hg_extract__error_regions(self, rules, HG_SURFACE_SHELL, source, root, &mine);
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
  ts_tree_delete(tree);
  hg_extractor_leave(self);
}
