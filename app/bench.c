/*
 * bench.c - `hetcast bench` (app/bench.h): generates its inputs, times each
 * figure and prints one line per figure.
 *
 * Timing: CPU time of the process (user + system, CLOCK_PROCESS_CPUTIME_ID),
 * the best of --repeat runs, so that other programs on the machine change
 * the figures little.  Memory: the engine figure runs each size in a child
 * process and reports the growth of its peak resident set (getrusage's
 * ru_maxrss) from just before the engine starts to its end, per node: what
 * the engine and the policy really touched, allocator and page rounding
 * included (a few bytes per node below 10^4 nodes).  The cluster itself is
 * the input and is not counted.
 *
 * Every line starts with its figure's name and a colon; lines starting with
 * '#' say what was measured.  The output format is what tests check, never
 * the numbers.  A measured function that gives up (the LP at its time
 * limit) is a result, printed as "failed: why"; the exit status is 1 only
 * when the bench itself could not measure (a file, a process, an engine
 * run that failed).
 */
#include "app/bench.h"
#include "app/cli_common.h"
#include "app/datadir.h"
#include "app/opts.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/cluster.h"
#include "config.h"
#include "engine/engine.h"
#include "sched/exchange.h"
#include "model/generate.h"
#include "support/atomic_dir.h"
#include "support/hugemem.h"
#include "sched/lp.h"
#include "sched/optimal.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "sched/list.h"

enum fig { F_ENGINE, F_CSV, F_OPTIMAL, F_LP, F_VIEW, F_EXCHANGE, F_EXPORT, F_COUNT };
static const char *const fig_names[F_COUNT] = {"engine", "csv", "optimal", "lp", "view",
                                               "exchange", "export"};
#define FIG_LIST "engine, csv, optimal, lp, view, exchange, export"

struct bopts {
    bool quick;
    bool only[F_COUNT];
    long long max_nodes;    /* engine: largest n */
    int repeat;             /* best of */
    bool classes;           /* engine: the papers' three classes instead of random times */
    bool equal_times;       /* engine: integer times, long runs of equal times */
    bool full;              /* engine: also the full engine (records, reasons, timeline) */
    unsigned long long seed; /* --seed (OPT_SEED stores this type) */
    bool only_given;        /* --only: only the figures it names */
};

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ---- generated clusters ---- */

enum table { T_RANDOM, T_CLASSES, T_EQUAL };

static enum table table_of(const struct bopts *o)
{
    return o->classes ? T_CLASSES : o->equal_times ? T_EQUAL : T_RANDOM;
}

/*
 * A node table of n nodes, source node 0, latency 1: the papers' three
 * classes (s, r) = (1,2), (5,6), (10,11) in turn, random times s in [1, 10]
 * (two decimals) with r = s + 1, or random integer times s in [1, 9] with
 * r = s + 1: nine speeds, so that fnf's senders finish in long runs of
 * equal times, a sorted queue with a few items out of place (the order that
 * made the middle of three quadratic in rq_trim's cut).  The node array is allocated at its
 * final size and cluster_finish is not run (the cluster is valid by
 * construction): nothing freed before the engine starts would leave a peak
 * that hides part of the engine's memory.
 */
static struct cluster *gen_nodes(int n, enum table kind, uint64_t seed)
{
    static const char *const names[] = {"random", "three-classes", "equal-times"};
    bool classes = kind == T_CLASSES;
    static const double cls[3][2] = {{1, 2}, {5, 6}, {10, 11}};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    struct rng r;
    rng_seed(&r, seed);
    c->nodes = xmalloc((size_t)(n ? n : 1) * sizeof *c->nodes);
    mem_advise_huge(c->nodes, (size_t)n * sizeof *c->nodes);   /* as the engine's arrays */
    c->cap = n;
    c->latency = 1;
    cluster_set_str(&c->name, names[kind]);
    for (int i = 0; i < n; i++) {
        char name[24];
        snprintf(name, sizeof name, "p%d", i);
        double s = classes            ? cls[i % 3][0]
                   : kind == T_EQUAL ? (double)(1 + rng_below(&r, 9))
                                     : 1 + (double)rng_below(&r, 901) / 100;
        double rv = classes ? cls[i % 3][1] : s + 1;
        cluster_add_node(c, name, s, rv);
    }
    return c;
}

