// Unit tests for the shell surface's word reading (src/surfaces/shell/words.c): quotes, escapes, word
// splitting, variables and arrays assigned in the script, defaults, and what stays unknown.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "surfaces/shell/sh.h"
#include "surfaces/node.h"

const TSLanguage *tree_sitter_bash(void);

// The last command of the script (not one inside another's $(...)).
static TSNode last_command(TSNode n, TSNode best) {
  if (!strcmp(ts_node_type(n), "command"))
    return n;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
    best = last_command(ts_node_named_child(n, i), best);
  return best;
}

// The words of the script's last command, joined with "|": an unknown word as ?text, one that
// may split into several as *text, a conditional one with a trailing ~.
static char *words_of(const char *script) {
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_bash());
  TSTree *tree = ts_parser_parse_string(p, NULL, script, (uint32_t)strlen(script));
  TSNode root = ts_tree_root_node(tree);
  hg_arena *arena = hg_arena_new();
  hg_sh sh;
  hg_sh_init(&sh, script, arena, root);
  TSNode cmd = last_command(root, (TSNode){0});
  hg_value_vec words = {0};
  TSTreeCursor cur = ts_tree_cursor_new(cmd);
  if (ts_tree_cursor_goto_first_child(&cur))
    do {
      const char *field = ts_tree_cursor_current_field_name(&cur);
      if (field && (!strcmp(field, "name") || !strcmp(field, "argument")))
        hg_sh_words(&sh, ts_tree_cursor_current_node(&cur), &words);
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  ts_tree_cursor_delete(&cur);
  hg_buf b = {0};
  for (size_t i = 0; i < words.len; i++) {
    const hg_value *w = &words.items[i];
    hg_buf_puts(&b, i ? "|" : "");
    if (w->kind == HG_VAL_UNKNOWN)
      hg_buf_puts(&b, w->splat ? "*" : "?");
    if (w->kind == HG_VAL_ALT && w->n_items && w->items[0].kind == HG_VAL_LIST) {
      // A variable's branches: each branch's words, "(a b / c)"
      hg_buf_putc(&b, '(');
      for (size_t k = 0; k < w->n_items; k++)
        for (size_t e = 0; e < w->items[k].n_items; e++)
          hg_buf_printf(&b, "%s%s", e ? " " : k ? " / " : "", w->items[k].items[e].text);
      hg_buf_putc(&b, ')');
      continue;
    }
    for (const char *c = w->text; *c; c++)
      hg_buf_putc(&b, *c == HG_HOLE ? '#' : *c);
    if (w->conditional)
      hg_buf_putc(&b, '~');
  }
  free(words.items);
  hg_arena_free(arena);
  hg_tree_delete(tree);
  ts_parser_delete(p);
  return hg_buf_detach(&b);
}

