/*
 * screen_facts.c - what a class asks about a node, and where to go next:
 * the facts screen (i: the selected node's send and receive times, or its
 * row of the matrix, or its edges; class and group; when it holds the
 * message and from whom in each schedule on screen; how long its ports were
 * busy and idle; the cluster's description on the source), the narration
 * log (L: every event so far, wrapped, scrolling back), and the prompt at
 * the bottom (/ finds a node as you type, like less and htop; : goes to a
 * step or a time).  Every number comes from the engines; names go through
 * cb_text, which never lets a control character reach the terminal.
 * Each of the two screens keeps its own small state (struct facts, struct
 * prompt), set afresh when it opens.
 */
#include "ui/drawkit.h"
#include "ui/screen_exercise.h"
#include "session/trace.h"

#include "engine/explain.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the facts of a node ---- */

static void node_line(FILE *fp, const struct cluster *c, int p)
{
    const struct node *nd = &c->nodes[p];
    fprintf(fp, "%s", nd->name);
    const char *klass = cluster_class(c, p), *group = cluster_group(c, p);
    if (klass || group)
        fprintf(fp, " · class %s · group %s", klass ? klass : "-", group ? group : "-");
    if (p == c->source)
        fprintf(fp, " · the source");
    fprintf(fp, "\n");
    switch (c->kind) {
    case CLUSTER_NODES:
        fprintf(fp, "send s=%s · receive r=%s · latency L=%s", ui_num(nd->send), ui_num(nd->recv),
                ui_num(c->latency));
        fprintf(fp, " (a transfer to it: s(sender) + %s + %s)\n", ui_num(c->latency), ui_num(nd->recv));
        break;
    case CLUSTER_MATRIX:
        if (nd->send == 0 && nd->recv == 0)   /* Figueira's LNOWs: a transfer is its link alone */
            fprintf(fp, "no send or receive step (s = r = 0): a transfer to it takes its distance x %s"
                        "\ndistances:", ui_num(c->unit));
        else
            fprintf(fp, "send s=%s · receive r=%s · unit %s\ndistances:", ui_num(nd->send),
                    ui_num(nd->recv), ui_num(c->unit));
        for (int q = 0; q < c->n; q++)
            if (q != p)
                fprintf(fp, " %s %s%s", c->nodes[q].name, ui_num(c->dist[(size_t)p * (size_t)c->n + (size_t)q]),
                        q + 1 < c->n ? "," : "");
        fprintf(fp, "\n");
        break;
    case CLUSTER_GRAPH: {
        int out = 0, in = 0;
        fprintf(fp, "edges out:");
        for (int i = 0; i < c->nedges; i++)
            if (c->edges[i].from == p)
                fprintf(fp, "%s -> %s T=%s", out++ ? "," : "", c->nodes[c->edges[i].to].name,
                        ui_num(c->edges[i].time));
        fprintf(fp, "%s\nedges in:", out ? "" : " none");
        for (int i = 0; i < c->nedges; i++)
            if (c->edges[i].to == p)
                fprintf(fp, "%s %s -> T=%s", in++ ? "," : "", c->nodes[c->edges[i].from].name,
                        ui_num(c->edges[i].time));
        fprintf(fp, "%s\n", in ? "" : " none");
        break;
    }
    }
}

