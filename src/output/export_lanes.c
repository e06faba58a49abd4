/*
 * output/export_lanes.c - the busy intervals of the ports and their lanes
 * (output/export_lanes.h): made, sorted, laid out first-fit.
 */
#include "output/export_lanes.h"

#include <stdbool.h>
#include <stdlib.h>

#include "support/fastpath.h"

const char *const port_names[NPORTS] = {"send port", "link in", "receive port"};
const char *const port_short[NPORTS] = {"send", "link", "recv"};

static int slot_cmp(const void *x, const void *y)
{
    const struct port_slot *a = x, *b = y;
    if (a->run != b->run)
        return a->run - b->run;
    if (a->node != b->node)
        return a->node - b->node;
    if (a->port != b->port)
        return a->port - b->port;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->tr - b->tr;
}

/*
 * The slots of runs[0..k): appended to v in (run, transfer, port) order when at is NULL;
 * else each placed at at[its bucket]++, a bucket being a port of a run's node
 * (base[run] + node * NPORTS + port), so that v comes out by port, each port's slots in
 * transfer order (a counting sort, in the memory qsort would sort in).  Returns how many.
 */
static long make_slots(struct port_slot *v, const struct run *runs, int k, long *at, const int *base)
{
    long m = 0;
    for (int r = 0; r < k; r++)
        for (int i = 0; i < runs[r].eng.ntr; i++) {
            const struct transfer *t = &runs[r].eng.tr[i];
            struct port_slot s[NPORTS] = {{r, t->from, PORT_SEND, i, t->start, t->send_end, 0},
                                          {r, t->to, PORT_LINK, i, t->link_start, t->link_end, 0},
                                          {r, t->to, PORT_RECV, i, t->recv_start, t->recv_end, 0}};
            for (int port = 0; port < NPORTS; port++) {
                if (port != PORT_SEND && !(s[port].end > s[port].start))
                    continue;   /* an empty link or receive: no slot */
                if (at)
                    v[at[base[r] + s[port].node * NPORTS + port]++] = s[port];
                else
                    v[m] = s[port];
                m++;
            }
        }
    return m;
}

/*
 * v[0, n) in slot_cmp's order, as qsort puts it (a total order: a transfer has one slot a
 * port), without sorting it all: counted by port, placed by port in transfer order, then
 * each port's slots sorted by start where they are not already in (start, transfer) order
 * (a sender's sends mostly start in order, a node receives once).  Returns how many.
 */
static long slots_by_port(struct port_slot *v, const struct run *runs, int k)
{
    int *base = xmalloc(((size_t)k + 1) * sizeof *base);   /* a run's first bucket */
    base[0] = 0;
    for (int r = 0; r < k; r++)
        base[r + 1] = base[r] + runs[r].c->n * NPORTS;
    long *at = xcalloc((size_t)base[k] + 1, sizeof *at);
    for (int r = 0; r < k; r++)   /* each bucket's size, at its end's place */
        for (int i = 0; i < runs[r].eng.ntr; i++) {
            const struct transfer *t = &runs[r].eng.tr[i];
            at[base[r] + t->from * NPORTS + PORT_SEND + 1]++;
            at[base[r] + t->to * NPORTS + PORT_LINK + 1] += t->link_end > t->link_start;
            at[base[r] + t->to * NPORTS + PORT_RECV + 1] += t->recv_end > t->recv_start;
        }
    for (int b = 0; b < base[k]; b++)   /* at[b]: bucket b's first place */
        at[b + 1] += at[b];
    long m = make_slots(v, runs, k, at, base);
    for (long lo = 0, hi; lo < m; lo = hi) {
        bool sorted = true;
        for (hi = lo + 1; hi < m && v[hi].run == v[lo].run && v[hi].node == v[lo].node &&
                          v[hi].port == v[lo].port; hi++)
            sorted = sorted && slot_cmp(&v[hi - 1], &v[hi]) < 0;
        if (!sorted)
            qsort(v + lo, (size_t)(hi - lo), sizeof *v, slot_cmp);
    }
    free(at);
    free(base);
    return m;
}

int lane_fit_place(struct lane_fit *f, double start, double end)
{
    int l = 0;
    while (l < f->n && f->end[l] > start)
        l++;
    if (l == f->n) {
        if (f->n == f->cap)
            f->end = xrealloc(f->end, (size_t)(f->cap = f->cap * 2 + 4) * sizeof *f->end);
        f->n++;
    }
    f->end[l] = end;
    return l;
}

int port_slots_proc(const struct run *runs, int r, int p)
{
    int base = 0;
    for (int i = 0; i < r; i++)
        base += runs[i].c->n;
    return base + p + 1;
}

int port_slots_lanes(const struct port_slots *ps, int proc, int port)
{
    int l = ps->lanes[(size_t)(proc - 1) * NPORTS + port];
    return l > 0 ? l : 1;
}

void port_slots_make(struct port_slots *ps, const struct run *runs, int k)
{
    long n = 0;
    for (int r = 0; r < k; r++)
        n += (long)NPORTS * runs[r].eng.ntr;
    struct port_slot *v = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    long m;
    if (FAST_PATH(true)) {
        m = slots_by_port(v, runs, k);
    } else {
        m = make_slots(v, runs, k, NULL, NULL);
        if (m > 0)   /* qsort of NULL is undefined, even for 0 items */
            qsort(v, (size_t)m, sizeof *v, slot_cmp);
    }
    ps->nprocs = port_slots_proc(runs, k, 0) - 1;
    ps->lanes = xcalloc((size_t)(ps->nprocs > 0 ? ps->nprocs : 1) * NPORTS, sizeof *ps->lanes);
    struct lane_fit fit = {0};   /* the lanes of a port */
    for (long i = 0; i < m; i++) {
        if (i == 0 || v[i].run != v[i - 1].run || v[i].node != v[i - 1].node ||
            v[i].port != v[i - 1].port)
            fit.n = 0;
        int l = lane_fit_place(&fit, v[i].start, v[i].end);
        v[i].lane = l;
        int *used = &ps->lanes[(size_t)(port_slots_proc(runs, v[i].run, v[i].node) - 1) * NPORTS +
                               v[i].port];
        if (l + 1 > *used)
            *used = l + 1;
    }
    free(fit.end);
    ps->v = v;
    ps->n = m;
}

void port_slots_free(struct port_slots *ps)
{
    free(ps->v);
    free(ps->lanes);
    ps->v = NULL;
    ps->lanes = NULL;
}
