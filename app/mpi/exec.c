/*
 * app/mpi/exec.c - `hetcast-mpi exec CLUSTER -s NAME`: the schedule of `hetcast
 * run CLUSTER -s NAME` (the session layer: same loader, same engine), played
 * as real MPI messages, one rank per node (docs/mpi.md, "Running a
 * schedule").
 *
 * Rank 0 loads the cluster (costed at the message size, as `hetcast run
 * --size`), computes the schedule and hands every rank its part: the
 * transfer it receives and those it sends, in the engine's order.
 *
 * Without --emulate a run is timed as OSU's benchmarks time one: runs not
 * counted first, then a barrier before each run, after which a rank receives
 * its message (MPI_Recv) and sends to its children one after the other
 * (MPI_Send), reading the clock after each step and doing nothing else; its
 * times count from its exit of the barrier, and a run's makespan is the
 * latest end over the ranks.  --baseline times MPI_Bcast the same way.
 *
 * With --emulate a rank waits for its message (MPI_Iprobe, polled),
 * receives it, then sends to its children one after the other; every modelled cost
 * is also waited out (timing_split, the rule the SMPI export replays), so
 * that one machine stands in for a heterogeneous cluster: the sender waits
 * s(q) before its MPI_Send, the receiver waits until the message's link
 * time has passed since the send (the message carries when it left) and
 * then r(p); under sync and one-port the receiver acknowledges the end of
 * its receive, and the sender waits for that before its next send.  Waits
 * sleep until 1 ms before their end and then spin; receives are polled with
 * 20 us sleeps.  Clocks are aligned to rank 0 before the repeats (Cristian's
 * method) and every repeat starts at one moment of rank 0's clock.
 *
 * Every transfer's times are reduced to rank 0, in the cluster's time units: its `# unit:` (a
 * SimGrid platform's seconds, calibrate's microseconds), or --unit-ms U
 * milliseconds a unit for a cluster of abstract units.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/export.h"
#include "support/atomic.h"
#include "model/cluster.h"
#include "support/csvfield.h"
#include "support/diag.h"
#include "app/datadir.h"
#include "app/mpi/cmd.h"
#include "support/numfmt.h"
#include "output/report.h"
#include "session/session.h"
#include "model/timing.h"

#define EX_MAX_REPEAT 100000
#define EX_PLAIN_REPEAT 200     /* runs without --emulate unless --repeat says (with it: 1) */
#define EX_WARM_RUNS 10         /* runs not counted before the others (--emulate: 1) */
#define EX_ALIGN_ROUNDS 50
#define EX_START_MARGIN 0.05    /* s: a repeat starts this long after rank 0 says when */
#define EX_POLL 20e-6           /* s: the sleep between polls of an emulated receive */
#define EX_ALIGN_SHARE 0.01     /* --emulate: the clocks must agree to 1 % of a unit */
#define EX_WARM 32              /* round trips on every edge before the runs */
#define EX_DIGITS 7             /* significant digits of a measured time */
#define EX_ALIGN_WORST 0.01     /* s: a clock off by more than this cannot be used at all */
#define EX_MAX_UNIT_MS 3.6e6    /* --unit-ms: an hour a unit at most */

struct exec_opts {
    struct session_opts s;
    bool emulate;
    bool baseline;             /* also time MPI_Bcast of the same size on the same ranks */
    double unit_ms;            /* 0: the default */
    int repeat;
    long size;
    const char *output;
    double timeout;
};

enum { E_SEED = OPT_LONG, E_SOURCE, E_EMULATE, E_UNIT, E_REPEAT, E_SIZE, E_TIMEOUT, E_TIME_LIMIT,
       E_BASELINE };
