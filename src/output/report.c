/*
 * output/report.c - text, CSV and JSON output of runs; numbers through support/numfmt.h,
 * CSV fields through support/csvfield.h.
 */
#include "output/report.h"

#include "config.h"

#include "engine/explain.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "output/export_line.h"
#include "support/csvfield.h"
#include "support/fastpath.h"
#include "support/numfmt.h"
#include "sched/optimal_sum.h"
#include "sched/pipeline.h"
#include "model/targets.h"

static void json_run(FILE *fp, const struct run *r, bool summary, struct spool *sp);

static size_t json_bare_len(const char *s, size_t max);

static void json_string(FILE *fp, const char *s)
{
    size_t len = json_bare_len(s, 4096);
    if (len != (size_t)-1) {   /* nothing to escape: one write */
        putc('"', fp);
        fwrite(s ? s : "", 1, len, fp);
        putc('"', fp);
        return;
    }
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

static const char *nodename(const struct run *r, int i)
{
    return r->c->nodes[i].name;
}

void report_cluster_line(FILE *fp, const struct cluster *c)
{
    fprintf(fp, "cluster: %s (%s, %d node%s, source %s", c->name ? c->name : "(unnamed)",
            cluster_kind_name(c->kind), c->n, c->n == 1 ? "" : "s", c->nodes[c->source].name);
    if (c->kind == CLUSTER_NODES)
        fprintf(fp, ", latency %s", numfmt_txt(c->latency));
    if (time_unit_name(c->time_unit))
        fprintf(fp, ", times in %s", time_unit_name(c->time_unit));
    fprintf(fp, ")\n");
    char *targets = cluster_targets_text(c);   /* a multicast */
    if (targets)
        fprintf(fp, "targets: %s (%d of %d nodes; the others may relay)\n", targets, c->ntargets, c->n);
    free(targets);
}

/* The simulated throughput: the formula's value when they agree to 1e-9
 * (0.2, not 0.19999999999999993), else to 12 digits. */
static double measured_of(const struct run *r)
{
    int k = r->sched.slices;
    double x = pipe_measured_throughput(&r->eng, k / 2, k - 1);
    if (fabs(x - r->sched.throughput) <= 1e-9 * r->sched.throughput)
        return r->sched.throughput;
    return numfmt_round(x, 12);
}

/* The length of s when it needs no JSON escape and is at most max bytes, else (size_t)-1. */
static size_t json_bare_len(const char *s, size_t max)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++, n++)
        if (*p == '"' || *p == '\\' || *p < 0x20 || n >= max)
            return (size_t)-1;
    return n;
}

enum { JSON_NAME_IN_LINE = 200 };   /* longer names go through json_string */

/* The bare line of a transfer (names that need no escape, lf and lt bytes) at `at`; its end. */
static char *json_transfer_line(char *at, const struct transfer *t, const char *from, size_t lf,
                                const char *to, size_t lt)
{
    at = LINE_LIT(at, "{\"from\": \"");
    at = line_str(at, from, lf);
    at = LINE_LIT(at, "\", \"to\": \"");
    at = line_str(at, to, lt);
    at = line_char(at, '"');
    at = line_times(at, t);
    return line_char(at, '}');
}

/* One transfer of report_run_json: {"from": ..., "recv_end": ...}, in one
 * write when its names need no escape (the times through numfmt_num_cached);
 * into lo's block then, when lo is not NULL (support/fastpath.h). */
