#include "surfaces/python/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/argv.h"
#include "surfaces/node.h"
#include "surfaces/python/resolve_internal.h"
#include "surfaces/python/scope.h"

// ---- strings ------------------------------------------------------------------------------------

// Could call `c` be a configured builder: does its callee end in the name of one?
static bool may_be_builder(const hg_resolver *self, TSNode c) {
  TSNode fn = hg_node_child(c, HG_FIELD_FUNCTION);
  if (hg_node_is(fn, "attribute"))
    fn = hg_node_child(fn, HG_FIELD_ATTRIBUTE);
  if (!hg_node_is(fn, "identifier"))
    return false;
  uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
  for (size_t i = 0; i < self->config->n_builders; i++)
    for (size_t k = 0; k < self->config->builders[i].n_callables; k++) {
      const char *callable = self->config->builders[i].callables[k], *dot = strrchr(callable, '.');
      const char *last = dot ? dot + 1 : callable;
      if (strlen(last) == b - a && !memcmp(last, self->src + a, b - a))
        return true;
    }
  return false;
}

// The first configured builder called inside `n` (down to HG_RESOLVE_MAX_DEPTH levels), as its BUILDER value.
// A cursor walk: linear in the nodes, whatever their number.
static bool builder_inside(const hg_resolver *self, TSNode n, hg_value *out) {
  if (!self->config->n_builders)
    return false;
  TSTreeCursor cur = ts_tree_cursor_new(n);
  bool found = false;
  int depth = 0;
  for (;;) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    if (hg_node_is(c, "call") && may_be_builder(self, c)) {
      hg_value v = hg_resolve_value_at(self, c, 1);
      if (v.kind == HG_VAL_BUILDER) {
        *out = v;
        found = true;
        break;
      }
    }
    if (depth < HG_RESOLVE_MAX_DEPTH && ts_tree_cursor_goto_first_child(&cur)) {
      depth++;
    } else {
      while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
        ts_tree_cursor_goto_parent(&cur);
        depth--;
      }
      if (depth == 0)
        break;
    }
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

// Is `v` a value whose text Python's str() gives as written: a string, a decimal integer, a
// decimal fraction without trailing zeros, True, False, None?
static bool plain_text(const hg_value *v) {
  if (v->conditional)
    return false;
  switch (v->kind) {
  case HG_VAL_STR: return !strchr(v->text, HG_HOLE);
  case HG_VAL_TRUE:
  case HG_VAL_FALSE:
  case HG_VAL_NONE: return true;
  case HG_VAL_NUM: {
    const char *p = v->text + (v->text[0] == '-');
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || (p[0] == '0' && digits > 1))
      return false;
    if (!p[digits])
      return true;
    if (p[digits] != '.')
      return false;
    size_t frac = strspn(p + digits + 1, "0123456789");
    return frac > 0 && !p[digits + 1 + frac] && p[digits + frac] != '0';
  }
  default: return false;
  }
}

// An f-string's `{expr}` (no conversion, no format spec) whose value is known: its text.
static bool known_interpolation(const hg_resolver *self, TSNode c, hg_buf *out, int depth) {
  if (hg_node_arg_count(c) != 1)
    return false;
  TSNode e = hg_node_arg(c, 0);
  if (hg_node_is(e, "type_conversion") || hg_node_is(e, "format_specifier"))
    return false;
  if (depth >= HG_RESOLVE_MAX_DEPTH)
    return false;
  hg_value v = hg_resolve_value_at(self, e, depth + 1);
  if (!plain_text(&v))
    return false;
  hg_buf_puts(out, v.text);
  return true;
}

// The content of a string or concatenated string; interpolations become HG_HOLE, and each
// interpolation node is reported to `hole` (if given) in order.
void hg_resolve__string(const hg_resolver *self, TSNode n, hg_buf *out, hg_value_vec *holes, int depth) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    const char *type = ts_node_type(c);  // read once: most children are string_start and string_end
    if (!strcmp(type, "string")) {
      hg_resolve__string(self, c, out, holes, depth);
    } else if (!strcmp(type, "string_content")) {
      uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(c);
      hg_buf_add(out, self->src + a, b - a);
    } else if (!strcmp(type, "interpolation")) {
      if (known_interpolation(self, c, out, depth))
        continue;
      hg_buf_putc(out, HG_HOLE);
      if (holes) {
        hg_value h = hg_resolve__unknown(self, c, "an interpolated expression");
        builder_inside(self, c, &h);
        HG_VEC_PUSH(holes, h);
      }
    }
  }
}

// ---- shell commands ----------------------------------------------------------------------------

