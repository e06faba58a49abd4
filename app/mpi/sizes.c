/*
 * app/mpi/sizes.c - `hetcast-mpi calibrate --sizes`: a sweep over message
 * sizes as OSU's osu_latency measures them (a ping-pong, warmed up,
 * repeated), the eager/rendezvous threshold, and an affine fit per segment
 * of sizes, written into the cluster as `# segment:` lines (docs/mpi.md,
 * "Calibrating a range of sizes"; docs/formats.md).
 *
 * Every size is measured in --rounds rounds, one round over all sizes after
 * another, each round --iters repetitions of calibrate's measurement of
 * every pair (app/mpi/calibrate.c): a size's one-way time is the median over
 * its rounds of the median over the pairs of rtt / 2, its spread the rounds'
 * (max - min) / median.  Rounds far apart in time see a machine's slow
 * moments apart, so a size whose spread is above --noise is named noisy.
 *
 * The threshold is where a send starts to wait for a receiver that posts
 * its receive late (probe_waits: eager below, rendezvous from there on), the
 * step in the one-way time across it printed beside; the library's own
 * eager limit, read through MPI_T where the library offers it, is printed
 * beside it.  Each segment is fitted by least squares on relative errors
 * (weights 1 / t^2, so a 1-byte time counts as much as a 4 MiB one):
 * one-way(m) = s + r + L + m G, s and r the overheads at the smallest size
 * (the node rows), L and G the segment's.  One host and pooled ranks only:
 * a node table, one latency for every pair.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "support/diag.h"
#include "support/numfmt.h"
#include "app/mpi/calibrate.h"
#include "app/mpi/measure.h"

#define SZ_MAX 64                 /* sizes in one sweep */
#define SZ_MAX_BYTES (1L << 26)   /* as --size */
#define SZ_DIGITS 4               /* significant digits written */

/* One size's result (rank 0), seconds. */
struct sz_row {
    long size;
    double oneway, spread;   /* median over rounds; (max - min) / median */
    double s, r;             /* MPI_Send, MPI_Recv (arrived): medians over pairs and rounds */
    bool waits;              /* MPI_Send waited for the receiver (probe_waits) */
};

/* A segment's fit: one-way(m) = a + m g over sizes [first, last] of the sweep. */
struct sz_fit {
    int first, last;
    double a, g;
};

/* A size: digits, then K (KiB) or M (MiB) if any.  0 and *end past it, or -1. */
static int parse_size(const char *s, const char **end, long *out)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    char *e;
    unsigned long long v = strtoull(s, &e, 10);
    unsigned long long mul = *e == 'K' || *e == 'k' ? 1024 : *e == 'M' || *e == 'm' ? 1048576 : 1;
    if (mul > 1)
        e++;
    if (v == 0 || v > (unsigned long long)SZ_MAX_BYTES / mul)
        return -1;
    *out = (long)(v * mul);
    *end = e;
    return 0;
}

int cal_sizes_parse(const char *spec, long *sizes, char **why)
{
    const char *p = spec, *e;
    long lo, hi;
    int n = 0;
    const char *form = "LO:HI (LO, 2 LO, 4 LO, ... up to HI) or A,B,C, in bytes from 1 to 64M "
                       "(K: KiB, M: MiB)";
    if (parse_size(p, &e, &lo) == 0 && *e == ':') {
        if (parse_size(e + 1, &e, &hi) != 0 || *e || hi <= lo) {
            *why = xasprintf("--sizes \"%s\": %s, HI above LO", spec, form);
            return -1;
        }
        for (long m = lo; m < hi; m *= 2)   /* at most 26 doublings below 64 MiB */
            sizes[n++] = m;
        sizes[n++] = hi;
        return n;
    }
    for (;;) {
        if (n == SZ_MAX) {
            *why = xasprintf("--sizes \"%s\": more than %d sizes", spec, SZ_MAX);
            return -1;
        }
        if (parse_size(p, &e, &sizes[n]) != 0 || (*e && *e != ',')) {
            *why = xasprintf("--sizes \"%s\": %s", spec, form);
            return -1;
        }
        if (n > 0 && sizes[n] <= sizes[n - 1]) {
            *why = xasprintf("--sizes \"%s\": the sizes must go up (%ld after %ld)", spec,
                             sizes[n], sizes[n - 1]);
            return -1;
        }
        n++;
        if (!*e)
            break;
        p = e + 1;
    }
    if (n < 2) {
        *why = xasprintf("--sizes \"%s\": two sizes or more (one size: --size)", spec);
        return -1;
    }
    return n;
}

