/*
 * output/export_smpi.c - a broadcast as SimGrid SMPI time-independent traces and
 * the platform that replays it (output/export_interop.h, docs/interop.md).
 *
 * The traces carry only the order of the schedule and the costs, never
 * hetcast's times: rank q receives from its parent, spends r(q) as a
 * `compute` (hosts run at 1 flop/s, so flops are time units), then for each
 * child in booking order spends s(q) as a `compute` and `send`s a 1-byte
 * message over a link whose latency is the model's link time (bandwidth
 * 1e30 B/s: the byte costs nothing).  Under async, sender-only and
 * multi-port the sends are detached (SMPI's default for small messages);
 * under sync and one-port the command sets send-is-detached-thresh to 0, so
 * a send returns when the message has arrived, and the sender then spends
 * r(p) too: its port is busy for the whole transfer.  SimGrid's CM02 network
 * model with TCP-gamma 0 makes a lone message take exactly latency +
 * size / bandwidth, so the replayed time is an independent check of the
 * engine's makespan.
 */
#include "output/export_interop.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "support/atomic_dir.h"
#include "support/numfmt.h"
#include "model/timing.h"

#define SMPI_ZONE "AS_hetcast"

void export_xml_string(FILE *fp, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&apos;", fp); break;
        case '\t': case '\n': case '\r': fprintf(fp, "&#%d;", ch); break;
        default:
            if (ch < 0x20 || ch == 0x7f)
                fprintf(fp, "\\x%02x", ch);
            else
                fputc(ch, fp);
        }
    }
}

/* How a model's transfer q -> p becomes trace actions and a link. */
struct smpi_cost {
    double before;   /* compute on q before the send */
    double latency;  /* the link q -> p */
    double after_q;  /* compute on q after the send returns (sync, one-port) */
    double edge;     /* the whole transfer time T (messages) */
};

/* Does the sender wait for the receive to end (timing_split's `after`)? */
static bool smpi_blocking(const struct run *r)
{
    return timing_sender_waits_receive(r->model);
}

/* false when there is no link q -> p (graphs) */
static bool smpi_cost(const struct run *r, int q, int p, struct smpi_cost *out)
{
    struct cost c;
    if (!timing_cost(r->c, q, p, &c))
        return false;
    timing_split(r->model, r->c->kind, &c, &out->before, &out->latency, &out->after_q);
    out->edge = c.T;
    return true;
}

/* Does the receiver spend r(p) after the message arrives? */
static bool smpi_recv_compute(const struct run *r)
{
    return r->c->kind != CLUSTER_GRAPH && !timing_send_only(r->model);
}

int export_smpi_check(const struct run *r, char **cause)
{
    const struct engine *e = &r->eng;
    if (e->lean || (!e->tr && e->ntr > 0))
        return set_cause(cause, "--format smpi needs the transfers of the run (not --summary)");
    if (e->personal || e->nmsg != 1)
        return set_cause(cause, "--format smpi replays broadcasts of one message; %s sends %d "
                         "slices one after another on each link, which SimGrid's links (they "
                         "share their bandwidth between messages) cannot express; use "
                         "--slices 1 or another format", r->sched.ops->name, e->nmsg);
    double *free_at = xmalloc((size_t)e->n * sizeof *free_at);
    for (int p = 0; p < e->n; p++)
        free_at[p] = -1;
    int bad = 0;
    for (int i = 0; i < e->ntr && !bad; i++) {
        const struct transfer *t = &e->tr[i];
        struct smpi_cost sc;
        smpi_cost(r, t->from, t->to, &sc);
        if (sc.latency < 0) {
            set_cause(cause, "--format smpi: the multi-port send time of %s (%s) is longer than "
                      "its edge to %s (%s), which a SimGrid link cannot express",
                      r->c->nodes[t->from].name, numfmt_txt(sc.before),
                      r->c->nodes[t->to].name, numfmt_txt(sc.edge));
            bad = 1;
            break;
        }
        /* The traces carry no idle time: every send must start when its sender is ready. */
        double ready = free_at[t->from] >= 0 ? free_at[t->from]
                                             : engine_hold_time(e, t->from, 0);
        if (fabs(t->start - ready) > 1e-9 * fmax(1, fabs(ready))) {
            set_cause(cause, "--format smpi: %s waits from %s to %s before sending to %s; SMPI "
                      "time-independent traces carry no idle time, so this schedule cannot be "
                      "replayed as it is", r->c->nodes[t->from].name, numfmt_txt(ready),
                      numfmt_txt(t->start), r->c->nodes[t->to].name);
            bad = 1;
            break;
        }
        free_at[t->from] = t->free;
    }
    free(free_at);
    return bad ? -1 : 0;
}

