#include "fix/cmdline.h"

#include <string.h>

static const char *base_name(const char *s) {
  const char *slash = strrchr(s, '/');
  return slash ? slash + 1 : s;
}

// Does option word `w` (starting with '-') take the next word as its value?
static bool takes_next(const hg_policy *p, const char *w) {
  if (w[1] == '-')
    return !strchr(w, '=') && !hg_policy_is_boolean_flag(p, w);
  // A cluster -abc: booleans until one takes a value, which takes the rest or the next word.
  for (const char *c = w + 1; *c; c++) {
    char one[3] = {'-', *c, 0};
    if (!hg_policy_is_boolean_flag(p, one))
      return c[1] == '\0';
  }
  return false;
}

int hg_fix_image_word(const hg_policy *p, const char *const *words, const char *const *shown, const bool *spread,
                      size_t n, hg_buf *why) {
  enum { PROGRAM, SUBCOMMAND, OPTIONS } state = PROGRAM;
  // Wrappers, read by their grammar (`timeout "$1" docker run`): the program follows them, a name
  // or expression too (`$ENGINE run`, which the surface took for a site).
  size_t first = hg_policy_skip_wrappers(p, words, n);
  if (first > 0 && first < n && (!words[first] || hg_policy_is_program(p, base_name(words[first])))) {
    state = SUBCOMMAND;
    first++;
  } else if (first == 0 && n > 1 && !words[0] && words[1] &&
             (hg_policy_is_subcommand(p, words[1]) || words[1][0] == '-')) {
    state = SUBCOMMAND; // `$ENGINE run ...`
    first = 1;
  } else {
    first = 0;
  }
  for (size_t i = first; i < n; i++) {
    const char *w = words[i];
    if (spread[i] && state != PROGRAM) {
      hg_buf_printf(why, "`%s` stands where the options are, so the image cannot be told", shown[i]);
      return -1;
    }
    if (state == OPTIONS && !w)
      return (int)i; // a name or expression where an option could stand: the image
    if (!w) {
      hg_buf_printf(why, "`%s` stands before the subcommand, so the command line cannot be read", shown[i]);
      return -1;
    }
    if (state == PROGRAM) {
      if (hg_policy_is_program(p, base_name(w)))
        state = SUBCOMMAND;
    } else if (state == SUBCOMMAND) {
      if (hg_policy_is_verb(p, w))
        state = OPTIONS;
      else if (w[0] == '-' && hg_policy_is_global_value_flag(p, w) && !strchr(w, '='))
        i++; // its value
    } else if (!strcmp(w, "--")) {
      if (i + 1 < n)
        return (int)i + 1;
      break;
    } else if (w[0] == '-' && w[1]) {
      if (takes_next(p, w))
        i++;
    } else {
      return (int)i;
    }
  }
  hg_buf_puts(why, "the command line names no image");
  return -1;
}
