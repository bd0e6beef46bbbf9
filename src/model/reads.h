/* The reading modes: how a site's options are read (a pattern's `(#set! hardguard.reads "...")`,
 * a YAML rule's `reads:`). One table holds, per mode, its name, the shape its options are judged
 * in and whether the site itself carries options; the policy (which modes a dialect may read),
 * the rule loader (which capture holds the options, whether a site needs a dialect), the checker
 * and the verdict all read it. */
#ifndef HG_READS_H
#define HG_READS_H

#include <stdbool.h>

/** How a site's flags are read: set per pattern by `(#set! hardguard.reads "...")`. */
typedef enum {
  HG_READS_KWARGS,  // docker-py keywords in @args (an argument_list)
  HG_READS_ARGV,    // an argv list or tuple in @argv
  HG_READS_SHELL,   // a shell command string in @command
  HG_READS_COMMAND, // a command of a shell script (@site): its words, read by src/surfaces/shell/
  HG_READS_SCRIPT,  // shell code embedded in another surface's file (@site): its sites come from the shell rules
  HG_READS_CLIENT,  // a client: no flags, judged by the module's imports
  HG_READS_OPAQUE,  // code run at run time (exec, eval): nothing to read, never verifiable
  HG_READS_COMPOSE, // a compose service (reported at its key): its mapping, from src/surfaces/compose/service.h
  HG_READS_BODY,    // a mapping in @body: the Engine API's create body (aiodocker's config, a request's json=)
  HG_READS_COUNT,
} hg_reads;

/** How a dialect's options are judged, from the reading modes it serves (hg_readings). */
typedef enum {
  HG_SHAPE_KEYWORDS, // Python keywords (kwargs)
  HG_SHAPE_FLAGS,    // command-line words (argv, shell, command, script)
  HG_SHAPE_MAPPING,  // a mapping whose names are dotted paths (compose, body)
} hg_shape;

typedef struct {
  const char *name;    // as rules and the policy write it
  int shape;           // the hg_shape its options are judged in (a dialect that reads it has it); -1: none
  bool options;        // the site itself carries options to judge; a script does not: the commands in it
                       // do (in the flags shape), as sites of their own
  const char *capture; // the capture holding the options in a tree-sitter pattern (NULL: @site, or none)
  bool yaml;           // messages and fix hints write its options as YAML (`cap_drop: [ALL]`)
} hg_reading;

extern const hg_reading hg_readings[HG_READS_COUNT];

/** The mode named `name`, or -1. */
int hg_reads_by_name(const char *name);
/** The name of mode `reads`, or NULL. */
const char *hg_reads_name(int reads);

#endif
