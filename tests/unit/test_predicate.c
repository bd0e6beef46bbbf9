// Unit tests for predicate.c: compiling query predicates, evaluating them on real matches over
// parsed Python, #set! properties, the literals that feed the prefilter, and compile errors.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/predicate.h"
#include "rules/walk.h"
#include "surfaces/python/names.h"  // the Python surface answers the name predicates
#include "rules/ruleset.h"
#include "surfaces/python/row.h"
#include "surfaces/node.h"

typedef struct {
  TSParser *parser;
  hg_walker *cursor;
  pcre2_match_data *md;
  hg_arena *arena;
  hg_buf scratch;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof(*f));
  f->parser = ts_parser_new();
  if (!ts_parser_set_language(f->parser, tree_sitter_python())) return -1;
  f->cursor = hg_walker_new();
  f->md = pcre2_match_data_create(16, NULL);
  f->arena = hg_arena_new();
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  ts_parser_delete(f->parser);
  hg_walker_free(f->cursor);
  pcre2_match_data_free(f->md);
  hg_arena_free(f->arena);
  hg_buf_free(&f->scratch);
  free(f);
  return 0;
}

static hg_shapes *new_query(const char *text) {
  uint32_t off;
  char msg[192];
  hg_shapes *q = hg_shapes_compile(tree_sitter_python(), text, (uint32_t)strlen(text), &off, msg, sizeof(msg));
  if (!q) fail_msg("shape does not compile (%s at %u): %s", msg, off, text);
  return q;
}

// What the tests asked before a match is made (hg_predicates_may_hold) say of one match.
typedef struct {
  const hg_predicates *p;
  const TSQueryMatch *m;
  hg_predctx *ctx;
  TSNode root;
  bool holds;         // the match's predicates hold
  size_t *ruled_out;  // matches a test said no to
} node_tests;

static void ask_node_test(void *vctx, uint32_t i, uint32_t capture) {
  node_tests *t = vctx;
  TSNode node = t->root;  // a test of the file: of any node
  bool found = capture == UINT32_MAX;
  for (uint16_t k = 0; k < t->m->capture_count && !found; k++)
    if (t->m->captures[k].index == capture) node = t->m->captures[k].node, found = true;
  if (!found) return;  // an absent capture does not constrain the match
  bool may = hg_predicates_may_hold(t->p, i, node, t->ctx);
  if (t->holds && !may) fail_msg("node test %u says no to a match whose predicates hold", i);
  *t->ruled_out += !may;
}

// Runs the one-pattern `query` over `src` and joins, with '|', the text of capture @x of every
// match whose predicates hold. Returns the number of such matches. Every node test of the pattern
// is asked of every match too: none may say no to one whose predicates hold (*ruled_out counts
// those they say no to).
static size_t run_asking(fixture *f, const char *query, const char *src, const hg_imports *imports, char *out,
                         size_t cap, size_t *ruled_out) {
  hg_shapes *q = new_query(query);
  assert_int_equal(hg_shapes_count(q), 1);
  hg_predicates *p = NULL;
  hg_error err = {{0}};
  if (hg_predicates_compile(&p, q, 0, NULL, &err) != 0) fail_msg("%s", err.message);
  TSTree *tree = ts_parser_parse_string(f->parser, NULL, src, (uint32_t)strlen(src));
  hg_imports *none = hg_imports_new(f->arena, "");
  hg_python_model model = {.src = src, .imports = imports ? imports : none};
  hg_predctx ctx = {.src = src, .md = f->md, .names = &hg_python_names, .model = &model, .scratch = &f->scratch};
  uint32_t x = hg_shapes_capture_id(q, "x");
  hg_dispatch *d = hg_dispatch_new(q);
  hg_walker_exec(f->cursor, d, NULL, NULL, ts_tree_root_node(tree), NULL);
  TSQueryMatch m;
  size_t n = 0;
  out[0] = '\0';
  while (hg_walker_next_match(f->cursor, &m)) {
    bool holds = hg_predicates_eval(p, &m, &ctx);
    node_tests t = {p, &m, &ctx, ts_tree_root_node(tree), holds, ruled_out};
    hg_predicates_node_tests(p, ask_node_test, &t);
    if (!holds) continue;
    n++;
    for (uint16_t i = 0; i < m.capture_count; i++)
      if (m.captures[i].index == x) {
        uint32_t a = ts_node_start_byte(m.captures[i].node), b = ts_node_end_byte(m.captures[i].node);
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%.*s", used ? "|" : "", (int)(b - a), src + a);
      }
  }
  hg_tree_delete(tree);
  hg_predicates_free(p);
  hg_dispatch_free(d);
  hg_shapes_free(q);
  return n;
}

