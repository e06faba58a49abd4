/*
 * ui/term.h - the terminal front of the view: the function main() hands to the
 * command line (app/cli_common.h: cli_view_fn).  Everything curses lives behind it.
 */
#ifndef HETCAST_TERM_H
#define HETCAST_TERM_H

#include "session/session.h"

/* Open the interactive view on o->file; returns the exit status. */
int term_view(const struct session_opts *o);
struct lesson;
struct room;
/* A lesson (hetcast lesson FILE): its first slide, then the same loop;
 * with a room (--class ROOM, session/room.h, may be NULL) the loop also
 * serves the class, and the slide screen shows it (ui/room_pane.h). */
int term_lesson(const struct lesson *l, struct room *room);
/* hetcast join ROOM: the student's screen of a live class; as: a test room's
 * simulated user (HELLO 2 AS NAME), NULL for the one logged in.  Exit status. */
int term_join(const char *room, const char *as);

#endif
