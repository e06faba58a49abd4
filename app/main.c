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
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "app/bench_view.h"
#include "app/cli.h"
#include "support/atomic.h"
#include "support/sigend.h"
#include "ui/term.h"

static void on_ending(int sig)
{
    atomic_remove_pending();
    raise(sig);   /* SA_RESETHAND put the default back; SA_NODEFER lets it strike now */
}

/* on_ending for sig, unless sig was ignored at start. */
static void catch_ending(int sig)
{
    struct sigaction sa, was;
    if (sigaction(sig, NULL, &was) != 0 || was.sa_handler == SIG_IGN)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_ending;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = (int)(SA_RESETHAND | SA_NODEFER);
    sigaction(sig, &sa, NULL);
}

static void catch_endings(void)
{
    static const int usual[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};
    for (size_t i = 0; i < sizeof usual / sizeof usual[0]; i++)
        catch_ending(usual[i]);
    int others[SIGEND_MAX];
    int n = sigend_others(others);
    for (int i = 0; i < n; i++)
        catch_ending(others[i]);
}

int main(int argc, char **argv)
{
    catch_endings();
    const struct cli_views views = {term_view, term_lesson, &ui_bench_view, term_join};
    return cli_main(argc, argv, &views);
}