/* One schedule's view of p: when it holds the message, from whom, its ports' busy time. */
static void run_line(FILE *fp, const struct vrun *vr, int p)
{
    const struct engine *e = vrun_engine(vr);
    const struct cluster *c = e->c;
    double end = vrun_end(vr), send_busy = 0, recv_busy = 0;
    int sends = 0;
    fprintf(fp, "%s: ", vrun_sched_name(vr));
    if (vr->x) {
        fprintf(fp, "an exchange: every node sends its own messages\n");
    } else if (p == c->source) {
        fprintf(fp, "holds the message from the start");
    } else if (isfinite(engine_hold_time(e, p, 0)) && e->parent[p] >= 0) {
        const struct transfer *in = NULL;
        for (int i = 0; i < e->ntr; i++)
            if (e->tr[i].to == p && e->tr[i].msg == 0)
                in = &e->tr[i];
        fprintf(fp, "holds the message at t=%s, from %s", ui_num(engine_hold_time(e, p, 0)),
                c->nodes[e->parent[p]].name);
        if (in && in->recv_end > in->recv_start)
            fprintf(fp, " (its receive [%s, %s))", ui_num(in->recv_start), ui_num(in->recv_end));
        if (engine_hold_time(e, p, 0) >= end)
            fprintf(fp, "; the last to hold it: it sets the makespan %s", ui_num(end));
    } else {
        fprintf(fp, "never receives the message");
    }
    for (int i = 0; i < e->ntr; i++) {
        const struct transfer *t = &e->tr[i];
        if (t->from == p) {
            send_busy += (t->free > t->send_end ? t->free : t->send_end) - t->start;
            sends++;
        }
        if (t->to == p)
            recv_busy += t->recv_end - t->recv_start;
    }
    if (!vr->x) {
        fprintf(fp, "\n  sends %d: to", sends);
        int shown = 0;
        for (int i = 0; i < e->ntr && shown < 12; i++)
            if (e->tr[i].from == p)
                fprintf(fp, "%s %s at t=%s", shown++ ? "," : "", c->nodes[e->tr[i].to].name,
                        ui_num(e->tr[i].start));
        if (sends == 0)
            fprintf(fp, " nobody");
        else if (shown < sends)
            fprintf(fp, ", ...");
    }
    fprintf(fp, "\n  send port busy %s, idle %s · receive port busy %s, idle %s (of %s)\n",
            ui_num(send_busy), ui_num(end - send_busy > 0 ? end - send_busy : 0), ui_num(recv_busy),
            ui_num(end - recv_busy > 0 ? end - recv_busy : 0), ui_num(end));
}

char *view_facts(const struct view *v, int p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    const struct cluster *c = v->c;
    node_line(fp, c, p);
    for (int i = 0; i < v->nruns; i++)
        run_line(fp, &v->runs[i], p);
    if (v->nruns == 2 && vrun_measured(&v->runs[1]) && p != c->source) {   /* --trace: how far off */
        const struct engine *pe = vrun_engine(&v->runs[0]), *me = vrun_engine(&v->runs[1]);
        for (int i = 0; i < me->ntr && i < pe->ntr; i++)
            if (me->tr[i].to == p) {
                double ds = trace_diff(me->tr[i].start, pe->tr[i].start);
                double dh = trace_diff(me->tr[i].hold, pe->tr[i].hold);
                fprintf(fp, "measured - predicted: its transfer starts %s%s, it holds the message "
                        "%s%s\n", ds > 0 ? "+" : "", ui_num(ds), dh > 0 ? "+" : "", ui_num(dh));
            }
    }
    if (p == c->source && c->description && c->description[0])
        fprintf(fp, "about %s: %s\n", c->name ? c->name : "this cluster", c->description);
    fclose(fp);
    return text;
}

