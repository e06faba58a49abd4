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

/* The lines under the choices, the most needed first: once revealed the
 * answer and whether the student was right; what to do now; the student's
 * vote; what they type; the challenge.  Returns how many (at most max). */
struct jline {
    char text[ROOM_TEXT_MAX + 96];
    unsigned attr;
};

static int tail_lines(const struct join_state *j, struct jline *ln, int max)
{
    const struct room_seen *s = &j->seen;
    bool open = strcmp(s->state, "open") == 0, revealed = strcmp(s->state, "revealed") == 0;
    int n = 0;
    if (revealed && s->expected[0] && n < max) {
        snprintf(ln[n].text, sizeof ln[n].text, "the answer: %s%s", s->expected,
                 s->result[0] ? strcmp(s->result, "right") == 0 ? " - you were right" : " - yours was wrong" : "");
        ln[n++].attr = R_GOOD | AF_BOLD;
    }
    const char *what = NULL;
    if (strcmp(s->kind, "none") == 0)
        what = "nothing to answer on this slide";
    else if (open)
        what = strcmp(s->kind, "choices") == 0 ? "press the letter of your answer"
               : strcmp(s->kind, "makespan") == 0 ? "type the makespan, then Enter"
               : "type SENDER -> RECEIVER, then Enter";
    else if (strcmp(s->state, "closed") == 0)
        what = "closed: discuss with your neighbour";
    else if (!revealed)
        what = "wait for the vote to open";
    if (what && n < max) {
        if (open && s->round > 1)   /* short enough for 60 columns */
            snprintf(ln[n].text, sizeof ln[n].text, "round %d: vote again, %s", s->round, what);
        else
            snprintf(ln[n].text, sizeof ln[n].text, "%s%s", open ? "the vote is open: " : "", what);
        ln[n++].attr = open ? R_INFO | AF_BOLD : R_DIM;
    }
    if (s->yours[0] && n < max) {
        snprintf(ln[n].text, sizeof ln[n].text, "your vote: %s", s->yours);
        ln[n++].attr = R_SEL;
    }
    if (open && strcmp(s->kind, "choices") != 0 && n < max) {
        snprintf(ln[n].text, sizeof ln[n].text, "> %s_", j->typed);
        ln[n++].attr = R_NORMAL | AF_BOLD;
    }
    if (s->ch_state[0] && n < max) {   /* a challenge: the exercise on the slide's cluster */
        bool playing = strcmp(s->ch_state, "open") == 0;
        if (playing)
            snprintf(ln[n].text, sizeof ln[n].text, "challenge open: Enter to play (%d nodes, %s%s)",
                     s->ch_nodes, s->ch_model, s->ch_nohints ? ", no hints" : "");
        else
            snprintf(ln[n].text, sizeof ln[n].text, "the challenge is closed");
        ln[n++].attr = playing ? R_INFO | AF_BOLD : R_DIM;
        if (s->mine[0] && n < max) {
            snprintf(ln[n].text, sizeof ln[n].text, "your makespan: %s", s->mine);
            ln[n++].attr = R_SEL;
        }
    }
    return n;
}

/* The slide's text and node table in at most rows rows from row y (the
 * table cut with an ellipsis and the count of the nodes left out).  Returns
 * the rows used. */
static int draw_facts(const struct join_state *j, struct cellbuf *cb, int y, int rows, int w)
{
    const struct room_seen *s = &j->seen;
    int used = 0, table = s->nnodes ? 1 + s->nnodes : 0;
    int text = s->text[0] ? ui_wrap_rows(s->text, w) : 0;
    if (text > rows - (table ? 3 : 0))   /* the table keeps its head and two nodes when it can */
        text = rows - (table ? 3 : 0);
    if (text < 1 && rows > 0 && s->text[0] && !table)
        text = rows;
    if (text > 0) {
        wrap(j, cb, 2, y, w, text, R_NORMAL, s->text);
        used += text;
    }
    if (!table || rows - used < 1 + (s->nnodes < 2 ? s->nnodes : 2))   /* a head and two nodes, or none */
        return used;
    char t[160];
    int nw = 4;   /* the name column: the longest name shown */
    for (int i = 0; i < s->nnodes; i++)
        if (text_width(s->nodes[i].name) > nw)
            nw = text_width(s->nodes[i].name) > 20 ? 20 : text_width(s->nodes[i].name);
    snprintf(t, sizeof t, "%-*s %8s %8s   %d node%s%s%s", nw, "node", "send", "recv", s->nodes_total,
             s->nodes_total == 1 ? "" : "s", s->latency[0] ? ", latency " : ", a latency matrix", s->latency);
    cb_text(cb, 2, y + used++, w, t, R_DIM, j->ascii);
    for (int i = 0; i < s->nnodes && used < rows; i++) {
        int left = s->nodes_total - i;
        if (used == rows - 1 && left > 1) {   /* the rest do not fit: said, not dropped */
            snprintf(t, sizeof t, "%s %d more", j->ascii ? "~" : "\xe2\x80\xa6", left);
            cb_text(cb, 2, y + used++, w, t, R_DIM, j->ascii);
            break;
        }
        cb_text(cb, 2, y + used, nw, s->nodes[i].name, R_NORMAL, j->ascii);
        snprintf(t, sizeof t, " %8s %8s", s->nodes[i].send, s->nodes[i].recv);
        cb_text(cb, 2 + nw, y + used++, w - nw, t, R_NORMAL, j->ascii);
        if (i == s->nnodes - 1 && s->nnodes < s->nodes_total && used < rows) {
            snprintf(t, sizeof t, "%s %d more", j->ascii ? "~" : "\xe2\x80\xa6", s->nodes_total - s->nnodes);
            cb_text(cb, 2, y + used++, w, t, R_DIM, j->ascii);
        }
    }
    return used;
}

