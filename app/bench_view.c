/*
 * bench_view.c - the view as `hetcast bench` times it (app/bench.h): the
 * main screen of a cluster's fnf schedule, stepped half way, drawn into a
 * cell buffer exactly as the terminal front end draws it before a flush.
 * No terminal and no curses: the figure is the drawing, not the flush.
 */
#include "app/bench_view.h"

#include <stdlib.h>
#include <string.h>

#include "ui/cellbuf.h"
#include "ui/view.h"

struct bench_frame {
    struct view v;
    struct cellbuf cb;
};

static void *frame_open(const char *file, int width, int height, char **cause)
{
    struct bench_frame *f = xcalloc(1, sizeof *f);
    struct session_opts o;
    session_opts_init(&o);
    o.file = file;
    if (view_open(&f->v, &o, cause) != 0) {
        free(f);
        return NULL;
    }
    f->v.colour = true;
    view_step_to(&f->v, f->v.nsteps / 2);
    cb_init(&f->cb, width, height);
    return f;
}

static void frame_draw(void *ctx)
{
    struct bench_frame *f = ctx;
    view_draw(&f->v, &f->cb);
}

static int frame_events(void *ctx)
{
    struct bench_frame *f = ctx;
    return f->v.nsteps;
}

static void frame_close(void *ctx)
{
    struct bench_frame *f = ctx;
    cb_free(&f->cb);
    view_close(&f->v);
    free(f);
}

const struct bench_view_ops ui_bench_view = {
    .open = frame_open,
    .draw = frame_draw,
    .events = frame_events,
    .close = frame_close,
};