static size_t run(fixture *f, const char *query, const char *src, const hg_imports *imports, char *out, size_t cap) {
  size_t ruled_out = 0;
  return run_asking(f, query, src, imports, out, cap, &ruled_out);
}

typedef struct {
  const char *name, *query, *src;
  size_t matches;
  const char *texts;  // capture @x of each passing match, '|'-joined
} eval_case;

static void run_cases(fixture *f, const eval_case *cases, size_t n, const hg_imports *imports) {
  for (size_t i = 0; i < n; i++) {
    char out[512];
    size_t got = run(f, cases[i].query, cases[i].src, imports, out, sizeof(out));
    if (got != cases[i].matches || strcmp(out, cases[i].texts) != 0)
      print_error("case '%s': %zu matches [%s], expected %zu [%s]\n", cases[i].name, got, out, cases[i].matches,
                  cases[i].texts);
    assert_int_equal(got, cases[i].matches);
    assert_string_equal(out, cases[i].texts);
  }
}

#define RUN(f, t, im) run_cases((f), (t), sizeof(t) / sizeof((t)[0]), (im))

// 40 word characters and a character that makes ^(\w+\s?)*$ fail only after ~2^40 steps.
#define LIMIT "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"

static void test_predicate__text_predicates(void **state) {
  fixture *f = *state;
  static const eval_case cases[] = {
      {"eq string", "((identifier) @x (#eq? @x \"foo\"))", "foo = bar + foo2 + foo\n", 2, "foo|foo"},
      {"not-eq string", "((identifier) @x (#not-eq? @x \"foo\"))", "foo = bar + foo2 + foo\n", 2, "bar|foo2"},
      {"eq two captures", "((assignment left: (identifier) @x right: (identifier) @b) (#eq? @x @b))",
       "x = x\ny = z\n", 1, "x"},
      {"not-eq two captures", "((assignment left: (identifier) @x right: (identifier) @b) (#not-eq? @x @b))",
       "x = x\ny = z\n", 1, "y"},
      {"any-of", "((identifier) @x (#any-of? @x \"a\" \"c\"))", "a; b; c; ab\n", 2, "a|c"},
      {"contains", "((string (string_content) @x) (#contains? @x \"docker\"))", "'mydockerfile'; 'podman'; 'docker'\n",
       2, "mydockerfile|docker"},
      {"contains any", "((string (string_content) @x) (#contains? @x \"dock\" \"pod\"))", "'docker'; 'podman'; 'x'\n",
       2, "docker|podman"},
      {"match", "((identifier) @x (#match? @x \"^te?st_\"))", "test_a; tst_b; atest_c\n", 2, "test_a|tst_b"},
      {"not-match", "((identifier) @x (#not-match? @x \"^te?st_\"))", "test_a; tst_b; atest_c\n", 1, "atest_c"},
      {"match is searched within the node only", "((identifier) @x (#match? @x \"^b$\"))", "a; b; bb\n", 1, "b"},
      {"match in UTF-8 mode", "((string (string_content) @x) (#match? @x \"^.$\"))", "'\xc3\xa9'; 'ab'\n", 1,
       "\xc3\xa9"},
      {"all predicates must hold", "((identifier) @x (#match? @x \"^a\") (#not-eq? @x \"ab\"))", "a; ab; abc; b\n", 2,
       "a|abc"},
      // A regex that cannot be decided within pcre2's match limit (catastrophic backtracking on
      // hostile text) keeps the match either way: a site is never dropped for it.
      {"match limit keeps the match", "((string (string_content) @x) (#match? @x \"^(\\\\w+\\\\s?)*$\"))",
       "'" LIMIT "'; 'ab'; '!'\n", 2, LIMIT "|ab"},
      {"match limit keeps the match (not-match)",
       "((string (string_content) @x) (#not-match? @x \"^(\\\\w+\\\\s?)*$\"))", "'" LIMIT "'; 'ab'; '!'\n", 2,
       LIMIT "|!"},
      // A capture absent from the match (an optional one) does not constrain it.
      {"absent optional capture",
       "((call function: (identifier) @x arguments: (argument_list (string)? @s)) (#eq? @s \"'y'\"))",
       "f()\ng('y')\nh('z')\n", 2, "f|g"},
  };
  RUN(f, cases, NULL);
}

