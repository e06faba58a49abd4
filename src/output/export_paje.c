/*
 * output/export_paje.c - a schedule as a Paje trace (output/export_interop.h), the format
 * of ViTE and PajeNG (pj_dump): the event definitions first, then the events
 * in time order.  Containers and types are named by short aliases that this
 * file makes up (r0, r0n3, S, L, V, M), so user text appears only in Name
 * fields, through export_paje_string.
 */
#include "output/export_interop.h"

#include <stdlib.h>
#include <string.h>

#include "support/numfmt.h"

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
    "% Value string\n% EndContainer string\n% Key string\n%EndEventDef\n"
    /* the types: a run holds nodes; a node has three state types; arrows join nodes */
    "0 R 0 \"run\"\n"
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

struct pev {
    double time;
    int kind;        /* enum pev_kind */
    int run, tr;     /* run index, transfer index in it */
    char state;      /* S, L or V (PUSH / POP) */
    long seq;        /* insertion order: the last tie-break */
};

static int pev_cmp(const void *x, const void *y)
{
    const struct pev *a = x, *b = y;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind - b->kind;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct pev_list {
    struct pev *v;
    long n, cap;
};

static void pev_add(struct pev_list *l, double time, int kind, int run, int tr, char state)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n] = (struct pev){time, kind, run, tr, state, l->n};
    l->n++;
}

/* A state interval [a, b) on a node, when it is not empty. */
static void pev_state(struct pev_list *l, double a, double b, int run, int tr, char state)
{
    if (b > a) {
        pev_add(l, a, PEV_PUSH, run, tr, state);
        pev_add(l, b, PEV_POP, run, tr, state);
    }
}

static const char *state_value(char state)
{
    return state == 'S' ? "send" : state == 'L' ? "link" : "recv";
}

int export_paje(FILE *fp, const struct run *runs, int k)
{
    if (k > 0 && time_unit_name(runs[0].c->time_unit))   /* a comment line */
        fprintf(fp, "# times in %s\n", time_unit_name(runs[0].c->time_unit));
    fputs(paje_header, fp);
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
        for (int p = 0; p < ru->c->n; p++) {
            fprintf(fp, "4 0 r%dn%d N r%d ", r, p, r);
            export_paje_string(fp, ru->c->nodes[p].name);
            fputc('\n', fp);
        }
    }
    struct pev_list l = {0};
    for (int r = 0; r < k; r++) {
        const struct engine *e = &runs[r].eng;
        for (int i = 0; i < e->ntr; i++) {
            const struct transfer *t = &e->tr[i];
            pev_state(&l, t->start, t->send_end, r, i, 'S');
            pev_state(&l, t->link_start, t->link_end, r, i, 'L');
            pev_state(&l, t->recv_start, t->recv_end, r, i, 'V');
            pev_add(&l, t->start, PEV_START_LINK, r, i, 'M');
            pev_add(&l, t->hold, PEV_END_LINK, r, i, 'M');
        }
    }
    if (l.n > 0)   /* qsort of NULL is undefined, even for 0 items */
        qsort(l.v, (size_t)l.n, sizeof *l.v, pev_cmp);
    for (long i = 0; i < l.n; i++) {
        const struct pev *v = &l.v[i];
        const struct transfer *t = &runs[v->run].eng.tr[v->tr];
        const char *when = numfmt_num(v->time);
        int at = v->state == 'S' ? t->from : t->to;   /* link and recv: on the receiver */
        switch (v->kind) {
        case PEV_PUSH:
            fprintf(fp, "6 %s %c r%dn%d %s\n", when, v->state, v->run, at, state_value(v->state));
            break;
        case PEV_POP:
            fprintf(fp, "7 %s %c r%dn%d\n", when, v->state, v->run, at);
            break;
        case PEV_START_LINK:
            fprintf(fp, "8 %s M r%d msg r%dn%d r%dt%d\n", when, v->run, v->run, t->from, v->run,
                    v->tr);
            break;
        case PEV_END_LINK:
            fprintf(fp, "9 %s M r%d msg r%dn%d r%dt%d\n", when, v->run, v->run, t->to, v->run,
                    v->tr);
            break;
        }
    }
    free(l.v);
    /* the containers end with the latest makespan, nodes before their run */
    const char *when = numfmt_num(end);
    for (int r = 0; r < k; r++) {
        for (int p = 0; p < runs[r].c->n; p++)
            fprintf(fp, "5 %s N r%dn%d\n", when, r, p);
        fprintf(fp, "5 %s R r%d\n", when, r);
    }
    return ferror(fp) ? -1 : 0;
}
