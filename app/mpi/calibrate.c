/*
 * app/mpi/calibrate.c - `hetcast-mpi calibrate`: measure every rank's send
 * overhead s, receive overhead r and the latency between ranks, PLogP-style
 * (Kielmann et al.), and write them as a hetcast cluster in microseconds
 * (docs/mpi.md, "Calibrating").
 *
 * For every pair of ranks, one pair at a time while the others sleep:
 *   round trip  p sends m bytes to q, q sends them back: rtt(p,q);
 *   s(p -> q)   how long MPI_Send of m bytes takes to return on p, with q's
 *               receive posted;
 *   r(q <- p)   how long MPI_Recv takes on q for a message that has already
 *               arrived (q waits three round trips before it calls it);
 * each the median of --iters repetitions less the cost of reading the clock
 * (every interval holds one reading).  A rank's s and r are the medians
 * over its partners; ranks on one host share the host's medians unless
 * --per-rank.  Every repetition measures all five, and the latency is the
 * median over the repetitions of their split,
 *   L(p,q) = (rtt(p,q) - s(p -> q) - r(q <- p) - s(q -> p) - r(p <- q)) / 2,
 * then the median over the ranks of a pair of hosts, so that s(p) + L + r(q)
 * is the one-way time, hetcast's transfer time.  Two ranks of one host that
 * may run anywhere (more ranks than cores) are put on two cores of their own
 * while they measure, as one rank a core would be; the waiting ranks sleep.
 * Above 64 bytes the split only holds while MPI_Send is eager (returns
 * before the receiver has the message); when s comes out above half the
 * one-way time or L below zero, the overheads are taken at 64 bytes and the
 * latency at --size absorbs the rest: L(m) = L0 + m/B (LogGP's G, PLogP's
 * size-dependent gap), both written in the description.  A latency below
 * zero by at most 10 % of the one-way time is noise, written as 0; where it
 * is further below, the measurement cannot be split: one message, status 1.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "app/mpi/calibrate.h"
#include "app/mpi/measure.h"
#include "app/mpi/cmd.h"
#include "support/numfmt.h"

#define CAL_SMALL 64          /* bytes: the overheads' size above the eager limit */
#define CAL_NOISE 0.1         /* a latency down to -10 % of the one-way time is 0 */
#define CAL_DIGITS 4          /* significant digits written */

