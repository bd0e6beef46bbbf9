/* The command line: argv into options (options.c), the run (cli.c), --list-rules and --explain
 * (info.c), init (init.c). The only module that prints operational errors and picks the exit
 * status: 0 clean, 1 failing sites, 2 could not check (usage, configuration or rule errors,
 * unreadable input). */
#ifndef HG_CLI_H
#define HG_CLI_H

#include <stdio.h>

enum { HG_EXIT_CLEAN = 0, HG_EXIT_FINDINGS = 1, HG_EXIT_ERROR = 2 };

/** Runs hardguard with argv, writing to out and err; returns the exit status (HG_EXIT_ERROR, with a
 *  message on err, when out could not be written in full). */
int hg_cli_main(int argc, char **argv, FILE *out, FILE *err);

/** Only parses argv as hg_cli_main would (usage errors go to err); runs nothing and keeps nothing.
 *  Returns 0 when the arguments are valid, HG_EXIT_ERROR when not. For tests and fuzzing. */
int hg_cli_parse(int argc, char **argv, FILE *err);

#endif
