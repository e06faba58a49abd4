/*
 * session/trace.c - measured traces (session/trace.h): read through model/csvread.h (libcsv),
 * checked against the cluster, paired with a predicted run.
 */
#include "session/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/csvread.h"
#include "support/numfmt.h"
#include "sched/registry.h"

/* The names of a trace's time columns, enum trace_time's order. */
static const char *const trace_time_names[TRACE_NTIMES] = {
    "send_start", "send_end", "link_start", "link_end", "recv_start", "recv_end", "hold",
};

#define TRACE_MAX_NOTES 64   /* provenance lines kept; more are read and dropped */

/* The loader's state while libcsv hands it records. */
struct tload {
    struct trace *t;
    const struct cluster *c;
    struct diag *d;
    int header_line;        /* 0 until the header was read */
    bool header_ok;
    int ncols;
    int col_sched, col_seq, col_from, col_to;   /* -1: absent */
    int col_t[TRACE_NTIMES];
};

static void on_comment(void *ctx, int line, const char *text, size_t len)
{
    struct tload *ld = ctx;
    (void)line;
    struct trace *t = ld->t;
    while (len > 0 && (*text == ' ' || *text == '\t')) {
        text++;
        len--;
    }
    static const char version[] = "format_version:";   /* the outputs' version: no provenance */
    if (len == 0 || t->nnotes == TRACE_MAX_NOTES ||
        (len >= sizeof version - 1 && memcmp(text, version, sizeof version - 1) == 0))
        return;
    t->notes = xrealloc(t->notes, (size_t)(t->nnotes + 1) * sizeof *t->notes);
    char *s = xmalloc(len + 1);
    memcpy(s, text, len);
    s[len] = '\0';
    t->notes[t->nnotes++] = s;
}

static void header(struct tload *ld, int line, const struct csv_record *r)
{
    static const char *const want = "scheduler,seq,from,to,send_start,send_end,link_start,"
                                    "link_end,recv_start,recv_end,hold";
    ld->header_line = line;
    ld->ncols = r->n;
    ld->col_sched = ld->col_seq = ld->col_from = ld->col_to = -1;
    for (int k = 0; k < TRACE_NTIMES; k++)
        ld->col_t[k] = -1;
    const char *file = ld->t->file;
    int errors = ld->d->errors;
    for (int i = 0; i < r->n; i++) {
        const char *f = r->field[i];
        int *slot = NULL;
        if (strcasecmp(f, "scheduler") == 0)
            slot = &ld->col_sched;
        else if (strcasecmp(f, "seq") == 0)
            slot = &ld->col_seq;
        else if (strcasecmp(f, "from") == 0)
            slot = &ld->col_from;
        else if (strcasecmp(f, "to") == 0)
            slot = &ld->col_to;
        for (int k = 0; !slot && k < TRACE_NTIMES; k++)
            if (strcasecmp(f, trace_time_names[k]) == 0)
                slot = &ld->col_t[k];
        if (!slot)
            continue;   /* another column (the view's export adds `reason`): not needed */
        if (*slot >= 0) {
            char b[64];
            diag_error(ld->d, file, line, NULL, "column \"%s\" appears twice", SHOWN(f, b));
        }
        *slot = i;
    }
    if (ld->col_from < 0)
        diag_error(ld->d, file, line, NULL, "missing column from (a trace's header: %s)", want);
    if (ld->col_to < 0)
        diag_error(ld->d, file, line, NULL, "missing column to (a trace's header: %s)", want);
    for (int k = 0; k < TRACE_NTIMES; k++)
        if (ld->col_t[k] < 0)
            diag_error(ld->d, file, line, NULL, "missing column %s (a trace's header: %s)",
                       trace_time_names[k], want);
    ld->header_ok = ld->d->errors == errors;
}

