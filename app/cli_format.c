/*
 * cli_format.c - the table of output formats (cli_format.h) and the writers
 * of the command line: the reports and exports of output/, the SVG with a
 * warning when it is larger than a slide holds, and the SimGrid replay
 * directory with what was written and how to replay it.  A writer prints
 * nothing on stderr but the SVG's warning: a refusal goes back in *cause.
 */
#include "app/cli_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "output/export_interop.h"
#include "output/export_otf2.h"
#include "output/report.h"
#include "output/report_exchange.h"
#include "output/report_trace.h"
#include "support/diag.h"
#include "support/numfmt.h"

#define SVG_WARN_BYTES (4u << 20)   /* a slide's picture is well under this */

/* ---- text, CSV, JSON ---- */

static int text_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)cause;
    if (out->compare)
        report_compare_text(stdout, runs, k, out->summary);
    else
        report_run_text(stdout, &runs[0], out->summary);
    return 0;
}

static int csv_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)cause;
    if (out->compare)
        report_compare_csv(stdout, runs, k, out->summary);
    else
        report_run_csv(stdout, &runs[0], out->summary, true);
    return 0;
}

static int json_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)cause;
    if (out->compare)
        report_compare_json(stdout, runs, k, out->summary);
    else
        report_run_json(stdout, &runs[0], out->summary);
    return 0;
}

static int json_spooled(const struct format_out *out, const struct run *r, struct spool *sp,
                        char **cause)
{
    (void)out;
    return report_run_json_spool(stdout, r, sp, cause) < 0 ? 1 : 0;
}

static int text_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                      int k, char **cause)
{
    (void)cause;
    report_trace_text(stdout, t, runs, k, out->summary);
    return 0;
}

static int csv_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                     int k, char **cause)
{
    (void)cause;
    report_trace_csv(stdout, t, runs, k, out->summary);
    return 0;
}

static int json_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                      int k, char **cause)
{
    (void)cause;
    report_trace_json(stdout, t, runs, k, out->summary);
    return 0;
}

static void text_exchange(const struct format_out *out, const struct exchange *xs, int k)
{
    if (out->compare)
        report_exchange_compare_text(stdout, xs, k, out->summary);
    else
        report_exchange_text(stdout, &xs[0], out->summary);
}

static void csv_exchange(const struct format_out *out, const struct exchange *xs, int k)
{
    if (out->compare)
        report_exchange_compare_csv(stdout, xs, k, out->summary);
    else
        report_exchange_csv(stdout, &xs[0], out->summary, true);
}

static void json_exchange(const struct format_out *out, const struct exchange *xs, int k)
{
    if (out->compare)
        report_exchange_compare_json(stdout, xs, k, out->summary);
    else
        report_exchange_json(stdout, &xs[0], out->summary);
}

/* ---- pictures and interoperation ---- */

/* The SVG of k runs (sp: runs[0]'s bookings, NULL: the records) on standard
 * output, with a warning on stderr when it is larger than a few MB.  0, or
 * 1 with *cause. */
static int print_svg(const struct run *runs, int k, const struct svg_opts *so, struct spool *sp,
                     char **cause)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        diag_fatal("out of memory");
    int rc = 0;
    if (sp)
        rc = export_svg_spool(m, runs, so, sp, cause) < 0 ? 1 : 0;
    else
        export_svg_opts(m, runs, k, so);
    fclose(m);
    if (rc) {
        free(buf);
        return rc;
    }
    if (len > SVG_WARN_BYTES)
        fprintf(stderr, "%s: warning: the SVG is %.1f MB, more than a slide holds\n", diag_who(), len / 1048576.0);
    fwrite(buf, 1, len, stdout);
    free(buf);
    return 0;
}

static int svg_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    return print_svg(runs, k, out->svg, NULL, cause);
}

static int svg_spooled(const struct format_out *out, const struct run *r, struct spool *sp,
                       char **cause)
{
    return print_svg(r, 1, out->svg, sp, cause);
}

/* Each prediction with its measured run as a second lane set: the whole picture. */
static int svg_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                     int k, char **cause)
{
    (void)out;
    (void)t;
    return print_svg(runs, 2 * k, NULL, NULL, cause);
}

static int paje_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)out;
    errno = 0;
    if (export_paje(stdout, runs, k) == 0)
        return 0;
    if (errno == EFBIG)
        set_cause(cause, "a Paje trace holds at most %lld transfers", PAJE_MAX_TRANSFERS);
    else
        set_cause(cause, "cannot write the Paje trace: %s", strerror(errno ? errno : EIO));
    return 1;
}

static int paje_spooled(const struct format_out *out, const struct run *r, struct spool *sp,
                        char **cause)
{
    (void)out;
    return export_paje_spool(stdout, r, sp, cause) < 0 ? 1 : 0;
}

static int dot_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)cause;
    (void)out;
    export_dot(stdout, runs, k);
    return 0;
}

/* Microseconds of the Chrome timeline in one time unit of the runs' cluster (its `# unit:`;
 * an abstract unit is drawn as a second: docs/interop.md). */
static double chrome_us_per_unit(const struct run *runs)
{
    return export_seconds_per_unit(runs[0].c) * 1e6;
}

static int chrome_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)cause;
    export_chrome(stdout, runs, out->compare ? k : 1, chrome_us_per_unit(runs));
    return 0;
}

