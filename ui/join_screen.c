/*
 * ui/join_screen.c - the student's screen (ui/join_screen.h).  A choice is
 * one key (A-H); a prediction is typed and sent with Enter; Enter with
 * nothing typed plays an open challenge; q (with nothing typed) or Esc leaves.  The student never sees anybody else's vote: the
 * room sends none.
 */
#include "ui/join_screen.h"

#include <stdio.h>
#include <string.h>

#include "ui/drawkit.h"
#include "ui/keys.h"

/* Word-wrapped text (ui_wrap wants a view: one that only says ascii). */
static void wrap(const struct join_state *j, struct cellbuf *cb, int x, int y, int w, int rows, unsigned attr,
                 const char *s)
{
    static struct view v;
    v.ascii = j->ascii;
    ui_wrap(&v, cb, x, y, w, rows, attr, s);
}

void join_draw(const struct join_state *j, struct cellbuf *cb)
{
    const struct room_seen *s = &j->seen;
    cb_clear(cb);
    int w = cb->w - 4;
    char top[ROOM_TEXT_MAX + 64];
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    snprintf(top, sizeof top, "hetcast join %s %s", j->ascii ? "-" : "\xc2\xb7", s->user[0] ? s->user : "...");
    cb_text(cb, 1, 0, cb->w / 2, top, R_TITLE | AF_BOLD, j->ascii);
    if (s->slide) {
        snprintf(top, sizeof top, "slide %d/%d", s->slide, s->nslides);
        cb_text(cb, cb->w - 1 - text_width(top), 0, -1, top, R_TITLE | AF_BOLD, j->ascii);
    }
    int y = 2;
    if (!s->slide) {
        cb_text(cb, 2, y, w, "waiting for the room...", R_DIM, j->ascii);
    } else {
        cb_text(cb, 2, y++, w, s->title, R_HEAD | AF_BOLD, j->ascii);
        y++;
        if (s->question[0]) {
            wrap(j, cb, 2, y, w, 3, R_NORMAL | AF_BOLD, s->question);
            y += 3;
        }
        bool open = strcmp(s->state, "open") == 0, revealed = strcmp(s->state, "revealed") == 0;
        for (int i = 0; i < s->nchoices && y < cb->h - 4; i++, y++) {
            bool mine = s->yours[0] == 'A' + i && !s->yours[1];
            bool right = revealed && s->expected[0] == 'A' + i && s->expected[1] == ':';
            snprintf(top, sizeof top, "%c  %s", 'A' + i, s->choices[i]);
            unsigned a = right ? R_GOOD | AF_BOLD : mine ? R_SEL | AF_BOLD : R_NORMAL;
            cb_text(cb, 2, y, 3, mine ? ">" : " ", a, j->ascii);
            cb_text(cb, 4, y, w - 2, top, a, j->ascii);
        }
        y++;
        const char *what;
        if (strcmp(s->kind, "none") == 0)
            what = "nothing to answer on this slide";
        else if (revealed)
            what = "the answer is out";
        else if (open)
            what = strcmp(s->kind, "choices") == 0 ? "the vote is open: press the letter of your answer"
                   : strcmp(s->kind, "makespan") == 0 ? "the vote is open: type the makespan, then Enter"
                   : "the vote is open: type SENDER -> RECEIVER, then Enter";
        else
            what = "wait for the vote to open";
        snprintf(top, sizeof top, "%s%s", what, open && s->round > 1 ? " (second round: vote again)" : "");
        if (y < cb->h - 3)
            cb_text(cb, 2, y++, w, top, open ? R_INFO | AF_BOLD : R_DIM, j->ascii);
        if (s->yours[0] && y < cb->h - 3) {
            snprintf(top, sizeof top, "your vote: %s", s->yours);
            cb_text(cb, 2, y++, w, top, R_SEL, j->ascii);
        }
        if (open && strcmp(s->kind, "choices") != 0 && y < cb->h - 3) {
            snprintf(top, sizeof top, "> %s_", j->typed);
            cb_text(cb, 2, y++, w, top, R_NORMAL | AF_BOLD, j->ascii);
        }
        if (s->ch_state[0] && y < cb->h - 3) {   /* a challenge: the exercise on the slide's cluster */
            bool playing = strcmp(s->ch_state, "open") == 0;
            if (playing)
                snprintf(top, sizeof top, "challenge open: Enter plays the exercise (%d nodes, %s)",
                         s->ch_nodes, s->ch_model);
            else
                snprintf(top, sizeof top, "the challenge is closed");
            cb_text(cb, 2, y++, w, top, playing ? R_INFO | AF_BOLD : R_DIM, j->ascii);
            if (s->mine[0] && y < cb->h - 3) {
                snprintf(top, sizeof top, "your makespan: %s", s->mine);
                cb_text(cb, 2, y++, w, top, R_SEL, j->ascii);
            }
        }
        if (revealed && y < cb->h - 3) {
            if (s->expected[0]) {
                snprintf(top, sizeof top, "the answer: %s%s", s->expected,
                         s->result[0] ? strcmp(s->result, "right") == 0 ? " - you were right" : " - yours was wrong"
                                      : "");
                cb_text(cb, 2, y++, w, top, R_GOOD | AF_BOLD, j->ascii);
            }
            if (s->explain[0] && y < cb->h - 3)
                wrap(j, cb, 2, y, w, cb->h - 3 - y, R_NORMAL, s->explain);
        }
    }
    if (s->said[0])
        cb_text(cb, 1, cb->h - 2, cb->w - 2, s->said, s->said_error ? R_ERROR : R_INFO, j->ascii);
    cb_fill(cb, 0, cb->h - 1, cb->w, 1, ' ', R_STATUS);
    bool voting = strcmp(s->state, "open") == 0 && strcmp(s->kind, "none") != 0;
    bool playing = strcmp(s->ch_state, "open") == 0;
    char pick[64];   /* the letters of the choices shown */
    snprintf(pick, sizeof pick, "A-%c vote  %sq leave", 'A' + (s->nchoices > 1 ? s->nchoices - 1 : 1),
             playing ? "Enter play  " : "");
    cb_text(cb, 1, cb->h - 1, cb->w - 2, !voting ? playing ? "Enter play  q leave" : "q leave"
            : strcmp(s->kind, "choices") == 0 ? pick
            : playing ? "type, Enter: vote (nothing typed: play)  Esc leave" : "type, Enter: vote  Esc leave",
            R_STATUS, j->ascii);
}

