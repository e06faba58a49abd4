/*
 * output/export_chrome.c - schedules as Chrome trace-event JSON
 * (output/export_interop.h), the format that Perfetto's viewer
 * (ui.perfetto.dev) and chrome://tracing open: a process per node of each
 * run, a thread per port (send port, link in, receive port), a complete
 * event ("ph": "X") per busy interval whose args name its transfer (the
 * send's, one a transfer, also its times and the reason it was chosen:
 * said once, not three times), metadata events naming every process and
 * thread, and a flow ("ph": "s" then "f") per transfer from its send slice
 * to its receive slice, which Perfetto draws as an arrow from the sender to
 * the receiver.  Intervals that overlap on one port go to a second thread
 * of that port ("send port 2"), so that no two events of one thread cross.  User
 * text reaches the file only as JSON strings, through export_chrome_string;
 * the intervals and their lanes are output/export_lanes.h's.
 */
#include "output/export_interop.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "output/export_lanes.h"
#include "output/export_line.h"
#include "support/fastpath.h"
#include "support/numfmt.h"

void export_chrome_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (int k; s && *s; s += k) {
        k = text_char(s);
        unsigned char ch = (unsigned char)*s;
        if (k > 0) {
            if (ch == '"' || ch == '\\')
                fputc('\\', fp);
            fwrite(s, 1, (size_t)k, fp);
        } else if (ch == '\n') {
            fputs("\\n", fp), k = 1;
        } else if (ch == '\t') {
            fputs("\\t", fp), k = 1;
        } else {
            fprintf(fp, "\\\\x%02x", ch), k = 1;   /* shown as the text \xNN */
        }
    }
    fputc('"', fp);
}

double export_seconds_per_unit(const struct cluster *c)
{
    return c->time_unit == TIME_NONE ? EXPORT_ABSTRACT_SECONDS : time_unit_seconds(c->time_unit);
}

const char *export_unit_text(const struct cluster *c)
{
    return c->time_unit == TIME_NONE ? "none (abstract units, each drawn as 1 s)"
                                     : time_unit_name(c->time_unit);
}

/* A time of the run in microseconds, rounded to 12 digits (1.001 s is 1001000 us, not
 * 1001000.0000000001). */
static const char *usec(double t, double us_per_unit)
{
    return numfmt_num(numfmt_round(t * us_per_unit, 12));
}

/* ---- the fast path: events built by hand into a block (output/export_line.h) ---- */

/* The length of s when it goes into a JSON string as it is (printable ASCII but '"' and '\\', as
 * export_chrome_string writes it unchanged) and is at most max bytes, else (size_t)-1. */
static size_t chrome_bare_len(const char *s, size_t max)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++, n++)
        if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\' || n >= max)
            return (size_t)-1;
    return n;
}

/* A JSON string of n bytes that need no escape. */
static char *line_jstr(char *at, const char *s, size_t n)
{
    at = line_char(at, '"');
    at = line_str(at, s, n);
    return line_char(at, '"');
}

/* usec's text, through numfmt_scaled_cached: the rounding (a %.12g and a strtod) is paid
 * once a time, not eight times a transfer. */
static char *line_usec(char *at, double t, double us_per_unit)
{
    size_t len;
    const char *text = numfmt_scaled_cached(t, us_per_unit, &len);
    return line_str(at, text, len);
}

/* The thread of a lane of a port: ports in the order send, link, receive; lanes after. */
static int tid_of(int port, int lane)
{
    return lane * NPORTS + port + 1;
}

/* A slice's args: the transfer's number and nodes (and piece); on its send slice (every
 * transfer has one) its times and reason too, once. */
static void event_args(FILE *fp, const struct run *ru, const struct transfer *t, bool full)
{
    const char *from = ru->c->nodes[t->from].name, *to = ru->c->nodes[t->to].name;
    fprintf(fp, "\"args\": {\"seq\": %d, \"from\": ", t->seq + 1);
    export_chrome_string(fp, from);
    fputs(", \"to\": ", fp);
    export_chrome_string(fp, to);
    if (ru->eng.nmsg > 1 && !ru->eng.personal)   /* a slice or a segment: its number */
        fprintf(fp, ", \"%s\": %d", engine_piece_name(&ru->eng), t->msg + 1);
    if (!full) {
        fputc('}', fp);
        return;
    }
    const double v[7] = {t->start, t->send_end, t->link_start, t->link_end, t->recv_start,
                         t->recv_end, t->hold};
    static const char *const key[7] = {"send_start", "send_end", "link_start", "link_end",
                                       "recv_start", "recv_end", "hold"};
    for (int i = 0; i < 7; i++)
        fprintf(fp, ", \"%s\": %s", key[i], numfmt_num(v[i]));
    fputs(", \"why\": ", fp);
    char *tmp;
    export_chrome_string(fp, engine_reason(&ru->eng, t, &tmp));
    free(tmp);
    fputc('}', fp);
}

