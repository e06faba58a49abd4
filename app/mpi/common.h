/*
 * app/mpi/common.h - what both commands of hetcast-mpi share (docs/mpi.md): the
 * ranks' names, waits that never hang (a watchdog on every phase, and idle
 * waits that sleep instead of spinning), clocks aligned to rank 0 by
 * Cristian's method, and precise waits for emulated costs.
 *
 * The only files of hetcast that include <mpi.h> are app/mpi_*.c: the core
 * (src/) knows nothing of MPI, and hetcast-mpi loads and schedules through
 * the session layer exactly as `hetcast run` does.
 */
#ifndef HETCAST_MPI_COMMON_H
#define HETCAST_MPI_COMMON_H

#include <stdbool.h>

#include <mpi.h>

#define HM_NAME 256          /* a rank's name: host, or host:rank */
#define HM_TAG_DATA 1        /* a transfer's message */
#define HM_TAG_ACK 2         /* sync, one-port: the receive has ended */
#define HM_TAG_CTRL 3        /* calibration's handshakes, clock alignment */
#define HM_MAX_SECONDS 86400.0   /* a day: the longest --timeout, --time-limit, and
                                    schedule (makespan times --unit-ms) */
#define HM_WATCHDOG_MAX (8 * HM_MAX_SECONDS)   /* a phase's watchdog never waits longer */

/* This process in the job. */
struct hm {
    int rank, size;
    char (*names)[HM_NAME];  /* every rank's node name (host, or host:rank where a host
                                runs several ranks) */
    char (*hosts)[HM_NAME];  /* every rank's host name */
    int *host_of;            /* rank -> index of its host (first rank of that host) */
    int nhosts;
    double timeout;          /* seconds a phase may take before the watchdog ends the job */
};

/* Launched by mpirun (Open MPI, MPICH, ...)?  Read from the environment,
 * before MPI_Init, so that a direct start can say what to run instead. */
bool hm_launched(void);

/* "hetcast-mpi: text" on standard error (opts_say), rank 0 only unless all. */
void hm_say(const struct hm *h, bool all, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* After MPI_Init: rank, size, and every rank's host and node name (collective). */
void hm_init(struct hm *h, double timeout);
void hm_free(struct hm *h);

/*
 * The watchdog: from now, a phase named what has h->timeout + extra seconds;
 * past that, this rank prints "hetcast-mpi: rank R (NAME): WHAT did not
 * finish within S s (a rank died or hangs)" and exits with status 1, and
 * mpirun ends the others.  hm_watchdog(NULL, 0) disarms it.  S is at most
 * HM_WATCHDOG_MAX, whatever timeout + extra come to (so that it always fires).
 */
void hm_watchdog(const struct hm *h, const char *what, double extra);

/* Before MPI_Init: a start that does not finish within s seconds (a rank
 * that never comes) ends this rank with one message and status 1. */
void hm_watchdog_start(double s);

/* Wait for rq without spinning (MPI_Test, then 200 us sleeps): for ranks
 * that only wait for others, so that they leave the cores to the ranks
 * that measure.  Covered by the watchdog. */
void hm_idle_wait(MPI_Request *rq);
/* A barrier that sleeps while it waits (MPI_Ibarrier + hm_idle_wait). */
void hm_idle_barrier(void);

/* Sleep or spin until MPI_Wtime() >= t: sleep until 1 ms before, then spin. */
void hm_wait_until(double t);

/*
 * Cristian's method: each rank asks rank 0 for its clock `rounds` times and
 * keeps the exchange with the shortest round trip.  *offset: add it to this
 * rank's MPI_Wtime() to get rank 0's; *rtt: that shortest round trip
 * (rank 0: 0); the alignment is right to within rtt / 2.  Collective.
 */
void hm_align_clocks(int rounds, double *offset, double *rtt);

/* The CPUs this process may run on (its affinity), by number. */
#define HM_MAX_CPUS 1024
struct hm_cpus {
    int n;
    int cpu[HM_MAX_CPUS];
};
bool hm_cpus_get(struct hm_cpus *c);
int hm_cpus_count(const struct hm_cpus *c);
void hm_cpus_set(const struct hm_cpus *c);
/* Run on the k-th CPU of c only. */
void hm_cpus_pin(const struct hm_cpus *c, int k);

/* The command to start args under mpirun with np ranks, as the shell reads it
 * (--allow-run-as-root as root, --oversubscribe above the core count). */
char *hm_mpirun_command(int np, int argc, char **argv);

#endif
