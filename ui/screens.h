/*
 * ui/screens.h - the view's screens, one const struct screen each
 * (ui/view.h), each defined in its screen_*.c.  Only ui/screens.c (the
 * table the others reach them through: screen_for), each screen for its own
 * definition and the tests name them; the view, the terminal, the drawing
 * and the screens among themselves go by id (SCR_*, ui/keys.h).  No curses.
 */
#ifndef HETCAST_SCREENS_H
#define HETCAST_SCREENS_H

#include "ui/view.h"

extern const struct screen screen_main, screen_help, screen_chooser, screen_exercise, screen_facts,
    screen_prompt, screen_lesson;

#endif
