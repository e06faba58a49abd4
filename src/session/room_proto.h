/*
 * session/room_proto.h - a live class's protocol (docs/class.md is its
 * reference): every line a client and a room say to each other, written and
 * read here, by the room (session/room.c) and by the student's client
 * (session/room_client.c, hetcast join) alike.  Line-based UTF-8 text,
 * version ROOM_PROTO, every field bounded; this module holds no socket: it
 * turns values into lines and lines into values.
 *
 * A client says HELLO, VOTE, PLAY, PING and BYE (room_proto_hello ...,
 * read by room_proto_parse); the room says WELCOME, the SLIDE block, OK,
 * DONE, ERR and PONG (room_proto_welcome ..., read by room_proto_take into
 * what the student's screen shows, struct room_seen).  Lesson text goes out
 * on one line (breaks become spaces, what is not text escaped, cut to
 * ROOM_TEXT_MAX); what comes in is kept only once it passed diag.h's text
 * rule, and numbers only within their ranges.
 */
#ifndef HETCAST_ROOM_PROTO_H
#define HETCAST_ROOM_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "session/lesson.h"
#include "session/room_challenge.h"

#define ROOM_PROTO 2            /* the protocol's version (2: class challenges) */
#define ROOM_LINE_MAX 512       /* bytes of a client's line, its newline included */
#define ROOM_ANSWER_MAX 160     /* bytes of an answer */
#define ROOM_USER_MAX 32        /* bytes of a user name */
#define ROOM_TEXT_MAX 400       /* bytes of a title, question or answer sent to a student */
#define ROOM_SLIDES_MAX 10000   /* slides of a lesson, as a client believes them */
#define ROOM_NODES_SENT 16      /* rows of a slide's node table sent to a student (NODES says how many in all) */

/* Where the room's lines go: put(ctx, bytes, n), each line with its newline. */
struct room_out {
    void (*put)(void *ctx, const char *s, size_t n);
    void *ctx;
};

/* ---- a client's lines ---- */

/* "HELLO 2\n" or "HELLO 2 AS NAME\n" (as: NULL or a test name) into buf.  Its length, or -1 (too long). */
int room_proto_hello(char *buf, size_t size, const char *as);
/* "VOTE SLIDE ROUND ANSWER\n".  Its length, or -1 (longer than ROOM_LINE_MAX). */
int room_proto_vote(char *buf, size_t size, int slide, int round, const char *answer);
/* "PLAY SLIDE F>T ...\n" from n picks.  Its length, or -1 (longer than ROOM_LINE_MAX). */
int room_proto_play(char *buf, size_t size, int slide, const int *from, const int *to, int n);
#define ROOM_PROTO_BYE "BYE\n"

enum room_msg_kind { RMSG_HELLO, RMSG_VOTE, RMSG_PLAY, RMSG_PING, RMSG_BYE, RMSG_BAD };

/* A client's line as the room reads it. */
struct room_msg {
    enum room_msg_kind kind;
    char as[ROOM_USER_MAX + 1];     /* HELLO AS NAME: the name ("" none) */
    int slide, round;               /* VOTE: both; PLAY: slide */
    const char *text;               /* VOTE: the answer; PLAY: the picks (inside the line read) */
    char why[ROOM_TEXT_MAX + 1];    /* RMSG_BAD: the reason, for an ERR line */
    bool fatal;                     /* RMSG_BAD: the connection closes after it */
};

/* Read one client line (its newline removed; a '\r' before it dropped in
 * place); hello: the client has said HELLO already.  Fills m. */
void room_proto_parse(char *line, size_t n, bool hello, struct room_msg *m);

/* ---- the room's lines ---- */

/* What a student sees of the slide shown (the SLIDE block). */
struct room_block {
    int slide, nslides, round;      /* slide 1-based */
    const char *state, *kind;       /* room_round_word; "choices", "makespan", "next" or "none" */
    const char *title, *question;   /* lesson text (NULL: none) */
    const char *text;               /* the slide's text (NULL: none) */
    const struct cluster *nodes;    /* the slide's cluster, for its node table (NULL: none) */
    const char *const *choices;
    int nchoices;
    bool challenge, ch_open;        /* a CHALLENGE line; its CSV lines when open */
    int ch_nodes;
    const char *ch_model, *ch_csv;  /* the cluster, lines ended by '\n' */
    bool ch_nohints;                /* the exercise shows no best reachable, no optimum (yet) */
    bool mine;                      /* the student's result, mine_makespan */
    double mine_makespan;
    const char *yours;              /* the student's vote in round (NULL: none) */
    bool revealed;
    const char *expected, *explain; /* after the reveal (NULL: none) */
    int result;                     /* after the reveal: 1 right, 0 wrong, -1 no vote */
};

/* The one line a connection the room cannot take gets before it is closed. */
#define ROOM_PROTO_FULL "ERR the room is full\n"

void room_proto_block(const struct room_out *o, const struct room_block *b);
void room_proto_welcome(const struct room_out *o, const char *user);
void room_proto_ok(const struct room_out *o, int slide, int round, const char *given);
void room_proto_done(const struct room_out *o, int slide, double makespan);
void room_proto_pong(const struct room_out *o);
/* "ERR " and the reason (lesson text or a client's text in it: one line, escaped). */
void room_proto_err(const struct room_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as one line a client can hold (breaks and tabs become spaces, what is not text escaped, cut). */
const char *room_proto_line_text(const char *s, char *buf, size_t size);

/* What a student's screen shows: the room's lines read (room_proto_take). */
struct room_seen {
    char user[ROOM_USER_MAX + 1];
    int slide, nslides, round;      /* slide 1-based; 0: nothing yet */
    char state[16];                 /* "open", "closed", "revealed", "none" */
    char kind[16];                  /* "choices", "makespan", "next", "none" */
    char title[ROOM_TEXT_MAX + 1], question[ROOM_TEXT_MAX + 1], text[ROOM_TEXT_MAX + 1];
    /* the slide's node table (NODES, NODE): nodes in all, the latency ("" a matrix), the rows sent */
    int nodes_total, nnodes;
    char latency[32];
    struct room_node {
        char name[64], send[32], recv[32];
    } nodes[ROOM_NODES_SENT];
    char choices[LESSON_MAX_CHOICES][ROOM_TEXT_MAX + 1];
    int nchoices;
    char yours[ROOM_TEXT_MAX + 1];  /* the student's vote in this round ("" none) */
    char expected[ROOM_TEXT_MAX + 1], explain[ROOM_TEXT_MAX + 1], result[16];
    char said[ROOM_TEXT_MAX + 1];   /* the room's last OK or ERR, for the status line */
    bool said_error;
    /* the slide's challenge (CHALLENGE, CSV, MINE): its state ("" none, "open", "closed"), its
     * cluster as CSV text (what the student plays), and the makespan the room recorded */
    char ch_state[16], ch_model[32];
    int ch_nodes;
    bool ch_nohints;                /* "nohints": the exercise without best reachable and optimum */
    char csv[ROOM_CHALLENGE_BYTES + 1];
    size_t csvlen;
    bool csv_cut;                   /* more than ROOM_CHALLENGE_BYTES came: not played */
    char mine[32];
    /* the block being read (SLIDE ... END) before it replaces the one shown */
    struct room_seen *next;
    char in[4 * ROOM_TEXT_MAX];
    size_t inlen;
};

/* One line from the room (its newline removed) into s: 1 the screen
 * changes, 0 not, -1 with *cause when the room broke the protocol. */
int room_proto_take(struct room_seen *s, char *line, char **cause);
void room_proto_seen_free(struct room_seen *s);

#endif
