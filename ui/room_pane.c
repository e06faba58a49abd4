/*
 * ui/room_pane.c - the room's counts and histogram on the slide screen
 * (ui/room_pane.h).  Everything shown comes from room_tally: numbers, the
 * choices' own texts from the lesson, never a user.
 */
#include "ui/room_pane.h"

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
    if (t.round)
        snprintf(line + n, sizeof line - (size_t)n, "%s%d voted%sround %d %s", dot, t.voted, dot, t.round,
                 room_round_word(t.state));
    else if (slide_gradable(s))
        snprintf(line + n, sizeof line - (size_t)n, "%sv: open the vote", dot);
    ui_put(v, cb, x, y++, w, R_HEAD | AF_BOLD, line);
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

unsigned room_pane_request(struct view *v, enum ui_req req)
{
    char *cause = NULL;
    switch (req) {
    case REQ_VOTE:
        if (!v->room) {
            view_message(v, MSG_INFO, "no room: hetcast lesson FILE --class ROOM opens one");
            break;
        }
        if (room_vote(v->room, &cause) < 0) {
            view_message(v, MSG_ERROR, "%s", cause ? cause : "the vote does not open");
            free(cause);
        }
        break;
    case REQ_BARS:
        if (!v->room)
            view_message(v, MSG_INFO, "no room: hetcast lesson FILE --class ROOM opens one");
        else
            v->room_bars = !v->room_bars;
        break;
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
