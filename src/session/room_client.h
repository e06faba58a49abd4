/*
 * session/room_client.h - a student's side of a live class (hetcast join
 * ROOM): connect to the room's socket, say HELLO, and read what the room
 * sends (session/room.h; docs/class.md) into what the student's screen
 * shows: the slide, its question and choices, the student's own vote, and
 * after the reveal the right answer; and a challenge's cluster, which the
 * student plays in the exercise (ui/term.c) before the picks go back.  Lines are read whole, bounded; every
 * text field is kept as it came only once it passed diag.h's text rule.
 */
#ifndef HETCAST_ROOM_CLIENT_H
#define HETCAST_ROOM_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "session/lesson.h"
#include "session/room.h"
#include "session/room_challenge.h"

struct room_seen {
    char user[ROOM_USER_MAX + 1];
    int slide, nslides, round;      /* slide 1-based; 0: nothing yet */
    char state[16];                 /* "open", "closed", "revealed", "none" */
    char kind[16];                  /* "choices", "makespan", "next", "none" */
    char title[ROOM_TEXT_MAX + 1], question[ROOM_TEXT_MAX + 1];
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
    char csv[ROOM_CHALLENGE_BYTES + 1];
    size_t csvlen;
    bool csv_cut;                   /* more than ROOM_CHALLENGE_BYTES came: not played */
    char mine[32];
    /* the block being read (SLIDE ... END) before it replaces the one shown */
    struct room_seen *next;
    char in[4 * ROOM_TEXT_MAX];
    size_t inlen;
};

/* Connect to the room at path: the socket, or -1 with *cause. */
int room_client_connect(const char *path, char **cause);
/* Read what fd has (non-blocking) into s: 1 something changed, 0 nothing,
 * -1 the room closed or broke the protocol (*cause). */
int room_client_read(int fd, struct room_seen *s, char **cause);
void room_client_free(struct room_seen *s);

#endif
