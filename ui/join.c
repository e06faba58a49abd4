/*
 * ui/join.c - hetcast join ROOM (ui/join.h): the loop of the student's
 * screen: keys, the room's lines, a challenge played.
 */
#include "ui/join.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/room_client.h"
#include "support/diag.h"
#include "ui/join_screen.h"
#include "ui/screen_exercise.h"
#include "ui/term.h"
#include "ui/view.h"

/* The challenge a student plays: the view of the room's cluster, kept
 * across plays of the same challenge (x resumes the choices). */
struct join_play {
    struct view v;
    bool open;
    int slide;
    char *csv;
};

static void play_close(struct join_play *p)
{
    if (p->open)
        view_close(&p->v);
    free(p->csv);
    memset(p, 0, sizeof *p);
}

static void said(struct room_seen *s, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void said(struct room_seen *s, bool error, const char *fmt, ...)
{
    char buf[sizeof s->said];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text_fit(s->said, sizeof s->said, "%s", buf);
    s->said_error = error;
}

/* The room's cluster loaded into p's view, when it is not there already.
 * False when it cannot be played (s->said says why). */
static bool play_load(struct room_seen *s, struct join_play *p)
{
    if (p->open && (p->slide != s->slide || strcmp(p->csv, s->csv) != 0))
        play_close(p);
    if (p->open)
        return true;
    struct session_opts o;
    session_opts_init(&o);
    o.file = "(the room's challenge)";
    o.text = s->csv;
    o.model = s->ch_model;
    char *cause = NULL;
    if (view_open(&p->v, &o, &cause) != 0) {
        said(s, true, "the challenge cannot be played: %s", cause ? cause : "failed");
        free(cause);
        return false;
    }
    p->open = true;
    if (p->v.c->n != s->ch_nodes || p->v.c->n > ROOM_CHALLENGE_NODES) {   /* the room said otherwise */
        said(s, true, "the challenge cannot be played: the room announced %d nodes and sent %d", s->ch_nodes,
             p->v.c->n);
        play_close(p);
        return false;
    }
    p->slide = s->slide;
    p->csv = xstrdup(s->csv);
    return true;
}

/*
 * Play the slide's challenge: the exercise (screen_exercise.c, the same as
 * the instructor's x) on the cluster the room sent, until the student
 * leaves it (x or q).  A finished broadcast's picks go to the room as
 * PLAY SLIDE F>T ...; the room replays them and answers DONE with the
 * makespan it found.  0, -1 when the room cannot be written to, or
 * 128 + a signal.
 */
static int join_play(struct join_state *j, struct join_play *p, struct term *t, int fd)
{
    struct room_seen *s = &j->seen;
    if (!play_load(s, p))
        return 0;
    struct view *v = &p->v;
    int status = term_play(t, v, s->ch_nohints ? EX_NO_HINTS : 0);   /* C: until the reveal */
    if (status < 0) {
        said(s, true, "%s", v->msg[0] ? v->msg : "the exercise does not open");
        return 0;
    }
    if (status != 0)
        return status;   /* a signal, or the terminal went away */
    const int *from, *to;
    int n = view_moves(v, &from, &to);   /* the exercise's choices */
    if (n != v->c->n - 1) {
        said(s, false, "%s", n ? "not finished: nothing sent (Enter goes back to your choices)" : "nothing played");
        return 0;
    }
    char line[ROOM_LINE_MAX + 1];
    if (room_proto_play(line, sizeof line, s->slide, from, to, n) < 0) {
        said(s, true, "the picks are longer than a line of the room");
        return 0;
    }
    said(s, false, "your picks went to the room: waiting for its replay");
    return room_client_send(fd, line) < 0 ? -1 : 0;
}

static void draw_join(void *ctx, struct cellbuf *cb)
{
    join_draw(ctx, cb);
}

/* The keys typed: each one's act.  0 to go on, else why the loop ends
 * (an exit status, or -1: the room closed). */
static int keys(struct join_state *j, struct join_play *play, struct term *t, int fd, bool *quit)
{
    int key;
    while ((key = term_key()) != 0) {
        char line[ROOM_LINE_MAX + 1];
        enum join_act a = join_key(j, key, line, sizeof line);
        if (a == JOIN_QUIT) {
            *quit = true;
            return 0;
        }
        int rc = a == JOIN_PLAY ? join_play(j, play, t, fd)
                 : a == JOIN_SEND ? room_client_send(fd, line) : 0;
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The screen's loop: 0 when the student leaves, else an exit status with *why. */
static int join_loop(struct join_state *j, struct term *t, int fd, char **why)
{
    static struct join_play play;
    int status = 0;
    bool quit = false;
    while (!quit && status == 0) {
        term_redraw(t, draw_join, j);
        bool typed;
        short ready;
        status = term_wait(t, fd, &typed, &ready);
        if (status == 0 && ready && room_client_read(fd, &j->seen, why) < 0)
            status = 1;
        if (status == 0 && typed)
            status = keys(j, &play, t, fd, &quit);
        if (status < 0) {
            *why = xasprintf("the room closed the connection");
            status = 1;
        }
    }
    play_close(&play);
    return status;
}

int join_run(const char *room, const char *as)
{
    setlocale(LC_CTYPE, "");
    char *cause = NULL;
    int fd = room_client_connect(room, &cause);
    char hello[ROOM_LINE_MAX + 1];
    if (fd >= 0 && (room_proto_hello(hello, sizeof hello, as) < 0 || room_client_send(fd, hello) < 0)) {
        close(fd);
        fd = -1;
        cause = xasprintf("%s: the room closed the connection", room);
    }
    if (fd < 0) {
        fputs(diag_who(), stderr);
        fputs(": ", stderr);
        text_put(cause ? cause : "cannot join", stderr);
        fputc('\n', stderr);
        free(cause);
        return 2;
    }
    static struct join_state j;
    memset(&j, 0, sizeof j);
    j.room = room;
    int status;
    struct term *t = term_open(room, &status);
    if (!t) {
        close(fd);
        return status;
    }
    j.ascii = term_ascii(t);
    char *why = NULL;
    status = join_loop(&j, t, fd, &why);
    if (status == 0)
        room_client_send(fd, ROOM_PROTO_BYE);
    term_close(t);
    close(fd);
    room_client_free(&j.seen);
    if (why) {
        fputs(diag_who(), stderr);
        fputs(": ", stderr);
        text_put(why, stderr);
        fputc('\n', stderr);
        free(why);
    }
    return status;
}