/* What goes before the next event: nothing before the first, a comma and a line break after. */
static const char *next_event(bool *first)
{
    const char *sep = *first ? "" : ",\n";
    *first = false;
    return sep;
}

static void metadata(FILE *fp, bool *first, const char *what, int pid, int tid, const char *name,
                     int sort)
{
    fprintf(fp, "%s{\"name\": \"%s\", \"ph\": \"M\", \"ts\": 0, \"pid\": %d, \"tid\": %d, "
                "\"args\": {\"name\": ", next_event(first), what, pid, tid);
    export_chrome_string(fp, name);
    fprintf(fp, "}},\n{\"name\": \"%s_sort_index\", \"ph\": \"M\", \"ts\": 0, \"pid\": %d, "
                "\"tid\": %d, \"args\": {\"sort_index\": %d}}",
            strcmp(what, "process_name") == 0 ? "process" : "thread", pid, tid, sort);
}

/* metadata's bytes, into lo's block when lo is not NULL and the name needs no escape. */
static void metadata_to(FILE *fp, struct line_out *lo, bool *first, bool process, int pid, int tid,
                        const char *name, int sort)
{
    size_t ln = lo ? chrome_bare_len(name, 1024) : (size_t)-1;
    if (ln == (size_t)-1) {
        if (lo)
            line_flush(lo);
        metadata(fp, first, process ? "process_name" : "thread_name", pid, tid, name, sort);
        return;
    }
    const char *sep = next_event(first);
    char *at = line_str(line_begin(lo, ln + 400), sep, strlen(sep));
    at = process ? LINE_LIT(at, "{\"name\": \"process_name\"") : LINE_LIT(at, "{\"name\": \"thread_name\"");
    at = LINE_LIT(at, ", \"ph\": \"M\", \"ts\": 0, \"pid\": ");
    at = line_int(at, pid);
    at = LINE_LIT(at, ", \"tid\": ");
    at = line_int(at, tid);
    at = LINE_LIT(at, ", \"args\": {\"name\": ");
    at = line_jstr(at, name, ln);
    at = process ? LINE_LIT(at, "}},\n{\"name\": \"process_sort_index\"")
                 : LINE_LIT(at, "}},\n{\"name\": \"thread_sort_index\"");
    at = LINE_LIT(at, ", \"ph\": \"M\", \"ts\": 0, \"pid\": ");
    at = line_int(at, pid);
    at = LINE_LIT(at, ", \"tid\": ");
    at = line_int(at, tid);
    at = LINE_LIT(at, ", \"args\": {\"sort_index\": ");
    at = line_int(at, sort);
    at = LINE_LIT(at, "}}");
    line_end(lo, at);
}

/* The middle of a slot, where its flow event binds (inside it: "enclosing slice"). */
static double slot_middle(const struct port_slot *v)
{
    return v->start + (v->end - v->start) / 2;
}

static void flow_event(FILE *fp, struct line_out *lo, const struct run *runs,
                       const struct port_slot *v, char ph, long id, double us_per_unit)
{
    if (!lo) {
        fprintf(fp, ",\n{\"name\": \"message\", \"cat\": \"transfer\", \"ph\": \"%c\", \"id\": %ld, "
                    "\"ts\": %s, \"pid\": %d, \"tid\": %d%s}",
                ph, id, usec(slot_middle(v), us_per_unit), port_slots_proc(runs, v->run, v->node),
                tid_of(v->port, v->lane), ph == 'f' ? ", \"bp\": \"e\"" : "");
        return;
    }
    char *at = LINE_LIT(line_begin(lo, NUMFMT_SIZE + 160),
                        ",\n{\"name\": \"message\", \"cat\": \"transfer\", \"ph\": \"");
    at = line_char(at, ph);
    at = LINE_LIT(at, "\", \"id\": ");
    at = line_int(at, id);
    at = LINE_LIT(at, ", \"ts\": ");
    at = line_usec(at, slot_middle(v), us_per_unit);
    at = LINE_LIT(at, ", \"pid\": ");
    at = line_int(at, port_slots_proc(runs, v->run, v->node));
    at = LINE_LIT(at, ", \"tid\": ");
    at = line_int(at, tid_of(v->port, v->lane));
    if (ph == 'f')
        at = LINE_LIT(at, ", \"bp\": \"e\"");
    at = line_char(at, '}');
    line_end(lo, at);
}

