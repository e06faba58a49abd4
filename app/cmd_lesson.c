/*
 * cmd_lesson.c - `hetcast lesson FILE [--print]`: a lesson (src/session/lesson.h)
 * presented in the view (the view is handed in by main.c, as for `hetcast
 * FILE`), or its handout on standard output: every slide's text with the
 * numbers hetcast computed for it through the session layer -- the same
 * runs as `hetcast run` and `compare` -- and a `check:` line naming the
 * compare command that gives the same numbers (tests/teach_cli.sh runs it).
 * --print --student writes the students' handout instead: the text, each
 * cluster's node table and a text Gantt of what the slide shows before its
 * question is answered, the questions and their choices, and no answer
 * (no makespan, optimum, first difference or answer text).  Paths are
 * printed as a user types them (lua/lessons/../../clusters/x.csv is
 * clusters/x.csv).  Names and texts from the file are printed with control
 * characters replaced.
 */
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_common.h"
#include "app/datadir.h"
#include "sched/exchange.h"
#include "session/lesson.h"
#include "app/opts.h"
#include "output/report.h"
#include "support/numfmt.h"
#include "session/run.h"
#include "session/room.h"
#include "session/trace.h"

/* s with every control character but a newline shown as '?'. */
static void put_clean(FILE *fp, const char *s)
{
    for (; s && *s; s++)
        fputc((unsigned char)*s < 0x20 && *s != '\n' ? '?' : *s == 0x7f ? '?' : *s, fp);
}

/* The measured run of a slide's trace beside its prediction r: the measured
 * makespan and the error into *measured, a line printed.  0, or -1 with *cause
 * (every problem of the trace, one a line). */
static int print_measured(const char *file, const struct cluster *c, const struct run *r,
                          double *measured, char **cause)
{
    struct diag d;
    diag_init(&d);
    struct trace t;
    if (trace_load(&t, file, c, &d) < 0) {
        *cause = diag_join(&d);
        diag_free(&d);
        return -1;
    }
    int g = trace_select(&t, r->sched.ops->name, cause);
    struct run meas;
    int rc = g < 0 ? -1 : trace_measure(&t, g, r, &meas, &d);
    if (g >= 0 && rc < 0)
        *cause = diag_join(&d);
    diag_free(&d);
    trace_free(&t);
    if (rc < 0)
        return -1;
    struct trace_error e = trace_makespan_error(r, &meas);
    *measured = e.measured;
    printf("  %-14s makespan %s (error %s%s", "measured", numfmt_txt(e.measured),
           e.error >= 0 ? "+" : "", numfmt_txt(e.error));
    if (!isnan(e.percent))
        printf(", %s%s %%", e.percent >= 0 ? "+" : "", numfmt_txt(e.percent));
    printf(")\n");
    run_free(&meas);
    return 0;
}

/* path as a user would type it: "." and "dir/.." taken out (lexically), into a new string. */
static char *tidy_path(const char *path)
{
    size_t len = strlen(path);
    char *out = xmalloc(len + 2);
    const char *parts[512];
    size_t plen[512];
    int n = 0, up = 0;   /* up: leading ".." kept */
    bool abs = path[0] == '/';
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        const char *e = strchr(p, '/');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == 1 && p[0] == '.') {
            /* nothing */
        } else if (l == 2 && p[0] == '.' && p[1] == '.' && n > up) {
            n--;
        } else if (n < 512) {
            if (l == 2 && p[0] == '.' && p[1] == '.' && !abs)
                up++;
            parts[n] = p;
            plen[n++] = l;
        }
        p += l;
    }
    char *o = out;
    if (abs)
        *o++ = '/';
    for (int i = 0; i < n; i++) {
        if (i)
            *o++ = '/';
        memcpy(o, parts[i], plen[i]);
        o += plen[i];
    }
    if (o == out)
        *o++ = '.';
    *o = '\0';
    return out;
}

