#include "rules/shape.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A node type's name and its symbol, as the shapes looked it up.
typedef struct {
  char *name;
  uint32_t len;
  TSSymbol symbol;
} named_symbol;

struct hg_shapes {
  const TSLanguage *language;
  HG_VEC(hg_item) items;
  HG_VEC(hg_shape_pattern) shapes;
  HG_VEC(TSQueryPredicateStep) steps;
  HG_VEC(char *) strings;
  HG_VEC(char *) captures;
  // The node types looked up so far: libtree-sitter compares a name with every symbol's (~7,000
  // instructions a lookup for Python), and the rules name some 40 types 190 times.
  HG_VEC(named_symbol) types;
};

// The named symbol called name[0..n) in the shapes' language (0: none), looked up once.
static TSSymbol symbol_named(hg_shapes *self, const char *name, uint32_t n) {
  for (size_t i = 0; i < self->types.len; i++)
    if (self->types.items[i].len == n && !memcmp(self->types.items[i].name, name, n)) return self->types.items[i].symbol;
  TSSymbol sym = ts_language_symbol_for_name(self->language, name, n, true);
  HG_VEC_PUSH(&self->types, ((named_symbol){hg_xstrndup(name, n), n, sym}));
  return sym;
}

typedef HG_VEC(uint32_t) u32vec;

typedef struct {
  const char *s;
  uint32_t len, pos;
  hg_shapes *out;
  bool failed;
  uint32_t err_at;
  char *msg;
  size_t cap;
  u32vec mine;  // the captures of the pattern being read
  u32vec asked;  // ... and where its predicates name a capture: (offset, id) pairs
} parser;

