/* Splitting a shell command string into words, as /bin/sh would for a simple command: quotes,
 * backslashes, and the end of the command at an unquoted ; & | or newline. Pure. */
#ifndef HG_ARGV_H
#define HG_ARGV_H

#include <stddef.h>

typedef struct {
  char **items;  // heap strings
  size_t len, cap;
} hg_argv_words;

/** Appends the words of the first simple command in `s` to out. HG_HOLE bytes pass through. */
void hg_argv_split(hg_argv_words *out, const char *s);
void hg_argv_words_free(hg_argv_words *self);

#endif