static void json_transfer(FILE *fp, struct line_out *lo, const struct run *r, const struct transfer *t)
{
    const char *from = nodename(r, t->from), *to = nodename(r, t->to);
    size_t lf = json_bare_len(from, JSON_NAME_IN_LINE), lt = json_bare_len(to, JSON_NAME_IN_LINE);
    if (r->sched.slices > 0 || r->sched.segments > 1 || lf == (size_t)-1 || lt == (size_t)-1) {
        if (lo)
            line_flush(lo);
        fprintf(fp, "{\"from\": ");
        json_string(fp, from);
        fprintf(fp, ", \"to\": ");
        json_string(fp, to);
        fprintf(fp, ", \"send_start\": %s, \"send_end\": %s, \"link_start\": %s, \"link_end\": %s, "
                    "\"recv_start\": %s, \"recv_end\": %s",
                numfmt_num(t->start), numfmt_num(t->send_end), numfmt_num(t->link_start),
                numfmt_num(t->link_end), numfmt_num(t->recv_start), numfmt_num(t->recv_end));
        if (r->sched.slices > 0)
            fprintf(fp, ", \"slice\": %d", t->msg + 1);
        if (r->sched.segments > 1)
            fprintf(fp, ", \"segment\": %d", t->msg + 1);
        fputc('}', fp);
        return;
    }
    if (lo) {
        char *at = line_begin(lo, lf + lt + 6 * NUMFMT_SIZE + 160);
        line_end(lo, json_transfer_line(at, t, from, lf, to, lt));
        return;
    }
    char line[2 * JSON_NAME_IN_LINE + 6 * NUMFMT_SIZE + 160];
    line_write(fp, line, json_transfer_line(line, t, from, lf, to, lt));
}

/* The "parent" object's entry of node p (its parent q), after a ", " unless first: into lo's
 * block when lo is not NULL and both names need no escape. */
static void json_parent(FILE *fp, struct line_out *lo, const char *p, const char *q, bool first)
{
    size_t lp = lo ? json_bare_len(p, JSON_NAME_IN_LINE) : (size_t)-1;
    size_t lq = lo ? json_bare_len(q, JSON_NAME_IN_LINE) : (size_t)-1;
    if (lp == (size_t)-1 || lq == (size_t)-1) {
        if (lo)
            line_flush(lo);
        fputs(first ? "" : ", ", fp);
        json_string(fp, p);
        fputs(": ", fp);
        json_string(fp, q);
        return;
    }
    char *at = line_begin(lo, lp + lq + 16);
    if (!first)
        at = LINE_LIT(at, ", ");
    at = line_str(line_char(at, '"'), p, lp);
    at = LINE_LIT(at, "\": \"");
    at = line_char(line_str(at, q, lq), '"');
    line_end(lo, at);
}

/* A number as JSON: null when it is not finite. */
static const char *json_num(double x)
{
    return isfinite(x) ? numfmt_num(x) : "null";
}

/* Pipelined runs: the tree's throughput, the simulated one and the LP optimum. */
static void pipeline_summary(FILE *fp, const struct run *r)
{
    const struct pipe_plan *pl = pipeline_plan(&r->sched);
    int k = r->sched.slices, who = -1;
    double period = pl ? pipe_period(r->c, &pl->tree, r->model, &who) : 0;
    fprintf(fp, "slices        %d\n", k);
    fprintf(fp, "throughput    %s", isinf(r->sched.throughput) ? "unbounded" : numfmt_txt(r->sched.throughput));
    if (who >= 0)
        fprintf(fp, "   (%s formula: period %s, set by %s)\n",
                model_name(r->model), numfmt_txt(period),
                r->c->nodes[who].name);
    else
        fprintf(fp, "   (no receivers)\n");
    double measured = measured_of(r);
    if (isfinite(measured))
        fprintf(fp, "measured      %s   (simulated, slices %d to %d)\n", numfmt_txt(measured), k / 2 + 1, k);
    if (isfinite(r->sched.optimal_throughput) && isfinite(r->sched.throughput))
        fprintf(fp, "LP optimum    %s   (several trees at once, linear program (2); this tree "
                    "reaches %.1f %%%s)\n",
                numfmt_txt(r->sched.optimal_throughput),
                100.0 * r->sched.throughput / r->sched.optimal_throughput,
                timing_lp_of_one_port(r->model) ? " of the one-port optimum" : "");
    else if (timing_shares_port(r->model) && isfinite(r->sched.throughput_bound) &&
             isfinite(r->sched.throughput))
        fprintf(fp, "LP bound      %s   (linear program (2) with one port per node: an upper bound, "
                    "not always reached; this tree reaches %.1f %%)\n",
                numfmt_txt(r->sched.throughput_bound),
                100.0 * r->sched.throughput / r->sched.throughput_bound);
    else if (timing_shares_port(r->model))
        fprintf(fp, "LP bound      unknown   (%s)\n", pl && pl->lp_note ? pl->lp_note : "not solved");
    else if (!isfinite(r->sched.optimal_throughput))
        fprintf(fp, "LP optimum    unknown   (%s)\n", pl && pl->lp_note ? pl->lp_note : "not solved");
}