/* A finished node table of n nodes for the exact search: family "2-class"
 * ((1,2) and (5,6), half each), "3-class" (thirds, Liu, Wang & Guo's
 * classes) or "random" (s in [1, 10], two decimals, r = s + 1); L = 1. */
static struct cluster *gen_family(const char *family, int n, uint64_t seed)
{
    static const double cls[3][2] = {{1, 2}, {5, 6}, {10, 11}};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    struct rng r;
    rng_seed(&r, seed);
    c->latency = 1;
    int k = strcmp(family, "2-class") == 0 ? 2 : strcmp(family, "3-class") == 0 ? 3 : 0;
    for (int i = 0; i < n; i++) {
        char name[24];
        snprintf(name, sizeof name, "p%d", i);
        double s, rv;
        if (k) {
            int j = i * k / n;   /* fast ones first: the source is fast */
            s = cls[j][0];
            rv = cls[j][1];
        } else {
            s = 1 + (double)rng_below(&r, 901) / 100;
            rv = s + 1;
        }
        cluster_add_node(c, name, s, rv);
    }
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* A temporary file name for generated input; "" if none could be made. */
static FILE *temp_file(char *path, size_t size)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/hetcast-bench-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        path[0] = '\0';
        return NULL;
    }
    FILE *fp = fdopen(fd, "w");
    if (!fp) {
        close(fd);
        unlink(path);
        path[0] = '\0';
    }
    return fp;
}

/* ---- 1. the engine ---- */

struct engine_fig {
    int ok;
    double seconds;
    double events;
    double bytes_per_node;
    long long late;
    char cause[200];
};

/* One fnf run on c, lean or full; 0 or -1 with *cause. */
static int engine_once(const struct cluster *c, bool full, struct engine *e, char **cause)
{
    int rc = engine_init(e, c, MODEL_ASYNC, cause);
    if (rc == 0 && !full && (rc = engine_set_lean(e, NULL, NULL, cause)) < 0)
        engine_free(e);
    if (rc == 0) {
        struct sched s;
        sched_init(&s, &sched_fnf, NULL);
        rc = sched_run(e, &s, cause);
        sched_free(&s);
        if (rc < 0)
            engine_free(e);
    }
    return rc;
}

#define SMALL_RUNS_S 0.05   /* seconds of runs at least, for small sizes */
#define SMALL_RUNS_MAX 1000

/* In the child: generate, then run fnf `repeat` times on a lean (or full) engine. */
static void engine_measure(int n, const struct bopts *o, bool full, struct engine_fig *f)
{
    /* The repeats free the run's arrays and make them again.  glibc gives
     * the heap's top back to the kernel after each run (more than 128 KB
     * free there) until it has seen a block of more than that freed, which
     * raises its thresholds: then the next run faults its pages in again.
     * Whether that happened depended on the sizes made before (a 10^3-node
     * run measured 0.17 or 0.24 ms as a node's size changed by 16 bytes:
     * 11 or 391 brk calls).  One block of 1 MiB freed here sets them the
     * same way for every size; larger runs still move them as before. */
    void *volatile primer = xmalloc((size_t)1 << 20);
    free(primer);
    /* A small run first, so that what the real run's peak adds is its data,
     * not the code and allocator pages every first run touches. */
    struct cluster *warm = gen_nodes(100, table_of(o), o->seed);
    struct engine e;
    char *cause = NULL;
    if (engine_once(warm, full, &e, &cause) == 0)
        engine_free(&e);
    free(cause);
    cluster_free(warm);
    struct cluster *c = gen_nodes(n, table_of(o), o->seed);
    long rss0 = maxrss_kb();
    f->seconds = INFINITY;
    /* A run of a few thousand events lasts a fraction of a millisecond, and
     * one interrupt or cold cache line is a large part of it: small sizes
     * take the best of as many more runs as fit in SMALL_RUNS_S. */
    double spent = 0;
    for (int rep = 0; rep < o->repeat || (spent < SMALL_RUNS_S && rep < SMALL_RUNS_MAX); rep++) {
        cause = NULL;
        double t0 = cpu_now();
        int rc = engine_once(c, full, &e, &cause);
        double t1 = cpu_now();
        if (rc < 0) {
            snprintf(f->cause, sizeof f->cause, "%s", cause ? cause : "failed");
            free(cause);
            f->ok = 0;
            cluster_free(c);
            return;
        }
        if (t1 - t0 < f->seconds)
            f->seconds = t1 - t0;
        spent += t1 - t0;
        f->events = e.nev;
        f->late = e.late;
        if (rep == 0)
            f->bytes_per_node = (double)(maxrss_kb() - rss0) * 1024.0 / (n ? n : 1);
        engine_free(&e);
    }
    f->ok = 1;
    cluster_free(c);
}

