/*
 * main.c - hetcast's entry point: the command line (cli.c) with the
 * interactive view (ui/term.c) and the view's frame for `hetcast bench`
 * (ui/bench_view.c) handed in.
 */
#include "app/bench_view.h"
#include "app/cli.h"
#include "ui/term.h"

int main(int argc, char **argv)
{
    cli_lesson_view = term_lesson;
    return cli_main(argc, argv, term_view, &ui_bench_view);
}