/*
 * The library's own eager limit for ranks on one host, where it tells it
 * through MPI_T (Open MPI 4: btl_vader_eager_limit, 5: btl_sm_eager_limit;
 * MPICH's ch3: MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE): bytes, its name in name[];
 * -1 when none of them is there.
 */
static long library_eager_limit(char name[64])
{
    static const char *const want[] = {"btl_vader_eager_limit", "btl_sm_eager_limit",
                                       "MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE"};
    int provided, num = 0;
    long found = -1;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return -1;
    MPI_T_cvar_get_num(&num);
    for (int i = 0; i < num && found < 0; i++) {
        char nm[256], desc[8];
        int nlen = sizeof nm, dlen = sizeof desc, verb, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum et;
        if (MPI_T_cvar_get_info(i, nm, &nlen, &verb, &dt, &et, desc, &dlen, &bind, &scope) !=
            MPI_SUCCESS)
            continue;
        bool match = false;
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            match |= strcmp(nm, want[k]) == 0;
        if (!match || bind != MPI_T_BIND_NO_OBJECT)
            continue;
        MPI_T_cvar_handle hd;
        int count;
        if (MPI_T_cvar_handle_alloc(i, NULL, &hd, &count) != MPI_SUCCESS)
            continue;
        union {
            int i;
            unsigned u;
            long l;
            unsigned long ul;
            long long ll;
            unsigned long long ull;
            char pad[64];
        } v;
        memset(&v, 0, sizeof v);
        if (count == 1 && MPI_T_cvar_read(hd, &v) == MPI_SUCCESS) {
            found = dt == MPI_INT ? v.i
                    : dt == MPI_UNSIGNED ? (long)v.u
                    : dt == MPI_LONG ? v.l
                    : dt == MPI_UNSIGNED_LONG ? (long)v.ul
                    : dt == MPI_LONG_LONG ? (long)v.ll
                    : dt == MPI_UNSIGNED_LONG_LONG ? (long)v.ull : -1;
            if (found >= 0)
                snprintf(name, 64, "%.63s", nm);
        }
        MPI_T_cvar_handle_free(&hd);
    }
    MPI_T_finalize();
    return found;
}

/*
 * Does a send of size bytes wait for the receiver?  Rank 0 starts it
 * (MPI_Isend); rank 1 keeps its library busy without posting the receive
 * (MPI_Iprobe) until the message's envelope is there, some more, then tells
 * rank 0 so on another tag.  By then an eager message has been taken in,
 * unexpected, and rank 0's send is done (the notice travels behind it); a
 * rendezvous is not, as it cannot end before the receive is posted.  Only
 * the order of events decides, not a clock, so a loaded machine answers as
 * an idle one.  Ranks 0 and 1 (one host: every pair takes the same path);
 * the answer on rank 0.
 */
#define SZ_TAG_NONE 99        /* a tag no one sends: probing it only makes MPI progress */
#define SZ_PROGRESS 1000      /* rank 1's calls into the library after the envelope came */
static bool probe_waits(const struct hm *h, long size, char *buf)
{
    MPI_Comm w = MPI_COMM_WORLD;
    char ctrl = 0;
    int flag = 0, done = 0;
    if (h->rank == 0) {
        MPI_Request rq;
        MPI_Isend(buf, (int)size, MPI_CHAR, 1, HM_TAG_DATA, w, &rq);
        while (!flag) {
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
            MPI_Iprobe(1, HM_TAG_CTRL, w, &flag, MPI_STATUS_IGNORE);
        }
        MPI_Recv(&ctrl, 1, MPI_CHAR, 1, HM_TAG_CTRL, w, MPI_STATUS_IGNORE);
        if (!done)
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
        if (!done)
            MPI_Wait(&rq, MPI_STATUS_IGNORE);   /* rank 1 receives it now */
    } else if (h->rank == 1) {
        while (!flag)
            MPI_Iprobe(0, HM_TAG_DATA, w, &flag, MPI_STATUS_IGNORE);
        for (int i = 0; i < SZ_PROGRESS; i++)
            MPI_Iprobe(0, SZ_TAG_NONE, w, &flag, MPI_STATUS_IGNORE);
        MPI_Send(&ctrl, 1, MPI_CHAR, 0, HM_TAG_CTRL, w);
        MPI_Recv(buf, (int)size, MPI_CHAR, 0, HM_TAG_DATA, w, MPI_STATUS_IGNORE);
    }
    return h->rank == 0 && !done;
}