static void interval(char *buf, size_t size, double a, double b)
{
    if (b > a)
        text_fit(buf, size, "[%s, %s)", numfmt_txt(a), numfmt_txt(b));
    else
        text_fit(buf, size, "-");
}

/* The summary lines of a text report. */
static void report_summary_text(FILE *fp, const struct run *r)
{
    fprintf(fp, "makespan      %s\n", numfmt_txt(r->eng.makespan));
    fprintf(fp, "lower bound   %s", numfmt_txt(r->lower_bound));
    if (r->sched.segments > 1)
        fprintf(fp, "   (%d segments: one message's bound, the source's sends one after the "
                    "other, every receiver's receives one after the other)\n", r->sched.segments);
    else if (r->c->kind == CLUSTER_NODES && timing_send_only(r->model))
        fprintf(fp, "   (s(source): a transfer costs its sender's send time only)\n");
    else if (r->c->kind == CLUSTER_NODES)
        fprintf(fp, "   (s(source) + L + max r)\n");
    else if (r->shared)
        fprintf(fp, "   (slowest chain of single transfers from the source, each route's cost "
                    "alone: sharing a link only slows a transfer)\n");
    else
        fprintf(fp, "   (slowest chain of single transfers from the source)\n");
    switch (r->opt) {
    case OPT_PROVEN:
        fprintf(fp, "optimum       %s   (%s)\n", numfmt_txt(r->optimum), r->opt_note);
        break;
    case OPT_GAVE_UP:
        fprintf(fp, "optimum       unknown: between %s and %s   (%s)\n", numfmt_txt(r->opt_lower),
                numfmt_txt(r->optimum), r->opt_note);
        break;
    default:
        fprintf(fp, "optimum       unknown   (%s)\n", r->opt_note);
        break;
    }
    if (r->sched.slices > 0)
        pipeline_summary(fp, r);
    if (r->sched.segments > 1) {
        fprintf(fp, "segments      %d   (each costs a message of the cluster's table)\n",
                r->sched.segments);
        fprintf(fp, "guarantee     2T + beta: fnf's, for one message\n");
        return;
    }
    if (!r->has_beta) {
        fprintf(fp, "guarantee     2T + beta: applies to %s\n", r->c->target ? "broadcasts only (this is "
                "a multicast)" : "node tables in the async model only");
        return;
    }
    double limit;
    const char *cond = r->consistent ? "" : "; does not hold here: speeds are not consistent";
    if (run_guarantee(r, &limit))
        fprintf(fp, "guarantee     fnf <= 2T + beta = 2*%s %s %s = %s%s\n", numfmt_txt(r->optimum),
                r->beta < 0 ? "-" : "+", numfmt_txt(fabs(r->beta)), numfmt_txt(limit), cond);
    else
        fprintf(fp, "guarantee     fnf <= 2T + beta, beta = %s (T, the optimum, is at least %s)%s\n",
                numfmt_txt(r->beta), numfmt_txt(r->lower_bound), cond);
}

