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
/* A lesson (hetcast lesson FILE): its first slide, then the same loop. */
int term_lesson(const struct lesson *l);

#endif
