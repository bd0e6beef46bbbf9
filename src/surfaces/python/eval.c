#include "surfaces/python/eval.h"

#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/python/project/summary.h"
#include "surfaces/python/resolve_internal.h"

#define MAX_DEPTH HG_RESOLVE_MAX_DEPTH

typedef hg_value_vec value_vec;

static hg_value finish(const hg_resolver *self, hg_value v, value_vec *items) {
  return hg_values_finish(self->arena, v, items);
}

static hg_value value_at(const hg_resolver *self, TSNode n, int depth);

static bool callee_is(const hg_resolver *self, TSNode call, const char *name) {
  TSNode fn = hg_node_child(call, HG_FIELD_FUNCTION);
  if (ts_node_is_null(fn) || !hg_node_is(fn, "identifier"))
    return false;
  uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
  return strlen(name) == b - a && memcmp(self->src + a, name, b - a) == 0;
}

// Is the call's callee one of the policy's mapping calls (classes.mapping_calls: a qualified name,
// or a prefix ending in `*`), whose call is the mapping of its keyword arguments?
static bool mapping_call(const hg_resolver *self, TSNode callee) {
  if (!self->policy || !self->policy->n_mapping_calls)
    return false;
  hg_buf q = {0};
  bool found = false;
  if (hg_resolve_qualify(self, callee, &q) && q.data)
    for (size_t i = 0; i < self->policy->n_mapping_calls && !found; i++) {
      const char *m = self->policy->mapping_calls[i];
      size_t n = strlen(m);
      found = n && m[n - 1] == '*' ? !strncmp(q.data, m, n - 1) : !strcmp(q.data, m);
    }
  hg_buf_free(&q);
  return found;
}