/*
 * A flow per transfer, id from 1 in (run, transfer) order: its start in the sender's send
 * slice, its end in the receiver's receive slice (the link slice when the receive takes no
 * time, the send slice's time on the receive port when neither takes any).
 */
static void flows(FILE *fp, struct line_out *lo, const struct run *runs, int k,
                  const struct port_slots *ps, double us_per_unit)
{
    long *base = xcalloc((size_t)k + 1, sizeof *base);
    for (int r = 0; r < k; r++)
        base[r + 1] = base[r] + runs[r].eng.ntr;
    long *send = xmalloc((size_t)(base[k] > 0 ? base[k] : 1) * sizeof *send);
    long *in = xmalloc((size_t)(base[k] > 0 ? base[k] : 1) * sizeof *in);
    for (long x = 0; x < base[k]; x++)
        send[x] = in[x] = -1;
    for (long i = 0; i < ps->n; i++) {
        const struct port_slot *v = &ps->v[i];
        long x = base[v->run] + v->tr;
        if (v->port == PORT_SEND)
            send[x] = i;
        else if (v->port == PORT_RECV || in[x] < 0)   /* the receive, else the link */
            in[x] = i;
    }
    for (long x = 0; x < base[k]; x++) {
        if (x + 16 < base[k] && send[x + 16] >= 0)   /* the slots are read at random places */
            __builtin_prefetch(&ps->v[send[x + 16]]);
        if (x + 16 < base[k] && in[x + 16] >= 0)
            __builtin_prefetch(&ps->v[in[x + 16]]);
        if (send[x] < 0)
            continue;
        const struct port_slot *s = &ps->v[send[x]];
        flow_event(fp, lo, runs, s, 's', x + 1, us_per_unit);
        struct port_slot end = *s;   /* nothing busy on the receiver: at the send's time */
        if (in[x] >= 0) {
            end = ps->v[in[x]];
        } else {
            end.node = runs[s->run].eng.tr[s->tr].to;
            end.port = PORT_RECV;
            end.lane = 0;
        }
        flow_event(fp, lo, runs, &end, 'f', x + 1, us_per_unit);
    }
    free(send);
    free(in);
    free(base);
}

/* A busy interval's complete event, readably. */
static void slice_event(FILE *fp, bool *first, const struct run *runs, const struct port_slot *v,
                        double us_per_unit)
{
    const struct run *ru = &runs[v->run];
    const struct transfer *t = &ru->eng.tr[v->tr];
    char name[512];
    if (ru->eng.nmsg > 1 && !ru->eng.personal)
        text_fit(name, sizeof name, "%s -> %s (%s %d)", ru->c->nodes[t->from].name,
                 ru->c->nodes[t->to].name, engine_piece_name(&ru->eng), t->msg + 1);
    else
        text_fit(name, sizeof name, "%s -> %s", ru->c->nodes[t->from].name, ru->c->nodes[t->to].name);
    fprintf(fp, "%s{\"name\": ", next_event(first));
    export_chrome_string(fp, name);
    fprintf(fp, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %s, ", port_short[v->port],
            usec(v->start, us_per_unit));
    fprintf(fp, "\"dur\": %s, \"pid\": %d, \"tid\": %d, ", usec(v->end - v->start, us_per_unit),
            port_slots_proc(runs, v->run, v->node), tid_of(v->port, v->lane));
    event_args(fp, ru, t, v->port == PORT_SEND);
    fputc('}', fp);
}

/* chrome_bare_len of each name of a run's nodes, as ints (-1: not bare), found once, not for
 * each slice. */
struct bare_lens {
    int *name;
};

enum { NAME_MAX_IN_LINE = 200, WHY_MAX_IN_LINE = 4000 };   /* longer: the readable writer */

static struct bare_lens *bare_lens_make(const struct run *runs, int k)
{
    struct bare_lens *bl = xmalloc((size_t)(k > 0 ? k : 1) * sizeof *bl);
    for (int r = 0; r < k; r++) {
        const struct run *ru = &runs[r];
        bl[r].name = xmalloc((size_t)(ru->c->n > 0 ? ru->c->n : 1) * sizeof *bl[r].name);
        for (int p = 0; p < ru->c->n; p++)
            bl[r].name[p] = (int)chrome_bare_len(ru->c->nodes[p].name, NAME_MAX_IN_LINE);
    }
    return bl;
}

