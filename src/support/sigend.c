/*
 * support/sigend.c - the less usual signals whose default action ends the
 * process (support/sigend.h): one list for app/main.c's and ui/term.c's
 * handlers.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "support/sigend.h"

#include <signal.h>

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