static void test_predicate__resolves_to_follows_imports(void **state) {
  fixture *f = *state;
  hg_imports *im = hg_imports_new(f->arena, "");
  hg_imports_add_import(im, "docker", "d");
  hg_imports_add_from(im, "docker", "from_env", "fe");
  hg_imports_add_from(im, "elsewhere", "from_env", "other_fe");
  static const eval_case cases[] = {
      {"resolves-to",
       "((call function: [(identifier) (attribute)] @x) (#resolves-to? @x \"docker.from_env\"))",
       "d.from_env()\ndocker.from_env()\nx.from_env()\nfe()\nother_fe()\nfrom_env()\n", 3,
       "d.from_env|docker.from_env|fe"},
      {"resolves-to several names",
       "((call function: [(identifier) (attribute)] @x) (#resolves-to? @x \"docker.from_env\" \"x.y\"))",
       "x.y()\nd.from_env()\nx.z()\n", 2, "x.y|d.from_env"},
      // A call or subscript is not a dotted name.
      {"resolves-to needs a dotted name", "((call function: (_) @x) (#resolves-to? @x \"docker.from_env\"))",
       "d().from_env()\nd[0].from_env()\n", 0, ""},
  };
  RUN(f, cases, im);
}

// #imports? / #not-imports?: the file imports one of the modules or a module inside it, in any form;
// #sdk?: the first module is the call's: its callee qualifies into it (through an import), or into
// none of the modules listed in a file importing the first alone.
static void test_predicate__imports_and_sdk(void **state) {
  fixture *f = *state;
  hg_imports *pod = hg_imports_new(f->arena, "");
  hg_imports_add_from(pod, "podman.domain", "containers", NULL);
  hg_imports_add_import(pod, "subprocess", NULL);
  hg_imports_add_from(pod, ".clients", "make_client", NULL);
  static const eval_case pod_cases[] = {
      {"imports? a submodule", "((call function: (identifier) @x) (#imports? \"podman\"))", "f()\n", 1, "f"},
      {"imports? no prefix match", "((call function: (identifier) @x) (#imports? \"pod\"))", "f()\n", 0, ""},
      {"imports? any of several", "((call function: (identifier) @x) (#imports? \"docker\" \"podman.domain\"))",
       "f()\n", 1, "f"},
      {"not-imports?", "((call function: (identifier) @x) (#not-imports? \"docker\" \"aiodocker\"))", "f()\n", 1, "f"},
      {"not-imports? of one imported", "((call function: (identifier) @x) (#not-imports? \"docker\" \"podman\"))",
       "f()\n", 0, ""},
      // a receiver that follows nowhere, in a module importing podman alone
      {"sdk? by the module's imports", "((call function: (attribute) @x) (#sdk? @x \"podman\" \"docker\"))",
       "c.containers.run()\n", 1, "c.containers.run"},
      {"sdk? another's first", "((call function: (attribute) @x) (#sdk? @x \"docker\" \"podman\"))",
       "c.containers.run()\n", 0, ""},
  };
  RUN(f, pod_cases, pod);
  hg_imports *both = hg_imports_new(f->arena, "");
  hg_imports_add_import(both, "docker", NULL);
  hg_imports_add_import(both, "podman", "pm");
  static const eval_case both_cases[] = {
      // the callee qualifies into podman (pm is podman) or docker; an unqualified one belongs to neither
      {"sdk? by the callee", "((call function: (attribute) @x) (#sdk? @x \"podman\" \"docker\"))",
       "pm.containers.run()\ndocker.containers.run()\nc.containers.run()\n", 1, "pm.containers.run"},
      {"sdk? docker's", "((call function: (attribute) @x) (#sdk? @x \"docker\" \"podman\"))",
       "pm.containers.run()\ndocker.containers.run()\n", 1, "docker.containers.run"},
  };
  RUN(f, both_cases, both);
  // #value-contains? without a resolver reads the expression's text.
  static const eval_case text_cases[] = {
      {"value-contains? on text", "((call arguments: (argument_list . (_) @x)) (#value-contains? @x \"/create\"))",
       "post('/containers/create')\npost(url)\npost(f'{b}/containers/create')\n", 2,
       "'/containers/create'|f'{b}/containers/create'"},
      // #mapping? without a resolver: a dict display (in parentheses too) is one; a name or a
      // call is not known to hold one (the resolver follows them: fixtures/python/sdk-lowlevel).
      {"mapping? on syntax", "((call arguments: (argument_list . (_) @x)) (#mapping? @x))",
       "f({'a': 1})\nf(({**b}))\nf(hc)\nf(dict(a=1))\nf([1])\n", 2, "{'a': 1}|({**b})"},
  };
  RUN(f, text_cases, NULL);
}

