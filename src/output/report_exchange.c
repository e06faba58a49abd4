/*
 * output/report_exchange.c - text, CSV and JSON output of personalized exchanges
 * (output/report_exchange.h).
 */
#include "output/report_exchange.h"

#include <string.h>

#include "support/csvfield.h"
#include "output/report.h"
#include "support/numfmt.h"

static const char *name(const struct exchange *x, int i)
{
    return x->c->nodes[i].name;
}

static void interval(char *buf, size_t size, double a, double b)
{
    if (b > a)
        text_fit(buf, size, "[%s, %s)", numfmt_txt(a), numfmt_txt(b));
    else
        text_fit(buf, size, "-");
}

static void describe(FILE *fp, const struct exchange *x, bool with_sched)
{
    const struct cluster *c = x->c;
    fprintf(fp, "cluster: %s (%s, %d node%s, %s %s", c->name ? c->name : "(unnamed)",
            cluster_kind_name(c->kind), c->n, c->n == 1 ? "" : "s",
            c->kind == CLUSTER_MATRIX ? "unit" : "latency",
            numfmt_txt(c->kind == CLUSTER_MATRIX ? c->unit : c->latency));
    if (time_unit_name(c->time_unit))
        fprintf(fp, ", times in %s", time_unit_name(c->time_unit));
    fprintf(fp, ")\n");
    fprintf(fp, "exchange: %s, %d receiver%s", exchange_pattern_name(x->pattern), x->nrecv,
            x->nrecv == 1 ? "" : "s");
    if (x->pattern == XPAT_ALL_TO_SOME) {
        fprintf(fp, " (");
        for (int k = 0; k < x->nrecv && k < 12; k++)
            fprintf(fp, "%s%s", k ? ", " : "", name(x, x->recv[k]));
        fprintf(fp, "%s)", x->nrecv > 12 ? ", ..." : "");
    }
    fprintf(fp, "\nmodel: %s", model_name(x->model));
    if (with_sched)
        fprintf(fp, "   scheduler: %s", x->ops->name);
    fprintf(fp, "   seed: %llu\n", (unsigned long long)x->seed);
}

void report_exchange_orders(FILE *fp, const struct exchange *x, int width)
{
    int w = 4;
    for (int q = 0; q < x->n; q++) {
        int len = (int)strlen(name(x, q)) + 3;   /* name, "*", a space */
        if (len > w)
            w = len;
    }
    int per = (width - 6) / w;
    if (per < 1)
        per = 1;
    fprintf(fp, "sending orders: a column per sender, its receivers from top to bottom "
                "(* its own message: costs nothing, never sent)\n");
    for (int first = 0; first < x->n; first += per) {
        int last = first + per < x->n ? first + per : x->n;
        fprintf(fp, "step  ");
        for (int q = first; q < last; q++)
            fprintf(fp, "%-*s", q + 1 < last ? w : 0, name(x, q));
        fprintf(fp, "\n");
        for (int k = 0; k < x->nrecv; k++) {
            fprintf(fp, "%4d  ", k + 1);
            for (int q = first; q < last; q++) {
                int p = x->order[(size_t)q * x->nrecv + k];
                char cell[128];
                text_fit(cell, sizeof cell, "%s%s", name(x, p), p == q ? "*" : "");
                fprintf(fp, "%-*s", q + 1 < last ? w : 0, cell);
            }
            fprintf(fp, "\n");
        }
        if (last < x->n)
            fprintf(fp, "\n");
    }
}

/* The summary lines (completion, lower bound, idle waits). */
static void report_exchange_summary(FILE *fp, const struct exchange *x)
{
    fprintf(fp, "completion    %s\n", numfmt_txt(x->completion));
    fprintf(fp, "lower bound   %s   (max over nodes of max(total send time, total receive time): "
                "%s's %s)\n",
            numfmt_txt(x->lower_bound), name(x, x->bound_node), x->bound_by_recv ? "receives" : "sends");
    if (!timing_rendezvous(x->model))
        fprintf(fp, "idle senders  none   (%s: a sender moves on after s(q))\n", model_name(x->model));
    else if (x->nwaits == 0)
        fprintf(fp, "idle senders  none   (no sender waited for a busy receiver)\n");
    else
        fprintf(fp, "idle senders  %d wait%s, %s in all   (senders waiting for a busy receiver)\n",
                x->nwaits, x->nwaits == 1 ? "" : "s", numfmt_txt(x->idle));
}