/* The cluster as a student reads it: its nodes' times (node table), its
 * distances (latency matrix) or its links (platform graph). */
void lesson_print_nodes(const struct cluster *c)
{
    printf("nodes (%s, source ", cluster_kind_name(c->kind));
    put_clean(stdout, c->nodes[c->source].name);
    if (c->kind == CLUSTER_NODES)
        printf(", latency L = %s):\n    %-12s %10s %10s\n", numfmt_txt(c->latency), "node", "send s",
               "receive r");
    else
        printf("):\n");
    if (c->kind == CLUSTER_MATRIX) {   /* the distances from the row's node to the column's */
        printf("    %-12s", "from \\ to");
        for (int j = 0; j < c->n; j++) {
            char name[64];
            printf(" %6.6s", SHOWN(c->nodes[j].name, name));
        }
        printf("\n");
    }
    for (int i = 0; i < c->n; i++) {
        char name[64];
        SHOWN(c->nodes[i].name, name);
        if (c->kind == CLUSTER_NODES) {
            printf("    %-12s %10s %10s\n", name, numfmt_txt(c->nodes[i].send), numfmt_txt(c->nodes[i].recv));
        } else if (c->kind == CLUSTER_MATRIX) {
            printf("    %-12s", name);
            for (int j = 0; j < c->n; j++)
                printf(" %6s", numfmt_txt(c->dist[(size_t)i * (size_t)c->n + (size_t)j]));
            printf("\n");
        } else {
            printf("    %s\n", name);
        }
    }
    if (c->kind == CLUSTER_GRAPH)
        for (int k = 0; k < c->nedges; k++) {
            char a[64], b[64];
            printf("    link %s -> %s  time %s\n", SHOWN(c->nodes[c->edges[k].from].name, a),
                   SHOWN(c->nodes[c->edges[k].to].name, b), numfmt_txt(c->edges[k].time));
        }
}

#define GANTT_COLS 60

/* A text Gantt of the first n bookings of r: a row a node, S its send port
 * busy, - the link, R its receive port, | where a transfer takes no time; a
 * time axis below. */
static void print_gantt(const struct run *r, int n)
{
    const struct engine *e = &r->eng;
    const struct cluster *c = e->c;
    double end = 0;
    for (int i = 0; i < n; i++)
        if (e->tr[i].hold > end)
            end = e->tr[i].hold;
    if (n == 0 || !(end > 0)) {
        printf("gantt: no transfer yet (the source holds the message at 0)\n");
        return;
    }
    double cpu = GANTT_COLS / end;
    int nw = 4;
    for (int p = 0; p < c->n; p++) {
        char name[64];
        int w = (int)strlen(SHOWN(c->nodes[p].name, name));
        nw = w > nw ? w : nw;
    }
    if (nw > 16)
        nw = 16;
    char row[GANTT_COLS + 2];
    for (int p = 0; p < c->n; p++) {
        memset(row, ' ', GANTT_COLS + 1);
        row[GANTT_COLS + 1] = '\0';
        for (int i = 0; i < n; i++) {
            const struct transfer *t = &e->tr[i];
            double a[3], b[3];
            char ch[3];
            int k = 0;
            if (t->from == p) {
                a[k] = t->start, b[k] = t->send_end, ch[k++] = 'S';
            }
            if (t->to == p) {
                a[k] = t->link_start, b[k] = t->link_end, ch[k++] = '-';
                a[k] = t->recv_start, b[k] = t->recv_end, ch[k++] = 'R';
            }
            for (int j = 0; j < k; j++) {
                int x0 = (int)(a[j] * cpu + 0.5), x1 = (int)(b[j] * cpu + 0.5);
                if (x0 > GANTT_COLS)
                    x0 = GANTT_COLS;
                if (x1 > GANTT_COLS + 1)
                    x1 = GANTT_COLS + 1;
                if (b[j] <= a[j] && ch[j] != '-' && t->to == p) {
                    if (row[x0] == ' ')
                        row[x0] = '|';   /* a transfer of no time */
                    continue;
                }
                for (int x = x0; x < x1; x++)
                    row[x] = ch[j];
            }
        }
        char name[64];
        SHOWN(c->nodes[p].name, name);
        int last = GANTT_COLS;
        while (last >= 0 && row[last] == ' ')
            row[last--] = '\0';
        printf("    %-*.*s%s%s\n", nw, nw, name, row[0] ? " " : "", row);
    }
    printf("    %-*s 0%*s\n", nw, "time", GANTT_COLS, numfmt_txt(end));
    printf("    (S send, - link, R receive, | a transfer of no time)\n");
}