static void test_shell__words(void **state) {
  (void)state;
  static const struct {
    const char *script, *want;
  } cases[] = {
      {"docker run --rm a", "docker|run|--rm|a"},
      {"docker run \"a b\" 'c d' e\\ f", "docker|run|a b|c d|e f"},
      // ${MEM:-512m} of a variable the script never assigns: one of two words (the environment's
      // value or the default), an ALT written as in the source
      {"docker run --cap-drop=\"ALL\" --memory=${MEM:-512m} x", "docker|run|--cap-drop=ALL|--memory=${MEM:-512m}|x"},
      // A variable assigned earlier: split when unquoted, one word when quoted.
      {"F='--cap-drop ALL'\ndocker run $F \"$F\"", "docker|run|--cap-drop|ALL|--cap-drop ALL"},
      // Arrays: one word per element with "${a[@]}", appended with +=.
      {"A=(--read-only \"--memory 1g\")\nA+=(--rm)\ndocker run \"${A[@]}\" x",
       "docker|run|--read-only|--memory 1g|--rm|x"},
      {"A=(a b)\ndocker run \"${A[*]}\"", "docker|run|a b"},
      {"A=()\ndocker run \"${A[@]}\" x", "docker|run|x"},
      // The last assignment before the use counts; one inside an if only on some paths: with the
      // assignment every path made before it, or those of every branch, one of several (each
      // branch's words, latest first); anything else (a loop, an if without an else, an if not on
      // every path) is set on only some paths, every word of it.
      {"F=--rm\nF=--read-only\ndocker run $F", "docker|run|--read-only"},
      {"F=--rm\nif x; then F=--read-only; fi\ndocker run $F", "docker|run|(--read-only / --rm)"},
      {"if x; then F='--read-only --rm'; elif y; then F=--rm; else F=; fi\ndocker run $F",
       "docker|run|( / --rm / --read-only --rm)"},
      {"if x; then A=(--read-only \"-m 1g\"); else A=(); fi\ndocker run \"${A[@]}\"", "docker|run|( / --read-only -m 1g)"},
      {"if x; then F='--read-only --rm'; fi\ndocker run $F", "docker|run|--read-only~|--rm~"},
      {"for i in 1; do F='--read-only --rm'; done\nF2=1\ndocker run $F", "docker|run|--read-only~|--rm~"},
      {"if x; then if y; then F=--rm; else F=--read-only; fi; fi\ndocker run $F", "docker|run|--read-only~"},
      // A case's arms likewise, when one is `*)` or an assignment comes before; an arm or a branch
      // ending in exit reaches no use (the one branch left is every path's); arms that run on
      // (`;&`, `;;&`) are no alternatives.
      {"case $m in a|b) F=--rm ;; *) F=--read-only ;; esac\ndocker run $F", "docker|run|(--read-only / --rm)"},
      {"F=--rm\ncase $m in a) F=--read-only ;; esac\ndocker run $F", "docker|run|(--read-only / --rm)"},
      {"case $m in a) F=--rm ;; b) F=--read-only ;; esac\ndocker run $F", "docker|run|--read-only~"},
      {"case $m in a) F=--rm ;; *) F=x; exit 1 ;; esac\ndocker run $F", "docker|run|--rm"},
      {"case $m in a) F=--rm ;; *) exit 1 ;; esac\ndocker run $F", "docker|run|--rm"},
      {"if x; then F=--rm; else echo no; exit 2; fi\ndocker run $F", "docker|run|--rm"},
      {"if x; then F=--rm; else false || exit 2; fi\ndocker run $F", "docker|run|--rm~"},
      {"f() {\n if x; then F=--rm; else return 1; fi\n docker run $F\n}", "docker|run|--rm"},
      {"if x; then F=--rm; else return 1; fi\ndocker run $F", "docker|run|--rm~"},
      {"case $m in a) F=--rm ;& *) F=--read-only ;; esac\ndocker run $F", "docker|run|--read-only~"},
      // Inside a longer word, the word on each branch (a variable used twice takes one branch).
      {"M=2g\nif x; then M=0; fi\ndocker run --memory=$M \"-m=${M}/$M\"",
       "docker|run|(--memory=0 / --memory=2g)|(-m=0/0 / -m=2g/2g)"},
      // A default only when the script does not assign the variable.
      {"M=1g\ndocker run --memory ${M:-2g}", "docker|run|--memory|1g"},
      // Unknown: the environment, arguments, command output; unquoted ones may be several words.
      {"docker run $OPTS \"$IMG\"", "docker|run|*$OPTS|?\"$IMG\""},
      {"docker run \"$@\" $(cat f) --memory=$M", "docker|run|*\"$@\"|*$(cat f)|--memory=#"},
      // An assignment in a subshell does not reach the use; one in another function does not either.
      {"(F=--rm)\nf() { local F=--x; }\ndocker run $F", "docker|run|*$F"},
      // A prefix assignment sets the variable for that command only.
      {"F=--rm docker run $F", "docker|run|*$F"},
      {"A=$B\nB=$A\ndocker run $A", "docker|run|*$A"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *got = words_of(cases[i].script);
    if (strcmp(got, cases[i].want))
      fail_msg("%s\n got: %s\nwant: %s", cases[i].script, got, cases[i].want);
    free(got);
  }
}

// Hostile scripts end quickly with an unknown word: a variable assigned from itself inside its own
// array (a fuzzer's find: it took 20 s before assignments were worked out once), and a chain of
// assignments that doubles the value each time.
static void test_shell__hostile_values(void **state) {
  (void)state;
  char *got = words_of("A=(--rm \"${A[@]}\" \"${A[@]}\" \"${A[@]}\")\ndocker run \"${A[@]}\" x");
  // The A inside its own assignment is the old one, which the script does not assign: unknown.
  assert_string_equal(got, "docker|run|*\"${A[@]}\"|x");
  free(got);
  hg_buf b = {0};
  hg_buf_puts(&b, "A0=--rm\n");
  for (int i = 1; i <= 40; i++) hg_buf_printf(&b, "A%d=\"$A%d $A%d\"\n", i, i - 1, i - 1);
  hg_buf_puts(&b, "docker run $A40 x");
  got = words_of(b.data);
  assert_string_equal(got, "docker|run|*$A40|x");
  free(got);
  hg_buf_free(&b);
}

// What the name of the script's last command may hold (hg_sh_alternatives), joined with "|": an
// unknown one as ?origin; "-" when the name is no variable.
static char *alternatives_of(const char *script) {
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_bash());
  TSTree *tree = ts_parser_parse_string(p, NULL, script, (uint32_t)strlen(script));
  TSNode root = ts_tree_root_node(tree);
  hg_arena *arena = hg_arena_new();
  hg_sh sh;
  hg_sh_init(&sh, script, arena, root);
  TSNode cmd = last_command(root, (TSNode){0});
  TSNode name = ts_node_child_by_field_name(cmd, "name", 4);
  hg_value v;
  hg_buf b = {0};
  if (!hg_sh_alternatives(&sh, name, &v)) {
    hg_buf_puts(&b, "-");
  } else {
    size_t n = v.kind == HG_VAL_ALT ? v.n_items : 1;
    for (size_t i = 0; i < n; i++) {
      const hg_value *a = v.kind == HG_VAL_ALT ? &v.items[i] : &v;
      hg_buf_printf(&b, "%s%s%s", i ? "|" : "", a->kind == HG_VAL_UNKNOWN ? "?" : "",
                    a->kind == HG_VAL_UNKNOWN ? a->origin : a->text);
    }
  }
  hg_arena_free(arena);
  hg_tree_delete(tree);
  ts_parser_delete(p);
  return hg_buf_detach(&b);
}