enum { C_SIZE = OPT_LONG, C_ITERS, C_PER_RANK, C_NAME, C_TIMEOUT, C_SIZES, C_ROUNDS, C_NOISE };
#define AT(f) offsetof(struct cal_opts, f)
static const struct opt cal_table[] = {
    {"size", C_SIZE, "BYTES", "the message size (default 64)", OPT_LONGINT, AT(size), 1,
     1 << 26, NULL},
    {"iters", C_ITERS, "N", "repetitions of each measurement, the median kept (default 200)",
     OPT_INT, AT(iters), 5, 1000000, NULL},
    {"per-rank", C_PER_RANK, NULL, "each rank's own medians (default: a host's ranks share them)",
     OPT_FLAG, AT(per_rank), 0, 0, NULL},
    {"output", 'o', "FILE", "the cluster to write (CSV, microseconds)", OPT_STRING, AT(output), 0,
     0, NULL},
    {"name", C_NAME, "NAME", "the cluster's name (default calibrated)", OPT_STRING, AT(name), 0, 0,
     NULL},
    {"timeout", C_TIMEOUT, "S", "give up when a pair takes more than S seconds (default 60, "
     "at most 86400)", OPT_SECONDS, AT(timeout), 0, HM_MAX_SECONDS, NULL},
    {"sizes", C_SIZES, "LIST", "measure every size of LIST (LO:HI: LO, 2 LO, 4 LO, ... up to "
     "HI; or A,B,C; K and M: KiB, MiB), print a table, fit size segments", OPT_STRING,
     AT(sizes), 0, 0, NULL},
    {"rounds", C_ROUNDS, "N", "--sizes: rounds over every size, their spread shown (default 5)",
     OPT_INT, AT(rounds), 2, 1000, NULL},
    {"noise", C_NOISE, "PCT", "--sizes: a size whose rounds spread more than PCT % of their "
     "median is named noisy (default 20)", OPT_NUMBER, AT(noise), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

/* The latency that is smallest beside its one-way time (rtt / 2). */
struct cal_worst {
    double rel;      /* lat / (rtt / 2) */
    double lat, rtt;
    int p, q;
};

/* The model's numbers from the measurements (rank 0), in seconds. */
struct cal_model {
    double *s, *r;   /* per rank */
    double *lat;     /* n*n: the latency of p -> q */
};

/* s and r per rank: medians over the partners, then over the host's ranks
 * unless per_rank. */
static void overheads(const struct hm *h, const struct cal_meas *m, bool per_rank,
                      struct cal_model *mo)
{
    int n = h->size;
    double *v = xmalloc((size_t)n * sizeof *v);
    for (int p = 0; p < n; p++) {
        int k = 0;
        for (int q = 0; q < n; q++)
            if (q != p)
                v[k++] = m->os[(size_t)p * n + q];
        mo->s[p] = cal_median(v, k);
        k = 0;
        for (int q = 0; q < n; q++)
            if (q != p)
                v[k++] = m->orv[(size_t)p * n + q];
        mo->r[p] = cal_median(v, k);
    }
    if (!per_rank) {
        double *s = xmalloc((size_t)n * sizeof *s), *r = xmalloc((size_t)n * sizeof *r);
        for (int p = 0; p < n; p++) {
            int k = 0;
            for (int q = 0; q < n; q++)
                if (h->host_of[q] == h->host_of[p])
                    v[k++] = mo->s[q];
            s[p] = cal_median(v, k);
            k = 0;
            for (int q = 0; q < n; q++)
                if (h->host_of[q] == h->host_of[p])
                    v[k++] = mo->r[q];
            r[p] = cal_median(v, k);
        }
        memcpy(mo->s, s, (size_t)n * sizeof *s);
        memcpy(mo->r, r, (size_t)n * sizeof *r);
        free(s);
        free(r);
    }
    free(v);
}

/*
 * The latencies: split, m's own (each pair's median of its repetitions'
 * splits); else the round trips rtt less m's median overheads (the fit above
 * the eager limit).  Per host pair (medians) unless per_rank.
 * The smallest latency relative to its one-way time goes to *w (negative:
 * the split failed there).
 */
static void latencies(const struct hm *h, const double *rtt, const struct cal_meas *m,
                      bool split, bool per_rank, struct cal_model *mo, struct cal_worst *w)
{
    int n = h->size;
    size_t nn = (size_t)n * n;
    double *raw = xmalloc(nn * sizeof *raw), *rt = xmalloc(nn * sizeof *rt),
           *v = xmalloc(nn * sizeof *v), *u = xmalloc(nn * sizeof *u);
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) {
            size_t at = (size_t)p * n + q;
            raw[at] = rt[at] = 0;
            if (p == q)
                continue;
            rt[at] = rtt[(size_t)(p < q ? p : q) * n + (p < q ? q : p)];
            /* split: the median of the pair's repetitions, each split with the
               overheads measured beside its round trip; else the medians' split */
            raw[at] = split ? m->lat[at]
                            : (rt[at] - m->os[at] - m->orv[(size_t)q * n + p] -
                               m->os[(size_t)q * n + p] - m->orv[at]) / 2;
        }
    w->rel = INFINITY;
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) {
            size_t at = (size_t)p * n + q;
            double x = raw[at], r = rt[at];
            if (p == q) {
                mo->lat[at] = 0;
                continue;
            }
            if (!per_rank) {
                int k = 0;
                for (int a = 0; a < n; a++)
                    for (int b = 0; b < n; b++)
                        if (a != b && h->host_of[a] == h->host_of[p] &&
                            h->host_of[b] == h->host_of[q]) {
                            v[k] = raw[(size_t)a * n + b];
                            u[k++] = rt[(size_t)a * n + b];
                        }
                x = cal_median(v, k);
                r = cal_median(u, k);
            }
            if (x / (r / 2) < w->rel) {
                w->rel = x / (r / 2);
                w->p = p;
                w->q = q;
                w->lat = x;
                w->rtt = r;
            }
            mo->lat[at] = x > 0 ? x : 0;   /* within noise (else refused by the caller) */
        }
    free(raw);
    free(rt);
    free(v);
    free(u);
}

