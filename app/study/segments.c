/*
 * app/study/segments.c - hetcast experiment segments: the best segment size
 * of a message on a node table whose `# segment:` lines give the cost of a
 * piece of any size (docs/models.md, "The best segment size").  For each
 * segmented broadcast asked (-s) and each number of segments K from 1 to
 * --max-segments whose segments of ceil(S/K) bytes are all non-empty, the
 * makespan of the message of S bytes cut into K segments, each charged as
 * a message of ceil(S/K) bytes (the latency L + m G of the line covering
 * m; the last segment, maybe shorter, as a full one); then, per broadcast,
 * the K of the least makespan, its neighbours and the run that repeats it.
 */
#include "app/study/experiment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opts.h"
#include "model/timing.h"
#include "output/report.h"
#include "sched/mpibcast.h"
#include "session/run.h"
#include "session/session.h"
#include "support/diag.h"

#define SEGX_MAX_K 1024          /* --max-segments at most */
#define SEGX_DEFAULT_K 64

struct segx_opts {
    const char *file;
    long long size;               /* --size: the message, bytes */
    int kmax;                     /* --max-segments */
    int csv;                      /* --format: text (0) or csv (1) */
    struct session_opts s;        /* -s, -m, --source */
};

enum { G_SIZE = OPT_LONG, G_MAXK, G_SOURCE, G_FORMAT };

static const struct opt segx_table[] = {
    {"size", G_SIZE, "BYTES", "the message to cut, in bytes (required)", OPT_CALL, 0, 0, 0, NULL},
    {"scheduler", 's', "NAME", "a segmented broadcast (repeatable; default: chain, binomial, "
     "knomial, scatter-allgather, scatter-rdb on a power of two, two-tree)", OPT_CALL, 0, 0, 0,
     NULL},
    {"model", 'm', "NAME", "port model (default async)", OPT_CALL, 0, 0, 0, NULL},
    {"source", G_SOURCE, "NAME", "the node that holds the message first", OPT_CALL, 0, 0, 0,
     NULL},
    {"max-segments", G_MAXK, "K", "try K = 1 to this many segments (default 64, at most 1024)",
     OPT_INT, offsetof(struct segx_opts, kmax), 1, SEGX_MAX_K, NULL},
    {"format", G_FORMAT, "F", "text (default) or csv", OPT_CHOICE, offsetof(struct segx_opts, csv),
     0, 0, opts_text_csv},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};

static int segx_set(void *ctx, int key, const char *name, const char *val)
{
    struct segx_opts *o = ctx;
    long v;
    switch (key) {
    case G_SIZE:
        if (opt_long(name, val, 1, (long)CLUSTER_MAX_SEGMENT_BYTES, &v))
            return 2;
        o->size = v;
        return 0;
    case 's':
        if (o->s.nsched >= SESSION_MAX_SCHEDS)
            return opts_error(2, "-s: at most %d schedulers", SESSION_MAX_SCHEDS);
        o->s.sched[o->s.nsched++] = val;
        return 0;
    case 'm':
        o->s.model = val;
        return 0;
    case G_SOURCE:
        o->s.source = val;
        return 0;
    }
    return 2;
}

static void segx_help(FILE *fp)
{
    fputs("usage: hetcast experiment segments FILE --size BYTES [-s NAME ...] [options]\n"
          "The best number of segments for a message of BYTES bytes on a node table with\n"
          "# segment: lines (hetcast-mpi calibrate --sizes writes them): each K's makespan,\n"
          "then the least per broadcast (docs/models.md).\n\noptions:\n", fp);
    opts_help(fp, segx_table);
}

/* The K worth trying: those whose segments of ceil(S/K) bytes are all
 * non-empty (another K with the same segment size is the same cut). */
static int cuts(long long size, int kmax, int *k)
{
    int nk = 0;
    for (long long K = 1; K <= kmax && K <= size; K++) {
        long long piece = (size + K - 1) / K;
        if ((size + piece - 1) / piece == K)
            k[nk++] = (int)K;
    }
    return nk;
}

static long long piece_of(long long size, int k)
{
    return (size + k - 1) / k;
}

