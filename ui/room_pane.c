/*
 * ui/room_pane.c - the room's counts and histogram on the slide screen
 * (ui/room_pane.h).  Everything shown comes from room_tally: numbers, the
 * choices' own texts from the lesson, never a user.
 */
#include "ui/room_pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/room.h"
#include "ui/drawkit.h"

void room_pane_follow(struct view *v)
{
    if (v->room && v->lesson)
        room_follow(v->room, v->slide);
}

static int room_pane_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One bar of n out of most, in at most w columns, then the count. */
static void bar(struct view *v, struct cellbuf *cb, int x, int y, int w, int n, int most, unsigned attr)
{
    char num[16];
    snprintf(num, sizeof num, " %d", n);
    int room = w - (int)strlen(num);
    int len = room > 0 && most > 0 ? (int)((long)room * n / most) : 0;
    if (n > 0 && len == 0 && room > 0)
        len = 1;
    cb_fill(cb, x, y, len, 1, v->ascii ? '#' : 0x2588, attr);
    ui_put(v, cb, x + len, y, w - len, R_NORMAL, num);
}

/* Do a and b differ by more than rounding? */
static bool differ(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) > 1e-9 * (m > 1 ? m : 1);
}

/*
 * A challenge's histogram from row y to bottom (excluded): a row a makespan
 * when the distinct ones (the class's, fnf's, the optimum's) fit, else a
 * row a range of equal width; fnf and the optimum marked on their rows.
 * Counts only.
 */
static void challenge_bars(struct view *v, struct cellbuf *cb, int x, int y, int w, int bottom,
                           const struct room_tally *t)
{
    int rows = bottom - y;
    if (rows < 1)
        return;
    if (rows > 12)
        rows = 12;
    double lo = t->fnf_known ? t->fnf : INFINITY, hi = t->fnf_known ? t->fnf : -INFINITY;
    if (t->optimum_known) {
        lo = fmin(lo, t->optimum);
        hi = fmax(hi, t->optimum);
    }
    double vals[12];
    int nvals = 0;
    bool exact = true;
    double marks[2] = {t->fnf_known ? t->fnf : NAN, t->optimum_known ? t->optimum : NAN};
    for (int i = -2; i < t->finished; i++) {
        double m = i < 0 ? marks[i + 2] : t->makespans[i];
        if (isnan(m))
            continue;
        lo = fmin(lo, m);
        hi = fmax(hi, m);
        bool seen = false;
        for (int k = 0; k < nvals && !seen; k++)
            seen = !differ(vals[k], m);
        if (!seen && nvals < rows)
            vals[nvals++] = m;
        else if (!seen)
            exact = false;
    }
    if (!isfinite(lo))
        return;
    int nb = exact ? nvals : rows;
    if (exact)
        qsort(vals, (size_t)nvals, sizeof *vals, room_pane_cmp);
    double width = exact ? 0 : (hi - lo) / nb;
    int count[12] = {0}, most = 1;
    for (int i = 0; i < t->finished; i++) {
        int b = 0;
        if (exact)
            while (b + 1 < nb && differ(vals[b], t->makespans[i]))
                b++;
        else
            b = width > 0 ? (int)((t->makespans[i] - lo) / width) : 0;
        b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
        if (++count[b] > most)
            most = count[b];
    }
    const char *arrow = v->ascii ? "<" : "\xe2\x97\x80";
    int label = 14, tail = 16, col = w - label - tail;
    if (col < 6)
        col = 6, tail = w - label - col > 0 ? w - label - col : 0;
    for (int b = 0; b < nb && y < bottom; b++, y++) {
        char line[96], a[32], z[32];
        double from = exact ? vals[b] : lo + b * width, to = exact ? vals[b] : lo + (b + 1) * width;
        snprintf(a, sizeof a, "%s", ui_num(from));
        snprintf(z, sizeof z, "%s", ui_num(to));
        if (exact)
            snprintf(line, sizeof line, "%s", a);
        else
            snprintf(line, sizeof line, "%s-%s", a, z);
        bool opt = false, fnf = false;
        for (int k = 0; k < 2; k++) {
            double m = marks[k];
            bool in = !isnan(m) && (exact ? !differ(m, vals[b])
                                          : (m >= from - 1e-12 && (m < to || b == nb - 1)));
            if (k == 0)
                fnf = in;
            else
                opt = in;
        }
        ui_put(v, cb, x, y, label - 1, opt ? R_GOOD | AF_BOLD : R_NORMAL, line);
        bar(v, cb, x + label, y, col - 1, count[b], most, opt ? R_GOOD : R_SEND);
        if (fnf || opt) {
            snprintf(line, sizeof line, "%s %s%s%s", arrow, opt ? "optimum" : "", opt && fnf ? ", " : "",
                     fnf ? "fnf" : "");
            ui_put(v, cb, x + label + col, y, tail, opt ? R_GOOD | AF_BOLD : R_INFO | AF_BOLD, line);
        }
    }
}

