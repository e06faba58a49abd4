/*
 * app/study/optima.c - hetcast experiment optima: a benchmark set of random
 * node tables with their proven optima (docs/optima.md), and optima-check,
 * which reads a set back and proves every listed value again.
 *
 * A study of numbered trials (app/study/trials.h): trial k solves cluster
 * k / M (M models) under its k % M-th model.  Cluster j is drawn from
 * rng_seed_trial(seed, j) alone, so every model solves the same table and
 * any split of the trials (--shard, --jobs, --resume) writes the same files.
 * A trial writes its cluster (DIR/NAME.csv) and its best schedule
 * (DIR/NAME.MODEL.csv) atomically; the whole run's print writes the index
 * (DIR/index.csv), the same bytes whichever way the trials were split.
 */
#include "app/study/experiment.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/opts.h"
#include "engine/engine.h"
#include "model/cluster.h"
#include "sched/certify.h"
#include "sched/optimal.h"
#include "sched/optimal_sum.h"
#include "support/atomic.h"
#include "support/diag.h"
#include "support/numfmt.h"

/* A trial's row. */
enum { OV_N, OV_PROVEN, OV_BEST, OV_LOWER, OV_SUM, OV_EXPLORED, OV_NV };
static const char *const optima_cols[] = {"n", "proven", "best", "lower_bound", "sum", "explored"};

#define INDEX_HEADER "cluster,schedule,model,n,draw,status,best,lower_bound,sum,explored"

struct optima_ctx {
    int nmodels;
    enum model models[MODEL_COUNT];
};

static int nmodels_of(unsigned mask, enum model *out)
{
    int k = 0;
    for (int m = 0; m < MODEL_COUNT; m++)
        if (mask & MODEL_BIT(m)) {
            if (out)
                out[k] = (enum model)m;
            k++;
        }
    return k;
}

int exp_optima_setup(const struct xopts *o, struct tctx *t, struct trial_head *h)
{
    if (!o->out)
        return opts_error(2, "optima: --out DIR names the folder the set is written to");
    t->lo = o->nodes_min ? o->nodes_min : 4;
    t->hi = o->nodes_max ? o->nodes_max : 10;
    t->runs = o->runs ? o->runs : 3;
    if (t->lo < 2)
        return opts_error(2, "--nodes: at least 2 (a broadcast needs a receiver)");
    if (t->hi > OPT_DEFAULT_MAX_NODES)
        return opts_error(2, "--nodes: at most %d (the exact search's limit)", OPT_DEFAULT_MAX_NODES);
    if (strlen(o->out) > 400)
        return opts_error(2, "--out: a folder name of at most 400 characters");
    unsigned mask = o->models ? o->models : model_mask_for(CLUSTER_NODES);
    if (mask & ~model_mask_for(CLUSTER_NODES)) {
        char *why = model_refusal((enum model)__builtin_ctz(mask & ~model_mask_for(CLUSTER_NODES)),
                                  CLUSTER_NODES);
        int rc = opts_error(2, "--models: %s (the set's clusters are node tables)", why);
        free(why);
        return rc;
    }
    int nm = nmodels_of(mask, NULL);
    h->trials = (long)(t->hi - t->lo + 1) * t->runs * nm;
    char models[160] = "", a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
    for (int m = 0; m < MODEL_COUNT; m++)
        if (mask & MODEL_BIT(m))
            snprintf(models + strlen(models), sizeof models - strlen(models), "%s%s",
                     models[0] ? "," : "", model_name((enum model)m));
    /* the folder is a parameter too: merge writes the index into it */
    snprintf(h->options, sizeof h->options,
             "--nodes %d:%d --runs %ld --models %s --classes %d --send-range %s:%s --recv %s "
             "--latency %s --node-limit %ld --out %s", t->lo, t->hi, t->runs, models, o->classes,
             numfmt_shortest(a, o->lo), numfmt_shortest(b, o->hi), o->recv,
             numfmt_shortest(c, o->latency), o->node_limit, o->out);
    if (strchr(o->out, ' '))
        return opts_error(2, "--out: \"%s\": a folder name without spaces (the set's provenance "
                          "lists it among the options)", o->out);
    return 0;
}

