// Building one word of a command as the shell passes it: its text, its unknown parts, and the
// alternatives an environment's value or a default makes of it (expand.h).
#include <stdlib.h>
#include <string.h>

#include "surfaces/node.h"
#include "surfaces/shell/expand.h"

// ---- words ---------------------------------------------------------------------------------------

void hg_sh__put(word *w, const char *s, size_t n) {
  hg_buf_add(&w->text, s, n);
  w->open = true;
}

void hg_sh__hole(word *w, const char *origin, bool quoted) {
  hg_buf_putc(&w->text, HG_HOLE);
  w->open = true;
  if (!quoted)
    w->spread = true;
  if (!w->origin)
    w->origin = origin;
}

void hg_sh__finish(hg_sh *sh, word *w, TSNode arg, hg_value_vec *out) {
  if (!w->open)
    return;
  const char *t = w->text.data ? w->text.data : "";
  hg_value v = {
      .kind = HG_VAL_STR, .line = w->line ? w->line : ts_node_start_point(arg).row + 1, .conditional = w->conditional};
  if (w->env_var && w->env_at <= w->text.len) {
    // One of two words: the environment's value in the default's place, or the default.
    size_t len = w->env_done ? w->env_len : w->text.len - w->env_at;
    if (w->env_at + len > w->text.len)
      len = w->text.len - w->env_at;
    hg_value *arms = hg_arena_alloc(sh->arena, 2 * sizeof(hg_value));
    hg_buf env = {0};
    hg_buf_add(&env, t, w->env_at);
    hg_buf_putc(&env, HG_HOLE);
    hg_buf_add(&env, t + w->env_at + len, w->text.len - w->env_at - len);
    const char *origin =
        w->env_line
            ? hg_arena_printf(sh->arena, "$%s comes from the environment when it is set (line %u gives it only a default)",
                              w->env_var, w->env_line)
            : hg_arena_printf(sh->arena, "$%s is not assigned in the script: it comes from the environment", w->env_var);
    arms[0] = v;
    arms[0].text = hg_arena_strndup(sh->arena, env.data, env.len);
    arms[0].origin = origin;
    if (env.len == 1) {
      arms[0].kind = HG_VAL_UNKNOWN;
      arms[0].text = hg_sh__text(sh, arg);
      arms[0].splat = w->spread;
    }
    arms[0].cond = hg_arena_printf(sh->arena, "%s is set", w->env_var);
    hg_buf_free(&env);
    arms[1] = v;
    arms[1].text = hg_arena_strndup(sh->arena, t, w->text.len);
    arms[1].origin = w->origin;
    arms[1].cond = hg_arena_printf(sh->arena, "%s is unset", w->env_var);
    v.kind = HG_VAL_ALT;
    v.text = hg_sh__text(sh, arg);
    v.items = arms;
    v.n_items = 2;
  } else if (t[0] == HG_HOLE && t[1] == '\0') {
    v.kind = HG_VAL_UNKNOWN;
    v.text = hg_sh__text(sh, arg);
    v.origin = w->origin;
    v.splat = w->spread; // `$OPTS` unquoted may be several words, options among them; "$IMG" is one
  } else {
    v.text = hg_arena_strndup(sh->arena, t, w->text.len);
    v.origin = w->origin; // why its holes are unknown
  }
  HG_VEC_PUSH(out, v);
  w->text.len = 0;
  if (w->text.data)
    w->text.data[0] = '\0';
  w->open = false;
  w->origin = NULL;
  w->spread = false;
  w->conditional = false;
  w->line = 0;
  w->env_var = NULL;
  w->env_done = false;
  w->env_line = 0;
}

// Text the shell splits into fields (an unquoted expansion): blanks end the word being built. Each
// field is set on only some paths when the text is (`$HARDEN` assigned in one branch of an if), and
// comes from the line its text does (the assignment's).
void hg_sh__put_split(hg_sh *sh, word *w, const char *s, TSNode arg, hg_value_vec *out) {
  bool conditional = w->conditional;
  uint32_t line = w->line;
  for (const char *p = s; *p; p++) {
    if (*p == ' ' || *p == '\t' || *p == '\n') {
      hg_sh__finish(sh, w, arg, out);
      w->conditional = conditional;
      w->line = line;
    } else {
      hg_sh__put(w, p, 1);
    }
  }
}

// Backslash escapes: unquoted, `\c` is c; inside double quotes only before $ ` " \ and newline.
void hg_sh__put_unescaped(word *w, const char *s, size_t n, bool quoted) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\' && i + 1 < n && (!quoted || strchr("$`\"\\\n", s[i + 1]))) {
      i++;
      if (s[i] == '\n')
        continue; // a line continuation
    }
    hg_sh__put(w, s + i, 1);
  }
}