#define AT(f) offsetof(struct exec_opts, f)
static const struct opt exec_table[] = {
    {"scheduler", 's', "NAME", "scheduler (default fnf), as hetcast run -s", OPT_CALL, 0, 0, 0,
     NULL},
    {"model", 'm', "NAME", "port model (default async): async, sender-only, sync, one-port",
     OPT_STRING, AT(s.model), 0, 0, NULL},
    {"seed", E_SEED, "N", "seed for the random schedulers (default 1)", OPT_SEED, AT(s.sopt.seed),
     0, 0, NULL},
    {"source", E_SOURCE, "NAME", "the node that holds the message first", OPT_STRING,
     AT(s.source), 0, 0, NULL},
    {"time-limit", E_TIME_LIMIT, "S", "optimal: give up after S seconds (default 10, at most "
     "86400)", OPT_SECONDS, AT(s.sopt.time_limit), 0, HM_MAX_SECONDS, NULL},
    {"emulate", E_EMULATE, NULL, "also wait out every node's modelled costs (one machine as a "
     "heterogeneous cluster)", OPT_FLAG, AT(emulate), 0, 0, NULL},
    {"unit-ms", E_UNIT, "U", "one time unit of the cluster is U ms (default: the cluster's "
     "# unit:, needed when it has none; with --emulate, a unit-ful cluster played slower or "
     "faster; at most 3600000, an hour)", OPT_CALL, 0, 0, 0, NULL},
    {"baseline", E_BASELINE, NULL, "also time the MPI library's MPI_Bcast of the same size from "
     "the source's rank to the same ranks, K times, and print it beside the schedule", OPT_FLAG,
     AT(baseline), 0, 0, NULL},
    {"repeat", E_REPEAT, "K", "run the schedule K times (default 200; with --emulate 1)", OPT_INT,
     AT(repeat), 1, EX_MAX_REPEAT, NULL},
    {"size", E_SIZE, "BYTES", "the message size (default 64); the prediction costs it as hetcast "
     "run --size does (a cluster's size segments, a SimGrid platform)", OPT_LONGINT, AT(size), 8,
     1 << 26, NULL},
    {"output", 'o', "FILE", "write the measured transfers (schedule CSV) of the fastest repeat",
     OPT_STRING, AT(output), 0, 0, NULL},
    {"timeout", E_TIMEOUT, "S", "give up when a rank waits S seconds more than the schedule "
     "needs (default 60, at most 86400)", OPT_SECONDS, AT(timeout), 0, HM_MAX_SECONDS, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};
#undef AT

static int exec_set(void *ctx, int key, const char *name, const char *val)
{
    struct exec_opts *o = ctx;
    if (key == 's') {
        if (o->s.nsched == 1)
            return opts_error(2, "exec runs one scheduler (-s given twice)");
        o->s.sched[o->s.nsched++] = val;
        return 0;
    }
    /* E_UNIT */
    char *end;
    errno = 0;
    double u = strtod(val, &end);
    if (!*val || *end || errno || !(u > 0 && u <= EX_MAX_UNIT_MS))
        return opt_fail(name, val, "a number of milliseconds > 0 and <= 3600000 (an hour)");
    o->unit_ms = u;
    return 0;
}

/* One transfer as every rank learns it. */
struct ex_tr {
    int from, to;             /* ranks */
    double before, link, recv;   /* seconds to wait (--emulate), timing_split's */
};

/* The times recorded for a transfer, local clock, reduced to rank 0 (MAX). */
enum { T_START, T_LINK, T_SEND_END, T_FREE, T_ARRIVE, T_LINK_END, T_RECV_END, T_FIELDS };

struct ex_plan {
    int ntr;
    int model;
    bool acked;               /* sync, one-port: the sender waits for the receive's end */
    struct ex_tr *tr;
};

static void help(void)
{
    printf("usage: mpirun -n N hetcast-mpi exec CLUSTER -s NAME [options] [-o MEASURED.csv]\n\n"
           "Run the schedule of `hetcast run CLUSTER -s NAME` as real MPI messages, rank i\n"
           "playing node i (or the node named like the rank: host, or host:rank), and print\n"
           "the predicted and measured makespans.  MEASURED.csv has the columns of `hetcast\n"
           "run --format csv`, in the cluster's time units, after # comment lines.\n\noptions:\n");
    opts_help(stdout, exec_table);
}

/* Rank 0: an early look at the output file (refused before anything runs). */
static int check_output(const char *path)
{
    struct atomic_file af;
    if (atomic_open(&af, path) != 0) {
        int err = errno;
        hm_say(NULL, true, "%s: cannot write: %s", path, atomic_why(&af, err));
        return 2;
    }
    atomic_abort(&af);
    return 0;
}

/* The cluster of s, its warnings on stderr; NULL after saying why. */
static struct cluster *load(const struct session_opts *s)
{
    struct diag warn;
    diag_init(&warn);
    char *cause = NULL;
    struct cluster *c = session_load(s, &warn, &cause);
    diag_print(&warn, stderr);
    diag_free(&warn);
    if (!c) {
        hm_say(NULL, true, "%s", cause);
        free(cause);
    }
    return c;
}

static const char *num(char buf[NUMFMT_SIZE], double x);

/*
 * Rank 0: load, schedule, and plan which rank plays which node.  Returns 0,
 * or the exit status after a message.
 */
/*
 * The milliseconds of one of c's time units into o->unit_ms: the cluster's
 * own unit (`# unit: us`; a SimGrid platform is in seconds), or --unit-ms.
 * A --unit-ms that reads a unit-ful cluster's times otherwise is refused
 * unless --emulate plays them slower or faster; a cluster without a unit
 * needs --unit-ms.  0, or -1 when said.
 */
static int unit_of(struct exec_opts *o, const struct cluster *c)
{
    const char *unit = time_unit_name(c->time_unit);
    double own = time_unit_seconds(c->time_unit) * 1e3;
    char b[256], b1[NUMFMT_SIZE], b2[NUMFMT_SIZE];
    if (!unit && o->unit_ms == 0) {
        hm_say(NULL, true, "%s: its times have no unit (the papers' abstract units): give "
               "--unit-ms U (one unit is U ms; 10 with --emulate plays it in tens of ms), or say "
               "the unit in the file (# unit: us)", SHOWN(o->s.file, b));
        return -1;
    }
    if (unit && o->unit_ms > 0 && o->unit_ms != own && !o->emulate) {
        hm_say(NULL, true, "%s: its times are in %s (# unit: %s), 1 unit = %s ms: --unit-ms %s "
               "would misread them; leave --unit-ms out (with --emulate it plays them slower or "
               "faster)", SHOWN(o->s.file, b), unit, unit, num(b1, own), num(b2, o->unit_ms));
        return -1;
    }
    if (o->unit_ms == 0)
        o->unit_ms = own;
    return 0;
}

static int prepare(const struct hm *h, struct exec_opts *o, int argc, char **argv,
                   struct cluster **cp, struct run *run, bool *have_run, struct ex_plan *plan)
{
    char *cause = NULL;
    const struct sched_ops *ops = session_sched(o->s.sched[0], &cause);
    if (!ops) {
        hm_say(NULL, true, "%s", cause);
        free(cause);
        return 2;
    }
    size_t len = strlen(o->s.file);
    if (len > 4 && strcmp(o->s.file + len - 4, ".xml") == 0) {
        o->s.has_size = true;   /* a SimGrid platform's costs at the message's size */
        o->s.size = (double)o->size;
    }
    struct cluster *c = load(&o->s);
    if (c && c->nsegments > 0) {
        /* the message's size segment, as hetcast run --size takes it */
        cluster_free(c);
        o->s.has_size = true;
        o->s.size = (double)o->size;
        c = load(&o->s);
    }
    if (!c)
        return 2;
    *cp = c;
    enum model m;
    if (session_model(&o->s, c, &m, &cause) < 0 || sched_check(ops, c, m, &cause) < 0) {
        hm_say(NULL, true, "%s", cause);
        free(cause);
        return 2;
    }
    char b[256];
    if (c->kind == CLUSTER_GRAPH) {
        hm_say(NULL, true, "%s: a platform graph: exec runs node tables and latency matrices "
               "(one message, overheads and a latency per transfer), not multi-port graphs",
               SHOWN(o->s.file, b));
        return 2;
    }
    if (c->n > h->size) {
        char *cmd = hm_mpirun_command(c->n, argc, argv);
        hm_say(NULL, true, "%s has %d nodes but mpirun started %d rank%s: exec needs one rank a "
               "node; run: %s", SHOWN(o->s.file, b), c->n, h->size, h->size == 1 ? "" : "s", cmd);
        free(cmd);
        return 2;
    }
    if (unit_of(o, c) < 0)
        return 2;
    if (o->output && check_output(o->output))
        return 2;
    if (session_run(run, &o->s, c, m, ops, false, RUN_OPT_NEVER, &cause) < 0) {
        hm_say(NULL, true, "%s", cause);
        free(cause);
        return 1;
    }
    *have_run = true;
    /* what the schedule needs bounds every wait and the watchdog: at most a day */
    double span = run->eng.makespan * o->unit_ms / 1000;
    if (!(span <= HM_MAX_SECONDS)) {
        char b1[NUMFMT_SIZE], b2[NUMFMT_SIZE], b3[NUMFMT_SIZE];
        hm_say(NULL, true, "exec: the schedule takes %s units of %s ms (--unit-ms), %s s: more "
               "than a day (%.0f s); give a smaller --unit-ms", num(b1, run->eng.makespan),
               num(b2, o->unit_ms), num(b3, span), HM_MAX_SECONDS);
        return 2;
    }
    /* the nodes named like the ranks, or else rank i = node i */
    bool by_name = true;
    int *rank_of = xmalloc((size_t)c->n * sizeof *rank_of);
    for (int v = 0; v < c->n && by_name; v++) {
        rank_of[v] = -1;
        for (int k = 0; k < h->size; k++)
            if (strcmp(c->nodes[v].name, h->names[k]) == 0)
                rank_of[v] = k;
        by_name = rank_of[v] >= 0;
    }
    for (int v = 0; v < c->n && !by_name; v++)
        rank_of[v] = v;
    double u = o->unit_ms / 1000;
    plan->ntr = run->eng.ntr;
    plan->model = (int)m;
    plan->acked = timing_sender_waits_receive(m);
    plan->tr = xcalloc((size_t)(plan->ntr ? plan->ntr : 1), sizeof *plan->tr);
    for (int i = 0; i < plan->ntr; i++) {
        const struct transfer *t = &run->eng.tr[i];
        struct cost k = {0};   /* a booked transfer has its edge: timing_cost fills k */
        timing_cost(c, t->from, t->to, &k);
        double before, link, after;
        timing_split(m, c->kind, &k, &before, &link, &after);
        struct ex_tr *x = &plan->tr[i];
        x->from = rank_of[t->from];
        x->to = rank_of[t->to];
        x->before = o->emulate ? before * u : 0;
        x->link = o->emulate ? link * u : 0;
        /* the receiver's r(p); under sync and one-port timing_split gives it as the
           sender's `after`, which the acknowledgement stands for here */
        x->recv = o->emulate && timing_holds_recv_port(m) ? k.r * u : 0;
    }
    free(rank_of);
    return 0;
}

/* Poll for a message from src with tag (MPI_Iprobe), sleeping between polls
 * when idle; then receive it into buf.  Returns when it arrived (probe). */
static double poll_recv(int src, int tag, void *buf, int count, MPI_Datatype type, bool sleepy)
{
    int flag = 0;
    for (;;) {
        MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag)
            break;
        if (sleepy) {
            struct timespec ts = {0, (long)(EX_POLL * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
    double at = MPI_Wtime();
    MPI_Recv(buf, count, type, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return at;
}

/*
 * Warm every edge of the schedule up: EX_WARM round trips of a message
 * between its two ranks, the edges in the schedule's order (a rank takes its
 * edges in that order, so the first unfinished edge always has both ranks
 * at it).  Open MPI sets up the fast path between two ranks after some
 * messages, and calibrate measured that path; a schedule sends each message
 * once.
 */
static void warm_up(const struct hm *h, const struct ex_plan *p, char *buf, int size)
{
    for (int i = 0; i < p->ntr; i++) {
        const struct ex_tr *x = &p->tr[i];
        for (int k = 0; k < EX_WARM; k++) {
            if (h->rank == x->from) {
                MPI_Send(buf, size, MPI_CHAR, x->to, HM_TAG_CTRL, MPI_COMM_WORLD);
                MPI_Recv(buf, size, MPI_CHAR, x->to, HM_TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (h->rank == x->to) {
                MPI_Recv(buf, size, MPI_CHAR, x->from, HM_TAG_CTRL, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_CHAR, x->from, HM_TAG_CTRL, MPI_COMM_WORLD);
            }
        }
    }
    hm_idle_barrier();
}

/* --emulate: one repeat on this rank, from local time start (one moment of
 * rank 0's clock); times into rec (local clock, then rank 0's, in units). */
static void play_emulated(const struct hm *h, const struct ex_plan *p, const struct exec_opts *o,
                          double start, double offset, char *buf, double *rec)
{
    int me = h->rank;
    for (int i = 0; i < p->ntr * T_FIELDS; i++)
        rec[i] = -DBL_MAX;
    hm_wait_until(start);
    for (int i = 0; i < p->ntr; i++) {
        const struct ex_tr *x = &p->tr[i];
        if (x->to != me)
            continue;
        double *r = &rec[i * T_FIELDS];
        r[T_ARRIVE] = poll_recv(x->from, HM_TAG_DATA, buf, (int)o->size, MPI_CHAR, true);
        double left;   /* when it left the sender, rank 0's clock */
        memcpy(&left, buf, sizeof left);
        double le = left - offset + x->link;
        r[T_LINK_END] = le > r[T_ARRIVE] ? le : r[T_ARRIVE];
        hm_wait_until(r[T_LINK_END] + x->recv);
        r[T_RECV_END] = MPI_Wtime();
        if (p->acked) {
            char ack = 1;
            MPI_Send(&ack, 1, MPI_CHAR, x->from, HM_TAG_ACK, MPI_COMM_WORLD);
        }
    }
    for (int i = 0; i < p->ntr; i++) {
        const struct ex_tr *x = &p->tr[i];
        if (x->from != me)
            continue;
        double *r = &rec[i * T_FIELDS];
        r[T_START] = MPI_Wtime();
        if (x->before > 0)
            hm_wait_until(r[T_START] + x->before);
        r[T_LINK] = MPI_Wtime();
        double left = r[T_LINK] + offset;
        memcpy(buf, &left, sizeof left);
        MPI_Send(buf, (int)o->size, MPI_CHAR, x->to, HM_TAG_DATA, MPI_COMM_WORLD);
        r[T_SEND_END] = MPI_Wtime();
        if (p->acked) {
            char ack;
            r[T_FREE] = poll_recv(x->to, HM_TAG_ACK, &ack, 1, MPI_CHAR, true);
        } else {
            r[T_FREE] = r[T_SEND_END];
        }
    }
    /* to rank 0's clock, from the start, in units */
    for (int i = 0; i < p->ntr * T_FIELDS; i++)
        if (rec[i] > -DBL_MAX)
            rec[i] = (rec[i] - start) / (o->unit_ms / 1000);
}

/* This rank's transfers, found before the timed runs: the ones it receives,
 * then the ones it sends, each in the schedule's order. */
struct ex_mine {
    int n, nrecv;
    int *idx;        /* transfer numbers: idx[0 .. nrecv) received, the rest sent */
    double *stamp;   /* the clock after each step of a run (2 a send at most) */
};

static void mine_of(int me, const struct ex_plan *p, struct ex_mine *m)
{
    m->n = m->nrecv = 0;
    m->idx = xmalloc((size_t)(p->ntr ? p->ntr : 1) * sizeof *m->idx);
    m->stamp = xmalloc((size_t)(2 * p->ntr + 1) * sizeof *m->stamp);
    for (int i = 0; i < p->ntr; i++)
        if (p->tr[i].to == me)
            m->idx[m->n++] = i;
    m->nrecv = m->n;
    for (int i = 0; i < p->ntr; i++)
        if (p->tr[i].from == me)
            m->idx[m->n++] = i;
}

/*
 * Without --emulate: one repeat timed as OSU's benchmarks time one.  A
 * barrier, then this rank's receives and sends back to back (blocking
 * MPI_Recv and MPI_Send of the schedule's message; under sync and one-port
 * the acknowledgement), the clock read after each step and nothing else done
 * in between.  After the last step, rec gets the times from this rank's exit
 * of the barrier, in units of unit_s seconds.
 */
static void play_plain(const struct ex_plan *p, struct ex_mine *m, double unit_s, char *buf,
                       int size, double *rec)
{
    char ack = 1;
    double *stamp = m->stamp;
    int k = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int j = 0; j < m->nrecv; j++) {
        int from = p->tr[m->idx[j]].from;
        MPI_Recv(buf, size, MPI_CHAR, from, HM_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        stamp[k++] = MPI_Wtime();
        if (p->acked)
            MPI_Send(&ack, 1, MPI_CHAR, from, HM_TAG_ACK, MPI_COMM_WORLD);
    }
    for (int j = m->nrecv; j < m->n; j++) {
        int to = p->tr[m->idx[j]].to;
        MPI_Send(buf, size, MPI_CHAR, to, HM_TAG_DATA, MPI_COMM_WORLD);
        stamp[k++] = MPI_Wtime();
        if (p->acked) {
            MPI_Recv(&ack, 1, MPI_CHAR, to, HM_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            stamp[k++] = MPI_Wtime();
        }
    }
    /* the run is over: the stamps into the transfers' fields */
    for (int i = 0; i < p->ntr * T_FIELDS; i++)
        rec[i] = -DBL_MAX;
    k = 0;
    double last = 0;   /* a send starts when the step before it ended */
    for (int j = 0; j < m->n; j++) {
        double *r = &rec[m->idx[j] * T_FIELDS];
        if (j < m->nrecv) {
            last = r[T_ARRIVE] = r[T_LINK_END] = r[T_RECV_END] = (stamp[k++] - t0) / unit_s;
            continue;
        }
        r[T_START] = r[T_LINK] = last;
        last = r[T_SEND_END] = r[T_FREE] = (stamp[k++] - t0) / unit_s;
        if (p->acked)
            last = r[T_FREE] = (stamp[k++] - t0) / unit_s;
    }
}

/* A measured time as written: 7 significant digits (the clocks' agreement is
 * coarser than that; the rest would be noise). */
static double kept(double x)
{
    return numfmt_round(x, EX_DIGITS);
}

/* The measured times of transfer i in the columns the model's timing gives (timing_measured). */
static void measured_times(int model, const double *r, struct transfer *t)
{
    double st = kept(r[T_START]), ls = kept(r[T_LINK]), se = kept(r[T_SEND_END]),
           fr = kept(r[T_FREE]), le = kept(r[T_LINK_END]), re = kept(r[T_RECV_END]);
    /* The receiver's times come from another clock: one that reads earlier than
       the send by less than the alignment's error is written as the send's, so
       that no interval ends before it starts (formats.md, "Measured traces"). */
    le = fmax(le, ls);
    re = fmax(re, le);
    struct timing_measure at = {st, ls, se, fr, le, re};
    struct timing tm;
    timing_measured((enum model)model, &at, &tm);
    transfer_set_times(t, &tm);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const char *num(char buf[NUMFMT_SIZE], double x)
{
    return numfmt_text(buf, numfmt_round(x, 6));
}

/* Rank 0: the measured transfers of the fastest repeat, as run --format csv
 * writes a schedule (report_run_csv on a copy of the run with the measured
 * times), after comment lines that say where they come from. */
static int write_measured(const struct exec_opts *o, const struct hm *h, const struct run *run,
                          struct transfer *best, int best_rep, const double *mk, double median,
                          double align)
{
    struct atomic_file af;
    if (atomic_open(&af, o->output) != 0) {
        int err = errno;
        hm_say(NULL, true, "%s: cannot write: %s", o->output, atomic_why(&af, err));
        return 1;
    }
    FILE *fp = af.fp;
    char b1[NUMFMT_SIZE], b2[NUMFMT_SIZE], b3[NUMFMT_SIZE], b4[NUMFMT_SIZE], name[256];
    fprintf(fp, "# measured by hetcast-mpi exec: the schedule's transfers as real MPI messages\n");
    fprintf(fp, "# cluster: %s\n", SHOWN(run->c->name, name));
    fprintf(fp, "# scheduler: %s; model: %s\n", SHOWN(run->sched.ops->name, name),
            model_name(run->model));
    fprintf(fp, "# ranks: %d on %d host%s:", h->size, h->nhosts, h->nhosts == 1 ? "" : "s");
    for (int k = 0; k < h->size; k++)
        if (h->host_of[k] == k)
            fprintf(fp, " %s", SHOWN(h->hosts[k], name));
    fprintf(fp, "\n# unit: %s ms%s\n", num(b1, o->unit_ms),
            o->emulate ? " (--emulate: the modelled costs waited out)" : " (no emulation)");
    fprintf(fp, "# repeats: %d; this is repeat %d, the one with the smallest makespan\n",
            o->repeat, best_rep + 1);
    fprintf(fp, "# makespan: predicted %s, measured %s (min) %s (median) %s (max)\n",
            num(b1, run->eng.makespan), num(b2, mk[0]), num(b3, median), num(b4, mk[o->repeat - 1]));
    if (o->emulate)
        fprintf(fp, "# clocks: aligned to rank 0 (Cristian), to within %s ms\n",
                num(b1, align * 1e3));
    else
        fprintf(fp, "# clocks: each rank's own, from its exit of the barrier before the run\n");
    struct run copy = *run;
    copy.eng.tr = best;
    report_run_csv(fp, &copy, false, true);
    if (atomic_commit(&af) != 0) {
        hm_say(NULL, true, "%s: cannot save: %s", o->output, strerror(errno));
        return 1;
    }
    return 0;
}


static double median_of(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/*
 * Without --emulate, a fastest run at least twice the prediction says that a
 * message costs this machine more than the cluster's costs: the extra time,
 * shared among the messages of the prediction's critical path (each waits
 * for the one before), is the extra a message.  What MPI's own broadcast
 * took beside it (bcast, its fastest run; < 0 without --baseline) says
 * whether the library's messages cost as much.  Nothing when the
 * prediction holds within that factor.
 */
static void overhead_note(const struct exec_opts *o, const struct run *run, double measured,
                          double bcast)
{
    double pred = run->eng.makespan;
    if (!(pred > 0) || !(measured >= 2 * pred))
        return;
    unsigned char *crit = xmalloc((size_t)run->c->n);
    int depth = 0;
    if (export_critical_path(&run->eng, crit) >= 0)
        for (int p = 0; p < run->c->n; p++)
            depth += crit[p] && run->eng.parent[p] >= 0;
    free(crit);
    if (depth < 1)
        return;
    char b1[NUMFMT_SIZE], b2[NUMFMT_SIZE], each[64];
    double extra_us = (measured - pred) * o->unit_ms * 1e3 / depth;
    if (depth == 1)
        snprintf(each, sizeof each, "the one message");
    else
        snprintf(each, sizeof each, "each of the %d messages", depth);
    printf("note                 measured %.1f times the prediction: %s of the critical path "
           "took about %s us more than the cluster's costs (%s us in all predicted): the "
           "cluster's costs are not this machine's at %ld bytes.", measured / pred, each,
           num(b1, extra_us), num(b2, pred * o->unit_ms * 1e3), o->size);
    if (bcast >= 0)
        printf("  The library's MPI_Bcast of the same message took %s us at its fastest, "
               "%.1f times the prediction.", num(b1, bcast * o->unit_ms * 1e3), bcast / pred);
    else
        printf("  (--baseline times the library's MPI_Bcast of the same message beside it.)");
    printf("  To see the model's schedule, run it with --emulate (the modelled costs waited "
           "out); to predict this machine, calibrate it at this message size (mpirun -n N "
           "hetcast-mpi calibrate --size %ld -o CLUSTER.csv) and run that cluster.\n", o->size);
}

/* The ranks the schedule uses (1) and not (0), h->size of them; *n how many. */
static unsigned char *used_ranks(const struct hm *h, const struct ex_plan *p, int *n)
{
    unsigned char *used = xcalloc((size_t)h->size, 1);
    for (int i = 0; i < p->ntr; i++)
        used[p->tr[i].from] = used[p->tr[i].to] = 1;
    *n = 0;
    for (int k = 0; k < h->size; k++)
        *n += used[k];
    return used;
}

/*
 * --baseline: MPI_Bcast of o->size bytes from the source's rank (the first
 * transfer's sender) to the ranks of the schedule, timed as a run of the
 * schedule is without --emulate: EX_WARM_RUNS runs not counted, then a
 * barrier before each, each rank's time from its exit of the barrier, the
 * latest over the ranks; bk[k] (rank 0) that of run k, in the cluster's
 * units.  Collective.
 */
static void bcast_baseline(struct hm *h, const struct ex_plan *p, const struct exec_opts *o,
                           char *buf, double *bk)
{
    int rank = h->rank, root = 0, nused;
    unsigned char *used = used_ranks(h, p, &nused);
    for (int k = 0; p->ntr > 0 && k < p->tr[0].from; k++)
        root += used[k];   /* the source's place among the used ranks, in rank order */
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, used[rank] ? 0 : MPI_UNDEFINED, rank, &sub);
    for (int k = -EX_WARM_RUNS; k < o->repeat; k++) {
        hm_watchdog(h, "exec (the MPI_Bcast baseline)", 1);
        double took = 0, latest = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (used[rank]) {
            double t0 = MPI_Wtime();
            MPI_Bcast(buf, (int)o->size, MPI_CHAR, root, sub);
            took = MPI_Wtime() - t0;
        }
        /* blocking, as OSU's: a rank that slept between runs would wait for a core */
        MPI_Reduce(&took, &latest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0 && k >= 0)
            bk[k] = latest / (o->unit_ms / 1000);
    }
    hm_watchdog(h, NULL, 0);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    free(used);
}

/* What one run of exec holds, on every rank (rank 0: the run and the results). */
struct ex_state {
    struct cluster *c;
    struct run run;
    bool have_run;
    struct ex_plan plan;
    double offset, worst;   /* --emulate: this rank's clock to rank 0's, and the worst error x 2 */
    double *mk, *bk;        /* rank 0: the makespan of every run, MPI_Bcast's (--baseline) */
    struct transfer *best;  /* rank 0: the transfers of the fastest run */
    int best_rep;
};

/* Rank 0 plans (prepare); every rank learns the status, the plan and the unit. */
static int share_plan(struct hm *h, struct exec_opts *o, int argc, char **argv, struct ex_state *st)
{
    int head[4] = {0, 0, 0, 0};   /* status, transfers, model, acked */
    struct ex_plan *plan = &st->plan;
    hm_watchdog(h, "exec (loading and scheduling)",
                o->s.sopt.time_limit > 0 ? o->s.sopt.time_limit : 0);
    if (h->rank == 0) {
        head[0] = prepare(h, o, argc, argv, &st->c, &st->run, &st->have_run, plan);
        head[1] = plan->ntr;
        head[2] = plan->model;
        head[3] = plan->acked;
    }
    MPI_Request rq;
    MPI_Ibcast(head, 4, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    if (head[0])
        return head[0];
    plan->ntr = head[1];
    plan->model = head[2];
    plan->acked = head[3];
    /* the unit, which rank 0 read from the cluster (unit_of) */
    MPI_Ibcast(&o->unit_ms, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    if (h->rank != 0)
        plan->tr = xcalloc((size_t)(plan->ntr ? plan->ntr : 1), sizeof *plan->tr);
    /* as bytes: the ranks run one build of hetcast-mpi (one architecture) */
    MPI_Ibcast(plan->tr, (int)(plan->ntr * sizeof *plan->tr), MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    return 0;
}

/* --emulate: the clocks aligned to rank 0's, refused when not well enough
 * (status 1 on every rank). */
static int align(struct hm *h, const struct exec_opts *o, struct ex_state *st)
{
    int status = 0;
    double rtt;
    MPI_Request rq;
    hm_watchdog(h, "exec (aligning the clocks)", 0);
    hm_align_clocks(EX_ALIGN_ROUNDS, &st->offset, &rtt);
    MPI_Ireduce(&rtt, &st->worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    double limit = fmin(EX_ALIGN_SHARE * o->unit_ms / 1000, EX_ALIGN_WORST);
    if (h->rank == 0 && st->worst / 2 > limit) {
        char b1[NUMFMT_SIZE], b2[NUMFMT_SIZE], b3[NUMFMT_SIZE];
        hm_say(h, false, "exec: the clocks cannot be aligned: the best of %d round trips to "
               "rank 0 took %s ms on some rank, so its clock is known to within %s ms only "
               "(needed: %s ms, 1 %% of a unit)", EX_ALIGN_ROUNDS, num(b1, st->worst * 1e3),
               num(b2, st->worst / 2 * 1e3), num(b3, limit * 1e3));
        status = 1;
    }
    MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    return status;
}

/* Rank 0: run k's transfers (all, reduced) into cur, its makespan into mk,
 * and cur into best when it is the fastest so far. */
static void keep_run(const struct ex_plan *p, const double *all, struct transfer *cur, int k,
                     struct ex_state *st)
{
    double m = 0;
    for (int i = 0; i < p->ntr; i++) {
        measured_times(p->model, &all[i * T_FIELDS], &cur[i]);
        if (cur[i].hold > m)
            m = cur[i].hold;
    }
    st->mk[k] = m;
    if (k == 0 || m < st->mk[st->best_rep]) {
        st->best_rep = k;
        if (p->ntr)
            memcpy(st->best, cur, (size_t)p->ntr * sizeof *cur);
    }
}

/* The warm-up and the runs of the schedule (collective): rank 0 ends with
 * every run's makespan and the fastest run's transfers. */
static void play_runs(struct hm *h, const struct exec_opts *o, struct ex_state *st, char *buf)
{
    const struct ex_plan *p = &st->plan;
    int rank = h->rank;
    size_t nf = (size_t)(p->ntr ? p->ntr : 1) * T_FIELDS;
    double *rec = xmalloc(nf * sizeof *rec), *all = rank == 0 ? xmalloc(nf * sizeof *all) : NULL;
    struct transfer *cur = NULL;
    if (rank == 0 && p->ntr) {
        st->best = xmalloc((size_t)p->ntr * sizeof *st->best);
        cur = xmalloc((size_t)p->ntr * sizeof *cur);
        memcpy(st->best, st->run.eng.tr, (size_t)p->ntr * sizeof *cur);
        memcpy(cur, st->run.eng.tr, (size_t)p->ntr * sizeof *cur);
    }
    double predicted = rank == 0 ? st->run.eng.makespan : 0;
    MPI_Request rq;
    MPI_Ibcast(&predicted, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq);
    hm_idle_wait(&rq);
    struct ex_mine mine;
    mine_of(rank, p, &mine);
    hm_watchdog(h, "exec (warming the schedule's edges up)", 0);
    warm_up(h, p, buf, (int)o->size);
    /* runs not counted first (k < 0), as benchmarks warm up */
    for (int k = o->emulate ? -1 : -EX_WARM_RUNS; k < o->repeat; k++) {
        hm_watchdog(h, "exec (a run of the schedule)",
                    EX_START_MARGIN + 3 * predicted * o->unit_ms / 1000);
        if (o->emulate) {
            double start = rank == 0 ? MPI_Wtime() + EX_START_MARGIN : 0;
            MPI_Ibcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq);
            hm_idle_wait(&rq);
            play_emulated(h, p, o, start - st->offset, st->offset, buf, rec);
            MPI_Ireduce(rec, all, p->ntr * T_FIELDS, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD, &rq);
            hm_idle_wait(&rq);
        } else {
            play_plain(p, &mine, o->unit_ms / 1000, buf, (int)o->size, rec);
            /* blocking, as OSU's: a rank that slept between runs would wait for a core */
            MPI_Reduce(rec, all, p->ntr * T_FIELDS, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        }
        if (rank == 0 && k >= 0)
            keep_run(p, all, cur, k, st);
    }
    hm_watchdog(h, NULL, 0);
    free(mine.idx);
    free(mine.stamp);
    free(cur);
    free(rec);
    free(all);
}

/* Rank 0: what was measured, on standard output (and -o); the status. */
static int report(const struct hm *h, const struct exec_opts *o, struct ex_state *st)
{
    const struct run *run = &st->run;
    double *mk = st->mk, med = median_of(mk, o->repeat);
    char b1[NUMFMT_SIZE], b2[NUMFMT_SIZE], b3[NUMFMT_SIZE], name[256], name2[64];
    printf("hetcast-mpi exec: %s, %s, %s model; %d ranks on %d host%s; ", SHOWN(st->c->name, name),
           SHOWN(run->sched.ops->name, name2), model_name(run->model), h->size, h->nhosts,
           h->nhosts == 1 ? "" : "s");
    if (o->emulate)
        printf("emulated, 1 unit = %s ms", num(b1, o->unit_ms));
    else
        printf("not emulated, times in units of %s ms", num(b1, o->unit_ms));
    printf("; %d repeat%s; %ld bytes a message\n", o->repeat, o->repeat == 1 ? "" : "s", o->size);
    printf("predicted makespan   %s\n", num(b1, run->eng.makespan));
    printf("measured makespan    min %s  median %s  max %s", num(b1, mk[0]), num(b2, med),
           num(b3, mk[o->repeat - 1]));
    if (run->eng.makespan > 0)
        printf("  (min %+.2f %% of the prediction)",
               100 * (mk[0] - run->eng.makespan) / run->eng.makespan);
    putchar('\n');
    double bmin = -1;
    if (o->baseline && st->plan.ntr > 0) {
        double bmed = median_of(st->bk, o->repeat);
        int nused;
        free(used_ranks(h, &st->plan, &nused));
        bmin = st->bk[0];
        printf("MPI_Bcast            min %s  median %s  max %s  (the library's own broadcast of "
               "%ld bytes from rank %d to the same %d ranks)\n", num(b1, bmin), num(b2, bmed),
               num(b3, st->bk[o->repeat - 1]), o->size, st->plan.tr[0].from, nused);
    }
    if (o->emulate)
        printf("clocks               aligned to rank 0 to within %s ms\n",
               num(b1, st->worst / 2 * 1e3));
    else
        printf("timing               as OSU's benchmarks: %d runs not counted, then a barrier "
               "before each run; a rank's times from its exit of the barrier, a run's makespan "
               "the latest end over the ranks\n", EX_WARM_RUNS);
    if (!o->emulate)
        overhead_note(o, run, mk[0], bmin);
    int status = 0;
    if (o->output) {
        status = write_measured(o, h, run, st->best ? st->best : run->eng.tr, st->best_rep, mk,
                                med, st->worst / 2);
        if (!status)
            printf("measured transfers   repeat %d of %d (the smallest makespan) in %s\n",
                   st->best_rep + 1, o->repeat, SHOWN(o->output, name));
    }
    fflush(stdout);
    return status;
}

/* exec on the ranks of h, after the options: the status, the same on every rank. */
static int exec_run(struct hm *h, struct exec_opts *o, int argc, char **argv)
{
    struct ex_state st;
    memset(&st, 0, sizeof st);
    int status = share_plan(h, o, argc, argv, &st);
    if (!status && o->emulate)
        status = align(h, o, &st);
    char *buf = xcalloc((size_t)o->size, 1);
    st.mk = xmalloc((size_t)o->repeat * sizeof *st.mk);
    st.bk = xmalloc((size_t)o->repeat * sizeof *st.bk);
    if (!status) {
        play_runs(h, o, &st, buf);
        if (o->baseline)
            bcast_baseline(h, &st.plan, o, buf, st.bk);
        if (h->rank == 0)
            status = report(h, o, &st);
        MPI_Request rq;
        MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
        hm_idle_wait(&rq);
    }
    free(buf);
    free(st.mk);
    free(st.bk);
    free(st.best);
    free(st.plan.tr);
    if (st.have_run)
        run_free(&st.run);
    cluster_free(st.c);
    return status;
}

int mpi_exec(struct hm *h, int argc, char **argv)
{
    struct exec_opts o;
    memset(&o, 0, sizeof o);
    session_opts_init(&o.s);
    o.size = 64;
    o.timeout = 60;
    const char *files[1];
    int nfiles = 0, rank = h ? h->rank : 0;
    int rc = hm_parse(rank, "hetcast-mpi exec", exec_table, argc - 1, argv + 1, exec_set, &o,
                      files, 1, &nfiles);
    if (rc == OPTS_HELP) {
        if (rank == 0)
            help();
        return 0;
    }
    if (rc)
        return rc;
    if (nfiles == 0) {
        hm_say(h, false, "exec: a cluster file is needed (hetcast-mpi exec CLUSTER -s NAME)");
        return 2;
    }
    o.s.file = app_bundled("clusters", files[0], app_cluster_exts);   /* counterexample.csv: the bundled one */
    if (o.s.nsched == 0)
        o.s.sched[o.s.nsched++] = "fnf";
    if (o.repeat == 0)
        o.repeat = o.emulate ? 1 : EX_PLAIN_REPEAT;
    if (!h) {   /* how many ranks: the cluster's nodes */
        struct cluster *c = load(&o.s);
        if (!c)
            return 2;
        int n = c->n;
        cluster_free(c);
        return hm_not_launched(n, argc, argv);
    }
    h->timeout = o.timeout;
    return exec_run(h, &o, argc, argv);
}