static void test_predicate__imports_names_modules(void **state) {
  fixture *f = *state;
  // Which import statements make a file import docker (or a submodule of it), in any form.
  static const struct {
    const char *module, *name, *alias; // name: NULL for `import module [as alias]`
    bool docker;
  } forms[] = {
      {"docker", NULL, NULL, true},
      {"docker", NULL, "d", true},
      {"docker.errors", NULL, NULL, true},
      {"docker", "APIClient", NULL, true},
      {"docker.api", "APIClient", "A", true},
      {"dockerfile_parse", NULL, NULL, false},
      {"mydocker", NULL, NULL, false},
      {"pkg.docker", NULL, NULL, false},
      {"os", "path", NULL, false},
  };
  for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
    hg_imports *im = hg_imports_new(f->arena, "");
    if (forms[i].name)
      hg_imports_add_from(im, forms[i].module, forms[i].name, forms[i].alias);
    else
      hg_imports_add_import(im, forms[i].module, forms[i].alias);
    char out[64];
    size_t yes = run(f, "((identifier) @x (#imports? \"docker\"))", "x\n", im, out, sizeof(out));
    size_t no = run(f, "((identifier) @x (#not-imports? \"docker\"))", "x\n", im, out, sizeof(out));
    size_t sub = run(f, "((identifier) @x (#imports? \"podman\" \"docker.api\"))", "x\n", im, out, sizeof(out));
    if (yes != forms[i].docker)
      print_error("form %zu: %s %s\n", i, forms[i].module, forms[i].name ? forms[i].name : "");
    assert_int_equal(yes, forms[i].docker);
    assert_int_equal(no, !forms[i].docker);
    // A dotted module: that package or below it, not its parent.
    assert_int_equal(sub, !strncmp(forms[i].module, "docker.api", 10));
  }
  // Nothing imported: #imports? fails and #not-imports? holds.
  char out[64];
  assert_int_equal(run(f, "((identifier) @x (#imports? \"docker\"))", "x\n", NULL, out, sizeof(out)), 0);
  assert_int_equal(run(f, "((identifier) @x (#not-imports? \"docker\"))", "x\n", NULL, out, sizeof(out)), 1);
  // Without a resolver (an import fact's predicates) nothing is known to be defined in the project.
  static const eval_case cases[] = {
      {"defined-in-project without a resolver", "((call function: (_) @x) (#defined-in-project? @x))",
       "def f():\n    pass\nf()\n", 0, ""},
      {"not-defined-in-project without a resolver", "((call function: (_) @x) (#not-defined-in-project? @x))",
       "def f():\n    pass\nf()\n", 1, "f"},
  };
  RUN(f, cases, NULL);
}

static hg_predicates *compile_one(const char *query, hg_shapes **q_out, hg_error *err, int *rc) {
  hg_shapes *q = new_query(query);
  hg_predicates *p = (hg_predicates *)(uintptr_t)1;
  *rc = hg_predicates_compile(&p, q, 0, NULL, err);
  *q_out = q;
  return p;
}

static void test_predicate__properties(void **state) {
  (void)state;
  hg_shapes *q;
  hg_error err = {{0}};
  int rc;
  hg_predicates *p = compile_one("((call) @site (#set! hardguard.reads \"kwargs\") (#set! other \"x\"))", &q, &err, &rc);
  assert_int_equal(rc, 0);
  assert_non_null(p);
  assert_string_equal(hg_predicates_property(p, "hardguard.reads"), "kwargs");
  assert_string_equal(hg_predicates_property(p, "other"), "x");
  assert_null(hg_predicates_property(p, "hardguard.fact"));
  hg_predicates_free(p);
  hg_shapes_free(q);

  // No predicates at all: NULL, which always holds and has no properties.
  p = compile_one("((call) @site)", &q, &err, &rc);
  assert_int_equal(rc, 0);
  assert_null(p);
  assert_null(hg_predicates_property(NULL, "hardguard.reads"));
  assert_true(hg_predicates_eval(NULL, NULL, NULL));
  hg_shapes_free(q);
}

