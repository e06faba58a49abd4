/*
 * ui/term.h - the terminal front of the view: the function main() hands to the
 * command line (app/cli_common.h: cli_view_fn).  Everything curses lives behind it.
 */
#ifndef HETCAST_TERM_H
#define HETCAST_TERM_H

#include <stdbool.h>

#include "session/session.h"

/* Open the interactive view on o->file; returns the exit status. */
int term_view(const struct session_opts *o);
struct lesson;
struct room;
/* A lesson (hetcast lesson FILE): its first slide, then the same loop;
 * with a room (--class ROOM, session/room.h, may be NULL) the loop also
 * serves the class, and the slide screen shows it (ui/room_pane.h). */
int term_lesson(const struct lesson *l, struct room *room);

/* ---- the terminal for the view's other front, hetcast join (ui/join.c) ---- */

struct term;        /* curses up: the screen's cell buffer, the terminal's modes */
struct cellbuf;
struct view;
/* Curses up (a refusal names file): the terminal, or NULL with *status (an
 * exit status, after a message; the terminal as it was). */
struct term *term_open(const char *file, int *status);
/* Curses down, the terminal restored. */
void term_close(struct term *t);
/* Characters drawn in ASCII (the locale is not UTF-8). */
bool term_ascii(const struct term *t);
/* The one redraw: the buffer sized to the screen, draw(ctx, cb), flushed. */
void term_redraw(struct term *t, void (*draw)(void *ctx, struct cellbuf *cb), void *ctx);
/* Wait for keys, for fd (-1: none) or a signal (a resize is taken in).
 * 0 with *keys (read: term_key hands them out) and *ready (fd's revents);
 * or an exit status: 128 + a signal, 1 when the wait failed. */
int term_wait(struct term *t, int fd, bool *keys, short *ready);
/* The next key typed (0: none left). */
int term_key(void);
/* The exercise screen of v on this terminal, opened with arg (0, or
 * EX_NO_HINTS: ui/screen_exercise.h), until the student leaves it
 * (x or q); v keeps its choices.  0, -1 (the screen does not open: v's
 * message says why), or 128 + a signal / 1 (the terminal went away). */
int term_play(struct term *t, struct view *v, int arg);

#endif