enum join_act join_key(struct join_state *j, int key, char *out, size_t size)
{
    struct room_seen *s = &j->seen;
    bool open = strcmp(s->state, "open") == 0;
    bool choices = strcmp(s->kind, "choices") == 0;
    size_t n = strlen(j->typed);
    if (key == UK_ESC || (key == 'q' && n == 0 && (choices || !open)))
        return JOIN_QUIT;
    if (key == UK_RESIZE)
        return JOIN_REDRAW;
    if (key == UK_ENTER && n == 0 && strcmp(s->ch_state, "open") == 0) {
        if (s->csv_cut || !s->csvlen) {
            text_fit(s->said, sizeof s->said, "the challenge's cluster did not arrive whole: it cannot be played");
            s->said_error = true;
            return JOIN_REDRAW;
        }
        return JOIN_PLAY;
    }
    if (choices) {
        int k = key >= 'a' && key <= 'h' ? key - 'a' : key >= 'A' && key <= 'H' ? key - 'A' : -1;
        if (k < 0)
            return JOIN_NONE;
        if (k >= s->nchoices) {   /* a letter past the choices: said, not ignored */
            text_fit(s->said, sizeof s->said, "%c is not a choice here: vote A-%c", 'A' + k,
                     'A' + (s->nchoices > 0 ? s->nchoices - 1 : 0));
            s->said_error = true;
            return JOIN_REDRAW;
        }
        if (!open) {
            text_fit(s->said, sizeof s->said, "no vote is open now");
            s->said_error = true;
            return JOIN_REDRAW;
        }
        room_proto_vote(out, size, s->slide, s->round, (char[]){(char)('A' + k), '\0'});
        return JOIN_SEND;
    }
    if (!open || strcmp(s->kind, "none") == 0)
        return JOIN_NONE;
    if (key == UK_BACKSPACE) {
        while (n > 0 && ((unsigned char)j->typed[n - 1] & 0xc0) == 0x80)
            n--;   /* a whole character */
        if (n > 0)
            n--;
        j->typed[n] = '\0';
        return JOIN_REDRAW;
    }
    if (key == UK_ENTER) {
        if (!n)
            return JOIN_NONE;
        int sent = room_proto_vote(out, size, s->slide, s->round, j->typed);
        j->typed[0] = '\0';
        return sent < 0 ? JOIN_REDRAW : JOIN_SEND;
    }
    if (key >= 0x20 && key < 0x7f && n + 1 < sizeof j->typed) {   /* an answer is ASCII: numbers, node names */
        j->typed[n] = (char)key;
        j->typed[n + 1] = '\0';
        return JOIN_REDRAW;
    }
    return JOIN_NONE;
}
