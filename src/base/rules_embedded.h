/* The files under rules/, compiled into the binary by tools/embed.cmake. */
#ifndef HG_RULES_EMBEDDED_H
#define HG_RULES_EMBEDDED_H

#include <stddef.h>

typedef struct {
  const char *path;  // relative to rules/, e.g. "python/sdk-run.scm"; NULL ends the table
  const char *data;
  size_t len;
} hg_embedded_file;

extern const hg_embedded_file hg_embedded_rules[];

#endif