void report_run_text(FILE *fp, const struct run *r, bool summary)
{
    report_cluster_line(fp, r->c);
    fprintf(fp, "model: %s   scheduler: %s\n", run_model_text(r), r->sched.ops->name);
    if (!summary) {
        fprintf(fp, "\n%4s  %-10s %-10s %-14s %-14s %-14s %-8s %s\n", "#", "from", "to", "send",
                "link", "receive", "holds at", "why");
        for (int i = 0; i < r->eng.ntr; i++) {
            const struct transfer *t = &r->eng.tr[i];
            char s[48], l[48], v[48];
            interval(s, sizeof s, t->start, t->send_end);
            interval(l, sizeof l, t->link_start, t->link_end);
            interval(v, sizeof v, t->recv_start, t->recv_end);
            fprintf(fp, "%4d  %-10s %-10s %-14s %-14s %-14s %-8s ", i + 1, nodename(r, t->from),
                    nodename(r, t->to), s, l, v, numfmt_txt(t->hold));
            char *tmp;
            text_put(engine_reason(&r->eng, t, &tmp), fp);   /* a Lua heuristic's words */
            free(tmp);
            fputc('\n', fp);
        }
        fprintf(fp, "\n");
    }
    if (r->sched.note[0])
        fprintf(fp, "note          %s\n", r->sched.note);
    if (r->sharing[0])
        fprintf(fp, "shared links  %s\n", r->sharing);
    if (r->sched.has_tree_cost)
        fprintf(fp, "tree cost     %s   (heaviest root-to-leaf path, Figueira)\n",
                numfmt_txt(r->sched.tree_cost));
    report_summary_text(fp, r);
}

void report_csv_version(FILE *fp)
{
    fprintf(fp, "# format_version: %d\n# hetcast: %s\n", REPORT_FORMAT_VERSION, HETCAST_VERSION);
}

void report_json_open(FILE *fp)
{
    fprintf(fp, "{\"format_version\": %d, \"hetcast\": \"%s\"", REPORT_FORMAT_VERSION,
            HETCAST_VERSION);
}

/* The format's version, `# unit: us` when the cluster's unit is known, the column names. */
static void csv_header(FILE *fp, const struct cluster *c)
{
    report_csv_version(fp);
    if (time_unit_name(c->time_unit))
        fprintf(fp, "# unit: %s\n", time_unit_name(c->time_unit));
    char *targets = cluster_targets_text(c);
    if (targets)
        fprintf(fp, "# targets: %s\n", targets);
    free(targets);
    fprintf(fp, "scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,"
                "recv_end,hold\n");
}

/* One transfer's row (seq from 0): the names as csvfield_put writes them,
 * the seven times as numfmt_num does, in one write (a time equal to the one
 * before it, as send_end and link_start often are, is not looked up again). */
static void csv_row(FILE *fp, const char *sched, int seq, const char *from, const char *to,
                    double start, double send_end, double link_start, double link_end,
                    double recv_start, double recv_end, double hold)
{
    const double v[7] = {start, send_end, link_start, link_end, recv_start, recv_end, hold};
    enum { NAME_MAX_IN_LINE = 200 };
    char line[3 * NAME_MAX_IN_LINE + 7 * NUMFMT_SIZE + 32];
    const char *num = "";
    size_t n = 0, len = 0;
    size_t ls = csvfield_bare_len(sched, NAME_MAX_IN_LINE),
           lf = csvfield_bare_len(from, NAME_MAX_IN_LINE), lt = csvfield_bare_len(to, NAME_MAX_IN_LINE);
    if (ls == (size_t)-1 || lf == (size_t)-1 || lt == (size_t)-1) {
        /* a name to quote, or a long one: field by field */
        csvfield_put(fp, sched);
        fprintf(fp, ",%d,", seq + 1);
        csvfield_put(fp, from);
        fputc(',', fp);
        csvfield_put(fp, to);
    } else {
        memcpy(line, sched, ls);
        n = ls;
        char digits[16];
        int nd = 0;
        for (unsigned u = (unsigned)seq + 1; u; u /= 10)
            digits[nd++] = (char)('0' + u % 10);
        line[n++] = ',';
        while (nd > 0)
            line[n++] = digits[--nd];
        line[n++] = ',';
        memcpy(line + n, from, lf);
        n += lf;
        line[n++] = ',';
        memcpy(line + n, to, lt);
        n += lt;
    }
    for (int i = 0; i < 7; i++) {
        if (i == 0 || memcmp(&v[i], &v[i - 1], sizeof v[i]) != 0)
            num = numfmt_num_cached(v[i], &len);
        line[n++] = ',';
        memcpy(line + n, num, len);
        n += len;
    }
    line[n++] = '\n';
    fwrite(line, 1, n, fp);
}

