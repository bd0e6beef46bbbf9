// Unit tests for yamlflat.c: the built-in policy's document as hg_rulegen wrote it into the binary's
// seed (rules_seed.c, included here as the binary links it) builds the very document libyaml loads
// from policy.yml: the same nodes in the same order, with their tags, styles, values, items, pairs
// and places; and the seed is the one of these rules.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/rules_embedded.h"
#include "base/yamlflat.h"
#include "rules/ruleset.h"
#include "rules_seed.c"

static void same_mark(yaml_mark_t a, yaml_mark_t b) {
  assert_int_equal(a.index, b.index);
  assert_int_equal(a.line, b.line);
  assert_int_equal(a.column, b.column);
}

static void test_seeded_policy_is_the_parsed_one(void **state) {
  (void)state;
  assert_int_equal(hg_rules_seed.hash, hg_ruleset_builtin_hash());
  const hg_embedded_file *f = hg_embedded_rules;
  while (f->path && strcmp(f->path, "policy.yml") != 0) f++;
  assert_non_null(f->path);
  hg_yaml parsed, built;
  hg_error err;
  assert_int_equal(hg_yaml_load(&parsed, f->path, f->data, f->len, &err), 0);
  assert_int_equal(hg_yaml_from_flat(&built, f->path, &hg_rules_seed.policy, &err), 0);
  size_t n = (size_t)(parsed.doc.nodes.top - parsed.doc.nodes.start);
  assert_true(n > 100);
  assert_int_equal(n, (size_t)(built.doc.nodes.top - built.doc.nodes.start));
  for (size_t i = 0; i < n; i++) {
    const yaml_node_t *a = &parsed.doc.nodes.start[i], *b = &built.doc.nodes.start[i];
    assert_int_equal(a->type, b->type);
    assert_string_equal((const char *)a->tag, (const char *)b->tag);
    same_mark(a->start_mark, b->start_mark);
    same_mark(a->end_mark, b->end_mark);
    if (a->type == YAML_SCALAR_NODE) {
      assert_int_equal(a->data.scalar.length, b->data.scalar.length);
      assert_memory_equal(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length);
      assert_int_equal(a->data.scalar.style, b->data.scalar.style);
    } else if (a->type == YAML_SEQUENCE_NODE) {
      size_t k = (size_t)(a->data.sequence.items.top - a->data.sequence.items.start);
      assert_int_equal(k, (size_t)(b->data.sequence.items.top - b->data.sequence.items.start));
      for (size_t j = 0; j < k; j++) assert_int_equal(a->data.sequence.items.start[j], b->data.sequence.items.start[j]);
      assert_int_equal(a->data.sequence.style, b->data.sequence.style);
    } else {
      size_t k = (size_t)(a->data.mapping.pairs.top - a->data.mapping.pairs.start);
      assert_int_equal(k, (size_t)(b->data.mapping.pairs.top - b->data.mapping.pairs.start));
      for (size_t j = 0; j < k; j++) {
        assert_int_equal(a->data.mapping.pairs.start[j].key, b->data.mapping.pairs.start[j].key);
        assert_int_equal(a->data.mapping.pairs.start[j].value, b->data.mapping.pairs.start[j].value);
      }
      assert_int_equal(a->data.mapping.style, b->data.mapping.style);
    }
  }
  hg_yaml_free(&parsed);
  hg_yaml_free(&built);
}

// A flat document whose item names a node that does not exist is refused, not built.
static void test_a_broken_flat_document_is_refused(void **state) {
  (void)state;
  static const int ids[] = {7};
  static const hg_yaml_flat_node nodes[] = {{YAML_SEQUENCE_NODE, YAML_BLOCK_SEQUENCE_STYLE, "tag:yaml.org,2002:seq", 0, 0, 0, 1, {0, 0, 0}, {0, 0, 0}}};
  hg_yaml y;
  hg_error err;
  hg_yaml_flat flat = {nodes, 1, ids};
  assert_int_equal(hg_yaml_from_flat(&y, "x.yml", &flat, &err), -1);
  assert_non_null(strstr(err.message, "x.yml: an item of node 1"));
  hg_yaml_free(&y);
  // ... and so is a mapping whose pair names one.
  static const int pair[] = {1, 2};
  static const hg_yaml_flat_node map[] = {{YAML_MAPPING_NODE, YAML_BLOCK_MAPPING_STYLE, "tag:yaml.org,2002:map", 0, 0, 0, 1, {0, 0, 0}, {0, 0, 0}}};
  flat = (hg_yaml_flat){map, 1, pair};
  assert_int_equal(hg_yaml_from_flat(&y, "y.yml", &flat, &err), -1);
  assert_non_null(strstr(err.message, "y.yml: an item of node 1"));
  hg_yaml_free(&y);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seeded_policy_is_the_parsed_one),
      cmocka_unit_test(test_a_broken_flat_document_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
