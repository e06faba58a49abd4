/*
 * cli_exchange.c - `hetcast run|compare FILE --pattern all-to-all|all-to-some`
 * (SPEC §4, §6): the command line of personalized exchanges.  The checks
 * and the run itself are the session layer's (session_exchange), shared
 * with the view.
 *
 * Exit status as for every command: 0 success, 1 runtime failure (output),
 * 2 bad usage or bad input.  Broadcast schedulers are refused with --pattern
 * and exchange schedulers without it (session_sched), each with the valid list.
 */
#include "app/cli_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli_format.h"
#include "app/opts.h"
#include "sched/exchange.h"
#include "output/report_exchange.h"

/* --format for an exchange: the format, or NULL with *cause. */
static const struct cli_format *check_output(const struct cli_opts *o, char **cause)
{
    const struct cli_format *f = cli_format_find(o->format);
    char *valid = cli_format_list(FORMAT_EXCHANGE, ", ", false);
    char *prints = cli_format_list(FORMAT_EXCHANGE, " or ", false);
    char guess[96];
    if (!f)
        set_cause(cause, "unknown format \"%s\"; %svalid formats: %s", o->format,
                  text_guess(o->format, valid, guess, sizeof guess), valid);
    else if (!(f->flags & FORMAT_EXCHANGE))
        set_cause(cause, "--format %s draws broadcasts only; a personalized exchange prints %s",
                  f->name, prints);
    free(valid);
    free(prints);
    return f && (f->flags & FORMAT_EXCHANGE) ? f : NULL;
}

int cli_exchange(const struct cli_opts *o, bool compare)
{
    char *cause = NULL;
    const struct cli_format *f = check_output(o, &cause);
    if (!f || session_exchange_check(&o->s, &cause) < 0)
        return cli_fail(cause, 2);
    const char *names[XSCHED_COUNT > SESSION_MAX_SCHEDS ? XSCHED_COUNT : SESSION_MAX_SCHEDS];
    int k = o->s.nsched;
    for (int i = 0; i < k; i++) {
        if (session_exchange_sched(o->s.sched[i], &cause) < 0)
            return cli_fail(cause, 2);
        names[i] = o->s.sched[i];
    }
    if (!compare && k > 1)
        return opts_error(2, "run takes one scheduler (got %d); use hetcast compare for more", k);
    struct cluster *c = cli_load(o);
    if (!c)
        return 2;
    enum model m;
    if (session_exchange_model(&o->s, c, &m, &cause) < 0) {
        cluster_free(c);
        return cli_fail(cause, 2);
    }
    if (k == 0 && !compare)
        names[k++] = "caterpillar";
    else if (k == 0)
        for (int a = 0; a < XSCHED_COUNT; a++) {
            const struct xsched_ops *ops = xsched_at(a);
            if (ops->max_nodes > 0 && c->n > ops->max_nodes) {
                fprintf(stderr, "%s: %s left out: it takes %s time and is refused "
                                "above %d nodes\n", diag_who(), ops->name, ops->cost, ops->max_nodes);
                continue;
            }
            names[k++] = ops->name;
        }
    if (o->save_cluster && cluster_save_csv(c, o->save_cluster, &cause) < 0) {
        cluster_free(c);
        return cli_fail(cause, 1);
    }
    struct exchange *xs = xcalloc((size_t)k, sizeof *xs);
    int done = 0;
    for (; done < k; done++)
        if (session_exchange(&o->s, c, names[done], false, o->summary, &xs[done], &cause) < 0)
            break;
    int status = 0;
    if (done < k) {
        status = cli_fail(cause, 2);
    } else {
        struct format_out out = {compare, o->summary, NULL, NULL};
        f->exchange(&out, xs, compare ? k : 1);
    }
    for (int i = 0; i < done; i++)
        exchange_free(&xs[i]);
    free(xs);
    cluster_free(c);
    return cli_output_status(status);
}