/* Least squares of t = a + m g over rows [f->first, f->last], weights 1 / t^2; g >= 0. */
static void fit(const struct sz_row *row, struct sz_fit *f)
{
    double sw = 0, sm = 0, st = 0, smm = 0, smt = 0;
    for (int i = f->first; i <= f->last; i++) {
        double w = 1 / (row[i].oneway * row[i].oneway), m = (double)row[i].size;
        sw += w;
        sm += w * m;
        st += w * row[i].oneway;
        smm += w * m * m;
        smt += w * m * row[i].oneway;
    }
    double det = sw * smm - sm * sm;
    f->g = f->last > f->first && det > 0 ? (sw * smt - sm * st) / det : 0;
    if (!(f->g > 0))
        f->g = 0;   /* one size, or noise that slopes down: a constant */
    f->a = (st - f->g * sm) / sw;
}

static double us(double seconds)
{
    return numfmt_round(seconds * 1e6, SZ_DIGITS);
}

/* Rank 0: the rows of every size from the rounds' measurements meas[round * ns + i]. */
static void rows_of(const struct hm *h, const struct cal_meas *meas, int rounds, const long *sizes,
                    const bool *waits, int ns, struct sz_row *row)
{
    int n = h->size;
    size_t nn = (size_t)n * n;
    double *v = xmalloc(nn * sizeof *v), *t = xmalloc((size_t)rounds * sizeof *t),
           *s = xmalloc((size_t)rounds * sizeof *s), *r = xmalloc((size_t)rounds * sizeof *r);
    for (int i = 0; i < ns; i++) {
        for (int k = 0; k < rounds; k++) {
            const struct cal_meas *m = &meas[(size_t)k * ns + i];
            int c = 0;
            for (int p = 0; p < n; p++)
                for (int q = p + 1; q < n; q++)
                    v[c++] = m->rtt[(size_t)p * n + q];
            t[k] = cal_median(v, c) / 2;
            c = 0;
            for (size_t j = 0; j < nn; j++)
                if (j % (size_t)(n + 1))   /* off the diagonal */
                    v[c++] = m->os[j];
            s[k] = cal_median(v, c);
            c = 0;
            for (size_t j = 0; j < nn; j++)
                if (j % (size_t)(n + 1))
                    v[c++] = m->orv[j];
            r[k] = cal_median(v, c);
        }
        row[i].size = sizes[i];
        row[i].oneway = cal_median(t, rounds);   /* sorts t: t[0] least, t[rounds-1] most */
        row[i].spread = row[i].oneway > 0 ? (t[rounds - 1] - t[0]) / row[i].oneway : 0;
        row[i].s = cal_median(s, rounds);
        row[i].r = cal_median(r, rounds);
        row[i].waits = waits[i];
    }
    free(v);
    free(t);
    free(s);
    free(r);
}

/* The segments: below and from the first size after which MPI_Send always waits (*k: that
 * size's index; ns when it never waits, 0 when it always does: one segment).  Returns how many. */
static int segments_of(const struct sz_row *row, int ns, struct sz_fit f[2], int *k)
{
    *k = ns;
    while (*k > 0 && row[*k - 1].waits)
        (*k)--;
    if (*k == 0 || *k == ns) {
        f[0] = (struct sz_fit){0, ns - 1, 0, 0};
        fit(row, &f[0]);
        return 1;
    }
    f[0] = (struct sz_fit){0, *k - 1, 0, 0};
    f[1] = (struct sz_fit){*k, ns - 1, 0, 0};
    fit(row, &f[0]);
    fit(row, &f[1]);
    return 2;
}