bool view_first_difference(const struct view *v, char *buf, size_t size, double now, int width)
{
    if (v->nruns < 2 || !view_single_message(v))
        return false;
    struct explain_diff d;
    const struct engine *a = vrun_engine(&v->runs[0]), *b = vrun_engine(&v->runs[1]);
    if (explain_first_difference(a, b, &d) < 0 || !d.parted || now < d.time ||
        (isfinite(now) && v->step == 0))
        return false;
    const char *na = vrun_sched_name(&v->runs[0]), *nb = vrun_sched_name(&v->runs[1]);
    explain_diff_text(a, b, na, nb, &d, buf, size);
    if (width > 0 && text_width(buf) > width) {   /* the short form: the picks and who is late */
        const struct node *nd = v->c->nodes;
        int at = snprintf(buf, size, "first difference (t=%s): %s %s%s%s, %s %s%s%s", ui_num(d.time), na,
                          nd[d.a_from].name, glyphs_for(v->ascii)->to, nd[d.a_to].name, nb, nd[d.b_from].name,
                          glyphs_for(v->ascii)->to, nd[d.b_to].name);
        if (d.late >= 0 && d.worse >= 0 && at > 0 && (size_t)at < size)
            snprintf(buf + at, size - (size_t)at, "; %s loses %s (%s: %s, not %s)", d.worse == 0 ? na : nb,
                     ui_num(d.loss), nd[d.late].name, ui_num(d.late_hold[d.worse]),
                     ui_num(d.late_hold[1 - d.worse]));
    }
    return true;
}

bool view_trace_shift(const struct view *v, char *buf, size_t size, double now)
{
    if (v->nruns != 2 || !vrun_measured(&v->runs[1]) || (isfinite(now) && v->step == 0))
        return false;
    const struct engine *p = vrun_engine(&v->runs[0]), *m = vrun_engine(&v->runs[1]);
    size_t at = (size_t)snprintf(buf, size, "measured - predicted, held:");
    int shown = 0;
    for (int i = 0; i < m->ntr && i < p->ntr && at < size; i++) {
        if (m->tr[i].hold > now)
            continue;
        double d = trace_diff(m->tr[i].hold, p->tr[i].hold);
        at += (size_t)snprintf(buf + at, size - at, "%s%s %s%s", shown++ ? glyphs_for(v->ascii)->dot : " ",
                               v->c->nodes[m->tr[i].to].name, d > 0 ? "+" : "", ui_num(d));
    }
    return shown > 0;
}

/* ---- the narration log ---- */

static char *log_text(const struct view *v)
{
    char *text = NULL, line[1100];
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    const struct exercise *x = exercise_of(v);
    if (v->back == &screen_exercise && x && x->live) {   /* opened in the exercise: the student's own */
        fprintf(fp, "your choices so far, as booked:\n\n");
        for (int i = 0; i < x->eng.nev; i++) {
            engine_narrate(&x->eng, i, line, sizeof line);
            fprintf(fp, "%s\n", line);
        }
        if (x->eng.nev == 0)
            fprintf(fp, "nothing yet: pick a sender, then a receiver\n");
        fclose(fp);
        return text;
    }
    int k[VIEW_MAX_RUNS] = {0};
    if (view_first_difference(v, line, sizeof line, INFINITY, 0) ||
        view_trace_shift(v, line, sizeof line, INFINITY))
        fprintf(fp, "%s\n\n", line);
    for (int s = 0; s < v->step; s++) {
        int r = v->nruns == 1 ? 0 : v->order[s].run;
        if (v->runs[r].x)
            engine_narrate(vrun_engine(&v->runs[r]), k[r]++, line, sizeof line);
        else   /* with the sharing of a link, on a platform */
            run_narrate(&v->runs[r].run, k[r]++, line, sizeof line);
        if (v->nruns >= 2)
            fprintf(fp, "%s: ", vrun_sched_name(&v->runs[r]));
        fprintf(fp, "%s\n", line);
    }
    if (v->step == 0)
        fprintf(fp, "nothing yet: step with l or space, then L again\n");
    fclose(fp);
    return text;
}

/* ---- drawing: wrapped lines, scrolled ---- */

