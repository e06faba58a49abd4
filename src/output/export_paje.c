/*
 * output/export_paje.c - a schedule as a Paje trace (output/export_interop.h), the format
 * of ViTE and PajeNG (pj_dump): the event definitions first, then the events
 * in time order.  Containers and types are named by short aliases that this
 * file makes up (r0, r0n3, S, L, V, M), so user text appears only in Name
 * fields, through export_paje_string.
 */
#include "output/export_interop.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/export_line.h"
#include "support/fastpath.h"
#include "support/numfmt.h"
#include "support/radixq.h"
#include "support/timekey.h"

void export_paje_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"')
            fputc('\'', fp);
        else if (ch == '\\')
            fputs("\\\\", fp);
        else if (ch == '\n')
            fputs("\\n", fp);
        else if (ch == '\t')
            fputs("\\t", fp);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(fp, "\\x%02x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

static int paje_write(FILE *fp, const struct run *runs, int k, struct spool *sp);

/* The event definitions hetcast uses, with PajeNG's field names and types. */
static const char paje_header[] =
    "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 2\n% Alias string\n% Type string\n% Name string\n"
    "% Color color\n%EndEventDef\n"
    "%EventDef PajeDefineLinkType 3\n% Alias string\n% Type string\n% StartContainerType string\n"
    "% EndContainerType string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 4\n% Time date\n% Alias string\n% Type string\n"
    "% Container string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 5\n% Time date\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajePushState 6\n% Time date\n% Type string\n% Container string\n"
    "% Value string\n%EndEventDef\n"
    "%EventDef PajePopState 7\n% Time date\n% Type string\n% Container string\n%EndEventDef\n"
    "%EventDef PajeStartLink 8\n% Time date\n% Type string\n% Container string\n"
    "% Value string\n% StartContainer string\n% Key string\n%EndEventDef\n"
    "%EventDef PajeEndLink 9\n% Time date\n% Type string\n% Container string\n"
    "% Value string\n% EndContainer string\n% Key string\n%EndEventDef\n";
/* the types: a run holds nodes (the run's type is written first, naming the unit); a node
 * has three state types; arrows join nodes */
static const char paje_types[] =
    "0 N R \"node\"\n"
    "1 S N \"send port\"\n"
    "1 L N \"link in\"\n"
    "1 V N \"recv port\"\n"
    "2 send S \"send\" \"0.85 0.33 0.10\"\n"
    "2 link L \"link\" \"0.47 0.47 0.47\"\n"
    "2 recv V \"recv\" \"0.00 0.45 0.74\"\n"
    "3 M R N N \"message\"\n"
    "2 msg M \"message\" \"0 0 0\"\n";

enum pev_kind {   /* at equal times, in this order: ends before starts */
    PEV_POP = 0,
    PEV_END_LINK,
    PEV_PUSH,
    PEV_START_LINK,
};

/*
 * The events go out in (time, kind, order made) order, the order made being
 * the runs', then the bookings', then S, L, V and the arrow's within a
 * booking.  They are not sorted at the end: each booking's events go into
 * monotone queues (support/radixq.h: the time, then the tie kind << 30 |
 * booking << 2 | state), one per kind, so that each queue gets its ties in
 * increasing order and its equal times need no sort (but a pair's second
 * event, queued when the first goes out: pev_booking); the four are merged
 * on (time, kind).  Before a booking is read every event earlier than the
 * least start of the bookings still to come (the watermark) is written,
 * since no later booking makes one before that.  A lean run's bookings
 * start in increasing order or nearly, so the queues hold the transfers in
 * flight, not the whole run (fnf on 10^6 random nodes: up to 77 % of its
 * bookings, its last rounds: a send booked late may start early).  The watermark needs the least start of each
 * block: from the spool (spool_least), else a first pass over the bookings.
 * Bookings are counted over all runs in 28 bits: PAJE_MAX_TRANSFERS.  The
 * fast path lists the events by time instead (struct pev_times), under the
 * same watermark, and moves to the queues when the times seldom repeat.
 */
#define PAJE_BLOCK SPOOL_BLOCK   /* spool_least's span */

/* An event without its time: a pair's second (pev_booking), or an event in a time's list
 * (struct pev_times).  tie: kind << 30 | booking << 2 | state, as in the queues. */
struct pev_item {
    uint32_t tie;
    int node;
};

struct paje_out {
    FILE *fp;
    struct line_out *lo;   /* the fast path's block, else NULL (support/fastpath.h) */
    int k;
    long long *first;   /* runs[r]'s first booking in the count over all runs */
    struct radixq q[4];   /* the events of each kind: pushed in the order of their ties */
    double least[4];      /* each queue's least time (rq_min_time), INFINITY when it is empty */
    struct pev_item *second[4];   /* by kind: pairs' second events of the time being written */
    size_t second_at[4], second_len[4], second_cap[4];
    double second_time;   /* their time */
    int *to;              /* on the fast path, each booking's receiver */
    struct pev_times *pt; /* the fast path's lists by time, until they would take more memory
                             than the queues (then NULL: the queues, paired) */
};

static const char state_letter[] = "SLV";
static const char state_value[][5] = {"send", "link", "recv"};   /* 4 letters each */

/*
 * A booking's events at one time come out one right after the other unless another booking
 * has events at that time: a send's push and the arrow's start, a send's pop and the link's
 * push when the link starts as the send ends (on the receiver: its node is o->to[booking]), a
 * link's pop and the receive's push when the receive starts as the link ends, the receive's
 * pop and the arrow's end when the receiver holds the message as its receive ends.  On the fast
 * path, once its lists by time have moved to the queues (struct pev_times), the first carries the second (PEV_FOLLOWED in its value): a pair waits in the queues as one
 * event, not two.  When the first goes out its second joins the seconds of its kind at that
 * time (o->second), in the order of their ties, since the firsts of one kind go out in the
 * order of theirs and each kind's seconds come from one kind of firsts: a queue, not a heap.
 * The second's kind and state, by the first's state (a push: S; a pop: L, V).
 */
#define PEV_FOLLOWED (1u << 31)
static const int follower_kind[2][3] = {{PEV_PUSH, PEV_PUSH, PEV_END_LINK}, {PEV_START_LINK, -1, -1}};
static const int follower_state[2][3] = {{1, 2, 3}, {3, -1, -1}};

/* An event of booking g (counted over all runs) on node; followed: it carries the next. */
static void pev_add(struct paje_out *o, double time, int kind, long long g, int node, int state,
                    bool followed)
{
    uint32_t val = (uint32_t)node | (followed ? PEV_FOLLOWED : 0);
    rq_push(&o->q[kind], time, (uint32_t)kind << 30 | (uint32_t)g << 2 | (uint32_t)state,
            (int32_t)val);
    if (time < o->least[kind])
        o->least[kind] = time;
}

/* Booking u's events (g: its number over all runs); paired (the fast path): a first carries
 * its follower where both have one time (keys equal: the same text). */
static void pev_booking(struct paje_out *o, const struct transfer *u, long long g, bool paired)
{
    bool send = u->send_end > u->start, link = u->link_end > u->link_start,
         recv = u->recv_end > u->recv_start;
    bool start_follows = paired && send;
    bool link_follows = paired && send && link && time_key(u->link_start) == time_key(u->send_end);
    bool recv_follows = paired && link && recv && time_key(u->recv_start) == time_key(u->link_end);
    bool end_follows = paired && recv && time_key(u->hold) == time_key(u->recv_end);
    if (send) {
        pev_add(o, u->start, PEV_PUSH, g, u->from, 0, start_follows);
        pev_add(o, u->send_end, PEV_POP, g, u->from, 0, link_follows);
    }
    if (link) {
        if (!link_follows)
            pev_add(o, u->link_start, PEV_PUSH, g, u->to, 1, false);
        pev_add(o, u->link_end, PEV_POP, g, u->to, 1, recv_follows);
    }
    if (recv) {
        if (!recv_follows)
            pev_add(o, u->recv_start, PEV_PUSH, g, u->to, 2, false);
        pev_add(o, u->recv_end, PEV_POP, g, u->to, 2, end_follows);
    }
    if (!start_follows)
        pev_add(o, u->start, PEV_START_LINK, g, u->from, 3, false);
    if (!end_follows)
        pev_add(o, u->hold, PEV_END_LINK, g, u->to, 3, false);
}

/* The earliest of a booking's event times (its start, by the timing rule). */
static double earliest(const struct transfer *t)
{
    const double v[] = {t->send_end, t->link_start, t->link_end, t->recv_start, t->recv_end, t->hold};
    double m = t->start;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

/* An event's line (tr: the transfer within its run), readably. */
static void pev_line(FILE *fp, double time, int kind, int state, int run, int node, long long tr)
{
    const char *when = numfmt_num(time);
    switch (kind) {
    case PEV_PUSH:
        fprintf(fp, "6 %s %c r%dn%d %s\n", when, state_letter[state], run, node, state_value[state]);
        break;
    case PEV_POP:
        fprintf(fp, "7 %s %c r%dn%d\n", when, state_letter[state], run, node);
        break;
    case PEV_START_LINK:
        fprintf(fp, "8 %s M r%d msg r%dn%d r%dt%lld\n", when, run, run, node, run, tr);
        break;
    case PEV_END_LINK:
        fprintf(fp, "9 %s M r%d msg r%dn%d r%dt%lld\n", when, run, run, node, run, tr);
        break;
    }
}

/* pev_line's head, by hand at at, up to the node: "6 T S r0n", "7 T S r0n", "8 T M r0 msg r0n"
 * (when: T, numfmt_num's text, wlen bytes). */
static char *pev_head(char *at, const char *when, size_t wlen, int kind, int state, int run)
{
    static const char digit[] = "7968";   /* the event numbers, by kind */
    at = line_char(at, digit[kind]);
    at = line_char(at, ' ');
    at = line_str(at, when, wlen);
    if (kind == PEV_PUSH || kind == PEV_POP) {
        at = line_char(at, ' ');
        at = line_char(at, state_letter[state]);
        at = LINE_LIT(at, " r");
    } else {
        at = LINE_LIT(at, " M r");
        at = line_int(at, run);
        at = LINE_LIT(at, " msg r");
    }
    at = line_int(at, run);
    return line_char(at, 'n');
}

/* pev_line's rest after the node, by hand at at: " send\n", "\n", " r0t5\n". */
static char *pev_tail(char *at, int kind, int state, int run, long long tr)
{
    if (kind == PEV_PUSH) {
        at = line_char(at, ' ');
        at = line_str(at, state_value[state], 4);
    } else if (kind != PEV_POP) {
        at = LINE_LIT(at, " r");
        at = line_int(at, run);
        at = line_char(at, 't');
        at = line_int(at, tr);
    }
    return line_char(at, '\n');
}

/* pev_line's bytes, built by hand into lo's block (output/export_line.h). */
static void pev_line_fast(struct line_out *lo, const char *when, size_t wlen, int kind, int state,
                          int run, int node, long long tr)
{
    char *at = pev_head(line_begin(lo, 160), when, wlen, kind, state, run);
    at = line_int(at, node);
    line_end(lo, pev_tail(at, kind, state, run, tr));
}

/* The kind whose queue holds the next event, earlier than t (INFINITY: any), or -1: the least
 * time, at equal times the least kind (the tie's top bits: ends before starts). */
static int pev_next(const struct paje_out *o, double t)
{
    int best = -1;
    double bt = 0;
    for (int kind = 0; kind < 4; kind++) {
        if (o->q[kind].len == 0)
            continue;
        double m = o->least[kind];
        if ((t == INFINITY || m < t) && (best < 0 || m < bt)) {
            best = kind;
            bt = m;
        }
    }
    return best;
}

/* The kind of the next second event to write, or -1: the least kind that has one. */
static int second_next(const struct paje_out *o)
{
    for (int kind = 0; kind < 4; kind++)
        if (o->second_at[kind] < o->second_len[kind])
            return kind;
    return -1;
}

/* Does the next second event, of kind sk, come before queue kind's least event (its time at
 * most the queue's)?  A queue's least event at the seconds' time goes out in this flush, so its
 * tie may be looked at (rq_top). */
static bool second_first(struct paje_out *o, int sk, int kind)
{
    if (o->least[kind] != o->second_time)
        return o->least[kind] > o->second_time;
    if (sk != kind)
        return sk < kind;
    return o->second[sk][o->second_at[sk]].tie < rq_top(&o->q[kind])->tie;
}

static void second_add(struct paje_out *o, double time, int kind, uint32_t tie, int node)
{
    if (o->second_len[kind] == o->second_cap[kind]) {
        o->second_cap[kind] = o->second_cap[kind] ? 2 * o->second_cap[kind] : 256;
        o->second[kind] = xrealloc(o->second[kind], o->second_cap[kind] * sizeof *o->second[kind]);
    }
    o->second[kind][o->second_len[kind]++] = (struct pev_item){tie, node};
    o->second_time = time;   /* the seconds waiting, if any, have this time too */
}

/* The run of booking g (counted over all runs). */
static int pev_run(const struct paje_out *o, long long g)
{
    int run = 0;
    while (run + 1 < o->k && o->first[run + 1] <= g)
        run++;
    return run;
}

/* An event's line. */
static void pev_write(struct paje_out *o, double time, int kind, int state, long long g, int node)
{
    int run = pev_run(o, g);
    if (o->lo) {
        size_t len;
        const char *when = numfmt_num_cached(time, &len);
        pev_line_fast(o->lo, when, len, kind, state, run, node, g - o->first[run]);
    } else {
        pev_line(o->fp, time, kind, state, run, node, g - o->first[run]);
    }
}

/* Write the queues' events earlier than t (INFINITY: all), in (time, tie) order over all four,
 * and the second events of pairs as their firsts go out. */
static void pev_flush(struct paje_out *o, double t)
{
    for (;;) {
        int kind = pev_next(o, t), sk = second_next(o);
        if (sk >= 0 && (kind < 0 || second_first(o, sk, kind))) {
            const struct pev_item *e = &o->second[sk][o->second_at[sk]++];
            long long g = (long long)(e->tie >> 2 & ((1u << 28) - 1));
            pev_write(o, o->second_time, sk, (int)(e->tie & 3), g, e->node);
            if (o->second_at[sk] == o->second_len[sk])
                o->second_at[sk] = o->second_len[sk] = 0;
            continue;
        }
        if (kind < 0)
            return;
        struct radixq *q = &o->q[kind];
        const struct rq_item *v = rq_top(q);
        double time = rq_time(v);
        int state = (int)(v->tie & 3);
        uint32_t val = (uint32_t)v->val;
        int node = (int)(val & ~PEV_FOLLOWED);
        long long g = (long long)(v->tie >> 2 & ((1u << 28) - 1));
        rq_pop(q);
        o->least[kind] = rq_min_time(q);
        pev_write(o, time, kind, state, g, node);
        if (val & PEV_FOLLOWED) {
            int kind2 = follower_kind[kind == PEV_PUSH][state];
            int state2 = follower_state[kind == PEV_PUSH][state];
            second_add(o, time, kind2, (uint32_t)kind2 << 30 | (uint32_t)g << 2 | (uint32_t)state2,
                       state2 == 1 ? o->to[g] : node);
        }
    }
}

/*
 * The fast path's events by time (fnf on 10^6 two-decimal nodes: 8 million events at 10 304
 * times).  Each time has a list of its events in the order they are made, which is the order of
 * their ties within each kind (the bookings in order, a booking's states in order, as in
 * pev_booking); the times wait in a radix queue of their own, one item a time, so an event
 * costs a look-up in a hash table of the times waiting and a store, not a queue's push and
 * pop.  A time goes out, kind by kind, when it is earlier than the watermark, as the queues'
 * events would: the same lines in the same order.  An event is 8 bytes in chunks of
 * PT_CHUNK; when the lists would take more than twice what the queues take (16 bytes an
 * event) and more than 1 MiB -- times that seldom repeat -- their events move to the queues
 * (pt_to_queues) and the run goes on there.
 */
#define PT_CHUNK 30
#define PT_HEAD (NUMFMT_SIZE + 48)   /* a line's head: 2 + 31 + 4 + 11 + 6 + 11 + 1 bytes at most */

struct pt_chunk {
    struct pt_chunk *next;
    uint32_t n;
    struct pev_item ev[PT_CHUNK];
};

struct pt_time {
    uint64_t key;   /* time_key of the time */
    struct pt_chunk *head[4], *tail[4];   /* by kind, NULL: none yet */
    bool used;                             /* false: free */
};

struct pt_slot {
    uint64_t key;
    uint32_t idx1;   /* the time's index + 1, or 0: free */
};

struct pev_times {
    struct pt_time *t;    /* the times, by index; those freed listed in free_t */
    uint32_t *free_t;
    size_t nt, cap_t, nfree;
    struct pt_slot *slot; /* open addressing on the key, linear probing */
    size_t cap_slot;      /* 2^slot_bits, at least twice the times waiting */
    int slot_bits;
    struct radixq order;  /* the times waiting: val their index */
    struct pt_chunk *spare;   /* chunks handed back */
    struct pt_chunk **slab;   /* every chunk's allocation, PT_SLAB chunks each */
    size_t nslab, cap_slab, chunks;   /* chunks in use */
    size_t live, events;      /* times and events waiting */
    uint64_t last_key;        /* the last time looked up, and its index (last_idx + 1, or 0) */
    uint32_t last_idx1;
};

#define PT_SLAB 256

/* Fibonacci hashing: the product's top bits. */
static size_t pt_hash(const struct pev_times *p, uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - p->slot_bits));
}

