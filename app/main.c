/*
 * main.c - hetcast's entry point: the command line (cli.c) with the
 * interactive view and the lesson's view (ui/term.c) and the view's frame
 * for `hetcast bench` (app/bench_view.c) handed in.
 */
#include "app/bench_view.h"
#include "app/cli.h"
#include "ui/term.h"

int main(int argc, char **argv)
{
    const struct cli_views views = {term_view, term_lesson, &ui_bench_view};
    return cli_main(argc, argv, &views);
}
