/* Rewriting a file as --fix does: atomically (a temporary file in the same directory, with the
 * old mode, synced, then renamed over it), and only when it is still what was read. */
#ifndef HG_FIX_WRITE_H
#define HG_FIX_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/** Is `path` inside directory `root` (both resolved through symbolic links)? */
bool hg_fix_inside(const char *path, const char *root);

/** Replaces `path` with `len` bytes of `text`, unless the file no longer is the one read: the same
 *  inode, size, modification time and bytes (`old`, `old_len`, `st` from when it was read). 0, or
 *  -1 with the reason in *why (heap), the file untouched and no temporary file left. */
int hg_fix_write(const char *path, const char *text, size_t len, const char *old, size_t old_len, const struct stat *st,
                 char **why);

#endif