static struct pev_times *pt_new(void)
{
    struct pev_times *p = xcalloc(1, sizeof *p);
    p->slot_bits = 10;
    p->cap_slot = (size_t)1 << p->slot_bits;
    p->slot = xcalloc(p->cap_slot, sizeof *p->slot);
    rq_init(&p->order);
    return p;
}

static void pt_free(struct pev_times *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nslab; i++)
        free(p->slab[i]);
    free(p->slab);
    free(p->t);
    free(p->free_t);
    free(p->slot);
    rq_free(&p->order);
    free(p);
}

static void pt_rehash(struct pev_times *p)
{
    free(p->slot);
    p->cap_slot *= 2;
    p->slot_bits++;
    p->slot = xcalloc(p->cap_slot, sizeof *p->slot);
    for (size_t i = 0; i < p->nt; i++) {
        if (!p->t[i].used)
            continue;
        size_t h = pt_hash(p, p->t[i].key);
        while (p->slot[h].idx1)
            h = (h + 1) & (p->cap_slot - 1);
        p->slot[h] = (struct pt_slot){p->t[i].key, (uint32_t)i + 1};
    }
}

static struct pt_chunk *pt_chunk_new(struct pev_times *p)
{
    if (!p->spare) {
        if (p->nslab == p->cap_slab) {
            p->cap_slab = p->cap_slab ? 2 * p->cap_slab : 64;
            p->slab = xrealloc(p->slab, p->cap_slab * sizeof *p->slab);
        }
        struct pt_chunk *s = xmalloc(PT_SLAB * sizeof *s);
        p->slab[p->nslab++] = s;
        for (int i = PT_SLAB - 1; i >= 0; i--) {
            s[i].next = p->spare;
            p->spare = &s[i];
        }
    }
    struct pt_chunk *c = p->spare;
    p->spare = c->next;
    c->next = NULL;
    c->n = 0;
    p->chunks++;
    return c;
}

