/*
 * support/sigend.c - the less usual signals whose default action ends the
 * process (support/sigend.h): one list for app/main.c's and ui/term.c's
 * handlers, and the handler of the front doors without a terminal.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "support/sigend.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>

int sigend_others(int out[SIGEND_MAX])
{
    static const int sigs[] = {
        SIGXCPU, SIGVTALRM, SIGPROF,
#ifdef SIGIO
        SIGIO,
#endif
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    int n = 0;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        out[n++] = sigs[i];
#ifdef SIGRTMIN
    for (int sig = SIGRTMIN; sig <= SIGRTMAX && n < SIGEND_MAX; sig++)
        out[n++] = sig;
#endif
    return n;
}

static void (*ending_cleanup)(void);

static void on_ending(int sig)
{
    if (ending_cleanup)
        ending_cleanup();
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

void sigend_catch(void (*cleanup)(void))
{
    ending_cleanup = cleanup;
    static const int usual[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};
    for (size_t i = 0; i < sizeof usual / sizeof usual[0]; i++)
        catch_ending(usual[i]);
    int others[SIGEND_MAX];
    int n = sigend_others(others);
    for (int i = 0; i < n; i++)
        catch_ending(others[i]);
}
