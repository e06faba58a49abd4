/*
 * ui/keys.h - the view's one key table (tmux's `bind -N`, tig's keymap): each
 * row binds some keys, on some screens, to one request, with the text the
 * help screen shows for it.  view_key dispatches through these rows and
 * nothing else, and the help screen is drawn from them, so a key cannot be
 * documented and dead, or alive and undocumented.  What a request does is
 * up to the screen it reaches (struct screen's request function); requests
 * every screen shares (zoom, reload, help, quit) end in view_request.  No
 * curses.
 */
#ifndef HETCAST_KEYS_H
#define HETCAST_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* The screens a row applies to (struct screen's id). */
#define SCR_MAIN 1u         /* the Gantt chart: stepping, compare, the side pane */
#define SCR_EXERCISE 2u     /* the student picks each (sender, receiver) */
#define SCR_CHOOSER 4u      /* the scheduler or model list */
#define SCR_HELP 8u         /* this table, drawn */
#define SCR_FACTS 16u       /* the selected node's facts (i) */
#define SCR_LESSON 64u      /* a lesson's slide: its text, question and answer */
#define SCR_PROMPT 32u      /* a line typed at the bottom: find a node (/), go to a step or time (:) */

/* Keys that are not characters (characters are their Unicode code points). */
enum ui_key {
    UK_UP = 0x110001,
    UK_DOWN,
    UK_LEFT,
    UK_RIGHT,
    UK_HOME,
    UK_END,
    UK_PGUP,
    UK_PGDN,
    UK_ENTER,
    UK_ESC,
    UK_BACKSPACE,
    UK_RESIZE,
};

#define KEY_ROW_KEYS 6      /* keys a row may bind */
#define UK_ANY 0x11ffff     /* a row for every key its screens bind no other way */

/* What a key asks for; the screen the key reaches decides what that means. */
enum ui_req {
    /* the main screen */
    REQ_NEXT,           /* next event */
    REQ_PREV,           /* previous event */
    REQ_START,          /* start (Home g) or end (End G) of the schedule */
    REQ_PLAY,           /* play / pause */
    REQ_SPEED,          /* slower (< ,) or faster (> .) */
    REQ_SCHED,          /* the scheduler list */
    REQ_MODEL,          /* the model list */
    REQ_COMPARE,        /* compare on / off */
    REQ_PANE,           /* the side pane on / off */
    REQ_EXERCISE,       /* start the exercise */
    REQ_SELECT,         /* select the node above (up) or below (down) */
    REQ_PAGE,           /* a page of nodes up (PgUp) or down (PgDn) */
    REQ_SOURCE,         /* the selected node becomes the source */
    REQ_EXPORT,         /* SVG and CSV */
    REQ_CLEAR,          /* clear the message line */
    REQ_FACTS,          /* the selected node's facts (i), the narration log (L), the shared
                           links' lanes in place of the nodes' (f) */
    REQ_FIND,           /* find a node by name as you type (/), go to a step or a time (:) */
    REQ_TYPE,           /* a character typed at the prompt */
    REQ_OTHER,          /* a key that does not apply here: say which do */
    REQ_SLIDE,          /* a lesson: next (] PgDn) or previous ([ PgUp) slide, its text (w) */
    REQ_ANSWER,         /* a lesson: reveal the answer */
    REQ_CHOICE,         /* a lesson: pick a choice (A-H, 1-8) */
    REQ_REPLY,          /* a lesson: type an answer (y) */
    REQ_VOTE,           /* a live class: open a vote (again: the next round) */
    REQ_BARS,           /* a live class: the histogram of the answers on / off */
    REQ_CHALLENGE,      /* a live class: the slide's exercise as a challenge, open / closed */
    REQ_INSTANCES,      /* a live class: every student their own random instance, on / off */
    /* the exercise and the lists */
    REQ_MOVE,           /* the cursor one up (up, k) or down (down, j) */
    REQ_MOVE_PAGE,      /* the cursor a page up or down */
    REQ_FIRST,          /* the cursor to the first item */
    REQ_LAST,           /* the cursor to the last item */
    REQ_PICK,           /* take the item under the cursor */
    REQ_BACK,           /* one step back (the exercise: the sender again, or undo) */
    REQ_CANCEL,         /* leave without a choice (Esc in the exercise: the sender again) */
    REQ_LEAVE,          /* leave the exercise */
    /* every screen that binds them: handled by view_request */
    REQ_ZOOM,           /* time in (+ =) or out (- _) */
    REQ_RELOAD,         /* the file again */
    REQ_HELP,           /* this table */
    REQ_QUIT,           /* leave the view */
    REQ_CLOSE,          /* back to the screen below (the help screen's any key) */
};

struct vkind;

struct key_row {
    int keys[KEY_ROW_KEYS];     /* key codes (enum ui_key, or characters); 0 ends the list */
    unsigned screens;           /* SCR_* bits */
    enum ui_req req;
    const char *help;           /* what it does, as the help screen says it */
    /* The text for the kind of run shown (ui/vkind.h) instead of help,
     * when the row reads differently for an exchange or a pipeline; NULL
     * hides the row there (the key is still bound and says why it does
     * nothing).  May be NULL. */
    const char *(*help_for)(const struct vkind *k);
};

int keys_count(void);
const struct key_row *keys_at(int i);
/* The row binding key on the screen with that id, else its UK_ANY row, else NULL.  O(rows). */
const struct key_row *keys_find(unsigned screen, int key);
/* The row's text for the kind of run k (help_for, else help); NULL when hidden there. */
const char *key_help(const struct key_row *r, const struct vkind *k);
/*
 * The row's keys as the help screen shows them: "→  l  space", up and down
 * as one "↑↓" (ASCII names when ascii).  first: only the first key (the
 * short lists under the help).  Returns buf.
 */
char *key_label(const struct key_row *r, bool ascii, bool first, char *buf, size_t size);

#endif