/* A new time's index, its lists empty. */
static uint32_t pt_time_new(struct pev_times *p, uint64_t key)
{
    uint32_t idx;
    if (p->nfree) {
        idx = p->free_t[--p->nfree];
    } else {
        if (p->nt == p->cap_t) {
            p->cap_t = p->cap_t ? 2 * p->cap_t : 1024;
            p->t = xrealloc(p->t, p->cap_t * sizeof *p->t);
            p->free_t = xrealloc(p->free_t, p->cap_t * sizeof *p->free_t);
        }
        idx = (uint32_t)p->nt++;
    }
    p->t[idx] = (struct pt_time){.key = key, .used = true};
    p->live++;
    rq_push(&p->order, key_time(key), 0, (int32_t)idx);
    return idx;
}

/* The index of the time of key, made if it is not waiting. */
static uint32_t pt_find(struct pev_times *p, uint64_t key)
{
    if (p->last_idx1 && p->last_key == key)
        return p->last_idx1 - 1;
    size_t h = pt_hash(p, key);
    for (uint32_t s; (s = p->slot[h].idx1); h = (h + 1) & (p->cap_slot - 1))
        if (p->slot[h].key == key) {
            p->last_key = key;
            p->last_idx1 = s;
            return s - 1;
        }
    uint32_t idx = pt_time_new(p, key);
    p->slot[h] = (struct pt_slot){key, idx + 1};
    if (2 * p->live > p->cap_slot)
        pt_rehash(p);
    p->last_key = key;
    p->last_idx1 = idx + 1;
    return idx;
}