/* Word-wrap one line of text at w columns into out (lines split by '\n'); returns how many. */
static int wrap_into(const char *s, int w, FILE *out)
{
    int n = 0;
    while (*s) {
        int cols = 0;
        size_t i = 0, best = 0;
        while (s[i]) {
            int l;
            uint32_t cp = utf8_decode(s + i, &l);
            if (cols + cp_width(cp) > w)
                break;
            cols += cp_width(cp);
            i += (size_t)l;
            if (s[i] == ' ' || !s[i])
                best = i;
        }
        if (!s[i])
            best = i;
        if (best == 0)
            best = i ? i : 1;
        fprintf(out, "%s%.*s\n", n ? "  " : "", (int)best, s);
        n++;
        s += best;
        while (*s == ' ')
            s++;
        w = w > 4 ? w : 4;
        if (n == 1)
            w -= 2;   /* continuation lines are indented */
    }
    return n ? n : (fprintf(out, "\n"), 1);
}

/* The facts screen's state. */
struct facts {
    bool log;           /* the narration log instead of the facts */
    int scroll;         /* the first line shown (-1: not placed yet) */
};

static struct facts *facts_of(const struct view *v)
{
    return view_screen_data(v, &screen_facts);
}

static void draw_facts(struct view *v, struct cellbuf *cb)
{
    struct facts *f = facts_of(v);
    char *text = f->log ? log_text(v) : view_facts(v, v->sel);
    char *wrapped = NULL;
    size_t wl = 0;
    FILE *fp = open_memstream(&wrapped, &wl);
    int n = 0;
    for (char *line = text; fp && line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        n += wrap_into(line, cb->w - 4, fp);
        line = nl ? nl + 1 : NULL;
    }
    if (fp)
        fclose(fp);
    char title[200];
    if (f->log && v->back == &screen_exercise && exercise_of(v))
        snprintf(title, sizeof title, "exercise log: %d choice%s", exercise_of(v)->nchoices,
                 exercise_of(v)->nchoices == 1 ? "" : "s");
    else if (f->log)
        snprintf(title, sizeof title, "narration log: %d event%s up to step %d", v->step,
                 v->step == 1 ? "" : "s", v->step);
    else
        snprintf(title, sizeof title, "facts of %s", v->c->nodes[v->sel].name);
    ui_title_bar(v, cb, title, "");
    int rows = cb->h - 3;
    if (f->scroll < 0 || f->scroll > n - rows)
        f->scroll = n - rows > 0 && f->scroll >= 0 ? n - rows : 0;
    int y = 0;
    for (char *line = wrapped; line && *line; y++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (y >= f->scroll && y < f->scroll + rows)
            cb_text(cb, 2, 2 + y - f->scroll, cb->w - 4, line,
                    y == 0 && !f->log ? (unsigned)(R_HEAD | AF_BOLD) : R_NORMAL, v->ascii);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    free(wrapped);
    char where[64];
    snprintf(where, sizeof where, "lines %d-%d of %d", n ? f->scroll + 1 : 0,
             f->scroll + rows < n ? f->scroll + rows : n, n);
    const struct hint h[] = {{"any key", "back"}, {glyphs_for(v->ascii)->up_down, "scroll"},
                             {"PgUp/PgDn", "page"},
                             {where, ""}};
    ui_status_bar(v, cb, h, n > rows ? 4 : 1);   /* scrolling only when there is more */
}

static unsigned facts_request(struct view *v, enum ui_req req, int key)
{
    struct facts *f = facts_of(v);
    const int page = 10;
    switch (req) {
    case REQ_MOVE:
        f->scroll += key == UK_UP || key == 'k' ? -1 : 1;
        if (f->scroll < 0)
            f->scroll = 0;
        break;
    case REQ_MOVE_PAGE:
        f->scroll += key == UK_PGUP ? -page : page;
        if (f->scroll < 0)
            f->scroll = 0;
        break;
    case REQ_CLOSE:
        view_screen_close(v);
        break;
    default:
        return 0;
    }
    return UI_HANDLED | UI_REDRAW;
}

/* Its open hook: the facts of the selected node, or the log (arg true). */
static int facts_open(struct view *v, void **data, int arg)
{
    if (!*data)
        *data = xcalloc(1, sizeof(struct facts));
    struct facts *f = *data;
    v->playing = false;
    f->log = arg != 0;
    f->scroll = -1;   /* the log and the facts open at their first line */
    return 0;
}

const struct screen screen_facts = {
    .name = "facts",
    .id = SCR_FACTS,
    .over = true,   /* back to the main screen, or to the exercise it was opened in (L) */
    .open = facts_open,
    .draw = draw_facts,
    .request = facts_request,
};

/* ---- the prompt: / finds a node, : goes to a step or a time ---- */

static bool starts_nocase(const char *s, const char *q)
{
    for (; *q; s++, q++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*q))
            return false;
    return true;
}

