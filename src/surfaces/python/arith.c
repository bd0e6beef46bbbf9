// Arithmetic on known numbers, as Python computes it: `512 * 1024 * 1024`, `10**9`, `1 << 30`,
// `2 * GIB` where GIB is a known constant. Integers stay exact (a result past 64 bits is not
// known); a float operand or `/` gives a float. The result is a NUM whose text is the number
// Python would print, so the policy's regexes read it like a literal.
#include "surfaces/python/resolve_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  bool is_float;
  long long i;
  double f;
} number;

// A Python numeric literal (underscores, 0x/0o/0b, floats) or a folded result; false when it is
// none (a complex, or out of range).
static bool parse_number(const char *text, number *out) {
  char clean[128];
  size_t n = 0;
  bool neg = false;
  const char *p = text;
  while (*p == '-' || *p == '+' || *p == ' ') {
    if (*p == '-')
      neg = !neg;
    p++;
  }
  for (; *p && n + 1 < sizeof(clean); p++)
    if (*p != '_')
      clean[n++] = *p;
  if (*p || !n)
    return false;
  clean[n] = '\0';
  char *end;
  errno = 0;
  int base = 10;
  const char *digits = clean;
  if (clean[0] == '0' && (clean[1] == 'x' || clean[1] == 'X'))
    base = 16, digits = clean + 2;
  else if (clean[0] == '0' && (clean[1] == 'o' || clean[1] == 'O'))
    base = 8, digits = clean + 2;
  else if (clean[0] == '0' && (clean[1] == 'b' || clean[1] == 'B'))
    base = 2, digits = clean + 2;
  if (base != 10 || !strpbrk(clean, ".eEjJ") || (strpbrk(clean, "eE") && base == 16)) {
    unsigned long long u = strtoull(digits, &end, base);
    if (*end || errno || u > (unsigned long long)LLONG_MAX)
      return false;
    *out = (number){.i = neg ? -(long long)u : (long long)u};
    return true;
  }
  if (strpbrk(clean, "jJ"))
    return false;
  double d = strtod(clean, &end);
  if (*end || errno || !isfinite(d))
    return false;
  *out = (number){.is_float = true, .f = neg ? -d : d};
  return true;
}

static double as_double(number a) { return a.is_float ? a.f : (double)a.i; }

// a <op> b, or false when Python would raise or the result is not exact in 64 bits.
static bool apply(const char *op, number a, number b, number *out) {
  if (!strcmp(op, "int")) { // int(a): towards zero
    if (a.is_float && !(a.f > (double)LLONG_MIN && a.f < (double)LLONG_MAX))
      return false;
    *out = (number){.i = a.is_float ? (long long)a.f : a.i};
    return true;
  }
  if (!strcmp(op, "float")) {
    *out = (number){.is_float = true, .f = as_double(a)};
    return true;
  }
  bool fl = a.is_float || b.is_float;
  if (!strcmp(op, "/")) {
    if (as_double(b) == 0.0)
      return false;
    *out = (number){.is_float = true, .f = as_double(a) / as_double(b)};
    return true;
  }
  if (fl) {
    double x = as_double(a), y = as_double(b), r;
    if (!strcmp(op, "+"))
      r = x + y;
    else if (!strcmp(op, "-"))
      r = x - y;
    else if (!strcmp(op, "*"))
      r = x * y;
    else if (!strcmp(op, "**"))
      r = pow(x, y);
    else if (!strcmp(op, "//") && y != 0.0)
      r = floor(x / y);
    else
      return false;
    if (!isfinite(r))
      return false;
    *out = (number){.is_float = true, .f = r};
    return true;
  }
  long long x = a.i, y = b.i, r = 0;
  if (!strcmp(op, "+")) {
    if (__builtin_add_overflow(x, y, &r))
      return false;
  } else if (!strcmp(op, "-")) {
    if (__builtin_sub_overflow(x, y, &r))
      return false;
  } else if (!strcmp(op, "*")) {
    if (__builtin_mul_overflow(x, y, &r))
      return false;
  } else if (!strcmp(op, "**")) {
    if (y < 0 || y > 64)
      return false;
    r = 1;
    for (long long k = 0; k < y; k++)
      if (__builtin_mul_overflow(r, x, &r))
        return false;
  } else if (!strcmp(op, "//") || !strcmp(op, "%")) {
    if (y == 0 || (x == LLONG_MIN && y == -1))
      return false;
    long long q = x / y, m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) // Python floors
      q -= 1, m += y;
    r = op[0] == '/' ? q : m;
  } else if (!strcmp(op, "<<")) {
    if (y < 0 || y > 62 || x < 0 || x > (LLONG_MAX >> y))
      return false;
    r = x << y;
  } else if (!strcmp(op, ">>")) {
    if (y < 0)
      return false;
    r = y > 62 ? (x < 0 ? -1 : 0) : x >> y;
  } else if (!strcmp(op, "&")) {
    r = x & y;
  } else if (!strcmp(op, "|")) {
    r = x | y;
  } else if (!strcmp(op, "^")) {
    r = x ^ y;
  } else {
    return false;
  }
  *out = (number){.i = r};
  return true;
}

bool hg_resolve__arith(const hg_resolver *self, const char *op, const hg_value *l, const hg_value *r, hg_value *out) {
  number a, b, c;
  if (l->kind != HG_VAL_NUM || r->kind != HG_VAL_NUM || l->conditional || r->conditional ||
      !parse_number(l->text, &a) || !parse_number(r->text, &b) || !apply(op, a, b, &c))
    return false;
  char text[64];
  if (c.is_float)
    snprintf(text, sizeof(text), "%.17g", c.f);
  else
    snprintf(text, sizeof(text), "%lld", c.i);
  if (c.is_float && !strpbrk(text, ".en"))
    strcat(text, ".0"); // Python writes a float with its point
  out->kind = HG_VAL_NUM;
  out->text = hg_arena_strndup(self->arena, text, strlen(text));
  return true;
}