/* The students' numbers of a slide: the node table and a text Gantt of its
 * first scheduler, up to what the slide shows before its question is
 * answered; nothing that answers it. */
static int print_student(const struct slide *sl, const struct session_opts *o, char **cause)
{
    struct cluster *c = session_load(o, NULL, cause);   /* its warnings: the view's, not the handout's */
    if (!c)
        return -1;
    printf("cluster: ");
    char *shown = tidy_path(sl->cluster_text ? "(inline)" : sl->cluster);
    put_clean(stdout, c->name ? c->name : shown);
    printf(" (%d nodes)%s", c->n, sl->cluster_text ? "" : ", file ");
    if (!sl->cluster_text)
        put_clean(stdout, shown);
    free(shown);
    printf("\n");
    lesson_print_nodes(c);
    int rc = 0;
    if (o->pattern) {
        printf("gantt: see the view (a personalized exchange)\n");
    } else if (sl->kind->hides & HIDE_END) {
        printf("gantt: left out (it shows the %s asked for)\n", sl->kind->name);
    } else {
        enum model m;
        const struct sched_ops *ops = NULL;
        struct run r;
        if (session_model(o, c, &m, cause) < 0 ||
            !(ops = sl->nsched ? session_sched(sl->sched[0], cause) : sched_default(c, m)) ||
            sched_check(ops, c, m, cause) < 0 || session_run(&r, o, c, m, ops, false, RUN_OPT_SMALL, cause) < 0) {
            rc = -1;
        } else {
            int n = r.eng.tr ? r.eng.ntr : 0;
            int upto = sl->kind->shown ? sl->kind->shown(sl) : -1;   /* what the question asks: not shown */
            if (upto >= 0 && upto < n)
                n = upto;
            else if (sl->step == 0)
                n = 0;
            printf("model %s, %s", model_name(m), ops->name);
            if (sl->slices > 0)
                printf(" (pipelined: the tree's first slice)");
            if (n < (r.eng.tr ? r.eng.ntr : 0))
                printf(": its first %d transfer%s\n", n, n == 1 ? "" : "s");
            else
                printf(":\n");
            print_gantt(&r, n);
            run_free(&r);
        }
    }
    cluster_free(c);
    return rc;
}

/* A slide's exchanges (k of them, names[] and completions val[] filled): 0, or -1 with *cause. */
static int print_exchanges(const struct slide *sl, const struct session_opts *o, struct cluster *c, int k,
                           const char **names, double *val, char **cause)
{
    enum model m;
    if (session_exchange_model(o, c, &m, cause) < 0)
        return -1;
    printf(" · %s exchange · model %s\n", o->pattern, model_name(m));
    struct exchange x[2];
    int done = 0, rc = 0;
    for (; done < k; done++) {
        names[done] = sl->nsched ? sl->sched[done] : "caterpillar";
        if (session_exchange(o, c, names[done], false, false, &x[done], cause) < 0) {
            rc = -1;
            break;
        }
        val[done] = x[done].completion;
        printf("  %-14s completion %s\n", names[done], numfmt_txt(val[done]));
    }
    if (rc == 0)
        printf("  lower bound    %s\n", numfmt_txt(x[0].lower_bound));
    for (int i = 0; i < done; i++)
        exchange_free(&x[i]);
    return rc;
}

