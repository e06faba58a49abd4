/*
 * app/mpi/common.c - the ranks' names, the watchdog, idle and precise waits,
 * and clock alignment for hetcast-mpi (app/mpi/common.h).
 */
#define _GNU_SOURCE   /* sched_getaffinity(), cpu_set_t */
#include "app/mpi/common.h"

#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "support/atomic.h"
#include "support/diag.h"
#include "app/opts.h"

bool hm_launched(void)
{
    /* Open MPI, PMIx (Open MPI 4, Slurm), MPICH's Hydra and Slurm's PMI. */
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                                       "PMI_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

void hm_say(const struct hm *h, bool all, const char *fmt, ...)
{
    if (h && !all && h->rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    opts_say("hetcast-mpi", buf);
}

void hm_init(struct hm *h, double timeout)
{
    memset(h, 0, sizeof *h);
    h->timeout = timeout;
    MPI_Comm_rank(MPI_COMM_WORLD, &h->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &h->size);
    char host[HM_NAME] = {0};
    int len = 0;
    MPI_Get_processor_name(host, &len);
    host[HM_NAME - 1] = '\0';
    if (!host[0])
        snprintf(host, sizeof host, "rank%d", h->rank);
    h->hosts = xcalloc((size_t)h->size, sizeof *h->hosts);
    h->names = xcalloc((size_t)h->size, sizeof *h->names);
    h->host_of = xcalloc((size_t)h->size, sizeof *h->host_of);
    MPI_Allgather(host, HM_NAME, MPI_CHAR, h->hosts, HM_NAME, MPI_CHAR, MPI_COMM_WORLD);
    for (int i = 0; i < h->size; i++) {
        h->host_of[i] = i;
        for (int j = 0; j < i; j++)
            if (strcmp(h->hosts[i], h->hosts[j]) == 0) {
                h->host_of[i] = h->host_of[j];
                break;
            }
        h->nhosts += h->host_of[i] == i;
    }
    for (int i = 0; i < h->size; i++) {
        bool shared = false;
        for (int j = 0; j < h->size && !shared; j++)
            shared = j != i && h->host_of[j] == h->host_of[i];
        if (shared)
            snprintf(h->names[i], HM_NAME, "%.200s:%d", h->hosts[i], i);
        else
            snprintf(h->names[i], HM_NAME, "%s", h->hosts[i]);
    }
}

void hm_free(struct hm *h)
{
    free(h->names);
    free(h->hosts);
    free(h->host_of);
}

/* The watchdog's message, written before it is armed (a signal handler may
 * only write). */
static char watchdog_msg[512];
static size_t watchdog_len;

static void watchdog_fire(int sig)
{
    (void)sig;
    atomic_remove_pending();   /* an output being written: its temporary file */
    ssize_t w = write(STDERR_FILENO, watchdog_msg, watchdog_len);
    (void)w;
    _exit(1);
}

static void watchdog_arm(double s)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watchdog_fire;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {(time_t)s, (suseconds_t)((s - floor(s)) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
}

void hm_watchdog_start(double s)
{
    int n = snprintf(watchdog_msg, sizeof watchdog_msg,
                     "hetcast-mpi: MPI did not start within %.0f s (a rank that never came, or "
                     "a launcher that hangs)\n", ceil(s));
    watchdog_len = n < 0 ? 0 : (size_t)n < sizeof watchdog_msg ? (size_t)n : sizeof watchdog_msg - 1;
    watchdog_arm(s);
}

void hm_watchdog(const struct hm *h, const char *what, double extra)
{
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    if (!what)
        return;
    double s = h->timeout + extra;
    if (!(s <= HM_WATCHDOG_MAX))   /* NaN too: a timer that fires */
        s = HM_WATCHDOG_MAX;
    /* the name is a host name: printed as opts_say would, without control bytes */
    char name[HM_NAME];
    size_t k = 0;
    for (const char *p = h->names[h->rank]; *p && k + 1 < sizeof name; p++)
        name[k++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
    name[k] = '\0';
    int n = snprintf(watchdog_msg, sizeof watchdog_msg,
                     "hetcast-mpi: rank %d (%s): %s did not finish within %.0f s (a rank died or "
                     "hangs; --timeout S gives more time)\n", h->rank, name, what, ceil(s));
    watchdog_len = n < 0 ? 0 : (size_t)n < sizeof watchdog_msg ? (size_t)n : sizeof watchdog_msg - 1;
    watchdog_arm(s);
}

static void sleep_for(double s)
{
    if (s <= 0)
        return;
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&ts, NULL);   /* EINTR: the caller looks at the clock again */
}

void hm_idle_wait(MPI_Request *rq)
{
    for (;;) {
        int done = 0;
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        sleep_for(200e-6);
    }
}

void hm_idle_barrier(void)
{
    MPI_Request rq;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
}

#define HM_SPIN_LAST 1e-3   /* spin the last millisecond of a wait (a sleep overshoots) */

void hm_wait_until(double t)
{
    for (;;) {
        double left = t - MPI_Wtime();
        if (left <= 0)
            return;
        if (left > HM_SPIN_LAST)
            sleep_for(left - HM_SPIN_LAST);
    }
}

void hm_align_clocks(int rounds, double *offset, double *rtt)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *offset = 0;
    *rtt = 0;
    /* One rank at a time, so that rank 0 answers at once; the others sleep. */
    for (int k = 1; k < size; k++) {
        if (rank == 0) {
            for (int i = 0; i < rounds; i++) {
                double t;
                MPI_Recv(&t, 1, MPI_DOUBLE, k, HM_TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t = MPI_Wtime();
                MPI_Send(&t, 1, MPI_DOUBLE, k, HM_TAG_CTRL, MPI_COMM_WORLD);
            }
        } else if (rank == k) {
            double best = INFINITY;
            for (int i = 0; i < rounds; i++) {
                double t1 = MPI_Wtime(), t0;
                MPI_Send(&t1, 1, MPI_DOUBLE, 0, HM_TAG_CTRL, MPI_COMM_WORLD);
                MPI_Recv(&t0, 1, MPI_DOUBLE, 0, HM_TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double t2 = MPI_Wtime();
                if (t2 - t1 < best) {
                    best = t2 - t1;
                    *offset = t0 + best / 2 - t2;
                }
            }
            *rtt = best;
        }
        hm_idle_barrier();
    }
}

/* One argument as the shell reads it: as it is when it is plain, else in
 * single quotes. */
static void put_arg(char **out, size_t *len, size_t *cap, const char *a)
{
    bool plain = *a != '\0';
    for (const char *p = a; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@",
                       *p) != NULL;
    size_t need = strlen(a) * 4 + 4;
    if (*len + need + 1 > *cap) {
        *cap = (*len + need + 1) * 2;
        char *grown = xmalloc(*cap);
        memcpy(grown, *out, *len + 1);
        free(*out);
        *out = grown;
    }
    char *w = *out + *len;
    if (*len)
        *w++ = ' ';
    if (plain) {
        w += sprintf(w, "%s", a);
    } else {
        *w++ = '\'';
        for (const char *p = a; *p; p++) {
            if (*p == '\'') {
                memcpy(w, "'\\''", 4);
                w += 4;
            } else {
                *w++ = *p;
            }
        }
        *w++ = '\'';
        *w = '\0';
    }
    *len = (size_t)(w - *out);
}

char *hm_mpirun_command(int np, int argc, char **argv)
{
    size_t len = 0, cap = 256;
    char *out = xmalloc(cap);
    out[0] = '\0';
    put_arg(&out, &len, &cap, "mpirun");
    if (geteuid() == 0)
        put_arg(&out, &len, &cap, "--allow-run-as-root");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0 && np > cores)
        put_arg(&out, &len, &cap, "--oversubscribe");
    char n[32];
    snprintf(n, sizeof n, "%d", np);
    put_arg(&out, &len, &cap, "-n");
    put_arg(&out, &len, &cap, n);
    for (int i = 0; i < argc; i++)
        put_arg(&out, &len, &cap, argv[i]);
    return out;
}

bool hm_cpus_get(struct hm_cpus *c)
{
    cpu_set_t set;
    c->n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return false;
    for (int cpu = 0; cpu < CPU_SETSIZE && c->n < HM_MAX_CPUS; cpu++)
        if (CPU_ISSET(cpu, &set))
            c->cpu[c->n++] = cpu;
    return c->n > 0;
}

int hm_cpus_count(const struct hm_cpus *c)
{
    return c->n;
}

/* Run on the CPUs cpu[0 .. n). */
static void run_on(const int *cpu, int n)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int k = 0; k < n; k++)
        if (cpu[k] < CPU_SETSIZE)
            CPU_SET(cpu[k], &set);
    sched_setaffinity(0, sizeof set, &set);
}

void hm_cpus_set(const struct hm_cpus *c)
{
    run_on(c->cpu, c->n);
}

void hm_cpus_pin(const struct hm_cpus *c, int k)
{
    if (k >= 0 && k < c->n)
        run_on(&c->cpu[k], 1);
}
