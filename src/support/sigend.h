/*
 * support/sigend.h - the signals whose default action ends the process,
 * beside the usual ones every front door names (HUP, INT, QUIT, TERM, USR1,
 * USR2, ALRM, PIPE) and the crashes: the ones a handler that must clean up
 * (a save's temporary file, the terminal) easily forgets.
 */
#ifndef HETCAST_SIGEND_H
#define HETCAST_SIGEND_H

#define SIGEND_MAX 128   /* room enough for every signal number */

/* XCPU, VTALRM, PROF, and IO, PWR, STKFLT where the system has them, then
 * the real-time signals, into out (room for SIGEND_MAX); returns how many. */
int sigend_others(int out[SIGEND_MAX]);

#endif