#define SZ_TEXT 16384   /* the description and the threshold's sentence: at most SZ_MAX lines */

/* Append printf text to buf (SZ_TEXT bytes; cut at its end). */
static void add(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(char *buf, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, SZ_TEXT - len, fmt, ap);
    va_end(ap);
}

/* Rank 0: print the table and the fit, write the cluster; the status. */
static int report(struct hm *h, const struct cal_opts *o, const struct sz_row *row, int ns)
{
    int n = h->size;
    struct sz_fit f[2];
    int k, nseg = segments_of(row, ns, f, &k);
    double s0 = row[0].s, r0 = row[0].r;
    char lib[64] = "";
    long eager = library_eager_limit(lib);

    /* the cluster first: the table's model column is what it predicts */
    struct cluster *c = cluster_new(CLUSTER_NODES);
    c->time_unit = TIME_US;
    for (int p = 0; p < n; p++)
        cluster_add_node(c, h->names[p], us(s0), us(r0));
    c->nsegments = nseg;
    c->segments = xcalloc((size_t)nseg, sizeof *c->segments);
    for (int j = 0; j < nseg; j++) {
        struct cluster_segment *g = &c->segments[j];
        g->lo = j == 0 ? 0 : (double)row[f[j].first - 1].size + 1;
        g->hi = (double)row[f[j].last].size;
        g->latency = f[j].a - s0 - r0 > 0 ? us(f[j].a - s0 - r0) : 0;
        g->per_byte = numfmt_round(f[j].g * 1e6, SZ_DIGITS);
    }
    printf("# hetcast-mpi calibrate --sizes %s: %d ranks on 1 host, ping-pong, median of %d "
           "rounds x %d repetitions\n", o->sizes, n, o->rounds, o->iters);
    printf("# %-10s %14s %17s %11s %9s %11s\n", "Size", "Latency (us)", "Bandwidth (MB/s)",
           "Spread (%)", "MPI_Send", "Model (us)");
    for (int i = 0; i < ns; i++) {
        const struct cluster_segment *g = &c->segments[nseg == 2 && i >= k];
        double model = us(s0) + us(r0) + g->latency + (double)row[i].size * g->per_byte;
        printf("%-12ld %14s %17s %11s %9s %11s\n", row[i].size, numfmt_txt(us(row[i].oneway)),
               numfmt_txt(numfmt_round((double)row[i].size / (row[i].oneway * 1e6), 4)),
               numfmt_txt(numfmt_round(100 * row[i].spread, 2)), row[i].waits ? "waits" : "eager",
               numfmt_txt(numfmt_round(model, SZ_DIGITS)));
    }
    char *desc = xcalloc(SZ_TEXT, 1), *thr = xcalloc(SZ_TEXT, 1);
    add(desc, "measured by hetcast-mpi calibrate --sizes %s: %d ranks on 1 host, %d sizes, "
        "median of %d rounds x %d repetitions; times in microseconds\n", o->sizes, n, ns,
        o->rounds, o->iters);
    add(desc, "s, r: MPI_Send and MPI_Recv (arrived) at %ld bytes; a segment's one-way time "
        "s + r + latency + size x per-byte, fitted by least squares on relative errors\n",
        row[0].size);
    if (nseg == 2)
        add(thr, "MPI_Send returns early (eager) up to %ld bytes and waits for the receiver "
            "(rendezvous) from %ld bytes on: one-way time x%s across", row[k - 1].size,
            row[k].size, numfmt_txt(numfmt_round(row[k].oneway / row[k - 1].oneway, 2)));
    else if (k == ns)
        add(thr, "MPI_Send returns early (eager) at every size: no threshold up to %ld bytes",
            row[ns - 1].size);
    else
        add(thr, "MPI_Send waits for the receiver at every size: no threshold from %ld bytes",
            row[0].size);
    if (eager >= 0)
        add(thr, "; the library's %s is %ld bytes", lib, eager);
    else
        add(thr, "; the library tells no eager limit through MPI_T");
    printf("eager/rendezvous: %s\n", thr);
    add(desc, "%s\n", thr);

    for (int j = 0; j < nseg; j++) {
        const struct cluster_segment *g = &c->segments[j];
        double lat = f[j].a - s0 - r0;
        int fitted = f[j].last - f[j].first + 1;
        printf("segment %.0f..%.0f bytes: latency %s us + %s us a byte (s %s us, r %s us; %d "
               "size%s fitted)%s\n", g->lo, g->hi, numfmt_txt(g->latency),
               numfmt_txt(g->per_byte), numfmt_txt(us(s0)), numfmt_txt(us(r0)), fitted,
               fitted == 1 ? "" : "s", lat > 0 ? "" : "; the fit's latency is below 0: 0");
        add(desc, "segment %.0f..%.0f: %d size%s fitted%s\n", g->lo, g->hi, fitted,
            fitted == 1 ? "" : "s", lat > 0 ? "" : ", its latency below 0 written as 0");
    }
    c->latency = numfmt_round(c->segments[0].latency + (double)row[0].size * c->segments[0].per_byte,
                              SZ_DIGITS);
    int noisy = 0;
    for (int i = 0; i < ns; i++)
        if (100 * row[i].spread > o->noise) {
            hm_say(h, false, "calibrate: noisy at %ld bytes: its rounds spread %s %% of their "
                   "median (over --noise %s %%); measure again on a quieter machine, or with "
                   "more --iters", row[i].size, numfmt_txt(numfmt_round(100 * row[i].spread, 2)),
                   numfmt_txt(o->noise));
            add(desc, "noisy at %ld bytes: rounds spread %s %%\n", row[i].size,
                numfmt_txt(numfmt_round(100 * row[i].spread, 2)));
            noisy++;
        }
    desc[strlen(desc) - 1] = '\0';
    cluster_set_str(&c->name, o->name ? o->name : "calibrated");
    cluster_set_str(&c->description, desc);
    int status = cal_save(h, c, o->output);
    if (status == 0) {
        char shown[256];
        printf("calibrated %d ranks on 1 host, %d sizes, %d segment%s; %d size%s noisy "
               "(rounds spread over %s %%) -> %s\n", n, ns, nseg, nseg == 1 ? "" : "s", noisy,
               noisy == 1 ? "" : "s", numfmt_txt(o->noise), SHOWN(o->output, shown));
    }
    free(desc);
    free(thr);
    cluster_free(c);
    return status;
}

