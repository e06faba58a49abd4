/*
 * session/question.c - the kinds of question (session/question.h), a row
 * each: none (a question talked over, or no question), choices, and the two
 * predictions of the slide's own run (its makespan, the next transfer).
 */
#include "session/question.h"

#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/cluster.h"
#include "session/run.h"
#include "session/slide.h"
#include "support/diag.h"
#include "support/numfmt.h"

/* ---- none: a question the class talks over (its answer revealed on a key), or none ---- */

static void how_none(const struct slide *s, char *buf, size_t size)
{
    text_fit(buf, size, "%s", s->answer ? "a: the answer" : "");
}

static void gift_none(const struct slide *s, const struct run *r, const char *expected,
                      const struct question_out *o)
{
    (void)r;
    (void)expected;
    fprintf(o->fp, " {");
    if (s->answer) {   /* an essay; the slide's answer as its general feedback */
        fprintf(o->fp, "####");
        o->text(o->fp, s->answer);
    }
    fprintf(o->fp, "}\n\n");
}

/* ---- choices = {...}, correct = K ---- */

static void parse_choices(lua_State *L, struct slide *s, int t, int no)
{
    lua_getfield(L, t, "choices");
    if (!lua_istable(L, -1))
        luaL_error(L, "slide %d: choices must be a list of texts {\"p1\", \"p2\", ...}", no);
    lua_Integer n = luaL_len(L, -1);
    if (n < 2 || n > LESSON_MAX_CHOICES)
        luaL_error(L, "slide %d: choices must list 2 to %d answers", no, LESSON_MAX_CHOICES);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        size_t len;
        const char *c = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (!c || !len || len > LESSON_CHOICE_MAX || text_flaw(c) || strlen(c) != len)
            luaL_error(L, "slide %d: choice %d must be text of 1 to %d bytes on one line", no, (int)i,
                       LESSON_CHOICE_MAX);
        for (int j = 0; j < s->nchoices; j++)
            if (strcasecmp(s->choices[j], c) == 0)
                luaL_error(L, "slide %d: choices %d and %d are the same", no, j + 1, (int)i);
        s->choices[s->nchoices++] = xstrdup(c);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "correct");
    if (lua_isnil(L, -1))
        luaL_error(L, "slide %d: choices need correct = K, the number of the right one", no);
    lua_Integer c = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    if (c < 1 || c > s->nchoices)
        luaL_error(L, "slide %d: correct must be a number from 1 to %d (the right choice)", no, s->nchoices);
    s->correct = (int)c - 1;
    lua_pop(L, 1);
}

int question_choice(const struct slide *s, const char *a)
{
    if (a[0] && !a[1]) {
        int k = a[0] >= 'a' && a[0] <= 'h' ? a[0] - 'a' : a[0] >= 'A' && a[0] <= 'H' ? a[0] - 'A'
                : a[0] >= '1' && a[0] <= '8' ? a[0] - '1' : -1;
        if (k >= 0 && k < s->nchoices)
            return k;
    }
    for (int k = 0; k < s->nchoices; k++)
        if (strcasecmp(s->choices[k], a) == 0)
            return k;
    return -1;
}

static int grade_choices(const struct slide *s, const struct run *r, const char *a, struct lesson_grade *g,
                         char **cause)
{
    (void)r;
    if (!a[0])
        return set_cause(cause, "answer with a letter from A to %c", 'A' + s->nchoices - 1);
    int k = question_choice(s, a);
    if (k < 0)
        return set_cause(cause, "\"%s\" is not one of the choices: answer with a letter from A to %c",
                         g->given, 'A' + s->nchoices - 1);
    g->correct = k == s->correct;
    return 0;
}

static bool expected_choice(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    (void)r;
    if (s->correct < 0)
        return false;
    text_fit(buf, size, "%c: %s", 'A' + s->correct, s->choices[s->correct]);
    return true;
}

static void how_choices(const struct slide *s, char *buf, size_t size)
{
    text_fit(buf, size, "A-%c or 1-%d: pick; a: the answer", 'A' + s->nchoices - 1, s->nchoices);
}