// An expression joined into a shell command: one hole, a builder's when it calls one.
static void shell_hole(const hg_resolver *self, TSNode n, hg_buf *out, hg_value_vec *holes, const char *origin) {
  hg_buf_putc(out, HG_HOLE);
  hg_value h = hg_resolve__unknown(self, n, origin);
  builder_inside(self, n, &h);
  HG_VEC_PUSH(holes, h);
}

// The text of `fmt` formatted with `args`: each %-conversion ('%' style) or replacement field
// ('{' style, str.format) becomes a hole standing for args; %% and {{ }} are the characters.
static void formatted(const hg_resolver *self, TSNode fmt, TSNode args, char style, hg_buf *out, hg_value_vec *holes,
                      int depth);

// The text of a shell command built from string literals: "a" "b", "a" + x, "... %s" % x,
// "... {}".format(x), f"...{x}". What is not a literal becomes a hole.
static void shell_text(const hg_resolver *self, TSNode n, hg_buf *out, hg_value_vec *holes, int depth) {
  if (depth > HG_RESOLVE_MAX_DEPTH) {
    shell_hole(self, n, out, holes, "an expression joined into the command");
    return;
  }
  if (hg_node_is(n, "string") || hg_node_is(n, "concatenated_string")) {
    hg_resolve__string(self, n, out, holes, depth);
  } else if (hg_node_is(n, "parenthesized_expression") && hg_node_arg_count(n) == 1) {
    shell_text(self, hg_node_arg(n, 0), out, holes, depth + 1);
  } else if (hg_node_is(n, "binary_operator")) {
    TSNode op = hg_node_field(n, "operator"), left = hg_node_field(n, "left"),
           right = hg_node_field(n, "right");
    char c = ts_node_is_null(op) ? 0 : self->src[ts_node_start_byte(op)];
    if (c == '+') {
      shell_text(self, left, out, holes, depth + 1);
      shell_text(self, right, out, holes, depth + 1);
    } else if (c == '%' && (hg_node_is(left, "string") || hg_node_is(left, "concatenated_string"))) {
      formatted(self, left, right, '%', out, holes, depth);
    } else {
      shell_hole(self, n, out, holes, "an expression joined into the command");
    }
  } else if (hg_node_is(n, "call")) {
    TSNode fn = hg_node_field(n, "function"), args = hg_node_field(n, "arguments");
    TSNode obj = hg_node_is(fn, "attribute") ? hg_node_field(fn, "object") : (TSNode){0};
    TSNode attr = hg_node_is(fn, "attribute") ? hg_node_field(fn, "attribute") : (TSNode){0};
    bool format = !ts_node_is_null(attr) && ts_node_end_byte(attr) - ts_node_start_byte(attr) == 6 &&
                  !memcmp(self->src + ts_node_start_byte(attr), "format", 6);
    if ((hg_node_is(obj, "string") || hg_node_is(obj, "concatenated_string")) && format)
      formatted(self, obj, args, '{', out, holes, depth);
    else
      shell_hole(self, n, out, holes, "an expression joined into the command");
  } else {
    // A name bound to a string literal (a module constant of flags) is its text.
    hg_value v = hg_node_is(n, "identifier") ? hg_resolve_value_at(self, n, depth + 1) : (hg_value){0};
    if (v.kind == HG_VAL_STR && !v.conditional && !strchr(v.text, HG_HOLE))
      hg_buf_puts(out, v.text);
    else
      shell_hole(self, n, out, holes, "an expression joined into the command");
  }
}

// The arguments a format string's placeholders stand for, read once with a cursor: the
// positional ones in order and the keywords, up to MAX_FORMAT_ARGS (a placeholder past them, or
// after a * or ** spread, stands for all of `all`).
enum { MAX_FORMAT_ARGS = 256 };
typedef struct {
  TSNode all;
  TSNode pos[MAX_FORMAT_ARGS], key[MAX_FORMAT_ARGS], value[MAX_FORMAT_ARGS];
  uint32_t n_pos, n_key;
  hg_value all_hole; // format_hole's, once worked out
  bool have_all_hole;
} format_args;

