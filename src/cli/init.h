/* `hardguard init [--module M] [--rules DIR] [DIR]`: its options, and the builder it writes. */
#ifndef HG_CLI_INIT_H
#define HG_CLI_INIT_H

#include <stdio.h>

/** Runs `init` with its own argv (argv[0] is "init"); returns the exit status. */
int hg_cli_init(int argc, char **argv, FILE *out, FILE *err);

#endif