static void gift_choices(const struct slide *s, const struct run *r, const char *expected,
                         const struct question_out *o)
{
    (void)r;
    (void)expected;
    fprintf(o->fp, " {");
    for (int i = 0; i < s->nchoices; i++) {
        fprintf(o->fp, "\n\t%c", i == s->correct ? '=' : '~');
        o->text(o->fp, s->choices[i]);
        fprintf(o->fp, "#");
        if (i == s->correct) {
            o->text(o->fp, s->answer ? s->answer : "right");
        } else {   /* by its text: Moodle shuffles the choices, and their letters */
            o->text(o->fp, "The right answer: ");
            o->text(o->fp, s->choices[s->correct]);
        }
    }
    fprintf(o->fp, "\n}\n\n");
}

static void handout_choices(const struct slide *s, const struct question_out *o)
{
    for (int i = 0; i < s->nchoices; i++) {
        fprintf(o->fp, "  %c) ", 'A' + i);
        o->text(o->fp, s->choices[i]);
        fprintf(o->fp, "\n");
    }
}

/* ---- predict = "makespan": a number ---- */

static void parse_makespan(lua_State *L, struct slide *s, int t, int no)
{
    s->tolerance = LESSON_TOLERANCE;
    lua_getfield(L, t, "tolerance");
    if (!lua_isnil(L, -1)) {
        double tol = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : -1;
        if (!(tol >= 0 && tol < 1e9))
            luaL_error(L, "slide %d: tolerance must be a number from 0 (how far from the makespan an "
                          "answer is right)", no);
        s->tolerance = tol;
    }
    lua_pop(L, 1);
}

/* Is x the makespan v within the slide's tolerance (Moodle's rule: |x - v| <= tolerance), a
 * rounding error of v aside? */
static bool within_tolerance(const struct slide *s, double x, double v)
{
    return fabs(x - v) <= s->tolerance + 1e-9 * fmax(1, fabs(v));
}

static int grade_makespan(const struct slide *s, const struct run *r, const char *a, struct lesson_grade *g,
                          char **cause)
{
    if (!a[0])
        return set_cause(cause, "answer with a number");
    char *end;
    double x = strtod(a, &end);
    if (end == a || *end || !isfinite(x))
        return set_cause(cause, "\"%s\" is not a number: answer with the makespan, e.g. 5 or 4.5", g->given);
    g->correct = within_tolerance(s, x, r->eng.makespan);
    return 0;
}

static bool expected_makespan(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    (void)s;
    char num[NUMFMT_SIZE];
    if (!r)
        return false;
    text_fit(buf, size, "%s", numfmt_shortest(num, r->eng.makespan));
    return true;
}

static void how_makespan(const struct slide *s, char *buf, size_t size)
{
    (void)s;
    text_fit(buf, size, "y: type the makespan; a: the answer");
}

static int hold_makespan(const struct slide *s, const struct engine *e, int nsteps)
{
    (void)e;
    return s->step >= 0 && s->step < nsteps ? s->step : 0;
}

static void gift_makespan(const struct slide *s, const struct run *r, const char *expected,
                          const struct question_out *o)
{
    (void)expected;
    char tol[NUMFMT_SIZE];
    fprintf(o->fp, " {#\n\t=%s:%s", numfmt_txt(r->eng.makespan), numfmt_shortest(tol, s->tolerance));
    if (s->answer) {
        fprintf(o->fp, "#");
        o->text(o->fp, s->answer);
    }
    fprintf(o->fp, "\n}\n\n");
}

static void handout_makespan(const struct slide *s, const struct question_out *o)
{
    (void)s;
    fprintf(o->fp, "  (your prediction: the makespan, a number)\n");
}

static void ask_makespan(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    (void)s;
    text_fit(buf, size, "When does %s's broadcast end on this cluster (its makespan)?", r->sched.ops->name);
}

/* The node that holds the message last, when, and the reason its scheduler gave for the
 * transfer into it. */
static void reason_makespan(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    (void)s;
    buf[0] = '\0';
    const struct transfer *last = NULL;
    for (int i = 0; r->eng.tr && i < r->eng.ntr; i++)
        if (!last || r->eng.tr[i].hold > last->hold)
            last = &r->eng.tr[i];
    if (!last)
        return;
    char num[NUMFMT_SIZE], *tmp;
    const char *why = engine_reason(&r->eng, last, &tmp);
    text_fit(buf, size, "%s holds the message last, at %s, from %s%s%s", r->c->nodes[last->to].name,
             numfmt_shortest(num, last->hold), r->c->nodes[last->from].name, why[0] ? ": " : "", why);
    free(tmp);
}

/* ---- predict = "next", decision = K: "SENDER -> RECEIVER" of the K-th booking ---- */