/* A slide's broadcasts (k schedulers; names[], makespans val[] and a trace's *measured
 * filled), their bounds and first difference: 0, or -1 with *cause. */
static int print_broadcasts(const struct slide *sl, const struct session_opts *o, struct cluster *c, int k,
                            const char **names, double *val, double *measured, char **cause)
{
    enum model m;
    if (session_model(o, c, &m, cause) < 0)
        return -1;
    printf(" · model %s\n", model_name(m));
    struct run runs[2];
    int done = 0, rc = 0;
    for (; done < k; done++) {
        const struct sched_ops *ops = sl->nsched ? session_sched(sl->sched[done], cause) : sched_default(c, m);
        if (!ops || sched_check(ops, c, m, cause) < 0 ||
            session_run(&runs[done], o, c, m, ops, false, RUN_OPT_SMALL, cause) < 0) {
            rc = -1;
            break;
        }
        names[done] = ops->name;
        val[done] = runs[done].eng.makespan;
        printf("  %-14s makespan %s%s", names[done], numfmt_txt(val[done]),
               runs[done].sched.status == OPT_PROVEN ? " (proven optimal)" : "");
        if (runs[done].sched.slices > 0)
            printf(", %d slices, throughput %s of the LP's %s", runs[done].sched.slices,
                   numfmt_txt(runs[done].sched.throughput), numfmt_txt(runs[done].sched.optimal_throughput));
        printf("\n");
    }
    if (rc == 0 && sl->trace && print_measured(sl->trace, c, &runs[0], measured, cause) < 0)
        rc = -1;
    if (rc == 0) {
        const struct run *r = &runs[0];
        printf("  lower bound    %s", numfmt_txt(r->lower_bound));
        if (r->opt == OPT_PROVEN)
            printf(" · optimum %s", numfmt_txt(r->optimum));
        double limit;
        if (r->has_beta && run_guarantee(r, &limit))
            printf(" · 2T+beta %s%s", numfmt_txt(limit), r->consistent ? "" : " (void: speeds inconsistent)");
        printf("\n");
        if (k == 2) {
            printf("  ");
            report_first_difference(stdout, &runs[0], &runs[1]);
        }
    }
    for (int i = 0; i < done; i++)
        run_free(&runs[i]);
    return rc;
}

/* s as a shell word: as it is when it holds only characters no shell reads, else in single
 * quotes (a quote inside as '\\''); control characters as '?'. */
static void put_shell(const char *s)
{
    if (s[0] && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=,:@%") == strlen(s)) {
        put_clean(stdout, s);
        return;
    }
    putchar('\'');
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", stdout);
        else
            putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
    putchar('\'');
}

/* The command that gives the same numbers as the slide's (k schedulers named names, their
 * values val, a trace's measured): what the test runs.  An inline cluster is printed
 * first, as the CSV that compare reads on standard input (-). */
static void print_check(const struct slide *sl, int k, const char *const *names, const double *val,
                        double measured)
{
    if (sl->cluster_text) {
        printf("cluster (inline; as CSV, for hetcast compare - < FILE):\n");
        for (const char *line = sl->cluster_text; *line;) {
            const char *nl = strchr(line, '\n');
            int len = nl ? (int)(nl - line) : (int)strlen(line);
            printf("    ");
            char *one = xasprintf("%.*s", len, line);
            put_clean(stdout, one);
            free(one);
            printf("\n");
            line = nl ? nl + 1 : line + len;
        }
    }
    char *shown = tidy_path(sl->cluster_text ? "-" : sl->cluster);
    printf("check: hetcast compare ");
    put_shell(shown);
    free(shown);
    for (int i = 0; i < sl->nparams; i++)
        printf(" --param %s", sl->params[i]);
    for (int i = 0; i < k; i++) {   /* a lesson's heuristic by its path, as the lesson resolved it */
        char *heur = i < sl->nsched && strchr(sl->sched[i], '/') ? tidy_path(sl->sched[i]) : NULL;
        printf(" -s ");
        put_shell(heur ? heur : names[i]);
        free(heur);
    }
    if (sl->model)
        printf(" -m %s", sl->model);
    if (sl->pattern)
        printf(" --pattern %s", sl->pattern);
    if (sl->slices > 0)
        printf(" --slices %d", sl->slices);
    if (sl->size > 0)
        printf(" --size %.17g", sl->size);
    if (sl->trace) {
        char *tr = tidy_path(sl->trace);
        printf(" --trace ");
        put_shell(tr);
        free(tr);
    }
    printf(" =>");
    for (int i = 0; i < k; i++)
        printf("%s %s %s", i ? "," : "", names[i], numfmt_txt(val[i]));
    if (sl->trace)   /* compare --trace's row: the scheduler, predicted, measured */
        printf(" %s", numfmt_txt(measured));
    printf("\n");
}

