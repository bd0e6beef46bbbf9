// Unit tests for fix/plan.c: where a new import goes (after the module docstring and `from
// __future__`, after the import block, before the first site), the form it takes, and the edits
// for a keyword call and an argv list, read from real tree-sitter-python trees.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "surfaces/python/fix.h"
#include "surfaces/python/offers.h"
#include "surfaces/shell/fix.h"
#include "helpers.h"
#include "rules/ruleset.h"
#include "surfaces/python/row.h"
#include "surfaces/shell/row.h"
#include "surfaces/node.h"

typedef struct {
  TSParser *parser;
  TSTree *tree;
  hg_fix_text t;
} parsed;

static void parse(parsed *p, const char *src) {
  p->parser = ts_parser_new();
  assert_true(ts_parser_set_language(p->parser, tree_sitter_python()));
  p->tree = ts_parser_parse_string(p->parser, NULL, src, (uint32_t)strlen(src));
  p->t = (hg_fix_text){.src = src, .len = strlen(src), .root = ts_tree_root_node(p->tree), .eol = "\n"};
}

static void unparse(parsed *p) {
  hg_tree_delete(p->tree);
  ts_parser_delete(p->parser);
}

// The text with the edits applied.
static char *applied(const parsed *p, hg_edits *e) {
  hg_buf out = {0};
  hg_buf_puts(&out, "");
  assert_int_equal(hg_edits_apply(e, p->t.src, p->t.len, &out), 0);
  return hg_buf_detach(&out);
}

typedef struct {
  const char *name;
  const char *src;  // "@" marks the first site (removed before parsing)
  const char *want; // the text after adding `from b import k`
} import_case;

