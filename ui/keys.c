/*
 * keys.c - the view's key table (ui/keys.h): every key the view answers, on
 * which screens, the request it makes and the help text, in the order the
 * help screen lists them.  Adding a key is adding a row here and a case to
 * the request function of each screen it names; tests/test_ui_view.c
 * presses every row's keys on its screens and checks each is handled.
 */
#include "ui/keys.h"

#include <stdio.h>
#include <string.h>

#include "ui/glyphs.h"
#include "ui/vkind.h"

/* ---- texts that depend on the run ---- */

/* The texts of the run's kind (one table: ui/vkind.c). */
static const char *sched_help(const struct vkind *k)
{
    return k->help_sched;
}

static const char *model_help(const struct vkind *k)
{
    return k->help_model;
}

static const char *pane_help(const struct vkind *k)
{
    return k->help_pane;
}

/* No exercise beside an exchange or a pipeline: x says why (screen_exercise.c). */
static const char *exercise_help(const struct vkind *k)
{
    return k->no_exercise ? NULL : "exercise: pick each (sender, receiver) pair yourself";
}

static const char *select_help(const struct vkind *k)
{
    return k->help_select;
}

/* An exchange has no source: every node sends (o says so). */
static const char *source_help(const struct vkind *k)
{
    return k->no_source ? NULL : "make the selected node the source";
}

static const char *export_help(const struct vkind *k)
{
    return k->help_export;
}

/* ---- the table ---- */

#define MAIN SCR_MAIN
#define EX SCR_EXERCISE
#define LIST SCR_CHOOSER
#define SLIDE SCR_LESSON

static const struct key_row rows[] = {
    /* the main screen, in the help's order */
    {{UK_RIGHT, 'l', ' '}, MAIN, REQ_NEXT, "next event", NULL},
    {{UK_LEFT, 'h'}, MAIN, REQ_PREV, "previous event (an exact replay from the start)", NULL},
    {{UK_HOME, 'g', UK_END, 'G'}, MAIN, REQ_START, "start of the schedule (Home g), end of the schedule (End G)",
     NULL},
    {{'p'}, MAIN, REQ_PLAY, "play / pause", NULL},
    {{'<', '>', ',', '.'}, MAIN, REQ_SPEED, "slower / faster play", NULL},
    {{'s', 'S'}, MAIN, REQ_SCHED, "scheduler: the built-ins and the Lua heuristics in lua/", sched_help},
    {{'m'}, MAIN, REQ_MODEL, "port model", model_help},
    {{'c'}, MAIN, REQ_COMPARE, "compare on/off: two schedulers on one time axis", NULL},
    {{'t'}, MAIN, REQ_PANE, "tree pane: who sent to whom, receive times, critical path", pane_help},
    {{'x'}, MAIN, REQ_EXERCISE, "exercise: pick each (sender, receiver) pair yourself", exercise_help},
    {{UK_UP, UK_DOWN}, MAIN, REQ_SELECT, "select a node: its bars and its path in the tree", select_help},
    {{UK_PGUP, UK_PGDN}, MAIN, REQ_PAGE, "scroll the nodes a page", NULL},
    {{'o'}, MAIN, REQ_SOURCE, "make the selected node the source", source_help},
    {{'e'}, MAIN, REQ_EXPORT, "export: SVG (Gantt and tree) and CSV (schedule)", export_help},
    {{UK_ESC}, MAIN, REQ_CLEAR, "clear the message line", NULL},
    {{'i', 'L', 'f'}, MAIN, REQ_FACTS, "node facts (i), narration log (L), shared links' lanes (f)",
     NULL},
    {{'/', 'n', 'N', ':'}, MAIN, REQ_FIND,
     "find a node (/; n next, N previous), go to step or t=time (:)", NULL},
    {{']', '[', 'w', 'a', 'y'}, MAIN, REQ_SLIDE, "a lesson: slides ] [, text w, answer a, yours y", NULL},
    /* a lesson's slide (hetcast lesson FILE) */
    {{UK_ENTER, ' ', UK_RIGHT, 'l'}, SLIDE, REQ_PICK, "show the schedule", NULL},
    {{']', '[', UK_PGDN, UK_PGUP}, SLIDE, REQ_SLIDE, "next slide (] PgDn), previous ([ PgUp)", NULL},
    {{'a'}, SLIDE, REQ_ANSWER, "reveal the answer to the question (to the class too)", NULL},
    {{'A', 'B', 'C', 'D', 'E', 'F'}, SLIDE, REQ_CHOICE, "pick a choice: A-H or 1-8, graded at once", NULL},
    {{'G', 'H', '1', '2', '3', '4'}, SLIDE, REQ_CHOICE, "(the choices G, H, 1-4)", NULL},
    {{'5', '6', '7', '8'}, SLIDE, REQ_CHOICE, "(the choices 5-8)", NULL},
    {{'d'}, SLIDE, REQ_SLIDE, "draw a new random instance of the slide's kind", NULL},
    {{'y'}, SLIDE, REQ_REPLY, "a lesson: type your answer (a prediction, or a choice), graded", NULL},
    {{'v'}, SLIDE, REQ_VOTE, "a live class: open the vote, close it, open round 2", NULL},
    {{'b'}, SLIDE, REQ_BARS, "a live class: the histogram of the answers on / off", NULL},
    {{'c'}, SLIDE, REQ_CHALLENGE, "a live class: the class plays the exercise; again: close", NULL},
    {{'r'}, SLIDE, REQ_INSTANCES, "a live class: every student their own random instance; again: the slide's",
     NULL},
    /* the main screen, the exercise and a slide: listed after each one's own rows */
    {{'+', '-', '=', '_'}, MAIN | EX, REQ_ZOOM, "zoom time in / out", NULL},
    {{'r'}, MAIN | EX, REQ_RELOAD, "reload the file from disk", NULL},
    {{'?'}, MAIN | EX | SLIDE, REQ_HELP, "this help", NULL},
    {{'q'}, MAIN | EX | SLIDE, REQ_QUIT, "quit", NULL},
    /* the exercise (the main help sums up the first rows in one line) */
    {{UK_UP, UK_DOWN}, EX, REQ_MOVE, "choose", NULL},
    {{UK_ENTER, UK_RIGHT, 'l', ' '}, EX, REQ_PICK, "pick", NULL},
    {{UK_LEFT, 'h', UK_BACKSPACE}, EX, REQ_BACK, "back or undo", NULL},
    {{'x'}, EX, REQ_LEAVE, "leave the exercise", NULL},
    {{UK_ESC}, EX, REQ_CANCEL, "back to the sender", NULL},
    {{UK_HOME, 'g'}, EX, REQ_FIRST, "first in the list", NULL},
    {{UK_END, 'G'}, EX, REQ_LAST, "last in the list", NULL},
    {{UK_PGUP, UK_PGDN}, EX, REQ_MOVE_PAGE, "a page up / down the list", NULL},
    {{'L'}, EX, REQ_FACTS, "the log of your choices so far", NULL},
    {{UK_ANY}, EX, REQ_OTHER, "says which keys apply here", NULL},
    /* a list (s, m) */
    {{UK_UP, UK_DOWN, 'k', 'j'}, LIST, REQ_MOVE, "move", NULL},
    {{UK_ENTER, ' ', 'l', UK_RIGHT}, LIST, REQ_PICK, "choose", NULL},
    {{UK_ESC, 'q', 's', 'm', UK_LEFT, 'h'}, LIST, REQ_CANCEL, "cancel", NULL},
    {{UK_HOME, 'g', UK_PGUP}, LIST, REQ_FIRST, "first", NULL},
    {{UK_END, 'G', UK_PGDN}, LIST, REQ_LAST, "last", NULL},
    /* the help screen */
    {{UK_ANY}, SCR_HELP, REQ_CLOSE, "back", NULL},
    /* the facts and the log: scroll, any other key back */
    {{UK_UP, UK_DOWN, 'k', 'j'}, SCR_FACTS, REQ_MOVE, "scroll a line", NULL},
    {{UK_PGUP, UK_PGDN}, SCR_FACTS, REQ_MOVE_PAGE, "scroll a page", NULL},
    {{UK_ANY}, SCR_FACTS, REQ_CLOSE, "back", NULL},
    /* the prompt (/ and :) */
    {{UK_ENTER}, SCR_PROMPT, REQ_PICK, "keep it", NULL},
    {{UK_ESC}, SCR_PROMPT, REQ_CANCEL, "cancel", NULL},
    {{UK_ANY}, SCR_PROMPT, REQ_TYPE, "type", NULL},
};