/* One slide's schedules: their makespans (or completions), and the check line. */
static int print_numbers(const struct slide *sl, const struct session_opts *o, char **cause)
{
    struct cluster *c = session_load(o, NULL, cause);   /* its warnings: the view's, not the handout's */
    if (!c)
        return -1;
    printf("cluster: ");
    put_clean(stdout, c->name ? c->name : sl->cluster);
    printf(" (%d nodes, source ", c->n);
    put_clean(stdout, c->nodes[c->source].name);
    printf(")");
    const char *names[2];
    double val[2], measured = 0;
    int k = sl->nsched ? sl->nsched : 1;
    int rc = o->pattern ? print_exchanges(sl, o, c, k, names, val, cause)
                        : print_broadcasts(sl, o, c, k, names, val, &measured, cause);
    cluster_free(c);
    if (rc < 0)
        return -1;
    print_check(sl, k, names, val, measured);
    return 0;
}

/* A problem of slide k of l to stderr at its file and line: "hetcast lesson: FILE:LINE: slide
 * N: what" (the line of the field what names, else the slide's). */
void lesson_complain(const struct lesson *l, int k, const char *what, bool warning)
{
    int line = lesson_line(l, k, what);
    fprintf(stderr, "%s: %s", diag_who(), l->path);
    if (line > 0)
        fprintf(stderr, ":%d", line);
    fprintf(stderr, ": %sslide %d: ", warning ? "warning: " : "", k + 1);
    text_put(what, stderr);
    fputc('\n', stderr);
}

/* The names of slide k's show that are no node of its cluster and no summary value: a
 * warning each (the view would say so only when the slide opens). */