/* The slide: its title, question, choices and the lines under them, from
 * row y to bottom (excluded).  What does not fit is cut with an ellipsis,
 * the choices first: the answer and what to do stay in sight. */
static void draw_slide(const struct join_state *j, struct cellbuf *cb, int y, int bottom, int w)
{
    const struct room_seen *s = &j->seen;
    struct jline ln[6];
    int nl = tail_lines(j, ln, 6);
    bool revealed = strcmp(s->state, "revealed") == 0;
    cb_text(cb, 2, y++, w, s->title, R_HEAD | AF_BOLD, j->ascii);
    int room = bottom - y - nl;   /* rows for the question and the choices */
    if (room > s->nchoices + 3)
        y++;   /* a blank row under the title when there is room */
    int q = s->question[0] ? ui_wrap_rows(s->question, w) : 0;
    q = q > 3 ? 3 : q;
    /* the slide's text and node table in the rows the question, choices and the lines under them leave */
    int spare = bottom - y - q - s->nchoices - nl - (s->nchoices ? 1 : 0) - 1;
    int facts = spare > 0 ? draw_facts(j, cb, y, spare, w) : 0;
    y += facts ? facts + 1 : 0;
    if (q > bottom - y - nl - (s->nchoices ? 1 : 0))
        q = bottom - y - nl - (s->nchoices ? 1 : 0);
    if (q > 0) {
        wrap(j, cb, 2, y, w, q, R_NORMAL | AF_BOLD, s->question);
        y += q;
    }
    int fit = bottom - y - nl;   /* rows for the choices */
    char t[ROOM_TEXT_MAX + 64];
    for (int i = 0; i < s->nchoices && fit > 0; i++, y++, fit--) {
        if (fit == 1 && i < s->nchoices - 1) {   /* the rest do not fit: said, not dropped */
            snprintf(t, sizeof t, "%s %d more (%c-%c)", j->ascii ? "~" : "\xe2\x80\xa6", s->nchoices - i, 'A' + i,
                     'A' + s->nchoices - 1);
            cb_text(cb, 4, y++, w - 2, t, R_DIM, j->ascii);
            break;
        }
        bool mine = s->yours[0] == 'A' + i && !s->yours[1];
        bool right = revealed && s->expected[0] == 'A' + i && s->expected[1] == ':';
        snprintf(t, sizeof t, "%c  %s", 'A' + i, s->choices[i]);
        unsigned a = right ? R_GOOD | AF_BOLD : mine ? R_SEL | AF_BOLD : R_NORMAL;
        cb_text(cb, 2, y, 3, mine ? ">" : " ", a, j->ascii);
        cb_text(cb, 4, y, w - 2, t, a, j->ascii);
    }
    if (s->nchoices && y < bottom - nl)
        y++;   /* a blank row under the choices when there is room */
    for (int i = 0; i < nl && y < bottom; i++)
        cb_text(cb, 2, y++, w, ln[i].text, ln[i].attr, j->ascii);
    if (revealed && s->explain[0] && y < bottom)
        wrap(j, cb, 2, y, w, bottom - y, R_NORMAL, s->explain);
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
    if (!s->slide)
        cb_text(cb, 2, 2, w, "waiting for the room...", R_DIM, j->ascii);
    else
        draw_slide(j, cb, 2, cb->h - 2, w);
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
