/*
 * output/report_trace.c - measured beside predicted as text, CSV and JSON
 * (output/report_trace.h); numbers through output/report.h, CSV fields through support/csvfield.h,
 * differences through trace_diff.
 */
#include "output/report_trace.h"

#include <math.h>
#include <stdlib.h>

#include "support/csvfield.h"
#include "support/numfmt.h"
#include "output/report.h"

/* "+0.01", "-0.002", "0": a difference for people, with its sign. */
static const char *signed_txt(double d)
{
    static char buf[4][40];
    static int at;
    char *b = buf[at++ & 3];
    snprintf(b, sizeof buf[0], "%s%s", d > 0 ? "+" : "", numfmt_txt(d));
    return b;
}

static void percent_txt(char *buf, size_t size, double pct)
{
    if (isfinite(pct))
        snprintf(buf, size, "%+.2f %%", pct);
    else
        snprintf(buf, size, "- %%");
}

static const char *name_of(const struct run *r, int p)
{
    return r->c->nodes[p].name;
}

void report_trace_text(FILE *fp, const struct trace *t, const struct run *runs, int k, bool summary)
{
    report_cluster_line(fp, runs[0].c);
    fprintf(fp, "model: %s\n", model_name(runs[0].model));
    fputs("trace: ", fp);
    text_put(t->file, fp);
    fprintf(fp, " (%d transfer%s measured)\n", t->nrows, t->nrows == 1 ? "" : "s");
    for (int i = 0; i < t->nnotes; i++) {   /* its provenance, as the file says it */
        fputs("  # ", fp);
        text_put(t->notes[i], fp);
        fputc('\n', fp);
    }
    fputc('\n', fp);
    if (!summary)
        for (int i = 0; i < k; i++) {
            const struct run *p = &runs[2 * i], *m = &runs[2 * i + 1];
            fprintf(fp, "-- %s: predicted -> measured (shift) --\n", p->sched.ops->name);
            for (int j = 0; j < p->eng.ntr; j++) {
                const struct transfer *a = &p->eng.tr[j], *b = &m->eng.tr[j];
                char sa[64], sb[64], da[48], db[48];
                snprintf(sa, sizeof sa, "%s -> %s", numfmt_txt(a->start), numfmt_txt(b->start));
                snprintf(sb, sizeof sb, "%s -> %s", numfmt_txt(a->hold), numfmt_txt(b->hold));
                snprintf(da, sizeof da, "(%s)", signed_txt(trace_diff(b->start, a->start)));
                snprintf(db, sizeof db, "(%s)", signed_txt(trace_diff(b->hold, a->hold)));
                fprintf(fp, "%4d  %-10s -> %-10s start %-14s %-10s  holds at %-14s %s\n", j + 1,
                        name_of(p, a->from), name_of(p, a->to), sa, da, sb, db);
            }
            fputc('\n', fp);
        }
    fprintf(fp, "%-16s %-10s %-10s %s\n", "scheduler", "predicted", "measured", "error");
    for (int i = 0; i < k; i++) {
        struct trace_error e = trace_makespan_error(&runs[2 * i], &runs[2 * i + 1]);
        char pct[32];
        percent_txt(pct, sizeof pct, e.percent);
        fprintf(fp, "%-16s %-10s %-10s %s (%s)\n", runs[2 * i].sched.ops->name,
                numfmt_txt(e.predicted), numfmt_txt(e.measured), signed_txt(e.error), pct);
    }
    if (k >= 2) {
        const struct run *a = &runs[0], *b = &runs[2];
        fprintf(fp, "\ndifference    %s - %s = %s predicted, %s measured\n", a->sched.ops->name,
                b->sched.ops->name, numfmt_txt(trace_diff(a->eng.makespan, b->eng.makespan)),
                numfmt_txt(trace_diff(runs[1].eng.makespan, runs[3].eng.makespan)));
    }
}