/* The models of a run, in MODEL order. */
static void optima_models(const struct tctx *t, struct optima_ctx *oc)
{
    oc->nmodels = nmodels_of(t->o.models ? t->o.models : model_mask_for(CLUSTER_NODES), oc->models);
}

/* Cluster j's name: n07-003 (size, then its run among that size's). */
static void cluster_name(const struct tctx *t, long j, char *buf, size_t size)
{
    snprintf(buf, size, "n%02d-%03ld", t->lo + (int)(j / t->runs), j % t->runs + 1);
}

static struct cluster *draw_cluster(const struct tctx *t, long j)
{
    struct rng r;
    rng_seed_trial(&r, t->o.seed, (uint64_t)j);
    struct exp_gen g = {t->o.classes, t->o.lo, t->o.hi, t->o.recv, t->o.latency};
    struct cluster *c = exp_random_cluster(&r, t->lo + (int)(j / t->runs), &g);
    char name[64], desc[256];
    cluster_name(t, j, name, sizeof name);
    cluster_set_str(&c->name, name);
    snprintf(desc, sizeof desc, "hetcast experiment optima --seed %llu: cluster %ld (drawn from "
             "rng_seed_trial(%llu, %ld))", t->o.seed, j, t->o.seed, j);
    cluster_set_str(&c->description, desc);
    return c;
}

