/*
 * main.c - hetcast's entry point: the command line lives in the core
 * (src/cli.c); this file only hands it the interactive view (term.c) and
 * the view's frame for `hetcast bench` (bench_view.c).
 */
#include "bench_view.h"
#include "cli.h"
#include "term.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv, term_view, &ui_bench_view);
}
