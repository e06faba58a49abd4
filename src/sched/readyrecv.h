/*
 * sched/readyrecv.h - Liu, Wang & Guo's ready-to-receive time (§2.3, §4.1):
 * a broadcast with no idle sender (their Theorem 1) is a sequence of
 * receivers; p_i becomes *ready to receive* R(p_i) when the i-th send of the
 * broadcast leaves its sender (their equation (1)), ready to send at
 * R(p_i) + L + r(p_i).  The *final ready-to-receive time* TR(P) is
 * R(p_{n-1}), the quantity of their Theorems 2 and 3:
 *   Theorem 2  FNF gives the smallest TR on a power-2 cluster (every send
 *              and receive time a power of 2, speeds consistent);
 *   Theorem 3  on any consistent cluster FNF's TR is at most twice the
 *              smallest, through the transform of every time to the next
 *              power of 2 (rr_power2).
 * Node tables in the async model only: the times are the engine's (a send's
 * end is R of its receiver), so the arithmetic stays in model/timing.h.
 */
#ifndef HETCAST_READYRECV_H
#define HETCAST_READYRECV_H

#include "model/cluster.h"

#define RR_MAX_NODES 10   /* rr_optimal tries every sequence: refused above */

/* TR of the no-delay broadcast whose receivers come in order[0..len-1]
 * (every node but the source once): each goes to the holder whose next
 * send ends first.  0, or -1 with *cause. */
int rr_sequence(const struct cluster *c, const int *order, int len, double *tr, char **cause);

/* TR of fnf (its own scheduler, run on the engine).  0 or -1 with *cause. */
int rr_fnf(const struct cluster *c, double *tr, char **cause);

/* The smallest TR over every sequence (identical nodes tried once per
 * place), and how many sequences were run.  At most RR_MAX_NODES nodes.
 * 0 or -1 with *cause. */
int rr_optimal(const struct cluster *c, double *tr, long *sequences, char **cause);

/* Theorem 3's transform: a copy of c with every send and receive time
 * raised to the smallest power of 2 at least as large (0 stays 0). */
struct cluster *rr_power2(const struct cluster *c);

#endif
