/*
 * support/sigend.h - the signals whose default action ends the process,
 * beside the usual ones every front door names (HUP, INT, QUIT, TERM, USR1,
 * USR2, ALRM, PIPE) and the crashes: the ones a handler that must clean up
 * (a save's temporary file, the terminal) easily forgets; and the handler
 * of the front doors that have no terminal to restore.
 */
#ifndef HETCAST_SIGEND_H
#define HETCAST_SIGEND_H

#define SIGEND_MAX 128   /* room enough for every signal number */

/* XCPU, VTALRM, PROF, and IO, PWR, STKFLT where the system has them, then
 * the real-time signals, into out (room for SIGEND_MAX); returns how many. */
int sigend_others(int out[SIGEND_MAX]);

/*
 * Every signal sent from outside whose default action ends the process (HUP,
 * INT, QUIT, TERM, USR1, USR2, ALRM, PIPE and sigend_others) first calls
 * cleanup (it must be async-signal-safe, as atomic_remove_pending is), then
 * ends the process as its default would (same status, same core file).  A
 * signal ignored at start (nohup, a background job) stays ignored.  The
 * front doors' main() calls it first (app/main.c, app/mpi/main.c).
 */
void sigend_catch(void (*cleanup)(void));

#endif
