/* Splitting a shell command string into words, as /bin/sh would for a simple command: quotes,
 * backslashes, comments (`#` starting a word, to the end of the line), and the end of the command
 * at an unquoted ; & | or newline. Pure. */
#ifndef HG_ARGV_H
#define HG_ARGV_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

typedef hg_strvec hg_argv_words;  // heap strings

/** Appends the words of the first simple command in `s` to out. HG_HOLE bytes pass through. */
void hg_argv_split(hg_argv_words *out, const char *s);

/** The same, returning where the command ended: at its unquoted ; & | or newline, or at the NUL.
 *  *closed (when not NULL) is false when a quote was left open (the rest was taken as one word). */
const char *hg_argv_split_next(hg_argv_words *out, const char *s, bool *closed);

#endif