static void bare_lens_free(struct bare_lens *bl, int k)
{
    for (int r = 0; r < k; r++) {
        free(bl[r].name);
    }
    free(bl);
}

/* slice_event's bytes, built by hand into lo's block: false, writing nothing, when a name or
 * the reason needs an escape or is long (the readable path writes that event). */
static bool slice_event_fast(struct line_out *lo, bool *first, const struct run *runs,
                             const struct port_slot *v, double us_per_unit, const struct bare_lens *bl)
{
    const struct run *ru = &runs[v->run];
    const struct transfer *t = &ru->eng.tr[v->tr];
    const char *from = ru->c->nodes[t->from].name, *to = ru->c->nodes[t->to].name;
    int bf = bl[v->run].name[t->from], bt = bl[v->run].name[t->to];
    if (bf < 0 || bt < 0)
        return false;
    bool full = v->port == PORT_SEND;   /* the times and reason: on the send slice only */
    char *tmp = NULL;   /* a reason written when it is read (engine_reason) */
    const char *why = full ? engine_reason(&ru->eng, t, &tmp) : "";
    size_t lf = (size_t)bf, lt = (size_t)bt, lw = chrome_bare_len(why, WHY_MAX_IN_LINE);
    if (lw == (size_t)-1) {
        free(tmp);
        return false;
    }
    const char *piece = ru->eng.nmsg > 1 && !ru->eng.personal ? engine_piece_name(&ru->eng) : NULL;
    const char *sep = next_event(first);
    char *at = line_str(line_begin(lo, 2 * (lf + lt) + lw + 9 * NUMFMT_SIZE + 512), sep, strlen(sep));
    at = LINE_LIT(at, "{\"name\": \"");
    at = line_str(at, from, lf);
    at = LINE_LIT(at, " -> ");
    at = line_str(at, to, lt);
    if (piece) {
        at = LINE_LIT(at, " (");
        at = line_str(at, piece, strlen(piece));
        at = line_char(at, ' ');
        at = line_int(at, t->msg + 1);
        at = line_char(at, ')');
    }
    at = LINE_LIT(at, "\", \"cat\": \"");
    at = line_str(at, port_short[v->port], strlen(port_short[v->port]));
    at = LINE_LIT(at, "\", \"ph\": \"X\", \"ts\": ");
    at = line_usec(at, v->start, us_per_unit);
    at = LINE_LIT(at, ", \"dur\": ");
    at = line_usec(at, v->end - v->start, us_per_unit);
    at = LINE_LIT(at, ", \"pid\": ");
    at = line_int(at, port_slots_proc(runs, v->run, v->node));
    at = LINE_LIT(at, ", \"tid\": ");
    at = line_int(at, tid_of(v->port, v->lane));
    at = LINE_LIT(at, ", \"args\": {\"seq\": ");
    at = line_int(at, t->seq + 1);
    at = line_jstr(LINE_LIT(at, ", \"from\": "), from, lf);
    at = line_jstr(LINE_LIT(at, ", \"to\": "), to, lt);
    if (piece) {
        at = LINE_LIT(at, ", \"");
        at = line_str(at, piece, strlen(piece));
        at = LINE_LIT(at, "\": ");
        at = line_int(at, t->msg + 1);
    }
    if (full) {
        at = line_times(at, t);
        at = line_num(LINE_LIT(at, ", \"hold\": "), t->hold);
        at = line_jstr(LINE_LIT(at, ", \"why\": "), why, lw);
    }
    at = LINE_LIT(at, "}}");
    line_end(lo, at);
    free(tmp);
    return true;
}

/*
 * The slots are in (node, port, start) order, so each slice reads its transfer, the transfer's
 * two nodes, their names and its reason at random places: fetch the transfer of the slot 16
 * ahead, its nodes and lengths 8 ahead, the names and the reason 4 ahead.  Always inlined: GCC
 * finds a helper that only prefetches free of effects and drops its calls.
 */
