/*
 * cmd_lesson.c - `hetcast lesson FILE [--print]`: a lesson (src/session/lesson.h)
 * presented in the view (the view is handed in by main.c, as for `hetcast
 * FILE`), or its handout on standard output: every slide's text with the
 * numbers hetcast computed for it through the session layer -- the same
 * runs as `hetcast run` and `compare` -- and a `check:` line naming the
 * compare command that gives the same numbers (tests/teach_cli.sh runs it).
 * Names and texts from the file are printed with control characters
 * replaced.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_common.h"
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

/* One slide's schedules: their makespans (or completions), and the check line. */
static int print_numbers(const struct slide *sl, const struct session_opts *o, char **cause)
{
    struct diag warn;
    diag_init(&warn);
    struct cluster *c = session_load(o, &warn, cause);
    diag_free(&warn);
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
    int rc = 0;
    if (o->pattern) {
        enum model m;
        if (session_exchange_model(o, c, &m, cause) < 0) {
            cluster_free(c);
            return -1;
        }
        printf(" · %s exchange · model %s\n", o->pattern, model_name(m));
        struct exchange x[2];
        int done = 0;
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
    } else {
        enum model m;
        if (session_model(o, c, &m, cause) < 0) {
            cluster_free(c);
            return -1;
        }
        printf(" · model %s\n", model_name(m));
        struct run runs[2];
        int done = 0;
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
        if (rc == 0 && sl->trace && print_measured(sl->trace, c, &runs[0], &measured, cause) < 0)
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
    }
    cluster_free(c);
    if (rc < 0)
        return -1;
    /* The command that gives the same numbers: what the test runs.  An
     * inline cluster is printed first, as the CSV that compare reads on
     * standard input (-). */
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
    printf("check: hetcast compare %s", sl->cluster_text ? "-" : sl->cluster);
    for (int i = 0; i < sl->nparams; i++)
        printf(" --param %s", sl->params[i]);
    for (int i = 0; i < k; i++)
        printf(" -s %s", names[i]);
    if (sl->model)
        printf(" -m %s", sl->model);
    if (sl->pattern)
        printf(" --pattern %s", sl->pattern);
    if (sl->slices > 0)
        printf(" --slices %d", sl->slices);
    if (sl->trace)
        printf(" --trace %s", sl->trace);
    printf(" =>");
    for (int i = 0; i < k; i++)
        printf("%s %s %s", i ? "," : "", names[i], numfmt_txt(val[i]));
    if (sl->trace)   /* compare --trace's row: the scheduler, predicted, measured */
        printf(" %s", numfmt_txt(measured));
    printf("\n");
    return 0;
}

static int print_handout(const struct lesson *l)
{
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
        if (print_numbers(sl, &o, &cause) < 0) {
            fprintf(stderr, "hetcast: %s: slide %d: %s\n", l->path, k + 1, cause ? cause : "failed");
            free(cause);
            return 2;
        }
        if (sl->question) {
            printf("\nquestion: ");
            put_clean(stdout, sl->question);
            printf("\n");
        }
        if (sl->answer) {
            printf("answer: ");
            put_clean(stdout, sl->answer);
            printf("\n");
        }
        printf("\n");
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* What hetcast lesson is asked. */
struct lesson_args {
    bool print, gift, test;
    const char *room, *course;
};

/* The options of hetcast lesson. */
static const struct opt lesson_table[] = {
    {"print", 'p', NULL, "write the handout: every slide's text with hetcast's numbers", OPT_FLAG,
     offsetof(struct lesson_args, print), 0, 0, NULL},
    {"gift", 'g', NULL, "write the questions in Moodle's GIFT format (hetcast's numbers as the answers)",
     OPT_FLAG, offsetof(struct lesson_args, gift), 0, 0, NULL},
    {"class", 'C', "ROOM", "open a live class: students join with hetcast join ROOM (docs/class.md)",
     OPT_STRING, offsetof(struct lesson_args, room), 0, 0, NULL},
    {"course", OPT_LONG + 1, "NAME", "the course's name in the room's database (default: ROOM's file name)",
     OPT_STRING, offsetof(struct lesson_args, course), 0, 0, NULL},
    {"class-test", OPT_LONG + 2, NULL, "a test room: takes HELLO 1 AS NAME from your own user (docs/class.md)",
     OPT_FLAG, offsetof(struct lesson_args, test), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};

int cmd_lesson(int argc, char **argv, const struct cli_views *v)
{
    struct lesson_args a = {0};
    const char *files[64];
    int nfiles = 0;
    int rc = opts_parse("hetcast lesson", lesson_table, argc, argv, NULL, &a, files, 64, &nfiles);
    bool print = a.print;
    if (rc == OPTS_HELP) {
        printf("usage: hetcast lesson FILE.lua [--print | --gift | --class ROOM]   (--print, --gift: one or more FILEs)\n"
               "  present a lesson in the view (keys: ] next slide, [ previous, a answer;\n"
               "  with --class: v open the vote, b its histogram)\n");
        opts_help(stdout, lesson_table);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (rc)
        return rc;
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
        if (lesson_load(files[i], &l, &cause) < 0)
            return cli_fail(cause, 2);
        if (a.gift) {
            status = lesson_gift(&l, i == 0);
        } else if (print || !v->lesson) {
            status = print_handout(&l);
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
