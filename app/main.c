/*
 * main.c - hetcast's entry point: the command line (cli.c) with the
 * interactive view and the lesson's view (ui/term.c) and the view's frame
 * for `hetcast bench` (app/bench_view.c) handed in.
 *
 * Every signal sent from outside whose default action ends the process
 * (signal(7): HUP, INT, QUIT, TERM, USR1, USR2, ALRM, PIPE, XCPU, VTALRM,
 * PROF, IO, PWR, STKFLT and the real-time ones) first removes the
 * temporary file of a save in progress (support/atomic.h), then ends the
 * process as its default would (same status, same core file).  A signal
 * ignored at start (nohup, a background job) stays ignored.  The view puts
 * its own handlers on top (ui/term.c) and removes the temporary the same
 * way.  The crash signals (SEGV, ABRT ...) are left to the default and to
 * the sanitizers.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "app/bench_view.h"
#include "app/cli.h"
#include "support/atomic.h"
#include "support/sigend.h"
#include "ui/join.h"
#include "ui/term.h"

int main(int argc, char **argv)
{
    sigend_catch(atomic_remove_pending);
    const struct cli_views views = {term_view, term_lesson, &ui_bench_view, join_run};
    return cli_main(argc, argv, &views);
}