int cal_sizes(struct hm *h, const struct cal_opts *o)
{
    long sizes[SZ_MAX];
    char *why = NULL;
    int ns = cal_sizes_parse(o->sizes, sizes, &why);   /* checked before the launch, too */
    free(why);
    if (h->nhosts > 1 || o->per_rank) {
        hm_say(h, false, "calibrate --sizes writes a node table, one latency for every pair: "
               "its ranks run on one host, without --per-rank (here %s); on several hosts, "
               "calibrate one size at a time (--size)", o->per_rank ? "--per-rank" :
               "several hosts");
        return 2;
    }
    int n = h->size;
    size_t nn = (size_t)n * n;
    bool waits[SZ_MAX];
    char *buf = xcalloc((size_t)sizes[ns - 1], 1);
    hm_watchdog(h, "calibrate (does MPI_Send wait?)", 0);
    for (int i = 0; i < ns; i++)
        waits[i] = probe_waits(h, sizes[i], buf);
    free(buf);
    hm_idle_barrier();
    struct cal_meas *meas = xmalloc((size_t)o->rounds * ns * sizeof *meas);
    for (int k = 0; k < o->rounds; k++)
        for (int i = 0; i < ns; i++) {
            meas[(size_t)k * ns + i] = cal_meas_new(nn);
            cal_measure_all(h, sizes[i], o->iters, &meas[(size_t)k * ns + i]);
        }
    hm_watchdog(h, NULL, 0);
    int status = 0;
    if (h->rank == 0) {
        struct sz_row *row = xmalloc((size_t)ns * sizeof *row);
        rows_of(h, meas, o->rounds, sizes, waits, ns, row);
        status = report(h, o, row, ns);
        free(row);
    }
    for (int k = 0; k < o->rounds * ns; k++)
        cal_meas_free(&meas[k]);
    free(meas);
    MPI_Request rq;
    MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    return status;
}