void report_run_csv(FILE *fp, const struct run *r, bool summary, bool header)
{
    if (summary) {
        if (header) {
            report_csv_version(fp);
            if (time_unit_name(r->c->time_unit))
                fprintf(fp, "# unit: %s\n", time_unit_name(r->c->time_unit));
            fprintf(fp, "scheduler,model,nodes,makespan,lower_bound,optimal\n");
        }
        csvfield_put(fp, r->sched.ops->name);
        fprintf(fp, ",%s,%d,%s,%s,%s\n", model_name(r->model), r->c->n,
                numfmt_num(r->eng.makespan), numfmt_num(r->lower_bound),
                r->opt == OPT_PROVEN ? numfmt_num(r->optimum) : "");
        return;
    }
    if (header)
        csv_header(fp, r->c);
    for (int i = 0; i < r->eng.ntr; i++) {
        const struct transfer *t = &r->eng.tr[i];
        csv_row(fp, r->sched.ops->name, i, nodename(r, t->from), nodename(r, t->to), t->start,
                t->send_end, t->link_start, t->link_end, t->recv_start, t->recv_end, t->hold);
    }
}

void report_csv_stream_book(void *ctx, int seq, int from, int to, const struct timing *tm)
{
    struct report_csv_stream *st = ctx;
    if (st->rows++ == 0)
        csv_header(st->fp, st->c);
    csv_row(st->fp, st->sched, seq, st->c->nodes[from].name, st->c->nodes[to].name, tm->start,
            tm->send_end, tm->link_start, tm->link_end, tm->recv_start, tm->recv_end, tm->hold);
}

void report_run_json(FILE *fp, const struct run *r, bool summary)
{
    json_run(fp, r, summary, NULL);
}

int report_run_json_spool(FILE *fp, const struct run *r, struct spool *sp, char **cause)
{
    json_run(fp, r, false, sp);
    return spool_check(sp, cause);
}

/* report_run_json; its transfers from sp when not NULL (output/spool.h). */
static void json_run(FILE *fp, const struct run *r, bool summary, struct spool *sp)
{
    report_json_open(fp);
    fputs(", \"cluster\": ", fp);
    json_string(fp, r->c->name);
    fprintf(fp, ", \"model\": \"%s\", %s\"scheduler\": ", model_name(r->model),
            r->shared ? "\"links\": \"shared\", " : "");
    json_string(fp, r->sched.ops->name);
    if (time_unit_name(r->c->time_unit))
        fprintf(fp, ", \"unit\": \"%s\"", time_unit_name(r->c->time_unit));
    for (int p = 0, k = 0; r->c->target && p < r->c->n; p++)   /* a multicast */
        if (r->c->target[p]) {
            fputs(k++ ? ", " : ", \"targets\": [", fp);
            json_string(fp, nodename(r, p));
            fputs(k == r->c->ntargets ? "]" : "", fp);
        }
    fprintf(fp, ", \"nodes\": %d,\n \"makespan\": %s, \"lower_bound\": %s, \"optimal\": %s", r->c->n,
            numfmt_num(r->eng.makespan), numfmt_num(r->lower_bound), r->opt == OPT_PROVEN ? numfmt_num(r->optimum) : "null");
    if (r->sched.has_tree_cost)
        fprintf(fp, ", \"tree_cost\": %s", numfmt_num(r->sched.tree_cost));
    if (r->sched.segments > 1)
        fprintf(fp, ", \"segments\": %d", r->sched.segments);
    if (r->sched.slices > 0) {
        int k = r->sched.slices;
        fprintf(fp, ",\n \"slices\": %d, \"throughput\": %s, \"optimal_throughput\": %s", k,
                json_num(r->sched.throughput), json_num(r->sched.optimal_throughput));
        fprintf(fp, ", \"measured_throughput\": %s",
                json_num(measured_of(r)));
        if (timing_shares_port(r->model))
            fprintf(fp, ", \"throughput_bound\": %s", json_num(r->sched.throughput_bound));
    }
    if (!summary) {
        fprintf(fp, ",\n \"transfers\": [");
        struct line_out *lo = NULL;   /* the fast path's lines, gathered (output/export_line.h) */
        if (FAST_PATH(true)) {
            lo = xmalloc(sizeof *lo);
            lo->fp = fp;
            lo->n = 0;
        }
        struct spool_cursor at;
        spool_cursor_start(&at, &r->eng, sp);
        int i = 0;
        for (const struct transfer *t; (t = spool_cursor_next(&at)); i++) {
            if (i && lo)
                line_end(lo, LINE_LIT(line_begin(lo, 32), ",\n               "));
            else if (i)
                fputs(",\n               ", fp);
            json_transfer(fp, lo, r, t);
        }
        spool_cursor_end(&at);
        if (lo)
            line_flush(lo);
        fprintf(fp, "],\n \"parent\": {");
        bool first = true;
        const int *parent = r->eng.parent;
        const struct node *nodes = r->c->nodes;
        for (int p = 0, n = r->c->n; p < n; p++) {
            /* the parents' names are at random places: fetch ahead, as the cursor does */
            if (p + 16 < n && parent[p + 16] >= 0)
                __builtin_prefetch(&nodes[parent[p + 16]]);
            if (p + 8 < n && parent[p + 8] >= 0)
                __builtin_prefetch(nodes[parent[p + 8]].name);
            if (parent[p] < 0)
                continue;
            json_parent(fp, lo, nodename(r, p), nodename(r, parent[p]), first);
            first = false;
        }
        if (lo)
            line_flush(lo);
        free(lo);
        fprintf(fp, "}");
    }
    fprintf(fp, "}\n");
}

