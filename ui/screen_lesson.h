/*
 * ui/screen_lesson.h - the slide screen's own functions (screen_lesson.c),
 * for the tests: the view, the terminal, the drawing and the
 * other screens reach the slide screen through its hooks (struct screen:
 * start, hold, hides, strip, answer, behind, want), never through these.
 */
#ifndef HETCAST_SCREEN_LESSON_H
#define HETCAST_SCREEN_LESSON_H

#include <stdbool.h>

#include "ui/view.h"

struct lesson;
/* Open lesson l at slide k on its slide screen.  0, or the exit status with *cause. */
int lesson_view_open(struct view *v, const struct lesson *l, int k, char **cause);
/* The same with the front door's hooks (view_open_hooked): its first run is watched. */
int lesson_view_open_hooked(struct view *v, const struct lesson *l, int k, const struct view *hooks,
                            char **cause);
/*
 * A slide's question, answered in one place whatever asks (the slide's keys,
 * the prompt's y, a live class): lesson_answer grades answer with
 * lesson_grade against the slide's run (its first scheduler), keeps the
 * verdict, reveals the answer and says it on the message line (0, or -1 with
 * the message saying why it cannot be read); lesson_reveal reveals it
 * ungraded (a).  lesson_revealed: true without a lesson.
 */
int lesson_answer(struct view *v, const char *answer);
void lesson_reveal(struct view *v);
bool lesson_revealed(const struct view *v);
/* d: a new random instance of the slide's kind in its place -- the slide's Lua cluster
 * with another seed (when the script reads one), or a node table of its size where fnf
 * loses to the optimum; ] then [ go back to the slide's own. */
void lesson_new_instance(struct view *v);
/* Go to slide k (clamped).  The next slide is opened beside the one shown, which
 * stays as it was, with a message, when that fails or is cancelled. */
void lesson_go(struct view *v, int k);

#endif
