/*
 * screen_chooser.c - the list of schedulers (`s`) or port models (`m`),
 * drawn as a box over the screen it was opened from.  The schedulers that
 * apply to this cluster and model come first, then the bundled Lua
 * heuristics, then those that do not apply (with the core's reason); an
 * exchange lists its orders.  Choosing calls view_set_scheduler (or
 * view_set_second_scheduler) or view_set_model, which say in the message
 * line why a choice failed and keep the state as it was.  Its state is
 * struct chooser (ui/screen_chooser.h), made anew at each opening.  Its
 * keys are its rows in keys.c.
 */
#include "ui/screen_chooser.h"

#include "ui/drawkit.h"
#include "ui/screens.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/exchange.h"
#include "sched/lua_sched.h"

/* ---- the list ---- */

struct chooser *chooser_of(const struct view *v)
{
    return view_screen_data(v, &screen_chooser);
}

static void chooser_clear(struct chooser *ch)
{
    for (int i = 0; i < ch->n; i++) {
        free(ch->items[i]);
        free(ch->notes[i]);
    }
    free(ch->items);
    free(ch->notes);
    memset(ch, 0, sizeof *ch);
}

static void chooser_add(struct chooser *ch, const char *item, const char *note)
{
    ch->items = xrealloc(ch->items, (size_t)(ch->n + 1) * sizeof *ch->items);
    ch->notes = xrealloc(ch->notes, (size_t)(ch->n + 1) * sizeof *ch->notes);
    ch->items[ch->n] = xstrdup(item);
    ch->notes[ch->n] = xstrdup(note);
    ch->n++;
}

/* The bundled Lua heuristics (lua/ of the source tree, else the installed ones). */
static void add_lua_heuristics(struct chooser *ch)
{
    struct lua_sched_info *list = NULL;
    int n = lua_sched_list(&list);
    for (int i = 0; i < n; i++) {
        char note[512];
        snprintf(note, sizeof note, "Lua: %s", list[i].summary ? list[i].summary : list[i].name);
        chooser_add(ch, list[i].path, note);
    }
    lua_sched_list_free(list, n);
}

/* Its open hook: the list of kind (arg) made anew, the current choice selected. */
static int chooser_open(struct view *v, void **data, int arg)
{
    enum chooser_kind kind = (enum chooser_kind)arg;
    if (!*data)
        *data = xcalloc(1, sizeof(struct chooser));
    struct chooser *ch = *data;
    chooser_clear(ch);
    ch->kind = kind;
    const char *current = kind != CH_MODEL ? v->runs[kind == CH_SECOND && v->nruns >= 2 ? 1 : 0].name
                                           : model_name(v->model);
    if (kind != CH_MODEL && v->exchange) {
        for (int a = 0; a < XSCHED_COUNT; a++) {
            const struct xsched_ops *ops = xsched_at(a);
            char note[512];
            if (ops->max_nodes > 0 && v->c->n > ops->max_nodes)
                snprintf(note, sizeof note, "(not here: %s, refused above %d nodes)",
                         ops->cost, ops->max_nodes);
            else
                snprintf(note, sizeof note, "%s", ops->summary);
            chooser_add(ch, ops->name, note);
        }
    } else if (kind != CH_MODEL) {
        /* What works here first, then the Lua heuristics, then what does not apply. */
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < sched_count(); i++) {
                const struct sched_ops *ops = sched_at(i);
                char *why = NULL;
                bool usable = sched_check(ops, v->c, v->model, &why) == 0;
                if (usable && pass == 0) {
                    chooser_add(ch, ops->name, ops->summary);
                } else if (!usable && pass == 1) {
                    char note[512];
                    snprintf(note, sizeof note, "(not here: %s)", why ? why : "does not apply");
                    chooser_add(ch, ops->name, note);
                }
                free(why);
            }
            if (pass == 0)
                add_lua_heuristics(ch);
        }
    } else {
        for (int m = 0; m < MODEL_COUNT; m++) {
            char note[512];
            if (v->exchange && !timing_exchange_ok((enum model)m))
                snprintf(note, sizeof note, "(not for an exchange: sync or async)");
            else if (model_mask_for(v->c->kind) & MODEL_BIT(m))
                snprintf(note, sizeof note, "%s", model_summary((enum model)m));
            else
                snprintf(note, sizeof note, "(not for a %s)", cluster_kind_name(v->c->kind));
            chooser_add(ch, model_name((enum model)m), note);
        }
    }
    for (int i = 0; i < ch->n; i++)
        if (strcmp(ch->items[i], current) == 0)
            ch->sel = i;
    return 0;
}

/* Its forget hook: the list was made on the cluster. */
static void chooser_forget(struct view *v, void *data)
{
    (void)v;
    chooser_clear(data);
}

/* ---- drawing ---- */