/* Take time idx out of the table (backward-shift deletion) and hand its chunks back. */
static void pt_time_free(struct pev_times *p, uint32_t idx)
{
    size_t mask = p->cap_slot - 1, i = pt_hash(p, p->t[idx].key);
    while (p->slot[i].idx1 != idx + 1)
        i = (i + 1) & mask;
    for (size_t j = i;;) {
        j = (j + 1) & mask;
        if (!p->slot[j].idx1)
            break;
        size_t home = pt_hash(p, p->slot[j].key);
        /* slot j's entry may fill the hole at i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            p->slot[i] = p->slot[j];
            i = j;
        }
    }
    p->slot[i].idx1 = 0;
    for (int kind = 0; kind < 4; kind++)
        for (struct pt_chunk *c = p->t[idx].head[kind], *next; c; c = next) {
            next = c->next;
            p->events -= c->n;
            c->next = p->spare;
            p->spare = c;
            p->chunks--;
        }
    p->t[idx].used = false;
    p->free_t[p->nfree++] = idx;
    p->live--;
    if (p->last_idx1 == idx + 1)
        p->last_idx1 = 0;
}

static void pt_add(struct pev_times *p, double time, int kind, long long g, int node, int state)
{
    uint32_t idx = pt_find(p, time_key(time));   /* before p->t is read: it may move */
    struct pt_time *t = &p->t[idx];
    struct pt_chunk *c = t->tail[kind];
    if (!c) {
        c = t->head[kind] = t->tail[kind] = pt_chunk_new(p);
    } else if (c->n == PT_CHUNK) {
        c = c->next = pt_chunk_new(p);
        t->tail[kind] = c;
    }
    c->ev[c->n++] = (struct pev_item){(uint32_t)kind << 30 | (uint32_t)g << 2 | (uint32_t)state, node};
    p->events++;
}

/* Booking u's events (g: its number over all runs) into the lists: pev_booking's, unpaired,
 * each kind's in the order of their states. */
static void pt_booking(struct pev_times *p, const struct transfer *u, long long g)
{
    bool send = u->send_end > u->start, link = u->link_end > u->link_start,
         recv = u->recv_end > u->recv_start;
    if (send) {
        pt_add(p, u->start, PEV_PUSH, g, u->from, 0);
        pt_add(p, u->send_end, PEV_POP, g, u->from, 0);
    }
    if (link) {
        pt_add(p, u->link_start, PEV_PUSH, g, u->to, 1);
        pt_add(p, u->link_end, PEV_POP, g, u->to, 1);
    }
    if (recv) {
        pt_add(p, u->recv_start, PEV_PUSH, g, u->to, 2);
        pt_add(p, u->recv_end, PEV_POP, g, u->to, 2);
    }
    pt_add(p, u->start, PEV_START_LINK, g, u->from, 3);
    pt_add(p, u->hold, PEV_END_LINK, g, u->to, 3);
}

/* The heads of one time's lines in one run, up to the node: "6 T S r0n" (a push, by state),
 * "7 T S r0n" (a pop), "8 T M r0 msg r0n" (an arrow's start), "9 T M r0 msg r0n". */
struct pt_heads {
    char when[NUMFMT_SIZE];   /* T, wlen bytes */
    size_t wlen;
    int run;                  /* the run they were made for, or -1 */
    char text[8][PT_HEAD];    /* by pt_head_no */
    unsigned char len[8];
};

static int pt_head_no(int kind, int state)
{
    return kind == PEV_PUSH ? state : kind == PEV_POP ? 3 + state : kind == PEV_START_LINK ? 6 : 7;
}

static void pt_heads_make(struct pt_heads *h, int run)
{
    h->run = run;
    for (int kind = 0; kind < 4; kind++)
        for (int state = 0; state < (kind == PEV_PUSH || kind == PEV_POP ? 3 : 1); state++) {
            int no = pt_head_no(kind, state);
            char *at = pev_head(h->text[no], h->when, h->wlen, kind, state, run);
            h->len[no] = (unsigned char)(at - h->text[no]);
        }
}

/* pev_line_fast's line from the head made for its time and run (tr: the transfer in the run). */
static void pt_line(struct line_out *lo, const struct pt_heads *h, int kind, int state, int node,
                    long long tr)
{
    int no = pt_head_no(kind, state);
    char *at = line_begin(lo, PT_HEAD + 64);
    memcpy(at, h->text[no], PT_HEAD);   /* whole: a copy of known length */
    at = line_int(at + h->len[no], node);
    line_end(lo, pev_tail(at, kind, state, h->run, tr));
}

/* A chunk written long ago is read at a random place: ask for all of it (NULL: nothing). */
static void pt_prefetch(const struct pt_chunk *c)
{
    if (!c)
        return;
    for (size_t at = 0; at < sizeof *c; at += 64)
        __builtin_prefetch((const char *)c + at);
}

/* Write the times earlier than t (INFINITY: all), each kind by kind. */
static void pt_flush(struct paje_out *o, double t)
{
    struct pev_times *p = o->pt;
    while (p->order.len > 0 && (t == INFINITY || rq_min_time(&p->order) < t)) {
        const struct rq_item *v = rq_top(&p->order);
        uint32_t idx = (uint32_t)v->val;
        rq_pop(&p->order);
        struct pt_heads h = {.run = -1};   /* zeroed: a head is copied whole */
        size_t len;
        const char *text = numfmt_num_cached(key_time(p->t[idx].key), &len);
        memcpy(h.when, text, len);
        h.wlen = len;
        for (int kind = 0; kind < 4; kind++)
            for (const struct pt_chunk *c = p->t[idx].head[kind]; c; c = c->next) {
                pt_prefetch(c->next ? c->next : kind < 3 ? p->t[idx].head[kind + 1] : NULL);
                for (uint32_t i = 0; i < c->n; i++) {
                    uint32_t tie = c->ev[i].tie;
                    long long g = (long long)(tie >> 2 & ((1u << 28) - 1));
                    int run = pev_run(o, g);
                    if (run != h.run)
                        pt_heads_make(&h, run);
                    pt_line(o->lo, &h, kind, (int)(tie & 3), c->ev[i].node, g - o->first[run]);
                }
            }
        pt_time_free(p, idx);
    }
}

/* Do the lists take more than twice what the queues would (16 bytes an event), past 1 MiB? */
static bool pt_too_big(const struct pev_times *p)
{
    size_t bytes = p->chunks * sizeof(struct pt_chunk) + p->live * (sizeof(struct pt_time) + 8);
    return bytes > ((size_t)1 << 20) && bytes > 32 * p->events;
}

/* The lists' events into the queues, unpaired (their order there is theirs here), and the lists
 * gone: the run goes on in the queues. */
static void pt_to_queues(struct paje_out *o)
{
    struct pev_times *p = o->pt;
    for (size_t idx = 0; idx < p->nt; idx++)
        for (int kind = 0; p->t[idx].used && kind < 4; kind++)
            for (const struct pt_chunk *c = p->t[idx].head[kind]; c; c = c->next)
                for (uint32_t i = 0; i < c->n; i++) {
                    uint32_t tie = c->ev[i].tie;
                    pev_add(o, key_time(p->t[idx].key), kind, tie >> 2 & ((1u << 28) - 1),
                            c->ev[i].node, (int)(tie & 3), false);
                }
    pt_free(p);
    o->pt = NULL;
}

/* The bookings of runs[0..k) one after the other, runs[0]'s from sp when not NULL. */
struct all_bookings {
    const struct run *runs;
    int k, at_run;   /* the run being read */
    struct spool *sp;
    struct spool_cursor at;
};

static void all_start(struct all_bookings *a, const struct run *runs, int k, struct spool *sp)
{
    *a = (struct all_bookings){.runs = runs, .k = k, .sp = sp};
    spool_cursor_start(&a->at, &runs[0].eng, sp);
    a->at.names = false;   /* Paje names nodes by number */
}

static const struct transfer *all_next(struct all_bookings *a)
{
    for (;;) {
        const struct transfer *t = spool_cursor_next(&a->at);
        if (t || a->at_run + 1 >= a->k)
            return t;
        spool_cursor_end(&a->at);
        a->at_run++;
        spool_cursor_start(&a->at, &a->runs[a->at_run].eng, NULL);
        a->at.names = false;
    }
}

static void all_end(struct all_bookings *a)
{
    spool_cursor_end(&a->at);
}

/* For each of the nblocks blocks of PAJE_BLOCK bookings (total over all runs), the least start
 * from that block on (a first pass over the bookings; the spool kept each block's as it was
 * written). */
static double *least_from_block(const struct run *runs, int k, struct spool *sp, long long total,
                                long long nblocks)
{
    double *from_block = xmalloc((size_t)nblocks * sizeof *from_block);
    for (long long b = 0; b < nblocks; b++)
        from_block[b] = INFINITY;
    if (k == 1 && sp) {
        for (long long b = 0; b * PAJE_BLOCK < total; b++)
            from_block[b] = spool_least(sp, b);
    } else {
        struct all_bookings all;
        all_start(&all, runs, k, sp);
        for (long long g = 0; g < total; g++) {
            const struct transfer *t = all_next(&all);
            if (t && earliest(t) < from_block[g / PAJE_BLOCK])
                from_block[g / PAJE_BLOCK] = earliest(t);
        }
        all_end(&all);
    }
    for (long long b = nblocks - 2; b >= 0; b--)
        if (from_block[b + 1] < from_block[b])
            from_block[b] = from_block[b + 1];
    return from_block;
}

/* The length of s when it goes into a Paje string as it is (no byte to escape) and is at most
 * max bytes, else (size_t)-1. */
static size_t paje_bare_len(const char *s, size_t max)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
        if (*p < 0x20 || *p == 0x7f || *p == '"' || *p == '\\' || n >= max)
            return (size_t)-1;
    return n;
}