static double us(double seconds)
{
    return numfmt_round(seconds * 1e6, CAL_DIGITS);
}

/* The cluster of mo (rank 0): a node table when one latency fits all (one
 * host, pooled), else a latency matrix. */
static struct cluster *build(const struct hm *h, const struct cal_opts *o, const struct cal_model *mo,
                             const char *how)
{
    int n = h->size;
    bool table = !o->per_rank && h->nhosts == 1;
    struct cluster *c = cluster_new(table ? CLUSTER_NODES : CLUSTER_MATRIX);
    c->time_unit = TIME_US;   /* us(): every time below in microseconds */
    for (int p = 0; p < n; p++)
        cluster_add_node(c, h->names[p], us(mo->s[p]), us(mo->r[p]));
    if (table) {
        c->latency = us(mo->lat[1]);
    } else {
        c->unit = 1;
        c->dist = xcalloc((size_t)n * n, sizeof *c->dist);
        for (size_t i = 0; i < (size_t)n * n; i++)
            c->dist[i] = us(mo->lat[i]);
    }
    cluster_set_str(&c->name, o->name ? o->name : "calibrated");
    char *desc = xasprintf(
        "measured by hetcast-mpi calibrate: %d ranks on %d host%s, %ld-byte messages, median of "
        "%d repetitions; times in microseconds\n"
        "s = time of MPI_Send, r = time of MPI_Recv on an arrived message, latency = round trip "
        "/ 2 - s - r (PLogP); %s\n%s",
        n, h->nhosts, h->nhosts == 1 ? "" : "s", o->size, o->iters,
        o->per_rank ? "each rank's own medians" : "the ranks of a host share its medians", how);
    cluster_set_str(&c->description, desc);
    free(desc);
    return c;
}

/* "x" or "lo..hi" of v[0], v[skip], ... (the latencies skip the diagonal), in us. */
static const char *span(char buf[64], const double *v, int n, int skip)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = skip == 1 ? 0 : 1; i < n; i++) {
        if (skip > 1 && i % skip == 0)
            continue;
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    char a[NUMFMT_SIZE], b[NUMFMT_SIZE];
    numfmt_shortest(a, us(lo));
    if (us(lo) == us(hi))
        snprintf(buf, 64, "%s", a);
    else
        snprintf(buf, 64, "%s..%s", a, numfmt_shortest(b, us(hi)));
    return buf;
}

static void help(void)
{
    printf("usage: mpirun -n N hetcast-mpi calibrate [options] -o CLUSTER.csv\n"
           "       mpirun -n N hetcast-mpi calibrate --sizes 1:4M [options] -o CLUSTER.csv\n\n"
           "Measure every rank's send and receive overheads (s, r) and the latency between\n"
           "ranks, and write them as a hetcast cluster, in microseconds.  Names: the ranks'\n"
           "hosts (host:rank where a host runs several).  One host: a node table; several\n"
           "(or --per-rank): a latency matrix.  --sizes: a table of one-way times per size\n"
           "as OSU's ping-pong prints it, the eager/rendezvous threshold, and a fit per\n"
           "segment of sizes written into the node table, which `hetcast run --size`\n"
           "reads (one host; docs/mpi.md).\n\noptions:\n");
    opts_help(stdout, cal_table);
}

/*
 * The options read, checked and defaulted.  Returns -1 to go on, or the
 * exit status (0 after --help) when done.
 */