static void draw_chooser(struct view *v, struct cellbuf *cb)
{
    if (v->back && v->back->draw && v->back != &screen_chooser)
        v->back->draw(v, cb);
    struct chooser *ch = chooser_of(v);
    int bw = cb->w - 8 < 76 ? cb->w - 8 : 76, bh = ch->n + 4;
    if (bh > cb->h - 4)
        bh = cb->h - 4;
    int bx = (cb->w - bw) / 2, by = (cb->h - bh) / 2, rows = bh - 4;
    cb_fill(cb, bx, by, bw, bh, ' ', R_NORMAL);
    const struct glyphs *g = glyphs_for(v->ascii);
    for (int i = 0; i < bw; i++) {
        cb_put(cb, bx + i, by, g->hline, R_HEAD);
        cb_put(cb, bx + i, by + bh - 1, g->hline, R_HEAD);
    }
    for (int j = 0; j < bh; j++) {
        cb_put(cb, bx, by + j, g->vline, R_HEAD);
        cb_put(cb, bx + bw - 1, by + j, g->vline, R_HEAD);
    }
    uint32_t corners[4] = {0x250c, 0x2510, 0x2514, 0x2518};   /* ┌ ┐ └ ┘ */
    if (v->ascii)
        corners[0] = corners[1] = corners[2] = corners[3] = '+';
    cb_put(cb, bx, by, corners[0], R_HEAD);
    cb_put(cb, bx + bw - 1, by, corners[1], R_HEAD);
    cb_put(cb, bx, by + bh - 1, corners[2], R_HEAD);
    cb_put(cb, bx + bw - 1, by + bh - 1, corners[3], R_HEAD);
    ui_put(v, cb, bx + 2, by, bw - 4, R_HEAD | AF_BOLD,
        ch->kind != CH_MODEL ? " scheduler " : " port model ");
    ch->top = ui_keep_in_view(ch->top, ch->sel, rows);
    int nw = 0;
    for (int i = 0; i < ch->n; i++) {
        const char *slash = strrchr(ch->items[i], '/');
        int t = text_width(slash ? slash + 1 : ch->items[i]);
        if (t > nw)
            nw = t;
    }
    if (nw > bw / 2)
        nw = bw / 2;
    for (int i = ch->top; i < ch->n && i < ch->top + rows; i++) {
        int y = by + 1 + (i - ch->top);
        bool sel = i == ch->sel;
        unsigned attr = sel ? R_SEL : R_NORMAL;
        if (sel)
            cb_fill(cb, bx + 1, y, bw - 2, 1, ' ', R_SEL);
        if (sel)
            cb_put(cb, bx + 2, y, g->pointer, R_SEL);
        const char *slash = strrchr(ch->items[i], '/');
        cb_text(cb, bx + 4, y, nw, slash ? slash + 1 : ch->items[i], attr | AF_BOLD, v->ascii);
        cb_text(cb, bx + 6 + nw, y, bw - nw - 8, ch->notes[i], sel ? R_SEL : R_DIM, v->ascii);
    }
    char foot[128];
    if (ch->n > rows)
        snprintf(foot, sizeof foot, "Enter: choose   Esc: cancel   %d-%d of %d", ch->top + 1,
                 ch->top + rows, ch->n);
    else
        snprintf(foot, sizeof foot, "Enter: choose   Esc: cancel");
    cb_text(cb, bx + 2, by + bh - 2, bw - 4, foot, R_DIM, v->ascii);
}

/* ---- keys ---- */

static unsigned chooser_request(struct view *v, enum ui_req req, int key)
{
    struct chooser *ch = chooser_of(v);
    switch (req) {
    case REQ_MOVE:
        if ((key == UK_UP || key == 'k') && ch->sel > 0)
            ch->sel--;
        else if ((key == UK_DOWN || key == 'j') && ch->sel + 1 < ch->n)
            ch->sel++;
        break;
    case REQ_FIRST:
        ch->sel = 0;
        break;
    case REQ_LAST:
        ch->sel = ch->n - 1;
        break;
    case REQ_PICK:
        view_screen_close(v);
        if (ch->kind == CH_SECOND)
            view_set_second_scheduler(v, ch->items[ch->sel]);
        else if (ch->kind == CH_SCHED)
            view_set_scheduler(v, ch->items[ch->sel]);
        else {
            enum model m;
            if (model_parse(ch->items[ch->sel], &m) == 0)
                view_set_model(v, m);
        }
        break;
    case REQ_CANCEL:
        view_screen_close(v);
        break;
    default:
        return 0;
    }
    return UI_HANDLED | UI_REDRAW;
}

const struct screen screen_chooser = {
    .name = "chooser",
    .id = SCR_CHOOSER,
    .over = true,
    .open = chooser_open,
    .forget = chooser_forget,
    .draw = draw_chooser,
    .request = chooser_request,
};