void report_exchange_text(FILE *fp, const struct exchange *x, bool summary)
{
    describe(fp, x, true);
    if (!summary) {
        fprintf(fp, "\n");
        report_exchange_orders(fp, x, 78);
        fprintf(fp, "\n%6s  %-10s %-10s %-5s %-14s %-14s %-14s %-14s %s\n", "#", "from", "to",
                "step", "idle", "send", "link", "receive", "done");
        for (int i = 0; i < x->eng.ntr; i++) {
            const struct transfer *t = &x->eng.tr[i];
            char w[48], s[48], l[48], v[48];
            interval(w, sizeof w, t->wait_start, t->start);
            interval(s, sizeof s, t->start, t->send_end);
            interval(l, sizeof l, t->link_start, t->link_end);
            interval(v, sizeof v, t->recv_start, t->recv_end);
            fprintf(fp, "%6d  %-10s %-10s %-5d %-14s %-14s %-14s %-14s %s\n", i + 1,
                    name(x, t->from), name(x, t->to), x->row[i] + 1, w, s, l, v, numfmt_txt(t->hold));
        }
        fprintf(fp, "\n");
    }
    report_exchange_summary(fp, x);
}

void report_exchange_csv(FILE *fp, const struct exchange *x, bool summary, bool header)
{
    const char *sched = x->ops->name;
    if (header)   /* the two lines of every CSV table first (output/report.h) */
        report_csv_version(fp);
    if (header && time_unit_name(x->c->time_unit))
        fprintf(fp, "# unit: %s\n", time_unit_name(x->c->time_unit));
    if (summary) {
        if (header) {
            fprintf(fp, "scheduler,model,pattern,nodes,receivers,completion,lower_bound,waits,idle\n");
        }
        fprintf(fp, "%s,%s,%s,%d,%d,%s,%s,%d,%s\n", sched, model_name(x->model),
                exchange_pattern_name(x->pattern), x->n, x->nrecv, numfmt_num(x->completion),
                numfmt_num(x->lower_bound), x->nwaits, numfmt_num(x->idle));
        return;
    }
    if (header) {
        fprintf(fp, "scheduler,seq,from,to,step,wait_start,send_start,send_end,link_start,link_end,"
                    "recv_start,recv_end,hold\n");
    }
    for (int i = 0; i < x->eng.ntr; i++) {
        const struct transfer *t = &x->eng.tr[i];
        fprintf(fp, "%s,%d,", sched, i + 1);
        csvfield_put(fp, name(x, t->from));
        fputc(',', fp);
        csvfield_put(fp, name(x, t->to));
        fprintf(fp, ",%d,%s,%s,%s,%s,%s,%s,%s,%s\n", x->row[i] + 1, numfmt_num(t->wait_start),
                numfmt_num(t->start), numfmt_num(t->send_end), numfmt_num(t->link_start), numfmt_num(t->link_end),
                numfmt_num(t->recv_start), numfmt_num(t->recv_end), numfmt_num(t->hold));
    }
}