/* Run r's nodes as containers at time 0: "4 0 r0n3 N r0 NAME"; into lo's block (the fast path)
 * where the name needs no escape, when lo is not NULL. */
static void node_containers(FILE *fp, struct line_out *lo, const struct run *ru, int r)
{
    enum { NAME_MAX_IN_LINE = 200 };
    for (int p = 0; p < ru->c->n; p++) {
        const char *name = ru->c->nodes[p].name;
        size_t len = lo ? paje_bare_len(name, NAME_MAX_IN_LINE) : (size_t)-1;
        if (len == (size_t)-1) {
            if (lo)
                line_flush(lo);
            fprintf(fp, "4 0 r%dn%d N r%d ", r, p, r);
            export_paje_string(fp, name);
            fputc('\n', fp);
            continue;
        }
        char *at = LINE_LIT(line_begin(lo, NAME_MAX_IN_LINE + 80), "4 0 r");
        at = line_int(at, r);
        at = line_char(at, 'n');
        at = line_int(at, p);
        at = LINE_LIT(at, " N r");
        at = line_int(at, r);
        at = LINE_LIT(at, " \"");
        at = line_str(at, name, len);
        at = LINE_LIT(at, "\"\n");
        line_end(lo, at);
    }
}

/* Run r's nodes' containers destroyed at when: "5 WHEN N r0n3"; into lo's block when not NULL. */
static void node_ends(FILE *fp, struct line_out *lo, const struct run *ru, int r, const char *when)
{
    if (!lo) {
        for (int p = 0; p < ru->c->n; p++)
            fprintf(fp, "5 %s N r%dn%d\n", when, r, p);
        return;
    }
    char head[NUMFMT_SIZE + 32];
    char *h = LINE_LIT(head, "5 ");
    h = line_str(h, when, strlen(when));
    h = LINE_LIT(h, " N r");
    h = line_int(h, r);
    h = line_char(h, 'n');
    for (int p = 0; p < ru->c->n; p++) {
        char *at = line_str(line_begin(lo, sizeof head + 24), head, (size_t)(h - head));
        at = line_int(at, p);
        at = line_char(at, '\n');
        line_end(lo, at);
    }
}