/* Are the node names usable as SimGrid host names in a hostfile? */
static bool names_plain(const struct cluster *c)
{
    for (int p = 0; p < c->n; p++) {
        const char *s = c->nodes[p].name;
        if (!*s || strcmp(s, SMPI_ZONE) == 0 || s[strspn(s, "abcdefghijklmnopqrstuvwxyz"
                                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")])
            return false;
    }
    return true;
}

struct smpi_job {
    const struct run *r;
    const char *unit;   /* the latencies' unit: the cluster's (SimGrid's "ms", "us", ...), else s */
    char speed[40];     /* the hosts' speed: a flop a time unit ("1000f" for ms) */
    bool plain;     /* hosts named by the node names; else rank-I */
    int rank;       /* rank-I.txt */
    const char *command;
    int *sends_from;   /* rank q's transfers, in booking order: sends[sends_from[q] .. sends_from[q + 1]) */
    int *sends;
};

/* The transfers grouped by sender, each sender's in booking order (counted, then placed). */
static void group_sends(struct smpi_job *j)
{
    const struct engine *e = &j->r->eng;
    int n = j->r->c->n;
    j->sends_from = xcalloc((size_t)n + 2, sizeof *j->sends_from);
    j->sends = xmalloc((size_t)(e->ntr > 0 ? e->ntr : 1) * sizeof *j->sends);
    for (int i = 0; i < e->ntr; i++)
        j->sends_from[e->tr[i].from + 2]++;
    for (int q = 0; q < n; q++)
        j->sends_from[q + 2] += j->sends_from[q + 1];
    for (int i = 0; i < e->ntr; i++)   /* sends_from[q + 1]: where q's next goes */
        j->sends[j->sends_from[e->tr[i].from + 1]++] = i;
}

static void put_host(FILE *fp, const struct smpi_job *j, int p)
{
    if (j->plain)
        fputs(j->r->c->nodes[p].name, fp);
    else
        fprintf(fp, "rank-%d", p);
}

/* The routes of the platform, q -> p in (q, p) order: every pair with a link for small
 * clusters, else only the schedule's (its transfers' pairs, sorted, each once). */
struct routes {
    int (*v)[2];
    long n;
};

static int cmp_route(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] > b[1]) - (a[1] < b[1]);
}

static void routes_make(struct routes *rt, const struct run *r)
{
    int n = r->c->n;
    struct smpi_cost sc;
    long cap = n <= SMPI_FULL_ROUTES_MAX ? (long)n * n : r->eng.ntr;
    rt->v = xmalloc((size_t)(cap > 0 ? cap : 1) * sizeof *rt->v);
    rt->n = 0;
    if (n <= SMPI_FULL_ROUTES_MAX) {
        for (int q = 0; q < n; q++)
            for (int p = 0; p < n; p++)
                if (q != p && smpi_cost(r, q, p, &sc))
                    rt->v[rt->n][0] = q, rt->v[rt->n++][1] = p;
        return;
    }
    for (int i = 0; i < r->eng.ntr; i++)
        rt->v[rt->n][0] = r->eng.tr[i].from, rt->v[rt->n++][1] = r->eng.tr[i].to;
    qsort(rt->v, (size_t)rt->n, sizeof *rt->v, cmp_route);
    long kept = 0;
    for (long i = 0; i < rt->n; i++) {
        int q = rt->v[i][0], p = rt->v[i][1];
        if (q != p && (kept == 0 || q != rt->v[kept - 1][0] || p != rt->v[kept - 1][1]) &&
            smpi_cost(r, q, p, &sc))
            rt->v[kept][0] = q, rt->v[kept++][1] = p;
    }
    rt->n = kept;
}

static int write_platform(FILE *fp, void *ctx)
{
    const struct smpi_job *j = ctx;
    const struct run *r = j->r;
    const struct cluster *c = r->c;
    int n = c->n;
    struct routes rt;
    routes_make(&rt, r);
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- Written by hetcast (docs/interop.md): hosts at 1 flop a time unit of the\n"
          "     cluster, so a compute of x flops takes x time units; one link per route, its\n"
          "     latency the model's link time in that unit; the bandwidth is so high that a\n"
          "     1-byte message costs only the latency. -->\n"
          "<platform version=\"4.1\">\n"
          "  <zone id=\"" SMPI_ZONE "\" routing=\"Full\">\n", fp);
    for (int p = 0; p < n; p++) {
        fputs("    <host id=\"", fp);
        put_host(fp, j, p);
        fprintf(fp, "\" speed=\"%s\">\n      <prop id=\"hetcast-name\" value=\"", j->speed);
        export_xml_string(fp, c->nodes[p].name);
        fputs("\"/>\n    </host>\n", fp);
    }
    bool shared = c->kind == CLUSTER_NODES;   /* one latency L: one link for every route */
    if (shared) {
        struct smpi_cost sc = {0, timing_send_only(r->model) ? 0 : c->latency, 0, 0};
        fprintf(fp, "    <link id=\"L\" bandwidth=\"1e30Bps\" latency=\"%s%s\" "
                    "sharing_policy=\"FATPIPE\"/>\n", numfmt_num(sc.latency), j->unit);
    }
    for (long i = 0; i < rt.n && !shared; i++) {
        struct smpi_cost sc;
        smpi_cost(r, rt.v[i][0], rt.v[i][1], &sc);
        fprintf(fp, "    <link id=\"l%d-%d\" bandwidth=\"1e30Bps\" latency=\"%s%s\" "
                    "sharing_policy=\"FATPIPE\"/>\n", rt.v[i][0], rt.v[i][1], numfmt_num(sc.latency),
                j->unit);
    }
    for (long i = 0; i < rt.n; i++) {
        fputs("    <route src=\"", fp);
        put_host(fp, j, rt.v[i][0]);
        fputs("\" dst=\"", fp);
        put_host(fp, j, rt.v[i][1]);
        if (shared)
            fputs("\" symmetrical=\"NO\"><link_ctn id=\"L\"/></route>\n", fp);
        else
            fprintf(fp, "\" symmetrical=\"NO\"><link_ctn id=\"l%d-%d\"/></route>\n", rt.v[i][0],
                    rt.v[i][1]);
    }
    fputs("  </zone>\n</platform>\n", fp);
    free(rt.v);
    return ferror(fp) ? -1 : 0;
}