/* The group named s (added when new). */
static int group_of(struct trace *t, const char *s, int line)
{
    for (int g = 0; g < t->ngroups; g++)
        if (strcmp(t->groups[g], s) == 0)
            return g;
    t->groups = xrealloc(t->groups, (size_t)(t->ngroups + 1) * sizeof *t->groups);
    t->group_line = xrealloc(t->group_line, (size_t)(t->ngroups + 1) * sizeof *t->group_line);
    t->groups[t->ngroups] = xstrdup(s);
    t->group_line[t->ngroups] = line;
    return t->ngroups++;
}

static int node_of(struct tload *ld, int line, const char *col, const char *name)
{
    char b[128];
    if (!name[0]) {
        diag_error(ld->d, ld->t->file, line, col, "missing node name");
        return -1;
    }
    int p = cluster_find(ld->c, name);
    if (p < 0)
        diag_error(ld->d, ld->t->file, line, col, "\"%s\" is not a node of %s", SHOWN(name, b),
                   ld->c->name ? ld->c->name : "the cluster");
    return p;
}

static bool time_of(struct tload *ld, int line, int k, const char *s, double *out)
{
    char b[64];
    const char *col = trace_time_names[k];
    if (!s[0]) {
        diag_error(ld->d, ld->t->file, line, col, "missing value (a time is needed)");
        return false;
    }
    if (!csvread_number(s, out)) {
        diag_error(ld->d, ld->t->file, line, col, "\"%s\" is not a number", SHOWN(s, b));
        return false;
    }
    if (*out < 0) {
        diag_error(ld->d, ld->t->file, line, col, "\"%s\" is negative (times count from the "
                   "start of the broadcast)", SHOWN(s, b));
        return false;
    }
    return true;
}

static void row(struct tload *ld, int line, const struct csv_record *r)
{
    struct trace *t = ld->t;
    const char *file = t->file;
    if (r->n != ld->ncols) {
        diag_error(ld->d, file, line, NULL, "%d field%s, but the header (line %d) has %d", r->n,
                   r->n == 1 ? "" : "s", ld->header_line, ld->ncols);
        return;
    }
    struct trace_row w = {.line = line};
    int errors = ld->d->errors;
    w.group = group_of(t, ld->col_sched >= 0 ? r->field[ld->col_sched] : "", line);
    w.seq = -1;
    if (ld->col_seq >= 0) {
        const char *s = r->field[ld->col_seq];
        char *end, b[64];
        long v = strtol(s, &end, 10);
        if (!s[0] || *end || v < 1 || v > 1000000000L)
            diag_error(ld->d, file, line, "seq", "\"%s\" is not a transfer number (1, 2, ...)",
                       SHOWN(s, b));
        w.seq = v;
    }
    w.from = node_of(ld, line, "from", r->field[ld->col_from]);
    w.to = node_of(ld, line, "to", r->field[ld->col_to]);
    if (w.from >= 0 && w.from == w.to) {
        char b[128];
        diag_error(ld->d, file, line, "to", "%s sends to itself", SHOWN(ld->c->nodes[w.to].name, b));
    }
    bool times = true;
    for (int k = 0; k < TRACE_NTIMES; k++)
        times = time_of(ld, line, k, r->field[ld->col_t[k]], &w.t[k]) && times;
    if (times) {   /* each interval ends at or after its start; nothing is held before it is sent */
        static const int ends[][2] = {{TRACE_SEND_START, TRACE_SEND_END},
                                      {TRACE_LINK_START, TRACE_LINK_END},
                                      {TRACE_RECV_START, TRACE_RECV_END},
                                      {TRACE_SEND_START, TRACE_HOLD}};
        for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
            int a = ends[i][0], b = ends[i][1];
            char sa[NUMFMT_SIZE], sb[NUMFMT_SIZE];
            if (w.t[b] < w.t[a])
                diag_error(ld->d, file, line, trace_time_names[b], "%s is before %s %s (an end "
                           "before its start)", numfmt_shortest(sb, w.t[b]), trace_time_names[a],
                           numfmt_shortest(sa, w.t[a]));
        }
    }
    if (ld->d->errors != errors)
        return;
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->rows = xrealloc(t->rows, (size_t)t->cap * sizeof *t->rows);
    }
    t->rows[t->nrows++] = w;
}