int view_find_node(const struct view *v, const char *q)
{
    if (!q[0])
        return -1;
    for (int p = 0; p < v->c->n; p++)   /* a whole name, then a prefix, then anywhere */
        if (strcasecmp(v->c->nodes[p].name, q) == 0)
            return p;
    for (int p = 0; p < v->c->n; p++)
        if (starts_nocase(v->c->nodes[p].name, q))
            return p;
    for (int p = 0; p < v->c->n; p++)
        for (const char *s = v->c->nodes[p].name; *s; s++)
            if (starts_nocase(s, q))
                return p;
    return -1;
}

/* The prompt's state, kept while the view lives (the last search is n's). */
struct prompt {
    char kind;          /* '/' find, ':' go to, 'y' a lesson's answer */
    char query[64];
    int sel;            /* the selection before / (Esc restores it) */
    char last[64];      /* the last search kept with Enter ("" before one) */
};

static struct prompt *prompt_of(const struct view *v)
{
    return view_screen_data(v, &screen_prompt);
}

/* Its open hook: arg is '/' (find a node), ':' (go to a step or a time) or 'y' (a lesson's answer). */
static int prompt_open(struct view *v, void **data, int arg)
{
    if (!*data)
        *data = xcalloc(1, sizeof(struct prompt));
    struct prompt *pr = *data;
    v->playing = false;
    pr->kind = (char)arg;
    pr->query[0] = '\0';
    pr->sel = v->sel;
    return 0;
}

static void draw_prompt(struct view *v, struct cellbuf *cb)
{
    const struct prompt *pr = prompt_of(v);
    (v->back ? v->back : &screen_main)->draw(v, cb);   /* the screen it was opened over */
    int y = cb->h - 1;
    cb_fill(cb, 0, y, cb->w, 1, ' ', R_STATUS);
    char line[200];
    if (pr->kind == '/') {
        int p = view_find_node(v, pr->query);
        snprintf(line, sizeof line, "find: %s_   %s", pr->query,
                 !pr->query[0] ? "(type a name; Enter keeps it, Esc goes back)"
                 : p >= 0 ? "Enter keeps it" : "no node matches");
    } else if (pr->kind == 'y') {
        snprintf(line, sizeof line, "your answer: %s_   (Enter grades it, Esc cancels)", pr->query);
    } else {
        snprintf(line, sizeof line, "go to: %s_   (a step: 12, or a time: t=4.5; Enter goes, Esc cancels)",
                 pr->query);
    }
    cb_text(cb, 1, y, cb->w - 2, line, R_STATUS | AF_BOLD, v->ascii);
}

/* ":12" is step 12, ":t=4.5" (or "t4.5") the time 4.5.  0, or -1 with a message. */
static int go_to(struct view *v, const char *q)
{
    char *end;
    if (q[0] == 't' || q[0] == 'T') {
        const char *num = q + 1 + (q[1] == '=');
        double t = strtod(num, &end);
        if (end == num || *end || !isfinite(t)) {
            view_message(v, MSG_ERROR, "go to: \"%s\" is not a time (t=4.5)", q);
            return -1;
        }
        view_step_to(v, view_step_at_time(v, t));
        view_message(v, MSG_INFO, "went to t=%s (step %d of %d)", ui_num(t), v->step, v->nsteps);
        return 0;
    }
    long k = strtol(q, &end, 10);
    if (end == q || *end || k < 0) {
        view_message(v, MSG_ERROR, "go to: \"%s\" is neither a step (12) nor a time (t=4.5)", q);
        return -1;
    }
    view_step_to(v, k > v->nsteps ? v->nsteps : (int)k);
    return 0;
}