static hg_value value_of(const hg_resolver *self, TSNode n, int depth) {
  if (depth > MAX_DEPTH)
    return hg_resolve__unknown(self, n, "an expression nested too deeply");
  const char *type = ts_node_type(n);
  uint32_t line = ts_node_start_point(n).row + 1;
  if (!strcmp(type, "string") || !strcmp(type, "concatenated_string")) {
    hg_buf b = {0};
    hg_resolve__string(self, n, &b, NULL, depth);
    hg_value v = {.kind = HG_VAL_STR,
                  .text = hg_arena_strndup(self->arena, b.data ? b.data : "", b.len),
                  .line = line,
                  .origin = b.data && strchr(b.data, HG_HOLE) ? "an f-string" : NULL};
    hg_buf_free(&b);
    return v;
  }
  if (!strcmp(type, "integer") || !strcmp(type, "float"))
    return (hg_value){.kind = HG_VAL_NUM, .text = hg_resolve__text(self, n), .line = line};
  if (!strcmp(type, "unary_operator")) {
    hg_value v = value_at(self, hg_node_field(n, "argument"), depth + 1);
    TSNode op = hg_node_field(n, "operator");
    char o = ts_node_is_null(op) ? 0 : self->src[ts_node_start_byte(op)];
    if (v.kind == HG_VAL_NUM && !v.conditional && (o == '-' || o == '+')) {
      // -x of a known number is that number negated, as written: "-1", "-512"
      const char *t = v.text[0] == '-' ? v.text + 1 : v.text;
      if (o == '-' && v.text[0] != '-') {
        hg_buf b = {0};
        hg_buf_printf(&b, "-%s", v.text);
        t = hg_arena_strndup(self->arena, b.data, b.len);
        hg_buf_free(&b);
      } else if (o == '+') {
        t = v.text;
      }
      return (hg_value){.kind = HG_VAL_NUM, .text = t, .line = line};
    }
    if (v.kind == HG_VAL_NUM)
      return (hg_value){.kind = HG_VAL_NUM, .text = hg_resolve__text(self, n), .line = line};
    return hg_resolve__unknown(self, n, "an expression");
  }
  if (!strcmp(type, "true"))
    return (hg_value){.kind = HG_VAL_TRUE, .text = "True", .line = line};
  if (!strcmp(type, "false"))
    return (hg_value){.kind = HG_VAL_FALSE, .text = "False", .line = line};
  if (!strcmp(type, "none"))
    return (hg_value){.kind = HG_VAL_NONE, .text = "None", .line = line};
  if (!strcmp(type, "parenthesized_expression") && hg_node_arg_count(n) == 1)
    return value_at(self, hg_node_arg(n, 0), depth + 1);
  if (!strcmp(type, "list") || !strcmp(type, "tuple") || !strcmp(type, "set") || !strcmp(type, "argument_list")) {
    // An argument list is its positional arguments (a helper given the argv word by word,
    // run_cmd("docker", "run", *args)); its keywords are not words.
    value_vec items = {0};
    hg_resolve__items(self, n, &items, depth);
    return finish(self, (hg_value){.kind = HG_VAL_LIST, .text = hg_resolve__text(self, n), .line = line}, &items);
  }
  if (!strcmp(type, "dictionary")) {
    value_vec items = {0};
    hg_resolve__entries(self, n, &items, depth);
    return finish(self, (hg_value){.kind = HG_VAL_DICT, .text = hg_resolve__text(self, n), .line = line}, &items);
  }
  if (!strcmp(type, "conditional_expression"))
    return hg_resolve__conditional(self, n, depth);
  if (!strcmp(type, "boolean_operator"))
    return hg_resolve__boolean(self, n, depth);
  if (!strcmp(type, "subscript"))
    return hg_resolve__subscript(self, n, depth);
  if (!strcmp(type, "list_comprehension") || !strcmp(type, "set_comprehension") ||
      !strcmp(type, "generator_expression") || !strcmp(type, "dictionary_comprehension"))
    return hg_resolve__comprehension(self, n, depth);
  if (!strcmp(type, "call")) {
    TSNode args = hg_node_child(n, HG_FIELD_ARGUMENTS);
    if (self->call_keywords && !ts_node_is_null(args) && !hg_summary_follows(self, n, depth)) {
      // host_config=name where name was assigned create_host_config(...): the call's keywords (a
      // function of the project is read by what it returns, read so).
      hg_resolver plain = *self;
      plain.call_keywords = false;
      return hg_resolve_kwargs(&plain, args);
    }
    TSNode callee = hg_node_child(n, HG_FIELD_FUNCTION);
    hg_value special;
    if (hg_resolve__format(self, n, depth, &special))
      return special;
    if (hg_node_is(callee, "identifier")) {
      const char *name = hg_resolve__text(self, callee);
      if (hg_resolve__conversion(self, n, name, depth, &special))
        return special;
    } else if (hg_node_is(callee, "attribute")) {
      TSNode attr = hg_node_child(callee, HG_FIELD_ATTRIBUTE);
      if (hg_node_text_eq(attr, self->src, "get", 3) || hg_node_text_eq(attr, self->src, "getenv", 6) ||
          hg_node_text_eq(attr, self->src, "setdefault", 10)) {
        hg_buf q = {0};
        bool env = hg_resolve_qualify(self, callee, &q) && hg_resolve__environment(self, n, q.data, depth, &special);
        hg_buf_free(&q);
        if (env)
          return special;
      }
    }
    if (!ts_node_is_null(args) && callee_is(self, n, "dict") && !hg_imports_lookup(self->imports, "dict", 4))
      return hg_resolve__keyword_dict(self, args, depth);
    if (!ts_node_is_null(args) && mapping_call(self, callee))
      return hg_resolve__keyword_dict(self, args, depth); // V1Pod(spec=...): {spec: ...}
    if (!ts_node_is_null(args) && (callee_is(self, n, "list") || callee_is(self, n, "tuple")) &&
        hg_node_arg_count(args) == 1) {
      // list(d.values()), tuple(zip(a, b)), list(x for x in X): what iterating it gives
      hg_value seq;
      const char *why;
      if (hg_resolve__iterate(self, hg_node_arg(args, 0), depth + 1, &seq, &why))
        return seq;
      hg_value inner = value_at(self, hg_node_arg(args, 0), depth + 1);
      if (inner.kind == HG_VAL_LIST)
        return inner;
    }
    if (!ts_node_is_null(args) && (callee_is(self, n, "int") || callee_is(self, n, "float")) &&
        !hg_imports_lookup(self->imports, callee_is(self, n, "int") ? "int" : "float", callee_is(self, n, "int") ? 3 : 5) &&
        hg_node_arg_count(args) == 1) {
      // int() or float() of a known number: nano_cpus=int(1.5 * 10**9); of anything else (an
      // environment value) what it holds stays as it is, known or not, one of several or not
      hg_value inner = value_at(self, hg_node_arg(args, 0), depth + 1);
      if (inner.kind == HG_VAL_NUM && !inner.conditional) {
        hg_value num = {.line = line};
        if (hg_resolve__arith(self, callee_is(self, n, "int") ? "int" : "float", &inner, &inner, &num))
          return num;
      }
      if (inner.kind == HG_VAL_UNKNOWN || inner.kind == HG_VAL_ALT)
        return inner;
    }
    return hg_summary_call(self, n, depth);
  }
  if (!strcmp(type, "binary_operator")) {
    hg_value formatted;
    if (hg_resolve__format(self, n, depth, &formatted))
      return formatted;
    return hg_resolve__binary(self, n, depth);
  }
  if (!strcmp(type, "identifier"))
    return hg_resolve__name(self, n, depth);
  if (!strcmp(type, "attribute"))
    return hg_summary_attribute(self, n, depth);
  return hg_resolve__unknown(self, n, "an expression");
}