int room_pane_draw(struct view *v, struct cellbuf *cb, int x, int y, int w, int bottom)
{
    if (!v->room || y >= bottom)
        return y;
    struct room_tally t;
    room_tally(v->room, &t);
    const struct slide *s = &v->lesson->slides[v->slide];
    const char *dot = glyphs_for(v->ascii)->dot;
    char line[200];
    int n = snprintf(line, sizeof line, "room: %d in the room", t.present);
    if (t.instances)
        n += snprintf(line + n, sizeof line - (size_t)n, "%seach their own instance", dot);
    if (t.round)
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%d voted%sround %d %s", dot, t.voted, dot, t.round,
                      room_round_word(t.state));
    else if (slide_gradable(s))
        n += snprintf(line + n, sizeof line - (size_t)n, "%sv: open the vote", dot);
    if (t.instances && t.round && t.state == ROUND_REVEALED && t.total[1] && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "%s%d of %d right (%d%%)", dot, t.right[1], t.total[1],
                 (int)(100.0 * t.right[1] / t.total[1] + 0.5));
    ui_put(v, cb, x, y++, w, R_HEAD | AF_BOLD, line);
    if (t.challenge && y < bottom) {   /* the class's makespans, never a name */
        n = snprintf(line, sizeof line, "challenge %s: %d finished", t.ch_open ? "open" : "closed", t.finished);
        if (t.fnf_known)
            n += snprintf(line + n, sizeof line - (size_t)n, "%sfnf %s", dot, ui_num(t.fnf));
        if (t.optimum_known)
            snprintf(line + n, sizeof line - (size_t)n, "%soptimum %s", dot, ui_num(t.optimum));
        ui_put(v, cb, x, y++, w, R_HEAD | AF_BOLD, line);
        if (!v->room_bars || y >= bottom)
            return y;
        cb_fill(cb, x, y, w, bottom - y, ' ', R_NORMAL);
        challenge_bars(v, cb, x, y, w, bottom, &t);
        return bottom;
    }
    if (!v->room_bars || !t.round || y >= bottom)
        return y;
    /* the histogram: a row a choice (or right / wrong), a column a round */
    int rounds = t.round > 1 ? 2 : 1, first = 2 - rounds;
    int label = w / 4 < 24 ? w / 4 : 24;
    int col = (w - label - 1) / rounds;
    cb_fill(cb, x, y, w, bottom - y, ' ', R_NORMAL);
    for (int k = 0; k < rounds; k++) {
        snprintf(line, sizeof line, "round %d: %d voted", t.round - rounds + 1 + k, t.total[first + k]);
        ui_put(v, cb, x + label + 1 + k * col, y, col - 1, R_DIM, line);
    }
    y++;
    int most = 1;
    for (int k = first; k < 2; k++)
        for (int b = 0; b < t.nbars; b++)
            if (t.bars[k][b] > most)
                most = t.bars[k][b];
    bool shown = t.state == ROUND_REVEALED;
    for (int b = 0; b < t.nbars && y < bottom; b++, y++) {
        bool right = shown && (t.choices ? b == t.correct : b == 0);
        if (t.choices)
            snprintf(line, sizeof line, "%c %s", 'A' + b, s->choices[b]);
        else
            snprintf(line, sizeof line, "%s", b == 0 ? "right" : "wrong");
        if (!t.choices && !shown)
            snprintf(line, sizeof line, "%s", b == 0 ? "answers" : "");
        if (!t.choices && !shown && b == 1)
            break;   /* before the reveal a prediction's bars would tell who is right */
        ui_put(v, cb, x, y, label - 2, right ? R_GOOD | AF_BOLD : R_NORMAL, line);
        if (right)
            ui_put(v, cb, x + label - 2, y, 2, R_GOOD | AF_BOLD, v->ascii ? "*" : "\xe2\x9c\x93");
        for (int k = 0; k < rounds; k++) {
            int count = !t.choices && !shown ? t.total[first + k] : t.bars[first + k][b];
            bar(v, cb, x + label + 1 + k * col, y, col - 2, count, most > t.total[first + k] ? most
                : t.total[first + k] ? t.total[first + k] : 1, right ? R_GOOD : R_SEND);
        }
    }
    return bottom;
}