static unsigned prompt_request(struct view *v, enum ui_req req, int key)
{
    struct prompt *pr = prompt_of(v);
    size_t len = strlen(pr->query);
    switch (req) {
    case REQ_TYPE:
        if (key == UK_BACKSPACE) {
            while (len > 0 && ((unsigned char)pr->query[len - 1] & 0xc0) == 0x80)
                len--;   /* a whole UTF-8 character */
            if (len > 0)
                pr->query[--len] = '\0';
        } else if (key >= ' ' && key != 0x7f && !(key >= 0x80 && key < 0xa0) && key < 0x110000 &&
                   len + 5 < sizeof pr->query) {
            len += utf8_encode((uint32_t)key, pr->query + len);
            pr->query[len] = '\0';
        } else {
            return UI_HANDLED;   /* arrows and the like: nothing to type */
        }
        if (pr->kind == '/') {
            int p = view_find_node(v, pr->query);
            v->sel = p >= 0 ? p : pr->sel;
        }
        break;
    case REQ_PICK:
        view_screen_close(v);
        if (pr->kind == ':' && pr->query[0])
            go_to(v, pr->query);
        else if (pr->kind == 'y' && pr->query[0])
            view_answer(v, pr->query);
        else if (pr->kind == '/' && view_find_node(v, pr->query) >= 0) {
            memcpy(pr->last, pr->query, sizeof pr->last);
            view_message(v, MSG_INFO, "found %s (i: its facts; n, N: the next, the previous match)",
                         v->c->nodes[v->sel].name);
        }
        else if (pr->kind == '/' && pr->query[0])
            view_message(v, MSG_ERROR, "no node matches \"%s\"", pr->query);
        break;
    case REQ_CANCEL:
        if (pr->kind == '/')
            v->sel = pr->sel;
        view_screen_close(v);
        break;
    default:
        return 0;
    }
    return UI_HANDLED | UI_REDRAW;
}

/* Does name hold q anywhere, ignoring case? */
static bool holds_nocase(const char *name, const char *q)
{
    for (const char *s = name; *s; s++)
        if (starts_nocase(s, q))
            return true;
    return false;
}

void view_find_again(struct view *v, int dir)
{
    const struct prompt *pr = prompt_of(v);
    if (!pr || !pr->last[0]) {
        view_message(v, MSG_ERROR, "no search to repeat: / finds a node by name, then n the next");
        return;
    }
    int n = v->c->n, count = 0, at = 0, found = -1;
    for (int p = 0; p < n; p++)
        count += holds_nocase(v->c->nodes[p].name, pr->last);
    for (int i = 1; i <= n && found < 0; i++) {
        int p = (((v->sel < 0 ? (dir > 0 ? -1 : 0) : v->sel) + dir * i) % n + n) % n;
        if (holds_nocase(v->c->nodes[p].name, pr->last))
            found = p;
    }
    if (found < 0) {
        view_message(v, MSG_ERROR, "no node matches \"%s\"", pr->last);
        return;
    }
    for (int p = 0; p <= found; p++)
        at += holds_nocase(v->c->nodes[p].name, pr->last);
    v->sel = found;
    view_message(v, MSG_INFO, "found %s: match %d of %d for \"%s\"", v->c->nodes[found].name, at,
                 count, pr->last);
}

const struct screen screen_prompt = {
    .name = "prompt",
    .id = SCR_PROMPT,
    .over = true,
    .open = prompt_open,
    .draw = draw_prompt,
    .request = prompt_request,
};