// Every value says which file it stands in (values from other modules of the project keep theirs).
static hg_value value_at(const hg_resolver *self, TSNode n, int depth) {
  if (self->call_keywords && hg_node_is(n, "none")) // host_config=None: docker-py's default, nothing set
    return (hg_value){.kind = HG_VAL_DICT, .text = "None", .line = ts_node_start_point(n).row + 1};
  if (self->call_keywords && (hg_node_is(n, "dictionary") || (hg_node_is(n, "call") && callee_is(self, n, "dict"))))
    // A mapping: the Engine API's HostConfig, whose names are no keywords (sdk-lowlevel.scm reads
    // one in its own dialect where host_config is a mapping on every path, #mapping?).
    return hg_resolve__unknown(self, n, "a mapping, the Engine API's HostConfig, not create_host_config()'s keywords");
  if (self->call_keywords && !hg_node_is(n, "identifier") && !hg_node_is(n, "call") &&
      !hg_node_is(n, "parenthesized_expression") && !hg_node_is(n, "conditional_expression") &&
      !hg_node_is(n, "boolean_operator")) {
    // Only the expression that stands for the host config, not what is inside it, is a call's keywords.
    hg_resolver plain = *self;
    plain.call_keywords = false;
    return value_at(&plain, n, depth);
  }
  hg_value v = value_of(self, n, depth);
  if (!v.path && self->module)
    v.path = self->module->path;
  return v;
}

hg_value hg_resolve_value(const hg_resolver *self, TSNode node) { return value_at(self, node, 0); }

// A `**expr` of a call's own arguments: the entries of one `**{...}` literal are merged by the dict,
// where a later key silently replaces an earlier one (a group); across the call's own keywords a
// repeated key is a TypeError.
static void push_call_spread(const hg_resolver *self, TSNode expr, value_vec *items, uint32_t *group) {
  hg_value inner = value_at(self, expr, 1);
  if (inner.kind == HG_VAL_DICT) {
    ++*group;
    for (size_t k = 0; k < inner.n_items; k++) {
      inner.items[k].group = *group;
      HG_VEC_PUSH(items, inner.items[k]);
    }
  } else {
    inner.splat = true;
    HG_VEC_PUSH(items, inner);
  }
}

// The partial application (policy classes.partial_calls: functools.partial(...)) `n` stands for
// (a call, or a name assigned one), or a null node.
static TSNode partial_of(const hg_resolver *self, TSNode n) {
  TSNode call = hg_node_is(n, "call") ? n : hg_node_is(n, "identifier") ? hg_resolve__alias_of(self, n) : (TSNode){0};
  if (!hg_node_is(call, "call"))
    return (TSNode){0};
  TSNode fn = hg_node_field(call, "function"),
         args = hg_node_field(call, "arguments");
  hg_buf q = {0};
  bool partial = !ts_node_is_null(fn) && !ts_node_is_null(args) && hg_resolve_qualify(self, fn, &q) &&
                 hg_policy_is_partial_call(self->policy, q.data);
  hg_buf_free(&q);
  return partial ? call : (TSNode){0};
}

