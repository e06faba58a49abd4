/*
 * app/mpi/measure.c - the measuring of `hetcast-mpi calibrate`
 * (app/mpi/measure.h): every pair of ranks at one message size, one pair at
 * a time while the others sleep, and the checks and saving of the cluster
 * that both calibrate at one size (app/mpi/calibrate.c) and its sweep over
 * sizes (app/mpi/sizes.c) use.  What is measured and how: calibrate.c's
 * opening comment and docs/mpi.md, "Calibrating".
 */
#include "app/mpi/measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/atomic.h"
#include "support/diag.h"
#include "app/opts.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double cal_median(double *v, int n)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void spin_for(double s)
{
    double end = MPI_Wtime() + s;
    while (MPI_Wtime() < end)
        ;
}

#define CAL_ARRAYS 4

/*
 * Ranks p < q measure their pair at `size` bytes; the others return.  The
 * results go to this rank's rows of m (rank 0 gathers them afterwards).
 */
static void measure_pair(int me, int p, int q, long size, int iters, char *buf, double tick,
                         int n, struct cal_meas *m)
{
    MPI_Comm w = MPI_COMM_WORLD;
    char ctrl = 0;
    /* samples: p keeps rtt, s(p -> q), r(p <- q); q keeps s(q -> p), r(q <- p) */
    double *rt = xmalloc((size_t)iters * sizeof *rt), *sp = xmalloc((size_t)iters * sizeof *sp),
           *rp = xmalloc((size_t)iters * sizeof *rp), *sq = xmalloc((size_t)iters * sizeof *sq),
           *rq = xmalloc((size_t)iters * sizeof *rq);
    /* a first estimate of the round trip, for the receiver's wait below */
    int warm = iters / 10 + 5;
    for (int i = 0; i < warm; i++) {
        if (me == p) {
            double t0 = MPI_Wtime();
            MPI_Send(buf, (int)size, MPI_CHAR, q, HM_TAG_DATA, w);
            MPI_Recv(buf, (int)size, MPI_CHAR, q, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
            rt[i % iters] = MPI_Wtime() - t0;
        } else {
            MPI_Recv(buf, (int)size, MPI_CHAR, p, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)size, MPI_CHAR, p, HM_TAG_DATA, w);
        }
    }
    double est = 0;
    if (me == p) {
        est = cal_median(rt, warm < iters ? warm : iters);
        MPI_Send(&est, 1, MPI_DOUBLE, q, HM_TAG_CTRL, w);
    } else {
        MPI_Recv(&est, 1, MPI_DOUBLE, p, HM_TAG_CTRL, w, MPI_STATUS_IGNORE);
    }
    double delay = 3 * est + 2e-6;   /* the message has arrived by then */
    /* Each repetition measures all five, so that the five samples of one
     * repetition come from one moment of the machine (a virtual machine's
     * cores change speed and neighbours as it runs), and the latency is a
     * median over repetitions of (rtt - s - r - s - r) / 2. */
    for (int i = 0; i < iters; i++) {
        if (me == p) {
            double t0 = MPI_Wtime();
            MPI_Send(buf, (int)size, MPI_CHAR, q, HM_TAG_DATA, w);
            MPI_Recv(buf, (int)size, MPI_CHAR, q, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
            rt[i] = fmax(0, MPI_Wtime() - t0 - tick);
        } else {
            MPI_Recv(buf, (int)size, MPI_CHAR, p, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)size, MPI_CHAR, p, HM_TAG_DATA, w);
        }
        for (int dir = 0; dir < 2; dir++) {
            int from = dir ? q : p, to = dir ? p : q;
            double *s_from = dir ? sq : sp, *r_to = dir ? rp : rq;
            /* the sender's MPI_Send, the receive posted */
            if (me == from) {
                MPI_Recv(&ctrl, 1, MPI_CHAR, to, HM_TAG_CTRL, w, MPI_STATUS_IGNORE);
                double t0 = MPI_Wtime();
                MPI_Send(buf, (int)size, MPI_CHAR, to, HM_TAG_DATA, w);
                s_from[i] = fmax(0, MPI_Wtime() - t0 - tick);
            } else {
                MPI_Send(&ctrl, 1, MPI_CHAR, from, HM_TAG_CTRL, w);
                MPI_Recv(buf, (int)size, MPI_CHAR, from, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
            }
            /* the receiver's MPI_Recv, the message already there */
            if (me == from) {
                MPI_Recv(&ctrl, 1, MPI_CHAR, to, HM_TAG_CTRL, w, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)size, MPI_CHAR, to, HM_TAG_DATA, w);
            } else {
                MPI_Send(&ctrl, 1, MPI_CHAR, from, HM_TAG_CTRL, w);
                spin_for(delay);
                double t0 = MPI_Wtime();
                MPI_Recv(buf, (int)size, MPI_CHAR, from, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
                r_to[i] = fmax(0, MPI_Wtime() - t0 - tick);
            }
        }
    }
    size_t pq = (size_t)p * n + q, qp = (size_t)q * n + p;
    if (me == q) {
        MPI_Send(sq, iters, MPI_DOUBLE, p, HM_TAG_CTRL, w);
        MPI_Send(rq, iters, MPI_DOUBLE, p, HM_TAG_CTRL, w);
    } else {
        MPI_Recv(sq, iters, MPI_DOUBLE, q, HM_TAG_CTRL, w, MPI_STATUS_IGNORE);
        MPI_Recv(rq, iters, MPI_DOUBLE, q, HM_TAG_CTRL, w, MPI_STATUS_IGNORE);
        double *l = xmalloc((size_t)iters * sizeof *l);
        for (int i = 0; i < iters; i++)
            l[i] = (rt[i] - sp[i] - rq[i] - sq[i] - rp[i]) / 2;
        m->lat[pq] = m->lat[qp] = cal_median(l, iters);
        free(l);
        m->rtt[pq] = m->rtt[qp] = cal_median(rt, iters);
        m->os[pq] = cal_median(sp, iters);
        m->os[qp] = cal_median(sq, iters);
        m->orv[pq] = cal_median(rp, iters);   /* p receiving from q */
        m->orv[qp] = cal_median(rq, iters);
    }
    free(rt);
    free(sp);
    free(rp);
    free(sq);
    free(rq);
}

struct cal_meas cal_meas_new(size_t nn)
{
    return (struct cal_meas){xmalloc(nn * sizeof(double)), xmalloc(nn * sizeof(double)),
                             xmalloc(nn * sizeof(double)), xmalloc(nn * sizeof(double))};
}

void cal_meas_free(struct cal_meas *m)
{
    free(m->rtt);
    free(m->os);
    free(m->orv);
    free(m->lat);
}

/* What reading the clock costs (the median of back-to-back MPI_Wtime
 * calls): every timed interval holds one reading, and the latency is a round
 * trip less four such intervals, so it is taken off each. */
static double clock_cost(double *t, int iters)
{
    for (int i = 0; i < iters; i++) {
        double a = MPI_Wtime();
        t[i] = MPI_Wtime() - a;
    }
    return cal_median(t, iters);
}

void cal_measure_all(const struct hm *h, long size, int iters, struct cal_meas *m)
{
    int n = h->size;
    size_t nn = (size_t)n * n;
    double *arr[CAL_ARRAYS] = {m->rtt, m->os, m->orv, m->lat};
    for (int k = 0; k < CAL_ARRAYS; k++)
        for (size_t i = 0; i < nn; i++)
            arr[k][i] = -HUGE_VAL;   /* not measured here: the reduction's MAX skips it */
    char *buf = xcalloc((size_t)size, 1);
    double *t = xmalloc((size_t)iters * sizeof *t);
    double tick = clock_cost(t, iters);
    free(t);
    struct hm_cpus mine;
    bool pin = hm_cpus_get(&mine) && hm_cpus_count(&mine) >= 2;
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++) {
            hm_watchdog(h, "calibrate (a pair's measurement)", 0);
            if (h->rank == p || h->rank == q) {
                /* ranks free to run anywhere (more ranks than cores): the pair on two
                   cores of its own, as one rank a core would be, not sharing one */
                if (pin && h->host_of[p] == h->host_of[q])
                    hm_cpus_pin(&mine, h->rank == p ? 0 : 1);
                measure_pair(h->rank, p, q, size, iters, buf, tick, n, m);
                if (pin)
                    hm_cpus_set(&mine);
            }
            hm_idle_barrier();
        }
    free(buf);
    double *all = xmalloc(CAL_ARRAYS * nn * sizeof *all);
    for (int k = 0; k < CAL_ARRAYS; k++)
        memcpy(all + k * nn, arr[k], nn * sizeof *all);
    double *sum = h->rank == 0 ? xmalloc(CAL_ARRAYS * nn * sizeof *sum) : NULL;
    MPI_Request rq;
    MPI_Ireduce(all, sum, (int)(CAL_ARRAYS * nn), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    if (h->rank == 0)
        for (int k = 0; k < CAL_ARRAYS; k++)
            memcpy(arr[k], sum + k * nn, nn * sizeof *sum);
    free(all);
    free(sum);
}


int cal_check_output(struct hm *h, const char *path)
{
    hm_watchdog(h, "calibrate (checking the output)", 0);
    int status = 0;
    if (h->rank == 0) {
        struct atomic_file af;
        if (atomic_open(&af, path) != 0) {
            int err = errno;
            hm_say(h, false, "%s: cannot write: %s", path, atomic_why(&af, err));
            status = 2;
        } else {
            atomic_abort(&af);
        }
    }
    MPI_Request rq;
    MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    return status;
}

int cal_save(struct hm *h, struct cluster *c, const char *path)
{
    struct diag d;
    diag_init(&d);
    char *cause = NULL;
    int status = 0;
    if (cluster_finish(c, &d) < 0 || cluster_save_csv(c, path, &cause) < 0)
        status = 1;
    for (int i = 0; i < d.nlines; i++)
        hm_say(h, false, "%s", d.lines[i]);
    if (status)
        hm_say(h, false, "%s", cause ? cause : "calibrate: the cluster is not valid");
    free(cause);
    diag_free(&d);
    return status;
}