/* Beside optimal-sum, the second objective for every schedule: the sum of
 * the times each node holds the message (Khuller & Kim). */
static void report_sums(FILE *fp, const struct run *runs, int k)
{
    int with = -1;
    for (int i = 0; i < k; i++)
        if (runs[i].sched.ops == &sched_optimal_sum)
            with = i;
    if (with < 0)
        return;
    fprintf(fp, "sum of completion times (the times every node holds the message, added)\n");
    for (int i = 0; i < k; i++) {
        fprintf(fp, "%-16s %s", runs[i].sched.ops->name, numfmt_txt(sched_sum_of_holds(&runs[i].eng)));
        if (i == with)
            fprintf(fp, "   (%s)", runs[i].sched.note);
        fprintf(fp, "\n");
    }
    fprintf(fp, "\n");
}

void report_compare_text(FILE *fp, const struct run *runs, int k, bool summary)
{
    const struct run *best = NULL;
    int segmented = 0;
    for (int i = 0; i < k; i++) {
        if (runs[i].opt == OPT_PROVEN && runs[i].sched.segments <= 1)   /* one message's */
            best = &runs[i];
        if (runs[i].sched.segments > segmented)
            segmented = runs[i].sched.segments;
    }
    report_cluster_line(fp, runs[0].c);
    fprintf(fp, "model: %s\n\n", run_model_text(&runs[0]));
    if (!summary)
        for (int i = 0; i < k; i++) {
            fprintf(fp, "-- %s --\n", runs[i].sched.ops->name);
            for (int j = 0; j < runs[i].eng.ntr; j++) {
                const struct transfer *t = &runs[i].eng.tr[j];
                fprintf(fp, "%4d  %-10s -> %-10s start %-8s holds at %s\n", j + 1,
                        nodename(&runs[i], t->from), nodename(&runs[i], t->to), numfmt_txt(t->start),
                        numfmt_txt(t->hold));
            }
            fprintf(fp, "\n");
        }
    int w = 16;   /* the names' column: wider for a longer name (scatter-allgather) */
    for (int i = 0; i < k; i++)
        if ((int)strlen(runs[i].sched.ops->name) >= w)
            w = (int)strlen(runs[i].sched.ops->name) + 1;
    fprintf(fp, "%-*s %-10s %-14s %s\n", w, "scheduler", "makespan", "/ lower bound",
            best ? "/ optimum" : "");
    for (int i = 0; i < k; i++) {
        const struct run *r = &runs[i];
        fprintf(fp, "%-*s %-10s %-14.3f", w, r->sched.ops->name, numfmt_txt(r->eng.makespan),
                r->lower_bound > 0 ? r->eng.makespan / r->lower_bound : 1.0);
        bool seg = r->sched.segments > 1;
        if (best && seg)   /* the optimum is one message's: not this message's */
            fprintf(fp, " %-5s", "-");
        else if (best)
            fprintf(fp, " %.3f", best->optimum > 0 ? r->eng.makespan / best->optimum : 1.0);
        if (segmented > 1)
            fprintf(fp, "   %d segment%s", seg ? r->sched.segments : 1, seg ? "s" : "");
        if (r->sched.status == OPT_PROVEN)
            fprintf(fp, "   (proven optimal)");
        else if (r->sched.status == OPT_GAVE_UP)
            fprintf(fp, "   (search gave up: not proven optimal)");
        if (r->sched.slices > 0 && isfinite(r->sched.throughput)) {
            fprintf(fp, "   throughput %s", numfmt_txt(r->sched.throughput));
            if (isfinite(r->sched.optimal_throughput))
                fprintf(fp, " = %.1f %% of the LP optimum %s",
                        100.0 * r->sched.throughput / r->sched.optimal_throughput,
                        numfmt_txt(r->sched.optimal_throughput));
            else if (timing_shares_port(r->model) && isfinite(r->sched.throughput_bound))
                fprintf(fp, " = %.1f %% of the LP bound %s",
                        100.0 * r->sched.throughput / r->sched.throughput_bound,
                        numfmt_txt(r->sched.throughput_bound));
        }
        fprintf(fp, "\n");
    }
    fprintf(fp, "\n");
    report_sums(fp, runs, k);
    if (k >= 2)
        fprintf(fp, "difference    %s - %s = %s\n", runs[0].sched.ops->name, runs[1].sched.ops->name,
                numfmt_txt(runs[0].eng.makespan - runs[1].eng.makespan));
    if (k >= 2)
        report_first_difference(fp, &runs[0], &runs[1]);
    const struct run *r0 = best ? best : &runs[0];
    fprintf(fp, "lower bound   %s\n", numfmt_txt(r0->lower_bound));
    if (best)
        fprintf(fp, "optimum       %s   (%s)\n", numfmt_txt(best->optimum), best->opt_note);
    else if (runs[0].opt == OPT_PROVEN)
        fprintf(fp, "optimum       %s   (%s)\n", numfmt_txt(runs[0].optimum), runs[0].opt_note);
    else
        fprintf(fp, "optimum       unknown   (%s)\n", runs[0].opt_note);
    double limit;
    if (r0->has_beta && run_guarantee(r0, &limit))
        fprintf(fp, "guarantee     fnf <= 2T + beta = %s%s\n", numfmt_txt(limit),
                r0->consistent ? "" : " (does not hold here: speeds are not consistent)");
}

void report_first_difference(FILE *fp, const struct run *a, const struct run *b)
{
    struct explain_diff d;
    char line[2048];
    if (a->eng.lean || b->eng.lean || a->eng.personal || explain_first_difference(&a->eng, &b->eng, &d) < 0)
        return;
    explain_diff_text(&a->eng, &b->eng, a->sched.ops->name, b->sched.ops->name, &d, line, sizeof line);
    for (char *p = line; *p; p++)   /* names from files: no control character reaches the terminal */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    fprintf(fp, "%s\n", line);
}

void report_compare_csv(FILE *fp, const struct run *runs, int k, bool summary)
{
    for (int i = 0; i < k; i++)
        report_run_csv(fp, &runs[i], summary, i == 0);
}

void report_compare_json(FILE *fp, const struct run *runs, int k, bool summary)
{
    report_json_open(fp);
    fputs(", \"runs\": [", fp);
    for (int i = 0; i < k; i++) {
        if (i)
            fprintf(fp, ",");
        report_run_json(fp, &runs[i], summary);
    }
    fprintf(fp, "]}\n");
}

void report_json_string(FILE *fp, const char *s)
{
    json_string(fp, s);
}
