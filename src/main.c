#include "cli/cli.h"

int main(int argc, char **argv) { return hg_cli_main(argc, argv, stdout, stderr); }