static int chrome_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                        int k, char **cause)
{
    (void)cause;
    (void)out;
    (void)t;
    export_chrome(stdout, runs, 2 * k, chrome_us_per_unit(runs));
    return 0;
}

/* The archive DIR of k runs: 0, or 2 (a DIR it cannot take, a run past the clock) or 1 (not
 * written) with *cause. */
static int write_otf2(const char *dir, const struct run *runs, int k, char **cause)
{
    double spu = export_seconds_per_unit(runs[0].c);   /* the cluster's `# unit:` */
    if (export_otf2_check(dir, runs, k, spu, cause) < 0)
        return 2;
    if (export_otf2(dir, runs, k, spu, cause) < 0)
        return 1;
    printf("wrote ");
    text_put(dir, stdout);   /* the user's path, escaped like every message */
    printf("/traces.otf2 (%d run%s): open it in Vampir, or otf2-print it\n", k, k == 1 ? "" : "s");
    return 0;
}

static int otf2_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    return write_otf2(out->dir, runs, out->compare ? k : 1, cause);
}

static int otf2_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                      int k, char **cause)
{
    (void)t;
    return write_otf2(out->dir, runs, 2 * k, cause);
}

/* Each prediction followed by its measured run, as one trace: runs[0..2k). */
static int paje_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                      int k, char **cause)
{
    (void)cause;
    (void)out;
    (void)t;
    export_paje(stdout, runs, 2 * k);
    return 0;
}

/* Each prediction's tree beside its measured one (the same tree, the measured times). */
static int dot_trace(const struct format_out *out, const struct trace *t, const struct run *runs,
                     int k, char **cause)
{
    (void)cause;
    (void)out;
    (void)t;
    export_dot(stdout, runs, 2 * k);
    return 0;
}

/* The replay directory of runs[0], then what was written and how to replay it. */
static int smpi_runs(const struct format_out *out, const struct run *runs, int k, char **cause)
{
    (void)k;
    const struct run *r = &runs[0];
    char *command = NULL;
    if (export_smpi_check(r, cause) < 0 || export_smpi_check_dir(out->dir, cause) < 0)
        return 2;   /* a schedule SimGrid cannot replay, a DIR it cannot take: bad input */
    if (export_smpi(r, out->dir, &command, cause) < 0)
        return 1;
    printf("makespan %s (%s, %s): replay it with SimGrid, ", numfmt_num(r->eng.makespan),
           r->sched.ops->name, model_name(r->model));
    text_put(out->dir, stdout);   /* the user's path, escaped like every message */
    fputs("/README:\n  ", stdout);
    text_put(command, stdout);
    fputc('\n', stdout);
    free(command);
    return 0;
}

/* ---- the table ---- */

#define BROADCASTS (FORMAT_RUN | FORMAT_COMPARE)

/* In --help's order; the first is the default. */
static const struct cli_format formats[] = {
    {"text", "default", BROADCASTS | FORMAT_TRACE | FORMAT_EXCHANGE | FORMAT_LEAN, text_runs, NULL,
     text_trace, text_exchange, NULL},
    {"csv", NULL, BROADCASTS | FORMAT_TRACE | FORMAT_EXCHANGE | FORMAT_LEAN, csv_runs,
     report_csv_stream_book, csv_trace, csv_exchange, NULL},
    {"json", NULL, BROADCASTS | FORMAT_TRACE | FORMAT_EXCHANGE | FORMAT_LEAN, json_runs, NULL,
     json_trace, json_exchange, json_spooled},
    {"svg", "Gantt and tree", BROADCASTS | FORMAT_TRACE, svg_runs, NULL, svg_trace, NULL, svg_spooled},
    {"paje", NULL, BROADCASTS | FORMAT_TRACE, paje_runs, NULL, paje_trace, NULL, paje_spooled},
    {"dot", NULL, BROADCASTS | FORMAT_TRACE, dot_runs, NULL, dot_trace, NULL, NULL},
    {"chrome", "Perfetto", BROADCASTS | FORMAT_TRACE | FORMAT_WHY_LATER, chrome_runs, NULL, chrome_trace, NULL, NULL},
    {"otf2", "Vampir", BROADCASTS | FORMAT_TRACE | FORMAT_DIR, otf2_runs, NULL, otf2_trace, NULL, NULL},
    {"smpi", "interop.md", FORMAT_RUN | FORMAT_DIR, smpi_runs, NULL, NULL, NULL, NULL},
};
#define NFORMATS ((int)(sizeof formats / sizeof formats[0]))

const struct cli_format *cli_format_find(const char *name)
{
    if (!name)
        return &formats[0];
    for (int i = 0; i < NFORMATS; i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

char *cli_format_list(unsigned flags, const char *last, bool notes)
{
    int n = 0, at = 0;
    for (int i = 0; i < NFORMATS; i++)
        n += (formats[i].flags & flags) != 0;
    char *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    if (!m)
        diag_fatal("out of memory");
    for (int i = 0; i < NFORMATS; i++) {
        const struct cli_format *f = &formats[i];
        if (!(f->flags & flags))
            continue;
        fprintf(m, "%s%s", at == 0 ? "" : at == n - 1 ? last : ", ", f->name);
        if (notes && f->note)
            fprintf(m, " (%s)", f->note);
        at++;
    }
    fclose(m);
    return s;
}