static int cal_options(struct hm *h, int argc, char **argv, struct cal_opts *o)
{
    int nop = 0, rank = h ? h->rank : 0;
    int rc = hm_parse(rank, "hetcast-mpi calibrate", cal_table, argc - 1, argv + 1, NULL, o,
                      NULL, 0, &nop);
    if (rc == OPTS_HELP) {
        if (rank == 0)
            help();
        return 0;
    }
    if (rc)
        return rc;
    if (!o->output) {
        hm_say(h, false, "calibrate: -o FILE is needed (the cluster to write)");
        return 2;
    }
    if (o->sizes) {
        long sizes[64];
        char *why = NULL;
        if (o->size) {
            hm_say(h, false, "calibrate: --size and --sizes: one size or a range, not both");
            return 2;
        }
        if (cal_sizes_parse(o->sizes, sizes, &why) < 0) {
            hm_say(h, false, "calibrate: %s", why);
            free(why);
            return 2;
        }
    }
    if (!o->sizes && (o->rounds || o->noise >= 0)) {
        hm_say(h, false, "calibrate: --rounds and --noise are for --sizes (a range of sizes)");
        return 2;
    }
    if (!o->size)
        o->size = 64;
    if (!o->rounds)
        o->rounds = 5;
    if (o->noise < 0)
        o->noise = 20;
    return -1;
}

/* The rank-0 side of a model: s and r per rank, the latency of every pair. */
static struct cal_model model_new(int n)
{
    size_t nn = (size_t)n * n;
    return (struct cal_model){xmalloc((size_t)n * sizeof(double)),
                              xmalloc((size_t)n * sizeof(double)), xmalloc(nn * sizeof(double))};
}

static void model_free(struct cal_model *mo)
{
    free(mo->s);
    free(mo->r);
    free(mo->lat);
}

/*
 * Above the eager limit, or where the split at --size gave a negative
 * latency: the overheads at CAL_SMALL bytes into mo, the rest of the one-way
 * time at --size as latency (L0 + m/B), said in how; worst becomes the
 * small size's when that one cannot be split.
 */
static void fit_latency(const struct hm *h, const struct cal_opts *o, const struct cal_meas *at,
                        const struct cal_meas *small, bool eager, struct cal_model *mo,
                        struct cal_worst *worst, char *how, size_t howlen)
{
    int n = h->size;
    size_t nn = (size_t)n * n;
    struct cal_worst w0;
    struct cal_model sm = model_new(n);
    overheads(h, small, o->per_rank, &sm);
    latencies(h, small->rtt, small, true, o->per_rank, &sm, &w0);
    memcpy(mo->s, sm.s, (size_t)n * sizeof(double));
    memcpy(mo->r, sm.r, (size_t)n * sizeof(double));
    latencies(h, at->rtt, small, false, o->per_rank, mo, worst);
    double *d = xmalloc(nn * sizeof *d);
    int k = 0;
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++)
            d[k++] = (at->rtt[(size_t)p * n + q] - small->rtt[(size_t)p * n + q]) / 2;
    double extra = cal_median(d, k), l0 = sm.lat[n > 1 ? 1 : 0];
    free(d);
    snprintf(how, howlen,
             "%s at %ld bytes, so s and r are measured at %d bytes and the latency "
             "at %ld bytes is the rest of the one-way time: L0 + m/B with L0 = %g us, "
             "B = %g MB/s (round trips at %d and %ld bytes)",
             eager ? "the split gave a negative latency"
                   : "MPI_Send took more than half of the one-way time (a rendezvous "
                     "above the eager limit, or a copy)",
             o->size, CAL_SMALL, o->size, us(l0),
             extra > 0 ? numfmt_round((double)(o->size - CAL_SMALL) / (extra * 1e6), 3)
                       : INFINITY,
             CAL_SMALL, o->size);
    if (w0.rel < -CAL_NOISE)
        *worst = w0;
    model_free(&sm);
}

/* Rank 0: the model from the measurements at --size (at) and at CAL_SMALL
 * bytes (small, when --size is above it), written to -o; the status. */