bool room_pane_refuses(struct view *v)
{
    if (!v->room)
        return false;
    struct room_tally t;
    room_tally(v->room, &t);
    if (t.state != ROUND_OPEN)
        return false;
    view_message(v, MSG_ERROR, "round %d is open: the projector answers nothing while the class votes "
                 "(v closes the round, a reveals)", t.round);
    return true;
}

unsigned room_pane_request(struct view *v, enum ui_req req)
{
    char *cause = NULL;
    if (!v->room && (req == REQ_VOTE || req == REQ_BARS || req == REQ_CHALLENGE || req == REQ_INSTANCES)) {
        view_message(v, MSG_INFO, "no room: hetcast lesson FILE --class ROOM opens one");
        return UI_HANDLED | UI_REDRAW;
    }
    switch (req) {
    case REQ_VOTE: {
        if (room_vote(v->room, &cause) < 0) {
            view_message(v, MSG_ERROR, "%s", cause ? cause : "the vote does not open");
            free(cause);
            break;
        }
        struct room_tally t;
        room_tally(v->room, &t);
        if (t.state == ROUND_CLOSED)
            view_message(v, MSG_INFO, "round %d closed: the class discusses; v opens round %d, a reveals", t.round,
                         t.round + 1);
        break;
    }
    case REQ_BARS:
        v->room_bars = !v->room_bars;
        break;
    case REQ_CHALLENGE:
        if (room_challenge(v->room, &cause) < 0) {
            view_message(v, MSG_ERROR, "%s", cause ? cause : "the challenge does not open");
            free(cause);
        } else {
            v->room_bars = true;   /* the class's makespans as they arrive */
        }
        break;
    case REQ_INSTANCES: {
        if (room_instances(v->room, &cause) < 0) {
            view_message(v, MSG_ERROR, "%s", cause ? cause : "the instances were not drawn");
            free(cause);
            break;
        }
        struct room_tally t;
        room_tally(v->room, &t);
        view_message(v, MSG_INFO, t.instances ? "every student answers about their own random instance (r: the "
                     "slide's own for all)" : "every student answers about the slide's own cluster");
        break;
    }
    case REQ_ANSWER:
        if (v->room && room_reveal(v->room, &cause) < 0) {
            view_message(v, MSG_ERROR, "%s", cause ? cause : "the answer was not sent to the room");
            free(cause);
        }
        break;
    default:
        return 0;
    }
    return UI_HANDLED | UI_REDRAW;
}
