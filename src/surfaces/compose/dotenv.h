/* The `.env` file beside a compose file, which docker compose reads for interpolation: a value
 * the environment does not set comes from there before any `${VAR:-default}` default. Read in
 * compose's dotenv syntax (docs/sites.md): `NAME=value` lines, `export ` allowed, `#` comments,
 * single quotes literal, double quotes with \n, \\ and \" escapes, an unquoted value up to ` #`.
 * A value that itself interpolates (`$`) is not kept: that variable stays the environment's. */
#ifndef HG_COMPOSE_DOTENV_H
#define HG_COMPOSE_DOTENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/table.h"
#include "base/util.h"

/** A .env file larger than this is not read (its variables stay unknown). */
#define HG_DOTENV_MAX_BYTES ((size_t)1 << 20)

typedef struct hg_dotenv {
  const char *path; // the file, for messages (NULL: none read)
  size_t n;
  const char **names; // in the arena; a later line of the same name wins
  const char **values;
  uint32_t *lines;
  hg_table index; // name -> its last line's index
} hg_dotenv;

/** Parses dotenv text[0..len) into `out` (in `arena`). */
void hg_dotenv_parse(hg_dotenv *out, hg_arena *arena, const char *text, size_t len, const char *path);

/** Reads the `.env` beside `compose_path` (absent, unreadable or too large: empty). */
void hg_dotenv_load(hg_dotenv *out, hg_arena *arena, const char *compose_path);

/** The value the file gives `name` (len bytes), *line its line; NULL when it gives none. */
const char *hg_dotenv_get(const hg_dotenv *self, const char *name, size_t len, uint32_t *line);

#endif