static int cal_write(struct hm *h, const struct cal_opts *o, const struct cal_meas *at,
                     const struct cal_meas *small, bool big)
{
    int n = h->size, status = 0;
    struct cal_model mo = model_new(n);
    struct cal_worst worst;
    overheads(h, at, o->per_rank, &mo);
    latencies(h, at->rtt, at, true, o->per_rank, &mo, &worst);
    /* eager: MPI_Send returned well before the message was across */
    bool eager = true;
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++)
            if (p != q) {
                double rt = at->rtt[(size_t)(p < q ? p : q) * n + (p < q ? q : p)];
                eager &= at->os[(size_t)p * n + q] <= rt / 4;
            }
    char how[1024];
    snprintf(how, sizeof how, "split at %ld bytes, where MPI_Send returns before the "
             "message is across (eager)", o->size);
    if (big && (worst.rel < -CAL_NOISE || !eager))
        fit_latency(h, o, at, small, eager, &mo, &worst, how, sizeof how);
    if (worst.rel < 0 && worst.rel >= -CAL_NOISE) {
        size_t len = strlen(how);
        snprintf(how + len, sizeof how - len, "; latencies down to %g us (within 10 %% of the "
                 "one-way time: noise) are written as 0", us(worst.lat));
    }
    if (worst.rel < -CAL_NOISE) {
        hm_say(h, false,
               "calibrate: the measurement cannot be split into s + L + r: between %s and "
               "%s the round trip (%g us) is shorter than the overheads s + r of both ways "
               "(latency %g us); the message is probably above the eager limit or the "
               "network overlaps the overheads (docs/mpi.md, \"Limits\")",
               h->names[worst.p], h->names[worst.q], us(worst.rtt), us(worst.lat));
        status = 1;
    } else {
        struct cluster *c = build(h, o, &mo, how);
        status = cal_save(h, c, o->output);
        if (status == 0) {
            char b1[64], b2[64], b3[64], shown[256];
            printf("calibrated %d ranks on %d host%s, %ld-byte messages: s %s us, r %s us, "
                   "latency %s us (%s) -> %s\n", n, h->nhosts, h->nhosts == 1 ? "" : "s",
                   o->size, span(b1, mo.s, n, 1), span(b2, mo.r, n, 1),
                   span(b3, mo.lat, n * n, n + 1), c->kind == CLUSTER_NODES ? "node table"
                   : "latency matrix", SHOWN(o->output, shown));
        }
        cluster_free(c);
    }
    model_free(&mo);
    return status;
}

int mpi_calibrate(struct hm *h, int argc, char **argv)
{
    struct cal_opts o = {0, 200, false, NULL, NULL, 60, NULL, 0, -1};   /* 0, -1: not given */
    int status = cal_options(h, argc, argv, &o);
    if (status >= 0)
        return status;
    if (!h)
        return hm_not_launched(2, argc, argv);
    h->timeout = o.timeout;
    if (h->size < 2) {
        char *cmd = hm_mpirun_command(2, argc, argv);
        hm_say(h, false, "calibrate: 1 rank: it needs 2 or more to measure (run: %s)", cmd);
        free(cmd);
        return 2;
    }
    /* The output is checked before the measurement, not after it. */
    status = cal_check_output(h, o.output);
    if (status)
        return status;
    if (o.sizes)
        return cal_sizes(h, &o);
    size_t nn = (size_t)h->size * h->size;
    struct cal_meas at = cal_meas_new(nn), small = {NULL, NULL, NULL, NULL};
    bool big = o.size > CAL_SMALL;
    cal_measure_all(h, o.size, o.iters, &at);
    if (big) {
        small = cal_meas_new(nn);
        cal_measure_all(h, CAL_SMALL, o.iters, &small);
    }
    hm_watchdog(h, NULL, 0);
    if (h->rank == 0)
        status = cal_write(h, &o, &at, &small, big);
    cal_meas_free(&at);
    cal_meas_free(&small);
    MPI_Request rq;
    MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    return status;
}