/* Is r the header again?  Two traces joined by cat (fnf's, then optimal's)
 * repeat it: a line of the header's columns in the same order is skipped. */
static bool header_again(const struct tload *ld, const struct csv_record *r)
{
    if (r->n != ld->ncols)
        return false;
    int cols[4] = {ld->col_sched, ld->col_seq, ld->col_from, ld->col_to};
    static const char *const names[4] = {"scheduler", "seq", "from", "to"};
    for (int k = 0; k < 4; k++)
        if (cols[k] >= 0 && strcmp(r->field[cols[k]], names[k]) != 0)
            return false;
    for (int k = 0; k < TRACE_NTIMES; k++)
        if (ld->col_t[k] >= 0 && strcmp(r->field[ld->col_t[k]], trace_time_names[k]) != 0)
            return false;
    return true;
}

static void on_record(void *ctx, int line, const struct csv_record *r)
{
    struct tload *ld = ctx;
    if (!ld->header_line)
        header(ld, line, r);
    else if (ld->header_ok && !header_again(ld, r))
        row(ld, line, r);
}

/* Rows ordered by (group, key) with key the pair or the seq: duplicates side by side. */
static const struct trace_row *sort_rows;
static bool sort_by_seq;
static int cmp_rows(const void *a, const void *b)
{
    const struct trace_row *x = &sort_rows[*(const int *)a], *y = &sort_rows[*(const int *)b];
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (sort_by_seq && x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (!sort_by_seq && x->to != y->to)
        return x->to < y->to ? -1 : 1;
    if (!sort_by_seq && x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Two rows of one scheduler for one transfer, or with one seq: an error on the second. */
static void duplicates(struct trace *t, const struct cluster *c, struct diag *d)
{
    int n = t->nrows;
    int *ix = xmalloc((size_t)(n ? n : 1) * sizeof *ix);
    for (int by = 0; by < 2; by++) {
        for (int i = 0; i < n; i++)
            ix[i] = i;
        sort_rows = t->rows;
        sort_by_seq = by == 1;
        qsort(ix, (size_t)n, sizeof *ix, cmp_rows);
        for (int i = 1; i < n; i++) {
            const struct trace_row *a = &t->rows[ix[i - 1]], *b = &t->rows[ix[i]];
            char fa[128], fb[128];
            if (a->group != b->group)
                continue;
            if (by == 0 && a->to == b->to && a->from == b->from)
                diag_error(d, t->file, b->line, NULL, "the transfer %s -> %s again (also on line %d)",
                           SHOWN(c->nodes[b->from].name, fa), SHOWN(c->nodes[b->to].name, fb),
                           a->line);
            else if (by == 0 && a->to == b->to)
                diag_error(d, t->file, b->line, "to", "%s receives again (from %s on line %d; a "
                           "broadcast delivers to a node once)", SHOWN(c->nodes[b->to].name, fb),
                           SHOWN(c->nodes[a->from].name, fa), a->line);
            else if (by == 1 && a->seq >= 0 && a->seq == b->seq)
                diag_error(d, t->file, b->line, "seq", "seq %ld again (also on line %d)", b->seq,
                           a->line);
        }
    }
    sort_rows = NULL;
    free(ix);
}

int trace_load(struct trace *t, const char *path, const struct cluster *c, struct diag *d)
{
    memset(t, 0, sizeof *t);
    t->file = xstrdup(path);
    struct tload ld = {.t = t, .c = c, .d = d};
    int errors = d->errors;
    if (csvread_file(path, on_record, on_comment, &ld, d) < 0 || d->errors > errors) {
        trace_free(t);
        return -1;
    }
    if (!ld.header_line)
        diag_error(d, path, 0, NULL, "no header line (a trace's columns are those of hetcast run "
                   "--format csv)");
    else if (t->nrows == 0)
        diag_error(d, path, 0, NULL, "no transfers (only a header)");
    else
        duplicates(t, c, d);
    if (d->errors > errors) {
        trace_free(t);
        return -1;
    }
    return 0;
}

void trace_free(struct trace *t)
{
    for (int g = 0; g < t->ngroups; g++)
        free(t->groups[g]);
    for (int i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->groups);
    free(t->group_line);
    free(t->notes);
    free(t->rows);
    free(t->file);
    memset(t, 0, sizeof *t);
}

/* "fnf, optimal" (the unnamed group as "(no scheduler column)"). */
static char *group_list(const struct trace *t)
{
    size_t len = 1;
    for (int g = 0; g < t->ngroups; g++)
        len += strlen(t->groups[g]) + 24;
    char *s = xmalloc(len), *p = s;
    *p = '\0';
    for (int g = 0; g < t->ngroups; g++)
        p += sprintf(p, "%s%s", g ? ", " : "", t->groups[g][0] ? t->groups[g] : "(unnamed)");
    return s;
}

int trace_select(const struct trace *t, const char *name, char **cause)
{
    for (int g = 0; g < t->ngroups; g++)
        if (strcmp(t->groups[g], name) == 0)
            return g;
    if (t->ngroups == 1 && !sched_find(t->groups[0]))
        return 0;
    char *list = group_list(t), b[128];
    set_cause(cause, "%s: no rows of the scheduler %s; the trace holds %s (choose with -s NAME)",
              t->file, SHOWN(name, b), list);
    free(list);
    return -1;
}

/* "0.004 later", "0.002 earlier", "on time": how a measured time d from its prediction reads. */
static void shift(char *buf, size_t size, double d)
{
    char n[NUMFMT_SIZE];
    if (d == 0)
        snprintf(buf, size, "as predicted");
    else
        snprintf(buf, size, "%s %s", numfmt_text(n, fabs(d)), d > 0 ? "later" : "earlier");
}

int trace_measure(const struct trace *t, int g, const struct run *pred, struct run *out,
                  struct diag *d)
{
    memset(out, 0, sizeof *out);
    const struct engine *pe = &pred->eng;
    const struct cluster *c = pred->c;
    const char *who = pred->sched.ops->name;
    if (pe->lean || pe->personal || pe->nmsg != 1 || pred->sched.slices > 0) {
        diag_error(d, t->file, 0, NULL, "a trace is compared with a broadcast of one message; "
                   "%s's run is not one", who);
        return -1;
    }
    if (g < 0 || g >= t->ngroups) {
        diag_error(d, t->file, 0, NULL, "no such group of rows");
        return -1;
    }
    int n = c->n, errors = d->errors;
    int *into = xmalloc((size_t)n * sizeof *into);       /* predicted transfer into node p */
    int *row_of = xmalloc((size_t)(pe->ntr ? pe->ntr : 1) * sizeof *row_of);
    for (int p = 0; p < n; p++)
        into[p] = -1;
    for (int i = 0; i < pe->ntr; i++) {
        into[pe->tr[i].to] = i;
        row_of[i] = -1;
    }
    for (int k = 0; k < t->nrows; k++) {
        const struct trace_row *w = &t->rows[k];
        if (w->group != g)
            continue;
        int i = into[w->to];
        char fa[128], fb[128], fc[128];
        if (i < 0)
            diag_error(d, t->file, w->line, NULL, "the transfer %s -> %s is not in %s's schedule "
                       "(%s receives nothing from anyone there)", SHOWN(c->nodes[w->from].name, fa),
                       SHOWN(c->nodes[w->to].name, fb), who, SHOWN(c->nodes[w->to].name, fc));
        else if (pe->tr[i].from != w->from)
            diag_error(d, t->file, w->line, NULL, "the transfer %s -> %s is not in %s's schedule "
                       "(there %s sends to it)", SHOWN(c->nodes[w->from].name, fa),
                       SHOWN(c->nodes[w->to].name, fb), who,
                       SHOWN(c->nodes[pe->tr[i].from].name, fc));
        else if (w->seq >= 0 && w->seq != i + 1)   /* the same pairs in another order: another schedule */
            diag_error(d, t->file, w->line, "seq", "%s -> %s is %s's transfer %d, not %ld (the rows "
                       "of another schedule?)", SHOWN(c->nodes[w->from].name, fa),
                       SHOWN(c->nodes[w->to].name, fb), who, i + 1, w->seq);
        else
            row_of[i] = k;
    }
    for (int i = 0; i < pe->ntr; i++)
        if (row_of[i] < 0 && d->errors - errors < 20) {
            char fa[128], fb[128];
            diag_error(d, t->file, 0, NULL, "%s's transfer %d, %s -> %s, has no row in the trace", who,
                       i + 1, SHOWN(c->nodes[pe->tr[i].from].name, fa),
                       SHOWN(c->nodes[pe->tr[i].to].name, fb));
        }
    char *cause = NULL;
    if (d->errors == errors && engine_init(&out->eng, c, pred->model, &cause) < 0) {
        diag_error(d, t->file, 0, NULL, "%s", cause);
        free(cause);
    }
    if (d->errors > errors) {
        free(into);
        free(row_of);
        memset(out, 0, sizeof *out);
        return -1;
    }
    for (int i = 0; i < pe->ntr; i++) {
        const struct trace_row *w = &t->rows[row_of[i]];
        const struct transfer *p = &pe->tr[i];
        struct transfer m = {.from = w->from, .to = w->to, .msg = 0};
        m.start = m.wait_start = w->t[TRACE_SEND_START];
        m.send_end = m.free = w->t[TRACE_SEND_END];
        m.link_start = w->t[TRACE_LINK_START];
        m.link_end = w->t[TRACE_LINK_END];
        m.recv_start = w->t[TRACE_RECV_START];
        m.recv_end = w->t[TRACE_RECV_END];
        m.hold = w->t[TRACE_HOLD];
        char a[48], b[48], why[160];
        shift(a, sizeof a, trace_diff(m.start, p->start));
        shift(b, sizeof b, trace_diff(m.hold, p->hold));
        snprintf(why, sizeof why, "measured (line %d): starts %s, held %s than predicted", w->line, a,
                 b);
        if (m.start == p->start && m.hold == p->hold)
            snprintf(why, sizeof why, "measured (line %d): as predicted", w->line);
        m.reason = why;
        if (engine_record(&out->eng, &m, &cause) < 0) {   /* cannot happen after the checks above */
            diag_error(d, t->file, w->line, NULL, "%s", cause);
            free(cause);
            engine_free(&out->eng);
            free(into);
            free(row_of);
            memset(out, 0, sizeof *out);
            return -1;
        }
    }
    engine_timeline(&out->eng);
    free(into);
    free(row_of);
    out->c = c;
    out->model = pred->model;
    out->sched = pred->sched;   /* its name and options; never run, nothing to finish */
    out->sched.state = NULL;
    out->sched.status = OPT_NONE;
    out->sched.note[0] = '\0';
    out->lower_bound = pred->lower_bound;
    out->has_beta = pred->has_beta;
    out->consistent = pred->consistent;
    out->beta = pred->beta;
    out->opt = pred->opt;
    out->optimum = pred->optimum;
    out->opt_lower = pred->opt_lower;
    snprintf(out->opt_note, sizeof out->opt_note, "%s", pred->opt_note);
    out->measured = true;
    return 0;
}

double trace_diff(double measured, double predicted)
{
    double d = measured - predicted, big = fmax(fabs(measured), fabs(predicted));
    if (d == 0 || !isfinite(d) || !(big > 0))
        return d;
    double q = pow(10, floor(log10(big)) - 11);   /* the 12th digit of the larger */
    return numfmt_round(round(d / q) * q, 12);
}

struct trace_error trace_makespan_error(const struct run *pred, const struct run *meas)
{
    struct trace_error e = {pred->eng.makespan, meas->eng.makespan, 0, NAN};
    e.error = trace_diff(e.measured, e.predicted);
    if (e.predicted > 0)
        e.percent = 100.0 * e.error / e.predicted;
    return e;
}