/* The schedulers asked, each a segmented broadcast that runs on c under m. */
static int pick(const struct segx_opts *o, const struct cluster *c, enum model m,
                const struct sched_ops **ops)
{
    static const char *const defaults[] = {"chain", "binomial", "knomial", "scatter-allgather",
                                           "scatter-rdb", "two-tree"};
    int n = 0;
    char *cause = NULL;
    for (int i = 0; i < (o->s.nsched ? o->s.nsched : 6); i++) {
        const char *name = o->s.nsched ? o->s.sched[i] : defaults[i];
        if (!o->s.nsched && strcmp(name, "scatter-rdb") == 0 && !rdb_applies(c->n))
            continue;   /* it would be scatter-allgather's row again */
        const struct sched_ops *x = session_sched(name, &cause);
        if (!x) {
            opts_say(diag_who(), cause);
            free(cause);
            return -1;
        }
        if (!mpibcast_segmented(x)) {
            char shown[96];
            opts_error(2, "-s %s: not a segmented broadcast (those that cut the message: chain, "
                       "binomial, knomial, flat, Figueira's trees, scatter-allgather, scatter-rdb, "
                       "two-tree)", SHOWN(name, shown));
            return -1;
        }
        if (sched_check(x, c, m, &cause) < 0 || mpibcast_check(x, c, o->kmax, &cause) < 0) {
            opts_say(diag_who(), cause);
            free(cause);
            return -1;
        }
        ops[n++] = x;
    }
    return n;
}

/* Every K covered by a # segment: line?  0, or 2 after saying which is not. */
static int covered(const struct segx_opts *o, struct cluster *c, const int *k, int nk)
{
    double latency = c->latency;
    for (int i = 0; i < nk; i++) {
        long long piece = piece_of(o->size, k[i]);
        int found = timing_set_message_size(c, (double)piece);
        c->latency = latency;
        if (found >= 0)
            continue;
        char shown[256];
        const struct cluster_segment *lo = &c->segments[0], *hi = &c->segments[c->nsegments - 1];
        if (k[i] == 1)
            return opts_error(2, "--size %lld: no size segment of %s covers it (they cover %.0f to "
                              "%.0f bytes, from line %d; calibrate that size: docs/mpi.md)",
                              o->size, SHOWN(o->file, shown), lo->lo, hi->hi, lo->line);
        return opts_error(2, "--size %lld in %d segments: segments of %lld bytes, which no size "
                          "segment of %s covers (they cover %.0f to %.0f bytes, from line %d); "
                          "--max-segments %d stops before it", o->size, k[i], piece,
                          SHOWN(o->file, shown), lo->lo, hi->hi, lo->line, k[i - 1]);
    }
    return 0;
}

/* ms[i * ns + j]: the makespan of scheduler j cut into k[i] segments. */
static int measure(const struct segx_opts *o, struct cluster *c, enum model m,
                   const struct sched_ops *const *ops, int ns, const int *k, int nk, double *ms)
{
    for (int i = 0; i < nk; i++) {
        timing_set_message_size(c, (double)piece_of(o->size, k[i]));
        for (int j = 0; j < ns; j++) {
            struct sched_opts so = o->s.sopt;
            so.slices = k[i];
            struct run r;
            char *cause = NULL;
            if (run_schedule(&r, c, m, ops[j], &so, RUN_OPT_NEVER, &cause) < 0) {
                opts_error(1, "%s, %d segments: %s", ops[j]->name, k[i], cause ? cause : "failed");
                free(cause);
                return 1;
            }
            ms[(size_t)i * (size_t)ns + (size_t)j] = r.eng.makespan;
            run_free(&r);
        }
    }
    return 0;
}

/* The row of scheduler j's least makespan; a tie goes to the fewer segments. */
static int best_of(const double *ms, int j, int ns, int nk)
{
    int b = 0;
    for (int i = 1; i < nk; i++)
        if (ms[(size_t)i * ns + j] < ms[(size_t)b * ns + j])
            b = i;
    return b;
}

/* Scheduler j's best K (best_of),
 * its neighbours among the cuts tried and the run that repeats it. */
static void print_best(const struct segx_opts *o, const struct cluster *c, enum model m,
                       const struct sched_ops *x, int j, int ns, const int *k, int nk,
                       const double *ms)
{
    int b = best_of(ms, j, ns, nk), ties = 0;
    for (int i = 0; i < nk; i++)
        ties += i != b && ms[(size_t)i * ns + j] == ms[(size_t)b * ns + j];
    printf("best %-17s K = %d (segments of %lld bytes): makespan %.6g, the least of %d cuts",
           x->name, k[b], piece_of(o->size, k[b]), ms[(size_t)b * ns + j], nk);
    if (b > 0)
        printf("; K = %d: %.6g", k[b - 1], ms[(size_t)(b - 1) * ns + j]);
    if (b + 1 < nk)
        printf("; K = %d: %.6g", k[b + 1], ms[(size_t)(b + 1) * ns + j]);
    if (ties)
        printf("; %d other K tie%s it (the fewest segments kept)", ties, ties == 1 ? "s" : "");
    char shown[256], src[96];
    printf("\n     repeat: hetcast run %s -m %s -s %s --slices %d --size %lld%s%s\n",
           SHOWN(o->file, shown), model_name(m), x->name, k[b], piece_of(o->size, k[b]),
           o->s.source ? " --source " : "", o->s.source ? SHOWN(c->nodes[c->source].name, src)
                                                        : "");
}

/* A scheduler's column: its name, at least 10 wide. */
static int col_width(const struct sched_ops *x)
{
    int w = (int)strlen(x->name);
    return w > 10 ? w : 10;
}

