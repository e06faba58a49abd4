/*
 * cli_simgrid.c - run and compare --simgrid (cli_common.h): each run's
 * schedule replayed in SimGrid itself (model/cluster_simgrid.h's
 * simgrid_replay), its makespan printed beside hetcast's with the largest
 * difference of a node's hold time.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/cli_common.h"
#include "app/opts.h"
#include "model/timing.h"
#include "support/numfmt.h"
#if HETCAST_HAVE_SIMGRID
#include "model/cluster_simgrid.h"
#endif

int cli_simgrid_check(const struct cli_opts *o, const struct cluster *c)
{
    if (!o->simgrid)
        return 0;
    if (!c->plat)
        return opts_error(2, "--simgrid replays a schedule in SimGrid: it needs a SimGrid "
                             "platform (.xml), and %s is not one", o->s.file);
    if (o->format)
        return opts_error(2, "--simgrid adds lines to the text report: leave out --format");
    return 0;
}

/* One run's replay: its lines under the report; 0, or 1 after a message. */
static int replay_one(const struct cli_opts *o, const struct run *r)
{
#if HETCAST_HAVE_SIMGRID
    const struct engine *e = &r->eng;
    if (e->nmsg != 1 || e->lean)
        return opts_error(2, "--simgrid replays a broadcast of one message; %s sends %d %ss "
                          "(--slices)", r->sched.ops->name, e->nmsg, engine_piece_name(e));
    int *from = xmalloc(((size_t)e->ntr + 1) * sizeof *from);
    int *to = xmalloc(((size_t)e->ntr + 1) * sizeof *to);
    double *hold = xmalloc((size_t)e->n * sizeof *hold);
    for (int i = 0; i < e->ntr; i++) {
        from[i] = e->tr[i].from;
        to[i] = e->tr[i].to;
    }
    char *cause = NULL;
    /* a sender that waits for each receive sends one message at a time; the others (async,
       sender-only with no overheads, multi-port) start them all at once */
    bool multi = !timing_sender_waits_receive(r->model);
    int rc = simgrid_replay(r->c, o->s.file, r->c->plat->size, multi, from, to, e->ntr, hold,
                            &cause);
    if (rc == 0) {
        double ms = 0, worst = 0;
        int at = -1;
        for (int p = 0; p < e->n; p++) {
            double mine = engine_hold_time(e, p, 0);
            if (cluster_is_target(r->c, p) && isfinite(hold[p]))
                ms = fmax(ms, hold[p]);
            double d = isfinite(mine) && isfinite(hold[p]) ? fabs(mine - hold[p])
                       : isfinite(mine) == isfinite(hold[p]) ? 0 : INFINITY;
            if (d > worst || at < 0) {
                worst = d;
                at = p;
            }
        }
        double rel = ms > 0 ? fabs(e->makespan - ms) / ms : fabs(e->makespan - ms);
        char nb[128];
        printf("simgrid       %s: SimGrid's makespan %s, hetcast's %s (relative difference %s); "
               "largest node difference %s s (%s); SimGrid CM02, TCP-gamma 0, no cross-traffic, "
               "%s senders\n", r->sched.ops->name, numfmt_txt(ms), numfmt_txt(e->makespan),
               numfmt_txt(numfmt_round(rel, 3)), numfmt_txt(numfmt_round(worst, 3)),
               at >= 0 ? SHOWN(r->c->nodes[at].name, nb) : "-", multi ? "multi-port" : "one-port");
    }
    free(from);
    free(to);
    free(hold);
    if (rc < 0)
        return cli_fail(cause, 1);
    return 0;
#else
    (void)r;
    return opts_error(2, "%s: --simgrid: this hetcast was built without SimGrid", o->s.file);
#endif
}

int cli_simgrid(const struct cli_opts *o, const struct run *runs, int k)
{
    int status = 0;
    for (int i = 0; i < k && status == 0; i++)
        status = replay_one(o, &runs[i]);
    return status;
}