typedef struct {
  char text[32];
  unsigned group;
  bool whole;
} lit;

typedef struct {
  lit items[16];
  size_t n;
} lits;

static void collect(void *ctx, unsigned group, const char *text, bool whole) {
  lits *l = ctx;
  assert_true(l->n < 16);
  snprintf(l->items[l->n].text, sizeof(l->items[l->n].text), "%s", text);
  l->items[l->n].group = group;
  l->items[l->n].whole = whole;
  l->n++;
}

static void test_predicate__literals_for_the_prefilter(void **state) {
  (void)state;
  hg_shapes *q;
  hg_error err = {{0}};
  int rc;
  hg_predicates *p =
      compile_one("((identifier) @x @y (#eq? @x \"foo\") (#any-of? @x \"a\" \"bb\") (#contains? @x \"cc\")"
                  " (#match? @x \"zz\") (#eq? @x @y) (#not-eq? @x \"no\") (#resolves-to? @x \"m.n.last\" \"top\")"
                  " (#imports? \"docker\") (#not-imports? \"x\") (#defined-in-project? @x)"
                  " (#set! k \"v\"))",
                  &q, &err, &rc);
  if (rc != 0) print_error("%s\n", err.message);
  assert_int_equal(rc, 0);
  lits l = {0};
  hg_predicates_literals(p, collect, &l);
  // #match?, #not-eq?, a capture #eq?, #set!, #imports? (a relative import need not spell the
  // package) and #defined-in-project? give no literal; #resolves-to? gives the last component.
  static const struct {
    const char *text;
    bool whole;
  } want[] = {{"foo", true}, {"a", true}, {"bb", true}, {"cc", false}, {"last", true}, {"top", true}};
  assert_int_equal(l.n, 6);
  for (size_t i = 0; i < 6; i++) {
    assert_string_equal(l.items[i].text, want[i].text);
    assert_int_equal(l.items[i].whole, want[i].whole);
  }
  // Alternatives of one predicate share a group; different predicates do not.
  assert_int_equal(l.items[1].group, l.items[2].group);
  assert_int_equal(l.items[4].group, l.items[5].group);
  assert_int_not_equal(l.items[0].group, l.items[1].group);
  assert_int_not_equal(l.items[2].group, l.items[3].group);
  assert_int_not_equal(l.items[3].group, l.items[4].group);
  hg_predicates_free(p);
  hg_shapes_free(q);

  // A capture that a match may lack (optional, quantified, or in one alternative only) gives no
  // literal: a file without it can still match.
  p = compile_one("((call function: (identifier) @f arguments: (argument_list (string)? @opt (identifier)* @many"
                  " [(integer) @alt (float)] (comment)+ @some)) (#eq? @opt \"o\") (#eq? @many \"m\")"
                  " (#eq? @alt \"a\") (#eq? @some \"s\") (#eq? @f \"f\"))",
                  &q, &err, &rc);
  if (rc != 0) print_error("%s\n", err.message);
  assert_int_equal(rc, 0);
  l.n = 0;
  hg_predicates_literals(p, collect, &l);
  assert_int_equal(l.n, 2);
  assert_string_equal(l.items[0].text, "s");
  assert_string_equal(l.items[1].text, "f");
  hg_predicates_free(p);
  hg_shapes_free(q);

  // #imports?, #not-imports? and #sdk? give no literal (a relative import need not spell the
  // package); #value-contains? gives its strings, inside words.
  p = compile_one("((call function: (_) @f arguments: (argument_list . (_) @u)) (#imports? \"python_on_whales.x\")"
                  " (#not-imports? \"docker\") (#sdk? @f \"podman\" \"docker\") (#value-contains? @u \"a/b\"))",
                  &q, &err, &rc);
  if (rc != 0) print_error("%s\n", err.message);
  assert_int_equal(rc, 0);
  l.n = 0;
  hg_predicates_literals(p, collect, &l);
  assert_int_equal(l.n, 1);
  assert_string_equal(l.items[0].text, "a/b");
  assert_false(l.items[0].whole);
  hg_predicates_free(p);
  hg_shapes_free(q);

  l.n = 0;
  hg_predicates_literals(NULL, collect, &l);
  assert_int_equal(l.n, 0);
}