static void print_text(const struct segx_opts *o, const struct cluster *c, enum model m,
                       const struct sched_ops *const *ops, int ns, const int *k, int nk,
                       const double *ms)
{
    report_cluster_line(stdout, c);
    printf("model: %s\n"
           "message: %lld bytes in K = %d to %d segments of ceil(%lld / K) bytes (the %d values "
           "of K that leave no segment empty)\n"
           "a segment of m bytes costs each node's send and receive as its row gives them and the "
           "latency L + m G of the # segment: line covering m; the last segment, maybe shorter, "
           "is charged as a full one\n", model_name(m), o->size, k[0], k[nk - 1], o->size, nk);
    for (int j = 0; j < ns; j++)
        if (ops[j] == &sched_scatter_rdb && !rdb_applies(c->n))
            printf("scatter-rdb on %d ranks, no power of two: the ring allgather, as MPICH falls "
                   "back (scatter-allgather's runs)\n", c->n);
    printf("\n%5s %9s", "K", "bytes");
    for (int j = 0; j < ns; j++)
        printf("  %*s", col_width(ops[j]), ops[j]->name);
    printf("\n");
    for (int i = 0; i < nk; i++) {
        printf("%5d %9lld", k[i], piece_of(o->size, k[i]));
        for (int j = 0; j < ns; j++)
            printf("  %*.6g", col_width(ops[j]), ms[(size_t)i * ns + j]);
        printf("\n");
    }
    printf("\n");
    for (int j = 0; j < ns; j++)
        print_best(o, c, m, ops[j], j, ns, k, nk, ms);
}

static void print_csv(const struct segx_opts *o, const struct sched_ops *const *ops, int ns,
                      const int *k, int nk, const double *ms)
{
    printf("scheduler,segments,segment_bytes,makespan,best\n");
    for (int j = 0; j < ns; j++) {
        int b = best_of(ms, j, ns, nk);
        for (int i = 0; i < nk; i++)
            printf("%s,%d,%lld,%.17g,%d\n", ops[j]->name, k[i], piece_of(o->size, k[i]),
                   ms[(size_t)i * ns + j], i == b);
    }
}

int exp_segments_main(int argc, char **argv)
{
    struct segx_opts o = {.kmax = SEGX_DEFAULT_K};
    session_opts_init(&o.s);
    const char *operands[1];
    int nop = 0;
    int rc = opts_parse(diag_who(), segx_table, argc, argv, segx_set, &o, operands, 1, &nop);
    if (rc == OPTS_HELP) {
        segx_help(stdout);
        return 0;
    }
    if (rc)
        return rc;
    if (nop < 1)
        return opts_error(2, "which cluster? hetcast experiment segments FILE --size BYTES");
    if (o.size <= 0)
        return opts_error(2, "--size BYTES is required: the message to cut into segments");
    o.file = o.s.file = operands[0];
    struct diag warn;
    diag_init(&warn);
    char *cause = NULL;
    struct cluster *c = session_load(&o.s, &warn, &cause);
    char *w = diag_join(&warn);
    if (w)
        opts_say(NULL, w);
    free(w);
    diag_free(&warn);
    if (!c) {
        opts_say(diag_who(), cause);
        free(cause);
        return 2;
    }
    rc = 2;
    enum model m;
    const struct sched_ops *ops[SESSION_MAX_SCHEDS];
    int k[SEGX_MAX_K], ns, nk = cuts(o.size, o.kmax, k);
    double *ms = NULL;
    if (c->kind != CLUSTER_NODES || c->nsegments == 0) {
        char shown[256];
        opts_error(2, "%s %s: the cost of a segment shorter than the message is unknown "
                   "(hetcast-mpi calibrate --sizes writes # segment: lines; docs/formats.md)",
                   SHOWN(o.file, shown),
                   c->kind != CLUSTER_NODES ? "is no node table" : "has no # segment: lines");
    } else if (session_model(&o.s, c, &m, &cause) < 0) {
        opts_say(diag_who(), cause);
        free(cause);
    } else if ((ns = pick(&o, c, m, ops)) >= 0 && covered(&o, c, k, nk) == 0) {
        ms = xmalloc((size_t)nk * (size_t)ns * sizeof *ms);
        double latency = c->latency;   /* the file's, for the cluster's line */
        rc = measure(&o, c, m, ops, ns, k, nk, ms);
        c->latency = latency;
        if (rc == 0 && o.csv) {
            exp_provenance_csv(argc, argv, o.s.sopt.seed);   /* the schedulers' seed (unused) */
            print_csv(&o, ops, ns, k, nk, ms);
        }
        else if (rc == 0)
            print_text(&o, c, m, ops, ns, k, nk, ms);
    }
    free(ms);
    cluster_free(c);
    return rc;
}
