/*
 * ui/room_pane.h - the live class on the instructor's slide screen
 * (hetcast lesson FILE --class ROOM; session/room.h): one line of counts (in
 * the room, voted, the round and its state), and on a key the histogram of
 * the answers -- the last two rounds side by side, the right one marked
 * once revealed.  Counts only: no student's name reaches the projector.
 * Internal to ui/; no curses.
 */
#ifndef HETCAST_ROOM_PANE_H
#define HETCAST_ROOM_PANE_H

#include "ui/cellbuf.h"
#include "ui/keys.h"
#include "ui/view.h"

/* Draw the room's line at row y from column x (w columns) and, when shown,
 * the histogram below it down to row bottom (excluded).  Returns the first
 * row left free.  Nothing (returns y) without a room. */
int room_pane_draw(struct view *v, struct cellbuf *cb, int x, int y, int w, int bottom);
/* The room's requests on the slide screen: REQ_VOTE, REQ_BARS, REQ_CHALLENGE
 * (key c: with hints, C: without), and REQ_ANSWER (the class sees it too).
 * UI_HANDLED | UI_REDRAW, or 0. */
unsigned room_pane_request(struct view *v, enum ui_req req, int key);
/* True, with a message, when a round is open: the projector then takes no
 * answer (a letter, y), which would show the class the answer. */
bool room_pane_refuses(struct view *v);
/* The room follows the slide the view shows (the loop calls it before drawing). */
void room_pane_follow(struct view *v);

#endif
