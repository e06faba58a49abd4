/*
 * screen_help.c - the help screen (`?`), drawn from the key table (keys.c)
 * and nothing else: the rows of the screen it was opened over (its own
 * rows first, then those it shares with other screens, each in the table's
 * order), with their keys and this run's text; over the main screen, a
 * line each sums up the exercise's and the lists' own keys as far as the
 * width allows.  A row hidden for this run (help_for gives NULL: no
 * exercise beside an exchange) is left out.  Any key goes back.
 */
#include "ui/drawkit.h"
#include "ui/screens.h"

#include <stdio.h>
#include <string.h>

#define HELP_MAX_ROWS 64

/* The rows of the screen id that v's help lists: its own first, then the shared ones. */
static int help_rows(const struct view *v, unsigned id, bool own_only, const struct key_row **out)
{
    int n = 0;
    for (int pass = 0; pass < (own_only ? 1 : 2); pass++)
        for (int i = 0; i < keys_count() && n < HELP_MAX_ROWS; i++) {
            const struct key_row *r = keys_at(i);
            if ((r->screens & id) && (r->screens == id) == (pass == 0) && key_help(r, view_kind(v)))
                out[n++] = r;
        }
    return n;
}

/* "Exercise: ↑↓ choose, Enter pick, ..." -- a screen's own rows, whole ones as far as w allows. */
static void summary_line(struct view *v, struct cellbuf *cb, int y, int w, const char *what, unsigned id)
{
    const struct key_row *rows[HELP_MAX_ROWS];
    int n = help_rows(v, id, true, rows);
    char line[512], item[160], label[96];
    int at = snprintf(line, sizeof line, "%s:", what);
    for (int i = 0; i < n; i++) {
        snprintf(item, sizeof item, "%s %s %s", i ? "," : "",
                 key_label(rows[i], v->ascii, true, label, sizeof label), key_help(rows[i], view_kind(v)));
        if (text_width(line) + text_width(item) + 1 > w || at + strlen(item) + 2 > sizeof line)
            break;
        at += snprintf(line + at, sizeof line - (size_t)at, "%s", item);
    }
    snprintf(line + at, sizeof line - (size_t)at, ".");
    cb_text(cb, 2, y, w, line, R_DIM, v->ascii);
}

static void draw_help(struct view *v, struct cellbuf *cb)
{
    const struct screen *under = v->back && v->back != &screen_help ? v->back : screen_for(SCR_MAIN);
    const struct key_row *rows[HELP_MAX_ROWS];
    int n = help_rows(v, under->id, false, rows);
    char title[96];
    if (under->id == SCR_MAIN)
        snprintf(title, sizeof title, "hetcast help: keys");
    else
        snprintf(title, sizeof title, "hetcast help: %s keys", under->name);
    cb_fill(cb, 0, 0, cb->w, 1, ' ', R_TITLE);
    ui_put(v, cb, 1, 0, cb->w - 2, R_TITLE | AF_BOLD, title);

    char labels[HELP_MAX_ROWS][96];
    int kw = 0;
    for (int i = 0; i < n; i++) {
        key_label(rows[i], v->ascii, false, labels[i], sizeof labels[i]);
        if (text_width(labels[i]) > kw)
            kw = text_width(labels[i]);
    }
    /* Rows 2 .. h-3 for the list (two columns when it does not fit), then the summaries. */
    int y = 2, room = cb->h - 4;
    if (n > room && n <= cb->h - 2) {   /* one column from the row under the title, no summaries */
        y = 1;
        room = cb->h - 2;
    }
    int cols = n > room ? 2 : 1, per = (n + cols - 1) / cols, colw = cb->w / cols;
    for (int i = 0; i < n; i++) {
        int cx = 2 + (i / per) * colw, cy = y + i % per;
        if (cy > cb->h - 2)
            continue;
        cb_text(cb, cx, cy, kw, labels[i], R_HEAD | AF_BOLD, v->ascii);
        cb_text(cb, cx + kw + 2, cy, colw - kw - 4, key_help(rows[i], view_kind(v)), R_NORMAL, v->ascii);
    }
    if (under->id == SCR_MAIN) {
        int sy = y + per + 1 < cb->h - 1 ? y + per + 1 : y + per;
        if (view_single_message(v) && sy < cb->h - 1)
            summary_line(v, cb, sy++, cb->w - 4, "Exercise", SCR_EXERCISE);
        if (sy < cb->h - 1)
            summary_line(v, cb, sy, cb->w - 4, "In a list (s, m)", SCR_CHOOSER);
    }
    /* The bottom bar: this screen's own row ("any key back"). */
    const struct key_row *back = keys_find(SCR_HELP, UK_ANY);
    char label[96];
    struct hint h = {key_label(back, v->ascii, false, label, sizeof label), key_help(back, view_kind(v))};
    ui_status_bar(v, cb, &h, 1);
}

static unsigned help_request(struct view *v, enum ui_req req, int key)
{
    (void)key;
    if (req != REQ_CLOSE)
        return 0;
    view_screen_close(v);
    return UI_HANDLED | UI_REDRAW;
}

const struct screen screen_help = {
    .name = "help",
    .id = SCR_HELP,
    .over = true,
    .draw = draw_help,
    .request = help_request,
};