static void test_plan__import_point(void **state) {
  (void)state;
  static const import_case cases[] = {
      {"after the import block", "import os\nimport docker\n\nx = 1\n@run()\n",
       "import os\nimport docker\nfrom b import k\n\nx = 1\nrun()\n"},
      {"after the docstring and __future__", "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\n@run()\n",
       "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nfrom b import k\n\nrun()\n"},
      {"after the docstring alone", "\"\"\"Doc.\n\nmore\"\"\"\n\n@run()\n",
       "\"\"\"Doc.\n\nmore\"\"\"\nfrom b import k\n\nrun()\n"},
      {"after leading comments, before the first statement", "#!/usr/bin/env python3\n# c\n\n@run()\n",
       "#!/usr/bin/env python3\n# c\n\nfrom b import k\nrun()\n"},
      {"not after an import below the site", "import os\n@run()\nimport late\n",
       "import os\nfrom b import k\nrun()\nimport late\n"},
      {"a file without a final newline", "import os", "import os\nfrom b import k\n"},
      {"joins the from-import of the module", "from b import j\n@run()\n", "from b import j, k\nrun()\n"},
      {"a parenthesized from-import", "from b import (\n    j,\n)\n@run()\n", "from b import (\n    j, k,\n)\nrun()\n"},
      {"already imported: nothing", "from b import k\n@run()\n", "from b import k\nrun()\n"},
      {"a wildcard import: nothing", "from b import *\n@run()\n", "from b import *\nrun()\n"},
      {"the module imported itself: nothing (called through it)", "import b\n@run()\n", "import b\nrun()\n"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const import_case *c = &cases[i];
    const char *at = strchr(c->src, '@');
    char *src = hg_xstrdup(c->src);
    uint32_t before = at ? (uint32_t)(at - c->src) : (uint32_t)strlen(src);
    if (at)
      memmove(src + before, src + before + 1, strlen(src + before));
    parsed p;
    parse(&p, src);
    hg_edits e = {0};
    char *name = "k", *call = NULL;
    hg_fix_plan_import(&p.t, "b", &name, 1, before, &e, &call);
    char *got = applied(&p, &e);
    if (strcmp(got, c->want))
      fail_msg("case '%s': got\n%s", c->name, got);
    free(got);
    free(call);
    hg_edits_free(&e);
    unparse(&p);
    free(src);
  }
}

static void test_plan__import_call_names(void **state) {
  (void)state;
  parsed p;
  parse(&p, "import b as bb\nfrom c import k as kk\n");
  hg_edits e = {0};
  char *name = "k", *call = NULL;
  hg_fix_plan_import(&p.t, "b", &name, 1, (uint32_t)p.t.len, &e, &call);
  assert_string_equal(call, "bb.k"); // through the module's alias
  assert_int_equal(e.len, 0);
  free(call);
  hg_fix_plan_import(&p.t, "c", &name, 1, (uint32_t)p.t.len, &e, &call);
  assert_string_equal(call, "kk"); // its local name
  assert_int_equal(e.len, 0);
  free(call);
  hg_edits_free(&e);
  unparse(&p);
}

// Case i planned with `rc`: the text as `want` says (NULL: not fixable). Frees what it was given.
static void expect_plan(size_t i, int rc, const char *want, parsed *p, hg_edits *e, hg_buf *why) {
  if (!want) {
    if (rc != -1)
      fail_msg("case %zu: fixed", i);
  } else {
    char *got = rc == 0 ? applied(p, e) : hg_xstrdup(why->data);
    if (strcmp(got, want))
      fail_msg("case %zu: got\n%s", i, got);
    free(got);
  }
  hg_buf_free(why);
  hg_edits_free(e);
  unparse(p);
}

// The site node of the first call / list in `src`.
static TSNode first_of(const parsed *p, const char *type) {
  const char *at = strstr(p->t.src, type[0] == 'l' ? "[" : "run(");
  TSNode n;
  uint32_t start = (uint32_t)(at - p->t.src);
  TSNode leaf = ts_node_descendant_for_byte_range(p->t.root, start, start);
  while (!ts_node_is_null(leaf) && strcmp(ts_node_type(leaf), type))
    leaf = ts_node_parent(leaf);
  assert_int_equal(hg_fix_site(&p->t, ts_node_start_byte(leaf), ts_node_end_byte(leaf), &n),
                   type[0] == 'l' ? HG_FIX_SITE_ARGV : HG_FIX_SITE_KWARGS);
  return n;
}

static void test_plan__kwargs(void **state) {
  (void)state;
  static char *const yields[] = {"network_mode", "mem_limit"};
  static const struct {
    const char *src, *want, *note;
  } cases[] = {
      {"run(i, detach=True)\n", "run(i, detach=True, **h())\n", ""},
      {"run(i, network_mode=\"x\", d=1)\n", "run(i, d=1, **h())\n", "replaced `network_mode=\"x\"`"},
      {"run(i, mem_limit=1, network_mode=2)\n", "run(i, **h())\n", "replaced `mem_limit=1`, `network_mode=2`"},
      {"run()\n", "run(**h())\n", ""},
      {"run(\n    i,\n    mem_limit=1,\n    d=2,\n)\n", "run(\n    i,\n    d=2,\n    **h(),\n)\n",
       "replaced `mem_limit=1`"},
      {"run(\n    i,\n    d=2\n)\n", "run(\n    i,\n    d=2,\n    **h()\n)\n", ""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    parsed p;
    parse(&p, cases[i].src);
    hg_edits e = {0};
    hg_buf note = {0}, why = {0};
    hg_buf_puts(&note, "");
    assert_int_equal(hg_fix_plan_kwargs(&p.t, first_of(&p, "call"), "h()", yields, 2, NULL, &e, &note, &why), 0);
    char *got = applied(&p, &e);
    if (strcmp(got, cases[i].want) || strcmp(note.data, cases[i].note))
      fail_msg("case %zu: got\n%s(note '%s')", i, got, note.data);
    free(got);
    hg_buf_free(&note);
    hg_buf_free(&why);
    hg_edits_free(&e);
    unparse(&p);
  }
  // What the builder yields unknown: a call passing an option the policy reads is not fixed.
  static const char *const names[] = {"read_only", NULL};
  parsed p;
  parse(&p, "run(i, read_only=False)\n");
  hg_edits e = {0};
  hg_buf note = {0}, why = {0};
  assert_int_equal(hg_fix_plan_kwargs(&p.t, first_of(&p, "call"), "h()", NULL, 0, names, &e, &note, &why), -1);
  assert_non_null(strstr(why.data, "cannot tell which keywords h() yields"));
  hg_buf_free(&why);
  hg_edits_free(&e);
  unparse(&p);
}

static void test_plan__argv(void **state) {
  hg_policy *policy = *state;
  static const struct {
    const char *src, *want; // want NULL: not fixable
  } cases[] = {
      {"x = [\"docker\", \"run\", \"--rm\", \"-e\", \"A=1\", img, \"--read-only\"]\n",
       "x = [\"docker\", \"run\", \"--rm\", \"-e\", \"A=1\", *h(), img, \"--read-only\"]\n"},
      {"x = [\"docker\", \"-H\", \"h\", \"container\", \"run\", \"-m512m\", \"-it\", \"alpine\"]\n",
       "x = [\"docker\", \"-H\", \"h\", \"container\", \"run\", \"-m512m\", \"-it\", *h(), \"alpine\"]\n"},
      {"x = [\"docker\", \"run\", \"--\", \"alpine\"]\n", "x = [\"docker\", \"run\", \"--\", *h(), \"alpine\"]\n"},
      {"x = [\"docker\", \"run\", *opts, img]\n", NULL},
      {"x = [\"docker\", \"run\", \"--rm\"]\n", NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    parsed p;
    parse(&p, cases[i].src);
    hg_edits e = {0};
    hg_buf why = {0};
    int rc = hg_fix_plan_argv(&p.t, first_of(&p, "list"), "h()", policy, &e, &why);
    expect_plan(i, rc, cases[i].want, &p, &e, &why);
  }
}

// What a builder yields, as the value model reads it, gives the keywords --fix would pass twice:
// the keys of its dict, of the dicts and builders spread into it, and of every alternative.
static void test_plan__builder_keywords(void **state) {
  (void)state;
  hg_value net = {.kind = HG_VAL_STR, .key = "network_mode", .text = "\"none\""};
  hg_value cap = {.kind = HG_VAL_LIST, .key = "cap_drop"};
  hg_value base_items[] = {{.kind = HG_VAL_STR, .key = "read_only", .text = "True"}, cap};
  hg_value base = {.kind = HG_VAL_DICT, .items = base_items, .n_items = 2};
  hg_value baseline = {.kind = HG_VAL_BUILDER, .text = "baseline()", .items = &base, .n_items = 1};
  baseline.splat = true;
  hg_value arm_items[] = {{.kind = HG_VAL_STR, .key = "pids_limit", .text = "64"}};
  hg_value arms[] = {{.kind = HG_VAL_DICT, .items = arm_items, .n_items = 1}, {.kind = HG_VAL_DICT}};
  hg_value alt = {.kind = HG_VAL_ALT, .items = arms, .n_items = 2, .splat = true};
  hg_value items[] = {baseline, net, alt, {.kind = HG_VAL_STR, .key = "read_only", .text = "True"}};
  hg_value dict = {.kind = HG_VAL_DICT, .items = items, .n_items = 4};
  hg_value builder = {.kind = HG_VAL_BUILDER, .text = "hardening()", .items = &dict, .n_items = 1};
  char **keys;
  size_t n;
  assert_true(hg_python_builder_keys(&builder, &keys, &n));
  assert_int_equal(n, 4); // read_only once
  assert_string_equal(keys[0], "read_only");
  assert_string_equal(keys[1], "cap_drop");
  assert_string_equal(keys[2], "network_mode");
  assert_string_equal(keys[3], "pids_limit");
  hg_strv_free(keys, n);
  hg_value unknown = {.kind = HG_VAL_UNKNOWN, .text = "BASE", .splat = true};
  items[2] = unknown; // {**BASE}: which keys cannot be told
  assert_false(hg_python_builder_keys(&builder, &keys, &n));
  assert_null(keys);
  hg_value trusted = {.kind = HG_VAL_BUILDER, .text = "vendor()"};
  assert_false(hg_python_builder_keys(&trusted, &keys, &n)); // taken at its word: nothing read
}

static void test_plan__shell_command(void **state) {
  hg_policy *policy = *state;
  int cli = hg_policy_dialect(policy, "cli");
  static const char *const missing[] = {"cap-drop-all", "memory-limit"};
  char *flags = hg_fix_shell_flags(policy, cli, missing, 2);
  assert_string_equal(flags, "--cap-drop ALL --memory 512m");
  static const struct {
    const char *src, *want; // want NULL: not fixable
  } cases[] = {
      {"sudo docker run --rm -e 'A=1' \"$IMG\" sh\n", "sudo docker run --rm -e 'A=1' F \"$IMG\" sh\n"},
      {"docker run -it \\\n  -v /a:/b \\\n  alpine \\\n  true\n",
       "docker run -it \\\n  -v /a:/b \\\n  F \\\n  alpine \\\n  true\n"},
      {"docker run \"$@\" alpine\n", NULL},
      {"docker run $FLAGS alpine\n", NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const char *src = cases[i].src;
    TSParser *parser = ts_parser_new();
    assert_true(ts_parser_set_language(parser, tree_sitter_bash()));
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
    parsed p = {.parser = parser,
                .tree = tree,
                .t = {.src = src, .len = strlen(src), .root = ts_tree_root_node(tree), .eol = "\n"}};
    uint32_t end = (uint32_t)(strrchr(src, '\n') - src);
    TSNode command = hg_fix_shell_command(&p.t, 0, end);
    assert_false(ts_node_is_null(command));
    hg_edits e = {0};
    hg_buf why = {0};
    int rc = hg_fix_plan_command(&p.t, command, "F", policy, &e, &why);
    expect_plan(i, rc, cases[i].want, &p, &e, &why);
  }
  free(flags);
}

static int setup(void **state) {
  *state = hg_test_policy();
  return *state ? 0 : -1;
}

static int teardown(void **state) {
  hg_policy_free(*state);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan__import_point),
      cmocka_unit_test(test_plan__import_call_names),
      cmocka_unit_test(test_plan__kwargs),
      cmocka_unit_test_setup_teardown(test_plan__argv, setup, teardown),
      cmocka_unit_test(test_plan__builder_keywords),
      cmocka_unit_test_setup_teardown(test_plan__shell_command, setup, teardown),
  };
  return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
