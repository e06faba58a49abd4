/*
 * app/bench_view.h - the view's frame for `hetcast bench` (bench_view.c), which
 * main.c hands to the command line next to the interactive view.
 */
#ifndef HETCAST_BENCH_VIEW_H
#define HETCAST_BENCH_VIEW_H

#include "app/bench.h"

extern const struct bench_view_ops ui_bench_view;

#endif