static int write_hostfile(FILE *fp, void *ctx)
{
    const struct smpi_job *j = ctx;
    for (int p = 0; p < j->r->c->n; p++) {
        put_host(fp, j, p);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int write_index(FILE *fp, void *ctx)
{
    const struct smpi_job *j = ctx;
    for (int p = 0; p < j->r->c->n; p++)
        fprintf(fp, "rank-%d.txt\n", p);
    return ferror(fp) ? -1 : 0;
}

/* One rank's actions: receive, then its sends in booking order. */
static int write_rank(FILE *fp, void *ctx)
{
    const struct smpi_job *j = ctx;
    const struct run *r = j->r;
    const struct engine *e = &r->eng;
    int q = j->rank;
    fprintf(fp, "%d init\n", q);
    if (e->parent[q] >= 0) {
        fprintf(fp, "%d recv %d 0 1\n", q, e->parent[q]);
        if (smpi_recv_compute(r) && r->c->nodes[q].recv > 0)
            fprintf(fp, "%d compute %s\n", q, numfmt_num(r->c->nodes[q].recv));
    }
    for (int x = j->sends_from[q]; x < j->sends_from[q + 1]; x++) {
        const struct transfer *t = &e->tr[j->sends[x]];
        struct smpi_cost sc;
        if (!smpi_cost(r, q, t->to, &sc))
            continue;
        if (sc.before > 0)
            fprintf(fp, "%d compute %s\n", q, numfmt_num(sc.before));
        fprintf(fp, "%d send %d 0 1\n", q, t->to);
        if (sc.after_q > 0)
            fprintf(fp, "%d compute %s\n", q, numfmt_num(sc.after_q));
    }
    fprintf(fp, "%d finalize\n", q);
    return ferror(fp) ? -1 : 0;
}

static int write_readme(FILE *fp, void *ctx)
{
    const struct smpi_job *j = ctx;
    const struct run *r = j->r;
    const struct cluster *c = r->c;
    fputs("This directory replays a broadcast schedule of hetcast in SimGrid's SMPI\n"
          "(docs/interop.md in hetcast's sources).\n\ncluster    ", fp);
    export_dot_string(fp, c->name ? c->name : "");
    fprintf(fp, " (%d nodes, %s)\nscheduler  %s\nmodel      %s\nmakespan   %s\n\n",
            c->n, cluster_kind_name(c->kind), r->sched.ops->name, model_name(r->model),
            numfmt_num(r->eng.makespan));
    fprintf(fp, "Replay it from this directory (Debian: the package libsimgrid-dev ships smpirun):\n\n"
                "  %s\n\n"
                "SimGrid ends with \"Simulation time T\": T is the makespan above in seconds\n"
                "(SimGrid prints 6 decimals).\n", j->command);
    if (c->time_unit == TIME_NONE)
        fputs("Times are hetcast's time units, as seconds (the cluster has no # unit:).\n\n",
              fp);
    else
        fprintf(fp, "The cluster's times are in %s (# unit: %s): hosts compute %s flops a\n"
                    "second, so a compute of x flops takes x %s, and the links' latencies\n"
                    "carry the unit; T = makespan x %s.\n\n", j->unit, j->unit,
                numfmt_num(1 / time_unit_seconds(c->time_unit)), j->unit,
                numfmt_num(time_unit_seconds(c->time_unit)));
    fputs("Files: platform.xml (one host per node at 1 flop/s; one link per route whose\n"
          "latency is the model's link time, bandwidth 1e30 B/s), hostfile (rank I runs on\n"
          "the I-th host), rank-I.txt (rank I's actions: recv from its parent, compute r,\n"
          "then per child compute s and send one byte", fp);
    if (smpi_blocking(r))
        fputs(", waiting for the arrival and\ncomputing the child's r: the sender's port is "
              "busy for the whole transfer)", fp);
    else
        fputs(")", fp);
    fputs(",\nindex.txt (the traces, one per rank, in rank order).\n", fp);
    if (c->n > SMPI_FULL_ROUTES_MAX)
        fprintf(fp, "With more than %d nodes, platform.xml holds only the routes this schedule "
                    "uses.\n", SMPI_FULL_ROUTES_MAX);
    fputs("\nSimGrid's configuration: network/model:CM02 and network/TCP-gamma:0 make a lone\n"
          "message take exactly latency + size / bandwidth (SimGrid's default model, LV08,\n"
          "multiplies latencies by 13.01 and bandwidths by 0.97).  Do not add\n"
          "--cfg=smpi/lat-factor:1: SimGrid 3.32 wants the form SIZE:FACTOR there.\n\n"
          "Ranks (hostfile order):\n", fp);
    for (int p = 0; p < c->n; p++) {
        fprintf(fp, "  rank %d  ", p);
        put_host(fp, j, p);
        if (!j->plain) {
            fputs("  ", fp);
            export_dot_string(fp, c->nodes[p].name);
        }
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* What a replay of this writer holds (support/atomic_dir.h). */
static bool replay_entry(const char *name, bool is_dir)
{
    if (is_dir)
        return false;
    if (strncmp(name, "rank-", 5) == 0) {
        size_t digits = strspn(name + 5, "0123456789");
        return digits > 0 && strcmp(name + 5 + digits, ".txt") == 0;
    }
    return strcmp(name, "platform.xml") == 0 || strcmp(name, "hostfile") == 0 ||
           strcmp(name, "index.txt") == 0 || strcmp(name, "README") == 0;
}

#define REPLAY_WHAT "an SMPI replay of hetcast (platform.xml, hostfile, index.txt, rank-I.txt, README)"

int export_smpi_check_dir(const char *dir, char **cause)
{
    char *why = NULL;
    if (atomic_dir_check(dir, replay_entry, REPLAY_WHAT, &why) < 0) {
        set_cause(cause, "--output %s: %s", dir, why);
        free(why);
        return -1;
    }
    return 0;
}

/* name in the new directory, written by w: every write and the close checked. */
static int replay_file(struct atomic_dir *ad, const char *dir, const char *name, export_writer w,
                       struct smpi_job *job, char **cause)
{
    FILE *fp = atomic_dir_fopen(ad, name);
    if (!fp)
        return set_cause(cause, "cannot write %s/%s: %s", dir, name, strerror(errno));
    int rc = w(fp, job);
    if (atomic_dir_fclose(fp) != 0 || rc != 0)
        return set_cause(cause, "cannot write %s/%s: %s", dir, name,
                         strerror(errno ? errno : EIO));
    return 0;
}

int export_smpi(const struct run *r, const char *dir, char **command, char **cause)
{
    *command = NULL;
    if (export_smpi_check(r, cause) < 0)
        return -1;
    struct atomic_dir ad;
    char *why = NULL;
    if (atomic_dir_open(&ad, dir, replay_entry, REPLAY_WHAT, &why) < 0) {
        set_cause(cause, "--output %s: %s", dir, why);
        free(why);
        return -1;
    }
    char *cmd = xasprintf("smpirun -np %d -platform platform.xml -hostfile hostfile -replay "
                          "index.txt --cfg=network/model:CM02 --cfg=network/TCP-gamma:0%s "
                          "--cfg=smpi/host-speed:1f --log=xbt_cfg.thres:warning", r->c->n,
                          smpi_blocking(r) ? " --cfg=smpi/send-is-detached-thresh:0" : "");
    struct smpi_job job = {.r = r, .plain = names_plain(r->c), .command = cmd};
    group_sends(&job);
    bool unit = r->c->time_unit != TIME_NONE;
    job.unit = unit ? time_unit_name(r->c->time_unit) : "s";
    snprintf(job.speed, sizeof job.speed, "%sf",
             numfmt_num(unit ? 1 / time_unit_seconds(r->c->time_unit) : 1));
    struct {
        const char *name;
        export_writer w;
    } files[] = {
        {"platform.xml", write_platform},
        {"hostfile", write_hostfile},
        {"index.txt", write_index},
    };
    int rc = 0;
    /* a new directory, swapped in whole: nothing of an old replay stays beside the new one */
    for (size_t i = 0; rc == 0 && i < sizeof files / sizeof files[0]; i++)
        rc = replay_file(&ad, dir, files[i].name, files[i].w, &job, cause);
    for (int p = 0; rc == 0 && p < r->c->n; p++) {
        char name[32];
        snprintf(name, sizeof name, "rank-%d.txt", p);
        job.rank = p;
        rc = replay_file(&ad, dir, name, write_rank, &job, cause);
    }
    if (rc == 0)
        rc = replay_file(&ad, dir, "README", write_readme, &job, cause);
    if (rc == 0 && atomic_dir_commit(&ad) != 0)
        rc = set_cause(cause, "cannot write %s: %s", dir, strerror(errno));
    else if (rc != 0)
        atomic_dir_abort(&ad);
    free(job.sends_from);
    free(job.sends);
    if (rc < 0) {
        free(cmd);
        return -1;
    }
    *command = cmd;
    return 0;
}
