/*
 * app/cli.h - the command line of SPEC §6 (docs/cli.md): `hetcast [FILE]`,
 * run, compare, lesson, experiment, bench.  main.c hands in the front ends
 * it links (the view, ui/) and cli_main dispatches to the command argv[1]
 * names (cli.c's table).  Exit status: 0 success, 1 runtime failure, 2 bad
 * usage or bad input.
 */
#ifndef HETCAST_CLI_H
#define HETCAST_CLI_H

#include "app/cli_common.h"

/* Run the command argv names with the front ends views holds (a member NULL:
 * none in this build); returns the exit status. */
int cli_main(int argc, char **argv, const struct cli_views *views);

#endif