/* Save through atomic.h: what write() puts in, or nothing.  0 or -1 (said). */
static int save(const char *dir, const char *path, void (*write)(FILE *fp, const void *arg),
                const void *arg)
{
    struct atomic_file af;
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "hetcast experiment optima: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if (atomic_open(&af, path) < 0) {
        fprintf(stderr, "hetcast experiment optima: %s: %s\n", path, atomic_why(&af, errno));
        return -1;
    }
    write(af.fp, arg);
    if (atomic_commit(&af) < 0) {
        fprintf(stderr, "hetcast experiment optima: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void write_cluster(FILE *fp, const void *c)
{
    cluster_write_csv(c, fp);
}

struct sched_file {
    const struct engine *e;
    const char *cluster;
    const struct opt_plan *plan;
};

/* A schedule file: the decisions in booking order with their times. */
static void write_schedule(FILE *fp, const void *arg)
{
    const struct sched_file *sf = arg;
    const struct engine *e = sf->e;
    char a[NUMFMT_SIZE], b[NUMFMT_SIZE];
    fprintf(fp, "# schedule: %s\n# cluster: %s\n# model: %s\n# makespan: %s\n",
            sf->plan->status == OPT_PROVEN ? "optimal (proven by hetcast's exact search)"
                                           : "the best the exact search found before its limit (not proven)",
            sf->cluster, model_name(e->model), numfmt_text(a, e->makespan));
    if (sf->plan->status != OPT_PROVEN)
        fprintf(fp, "# lower bound: %s\n", numfmt_text(a, sf->plan->lower));
    fprintf(fp, "step,from,to,start,holds\n");
    for (int i = 0; i < e->ntr; i++) {
        const struct transfer *tr = &e->tr[i];
        fprintf(fp, "%d,", i + 1);
        text_put(e->c->nodes[tr->from].name, fp);
        fputc(',', fp);
        text_put(e->c->nodes[tr->to].name, fp);
        fprintf(fp, ",%s,%s\n", numfmt_text(a, tr->start), numfmt_text(b, tr->hold));
    }
}

/* Equal as the files write numbers (numfmt_text: 10 significant digits where more would show a
 * sum's rounding): within a relative 1e-9. */
static bool same(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* Replays decisions through the engine: 0, or -1 with *cause. */
static int replay(struct engine *e, const struct cluster *c, enum model m, int len,
                  const int *from, const int *to, char **cause)
{
    if (engine_init(e, c, m, cause) < 0)
        return -1;
    for (int i = 0; i < len; i++)
        if (engine_book(e, from[i], to[i], 0, NULL, cause) < 0) {
            engine_free(e);
            return -1;
        }
    return 0;
}

static int optima_trial(const void *ctx, long k, struct rng *r, double *v)
{
    const struct tctx *t = ctx;
    (void)r;   /* the cluster has its own stream, shared by every model */
    struct optima_ctx oc;
    optima_models(t, &oc);
    long j = k / oc.nmodels;
    enum model m = oc.models[k % oc.nmodels];
    struct cluster *c = draw_cluster(t, j);
    struct sched_opts so;
    sched_opts_default(&so);
    so.time_limit = SCHED_NO_CLOCK;
    so.node_limit = t->o.node_limit;
    struct opt_plan plan;
    struct engine e;
    char *cause = NULL, name[64], path[512];
    cluster_name(t, j, name, sizeof name);
    int rc = optimal_solve(c, m, &so, &plan, &cause);
    if (rc == 0) {
        rc = replay(&e, c, m, plan.len, plan.from, plan.to, &cause);
        if (rc == 0) {
            v[OV_N] = c->n;
            v[OV_PROVEN] = plan.status == OPT_PROVEN;
            v[OV_BEST] = e.makespan;
            v[OV_LOWER] = plan.status == OPT_PROVEN ? e.makespan : plan.lower;
            v[OV_SUM] = sched_sum_of_holds(&e);
            v[OV_EXPLORED] = (double)plan.explored;
            char cfile[80];
            snprintf(cfile, sizeof cfile, "%s.csv", name);
            snprintf(path, sizeof path, "%s/%s", t->o.out, cfile);
            struct sched_file sf = {&e, cfile, &plan};
            if (save(t->o.out, path, write_cluster, c) < 0)
                rc = -2;
            snprintf(path, sizeof path, "%s/%s.%s.csv", t->o.out, name, model_name(m));
            if (rc == 0 && save(t->o.out, path, write_schedule, &sf) < 0)
                rc = -2;
            engine_free(&e);
        }
        opt_plan_free(&plan);
    }
    if (rc == -1)
        fprintf(stderr, "hetcast experiment optima: %s under %s: %s\n", name, model_name(m), cause);
    free(cause);
    cluster_free(c);
    return rc < 0 ? -1 : 0;
}

struct index_out {
    const struct tctx *t;
    const struct trial_head *h;
    const double *v;
    enum trial_format f;
};

/* The index, as CSV (the file and --format csv) or JSON. */
static void write_index(FILE *fp, const void *arg)
{
    const struct index_out *io = arg;
    const struct tctx *t = io->t;
    struct optima_ctx oc;
    optima_models(t, &oc);
    if (io->f == TF_JSON) {
        fputc('{', fp);
        trials_head_json(fp, io->h);
        fprintf(fp, ", \"clusters\": [");
    } else {
        trials_head_csv(fp, io->h);
        fprintf(fp, INDEX_HEADER "\n");
    }
    for (long k = 0; k < io->h->trials; k++) {
        const double *row = io->v + (size_t)k * OV_NV;
        long j = k / oc.nmodels;
        const char *model = model_name(oc.models[k % oc.nmodels]);
        char name[64], a[NUMFMT_SIZE], b[NUMFMT_SIZE], s[NUMFMT_SIZE];
        cluster_name(t, j, name, sizeof name);
        numfmt_text(a, row[OV_BEST]);   /* as `run` prints them: 5.6, not 5.6000000000000005 */
        numfmt_text(b, row[OV_LOWER]);
        numfmt_text(s, row[OV_SUM]);
        const char *status = row[OV_PROVEN] != 0 ? "proven" : "gave-up";
        if (io->f == TF_JSON)
            fprintf(fp, "%s{\"cluster\": \"%s.csv\", \"schedule\": \"%s.%s.csv\", \"model\": \"%s\", "
                    "\"n\": %d, \"draw\": %ld, \"status\": \"%s\", \"best\": %s, \"lower_bound\": %s, "
                    "\"sum\": %s, \"explored\": %.0f}", k ? ", " : "", name, name, model, model,
                    (int)row[OV_N], j, status, a, b, s, row[OV_EXPLORED]);
        else
            fprintf(fp, "%s.csv,%s.%s.csv,%s,%d,%ld,%s,%s,%s,%s,%.0f\n", name, name, model, model,
                    (int)row[OV_N], j, status, a, b, s, row[OV_EXPLORED]);
    }
    if (io->f == TF_JSON)
        fprintf(fp, "]}\n");
}

static void optima_print(const void *ctx, const struct trial_head *h, const double *v,
                         enum trial_format f)
{
    const struct tctx *t = ctx;
    struct index_out io = {t, h, v, TF_CSV};
    char path[512];
    snprintf(path, sizeof path, "%s/index.csv", t->o.out);
    save(t->o.out, path, write_index, &io);   /* a failure is said; the summary still prints */
    if (f != TF_TEXT) {
        io.f = f;
        write_index(stdout, &io);
        return;
    }
    struct optima_ctx oc;
    optima_models(t, &oc);
    printf("# a benchmark set of %ld random node tables (%d..%d nodes, %ld of each size), each "
           "solved\n# by hetcast's exact search under every model listed; written to %s/ "
           "(index.csv,\n# a cluster file and a schedule file each: docs/optima.md); seed %llu\n",
           (long)(t->hi - t->lo + 1) * t->runs, t->lo, t->hi, t->runs, t->o.out, t->o.seed);
    printf("%-14s %4s %8s %8s %14s\n", "model", "n", "proven", "gave_up", "mean_optimum");
    for (int mi = 0; mi < oc.nmodels; mi++)
        for (int n = t->lo; n <= t->hi; n++) {
            long proven = 0, gave = 0;
            double sum = 0;
            for (long r = 0; r < t->runs; r++) {
                long k = ((long)(n - t->lo) * t->runs + r) * oc.nmodels + mi;
                const double *row = v + (size_t)k * OV_NV;
                if (row[OV_PROVEN] != 0) {
                    proven++;
                    sum += row[OV_BEST];
                } else {
                    gave++;
                }
            }
            char m[32];
            if (proven)
                snprintf(m, sizeof m, "%.3f", sum / (double)proven);
            else
                snprintf(m, sizeof m, "-");
            printf("%-14s %4d %8ld %8ld %14s\n", model_name(oc.models[mi]), n, proven, gave, m);
        }
}

const struct trial_study exp_optima_study = {OV_NV, optima_cols, optima_trial, optima_print};

/* ---- optima-check: a set read back ---- */

struct checker {
    const char *dir;
    int problems;
    long rows, proven, certified;
    int certify_max;       /* certify the proven optima of at most this many nodes */
};

static void problem(struct checker *ck, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void problem(struct checker *ck, const char *file, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hetcast experiment optima-check: %s/", ck->dir);
    text_put(file, stderr);
    if (line)
        fprintf(stderr, ":%d", line);
    fprintf(stderr, ": %s\n", msg);
    ck->problems++;
}

static int node_by_name(const struct cluster *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->nodes[i].name, name) == 0)
            return i;
    return -1;
}

/* The next data row of one of the set's CSV files into line (comments and
 * blank lines skipped, *ln counting lines): 1, 0 at the end, or -1 when the
 * first row is not the header want. */
static int next_row(FILE *fp, char *line, int size, int *ln, bool *header, const char *want)
{
    while (fgets(line, size, fp)) {
        ++*ln;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (*header)
            return 1;
        *header = true;
        if (strcmp(line, want) != 0)
            return -1;
    }
    return 0;
}

/* Reads a schedule file's decisions (from, to by name) and replays them
 * under m: the engine must give each row's start and hold.  0 with *e
 * (the caller frees it), or -1 (said). */
static int check_schedule(struct checker *ck, const char *file, const struct cluster *c,
                          enum model m, struct engine *e)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/%s", ck->dir, file);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        problem(ck, file, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    char *cause = NULL;
    if (engine_init(e, c, m, &cause) < 0) {
        problem(ck, file, 0, "%s", cause);
        free(cause);
        fclose(fp);
        return -1;
    }
    int ln = 0, rc = 0, step = 0, got;
    bool header = false;
    while (rc == 0 && (got = next_row(fp, line, (int)sizeof line, &ln, &header,
                                      "step,from,to,start,holds")) != 0) {
        if (got < 0) {
            problem(ck, file, ln, "expected the header step,from,to,start,holds");
            rc = -1;
            break;
        }
        char from[128], to[128];
        int s, used = 0;
        double start, hold;
        if (sscanf(line, "%d,%127[^,],%127[^,],%lf,%lf%n", &s, from, to, &start, &hold, &used) != 5 ||
            line[used] != '\0' || s != ++step) {
            problem(ck, file, ln, "expected step %d as STEP,FROM,TO,START,HOLDS", step);
            rc = -1;
            break;
        }
        int q = node_by_name(c, from), p = node_by_name(c, to);
        if (q < 0 || p < 0) {
            char nm[140];
            problem(ck, file, ln, "no node \"%s\" in the cluster", SHOWN(q < 0 ? from : to, nm));
            rc = -1;
        } else if (engine_book(e, q, p, 0, NULL, &cause) < 0) {
            problem(ck, file, ln, "%s", cause);
            free(cause);
            cause = NULL;
            rc = -1;
        } else {
            const struct transfer *tr = &e->tr[e->ntr - 1];
            if (!same(tr->start, start) || !same(tr->hold, hold)) {
                char a[NUMFMT_SIZE], b[NUMFMT_SIZE], nm[140];
                problem(ck, file, ln, "the engine starts it at %s and %s holds it at %s, not as "
                        "written", numfmt_text(a, tr->start), SHOWN(to, nm), numfmt_text(b, tr->hold));
                rc = -1;
            }
        }
    }
    fclose(fp);
    if (rc == 0 && e->nwaiting > 0) {
        problem(ck, file, 0, "%d node%s never receive the message", e->nwaiting,
                e->nwaiting == 1 ? "" : "s");
        rc = -1;
    }
    if (rc < 0)
        engine_free(e);
    return rc;
}

/* One index row: the cluster loads, the schedule replays to `best`, the
 * search proves the same optimum (or, where it gave up, no bound above the
 * best and none below the lower bound... its own best is no worse than a
 * proven lower bound), GLPK agrees on small proven ones. */
static void check_row(struct checker *ck, int ln, char *const *f, long node_limit)
{
    const char *cfile = f[0], *sfile = f[1], *model = f[2], *status = f[5];
    enum model m;
    double best = strtod(f[6], NULL), lower = strtod(f[7], NULL), sum = strtod(f[8], NULL);
    if (model_parse(model, &m) < 0) {
        problem(ck, "index.csv", ln, "unknown model \"%s\"", model);
        return;
    }
    bool proven = strcmp(status, "proven") == 0;
    if (!proven && strcmp(status, "gave-up") != 0) {
        problem(ck, "index.csv", ln, "status \"%s\": expected proven or gave-up", status);
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ck->dir, cfile);
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv(path, &d);
    if (!c) {
        problem(ck, cfile, 0, "does not load: %s", d.nlines ? d.lines[0] : "no message");
        diag_free(&d);
        return;
    }
    diag_free(&d);
    ck->rows++;
    struct engine e;
    if (check_schedule(ck, sfile, c, m, &e) == 0) {
        if (!same(e.makespan, best))
            problem(ck, sfile, 0, "its makespan is %g, the index says %g", e.makespan, best);
        if (!same(sched_sum_of_holds(&e), sum))
            problem(ck, sfile, 0, "its sum of completion times is %g, the index says %g",
                    sched_sum_of_holds(&e), sum);
        engine_free(&e);
    }
    struct sched_opts so;
    sched_opts_default(&so);
    so.time_limit = SCHED_NO_CLOCK;
    so.node_limit = node_limit;
    struct opt_plan plan;
    char *cause = NULL;
    if (optimal_solve(c, m, &so, &plan, &cause) < 0) {
        problem(ck, "index.csv", ln, "the search refused %s: %s", cfile, cause);
        free(cause);
        cluster_free(c);
        return;
    }
    if (proven && plan.status == OPT_PROVEN && !same(plan.makespan, best))
        problem(ck, "index.csv", ln, "%s under %s: the search proves %g, the index says %g",
                cfile, model, plan.makespan, best);
    else if (plan.status == OPT_PROVEN && plan.makespan < lower - 1e-9 * fmax(1, lower))
        problem(ck, "index.csv", ln, "%s under %s: the search proves %g, below the lower bound %g",
                cfile, model, plan.makespan, lower);
    else if (proven && plan.status != OPT_PROVEN && plan.lower > best + 1e-9 * fmax(1, best))
        problem(ck, "index.csv", ln, "%s under %s: the search's lower bound %g is above the "
                "optimum %g", cfile, model, plan.lower, best);
    ck->proven += proven && plan.status == OPT_PROVEN && same(plan.makespan, best);
    if (proven && c->n <= ck->certify_max) {
        struct certify cert;
        if (certify_optimum(c, m, best, 0, &cert, &cause) < 0) {
            problem(ck, "index.csv", ln, "%s under %s: %s", cfile, model, cause);
            free(cause);
        } else if (cert.status == CERTIFY_DIFFERENT) {
            problem(ck, "index.csv", ln, "%s under %s: the integer program's optimum is %g, the "
                    "index says %g", cfile, model, cert.value, best);
        } else if (cert.status == CERTIFY_SAME) {
            ck->certified++;
        }
    }
    opt_plan_free(&plan);
    cluster_free(c);
}

static void check_help(FILE *fp)
{
    fprintf(fp,
            "hetcast experiment optima-check DIR [options]: read back a set that\n"
            "`hetcast experiment optima --out DIR` wrote (docs/optima.md): every cluster loads,\n"
            "every schedule replays through the engine to the listed makespan and sum, the exact\n"
            "search proves the listed optimum again, and GLPK's integer program (--certify)\n"
            "agrees on the proven ones of at most --certify-max nodes.  Every difference is one\n"
            "line naming the file and line; status 1 if there is any, 2 if the set cannot be read.\n"
            "\n"
            "  --certify-max N   certify the proven optima of at most N nodes (default 6, at most %d)\n"
            "  --node-limit N    search nodes per exact search (default %lld; no clock)\n",
            CERTIFY_MAX_NODES, OPT_DEFAULT_NODE_LIMIT);
}

enum { K_CERT = OPT_LONG, K_NODES };

struct check_opts {
    int certify_max;
    long node_limit;
};

int exp_optima_check_main(int argc, char **argv)
{
    struct check_opts o = {6, OPT_DEFAULT_NODE_LIMIT};
    static const struct opt tab[] = {
        {"certify-max", K_CERT, "N", NULL, OPT_INT, offsetof(struct check_opts, certify_max), 0,
         CERTIFY_MAX_NODES, NULL},
        {"node-limit", K_NODES, "N", NULL, OPT_LONGINT, offsetof(struct check_opts, node_limit), 1,
         1e15, NULL},
        {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
    };
    const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
    int ndirs = 0;
    int rc = opts_parse("hetcast experiment optima-check", tab, argc, argv, NULL, &o, dirs, argc,
                        &ndirs);
    if (rc == OPTS_HELP) {
        check_help(stdout);
        free(dirs);
        return 0;
    }
    if (rc == 0 && ndirs != 1)
        rc = opts_error(2, "optima-check: one folder, the one `experiment optima --out DIR` wrote");
    if (rc) {
        free(dirs);
        return rc;
    }
    struct checker ck = {dirs[0], 0, 0, 0, 0, o.certify_max};
    free(dirs);
    char path[1024], line[2048];
    snprintf(path, sizeof path, "%s/index.csv", ck.dir);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "hetcast experiment optima-check: %s: %s\n", path, strerror(errno));
        return 2;
    }
    int ln = 0, got;
    bool header = false;
    while ((got = next_row(fp, line, (int)sizeof line, &ln, &header, INDEX_HEADER)) != 0) {
        if (got < 0) {
            fprintf(stderr, "hetcast experiment optima-check: %s:%d: expected the header "
                    INDEX_HEADER "\n", path, ln);
            fclose(fp);
            return 2;
        }
        char *f[10], *save = NULL;
        int nf = 0;
        for (char *tok = strtok_r(line, ",", &save); tok && nf < 10; tok = strtok_r(NULL, ",", &save))
            f[nf++] = tok;
        if (nf != 10 || strtok_r(NULL, ",", &save)) {
            fprintf(stderr, "hetcast experiment optima-check: %s:%d: expected 10 fields (" INDEX_HEADER
                    ")\n", path, ln);
            fclose(fp);
            return 2;
        }
        if (strchr(f[0], '/') || strchr(f[1], '/')) {
            fprintf(stderr, "hetcast experiment optima-check: %s:%d: a file name with a '/': the "
                    "set's files are all in its folder\n", path, ln);
            fclose(fp);
            return 2;
        }
        check_row(&ck, ln, f, o.node_limit);
    }
    fclose(fp);
    printf("%ld schedules checked: %ld proven optima found again by the search, %ld certified by "
           "GLPK (at most %d nodes); %d problem%s\n", ck.rows, ck.proven, ck.certified,
           ck.certify_max, ck.problems, ck.problems == 1 ? "" : "s");
    return ck.problems ? 1 : 0;
}