static void lint_show(const struct lesson *l, int k, const struct session_opts *o)
{
    const struct slide *sl = &l->slides[k];
    char *cause = NULL;
    struct cluster *c = sl->nshow ? session_load(o, NULL, &cause) : NULL;
    free(cause);
    for (int i = 0; c && i < sl->nshow; i++) {
        bool known = cluster_find(c, sl->show[i]) >= 0;
        for (int j = 0; lesson_show_values[j] && !known; j++)
            known = strcmp(sl->show[i], lesson_show_values[j]) == 0;
        if (known)
            continue;
        const char *near = text_nearest(sl->show[i], lesson_show_values, -1);
        char what[300], shown[96];
        text_fit(what, sizeof what, "show names \"%s\", no node of this cluster and no summary value%s%s%s",
                 SHOWN(sl->show[i], shown), near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
        lesson_complain(l, k, what, true);
    }
    cluster_free(c);
}

/* Choices of slide k that name nodes of its cluster (a schedule choice, which the view plays: a
 * wrong pick is shown where it leads) beside choices that name none: a warning for each of
 * these, whose picks are never played (the right one among them: none is). */
static void lint_played(const struct lesson *l, int k, const struct session_opts *o)
{
    const struct slide *sl = &l->slides[k];
    char *cause = NULL;
    struct cluster *c = sl->nchoices ? session_load(o, NULL, &cause) : NULL;
    free(cause);
    int named = 0;
    bool node[LESSON_MAX_CHOICES] = {false};
    for (int i = 0; c && i < sl->nchoices; i++)
        named += node[i] = cluster_find(c, sl->choices[i]) >= 0;
    for (int i = 0; c && named > 0 && i < sl->nchoices; i++) {
        if (node[i] && node[sl->correct])
            continue;
        char what[300], shown[96];
        if (!node[sl->correct])
            text_fit(what, sizeof what, "choices: the right one, %c \"%s\", is no node of the cluster, so no "
                     "pick is played (shown where it leads)", 'A' + sl->correct,
                     SHOWN(sl->choices[sl->correct], shown));
        else
            text_fit(what, sizeof what, "choices: %c \"%s\" is no node of the cluster, so a pick of it is "
                     "not played (shown where it leads) as the picks of nodes are", 'A' + i,
                     SHOWN(sl->choices[i], shown));
        lesson_complain(l, k, what, true);
        if (!node[sl->correct])
            break;
    }
    cluster_free(c);
}

/* The choices of slide k a student cannot pick by typing their text (a choice "1" is the number
 * of the first choice): a warning each, since the room and the view read the letter or number. */
static void lint_choices(const struct lesson *l, int k)
{
    const struct slide *sl = &l->slides[k];
    for (int i = 0; i < sl->nchoices; i++) {
        int read = question_choice(sl, sl->choices[i]);
        if (read == i)
            continue;
        char what[300], shown[96];
        text_fit(what, sizeof what, "choices: %c \"%s\" cannot be picked by its text, which reads as %c "
                 "(\"%s\"); make it no letter A-%c and no number 1-%d", 'A' + i, SHOWN(sl->choices[i], shown),
                 'A' + read, sl->choices[read], 'A' + sl->nchoices - 1, sl->nchoices);
        lesson_complain(l, k, what, true);
    }
}

/* The right answer of slide k (gradable) into expect, as hetcast computes it: 0, or -1 when
 * no one could be graded on the slide (told at its line). */
static int print_expected(const struct lesson *l, int k, const struct session_opts *o, char *expect,
                          size_t size)
{
    const struct slide *sl = &l->slides[k];
    char *cause = NULL;
    struct run r;
    struct cluster *c = NULL;
    bool have = false;
    if (sl->kind->predicts) {
        const struct sched_ops *ops = NULL;
        enum model m;
        c = session_load(o, NULL, &cause);
        have = c && session_model(o, c, &m, &cause) == 0 &&
               (ops = sl->nsched ? session_sched(sl->sched[0], &cause) : sched_default(c, m)) &&
               session_run(&r, o, c, m, ops, false, RUN_OPT_SMALL, &cause) == 0;
    }
    int rc = 0;
    if (!lesson_expected(sl, have ? &r : NULL, expect, size)) {   /* nothing to grade against */
        char *why = cause ? NULL : lesson_unanswerable(sl, have ? &r : NULL);
        char what[400];
        text_fit(what, sizeof what, "%s: no one can be graded on this question", cause ? cause : why);
        lesson_complain(l, k, what, false);
        free(why);
        rc = -1;
    }
    if (have)
        run_free(&r);
    cluster_free(c);   /* after the run, which names its nodes */
    free(cause);
    return rc;
}

/* What a slide of the handout ends with: the question, hetcast's answer, show and the answer. */
static int print_question(const struct lesson *l, int k, const struct session_opts *o, bool student)
{
    const struct slide *sl = &l->slides[k];
    if (sl->question) {
        printf("\nquestion: ");
        put_clean(stdout, sl->question);
        printf("\n");
        if (sl->kind->handout)   /* the choices, or what to predict */
            sl->kind->handout(sl, &(struct question_out){stdout, put_clean, put_clean});
    }
    if (!student && slide_gradable(sl)) {   /* the answer hetcast computes, or the right choice */
        char expect[200];
        if (print_expected(l, k, o, expect, sizeof expect) < 0)
            return -1;
        printf("expected: ");
        put_clean(stdout, expect);
        printf("\n");
    }
    if (sl->nshow && !student) {   /* what the view keeps on the screen for this slide */
        printf("show:");
        for (int i = 0; i < sl->nshow; i++) {
            printf("%s", i ? ", " : " ");
            put_clean(stdout, sl->show[i]);
        }
        printf("\n");
    }
    if (sl->answer && !student) {
        printf("answer: ");
        put_clean(stdout, sl->answer);
        printf("\n");
    }
    return 0;
}

/* The handout, and the author's check: a slide that cannot be shown or graded is refused (status
 * 2), anything suspect a warning, each at its file and line. */
static int print_handout(const struct lesson *l, bool student)
{
    for (const char *w = l->warnings; w && *w;) {   /* the loader's, a line each */
        const char *nl = strchr(w, '\n');
        size_t len = nl ? (size_t)(nl - w) : strlen(w);
        fprintf(stderr, "%s: %.*s\n", diag_who(), (int)len, w);
        w += len + (nl != NULL);
    }
    printf("# ");
    put_clean(stdout, l->title ? l->title : l->path);
    printf("\n\n");
    for (int k = 0; k < l->n; k++) {
        const struct slide *sl = &l->slides[k];
        struct session_opts o;
        lesson_session(l, k, &o);
        printf("## %d/%d ", k + 1, l->n);
        put_clean(stdout, sl->title ? sl->title : "");
        printf("\n\n");
        if (sl->text) {
            put_clean(stdout, sl->text);
            printf("\n\n");
        }
        char *cause = NULL;
        if ((student ? print_student(sl, &o, &cause) : print_numbers(sl, &o, &cause)) < 0) {
            fflush(stdout);
            lesson_complain(l, k, cause ? cause : "failed", false);
            free(cause);
            return 2;
        }
        lint_show(l, k, &o);
        lint_choices(l, k);
        lint_played(l, k, &o);
        if (print_question(l, k, &o, student) < 0)
            return 2;
        printf("\n");
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* A lesson FILE by its bare name: lua/lessons/NAME or NAME.lua in the data folder. */
static const char *const lesson_exts[] = {".lua", NULL};

/* What hetcast lesson is asked. */
struct lesson_args {
    bool print, student, gift, test, list;
    const char *room, *course;
};

/* The options of hetcast lesson. */
static const struct opt lesson_table[] = {
    {"print", 'p', NULL, "write the handout: every slide's text with hetcast's numbers", OPT_FLAG,
     offsetof(struct lesson_args, print), 0, 0, NULL},
    {"student", OPT_LONG + 3, NULL, "with --print: the students' handout (node tables, a text Gantt, no answers)",
     OPT_FLAG, offsetof(struct lesson_args, student), 0, 0, NULL},
    {"gift", 'g', NULL, "write the questions in Moodle's GIFT format (hetcast's numbers as the answers)",
     OPT_FLAG, offsetof(struct lesson_args, gift), 0, 0, NULL},
    {"class", 'C', "ROOM", "open a live class: students join with hetcast join ROOM (docs/class.md)",
     OPT_STRING, offsetof(struct lesson_args, room), 0, 0, NULL},
    {"course", OPT_LONG + 1, "NAME", "the course's name in the room's database (default: ROOM's file name)",
     OPT_STRING, offsetof(struct lesson_args, course), 0, 0, NULL},
    {"list", 'l', NULL, "list the bundled lessons: file, slides, title; a FILE by its bare name "
     "(fnf-loses) is one of them", OPT_FLAG, offsetof(struct lesson_args, list), 0, 0, NULL},
    {"class-test", OPT_LONG + 2, NULL, "a test room: takes HELLO 2 AS NAME from your own user (docs/class.md)",
     OPT_FLAG, offsetof(struct lesson_args, test), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* hetcast lesson --list: the bundled lessons, one a line (file, slides, title).  0, or 2
 * when there are none or one does not load (it is named). */
static int list_lessons(void)
{
    const char *data = app_datadir();
    char *dir = data ? xasprintf("%s/lua/lessons", data) : NULL;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        free(dir);
        return opts_error(2, "no bundled lessons: hetcast's data directory is not found (HETCAST_DATADIR)");
    }
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".lua") == 0 && e->d_name[0] != '.')
            names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    printf("lessons (hetcast lesson ");
    put_clean(stdout, dir);
    printf("/NAME.lua):\n");
    int status = n ? 0 : 2;
    for (int i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, names[i]), *cause = NULL;
        struct lesson l;
        if (lesson_load(path, &l, &cause) < 0) {
            fprintf(stderr, "%s: ", diag_who());
            text_put(cause ? cause : "does not load", stderr);
            fputc('\n', stderr);
            status = 2;
        } else {
            printf("  %-22s %2d slide%s  ", names[i], l.n, l.n == 1 ? " " : "s");
            put_clean(stdout, l.title ? l.title : "");
            printf("\n");
            lesson_free(&l);
        }
        free(cause);
        free(path);
        free(names[i]);
    }
    free(dir);
    if (fflush(stdout) != 0 || ferror(stdout))
        return 1;
    return status;
}

int cmd_lesson(int argc, char **argv, const struct cli_views *v)
{
    struct lesson_args a = {0};
    const char *files[64];
    int nfiles = 0;
    int rc = opts_parse("hetcast lesson", lesson_table, argc, argv, NULL, &a, files, 64, &nfiles);
    bool print = a.print;
    if (rc == OPTS_HELP) {
        printf("usage: hetcast lesson FILE.lua [--print [--student] | --gift | --class ROOM]   (--print, --gift: one or more FILEs)\n"
               "       hetcast lesson --list   (the bundled lessons; a FILE by its bare name, fnf-loses, is one of them)\n"
               "  present a lesson in the view (keys: ] next slide, [ previous, a answer;\n"
               "  with --class: v open the vote, b its histogram)\n");
        opts_help(stdout, lesson_table);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (rc)
        return rc;
    if (a.list && (nfiles || print || a.gift || a.student || a.room || a.course || a.test))
        return opts_error(2, "--list lists the bundled lessons: give it alone");
    if (a.list)
        return list_lessons();
    if (a.student && !print)
        return opts_error(2, "--student is a kind of handout: give it with --print");
    if (nfiles == 0)
        return opts_error(2, "which lesson? hetcast lesson FILE.lua [--print]");
    if (a.print + a.gift + (a.room != NULL) > 1)
        return opts_error(2, "--print, --gift and --class do not go together: choose one");
    if ((a.course || a.test) && !a.room)
        return opts_error(2, "%s belongs to a live class: add --class ROOM", a.course ? "--course" : "--class-test");
    print = print || a.gift;
    if (nfiles > 1 && !print)
        return opts_error(2, "the view presents one lesson at a time (got %d); --print "
                             "writes the handouts of several", nfiles);
    int status = 0;
    for (int i = 0; i < nfiles && status == 0; i++) {
        struct lesson l;
        char *cause = NULL;
        if (lesson_load(app_bundled("lua/lessons", files[i], lesson_exts), &l, &cause) < 0)
            return cli_fail(cause, 2);
        if (a.gift) {
            status = lesson_gift(&l, i == 0);
        } else if (print || !v->lesson) {
            status = print_handout(&l, a.student);
        } else if (a.room) {
            struct room *room;
            struct room_opts ro = {a.room, NULL, a.course, a.test};
            if (room_open(&room, &ro, &l, &cause) < 0) {
                lesson_free(&l);
                return cli_fail(cause, 2);
            }
            status = v->lesson(&l, room);
            room_close(room);
        } else {
            status = v->lesson(&l, NULL);
        }
        lesson_free(&l);
    }
    return status;
}