void report_trace_csv(FILE *fp, const struct trace *t, const struct run *runs, int k, bool summary)
{
    (void)t;
    report_csv_version(fp);
    if (summary)
        fprintf(fp, "scheduler,predicted_makespan,measured_makespan,error,error_percent\n");
    else
        fprintf(fp, "scheduler,seq,from,to,predicted_start,measured_start,start_error,"
                    "predicted_hold,measured_hold,hold_error,error_percent\n");
    for (int i = 0; i < k; i++) {
        const struct run *p = &runs[2 * i], *m = &runs[2 * i + 1];
        struct trace_error e = trace_makespan_error(p, m);
        char pct[NUMFMT_SIZE] = "";   /* copied: numfmt_num's buffers rotate */
        if (isfinite(e.percent))
            numfmt_shortest(pct, numfmt_round(e.percent, 12));
        if (summary) {
            csvfield_put(fp, p->sched.ops->name);
            fprintf(fp, ",%s,%s,%s,%s\n", numfmt_num(e.predicted), numfmt_num(e.measured),
                    numfmt_num(e.error), pct);
            continue;
        }
        for (int j = 0; j < p->eng.ntr; j++) {
            const struct transfer *a = &p->eng.tr[j], *b = &m->eng.tr[j];
            double dh = trace_diff(b->hold, a->hold);
            csvfield_put(fp, p->sched.ops->name);
            fprintf(fp, ",%d,", j + 1);
            csvfield_put(fp, name_of(p, a->from));
            fputc(',', fp);
            csvfield_put(fp, name_of(p, a->to));
            fprintf(fp, ",%s,%s,%s,", numfmt_num(a->start), numfmt_num(b->start),
                    numfmt_num(trace_diff(b->start, a->start)));
            fprintf(fp, "%s,%s,%s,%s\n", numfmt_num(a->hold), numfmt_num(b->hold), numfmt_num(dh),
                    a->hold > 0 ? numfmt_num(numfmt_round(100.0 * dh / a->hold, 12)) : "");
        }
        csvfield_put(fp, p->sched.ops->name);   /* the makespan: the latest hold */
        fprintf(fp, ",makespan,,,,,,%s,%s,%s,%s\n", numfmt_num(e.predicted), numfmt_num(e.measured),
                numfmt_num(e.error), pct);
    }
}

void report_trace_json(FILE *fp, const struct trace *t, const struct run *runs, int k, bool summary)
{
    report_json_open(fp);
    fputs(", \"cluster\": ", fp);
    report_json_string(fp, runs[0].c->name);
    fprintf(fp, ", \"model\": \"%s\", \"nodes\": %d,\n \"trace\": ", model_name(runs[0].model),
            runs[0].c->n);
    report_json_string(fp, t->file);
    fprintf(fp, ", \"notes\": [");
    for (int i = 0; i < t->nnotes; i++) {
        fprintf(fp, "%s", i ? ", " : "");
        report_json_string(fp, t->notes[i]);
    }
    fprintf(fp, "],\n \"schedulers\": [");
    for (int i = 0; i < k; i++) {
        const struct run *p = &runs[2 * i], *m = &runs[2 * i + 1];
        struct trace_error e = trace_makespan_error(p, m);
        fprintf(fp, "%s{\"scheduler\": ", i ? ",\n  " : "");
        report_json_string(fp, p->sched.ops->name);
        fprintf(fp, ", \"predicted_makespan\": %s, \"measured_makespan\": %s, \"error\": %s, "
                    "\"error_percent\": %s",
                numfmt_num(e.predicted), numfmt_num(e.measured), numfmt_num(e.error),
                isfinite(e.percent) ? numfmt_num(numfmt_round(e.percent, 12)) : "null");
        if (!summary) {
            fprintf(fp, ",\n   \"transfers\": [");
            for (int j = 0; j < p->eng.ntr; j++) {
                const struct transfer *a = &p->eng.tr[j], *b = &m->eng.tr[j];
                fprintf(fp, "%s{\"seq\": %d, \"from\": ", j ? ",\n                 " : "", j + 1);
                report_json_string(fp, name_of(p, a->from));
                fprintf(fp, ", \"to\": ");
                report_json_string(fp, name_of(p, a->to));
                fprintf(fp, ", \"predicted_start\": %s, \"measured_start\": %s, \"start_error\": %s, "
                            "\"predicted_hold\": %s, \"measured_hold\": %s, \"hold_error\": %s}",
                        numfmt_num(a->start), numfmt_num(b->start),
                        numfmt_num(trace_diff(b->start, a->start)), numfmt_num(a->hold),
                        numfmt_num(b->hold), numfmt_num(trace_diff(b->hold, a->hold)));
            }
            fputc(']', fp);
        }
        fputc('}', fp);
    }
    fprintf(fp, "]}\n");
}