static inline __attribute__((always_inline)) void slices_fetch_ahead(const struct run *runs,
                                                                     const struct port_slots *ps,
                                                                     long i,
                                                                     const struct bare_lens *bl)
{
    if (i + 16 < ps->n) {
        const struct port_slot *v = &ps->v[i + 16];
        const char *t = (const char *)&runs[v->run].eng.tr[v->tr];
        __builtin_prefetch(t);
        __builtin_prefetch(t + sizeof(struct transfer) - 1);
    }
    if (i + 8 < ps->n) {
        const struct port_slot *v = &ps->v[i + 8];
        const struct transfer *t = &runs[v->run].eng.tr[v->tr];
        const struct node *nodes = runs[v->run].c->nodes;
        __builtin_prefetch(&nodes[t->from]);
        __builtin_prefetch(&nodes[t->to]);
        __builtin_prefetch(&bl[v->run].name[t->from]);
        __builtin_prefetch(&bl[v->run].name[t->to]);
    }
    if (i + 4 < ps->n) {
        const struct port_slot *v = &ps->v[i + 4];
        const struct transfer *t = &runs[v->run].eng.tr[v->tr];
        const struct node *nodes = runs[v->run].c->nodes;
        __builtin_prefetch(nodes[t->from].name);
        __builtin_prefetch(nodes[t->to].name);
        if (v->port == PORT_SEND && t->reason)
            __builtin_prefetch(t->reason);
    }
}

/* The name of node p's process: the node's name (cut to size), after its run's scheduler when
 * there are k > 1 runs.  The name itself when it fits (what text_fit would copy), else buf. */
static const char *process_name(char *buf, size_t size, const struct run *ru, int k, int p)
{
    const char *node = ru->c->nodes[p].name;
    if (k == 1 && strlen(node) < size)
        return node;
    if (k == 1)
        text_fit(buf, size, "%s", node);
    else
        text_fit(buf, size, "%s%s: %s", ru->sched.ops->name, run_tag(ru), node);
    return buf;
}

/* Every pid and tid an event uses, named: the process of each node of each run and the three
 * ports of every node (an idle port is a named, empty track). */
static void name_tracks(FILE *fp, struct line_out *lo, bool *first, const struct run *runs, int k,
                        const struct port_slots *ps)
{
    for (int r = 0; r < k; r++) {
        const struct run *ru = &runs[r];
        for (int p = 0; p < ru->c->n; p++) {
            int pid = port_slots_proc(runs, r, p);
            char buf[512];
            metadata_to(fp, lo, first, true, pid, 0, process_name(buf, sizeof buf, ru, k, p), pid);
            for (int port = 0; port < NPORTS; port++)
                for (int l = 0; l < port_slots_lanes(ps, pid, port); l++) {
                    char tname[64];
                    if (l > 0)
                        text_fit(tname, sizeof tname, "%s %d", port_names[port], l + 1);
                    metadata_to(fp, lo, first, false, pid, tid_of(port, l), l > 0 ? tname : port_names[port],
                                tid_of(port, l));
                }
        }
    }
}

int export_chrome(FILE *fp, const struct run *runs, int k, double us_per_unit)
{
    struct port_slots ps;
    port_slots_make(&ps, runs, k);
    fprintf(fp, "{\"displayTimeUnit\": \"ms\",\n \"otherData\": {\"generator\": \"hetcast\", "
                "\"time_unit\": \"%s\", \"microseconds_per_time_unit\": %s},\n \"traceEvents\": [\n",
            k > 0 ? export_unit_text(runs[0].c) : "none", numfmt_num(us_per_unit));
    struct line_out *lo = NULL;   /* the fast path's events, built by hand (output/export_line.h) */
    struct bare_lens *bl = NULL;
    if (FAST_PATH(true)) {
        lo = xmalloc(sizeof *lo);
        lo->fp = fp;
        lo->n = 0;
        bl = bare_lens_make(runs, k);
    }
    bool first = true;
    name_tracks(fp, lo, &first, runs, k, &ps);
    for (long i = 0; i < ps.n; i++) {
        if (lo)
            slices_fetch_ahead(runs, &ps, i, bl);
        if (!lo || !slice_event_fast(lo, &first, runs, &ps.v[i], us_per_unit, bl)) {
            if (lo)
                line_flush(lo);
            slice_event(fp, &first, runs, &ps.v[i], us_per_unit);
        }
    }
    flows(fp, lo, runs, k, &ps, us_per_unit);
    if (lo) {
        line_flush(lo);
        bare_lens_free(bl, k);
    }
    free(lo);
    fputs("\n]}\n", fp);
    port_slots_free(&ps);
    return ferror(fp) ? -1 : 0;
}
