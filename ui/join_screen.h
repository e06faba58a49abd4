/*
 * ui/join_screen.h - the student's screen of a live class (hetcast join
 * ROOM): the instructor's slide, its question and choices, the student's own
 * vote, and after the reveal the right answer with its explanation; a
 * challenge open on the slide, which Enter plays, and the makespan the
 * room recorded; drawn
 * into a cell buffer from what the room sent (session/room_client.h), so it
 * is tested without a terminal.  ui/join.c runs it (join_run).  No curses.
 */
#ifndef HETCAST_JOIN_SCREEN_H
#define HETCAST_JOIN_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "session/room_client.h"
#include "ui/cellbuf.h"

struct join_state {
    struct room_seen seen;
    const char *room;           /* the room's path, for the title */
    char typed[ROOM_ANSWER_MAX + 1];   /* a prediction being typed */
    bool ascii;
};

enum join_act {
    JOIN_NONE,      /* nothing to do */
    JOIN_REDRAW,
    JOIN_SEND,      /* send the line in out, then redraw */
    JOIN_QUIT,
    JOIN_PLAY,      /* play the slide's challenge (the exercise on its cluster; ui/term.c) */
};

void join_draw(const struct join_state *j, struct cellbuf *cb);
/* A key (ui/keys.h's codes): what to do; a vote's line goes to out. */
enum join_act join_key(struct join_state *j, int key, char *out, size_t size);

#endif