// The partial whose bound keywords reach a call: its callee (`launch(image)` after `launch =
// functools.partial(...)`, or `functools.partial(...)(image)`), else a callable passed by reference
// as a positional argument (`executor.submit(launch, image)`, `loop.run_in_executor(None, launch)`).
static TSNode bound_partial(const hg_resolver *self, TSNode args) {
  TSNode call = ts_node_parent(args), fn = hg_node_child(call, HG_FIELD_FUNCTION);
  TSNode partial = ts_node_is_null(fn) || hg_node_is(fn, "attribute") ? (TSNode){0} : partial_of(self, fn);
  if (!ts_node_is_null(partial))
    return partial;
  // One pass with a cursor, up to the first keyword (positional arguments come first): a call may
  // have hundreds of thousands of arguments.
  TSTreeCursor cur = ts_tree_cursor_new(args);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more && ts_node_is_null(partial);
       more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode a = ts_tree_cursor_current_node(&cur);
    if (hg_node_is(a, "keyword_argument") || hg_node_is(a, "dictionary_splat"))
      break;
    if (hg_node_is(a, "identifier"))
      partial = partial_of(self, a);
  }
  ts_tree_cursor_delete(&cur);
  return partial;
}

hg_value hg_resolve_kwargs(const hg_resolver *self, TSNode args) {
  value_vec items = {0};
  uint32_t group = 0;
  if (hg_node_is(args, "keyword_argument")) {
    // `kwargs=mapping` of a call that calls a callable with it (Thread(target=..., kwargs=...)):
    // the mapping's entries are the keywords, as `**mapping` would spread them.
    push_call_spread(self, hg_node_field(args, "value"), &items, &group);
    return finish(self,
                  (hg_value){.kind = HG_VAL_DICT,
                             .text = hg_resolve__text(self, args),
                             .line = ts_node_start_point(args).row + 1},
                  &items);
  }
  if (!hg_node_is(args, "argument_list")) {
    // The keywords of the call an expression stands for: host_config=api.create_host_config(...)
    // or a name assigned from such a call.
    TSNode call = hg_resolve_call(self, args);
    TSNode inner = ts_node_is_null(call) ? call : hg_node_field(call, "arguments");
    if (ts_node_is_null(inner) || !hg_node_is(inner, "argument_list") || hg_summary_follows(self, call, 1)) {
      // A name assigned a call on each branch (if/else, try/except): each call's keywords; a
      // function of the project (host_config=helper(api)): the keywords of the call it returns.
      hg_resolver keywords = *self;
      keywords.call_keywords = true;
      hg_value u = value_at(&keywords, args, 1);
      if (u.kind == HG_VAL_DICT) { // a name built up as a dict: its entries (a None before: none)
        for (size_t k = 0; k < u.n_items; k++)
          HG_VEC_PUSH(&items, u.items[k]);
      } else {
        u.splat = true;
        HG_VEC_PUSH(&items, u);
      }
      return finish(self,
                    (hg_value){.kind = HG_VAL_DICT,
                               .text = hg_resolve__text(self, args),
                               .line = ts_node_start_point(args).row + 1},
                    &items);
    }
    args = inner;
  }
  // functools.partial(client.containers.run, **defaults), called directly, through a name or
  // passed by reference: its bound keywords come first.
  TSNode partial = bound_partial(self, args);
  TSNode pargs = ts_node_is_null(partial) ? partial : hg_node_field(partial, "arguments");
  for (uint32_t i = 0, n = ts_node_is_null(pargs) ? 0 : ts_node_named_child_count(pargs); i < n; i++) {
    TSNode c = ts_node_named_child(pargs, i); // the bound keywords; the positional callee is skipped
    if (hg_node_is(c, "dictionary_splat"))
      hg_resolve__spread(self, hg_node_arg(c, 0), &items, 1);
    else if (hg_node_is(c, "keyword_argument"))
      hg_resolve__keyword(self, c, &items, 0);
  }
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (hg_node_is(c, "keyword_argument"))
      hg_resolve__keyword(self, c, &items, 0);
    else if (hg_node_is(c, "dictionary_splat"))
      push_call_spread(self, hg_node_arg(c, 0), &items, &group);
    // Positional arguments (image, command) and `*args` carry no docker-py keywords.
  }
  return finish(
      self,
      (hg_value){.kind = HG_VAL_DICT, .text = hg_resolve__text(self, args), .line = ts_node_start_point(args).row + 1},
      &items);
}