static void parse_next(lua_State *L, struct slide *s, int t, int no)
{
    lua_getfield(L, t, "decision");
    if (!lua_isnil(L, -1)) {
        lua_Integer d = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
        if (d < 1 || d > 1000000)
            luaL_error(L, "slide %d: decision must be a number from 1 (the first transfer booked)", no);
        s->decision = (int)d - 1;
    }
    lua_pop(L, 1);
}

/* text without its surrounding blanks, into buf (cut to size). */
static void blank_trimmed(const char *text, char *buf, size_t size)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    n = text_cut_len(text, n < size - 1 ? n : size - 1);
    memcpy(buf, text, n);
    buf[n] = '\0';
}

static int grade_next(const struct slide *s, const struct run *r, const char *answer, struct lesson_grade *g,
                      char **cause)
{
    if (!answer[0])
        return set_cause(cause, "answer as SENDER -> RECEIVER");
    /* two node names, split at "->", a comma or spaces */
    char a[160], from[160], to[160];
    text_fit(a, sizeof a, "%s", answer);
    char *arrow = strstr(a, "->");
    size_t cut = arrow ? (size_t)(arrow - a) : strcspn(a, ", \t");
    if (cut >= strlen(a))
        return set_cause(cause, "\"%s\" names one node: answer as SENDER -> RECEIVER", g->given);
    const char *rest = a + cut + (arrow ? 2 : 1);
    while (*rest == ',' || *rest == ' ' || *rest == '\t')
        rest++;
    blank_trimmed(rest, to, sizeof to);
    a[cut] = '\0';
    blank_trimmed(a, from, sizeof from);
    if (!from[0] || !to[0] || strpbrk(to, ", \t"))
        return set_cause(cause, "\"%s\": answer as SENDER -> RECEIVER, e.g. p0 -> p2", g->given);
    if (!r->eng.tr || s->decision >= r->eng.ntr)
        return set_cause(cause, "the run has no transfer %d to grade against", s->decision + 1);
    const char *unknown = cluster_find(r->c, from) < 0 ? from : cluster_find(r->c, to) < 0 ? to : NULL;
    if (unknown)   /* a typo is refused, not graded wrong */
        return set_cause(cause, "\"%s\" is not a node of the slide's cluster (%s to %s)", unknown, r->c->nodes[0].name,
                         r->c->nodes[r->c->n - 1].name);
    const struct transfer *t = &r->eng.tr[s->decision];
    g->correct = cluster_find(r->c, from) == t->from && cluster_find(r->c, to) == t->to;
    return 0;
}

static bool expected_next(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    if (!r || !r->eng.tr || s->decision >= r->eng.ntr)
        return false;
    const struct transfer *t = &r->eng.tr[s->decision];
    text_fit(buf, size, "%s -> %s", r->c->nodes[t->from].name, r->c->nodes[t->to].name);
    return true;
}

static void unknown_next(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    text_fit(buf, size, "decision = %d asks for transfer %d, and the slide's run books %d", s->decision + 1,
             s->decision + 1, r->eng.tr ? r->eng.ntr : 0);
}

static void how_next(const struct slide *s, char *buf, size_t size)
{
    (void)s;
    text_fit(buf, size, "y: type SENDER -> RECEIVER; a: the answer");
}

static int hold_next(const struct slide *s, const struct engine *e, int nsteps)
{
    (void)nsteps;
    for (int i = 0; i < e->nev && e->ev; i++)
        if (e->ev[i].transfer == s->decision)
            return i;   /* the steps before the decision's first event */
    return -1;
}

static int shown_next(const struct slide *s)
{
    return s->decision;
}

/* The right transfer as a GIFT short answer: "SENDER RECEIVER", "SENDER,RECEIVER" and
 * "SENDER, RECEIVER" (the view takes these too).  Never with "->": beside "=", Moodle's
 * importer reads an arrow as a matching question's pair. */
static void gift_next(const struct slide *s, const struct run *r, const char *expected,
                      const struct question_out *o)
{
    (void)expected;
    static const char *const sep[] = {" ", ",", ", "};
    const struct transfer *t = &r->eng.tr[s->decision];
    fprintf(o->fp, " {");
    for (size_t i = 0; i < sizeof sep / sizeof sep[0]; i++) {
        fprintf(o->fp, "\n\t=");
        o->answer(o->fp, r->c->nodes[t->from].name);
        o->answer(o->fp, sep[i]);
        o->answer(o->fp, r->c->nodes[t->to].name);
        if (s->answer) {
            fprintf(o->fp, "#");
            o->text(o->fp, s->answer);
        }
    }
    fprintf(o->fp, "\n}\n\n");
}