static void test_shell__program_alternatives(void **state) {
  (void)state;
  static const struct {
    const char *script, *want;
  } cases[] = {
      {"docker run x", "-"},
      {"ENGINE=${ENGINE:-podman}\n$ENGINE run x", "?$ENGINE comes from the environment|podman"},
      {"DOCKER=docker\n\"$DOCKER\" run x", "docker"},
      {"C=\"${C:-docker}\"\n\"${C}\" run x", "?$C comes from the environment|docker"},
      {"${ENGINE:-nerdctl} run x", "?$ENGINE comes from the environment|nerdctl"},
      // Both arms of an if (the latest first), and the environment, which neither arm alone hides; an
      // assignment on every path hides what came before it.
      {"if a; then E=podman; else E=tool; fi\n$E run x", "tool|podman|?$E comes from the environment"},
      {"E=tool\nE=podman\n$E run x", "podman"},
      // An assignment after the use does not reach it; one in a subshell neither.
      {"$E run x\nE=docker", "?$E comes from the environment"},
      {"(E=docker)\n$E run x", "?$E comes from the environment"},
      // A function sees the top-level assignments, wherever they stand.
      {"f() { $E run x; }\nE=docker", "docker|?$E comes from the environment"},
      {"\"$1\" run x", "?an argument of the script or function"},
      {"${E#x} run x", "-"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *got = alternatives_of(cases[i].script);
    if (strcmp(got, cases[i].want))
      fail_msg("%s\n got: %s\nwant: %s", cases[i].script, got, cases[i].want);
    free(got);
  }
}

// A variable assigned from itself thousands of times, each with another default, and a chain of
// variables each assigned from the previous twice: bounded, the rest one unknown alternative.
static void test_shell__hostile_alternatives(void **state) {
  (void)state;
  hg_buf b = {0};
  for (int i = 0; i < 5000; i++)
    hg_buf_printf(&b, "E=${E:-tool%d}\n", i);
  hg_buf_puts(&b, "$E run x");
  char *got = alternatives_of(b.data);
  assert_non_null(strstr(got, "?budget"));
  free(got);
  b.len = 0;
  hg_buf_puts(&b, "A0=docker\n");
  for (int i = 1; i <= 2000; i++)
    hg_buf_printf(&b, "A%d=$A%d\nA%d=\"$A%d\"\n", i, i - 1, i, i - 1);
  hg_buf_puts(&b, "$A2000 run x");
  got = alternatives_of(b.data);
  assert_non_null(strstr(got, "?budget"));
  free(got);
  hg_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shell__words),
      cmocka_unit_test(test_shell__hostile_values),
      cmocka_unit_test(test_shell__program_alternatives),
      cmocka_unit_test(test_shell__hostile_alternatives),
  };
  return cmocka_run_group_tests_name("shell", tests, NULL, NULL);
}
