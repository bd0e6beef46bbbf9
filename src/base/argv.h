/* Splitting a shell command string into words, as /bin/sh would for a simple command: quotes,
 * backslashes, and the end of the command at an unquoted ; & | or newline. Pure. */
#ifndef HG_ARGV_H
#define HG_ARGV_H

#include <stddef.h>

#include "base/util.h"

typedef hg_strvec hg_argv_words;  // heap strings

/** Appends the words of the first simple command in `s` to out. HG_HOLE bytes pass through. */
void hg_argv_split(hg_argv_words *out, const char *s);

#endif
