/*
 * ui/screens.c - the table of the view's screens by id (as sched/registry.c
 * is the schedulers'): the one file that names every screen, so that the
 * view, the terminal, the drawing and the screens reach one another through
 * screen_for and the hooks of struct screen, never by a screen's own names.
 */
#include "ui/screens.h"

#include <stddef.h>

static const struct screen *const screens[] = {
    &screen_main, &screen_exercise, &screen_chooser, &screen_help,
    &screen_facts, &screen_prompt, &screen_lesson,
};

const struct screen *screen_for(unsigned id)
{
    for (size_t i = 0; i < sizeof screens / sizeof *screens; i++)
        if (screens[i]->id == id)
            return screens[i];
    return &screen_main;
}
