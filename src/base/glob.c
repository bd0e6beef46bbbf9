#include "base/glob.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

// A glob pattern as tokens, so that matching is one pass per token over the path.
typedef enum {
  TOK_CHAR,     // c
  TOK_ANY,      // ?
  TOK_CLASS,    // [...]
  TOK_STAR,     // *
  TOK_SEGMENTS, // **/ (the config's dialect)
  TOK_REST,     // ** elsewhere (the config's dialect)
  TOK_NONE,     // a '\\' ending an fnmatch pattern: nothing matches it
} tok_kind;

typedef struct {
  tok_kind kind;
  char c;          // TOK_CHAR
  const char *cls; // TOK_CLASS: "[...]" in the pattern, for fnmatch
  size_t cls_len;
} glob_tok;

// The ']' closing the bracket expression that opens at p, read as fnmatch reads it (a ']' first
// is a member, `[:name:]`, `[.x.]` and `[=x=]` are members, `\x` is x), or NULL: it stays open.
static const char *fnmatch_bracket_end(const char *p) {
  p++;
  if (*p == '!' || *p == '^')
    p++;
  if (*p == ']')
    p++;
  for (; *p; p++) {
    if (*p == '\\') {
      if (!*++p)
        return NULL;
    } else if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
      const char *e = strstr(p + 2, p[1] == ':' ? ":]" : p[1] == '.' ? ".]" : "=]");
      if (!e)
        return NULL;
      p = e + 1;
    } else if (*p == ']') {
      return p;
    }
  }
  return NULL;
}

static size_t glob_tokens(const char *p, unsigned flags, glob_tok **out) {
  bool fnm = flags & HG_GLOB_FNMATCH;
  glob_tok *t = hg_xcalloc(strlen(p) + 1, sizeof(glob_tok));
  size_t n = 0;
  while (*p) {
    glob_tok *k = &t[n++];
    const char *end = *p != '[' ? NULL : fnm ? fnmatch_bracket_end(p) : strchr(p + 1, ']');
    if (!fnm && p[0] == '*' && p[1] == '*') {
      // "**/" is zero or more whole segments; "**" elsewhere, any run of characters.
      p += 2;
      k->kind = *p == '/' ? TOK_SEGMENTS : TOK_REST;
      if (*p == '/')
        p++;
    } else if (*p == '*') {
      k->kind = TOK_STAR;
      p++;
    } else if (*p == '?') {
      k->kind = TOK_ANY;
      p++;
    } else if (end) {
      k->kind = TOK_CLASS;
      k->cls = p;
      k->cls_len = (size_t)(end - p + 1);
      p = end + 1;
    } else if (fnm && *p == '\\') {
      k->kind = p[1] ? TOK_CHAR : TOK_NONE;
      k->c = p[1];
      p += p[1] ? 2 : 1;
    } else {
      k->kind = TOK_CHAR;
      k->c = *p++;
    }
  }
  *out = t;
  return n;
}

// Dynamic programming from the last token back: next[j] says whether the tokens after the
// current one match s + j, cur[j] whether the current one and those after it do. Time is
// tokens × length and memory two rows, whatever the pattern (a backtracking matcher takes
// exponential time on patterns like "*a*a*a*a*b").
static bool glob_whole(const glob_tok *t, size_t n, const char *s, unsigned flags) {
  size_t len = strlen(s);
  bool period = flags & HG_GLOB_FNMATCH;
  // Two rows of len + 1: on the stack for the names the walk tries on every file, else the heap.
  bool rows[2][256];
  bool *heap = len < 256 ? NULL : hg_xcalloc(2 * (len + 1), sizeof(bool));
  bool *next = heap ? heap : rows[0], *cur = heap ? heap + len + 1 : rows[1];
  memset(next, 0, len + 1);
  next[len] = true; // no tokens left: only the end of the path matches
  for (size_t i = n; i-- > 0;) {
    const glob_tok *k = &t[i];
    char cls[256];
    if (k->kind == TOK_CLASS) {
      size_t m = k->cls_len < sizeof(cls) - 1 ? k->cls_len : sizeof(cls) - 1;
      memcpy(cls, k->cls, m);
      cls[m] = '\0';
    }
    bool any = false;        // TOK_REST: does next[] hold at j or after?
    size_t slash = SIZE_MAX; // TOK_SEGMENTS: the first '/' at j or after
    for (size_t j = len + 1; j-- > 0;) {
      bool in_segment = j < len && s[j] != '/';
      // fnmatch's FNM_PERIOD: a '.' starting a segment is matched only by a '.' of the pattern;
      // a wildcard standing there fails, even one that would match nothing.
      bool hidden = period && j < len && s[j] == '.' && (j == 0 || s[j - 1] == '/');
      switch (k->kind) {
      case TOK_CHAR: cur[j] = j < len && s[j] == k->c && next[j + 1]; break;
      case TOK_ANY: cur[j] = in_segment && !hidden && next[j + 1]; break;
      case TOK_CLASS: {
        char one[2] = {j < len ? s[j] : '\0', '\0'};
        cur[j] = in_segment && !hidden && fnmatch(cls, one, 0) == 0 && next[j + 1];
        break;
      }
      case TOK_STAR: cur[j] = !hidden && (next[j] || (in_segment && cur[j + 1])); break;
      case TOK_REST:
        any = any || next[j];
        cur[j] = any;
        break;
      case TOK_SEGMENTS:
        if (j < len && s[j] == '/')
          slash = j;
        cur[j] = next[j] || (slash != SIZE_MAX && cur[slash + 1]);
        break;
      case TOK_NONE: cur[j] = false; break;
      }
    }
    bool *swap = next;
    next = cur;
    cur = swap;
  }
  bool ok = next[0];
  free(heap);
  return ok;
}

// In fnmatch's dialect, a pattern's leading characters up to its first wildcard, class or escape
// are tokens that each match themselves only, and so are its trailing ones after the last
// wildcard, bracket or escape: a string that does not start and end with them cannot match (the
// surfaces try their names on every file of a tree, and most fail here). Whether s may match.
static bool may_match_fnmatch(const char *pattern, const char *s) {
  size_t head = strcspn(pattern, "*?[\\"), plen = strlen(pattern), slen = strlen(s);
  if (head == plen)
    return head == slen && !memcmp(pattern, s, slen);
  size_t tail = 0;
  while (tail < plen - head && !strchr("*?[]\\", pattern[plen - 1 - tail]))
    tail++;
  return head + tail <= slen && !memcmp(pattern, s, head) && !memcmp(pattern + plen - tail, s + slen - tail, tail);
}

bool hg_glob(const char *pattern, const char *s, unsigned flags) {
  if ((flags & HG_GLOB_FNMATCH) && !may_match_fnmatch(pattern, s))
    return false;
  glob_tok *t;
  size_t n = glob_tokens(pattern, flags, &t);
  bool ok = glob_whole(t, n, s, flags);
  free(t);
  return ok;
}

bool hg_glob_match(const char *pattern, const char *path) {
  glob_tok *t;
  size_t n = glob_tokens(pattern, 0, &t);
  bool ok = glob_whole(t, n, path, 0);
  if (!ok && !strchr(pattern, '/')) {
    const char *base = strrchr(path, '/');
    ok = base && glob_whole(t, n, base + 1, 0);
  }
  free(t);
  return ok;
}