static void handout_next(const struct slide *s, const struct question_out *o)
{
    fprintf(o->fp, "  (your prediction: SENDER -> RECEIVER of transfer %d)\n", s->decision + 1);
}

/* "fnf has booked p0 -> p1 and p0 -> p2. Which transfer does it book next?": the bookings
 * before the decision (the first ones and the last when they do not all fit). */
static void ask_next(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    const char *name = r->sched.ops->name;
    int d = r->eng.tr && s->decision < r->eng.ntr ? s->decision : 0;
    if (d == 0) {
        text_fit(buf, size, "Which transfer does %s book first?", name);
        return;
    }
    size_t len = (size_t)text_fit(buf, size, "%s has booked ", name);
    for (int i = 0; i < d && len < size; i++) {
        const struct transfer *t = &r->eng.tr[i];
        if (d > 4 && i == 2) {   /* the middle ones: their number */
            len += (size_t)text_fit(buf + len, size - len, ", %d more", d - 3);
            i = d - 2;
            continue;
        }
        len += (size_t)text_fit(buf + len, size - len, "%s%s -> %s", i == 0 ? "" : i == d - 1 ? " and " : ", ",
                                 r->c->nodes[t->from].name, r->c->nodes[t->to].name);
    }
    if (len < size)
        text_fit(buf + len, size - len, ". Which transfer does it book next?");
}

static void reason_next(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!r->eng.tr || s->decision >= r->eng.ntr)
        return;
    const struct transfer *t = &r->eng.tr[s->decision];
    char *tmp;
    const char *why = engine_reason(&r->eng, t, &tmp);
    if (why[0])
        text_fit(buf, size, "%s -> %s: %s", r->c->nodes[t->from].name, r->c->nodes[t->to].name, why);
    free(tmp);
}

const struct question_kind question_kinds[] = {
    {
        .name = "none",
        .how = how_none,
        .gift = gift_none,
    },
    {
        .name = "choices",
        .parse = parse_choices,
        .field = "correct",
        .stray = "correct names one of the choices, and there are none",
        .grade = grade_choices,
        .expected = expected_choice,
        .how = how_choices,
        .gift = gift_choices,
        .handout = handout_choices,
    },
    {
        .name = "makespan",
        .predicts = true,
        .parse = parse_makespan,
        .field = "tolerance",
        .stray = "tolerance goes with predict = \"makespan\"",
        .grade = grade_makespan,
        .expected = expected_makespan,
        .how = how_makespan,
        .asks = "for the makespan",
        .hides = HIDE_END,
        .hold = hold_makespan,
        .gift = gift_makespan,
        .handout = handout_makespan,
        .ask = ask_makespan,
        .reason = reason_makespan,
    },
    {
        .name = "next",
        .predicts = true,
        .one_run = true,
        .parse = parse_next,
        .field = "decision",
        .stray = "decision goes with predict = \"next\"",
        .grade = grade_next,
        .expected = expected_next,
        .unknown = unknown_next,
        .how = how_next,
        .asks = "what comes next",
        .hold = hold_next,
        .shown = shown_next,
        .gift_asks = "(Answer with the name of the sender, a blank, and the name of the receiver.)",
        .gift = gift_next,
        .handout = handout_next,
        .ask = ask_next,
        .reason = reason_next,
    },
    {.name = NULL},
};

const struct question_kind *question_predict(const char *name)
{
    for (const struct question_kind *k = question_kinds; k->name; k++)
        if (k->predicts && strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

const struct question_kind *question_choices(void)
{
    const struct question_kind *k = question_kinds;
    while (k->parse != parse_choices)
        k++;
    return k;
}

void question_predict_names(char *buf, size_t size)
{
    buf[0] = '\0';
    int n = 0, last = 0;
    for (const struct question_kind *k = question_kinds; k->name; k++)
        if (k->predicts)
            last = ++n;
    n = 0;
    for (const struct question_kind *k = question_kinds; k->name; k++) {
        if (!k->predicts)
            continue;
        size_t len = strlen(buf);
        n++;
        text_fit(buf + len, size - len, "%s\"%s\"", n == 1 ? "" : n == last ? " or " : ", ", k->name);
    }
}