static void format_args_read(format_args *fa, TSNode args) {
  fa->all = args;
  fa->n_pos = fa->n_key = 0;
  fa->have_all_hole = false;
  TSNode seq = args;
  if (hg_node_is(seq, "parenthesized_expression") && hg_node_arg_count(seq) == 1)
    seq = hg_node_arg(seq, 0);
  if (!hg_node_is(seq, "tuple") && !hg_node_is(seq, "argument_list")) {
    fa->pos[fa->n_pos++] = args; // "%s" % x: x is the one argument (a tuple's value stays a hole)
    return;
  }
  TSTreeCursor cur = ts_tree_cursor_new(seq);
  bool more = ts_tree_cursor_goto_first_child(&cur);
  for (; more && fa->n_pos < MAX_FORMAT_ARGS && fa->n_key < MAX_FORMAT_ARGS;
       more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    if (!ts_node_is_named(c) || hg_node_is(c, "comment"))
      continue;
    if (hg_node_is(c, "list_splat") || hg_node_is(c, "dictionary_splat"))
      break; // positions unknown from here
    if (hg_node_is(c, "keyword_argument")) {
      TSNode k = hg_node_field(c, "name"), v = hg_node_field(c, "value");
      if (!ts_node_is_null(k) && !ts_node_is_null(v)) {
        fa->key[fa->n_key] = k;
        fa->value[fa->n_key++] = v;
      }
    } else {
      fa->pos[fa->n_pos++] = c;
    }
  }
  ts_tree_cursor_delete(&cur);
}

// A placeholder's hole; the one standing for all the arguments is worked out once. A plain
// placeholder (`%s`, `%d`, `{}`, `{name}`: conv 's' or 'd', 0 for any other) of an argument whose
// value is known is its text.
static void format_hole(const hg_resolver *self, format_args *fa, TSNode arg, hg_buf *out, hg_value_vec *holes,
                        char conv, int depth) {
  bool single = !ts_node_eq(arg, fa->all) || (fa->n_pos == 1 && ts_node_eq(fa->pos[0], fa->all)); // not all of them
  if (conv && single && depth < HG_RESOLVE_MAX_DEPTH) {
    hg_value v = hg_resolve_value_at(self, arg, depth + 1);
    if (plain_text(&v) && (conv == 's' || v.kind == HG_VAL_NUM) && (conv != 'd' || !strchr(v.text, '.'))) {
      hg_buf_puts(out, v.text);
      return;
    }
  }
  if (!ts_node_eq(arg, fa->all)) {
    shell_hole(self, arg, out, holes, "a value formatted into the command");
    return;
  }
  if (!fa->have_all_hole) {
    hg_value_vec one = {0};
    hg_buf ignored = {0};
    shell_hole(self, arg, &ignored, &one, "a value formatted into the command");
    fa->all_hole = one.items[0];
    fa->have_all_hole = true;
    free(one.items);
    hg_buf_free(&ignored);
  }
  hg_buf_putc(out, HG_HOLE);
  HG_VEC_PUSH(holes, fa->all_hole);
}

// The argument a placeholder stands for: the `index`-th positional one, or the keyword `name`
// (len > 0) of str.format; all of them when it cannot be told.
static TSNode format_arg(const hg_resolver *self, const format_args *fa, uint32_t index, const char *name, size_t len) {
  if (!len)
    return index < fa->n_pos ? fa->pos[index] : fa->all;
  for (uint32_t i = 0; i < fa->n_key; i++) {
    TSNode k = fa->key[i];
    if (ts_node_end_byte(k) - ts_node_start_byte(k) == len && !memcmp(self->src + ts_node_start_byte(k), name, len))
      return fa->value[i];
  }
  return fa->all;
}

static void formatted(const hg_resolver *self, TSNode fmt, TSNode args, char style, hg_buf *out, hg_value_vec *holes,
                      int depth) {
  uint32_t auto_index = 0;
  format_args *fa = hg_xmalloc(sizeof(format_args));
  format_args_read(fa, args);
  hg_buf text = {0};
  hg_value_vec inner = {0};
  shell_text(self, fmt, &text, &inner, depth + 1);
  size_t next = 0;
  for (size_t i = 0; i < text.len; i++) {
    char c = text.data[i];
    if (c == HG_HOLE) {
      if (next < inner.len)
        HG_VEC_PUSH(holes, inner.items[next++]);
      hg_buf_putc(out, c);
    } else if (style == '%' && c == '%') {
      if (i + 1 < text.len && text.data[i + 1] == '%') {
        hg_buf_putc(out, '%');
        i++;
        continue;
      }
      // %[(name)][flags][width][.precision][length]conversion; a (name) takes from a mapping.
      size_t j = i + 1;
      bool named = j < text.len && text.data[j] == '(';
      if (named)
        while (j < text.len && text.data[j] != ')')
          j++;
      size_t spec = j;
      while (j < text.len && strchr("()#0- +*.0123456789hlL", text.data[j]) && text.data[j])
        j++;
      char conv = !named && j == spec && j < text.len ? text.data[j] : 0;
      i = j < text.len ? j : text.len - 1;
      TSNode arg = named ? args : format_arg(self, fa, auto_index++, NULL, 0);
      format_hole(self, fa, arg, out, holes, conv == 's' ? 's' : conv == 'd' || conv == 'i' ? 'd' : 0, depth);
    } else if (style == '{' && (c == '{' || c == '}') && i + 1 < text.len && text.data[i + 1] == c) {
      hg_buf_putc(out, c);
      i++;
    } else if (style == '{' && c == '{') {
      // {}, {0}, {name}, each with an optional .attr, [key], !conversion or :spec after it.
      size_t start = ++i;
      while (i < text.len && text.data[i] != '}')
        i++;
      size_t len = strcspn(text.data + start, ".[!:}");
      if (len > i - start)
        len = i - start;
      TSNode arg;
      if (len == 0) {
        arg = format_arg(self, fa, auto_index++, NULL, 0);
      } else if (strspn(text.data + start, "0123456789") >= len) {
        arg = format_arg(self, fa, (uint32_t)strtoul(text.data + start, NULL, 10), NULL, 0);
      } else {
        arg = format_arg(self, fa, 0, text.data + start, len);
      }
      format_hole(self, fa, arg, out, holes, start + len == i ? 's' : 0, depth);
    } else {
      hg_buf_putc(out, c);
    }
  }
  free(inner.items);
  hg_buf_free(&text);
  free(fa);
}