/* One size in a child process, so that its peak memory is its own. */
static int engine_one(int n, const struct bopts *o, bool full, struct engine_fig *f)
{
    memset(f, 0, sizeof *f);
    int fd[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fd) < 0) {
        snprintf(f->cause, sizeof f->cause, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(f->cause, sizeof f->cause, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        struct engine_fig g;
        memset(&g, 0, sizeof g);
        engine_measure(n, o, full, &g);
        ssize_t w = write(fd[1], &g, sizeof g);
        _exit(w == (ssize_t)sizeof g ? 0 : 1);
    }
    close(fd[1]);
    size_t got = 0;
    while (got < sizeof *f) {
        ssize_t r = read(fd[0], (char *)f + got, sizeof *f - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    if (got != sizeof *f) {
        memset(f, 0, sizeof *f);
        if (WIFSIGNALED(status))
            snprintf(f->cause, sizeof f->cause, "the measuring process died of signal %d%s",
                     WTERMSIG(status), WTERMSIG(status) == SIGKILL ? " (out of memory?)" : "");
        else
            snprintf(f->cause, sizeof f->cause, "the measuring process gave no result");
        return -1;
    }
    return f->ok ? 0 : -1;
}

static int fig_engine(const struct bopts *o)
{
    int fails = 0;
    printf("# engine: fnf, async model, %s node table, latency 1, source p0\n",
           o->classes       ? "three classes (s,r) = (1,2), (5,6), (10,11)"
           : o->equal_times ? "random integer s in [1,9], r = s + 1 (long runs of equal times),"
                            : "random s in [1,10] (two decimals), r = s + 1,");
    printf("# seconds: CPU time of the run (engine_init to the last event), best of %d\n"
           "# (or of as many runs as fit in %g s, up to %d, when that is more);\n"
           "# bytes/node: growth of the peak resident set during the first run / nodes\n",
           o->repeat, SMALL_RUNS_S, SMALL_RUNS_MAX);
    for (int pass = 0; pass < (o->full ? 2 : 1); pass++) {
        bool full = pass == 1;
        const char *label = full ? "PERFORMANCE-FULL" : "PERFORMANCE";
        printf("# %s: nodes events seconds events/s bytes/node   (%s)\n", label,
               full ? "full engine: transfer records, reasons, stored timeline"
                    : "lean engine: no records, no reasons, streamed timeline");
        for (long long n = 1000; n <= o->max_nodes; n *= 10) {
            if (full && n > 1000000)
                break;   /* ~400 bytes a node: the full engine stops being useful here */
            struct engine_fig f;
            if (engine_one((int)n, o, full, &f) < 0) {
                printf("%s: %lld failed: %s\n", label, n, f.cause);
                fails++;
                continue;
            }
            printf("%s: %lld %.0f %.6f %.0f %.1f\n", label, n, f.events, f.seconds,
                   f.seconds > 0 ? f.events / f.seconds : 0.0, f.bytes_per_node);
            if (f.late)
                printf("# %lld events out of order: a bug\n", f.late);
            fflush(stdout);
        }
    }
    return fails;
}

/* ---- 2. loading a CSV ---- */

/* The node table the csv and export figures read: n nodes, s uniform in [1, 10]
 * with two decimals, r = s + 1, latency 1. */
static void write_table(FILE *fp, int n, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    fprintf(fp, "# name: bench\n# latency: 1\nname,send,recv\n");
    for (int i = 0; i < n; i++) {
        unsigned s = 100 + (unsigned)rng_below(&r, 901);
        fprintf(fp, "node-%d,%u.%02u,%u.%02u\n", i, s / 100, s % 100, s / 100 + 1, s % 100);
    }
}

static int fig_csv(const struct bopts *o)
{
    int n = o->quick ? 10000 : 1000000;
    char path[512];
    FILE *fp = temp_file(path, sizeof path);
    if (!fp) {
        printf("CSV: nodes %d failed: cannot make a temporary file: %s\n", n, strerror(errno));
        return 1;
    }
    write_table(fp, n, o->seed);
    long bytes = ftell(fp);
    if (fclose(fp) != 0) {
        unlink(path);
        printf("CSV: nodes %d failed: cannot write %s\n", n, path);
        return 1;
    }
    double best = INFINITY;
    int loaded = -1;
    for (int rep = 0; rep < o->repeat; rep++) {
        struct diag d;
        diag_init(&d);
        double t0 = cpu_now();
        struct cluster *c = cluster_load_csv(path, &d);
        double t1 = cpu_now();
        diag_free(&d);
        if (!c)
            break;
        loaded = c->n;
        cluster_free(c);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    unlink(path);
    if (loaded != n) {
        printf("CSV: nodes %d failed: the generated file did not load\n", n);
        return 1;
    }
    printf("# csv: a node table (name,send,recv, two decimals) read from a file, checked and "
           "finished (cluster_load_csv), best of %d\n", o->repeat);
    printf("CSV: nodes %d bytes %ld seconds %.6f MB/s %.1f\n", n, bytes, best,
           (double)bytes / best / 1e6);
    return 0;
}

/* ---- 3. the exact optimum ---- */

/* The sizes tried, in order: every n to 16, then about a fifth more each time. */
static int next_size(int n)
{
    return n < 16 ? n + 1 : n + (n / 5 > 2 ? n / 5 / 2 * 2 : 2);
}

static int fig_optimal(const struct bopts *o)
{
    static const char *const families[] = {"2-class", "3-class", "random"};
    double small = o->quick ? 0.01 : 1.0, large = o->quick ? 0.05 : 10.0;
    int cap = o->quick ? 12 : 2000;
    printf("# optimal: optimal_solve, async, node tables with L = 1: 2-class (1,2),(5,6) half "
           "each; 3-class (1,2),(5,6),(10,11) a third each;\n"
           "# random s in [1,10] (two decimals), r = s + 1.  Sizes 2..16, then +20%% at a time, "
           "until the search gives up at %g s\n"
           "# or refuses the size (its own limits, as for -s optimal); seconds are wall-clock "
           "here, as the search's time limit is\n", large);
    printf("# OPTIMAL: family limit_seconds largest_n seconds_at_largest\n");
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        int best_small = 0, best_large = 0;
        double t_small = 0, t_large = 0;
        char trace[1024] = "", why[300] = "";
        int n = 2;
        for (; n <= cap; n = next_size(n)) {
            struct cluster *c = gen_family(families[f], n, o->seed);
            struct sched_opts so;
            sched_opts_default(&so);
            so.time_limit = large;
            so.node_limit = 1LL << 62;
            struct opt_plan plan;
            char *cause = NULL;
            double t0 = wall_now();
            int rc = optimal_solve(c, MODEL_ASYNC, &so, &plan, &cause);
            double t = wall_now() - t0;
            cluster_free(c);
            bool proven = rc == 0 && plan.status == OPT_PROVEN;
            if (rc < 0)
                snprintf(why, sizeof why, "refused: %s", cause ? cause : "?");
            else if (!proven || t > large)
                snprintf(why, sizeof why, "gave up after %.3g s", t);
            if (rc == 0)
                opt_plan_free(&plan);
            free(cause);
            if (why[0])
                break;
            best_large = n;
            t_large = t;
            if (t <= small) {
                best_small = n;
                t_small = t;
            }
            if (t >= 0.01 && strlen(trace) < sizeof trace - 40)
                snprintf(trace + strlen(trace), sizeof trace - strlen(trace), " n=%d:%.3gs", n, t);
        }
        if (trace[0])
            printf("# %s:%s\n", families[f], trace);
        if (why[0])
            printf("# %s: stopped at n=%d, %s\n", families[f], n, why);
        else
            printf("# %s: stopped at n=%d, the largest size the bench tries\n", families[f],
                   best_large);
        printf("OPTIMAL: %s %g %d %.6f\n", families[f], small, best_small, t_small);
        printf("OPTIMAL: %s %g %d %.6f\n", families[f], large, best_large, t_large);
        fflush(stdout);
    }
    return 0;
}

/* ---- 4. the LP of the pipelined broadcast ---- */

static int fig_lp(const struct bopts *o)
{
    static const int sizes[] = {50, 100, 200, 400, 1000};
    int nsizes = o->quick ? 1 : (int)(sizeof sizes / sizeof sizes[0]);
    printf("# lp: lp_solve_broadcast (LP (2), cuts and columns + GLPK) on generate_platform_random platforms, "
           "link density 0.1, send ratio 0.8\n");
    printf("# LP: nodes edges seconds throughput rows columns rounds\n");
    for (int i = 0; i < nsizes; i++) {
        struct rng r;
        rng_seed(&r, o->seed);
        struct cluster *c = generate_platform_random(&r, sizes[i], 0.1, 0.8);
        struct lp_result res;
        char *cause = NULL;
        double t0 = cpu_now();
        int rc = lp_solve_broadcast(c, &res, &cause);
        double t = cpu_now() - t0;
        if (rc < 0) {   /* a result, not a failure of the bench: it goes on */
            printf("LP: %d %d failed: %s\n", sizes[i], c->nedges, cause ? cause : "?");
        } else {
            printf("LP: %d %d %.6f %.6g %d %d %d\n", sizes[i], c->nedges, t, res.throughput,
                   res.rows, res.cols, res.rounds);
            lp_result_free(&res);
        }
        free(cause);
        cluster_free(c);
        fflush(stdout);
    }
    return 0;
}

/* ---- 5. one frame of the view ---- */

static int fig_view(const struct bopts *o, const struct bench_view_ops *view)
{
    const int n = 1000, w = 200, h = 60, frames = o->quick ? 5 : 200;
    if (!view) {
        printf("# view: skipped, this front end has no view\n");
        return 0;
    }
    char path[512];
    FILE *fp = temp_file(path, sizeof path);
    if (!fp) {
        printf("VIEW: %d failed: cannot make a temporary file\n", n);
        return 1;
    }
    struct cluster *c = gen_family("random", n, o->seed);
    int rc = cluster_write_csv(c, fp);
    cluster_free(c);
    if (fclose(fp) != 0 || rc < 0) {
        unlink(path);
        printf("VIEW: %d failed: cannot write %s\n", n, path);
        return 1;
    }
    char *cause = NULL;
    void *v = view->open(path, w, h, &cause);
    unlink(path);
    if (!v) {
        printf("VIEW: %d failed: %s\n", n, cause ? cause : "?");
        free(cause);
        return 1;
    }
    view->draw(v);   /* warm up */
    double best = INFINITY;
    for (int rep = 0; rep < o->repeat; rep++) {
        double t0 = cpu_now();
        for (int i = 0; i < frames; i++)
            view->draw(v);
        double t = (cpu_now() - t0) / frames;
        if (t < best)
            best = t;
    }
    int events = view->events(v);
    view->close(v);
    printf("# view: the main screen (Gantt, narration, status) of fnf on a random %d-node "
           "table, half way through, drawn into a %dx%d cell buffer\n", n, w, h);
    printf("# VIEW: nodes events width height ms/frame\n");
    printf("VIEW: %d %d %d %d %.4f\n", n, events, w, h, best * 1e3);
    return 0;
}

/* ---- 6. an all-to-all exchange ---- */

static int fig_exchange(const struct bopts *o)
{
    int n = o->quick ? 100 : 1000, fails = 0;
    struct cluster *c = gen_family("random", n, o->seed);
    printf("# exchange: all-to-all, caterpillar order, random %d-node table (s in [1,10], "
           "r = s + 1, L = 1)\n", n);
    printf("# EXCHANGE: nodes messages model seconds messages/s\n");
    static const enum model models[] = {MODEL_ASYNC, MODEL_SYNC};
    for (int i = 0; i < 2; i++) {
        double best = INFINITY;
        long long msgs = 0;
        for (int rep = 0; rep < o->repeat; rep++) {
            struct exchange x;
            struct exchange_opts xo = {.pattern = XPAT_ALL_TO_ALL, .ops = &xsched_caterpillar,
                                       .seed = o->seed};
            char *cause = NULL;
            double t0 = cpu_now();
            int rc = exchange_run(&x, c, models[i], &xo, &cause);
            double t = cpu_now() - t0;
            if (rc < 0) {
                printf("EXCHANGE: %d failed: %s\n", n, cause ? cause : "?");
                free(cause);
                fails++;
                break;
            }
            msgs = x.eng.ntr;
            exchange_free(&x);
            if (t < best)
                best = t;
        }
        if (msgs)
            printf("EXCHANGE: %d %lld %s %.6f %.0f\n", n, msgs, model_name(models[i]), best,
                   (double)msgs / best);
        fflush(stdout);
    }
    cluster_free(c);
    return fails;
}

/* ---- 7. exports, whole processes ---- */

/* CPU seconds (user + system) of `hetcast run path -s fnf args...` run by this
 * very program, its output to /dev/null; -1 when it could not run or failed. */
static double run_child(const char *self, const char *path, const char *const *args)
{
    const char *argv[16] = {self, "run", path, "-s", "fnf"};
    int k = 5;
    for (int i = 0; args[i] && k < 15; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        if (!null || !freopen("/dev/null", "w", stderr))
            _exit(127);
        execv(self, (char *const *)argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* The least CPU of o->repeat runs of run_child (INFINITY: one failed); out, when
 * not NULL, a directory the run writes, removed after each. */
static double least_cpu(const struct bopts *o, const char *self, const char *path,
                        const char *const *args, const char *out)
{
    double least = INFINITY;
    for (int rep = 0; rep < o->repeat; rep++) {
        double s = run_child(self, path, args);
        if (out)
            atomic_dir_remove(out);
        if (s < 0)
            return INFINITY;
        least = s < least ? s : least;
    }
    return least;
}

/* Each export of fnf's run on a generated node table, as a whole process against
 * `--summary` on the same file; OTF2, a file per node, on the smaller table only. */
static int fig_export(const struct bopts *o)
{
    static const char *const fmts[] = {"csv", "json", "svg", "paje", "chrome", "otf2"};
    char self[4096], path[512], dir[600];
    if (!app_exe_path(self, sizeof self)) {
        printf("EXPORT: failed: cannot find this program (/proc/self/exe)\n");
        return 1;
    }
    int fails = 0;
    for (int big = 0; big < 2; big++) {
        int n = big ? (o->quick ? 10000 : 1000000) : (o->quick ? 1000 : 10000);
        FILE *fp = temp_file(path, sizeof path);
        if (fp)
            write_table(fp, n, o->seed);
        if (!fp || fclose(fp) != 0) {
            if (fp)
                unlink(path);
            printf("EXPORT: nodes %d failed: cannot write a temporary file\n", n);
            return fails + 1;
        }
        snprintf(dir, sizeof dir, "%s.otf2", path);
        const char *summary_args[] = {"--summary", NULL};
        double summary = least_cpu(o, self, path, summary_args, NULL);
        for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
            bool otf2 = strcmp(fmts[f], "otf2") == 0;
            if (otf2 == (bool)big)   /* a file a node: 10^6 of them is the file system's time */
                continue;
            const char *args[] = {"--format", fmts[f], otf2 ? "--output" : NULL, dir, NULL};
            double s = isinf(summary) ? INFINITY : least_cpu(o, self, path, args, otf2 ? dir : NULL);
            if (isinf(s))
                printf("EXPORT: nodes %d format %s failed\n", n, fmts[f]);
            else
                printf("EXPORT: nodes %d format %s seconds %.4f summary %.4f ratio %.2f\n", n,
                       fmts[f], s, summary, s / summary);
            fails += isinf(s);
        }
        unlink(path);
    }
    printf("# export: fnf's run on a generated node table, each format to /dev/null (OTF2: a "
           "directory, a file a node) by this program run anew, the least CPU of %d against "
           "--summary on the same file, whole processes\n", o->repeat);
    return fails;
}

/* ---- options ---- */

enum { B_QUICK = OPT_LONG, B_ONLY, B_MAX_NODES, B_REPEAT, B_CLASSES, B_EQUAL_TIMES, B_FULL,
       B_SEED };

#define AT(f) offsetof(struct bopts, f)
static const struct opt bench_table[] = {
    {"quick", B_QUICK, NULL, "small sizes, to check that it runs (seconds)", OPT_FLAG, AT(quick),
     0, 0, NULL},
    {"only", B_ONLY, "LIST", "figures, comma-separated: " FIG_LIST,
     OPT_CALL, 0, 0, 0, NULL},
    {"max-nodes", B_MAX_NODES, "N", "engine: the largest cluster, a power of ten (default 10000000)",
     OPT_CALL, 0, 0, 0, NULL},
    {"repeat", B_REPEAT, "R", "best of R runs (default 3, 1 with --quick)", OPT_INT, AT(repeat), 1,
     1000, NULL},
    {"classes", B_CLASSES, NULL, "engine: the papers' three classes instead of random times",
     OPT_FLAG, AT(classes), 0, 0, NULL},
    {"equal-times", B_EQUAL_TIMES, NULL,
     "engine: integer times in [1, 9], long runs of equal times, instead of two decimals",
     OPT_FLAG, AT(equal_times), 0, 0, NULL},
    {"full", B_FULL, NULL, "engine: also the full engine (records, reasons, timeline)", OPT_FLAG,
     AT(full), 0, 0, NULL},
    {"seed", B_SEED, "N", "generated inputs (default 1)", OPT_SEED, AT(seed), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static void usage(FILE *fp)
{
    fprintf(fp, "usage: hetcast bench [options]   measure hetcast's speed (docs/performance.md)\n");
    opts_help(fp, bench_table);
}

static int bench_set(void *ctx, int key, const char *a, const char *v)
{
    struct bopts *o = ctx;
    long x;
    if (key == B_MAX_NODES) {
        if (opt_long(a, v, 1000, 100000000, &x))
            return 2;
        o->max_nodes = x;
    } else if (key == B_ONLY) {
        char *list = xstrdup(v), *save = NULL;
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int f = 0;
            while (f < F_COUNT && strcmp(tok, fig_names[f]) != 0)
                f++;
            if (f == F_COUNT) {
                free(list);
                return opt_fail(a, v, "a list of figures: " FIG_LIST);
            }
            o->only[f] = true;
            o->only_given = true;
        }
        free(list);
    }
    return 0;
}

/* Returns 0, -1 after the help, or an exit status. */
static int parse(int argc, char **argv, struct bopts *o)
{
    memset(o, 0, sizeof *o);
    o->max_nodes = 10000000;
    o->repeat = 0;
    o->seed = 1;
    int n;
    int rc = opts_parse("hetcast bench", bench_table, argc, argv, bench_set, o, NULL, 0, &n);
    if (rc == OPTS_HELP) {
        usage(stdout);
        return -1;
    }
    if (rc)
        return rc;
    if (o->classes && o->equal_times)
        return opts_error(2, "--classes and --equal-times are two tables: give one");
    if (!o->only_given)
        for (int f = 0; f < F_COUNT; f++)
            o->only[f] = true;
    if (o->quick && o->max_nodes > 10000)
        o->max_nodes = 10000;
    if (o->repeat == 0)
        o->repeat = o->quick ? 1 : 3;
    return 0;
}

int bench_main(int argc, char **argv, const struct bench_view_ops *view)
{
    struct bopts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("# hetcast bench: hetcast %s, %ld cpu%s online%s\n", HETCAST_VERSION, cpus,
           cpus == 1 ? "" : "s", o.quick ? ", --quick (small sizes: the figures mean little)" : "");
    FILE *la = fopen("/proc/loadavg", "r");   /* Linux: how busy the machine is */
    double load;
    if (la && fscanf(la, "%lf", &load) == 1)
        printf("# load average at the start: %.2f (other programs slow the figures down)\n", load);
    if (la)
        fclose(la);
    int fails = 0;
    if (o.only[F_ENGINE])
        fails += fig_engine(&o);
    if (o.only[F_CSV])
        fails += fig_csv(&o);
    if (o.only[F_OPTIMAL])
        fails += fig_optimal(&o);
    if (o.only[F_LP])
        fails += fig_lp(&o);
    if (o.only[F_VIEW])
        fails += fig_view(&o, view);
    if (o.only[F_EXCHANGE])
        fails += fig_exchange(&o);
    if (o.only[F_EXPORT])
        fails += fig_export(&o);
    return cli_output_status(fails ? 1 : 0);
}