static void test_predicate__compile_errors(void **state) {
  (void)state;
  static const struct {
    const char *query, *message;  // message: the error's beginning
  } cases[] = {
      {"((call) @x (#frob? @x \"a\"))", "unknown predicate #frob? (known: "},
      {"((call) @x (#eq? @x))", "#eq? needs a capture and an argument"},
      {"((call) @x (#eq? \"a\" @x))", "#eq? needs a capture and an argument"},
      {"((call) @x (#eq? @x \"a\" \"b\"))", "#eq? takes exactly two arguments"},
      {"((call) @x (#not-eq? @x \"a\" \"b\"))", "#not-eq? takes exactly two arguments"},
      {"((call) @x @y (#any-of? @x \"a\" @y))", "#any-of?: argument 3 must be a string"},
      {"((call) @x (#match? @x \"(\"))", "#match?: invalid regex \"(\" at offset 1: "},
      {"((call) @x (#not-match? @x \"[a\"))", "#not-match?: invalid regex \"[a\""},
      {"((call) @x (#match? @x \"a\" \"b\"))", "#match? takes one regex"},
      {"((call) @x (#set! key))", "#set! takes a key and a value"},
      {"((call) @x (#set! key \"v\" \"w\"))", "#set! takes a key and a value"},
      {"((call) @x (#resolves-to? @x))", "#resolves-to? needs a capture and an argument"},
      {"((call) @x (#imports?))", "#imports? needs a string"},
      {"((call) @x (#not-imports? @x))", "#not-imports?: argument 1 must be a string"},
      {"((call) @x (#sdk? @x))", "#sdk? needs a capture and an argument"},
      {"((call) @x (#defined-in-project? @x \"a\"))", "#defined-in-project? takes one capture"},
      {"((call) @x (#not-defined-in-project? \"a\"))", "#not-defined-in-project? takes one capture"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    hg_shapes *q;
    hg_error err = {{0}};
    int rc;
    hg_predicates *p = compile_one(cases[i].query, &q, &err, &rc);
    if (rc == 0 || strncmp(err.message, cases[i].message, strlen(cases[i].message)) != 0)
      print_error("%s: rc %d, \"%s\", expected \"%s...\"\n", cases[i].query, rc, err.message, cases[i].message);
    assert_int_equal(rc, -1);
    assert_null(p);
    assert_int_equal(strncmp(err.message, cases[i].message, strlen(cases[i].message)), 0);
    hg_shapes_free(q);
  }
}

static void record_test(void *ctx, uint32_t i, uint32_t capture) {
  char *out = ctx;
  if (capture == UINT32_MAX)
    snprintf(out + strlen(out), 64 - strlen(out), "%u@- ", i);
  else
    snprintf(out + strlen(out), 64 - strlen(out), "%u@%u ", i, capture);
}

// The predicates decided on one node before a match is made (the walk's gate): which they are,
// what they say, and which are the same test.
static void test_predicate__node_tests(void **state) {
  fixture *f = *state;
#define FIRST                                                                                              \
  "((call function: (_) @x arguments: (argument_list) @a)"                                                 \
  " (#resolves-to-suffix? @x \"containers.run\") (#contains? @a \"docker\") (#match? @a \"x\")"              \
  " (#file-contains? \"docker\") (#sdk? @x \"docker\") (#eq? @x @a) (#not-eq? @x \"f\") (#any-of? @x \"g\"))"
  const char *query = FIRST "((call function: (_) @y arguments: (argument_list) @b)"
                            " (#resolves-to-suffix? @y \"containers.run\") (#contains? @b \"docker\" \"podman\")"
                            " (#eq? @y \"f\"))";
  hg_shapes *q = new_query(query);
  hg_predicates *p = NULL, *p2 = NULL;
  hg_error err = {{0}};
  assert_int_equal(hg_predicates_compile(&p, q, 0, NULL, &err), 0);
  assert_int_equal(hg_predicates_compile(&p2, q, 1, NULL, &err), 0);
  char tests[64] = "";
  hg_predicates_node_tests(p, record_test, tests);
  // #resolves-to-suffix? @x, #contains? @a, #file-contains?, #not-eq? @x, #any-of? @x; not #match?,
  // #sdk? (it reads the file's imports) or #eq? of two captures.
  char want[64];
  snprintf(want, sizeof(want), "0@%u 1@%u 3@- 6@%u 7@%u ", hg_shapes_capture_id(q, "x"), hg_shapes_capture_id(q, "a"),
           hg_shapes_capture_id(q, "x"), hg_shapes_capture_id(q, "x"));
  assert_string_equal(tests, want);
  assert_true(hg_predicates_same_test(p, 0, p2, 0));    // the same names, other captures
  assert_false(hg_predicates_same_test(p, 1, p2, 1));   // other strings
  assert_false(hg_predicates_same_test(p, 6, p2, 2));   // #not-eq? and #eq?
  assert_true(hg_predicates_same_test(p, 3, p, 3));
  // What they say of nodes, before any import is known.
  const char *src = "client.containers.run(1)\nclient.containers.list('docker')\nrun(2)\nmake()(3)\nf(4)\n";
  TSTree *tree = ts_parser_parse_string(f->parser, NULL, src, (uint32_t)strlen(src));
  hg_imports *none = hg_imports_new(f->arena, "");
  hg_python_model model = {.src = src, .imports = none};
  hg_predctx ctx = {.src = src, .md = f->md, .names = &hg_python_names, .model = &model, .scratch = &f->scratch};
  TSNode root = ts_tree_root_node(tree);
  static const struct {
    uint32_t test;
    unsigned call;     // the call's line, from 0
    bool callee;       // of its callee, else of its arguments
    bool may;
  } cases[] = {
      {0, 0, true, true},    // an attribute ending in run
      {0, 1, true, false},   // ... in list: whatever the names, never containers.run
      {0, 2, true, true},    // a bare name: an import or an assignment may bind it
      {0, 3, true, true},    // a call: it may stand for anything
      {1, 0, false, false},  // (1) holds no "docker"
      {1, 1, false, true},
      {3, 0, true, true},    // the file holds "docker"
      {6, 4, true, false},   // f is f
      {6, 2, true, true},
      {7, 4, true, false},   // f is not g
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    TSNode call = ts_node_named_child(ts_node_named_child(root, cases[i].call), 0);
    TSNode node = ts_node_child_by_field_name(call, cases[i].callee ? "function" : "arguments",
                                              cases[i].callee ? 8 : 9);
    if (hg_predicates_may_hold(p, cases[i].test, node, &ctx) != cases[i].may)
      fail_msg("case %zu: test %u of line %u says %d", i, cases[i].test, cases[i].call, !cases[i].may);
  }
  // A file without the string: #file-contains? says no, of any node.
  const char *other = "x = 1\n";
  hg_predctx octx = {.src = other, .md = f->md, .names = &hg_python_names, .model = &model, .scratch = &f->scratch};
  assert_false(hg_predicates_may_hold(p, 3, root, &octx));
  hg_tree_delete(tree);
  hg_predicates_free(p);
  hg_predicates_free(p2);
  hg_shapes_free(q);
  // Over real matches, the tests say no to some that do not hold and to none that do.
  size_t ruled_out = 0;
  char out[256];
  assert_int_equal(run_asking(f, FIRST, src, none, out, sizeof(out), &ruled_out), 0);
#undef FIRST
  assert_true(ruled_out >= 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_predicate__text_predicates, setup, teardown),
      cmocka_unit_test_setup_teardown(test_predicate__imports_and_sdk, setup, teardown),
      cmocka_unit_test_setup_teardown(test_predicate__resolves_to_follows_imports, setup, teardown),
      cmocka_unit_test_setup_teardown(test_predicate__imports_names_modules, setup, teardown),
      cmocka_unit_test_setup_teardown(test_predicate__node_tests, setup, teardown),
      cmocka_unit_test(test_predicate__properties),
      cmocka_unit_test(test_predicate__literals_for_the_prefilter),
      cmocka_unit_test(test_predicate__compile_errors),
  };
  return cmocka_run_group_tests_name("predicate", tests, NULL, NULL);
}