void report_exchange_json(FILE *fp, const struct exchange *x, bool summary)
{
    report_json_open(fp);
    fputs(", \"cluster\": ", fp);
    report_json_string(fp, x->c->name);
    if (time_unit_name(x->c->time_unit))
        fprintf(fp, ", \"unit\": \"%s\"", time_unit_name(x->c->time_unit));
    fprintf(fp, ", \"model\": \"%s\", \"scheduler\": \"%s\", \"pattern\": \"%s\", \"nodes\": %d, "
                "\"seed\": %llu,\n",
            model_name(x->model), x->ops->name, exchange_pattern_name(x->pattern),
            x->n, (unsigned long long)x->seed);
    if (x->pattern == XPAT_ALL_TO_SOME) {
        fprintf(fp, " \"receivers\": [");
        for (int k = 0; k < x->nrecv; k++) {
            fprintf(fp, "%s", k ? ", " : "");
            report_json_string(fp, name(x, x->recv[k]));
        }
        fprintf(fp, "],\n");
    }
    fprintf(fp, " \"completion\": %s, \"lower_bound\": %s, \"waits\": %d, \"idle\": %s",
            numfmt_num(x->completion), numfmt_num(x->lower_bound), x->nwaits, numfmt_num(x->idle));
    if (!summary) {
        fprintf(fp, ",\n \"orders\": {");
        for (int q = 0; q < x->n; q++) {
            fprintf(fp, "%s", q ? ",\n            " : "");
            report_json_string(fp, name(x, q));
            fprintf(fp, ": [");
            for (int k = 0; k < x->nrecv; k++) {
                fprintf(fp, "%s", k ? ", " : "");
                report_json_string(fp, name(x, x->order[(size_t)q * x->nrecv + k]));
            }
            fprintf(fp, "]");
        }
        fprintf(fp, "},\n \"transfers\": [");
        for (int i = 0; i < x->eng.ntr; i++) {
            const struct transfer *t = &x->eng.tr[i];
            fprintf(fp, "%s{\"from\": ", i ? ",\n               " : "");
            report_json_string(fp, name(x, t->from));
            fprintf(fp, ", \"to\": ");
            report_json_string(fp, name(x, t->to));
            fprintf(fp, ", \"step\": %d, \"wait_start\": %s, \"send_start\": %s, \"send_end\": %s, "
                        "\"link_start\": %s, \"link_end\": %s, \"recv_start\": %s, \"recv_end\": %s}",
                    x->row[i] + 1, numfmt_num(t->wait_start), numfmt_num(t->start), numfmt_num(t->send_end),
                    numfmt_num(t->link_start), numfmt_num(t->link_end), numfmt_num(t->recv_start),
                    numfmt_num(t->recv_end));
        }
        fprintf(fp, "]");
    }
    fprintf(fp, "}\n");
}

void report_exchange_compare_text(FILE *fp, const struct exchange *xs, int k, bool summary)
{
    describe(fp, &xs[0], false);
    fprintf(fp, "\n");
    if (!summary)
        for (int i = 0; i < k; i++) {
            fprintf(fp, "-- %s --\n", xs[i].ops->name);
            report_exchange_orders(fp, &xs[i], 78);
            fprintf(fp, "\n");
        }
    fprintf(fp, "%-14s %-12s %-14s %-8s %s\n", "scheduler", "completion", "/ lower bound", "waits",
            "idle");
    for (int i = 0; i < k; i++) {
        const struct exchange *x = &xs[i];
        fprintf(fp, "%-14s %-12s %-14.3f %-8d %s\n", x->ops->name, numfmt_txt(x->completion),
                x->lower_bound > 0 ? x->completion / x->lower_bound : 1.0, x->nwaits, numfmt_txt(x->idle));
    }
    fprintf(fp, "\nlower bound   %s   (max over nodes of max(total send time, total receive "
                "time): %s's %s)\n",
            numfmt_txt(xs[0].lower_bound), name(&xs[0], xs[0].bound_node),
            xs[0].bound_by_recv ? "receives" : "sends");
}

void report_exchange_compare_csv(FILE *fp, const struct exchange *xs, int k, bool summary)
{
    for (int i = 0; i < k; i++)
        report_exchange_csv(fp, &xs[i], summary, i == 0);
}

void report_exchange_compare_json(FILE *fp, const struct exchange *xs, int k, bool summary)
{
    report_json_open(fp);
    fputs(", \"runs\": [", fp);
    for (int i = 0; i < k; i++) {
        if (i)
            fprintf(fp, ",");
        report_exchange_json(fp, &xs[i], summary);
    }
    fprintf(fp, "]}\n");
}