bool hg_resolve__format(const hg_resolver *self, TSNode n, int depth, hg_value *out) {
  TSNode fmt = {0}, args = {0};
  char style = 0;
  if (hg_node_is(n, "binary_operator")) {
    TSNode op = hg_node_field(n, "operator");
    fmt = hg_node_field(n, "left");
    args = hg_node_field(n, "right");
    style = !ts_node_is_null(op) && self->src[ts_node_start_byte(op)] == '%' ? '%' : 0;
  } else if (hg_node_is(n, "call")) {
    TSNode fn = hg_node_child(n, HG_FIELD_FUNCTION);
    if (hg_node_is(fn, "attribute") && hg_node_text_eq(hg_node_child(fn, HG_FIELD_ATTRIBUTE), self->src, "format", 6)) {
      fmt = hg_node_child(fn, HG_FIELD_OBJECT);
      args = hg_node_child(n, HG_FIELD_ARGUMENTS);
      style = '{';
    }
  }
  if (!style || !(hg_node_is(fmt, "string") || hg_node_is(fmt, "concatenated_string")) || ts_node_is_null(args) ||
      depth > HG_RESOLVE_MAX_DEPTH)
    return false;
  hg_buf b = {0};
  hg_value_vec holes = {0};
  formatted(self, fmt, args, style, &b, &holes, depth);
  free(holes.items);
  *out = (hg_value){.kind = HG_VAL_STR,
                    .text = hg_arena_strndup(self->arena, b.data ? b.data : "", b.len),
                    .line = ts_node_start_point(n).row + 1,
                    .origin = b.data && strchr(b.data, HG_HOLE) ? "a formatted string" : NULL};
  hg_buf_free(&b);
  return true;
}

void hg_resolve_shell_text(const hg_resolver *self, TSNode command, hg_buf *out, hg_value_vec *holes) {
  shell_text(self, command, out, holes, 0);
}

hg_value hg_resolve_shell(const hg_resolver *self, TSNode command) {
  hg_buf content = {0};
  hg_value_vec holes = {0}, words = {0};
  shell_text(self, command, &content, &holes, 0);
  hg_argv_words w = {0};
  hg_argv_split(&w, content.data ? content.data : "");
  size_t hole = 0;
  for (size_t i = 0; i < w.len; i++) {
    const char *word = w.items[i];
    size_t nholes = 0;
    for (const char *p = word; *p; p++)
      nholes += *p == HG_HOLE;
    hg_value v = {.kind = HG_VAL_STR,
                  .text = hg_arena_strndup(self->arena, word, strlen(word)),
                  .line = ts_node_start_point(command).row + 1};
    if (nholes == 1 && word[0] == HG_HOLE && word[1] == '\0' && hole < holes.len &&
        holes.items[hole].kind == HG_VAL_BUILDER) {
      v = holes.items[hole];
      v.splat = true;
    }
    hole += nholes;
    HG_VEC_PUSH(&words, v);
  }
  hg_strvec_free(&w);
  hg_buf_free(&content);
  free(holes.items);
  return hg_values_finish(self->arena,
                          (hg_value){.kind = HG_VAL_LIST,
                                     .text = hg_resolve__text(self, command),
                                     .line = ts_node_start_point(command).row + 1},
                          &words);
}
