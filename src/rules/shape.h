/* Site shapes: the rules' .scm patterns compiled by hardguard itself, not by libtree-sitter's query
 * engine (whose compile and matching were most of a run's time: issue 29). The language is the
 * subset of tree-sitter's query syntax the rules use; anything else is refused when the rules
 * load, with file:line:col (docs/rules.md, "Writing a shape"):
 *
 *   (type child ...)      a named node of that type; `(_ child ...)` any named node but ERROR
 *   field: item           the child stands in that field
 *   [item item ...]       one of the alternatives
 *   . item                anchored: no named sibling (comments included) stands between it and
 *                         the item before it (or, first, the start of the parent's children)
 *   item .                (last) no named sibling follows it
 *   item? item* item+     optional / repeated (a repeat after its first is anchored to the one
 *                         before)
 *   item @name ...        captures
 *   (#pred? @c "s" id)    predicates and #set! directives, inside the pattern's parentheses
 *
 * Refused: anonymous nodes ("string", `_` without parentheses), negated fields (!field), a
 * supertype (a/b), ERROR and MISSING, sibling groups below the top, a quantifier right after
 * another, a capture a predicate names that its pattern does not hold.
 *
 * A match is a TSQueryMatch (the public struct of tree-sitter's API, so that predicates and
 * surfaces read matches as before): the pattern's index and its captures. Every way the children
 * can be assigned to a pattern's items is a match; a match whose captures another match of the same
 * pattern at the same node holds too is dropped (as libtree-sitter keeps the longest match: an
 * optional capture is kept when it can be made, a repeated one as long as it runs). */
#ifndef HG_SHAPE_H
#define HG_SHAPE_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "base/util.h"

enum { HG_SHAPE_MAX_CAPTURES = 4 };  // on one item

typedef enum { HG_ITEM_NODE, HG_ITEM_WILDCARD, HG_ITEM_ALT } hg_item_kind;
typedef enum { HG_QUANT_ONE, HG_QUANT_OPT, HG_QUANT_STAR, HG_QUANT_PLUS } hg_quant;

/** One item of a pattern: a node (typed or wildcard) with its child items, or alternatives. */
typedef struct {
  uint8_t kind;       // hg_item_kind
  uint8_t quant;      // hg_quant
  bool immediate;     // anchored to the item before it
  bool last;          // anchored at the end: no named sibling follows it
  TSSymbol symbol;    // HG_ITEM_NODE
  TSFieldId field;    // 0: any
  uint8_t n_captures;
  uint16_t captures[HG_SHAPE_MAX_CAPTURES];
  uint32_t first, n;  // child items (a node) or branches (alternatives), in hg_shapes.items
  bool has_captures;  // it, or an item below it, captures
} hg_item;

typedef struct {
  uint32_t root;   // its item
  uint32_t start;  // the byte of the source it starts at
  uint32_t first_step, n_steps;  // its predicates, in hg_shapes.steps (TSQueryPredicateStepTypeDone ends each)
} hg_shape_pattern;

typedef struct hg_shapes hg_shapes;

/** An empty set of shapes for `language`; hg_shapes_add adds a text's patterns (one rule file:
 *  no pattern runs on into the next), numbering them after those before. `base`: where the text
 *  stands in the combined text pattern offsets and errors are counted in. 0, or -1 with
 *  *error_offset the byte at fault and msg what was expected there (the patterns before it
 *  stay). */
hg_shapes *hg_shapes_new(const TSLanguage *language);
int hg_shapes_add(hg_shapes *self, const char *text, uint32_t len, uint32_t base, uint32_t *error_offset, char *msg,
                  size_t cap);
/** hg_shapes_new and hg_shapes_add of one text: NULL on failure. */
hg_shapes *hg_shapes_compile(const TSLanguage *language, const char *text, uint32_t len, uint32_t *error_offset,
                             char *msg, size_t cap);
void hg_shapes_free(hg_shapes *self);

const TSLanguage *hg_shapes_language(const hg_shapes *self);
uint32_t hg_shapes_count(const hg_shapes *self);
const hg_shape_pattern *hg_shapes_get(const hg_shapes *self, uint32_t pattern);
const hg_item *hg_shapes_item(const hg_shapes *self, uint32_t item);
/** Every item, by index (hg_shapes_item(self, i) is &hg_shapes_items(self)[i]). */
const hg_item *hg_shapes_items(const hg_shapes *self);
uint32_t hg_shapes_start_byte(const hg_shapes *self, uint32_t pattern);

/** Captures, numbered as tree-sitter numbers them: by first appearance in the text. */
uint32_t hg_shapes_capture_count(const hg_shapes *self);
const char *hg_shapes_capture_name(const hg_shapes *self, uint32_t id);
/** The id of capture `name`; UINT32_MAX when no pattern uses it. */
uint32_t hg_shapes_capture_id(const hg_shapes *self, const char *name);
/** How often capture `id` occurs in a match of `pattern`. */
TSQuantifier hg_shapes_capture_quantifier(const hg_shapes *self, uint32_t pattern, uint32_t id);
/** Pattern `pattern`'s predicate steps (as ts_query_predicates_for_pattern gives them) and the
 *  strings they name. */
const TSQueryPredicateStep *hg_shapes_predicates(const hg_shapes *self, uint32_t pattern, uint32_t *n);
const char *hg_shapes_string(const hg_shapes *self, uint32_t id);

#endif