// Under self->keywords_of (a pattern's options-keyword: docker-py's create_container takes its
// options in host_config), a call's options are that keyword's value read as a call's keywords, in
// its place, wherever the keyword comes from (`**kw` whose kw holds
// host_config=api.create_host_config(...)), beside those of the call's own keywords that are
// self->own_keywords (network_disabled=True); its other keywords, and what a builder spread into the
// call yields but those, are no options it takes (create_container(security_opt=...) is a
// TypeError). The last value of the keyword on every path replaces those before it; one after it
// on only some paths leaves every one of them on only some paths (a value set in place in an `if`:
// no condition names it). A spread that cannot be followed stays (it could hold the keyword).
static bool own_keyword(const hg_resolver *self, const char *key) {
  const hg_argv_words *own = self->own_keywords;
  return own && hg_policy_list_has(own->items, own->len, key, strlen(key));
}

static void options_of(const hg_resolver *self, const hg_value *dict, bool cond, value_vec *items) {
  const char *key = self->keywords_of;
  size_t last = SIZE_MAX; // the last item under the key on every path
  bool some_paths = false;
  for (size_t i = 0; i < dict->n_items; i++)
    if (dict->items[i].key && !strcmp(dict->items[i].key, key)) {
      if (!dict->items[i].conditional)
        last = i, some_paths = false;
      else
        some_paths = true;
    }
  for (size_t i = 0; i < dict->n_items; i++) {
    hg_value v = dict->items[i];
    v.conditional |= cond;
    if (!v.key && v.kind == HG_VAL_BUILDER && v.n_items == 1 && v.items[0].kind == HG_VAL_DICT) {
      options_of(self, &v.items[0], v.conditional, items); // a builder's keywords are the call's own
    } else if (!v.key) {
      HG_VEC_PUSH(items, v);
    } else if (strcmp(v.key, key)) {
      if (own_keyword(self, v.key))
        HG_VEC_PUSH(items, v);
    } else if (last == SIZE_MAX || i >= last) {
      v.conditional |= some_paths;
      if (v.kind != HG_VAL_DICT) {
        v.key = NULL;
        v.splat = true;
        HG_VEC_PUSH(items, v);
        continue;
      }
      for (size_t k = 0; k < v.n_items; k++) {
        hg_value e = v.items[k];
        e.conditional |= v.conditional;
        HG_VEC_PUSH(items, e);
      }
    }
  }
}

// The call's keywords as hg_resolve_kwargs reads them, but for its own keywords options_of drops:
// their values are not read (a volumes= followed through the function, per calling context).
static hg_value options_keywords(const hg_resolver *self, TSNode args) {
  if (!hg_node_is(args, "argument_list") || !ts_node_is_null(bound_partial(self, args)))
    return hg_resolve_kwargs(self, args);
  value_vec items = {0};
  uint32_t group = 0;
  for (uint32_t i = 0, n = ts_node_named_child_count(args); i < n; i++) {
    TSNode c = ts_node_named_child(args, i);
    if (hg_node_is(c, "dictionary_splat")) {
      push_call_spread(self, hg_node_arg(c, 0), &items, &group);
    } else if (hg_node_is(c, "keyword_argument")) {
      TSNode name = hg_node_field(c, "name");
      const char *key = ts_node_is_null(name) ? "" : hg_resolve__text(self, name);
      if (!strcmp(key, self->keywords_of) || own_keyword(self, key))
        hg_resolve__keyword(self, c, &items, 0);
    }
  }
  return finish(
      self,
      (hg_value){.kind = HG_VAL_DICT, .text = hg_resolve__text(self, args), .line = ts_node_start_point(args).row + 1},
      &items);
}

hg_value hg_resolve_options_at(const hg_resolver *self, TSNode args) {
  if (!self->keywords_of)
    return hg_resolve_kwargs(self, args);
  hg_value all = options_keywords(self, args);
  if (all.kind != HG_VAL_DICT)
    return all;
  value_vec items = {0};
  options_of(self, &all, false, &items);
  return finish(self, (hg_value){.kind = HG_VAL_DICT, .text = all.text, .line = all.line}, &items);
}

const hg_resolve_engine hg_python_engine = {
    .value_at = value_at,
    .keywords = hg_resolve_kwargs,
    .imported = hg_summary_imported,
    .bound = hg_summary_bound,
    .decide = hg_summary_decide,
    .factory = hg_summary_factory,
    .defined = hg_summary_defined};