#define NROWS ((int)(sizeof rows / sizeof rows[0]))

int keys_count(void)
{
    return NROWS;
}

const struct key_row *keys_at(int i)
{
    return i >= 0 && i < NROWS ? &rows[i] : NULL;
}

const struct key_row *keys_find(unsigned screen, int key)
{
    const struct key_row *any = NULL;
    for (int i = 0; i < NROWS; i++) {
        if (!(rows[i].screens & screen))
            continue;
        for (int k = 0; k < KEY_ROW_KEYS && rows[i].keys[k]; k++) {
            if (rows[i].keys[k] == key)
                return &rows[i];
            if (rows[i].keys[k] == UK_ANY)
                any = &rows[i];
        }
    }
    return any;
}

const char *key_help(const struct key_row *r, const struct vkind *k)
{
    return r->help_for ? r->help_for(k) : r->help;
}

static const char *key_name(int key, const struct glyphs *g, char *buf, size_t size)
{
    switch (key) {
    case UK_UP:
        return g->up;
    case UK_DOWN:
        return g->down;
    case UK_LEFT:
        return g->left;
    case UK_RIGHT:
        return g->right;
    case UK_HOME:
        return "Home";
    case UK_END:
        return "End";
    case UK_PGUP:
        return "PgUp";
    case UK_PGDN:
        return "PgDn";
    case UK_ENTER:
        return "Enter";
    case UK_ESC:
        return "Esc";
    case UK_BACKSPACE:
        return "Backspace";
    case UK_ANY:
        return "any key";
    case ' ':
        return "space";
    default:
        snprintf(buf, size, "%c", key > ' ' && key < 0x7f ? key : '?');
        return buf;
    }
}

char *key_label(const struct key_row *r, bool ascii, bool first, char *buf, size_t size)
{
    const struct glyphs *g = glyphs_for(ascii);
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < KEY_ROW_KEYS && r->keys[k] && at < size; k++) {
        char one[8];
        const char *name = key_name(r->keys[k], g, one, sizeof one);
        int next = k + 1 < KEY_ROW_KEYS ? r->keys[k + 1] : 0;
        if (r->keys[k] == UK_UP && next == UK_DOWN) {
            name = g->up_down;   /* "↑↓": one key pair */
            k++;
        } else if (first && r->keys[k] == UK_PGUP && next == UK_PGDN) {
            name = "PgUp/PgDn";
        }
        at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? "  " : "", name);
        if (first)
            break;
    }
    return buf;
}