static int fail(parser *p, uint32_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *p, uint32_t at, const char *fmt, ...) {
  if (!p->failed) {
    p->failed = true;
    p->err_at = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->msg, p->cap, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int peek(const parser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }
static int peek_at(const parser *p, uint32_t k) { return p->pos + k < p->len ? (unsigned char)p->s[p->pos + k] : -1; }

// Whitespace and `;` comments.
static void skip_space(parser *p) {
  for (;;) {
    int c = peek(p);
    if (c == ';') {
      while (p->pos < p->len && p->s[p->pos] != '\n') p->pos++;
    } else if (c >= 0 && isspace(c)) {
      p->pos++;
    } else {
      return;
    }
  }
}

// tree-sitter's identifiers: a letter, digit, `_` or `-`, then also `.`, `?` and `!`.
static bool ident_start(int c) { return c >= 0 && (isalnum(c) || c == '_' || c == '-' || c >= 0x80); }
static bool ident_char(int c) { return ident_start(c) || c == '.' || c == '?' || c == '!'; }

static uint32_t scan_ident(parser *p) {
  uint32_t start = p->pos;
  while (ident_char(peek(p))) p->pos++;
  return p->pos - start;
}

static uint32_t string_id(hg_shapes *self, const char *s, size_t n) {
  for (size_t i = 0; i < self->strings.len; i++)
    if (strlen(self->strings.items[i]) == n && !memcmp(self->strings.items[i], s, n)) return (uint32_t)i;
  HG_VEC_PUSH(&self->strings, hg_xstrndup(s, n));
  return (uint32_t)self->strings.len - 1;
}

static uint32_t capture_id(hg_shapes *self, const char *s, size_t n, bool add) {
  for (size_t i = 0; i < self->captures.len; i++)
    if (strlen(self->captures.items[i]) == n && !memcmp(self->captures.items[i], s, n)) return (uint32_t)i;
  if (!add) return UINT32_MAX;
  HG_VEC_PUSH(&self->captures, hg_xstrndup(s, n));
  return (uint32_t)self->captures.len - 1;
}

// A string literal, escapes as tree-sitter reads them (\n \r \t \0, else the character itself);
// no line break inside. Into buf (from empty).
static int read_string(parser *p, hg_buf *buf) {
  uint32_t start = p->pos++;
  buf->len = 0;
  for (;;) {
    int c = peek(p);
    if (c < 0 || c == '\n') return fail(p, start, "a string left open");
    p->pos++;
    if (c == '"') break;
    if (c == '\\') {
      int e = peek(p);
      if (e < 0) return fail(p, start, "a string left open");
      p->pos++;
      c = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == '0' ? '\0' : e;
    }
    hg_buf_putc(buf, (char)c);
  }
  hg_buf_putc(buf, '\0');
  buf->len--;
  return 0;
}

// `(#name arg ...)`, the `(` read: arguments are @captures, "strings" and bare identifiers.
static int read_predicate(parser *p) {
  hg_shapes *self = p->out;
  uint32_t at = p->pos - 1;
  p->pos++;  // '#'
  uint32_t n = scan_ident(p);
  if (!n) return fail(p, at, "a predicate needs a name: (#name? ...)");
  HG_VEC_PUSH(&self->steps, ((TSQueryPredicateStep){TSQueryPredicateStepTypeString, string_id(self, p->s + p->pos - n, n)}));
  hg_buf str = {0};
  int rc = 0;
  for (;;) {
    skip_space(p);
    int c = peek(p);
    if (c == ')') {
      p->pos++;
      break;
    }
    if (c == '@') {
      uint32_t where = p->pos++;
      uint32_t k = scan_ident(p);
      if (!k) {
        rc = fail(p, where, "a capture name after '@'");
        break;
      }
      uint32_t id = capture_id(self, p->s + p->pos - k, k, false);
      HG_VEC_PUSH(&p->asked, where);
      HG_VEC_PUSH(&p->asked, id);
      HG_VEC_PUSH(&self->steps, ((TSQueryPredicateStep){TSQueryPredicateStepTypeCapture, id}));
    } else if (c == '"') {
      if ((rc = read_string(p, &str)) != 0) break;
      HG_VEC_PUSH(&self->steps, ((TSQueryPredicateStep){TSQueryPredicateStepTypeString, string_id(self, str.data, str.len)}));
    } else if (ident_start(c)) {
      uint32_t k = scan_ident(p);
      HG_VEC_PUSH(&self->steps, ((TSQueryPredicateStep){TSQueryPredicateStepTypeString, string_id(self, p->s + p->pos - k, k)}));
    } else {
      rc = fail(p, p->pos, c < 0 ? "a predicate left open: ')' expected" : "a predicate's argument is an @capture, a \"string\" or a name");
      break;
    }
  }
  hg_buf_free(&str);
  HG_VEC_PUSH(&self->steps, ((TSQueryPredicateStep){TSQueryPredicateStepTypeDone, 0}));
  return rc;
}

static int read_item(parser *p, TSFieldId field, bool immediate, uint32_t *out);

// The child items of a node, its `(type` read (at `open`), up to its `)`: into children (indices
// of items).
static int read_children(parser *p, uint32_t open, u32vec *children) {
  bool anchor = false;
  uint32_t anchor_at = 0;
  for (;;) {
    skip_space(p);
    int c = peek(p);
    if (c < 0) return fail(p, open, "a pattern left open: ')' expected");
    if (c == ')') {
      p->pos++;
      if (anchor) {
        if (!children->len) return fail(p, anchor_at, "an anchor '.' needs an item before or after it");
        p->out->items.items[children->items[children->len - 1]].last = true;
      }
      return 0;
    }
    if (c == '.') {
      if (anchor) return fail(p, p->pos, "two anchors in a row");
      anchor = true;
      anchor_at = p->pos++;
      continue;
    }
    if (c == '(') {
      uint32_t save = p->pos++;
      skip_space(p);
      if (peek(p) == '#') {
        if (anchor) return fail(p, anchor_at, "an anchor '.' before a predicate");
        if (read_predicate(p) != 0) return -1;
        continue;
      }
      p->pos = save;
    }
    TSFieldId field = 0;
    if (c == '_' && !ident_char(peek_at(p, 1))) {
      return fail(p, p->pos, "a bare '_' is not supported in shapes: write (_) for any named node");
    } else if (ident_start(c)) {
      uint32_t at = p->pos, n = scan_ident(p);
      skip_space(p);
      if (peek(p) != ':') return fail(p, at, "a field name followed by ':', or an item in parentheses");
      p->pos++;
      field = ts_language_field_id_for_name(p->out->language, p->s + at, n);
      if (!field) return fail(p, at, "unknown field name \"%.*s\"", (int)n, p->s + at);
      skip_space(p);
    } else if (c == '!') {
      return fail(p, p->pos, "negated fields (!field) are not supported in shapes");
    }
    uint32_t item;
    if (read_item(p, field, anchor, &item) != 0) return -1;
    HG_VEC_PUSH(children, item);
    anchor = false;
  }
}

// Copies the items `ids` to the end of the item list, one after the other: the children of one
// node (or branches of one alternation) stand together. Their first index.
static uint32_t place(hg_shapes *self, const uint32_t *ids, size_t n) {
  uint32_t first = (uint32_t)self->items.len;
  for (size_t i = 0; i < n; i++) HG_VEC_PUSH(&self->items, self->items.items[ids[i]]);
  return first;
}

static int read_item(parser *p, TSFieldId field, bool immediate, uint32_t *out) {
  hg_shapes *self = p->out;
  skip_space(p);
  uint32_t at = p->pos;
  int c = peek(p);
  hg_item it = {.field = field, .immediate = immediate};
  u32vec kids = {0};
  int rc = 0;
  if (c == '[') {
    p->pos++;
    it.kind = HG_ITEM_ALT;
    for (;;) {
      skip_space(p);
      int d = peek(p);
      if (d == ']') {
        p->pos++;
        break;
      }
      if (d < 0) {
        rc = fail(p, at, "an alternation left open: ']' expected");
        break;
      }
      if (d == '.') {
        rc = fail(p, p->pos, "an anchor '.' inside an alternation");
        break;
      }
      uint32_t b;
      if ((rc = read_item(p, 0, false, &b)) != 0) break;
      HG_VEC_PUSH(&kids, b);
    }
    if (rc == 0 && !kids.len) rc = fail(p, at, "an empty alternation");
  } else if (c == '(') {
    p->pos++;
    skip_space(p);
    int d = peek(p);
    uint32_t name_at = p->pos;
    if (d == '(' || d == '[' || d == '"')
      rc = fail(p, at, "a group of sibling patterns stands only at the top of a pattern, around one node");
    else if (d == '#' || d == '.')
      rc = fail(p, name_at, "a predicate stands inside a pattern, after its node");
    else if (d == '_' && !ident_char(peek_at(p, 1))) {
      p->pos++;
      it.kind = HG_ITEM_WILDCARD;
    } else {
      uint32_t n = scan_ident(p);
      if (!n) {
        rc = fail(p, name_at, "a node type after '('");
      } else if (peek(p) == '/') {
        rc = fail(p, name_at, "supertypes (a/b) are not supported in shapes");
      } else if ((n == 5 && !memcmp(p->s + name_at, "ERROR", 5)) || (n == 7 && !memcmp(p->s + name_at, "MISSING", 7))) {
        rc = fail(p, name_at, "ERROR and MISSING nodes are not supported in shapes");
      } else {
        it.kind = HG_ITEM_NODE;
        it.symbol = symbol_named(self, p->s + name_at, n);
        if (!it.symbol || ts_language_symbol_type(self->language, it.symbol) != TSSymbolTypeRegular)
          rc = fail(p, name_at, "unknown node type \"%.*s\"", (int)n, p->s + name_at);
      }
    }
    if (rc == 0) rc = read_children(p, at, &kids);
  } else if (c == '"') {
    rc = fail(p, at, "anonymous nodes (\"...\") are not supported in shapes: match the parent's text with #match?");
  } else if (c == '_') {
    rc = fail(p, at, "a bare '_' is not supported in shapes: write (_) for any named node");
  } else {
    rc = fail(p, at, c < 0 ? "an item expected before the end" : "an item expected: (type ...), (_ ...) or [...]");
  }
  if (rc == 0) {
    it.n = (uint32_t)kids.len;
    it.first = place(self, kids.items, kids.len);
    for (uint32_t i = 0; i < it.n; i++) it.has_captures |= self->items.items[it.first + i].has_captures;
    // Quantifier, then captures.
    skip_space(p);
    int q = peek(p);
    if (q == '?' || q == '*' || q == '+') {
      it.quant = q == '?' ? HG_QUANT_OPT : q == '*' ? HG_QUANT_STAR : HG_QUANT_PLUS;
      p->pos++;
      skip_space(p);
      if (peek(p) == '?' || peek(p) == '*' || peek(p) == '+')
        rc = fail(p, p->pos, "a quantifier right after another (write one of ?, *, +)");
    }
    while (rc == 0 && (skip_space(p), peek(p) == '@')) {
      uint32_t cat = p->pos++;
      uint32_t n = scan_ident(p);
      if (!n) {
        rc = fail(p, cat, "a capture name after '@'");
      } else if (it.n_captures == HG_SHAPE_MAX_CAPTURES) {
        rc = fail(p, cat, "at most %d captures on one item", HG_SHAPE_MAX_CAPTURES);
      } else {
        uint32_t id = capture_id(self, p->s + cat + 1, n, true);
        it.captures[it.n_captures++] = (uint16_t)id;
        it.has_captures = true;
        HG_VEC_PUSH(&p->mine, id);
      }
    }
  }
  free(kids.items);
  if (rc != 0) return -1;
  HG_VEC_PUSH(&self->items, it);
  *out = (uint32_t)self->items.len - 1;
  return 0;
}

// A pattern at the top: an item, or a group holding one item and predicates.
static int read_pattern(parser *p) {
  hg_shapes *self = p->out;
  uint32_t start = p->pos;
  hg_shape_pattern sh = {.start = start, .first_step = (uint32_t)self->steps.len};
  p->mine.len = p->asked.len = 0;
  int rc = 0;
  bool group = false;
  if (peek(p) == '(') {
    uint32_t save = p->pos++;
    skip_space(p);
    group = peek(p) == '(' || peek(p) == '[';
    if (!group) p->pos = save;
  }
  if (!group) {
    rc = read_item(p, 0, false, &sh.root);
  } else {
    bool have = false;
    for (;;) {
      skip_space(p);
      int c = peek(p);
      if (c < 0) {
        rc = fail(p, start, "a pattern left open: ')' expected");
        break;
      }
      if (c == ')') {
        p->pos++;
        break;
      }
      if (c == '(') {
        uint32_t save = p->pos++;
        skip_space(p);
        bool pred = peek(p) == '#';
        if (pred) {
          if ((rc = read_predicate(p)) != 0) break;
          continue;
        }
        p->pos = save;
      }
      if (c == '.') {
        rc = fail(p, p->pos, "an anchor '.' at the top of a pattern");
        break;
      }
      if (have) {
        rc = fail(p, p->pos, "one node per pattern: a group of sibling patterns is not supported in shapes");
        break;
      }
      if ((rc = read_item(p, 0, false, &sh.root)) != 0) break;
      have = true;
    }
    if (rc == 0 && !have) rc = fail(p, start, "a pattern without a node");
  }
  if (rc == 0) {
    const hg_item *root = &self->items.items[sh.root];
    if (root->quant != HG_QUANT_ONE) rc = fail(p, start, "a quantifier on a pattern's root");
  }
  for (size_t i = 0; rc == 0 && i < p->asked.len; i += 2) {
    bool found = false;
    for (size_t k = 0; k < p->mine.len && !found; k++) found = p->mine.items[k] == p->asked.items[i + 1];
    if (!found) rc = fail(p, p->asked.items[i], "a predicate names a capture its pattern does not hold");
  }
  if (rc != 0) return -1;
  sh.n_steps = (uint32_t)self->steps.len - sh.first_step;
  HG_VEC_PUSH(&self->shapes, sh);
  return 0;
}

hg_shapes *hg_shapes_new(const TSLanguage *language) {
  hg_shapes *self = hg_xcalloc(1, sizeof(hg_shapes));
  self->language = language;
  return self;
}

int hg_shapes_add(hg_shapes *self, const char *text, uint32_t len, uint32_t base, uint32_t *error_offset, char *msg,
                  size_t cap) {
  parser p = {.s = text, .len = len, .out = self, .msg = msg, .cap = cap};
  size_t n_shapes = self->shapes.len;
  int rc = 0;
  for (;;) {
    skip_space(&p);
    if (p.pos >= len) break;
    if ((rc = read_pattern(&p)) != 0) break;
  }
  free(p.mine.items);
  free(p.asked.items);
  for (size_t i = n_shapes; i < self->shapes.len; i++) self->shapes.items[i].start += base;
  if (rc != 0) *error_offset = base + p.err_at;
  return rc;
}

hg_shapes *hg_shapes_compile(const TSLanguage *language, const char *text, uint32_t len, uint32_t *error_offset,
                             char *msg, size_t cap) {
  hg_shapes *self = hg_shapes_new(language);
  if (hg_shapes_add(self, text, len, 0, error_offset, msg, cap) != 0) {
    hg_shapes_free(self);
    return NULL;
  }
  return self;
}

void hg_shapes_free(hg_shapes *self) {
  if (!self) return;
  hg_strv_free(self->strings.items, self->strings.len);
  hg_strv_free(self->captures.items, self->captures.len);
  free(self->items.items);
  free(self->shapes.items);
  free(self->steps.items);
  for (size_t i = 0; i < self->types.len; i++) free(self->types.items[i].name);
  free(self->types.items);
  free(self);
}

const TSLanguage *hg_shapes_language(const hg_shapes *self) { return self->language; }
uint32_t hg_shapes_count(const hg_shapes *self) { return (uint32_t)self->shapes.len; }
const hg_shape_pattern *hg_shapes_get(const hg_shapes *self, uint32_t pattern) { return &self->shapes.items[pattern]; }
const hg_item *hg_shapes_item(const hg_shapes *self, uint32_t item) { return &self->items.items[item]; }
const hg_item *hg_shapes_items(const hg_shapes *self) { return self->items.items; }
uint32_t hg_shapes_start_byte(const hg_shapes *self, uint32_t pattern) { return self->shapes.items[pattern].start; }
uint32_t hg_shapes_capture_count(const hg_shapes *self) { return (uint32_t)self->captures.len; }
const char *hg_shapes_capture_name(const hg_shapes *self, uint32_t id) { return self->captures.items[id]; }
uint32_t hg_shapes_capture_id(const hg_shapes *self, const char *name) {
  return capture_id((hg_shapes *)self, name, strlen(name), false);
}
const char *hg_shapes_string(const hg_shapes *self, uint32_t id) { return self->strings.items[id]; }

const TSQueryPredicateStep *hg_shapes_predicates(const hg_shapes *self, uint32_t pattern, uint32_t *n) {
  const hg_shape_pattern *sh = &self->shapes.items[pattern];
  *n = sh->n_steps;
  return sh->n_steps ? self->steps.items + sh->first_step : NULL;  // none at all: no steps vector
}

// The fewest and most times capture `id` occurs in a match of item `i` (UINT32_MAX: no bound).
static void occurrences(const hg_shapes *self, uint32_t i, uint32_t id, uint32_t *lo, uint32_t *hi) {
  const hg_item *it = &self->items.items[i];
  uint32_t own = 0, l = 0, h = 0;
  for (uint8_t k = 0; k < it->n_captures; k++) own += it->captures[k] == id;
  if (it->kind == HG_ITEM_ALT) {
    l = UINT32_MAX;
    for (uint32_t b = 0; b < it->n; b++) {
      uint32_t bl, bh;
      occurrences(self, it->first + b, id, &bl, &bh);
      l = bl < l ? bl : l;
      h = bh > h ? bh : h;
    }
    l += own;
    h = h == UINT32_MAX ? h : h + own;
  } else {
    l = h = own;
    for (uint32_t c = 0; c < it->n; c++) {
      uint32_t cl, ch;
      occurrences(self, it->first + c, id, &cl, &ch);
      l += cl;
      h = h == UINT32_MAX || ch == UINT32_MAX ? UINT32_MAX : h + ch;
    }
  }
  if (it->quant == HG_QUANT_OPT || it->quant == HG_QUANT_STAR) l = 0;
  if ((it->quant == HG_QUANT_STAR || it->quant == HG_QUANT_PLUS) && h) h = UINT32_MAX;
  *lo = l;
  *hi = h;
}

TSQuantifier hg_shapes_capture_quantifier(const hg_shapes *self, uint32_t pattern, uint32_t id) {
  uint32_t lo, hi;
  occurrences(self, self->shapes.items[pattern].root, id, &lo, &hi);
  if (hi == 0) return TSQuantifierZero;
  if (hi == 1) return lo ? TSQuantifierOne : TSQuantifierZeroOrOne;
  return lo ? TSQuantifierOneOrMore : TSQuantifierZeroOrMore;
}
