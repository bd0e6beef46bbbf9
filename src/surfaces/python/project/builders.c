// Which configured builder a definition or a qualified name is (builders.c: for summary.c, which
// reads a configured builder by what it yields).
#include <string.h>

#include "surfaces/python/project/defs.h"

static bool callable_is(const char *callable, const char *cls, size_t cls_len, const char *fn, size_t fn_len) {
  const char *dot = strchr(callable, '.');
  if (!dot)
    return !cls && strlen(callable) == fn_len && !memcmp(callable, fn, fn_len);
  return cls && (size_t)(dot - callable) == cls_len && !memcmp(callable, cls, cls_len) && strlen(dot + 1) == fn_len &&
         !memcmp(dot + 1, fn, fn_len);
}

// The configured builder a definition is: function `fn` of module m, or (cls given) the method
// `fn` of class `cls` of module m.
const hg_builder *hg_project__configured(const hg_config *c, const hg_module *m, const char *cls, size_t cls_len,
                                    const char *fn, size_t fn_len) {
  for (size_t i = 0; i < c->n_builders; i++) {
    const hg_builder *b = &c->builders[i];
    if (!m->name || !hg_module_matches(m->name, strlen(m->name), b->module))
      continue;
    for (size_t k = 0; k < b->n_callables; k++)
      if (callable_is(b->callables[k], cls, cls_len, fn, fn_len))
        return b;
  }
  return NULL;
}

// The configured builder a qualified name stands for, when its definition is not in the project:
// module.function, or (method) module.Class, the class a receiver was made by, with method `attr`.
const hg_builder *hg_project__configured_by_name(const hg_config *c, const char *q, bool method, const char *attr,
                                            size_t attr_len) {
  size_t qn = strlen(q);
  for (size_t i = 0; i < c->n_builders; i++) {
    const hg_builder *b = &c->builders[i];
    for (size_t k = 0; k < b->n_callables; k++) {
      const char *callable = b->callables[k], *dot = strchr(callable, '.');
      if (method) {
        // Class.method: q is the class the receiver was made by (module.Class).
        if (!dot || strlen(dot + 1) != attr_len || memcmp(dot + 1, attr, attr_len))
          continue;
        size_t cn = (size_t)(dot - callable);
        if (qn > cn + 1 && q[qn - cn - 1] == '.' && !memcmp(q + qn - cn, callable, cn) &&
            hg_module_matches(q, qn - cn - 1, b->module))
          return b;
      } else {
        size_t cn = strlen(callable);
        if (!dot && qn > cn + 1 && q[qn - cn - 1] == '.' && !strcmp(q + qn - cn, callable) &&
            hg_module_matches(q, qn - cn - 1, b->module))
          return b;
      }
    }
  }
  return NULL;
}

// Is `attr` the method name of some configured Class.method builder?
const char *hg_project__configured_method(const hg_config *c, const char *attr, size_t len) {
  for (size_t i = 0; i < c->n_builders; i++)
    for (size_t k = 0; k < c->builders[i].n_callables; k++) {
      const char *callable = c->builders[i].callables[k], *dot = strchr(callable, '.');
      if (dot && strlen(dot + 1) == len && !memcmp(dot + 1, attr, len))
        return callable;
    }
  return NULL;
}