int export_paje(FILE *fp, const struct run *runs, int k)
{
    return paje_write(fp, runs, k, NULL);
}

int export_paje_spool(FILE *fp, const struct run *r, struct spool *sp, char **cause)
{
    errno = 0;
    if (paje_write(fp, r, 1, sp) < 0 && errno == EFBIG)
        return set_cause(cause, "a Paje trace holds at most %lld transfers", PAJE_MAX_TRANSFERS);
    return spool_check(sp, cause);   /* standard output's errors are the caller's */
}

/* export_paje; runs[0]'s bookings from sp when not NULL (k is then 1). */
static int paje_write(FILE *fp, const struct run *runs, int k, struct spool *sp)
{
    long long total = 0;
    for (int r = 0; r < k; r++)
        total += r == 0 && sp ? sp->n : runs[r].eng.ntr;
    if (total > PAJE_MAX_TRANSFERS) {
        errno = EFBIG;
        return -1;
    }
    struct line_out *lo = NULL;   /* the fast path's lines, built by hand (output/export_line.h) */
    if (FAST_PATH(true)) {
        lo = xmalloc(sizeof *lo);
        lo->fp = fp;
        lo->n = 0;
    }
    /* the unit in the run's type name: every line is one a Paje reader knows (ViTE reports a
     * comment line as an unknown definition) */
    fputs(paje_header, fp);
    if (k > 0 && time_unit_name(runs[0].c->time_unit))
        fprintf(fp, "0 R 0 \"run (times in %s)\"\n", time_unit_name(runs[0].c->time_unit));
    else
        fputs("0 R 0 \"run\"\n", fp);
    fputs(paje_types, fp);
    double end = 0;
    for (int r = 0; r < k; r++)
        if (runs[r].eng.makespan > end)
            end = runs[r].eng.makespan;
    /* containers: a run, then its nodes, all at time 0 */
    for (int r = 0; r < k; r++) {
        const struct run *ru = &runs[r];
        fprintf(fp, "4 0 r%d R 0 ", r);
        char name[320];
        text_fit(name, sizeof name, "%s (%s%s)", ru->sched.ops->name, model_name(ru->model),
                 ru->measured ? ", measured" : "");
        export_paje_string(fp, name);
        fputc('\n', fp);
        node_containers(fp, lo, ru, r);
        if (lo)
            line_flush(lo);
    }
    struct paje_out o = {.fp = fp, .lo = lo, .k = k, .first = xmalloc(((size_t)k + 1) * sizeof *o.first)};
    total = 0;
    for (int r = 0; r < k; r++) {
        o.first[r] = total;
        total += r == 0 && sp ? sp->n : runs[r].eng.ntr;
    }
    o.first[k] = total;
    long long nblocks = total / PAJE_BLOCK + 1;
    double *from_block = least_from_block(runs, k, sp, total, nblocks);
    struct all_bookings all;
    /* a block at a time, with the least start still to come at each booking */
    struct transfer *block = xmalloc(PAJE_BLOCK * sizeof *block);
    double *rest = xmalloc(PAJE_BLOCK * sizeof *rest);
    for (int kind = 0; kind < 4; kind++) {
        rq_init(&o.q[kind]);
        o.least[kind] = INFINITY;
    }
    bool paired = lo != NULL;   /* the fast path: a queued event carries the next (pev_booking) */
    o.to = paired ? xmalloc((size_t)(total > 0 ? total : 1) * sizeof *o.to) : NULL;
    o.pt = paired ? pt_new() : NULL;
    all_start(&all, runs, k, sp);
    for (long long b = 0; b * PAJE_BLOCK < total; b++) {
        int nb = 0;
        for (const struct transfer *t; nb < PAJE_BLOCK && (t = all_next(&all));)
            block[nb++] = *t;
        double later = b + 1 < nblocks ? from_block[b + 1] : INFINITY;
        for (int i = nb - 1; i >= 0; i--) {
            later = earliest(&block[i]) < later ? earliest(&block[i]) : later;
            rest[i] = later;
        }
        for (int i = 0; i < nb; i++) {
            const struct transfer *u = &block[i];
            long long g = b * PAJE_BLOCK + i;
            if (paired)
                o.to[g] = u->to;
            if (o.pt) {
                pt_flush(&o, rest[i]);
                pt_booking(o.pt, u, g);
                if (pt_too_big(o.pt))
                    pt_to_queues(&o);
                continue;
            }
            pev_flush(&o, rest[i]);
            pev_booking(&o, u, g, paired);
        }
    }
    all_end(&all);
    if (o.pt)
        pt_flush(&o, INFINITY);
    pt_free(o.pt);
    pev_flush(&o, INFINITY);
    if (lo)
        line_flush(lo);
    for (int kind = 0; kind < 4; kind++)
        rq_free(&o.q[kind]);
    for (int kind = 0; kind < 4; kind++)
        free(o.second[kind]);
    free(o.to);
    free(block);
    free(rest);
    free(from_block);
    free(o.first);
    /* the containers end with the latest makespan, nodes before their run */
    const char *when = numfmt_num(end);
    for (int r = 0; r < k; r++) {
        node_ends(fp, lo, &runs[r], r, when);
        if (lo)
            line_flush(lo);
        fprintf(fp, "5 %s R r%d\n", when, r);
    }
    free(lo);
    return ferror(fp) ? -1 : 0;
}
