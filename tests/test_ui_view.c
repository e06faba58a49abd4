/*
 * test_ui_view.c - the view without a terminal: keys go to view_key, the
 * screen is drawn into a cell buffer and read back as text.  Covers the
 * counterexample stepped to the end (fnf 6), compare mode (optimal 5), the
 * tree (p0 -> p1, p0 -> p2), back-then-forward giving the same screen, help
 * listing every key, too small a terminal, fills without colour, exercise
 * mode, the scheduler and model lists, failures that keep the state,
 * export, reload, the source, a 100-node cluster, zoom, play and resize;
 * Figueira's trees on a latency matrix (positions, distances, the heaviest
 * path, the tree cost), a personalized exchange (idle waits, the table of
 * sending orders, completion and lower bound) and a pipelined broadcast
 * (slice labels, the phases, the LP's n(u,v) and throughputs); the key
 * table (ui/keys.c): every row documented, no key bound twice on a screen,
 * every key handled on its screens and no other, the help drawn from the
 * rows, one zoom limit.
 */
#include <dirent.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/cellbuf.h"
#include "config.h"
#include "sched/lua_sched.h"
#include "sched/exchange.h"
#include "tap.h"
#include "ui/screen_chooser.h"
#include "ui/screen_exercise.h"
#include "ui/screens.h"
#include "ui/view.h"

static struct cellbuf cb;

static char *screen(struct view *v)
{
    view_draw(v, &cb);
    return cb_dump(&cb);
}

static bool shows(struct view *v, const char *text)
{
    char *s = screen(v);
    bool hit = strstr(s, text) != NULL;
    if (!hit)
        printf("# screen without \"%s\":\n# %s\n", text, s);
    free(s);
    return hit;
}

static void keys(struct view *v, const int *k, int n)
{
    for (int i = 0; i < n; i++)
        view_key(v, k[i]);
}

static int open_view(struct view *v, const char *file, const char *sched)
{
    struct session_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    o.file = file;
    if (sched)
        o.sched[o.nsched++] = sched;
    char *cause = NULL;
    int rc = view_open(v, &o, &cause);
    if (rc)
        printf("# view_open: %s\n", cause ? cause : "?");
    free(cause);
    return rc;
}

/* open_view with more options: a model, --slices, an exchange pattern and its receivers. */
static int open_with(struct view *v, const char *file, const char *sched, const char *model,
                     int slices, const char *pattern, const char *receivers, char **cause)
{
    struct session_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    o.file = file;
    if (sched)
        o.sched[o.nsched++] = sched;
    o.model = model;
    o.sopt.slices = slices;
    o.pattern = pattern;
    o.receivers = receivers;
    char *why = NULL;
    int rc = view_open(v, &o, &why);
    if (rc && !cause)
        printf("# view_open: %s\n", why ? why : "?");
    if (cause)
        *cause = why;
    else
        free(why);
    return rc;
}

/* The cell of the first occurrence of text on screen, as a code point, at offset dx. */
static uint32_t cell_near(struct view *v, const char *text, int dx)
{
    char *s = screen(v);
    free(s);
    int x, y;
    if (!cb_find(&cb, text, &x, &y))
        return 0;
    const struct cell *c = cb_at(&cb, x + dx, y);
    return c ? c->ch : 0;
}

static void stepping(void)
{
    struct view v;
    is_int(open_view(&v, "clusters/counterexample.csv", NULL), 0, "the counterexample opens");
    ok(shows(&v, "step 0/8"), "eight events, at the start");
    ok(shows(&v, "start: only the source holds the message"), "the narration at the start");
    view_key(&v, 'l');
    ok(shows(&v, "t=0: p0 starts sending the message to p1"), "step 1 is narrated with the reason");
    ok(shows(&v, "p0 can finish a send first"), "the engine's reason text");
    view_key(&v, UK_END);
    ok(shows(&v, "step 8/8"), "End goes to the last event");
    ok(shows(&v, "makespan 6"), "fnf's makespan 6");
    ok(shows(&v, "End: makespan 6."), "the last narration says so");
    ok(shows(&v, "lower bound 5") && shows(&v, "optimum 5"), "lower bound and optimum");
    ok(shows(&v, "2T+\xce\xb2 8"), "2T + beta = 2*5 - 2");
    ok(shows(&v, "\xe2\x86\x92p1") && shows(&v, "\xe2\x86\x92p2"), "send bars name their receivers");
    ok(shows(&v, "\xe2\x86\x90p0"), "incoming bars name the sender");

    /* back then forward: the same screen, at every step */
    int same = 0;
    for (int k = 0; k <= 8; k++) {
        view_step_to(&v, k);
        char *a = screen(&v);
        view_key(&v, k > 0 ? 'h' : 'l');
        view_key(&v, k > 0 ? 'l' : 'h');
        char *b = screen(&v);
        same += strcmp(a, b) == 0;
        free(a);
        free(b);
    }
    is_int(same, 9, "back then forward gives the same screen at each of the 9 positions");
    view_key(&v, 'g');
    ok(shows(&v, "step 0/8"), "g goes to the start");
    view_key(&v, 'G');
    ok(shows(&v, "step 8/8"), "G goes to the end");
    view_key(&v, UK_HOME);
    ok(shows(&v, "step 0/8"), "Home goes to the start");
    view_key(&v, ' ');
    ok(shows(&v, "step 1/8"), "space steps");
    view_key(&v, UK_RIGHT);
    view_key(&v, UK_LEFT);
    ok(shows(&v, "step 1/8"), "right then left");

    /* planned bars: after the cursor, the lighter fill */
    view_step_to(&v, 1);
    ok(shows(&v, "\xe2\x96\x91"), "a started transfer's future part is drawn as planned");
    view_step_to(&v, 0);
    char *s = screen(&v);
    ok(!strstr(s, "\xe2\x86\x92p1"), "nothing is drawn before it starts");
    free(s);
    view_close(&v);
}

static void compare_and_tree(void)
{
    struct view v;
    open_view(&v, "clusters/counterexample.csv", NULL);
    view_key(&v, 'c');
    is_int(v.nruns, 2, "c turns compare on");
    view_key(&v, 'G');
    ok(shows(&v, "fnf 6") && shows(&v, "optimal 5"), "both makespans: fnf 6, optimal 5");
    ok(shows(&v, "difference +1 (+20%)"), "the difference");
    ok(shows(&v, "optimal \xc2\xb7 makespan 5 (proven optimal)"), "the optimal pane's heading");
    ok(shows(&v, "lower bound 5"), "the lower bound");
    ok(shows(&v, "step 16/16"), "both timelines step together (8 + 8 events)");
    view_key(&v, 'h');
    ok(shows(&v, "step 15/16"), "and back together");
    view_key(&v, 'G');
    view_key(&v, 'c');
    is_int(v.nruns, 1, "c turns it off");
    ok(shows(&v, "step 8/8"), "back on fnf's own timeline, at the end");

    view_key(&v, 't');
    ok(v.tree, "t opens the tree pane");
    ok(shows(&v, "p0 -> p1") && shows(&v, "p0 -> p2"), "the fnf tree: p0 -> p1 and p0 -> p2");
    ok(shows(&v, "p0 (source)"), "the source heads the tree");
    ok(shows(&v, "\xe2\x97\x86 critical path: 6"), "the critical path is marked");
    view_key(&v, 'g');
    char *s = screen(&v);
    ok(strstr(s, "p0 (source)") && !strstr(s, "p0 -> p1"), "at the start the tree is just the source");
    free(s);
    view_step_to(&v, 1);
    ok(shows(&v, "p0 -> p1") && shows(&v, "(4)"), "a transfer in flight: its planned receive time");
    view_key(&v, 'c');
    view_key(&v, 'G');
    ok(shows(&v, "tree fnf") && shows(&v, "tree optimal"), "compare shows both trees");
    view_close(&v);
}

static void help_and_size(void)
{
    struct view v;
    open_view(&v, "clusters/counterexample.csv", NULL);
    view_key(&v, '?');
    ok(v.screen == &screen_help, "? opens help");
    static const char *const items[] = {
        "next event", "previous event", "start of the schedule", "end of the schedule",
        "play / pause", "slower / faster", "scheduler", "port model", "compare on/off",
        "tree pane", "exercise", "zoom time", "select a node", "scroll the nodes", "the source",
        "export", "reload", "this help", "quit", "Home", "End", "PgUp", "PgDn",
    };
    int found = 0;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        found += shows(&v, items[i]);
    is_int(found, (int)(sizeof items / sizeof items[0]), "help lists every key");
    view_key(&v, 'x');
    ok(v.screen == &screen_main, "any key leaves help");

    cb_resize(&cb, 50, 12);
    ok(shows(&v, "terminal too small: 50x12"), "too small: says so");
    is_int(view_key(&v, 'q') & UI_QUIT, UI_QUIT, "q still quits");
    cb_resize(&cb, 80, 24);
    char *a = screen(&v);
    cb_resize(&cb, 200, 60);
    ok(shows(&v, "step 0/8"), "200x60 draws");
    cb_resize(&cb, 80, 24);
    char *b = screen(&v);
    is_string(b, a, "after a resize and back, the same screen");
    free(a);
    free(b);

    v.ascii = true;
    view_key(&v, 'G');
    char *s = screen(&v);
    bool ascii = true;
    for (const char *p = s; *p; p++)
        ascii = ascii && (unsigned char)*p < 0x80;
    ok(ascii, "an ASCII terminal gets ASCII only");
    ok(strstr(s, "====") && strstr(s, "----") && strstr(s, "####"), "distinct fills: = send, - link, # recv");
    ok(strstr(s, ">p1") && strstr(s, "<p0"), "ASCII bar labels");
    free(s);
    view_close(&v);
}

static int index_of(const struct view *v, const char *item)
{
    for (int i = 0; i < chooser_of(v)->n; i++)
        if (strcmp(chooser_of(v)->items[i], item) == 0)
            return i;
    return -1;
}

static void choose(struct view *v, int open_key, const char *item)
{
    view_key(v, open_key);
    int want = index_of(v, item);
    while (chooser_of(v)->sel > want && want >= 0)
        view_key(v, UK_UP);
    while (chooser_of(v)->sel < want)
        view_key(v, UK_DOWN);
    view_key(v, UK_ENTER);
}

static void lists_and_failures(void)
{
    struct view v;
    open_view(&v, "clusters/counterexample.csv", NULL);
    view_key(&v, 's');
    ok(v.screen == &screen_chooser && shows(&v, "scheduler"), "s opens the scheduler list");
    ok(index_of(&v, "fnf") >= 0 && index_of(&v, "optimal") >= 0, "it lists the built-ins");
    view_key(&v, UK_ESC);
    ok(v.screen == &screen_main, "Esc closes it");
    choose(&v, 's', "optimal");
    ok(strcmp(v.runs[0].name, "optimal") == 0, "optimal chosen");
    view_key(&v, 'G');
    ok(shows(&v, "makespan 5"), "its makespan 5");
    choose(&v, 'm', "sync");
    is_int(v.model, MODEL_SYNC, "m chose sync");
    ok(shows(&v, "sync"), "the title says sync");
    choose(&v, 'm', "async");
    choose(&v, 's', "fnf");

    int before = v.step;
    is_int(view_set_scheduler(&v, "no-such-scheduler"), -1, "an unknown scheduler fails");
    ok(shows(&v, "unknown scheduler"), "the message says why");
    ok(strcmp(v.runs[0].name, "fnf") == 0 && v.step == before, "and the state is kept");
    is_int(view_set_scheduler(&v, "lua/heuristics/does-not-exist.lua"), -1, "a missing Lua heuristic fails");
    ok(strcmp(v.runs[0].name, "fnf") == 0, "state kept after the Lua failure");
    FILE *fp = fopen("/tmp/hetcast-broken-heuristic.lua", "w");
    if (fp) {
        fputs("return {choose = function(state) return nil +  end}\n", fp);
        fclose(fp);
    }
    is_int(view_set_scheduler(&v, "/tmp/hetcast-broken-heuristic.lua"), -1, "a broken Lua heuristic fails");
    ok(shows(&v, "cannot use /tmp/hetcast-broken-heuristic.lua"), "its error is shown");
    ok(strcmp(v.runs[0].name, "fnf") == 0, "state kept after the Lua error");
    unlink("/tmp/hetcast-broken-heuristic.lua");
    view_key(&v, 's');
    int lua = -1;
    for (int i = 0; i < chooser_of(&v)->n; i++)
        if (strstr(chooser_of(&v)->items[i], "/fnf.lua"))
            lua = i;
    view_key(&v, UK_ESC);
    ok(lua >= 0, "the list has the bundled Lua heuristics");
    if (lua >= 0) {
        is_int(view_set_scheduler(&v, chooser_of(&v)->items[lua]), 0, "fnf.lua runs");
        view_key(&v, 'G');
        ok(shows(&v, "makespan 6") && shows(&v, "fnf.lua"), "fnf.lua: makespan 6, like fnf");
        view_set_scheduler(&v, "fnf");
    }
    is_int(view_set_model(&v, MODEL_ONE_PORT_UNI), -1, "one-port-uni fails on a node table");
    ok(shows(&v, "valid models for a node table"), "the message lists the valid models");
    is_int(view_set_model(&v, (enum model)MODEL_COUNT), -1, "an impossible model fails");
    is_int(v.model, MODEL_ASYNC, "the model is kept");

    /* the source */
    view_key(&v, UK_DOWN);
    is_int(v.sel, 1, "down selects the next node");
    view_key(&v, 'o');
    is_int(v.c->source, 1, "o makes it the source");
    ok(shows(&v, "source p1"), "the title says so");
    view_key(&v, UK_UP);
    view_key(&v, 'o');
    is_int(v.c->source, 0, "and back to p0");

    /* zoom and play */
    view_key(&v, '+');
    ok(shows(&v, "zoom x2"), "+ zooms in");
    view_key(&v, '-');
    is_int(v.zoom, 0, "- zooms out");
    view_key(&v, 'g');
    is_int(view_play_delay(&v), -1, "not playing: no timer");
    view_key(&v, 'p');
    int d = view_play_delay(&v);
    ok(d > 0, "p plays (%d ms a step)", d);
    view_key(&v, '>');
    ok(view_play_delay(&v) < d, "> is faster");
    view_key(&v, '<');
    is_int(view_play_delay(&v), d, "< is slower");
    for (int i = 0; i < 8; i++)
        view_tick(&v);
    is_int(v.step, 8, "eight ticks play to the end");
    ok(!v.playing, "and play stops there");
    view_close(&v);
}

static void exercise(void)
{
    struct view v;
    open_view(&v, "clusters/counterexample.csv", NULL);
    view_key(&v, 'x');
    ok(v.screen == &screen_exercise, "x starts the exercise");
    const struct exercise *ex = exercise_of(&v);   /* the exercise's state, kept by the view */
    ok(strstr(ex->feedback, "The best makespan reachable is 5."), "it announces the best reachable");
    ok(shows(&v, "best reachable 5"), "and shows it");
    ok(shows(&v, "pick a sender"), "first a sender");
    view_key(&v, UK_ENTER);
    ok(shows(&v, "p0 sends to:") && shows(&v, "holds at 4") && shows(&v, "holds at 5"),
       "then a receiver, with the receive time each would give");
    view_key(&v, UK_ENTER);   /* p0 -> p1, as fnf does */
    ok(shows(&v, "You: p0 -> p1") && shows(&v, "fnf picks the same."), "fnf's choice recognised");
    ok(strstr(ex->feedback, "Best reachable now 6, was 5: this choice costs 1."),
       "and its cost: the best is now 6");
    view_key(&v, UK_LEFT);
    ok(shows(&v, "Undone: p0 -> p1"), "left undoes it");
    is_int(ex->nchoices, 0, "back to no choices");
    const int better[] = {UK_ENTER, UK_DOWN, UK_ENTER};
    keys(&v, better, 3);
    ok(shows(&v, "You: p0 -> p2") && shows(&v, "fnf would pick p0 -> p1"), "another choice than fnf's");
    ok(strstr(ex->feedback, "Best reachable still 5."), "that keeps the optimum in reach");
    view_key(&v, UK_ENTER);
    view_key(&v, UK_ENTER);
    ok(shows(&v, "Done: your makespan 5, fnf 6, best possible 5."), "done: the student beats fnf");
    ok(shows(&v, "your makespan 5") && shows(&v, "best possible 5"), "the panel sums it up");
    is_int(ex->phase, EX_DONE, "nothing left to pick");
    view_key(&v, 'x');
    ok(v.screen == &screen_main && !ex->live, "x leaves the exercise");
    view_close(&v);
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

/* A cluster named with 300 characters exports from the view (its name is cut in the file name). */
static void export_long_name(void)
{
    char cwd[4096], dir[] = "/tmp/hetcast-ui-long-XXXXXX", file[300];
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(dir) || chdir(dir) != 0) {
        ok(0, "a scratch directory");
        return;
    }
    char text[600];
    snprintf(text, sizeof text, "# name: %0300d\nname,send,recv\np0,1,2\np1,1,2\n", 0);
    snprintf(file, sizeof file, "%s/c.csv", dir);
    write_file(file, text);
    struct view v;
    if (open_view(&v, file, NULL) == 0) {
        is_int(view_export(&v, NULL), 0, "a cluster with a 300-character name exports");
        ok(shows(&v, "exported"), "and says so");
        view_close(&v);
    } else {
        ok(0, "a cluster with a 300-character name opens");
    }
    DIR *d = opendir(".");
    struct dirent *de;
    int files = 0;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.') {
            files++;
            unlink(de->d_name);
        }
    if (d)
        closedir(d);
    is_int(files, 3, "the cluster, its SVG and its schedule CSV");
    if (chdir(cwd) != 0 || rmdir(dir) != 0)
        diag("could not clean up %s", dir);
}

static void export_and_reload(void)
{
    char dir[] = "/tmp/hetcast-ui-XXXXXX";
    ok(mkdtemp(dir) != NULL, "a scratch directory");
    char file[256], stem[256], path[300];
    snprintf(file, sizeof file, "%s/c.csv", dir);
    write_file(file, "# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\n");
    struct view v;
    is_int(open_view(&v, file, NULL), 0, "a copy of the counterexample opens");

    snprintf(stem, sizeof stem, "%s/slides", dir);
    is_int(view_export(&v, stem), 0, "export");
    ok(shows(&v, "exported"), "says what it wrote");
    struct stat st;
    snprintf(path, sizeof path, "%s.svg", stem);
    ok(stat(path, &st) == 0 && st.st_size > 0, "the SVG is there");
    unlink(path);
    snprintf(path, sizeof path, "%s.csv", stem);
    ok(stat(path, &st) == 0 && st.st_size > 0, "the CSV is there");
    unlink(path);
    snprintf(stem, sizeof stem, "%s/missing/dir/x", dir);
    is_int(view_export(&v, stem), -1, "export into a missing directory fails");
    ok(shows(&v, "export failed"), "and says so");

    view_step_to(&v, 3);
    is_int(view_reload(&v), 0, "reload an unchanged file");
    is_int(v.step, 3, "same position");
    ok(shows(&v, "unchanged, same position"), "and says so");
    write_file(file, "# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,5\n");
    is_int(view_reload(&v), 0, "reload a changed file");
    is_int(v.step, 0, "back to the start");
    view_key(&v, 'G');
    ok(shows(&v, "makespan 8"), "the new schedule (p2 receives in 5 now)");
    write_file(file, "# latency: 1\nname,send,recv\np0,1,2\np1,x,2\n");
    is_int(view_reload(&v), -1, "reload a broken file");
    ok(shows(&v, "reload failed") && shows(&v, "c.csv:4"), "the message names file and line");
    ok(shows(&v, "makespan 8") && v.c->n == 3, "the old cluster is kept");
    view_close(&v);
    unlink(file);
    rmdir(dir);

    struct session_opts o;
    memset(&o, 0, sizeof o);
    o.file = "/nonexistent/cluster.csv";
    char *cause = NULL;
    is_int(view_open(&v, &o, &cause), 2, "a file that cannot be loaded: status 2");
    ok(cause && strstr(cause, "/nonexistent/cluster.csv") != NULL, "the cause names it: %s",
       cause ? cause : "(null)");
    free(cause);
}

/* Figueira's trees on the paper's Table 1. */
static void figueira_trees(void)
{
    struct view v;
    if (open_with(&v, "clusters/figueira-table1.csv", "balanced-path", NULL, 0, NULL, NULL, NULL) != 0) {
        ok(0, "figueira-table1 opens with balanced-path");
        return;
    }
    ok(shows(&v, "balanced-path"), "figueira-table1 opens with balanced-path");
    ok(shows(&v, "makespan 3 \xc2\xb7 tree cost 3"), "the tree cost beside the makespan");
    ok(v.nsteps > 0, "its schedule steps (%d events)", v.nsteps);
    view_key(&v, 't');
    ok(shows(&v, "n0 [0] (source)"), "at the start the pane holds the source at position 0");
    char *s = screen(&v);
    ok(!strstr(s, "n3 [4]"), "and nothing else yet");
    free(s);
    view_key(&v, 'G');
    ok(shows(&v, "\xe2\x94\x80" "0" "\xe2\x94\x80" "n3 [4]"), "n3 at position 4, 0 away from n0");
    ok(shows(&v, "\xe2\x94\x80" "2" "\xe2\x94\x80" "n2 [5]"), "n2 at position 5, 2 away from n3");
    ok(shows(&v, "\xe2\x94\x80" "3" "\xe2\x94\x80" "n5 [1]"), "n5 at position 1, 3 away");
    ok(shows(&v, "\xe2\x94\xa3\xe2\x94\x81" "0" "\xe2\x94\x81" "n7 [2]") &&
           shows(&v, "\xe2\x94\x97\xe2\x94\x81" "3" "\xe2\x94\x81" "n4 [3]"),
       "the heaviest path n0 -> n7 -> n4 is drawn heavy");
    ok(shows(&v, "heaviest path: cost 3"), "and its cost is given");
    ok(shows(&v, "[p] position"), "a key says what the numbers are");
    /* back then forward gives the same screen */
    view_step_to(&v, v.nsteps / 2);
    char *a = screen(&v);
    view_key(&v, 'l');
    view_key(&v, 'h');
    char *b = screen(&v);
    is_string(b, a, "back then forward: the same tree pane");
    free(a);
    free(b);

    /* every strategy is in the list and runs; the paper's costs */
    view_key(&v, 's');
    static const char *const names[] = {"binomial", "depth-first", "breadth-first", "balanced-path",
                                        "flat", "magpie"};
    static const char *const costs[] = {"tree cost 6", "tree cost 7", "tree cost 7", "tree cost 3",
                                        "tree cost 3", "tree cost 3"};
    int usable = 0;
    for (int i = 0; i < 6; i++) {
        int k = index_of(&v, names[i]);
        usable += k >= 0 && strncmp(chooser_of(&v)->notes[k], "(not here", 9) != 0;
    }
    view_key(&v, UK_ESC);
    is_int(usable, 6, "the scheduler list offers all six trees on a latency matrix");
    for (int i = 0; i < 6; i++) {
        choose(&v, 's', names[i]);
        view_key(&v, 'G');
        ok(strcmp(v.runs[0].name, names[i]) == 0 && shows(&v, costs[i]), "%s: %s", names[i], costs[i]);
    }
    ok(shows(&v, "n1 [1.0]") && shows(&v, "[g.p]"), "magpie: group and position in the group");
    choose(&v, 's', "flat");
    view_key(&v, 'G');
    ok(shows(&v, "[r] order") && shows(&v, "n4 [6]"), "flat: the rank in the send order");

    /* compare: against the blind binomial tree */
    choose(&v, 's', "balanced-path");
    view_key(&v, 'c');
    is_int(v.nruns, 2, "c compares");
    view_key(&v, 'G');
    ok(shows(&v, "balanced-path 3") && shows(&v, "binomial") && shows(&v, "tree cost 3 / 6"),
       "with the blind binomial tree, both costs");
    view_close(&v);
}

/* A personalized exchange on the counterexample. */
static void exchange(void)
{
    struct view v;
    if (open_with(&v, "clusters/counterexample.csv", NULL, "sync", 0, "all-to-all", NULL, NULL) != 0) {
        ok(0, "an all-to-all sync exchange opens");
        return;
    }
    ok(v.exchange, "an all-to-all sync exchange opens");
    ok(shows(&v, "all-to-all") && shows(&v, "sync") && shows(&v, "caterpillar"),
       "the title: pattern, model, order");
    ok(shows(&v, "completion 10") && shows(&v, "lower bound 10"), "completion and lower bound");
    char *s = screen(&v);
    ok(!strstr(s, "makespan") && !strstr(s, "/3 hold"), "no makespan, no message-0 holding count");
    free(s);
    ok(shows(&v, "idle senders 1 wait, 1 in all"), "the idle waits are counted");
    ok(v.tree && shows(&v, "caterpillar       0/6 done"), "the orders pane is open");
    ok(shows(&v, "step  p0   p1   p2"), "a column per sender");
    ok(shows(&v, "   1  p0*  p1*  p2*"), "row 1: the own entries, starred");
    s = screen(&v);
    ok(!strstr(s, "\xe2\x96\xb8p"), "at the start no row is reached");
    free(s);
    ok(shows(&v, "\xe2\x95\xb3\xe2\x95\xb3 idle"), "the legend has the idle fill");
    ok(shows(&v, "send") && shows(&v, "recv"), "both ports of every node");
    s = screen(&v);
    ok(!strstr(s, "link"), "links are not drawn for an exchange");
    free(s);

    /* p0 waits for p2 over [4, 5): its next row is marked idle, its lane shows the fill */
    int at = -1;
    for (int k = 0; k <= v.nsteps; k++) {
        view_step_to(&v, k);
        if (view_now(&v) >= 5) {
            at = k;
            break;
        }
    }
    ok(at > 0, "a step at t=5 (%d)", at);
    ok(shows(&v, "\xe2\x95\xb3p2"), "the order table marks p0's next receiver as waited for");
    ok(cell_near(&v, "p0 send", 20) == 0x2573 || shows(&v, "\xe2\x95\xb3\xe2\x95\xb3\xe2\x95\xb3"),
       "p0's send lane shows the idle wait");
    ok(shows(&v, "\xe2\x96\xb8p1  \xe2\x96\xb8p2"), "the rows reached are marked");
    view_key(&v, 'G');
    ok(shows(&v, "6/6 done"), "at the end, 6 of 6 messages delivered");
    ok(shows(&v, "   3 \xe2\x96\xb8p2  \xe2\x96\xb8p0  \xe2\x96\xb8p1"), "every sender on row 3");
    ok(shows(&v, "End: completion 10."), "the narration ends on the completion");

    /* keys that do not apply */
    view_key(&v, 'x');
    ok(v.screen == &screen_main && shows(&v, "the exercise builds a broadcast"), "x: no exercise here");
    view_key(&v, UK_DOWN);
    view_key(&v, 'o');
    ok(shows(&v, "an exchange has no source"), "o: no source to change");
    view_key(&v, '?');
    ok(shows(&v, "the table of sending orders"), "help: t is the table of orders");
    view_key(&v, 'q');

    /* the lists: the seven orders, sync and async */
    view_key(&v, 's');
    ok(index_of(&v, "caterpillar") >= 0 && index_of(&v, "open-shop") >= 0 && index_of(&v, "fnf") < 0,
       "s lists the exchange orders, not the broadcast schedulers");
    is_int(chooser_of(&v)->n, 7, "seven of them");
    view_key(&v, UK_ESC);
    choose(&v, 's', "rspb");
    ok(strcmp(v.runs[0].name, "rspb") == 0 && shows(&v, "rspb"), "rspb chosen");
    choose(&v, 'm', "one-port");
    is_int(v.model, MODEL_SYNC, "one-port is refused");
    choose(&v, 'm', "async");
    is_int(v.model, MODEL_ASYNC, "async chosen");
    view_key(&v, 'G');
    ok(shows(&v, "idle senders none"), "async: no sender waits");
    choose(&v, 'm', "sync");
    choose(&v, 's', "caterpillar");

    /* compare: against the random order */
    view_key(&v, 'c');
    is_int(v.nruns, 2, "c compares");
    view_key(&v, 'G');
    ok(shows(&v, "caterpillar 10") && shows(&v, "random") && shows(&v, "orders random"),
       "caterpillar against random, each with its table");

    /* export: the transfers as CSV */
    char dir[] = "/tmp/hetcast-ui-x-XXXXXX";
    if (mkdtemp(dir)) {
        char stem[300], path[320];
        snprintf(stem, sizeof stem, "%s/ex", dir);
        is_int(view_export(&v, stem), 0, "export an exchange");
        snprintf(path, sizeof path, "%s.csv", stem);
        FILE *fp = fopen(path, "r");
        char line[512] = "";
        if (fp) {   /* the header, after the format's version and hetcast's */
            if (!fgets(line, sizeof line, fp) || strncmp(line, "# format_version:", 17) != 0 ||
                !fgets(line, sizeof line, fp) || strncmp(line, "# hetcast:", 10) != 0 ||
                !fgets(line, sizeof line, fp))
                line[0] = '\0';
            fclose(fp);
        }
        ok(strstr(line, "wait_start") != NULL, "the CSV has the idle waits: %s", line);
        unlink(path);
        rmdir(dir);
    }
    view_close(&v);

    /* reload: the same exchange on a changed file */
    char rdir[] = "/tmp/hetcast-ui-r-XXXXXX";
    if (mkdtemp(rdir)) {
        char file[300];
        snprintf(file, sizeof file, "%s/c.csv", rdir);
        write_file(file, "# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\n");
        is_int(open_with(&v, file, NULL, "sync", 0, "all-to-all", NULL, NULL), 0, "an exchange on a copy");
        view_key(&v, 'G');
        is_int(view_reload(&v), 0, "reload it unchanged");
        ok(shows(&v, "unchanged, same position") && v.step == v.nsteps, "same position");
        write_file(file, "# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\np3,1,1\n");
        is_int(view_reload(&v), 0, "reload it with a fourth node");
        ok(v.runs[0].x && v.runs[0].x->n == 4 && shows(&v, "p3*"), "the new exchange has p3's column");
        view_close(&v);
        unlink(file);
        rmdir(rdir);
    }

    /* all-to-some, and a file that is no node table */
    is_int(open_with(&v, "clusters/counterexample.csv", NULL, NULL, 0, "all-to-some", "p1,p2", NULL), 0,
           "an all-to-some exchange opens");
    ok(shows(&v, "all-to-some, 2 receivers"), "the title counts the receivers");
    view_close(&v);
    char *cause = NULL;
    is_int(open_with(&v, "clusters/figueira-table1.csv", NULL, NULL, 0, "all-to-all", NULL, &cause), 0,
           "an exchange on a latency matrix opens (sync)");
    ok(v.model == MODEL_SYNC && v.runs[0].x && v.runs[0].x->completion == 27,
       "sync, caterpillar: completion 27 as run prints");
    view_close(&v);
    is_int(open_with(&v, "clusters/figueira-table1.csv", NULL, "async", 0, "all-to-all", NULL, &cause), 2,
           "an async exchange on a latency matrix: status 2");
    ok(cause && strstr(cause, "latency matrix is not simulated"), "it says why: %s",
       cause ? cause : "(null)");
    free(cause);
    cause = NULL;
    is_int(open_with(&v, "clusters/counterexample.csv", "fnf", NULL, 0, "all-to-all", NULL, &cause), 2,
           "a broadcast scheduler with --pattern: status 2");
    free(cause);
}

/* A pipelined broadcast on a platform graph. */
static void pipeline(void)
{
    struct view v;
    if (open_with(&v, "clusters/platform-small.csv", "grow-tree", NULL, 4, NULL, NULL, NULL) != 0) {
        ok(0, "platform-small opens with grow-tree and 4 slices");
        return;
    }
    ok(shows(&v, "slices 4"), "--slices 4 is honoured");
    ok(shows(&v, "throughput 0.25") && shows(&v, "LP optimum 0.375") && shows(&v, "fraction 66.7%"),
       "throughput, LP optimum and the fraction");
    int four = v.nsteps;
    view_key(&v, 'G');
    ok(shows(&v, "1\xe2\x86\x92P1") && shows(&v, "4\xe2\x86\x92P1"), "send bars carry the slice number");
    ok(shows(&v, "4\xe2\x86\x90P0"), "and so do receive bars");
    ok(shows(&v, "filling") && shows(&v, "steady") && shows(&v, "drain"),
       "the pipeline filling, steady and draining");
    ok(shows(&v, "slice 4 from P5"), "the narration names the slice");
    view_key(&v, 't');
    ok(shows(&v, "P1 n=0.375") && shows(&v, "P4 n=0.25"), "the tree's edges with the LP's n(u,v)");
    ok(shows(&v, "\xe2\x94\x80" "2" "\xe2\x94\x80" "P1"), "and their times T");
    ok(shows(&v, "4/4 slices"), "every node holds the 4 slices at the end");
    ok(shows(&v, "other edges") && shows(&v, "P3 -> P6"), "the platform's other edges");
    view_key(&v, 'g');
    ok(shows(&v, "0/4 slices"), "none at the start");
    view_key(&v, 'x');
    ok(v.screen == &screen_main && shows(&v, "single-message broadcast"), "x: no exercise here");
    view_close(&v);

    is_int(open_with(&v, "clusters/platform-small.csv", "grow-tree", NULL, 8, NULL, NULL, NULL), 0,
           "8 slices");
    ok(v.nsteps == 2 * four && shows(&v, "slices 8"), "twice the events (%d, %d)", v.nsteps, four);
    choose(&v, 'm', "one-port-uni");
    is_int(v.model, MODEL_ONE_PORT_UNI, "m chose one-port-uni on a platform graph");
    char *scr = screen(&v);
    bool no_optimum = scr && !strstr(scr, "LP optimum");   /* shows() would print the screen */
    free(scr);
    ok(shows(&v, "one-port-uni") && shows(&v, "throughput 0.167") && shows(&v, "LP bound 0.25") &&
           no_optimum,
       "one-port-uni: grow-tree's 1/6 beside the LP bound, no LP optimum");
    choose(&v, 'm', "one-port");
    is_int(v.model, MODEL_ONE_PORT, "and back to one-port");
    view_key(&v, 'c');
    is_int(v.nruns, 2, "c compares");
    ok(shows(&v, "grow-tree") && shows(&v, "lp-grow"), "with lp-grow");
    view_close(&v);
}

static void large(void)
{
    struct view v;
    if (open_view(&v, "clusters/fig6-100.csv", NULL) != 0) {
        ok(0, "the 100-node cluster opens");
        return;
    }
    ok(shows(&v, "100 nodes"), "100 nodes");
    ok(shows(&v, "16 of 100 nodes: those that matter (PgDn: all)"), "the lanes that matter first, PgDn for all");
    int top = v.top;
    view_key(&v, UK_PGDN);
    ok(v.top > top, "PgDn scrolls the nodes");
    view_key(&v, UK_END);
    view_key(&v, 't');
    ok(shows(&v, "100/100 hold"), "the tree counts every node");
    cb_resize(&cb, 200, 60);
    ok(shows(&v, "makespan 23"), "at 200x60 too");
    cb_resize(&cb, 80, 24);
    view_key(&v, 'x');
    ok(shows(&v, "too many to search"), "the exercise skips the search on 100 nodes");
    view_close(&v);
}

/* ---- the key table (ui/keys.c): one list feeds the dispatch and the help ---- */

static const struct {
    const struct screen *screen;
    int enter;          /* the key that opens it from the main screen (0: the main screen) */
} screens[] = {
    {&screen_main, 0}, {&screen_exercise, 'x'}, {&screen_chooser, 's'}, {&screen_help, '?'},
};
#define NSCREENS ((int)(sizeof screens / sizeof screens[0]))

/* A key's name on the status bar ("→", "Enter", "g", "up") as a key code; 0 if unknown. */
static int hint_key(const char *name)
{
    static const struct {
        const char *name;
        int key;
    } named[] = {
        {"\xe2\x86\x92", UK_RIGHT}, {"\xe2\x86\x90", UK_LEFT}, {"\xe2\x86\x91", UK_UP},
        {"\xe2\x86\x93", UK_DOWN}, {"right", UK_RIGHT}, {"left", UK_LEFT}, {"up", UK_UP},
        {"down", UK_DOWN}, {"Enter", UK_ENTER}, {"Esc", UK_ESC}, {"any key", UK_ANY},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(name, named[i].name) == 0)
            return named[i].key;
    return strlen(name) == 1 ? (unsigned char)name[0] : 0;
}

/*
 * The keys the status bar names (its bold words: "→", "g/G", "↑↓", "any
 * key"), each looked up in the key table for the screen id.  Returns how
 * many are bound nowhere there.
 */
static int unbound_hints(struct view *v, unsigned id)
{
    char *s = screen(v);
    free(s);
    int y = cb.h - 1, unbound = 0, words = 0;
    for (int x = 0; x < cb.w;) {
        char word[64];
        size_t len = 0;
        while (x < cb.w && cb_at(&cb, x, y)->attr & AF_BOLD) {
            uint32_t ch = cb_at(&cb, x, y)->ch;
            if (ch == 0x2191 || ch == 0x2193) {   /* ↑↓: two keys, one word */
                if (len + 4 < sizeof word)
                    len += (size_t)snprintf(word + len, sizeof word - len, "%s",
                                            ch == 0x2191 ? "\xe2\x86\x91/" : "\xe2\x86\x93/");
            } else if (ch && len + 5 < sizeof word) {
                len += utf8_encode(ch, word + len);
            }
            x++;
        }
        if (len == 0) {
            x++;
            continue;
        }
        word[len] = '\0';
        words++;
        /* "g/G", "+/-", "←/h": several keys; "any key": one */
        char *save = NULL;
        for (char *tok = strcmp(word, "any key") == 0 ? word : strtok_r(word, "/", &save); tok;
             tok = strcmp(tok, "any key") == 0 ? NULL : strtok_r(NULL, "/", &save)) {
            int key = hint_key(tok);
            if (!key || !keys_find(id, key)) {
                diag("the status bar names \"%s\", which is bound to nothing here", tok);
                unbound++;
            }
        }
    }
    if (words < 1) {   /* the help's bar holds one ("any key back"): q goes back there, not quit */
        diag("no key hints found on the status bar");
        unbound++;
    }
    return unbound;
}

/* A fresh view of file on screen s (the counterexample: every key applies). */
static bool view_on(struct view *v, const char *file, int s)
{
    if (open_view(v, file, NULL) != 0)
        return false;
    if (screens[s].enter)
        view_key(v, screens[s].enter);
    return v->screen == screens[s].screen;
}

/* The manual page's KEYS IN THE VIEW (docs/hetcast.h2m, troff: "\-" is "-") has every row of the
 * main screen, its help text on a line of its own: the page cannot fall behind the table. */
static void man_keys(void)
{
    FILE *fp = fopen("docs/hetcast.h2m", "r");
    ok(fp != NULL, "docs/hetcast.h2m opens (the tests run from the source root)");
    if (!fp)
        return;
    char *page = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&page, &len);
    for (int c, d; (c = fgetc(fp)) != EOF;) {
        if (c == '\\' && (d = fgetc(fp)) != EOF) {   /* troff's "\-" is a "-" */
            if (d != '-')
                fputc(c, m);
            c = d;
        }
        fputc(c, m);
    }
    fclose(fp);
    fclose(m);
    const char *keys = strstr(page, "[KEYS IN THE VIEW]");
    int missing = 0, rows = 0;
    for (int i = 0; keys && i < keys_count(); i++) {
        const struct key_row *r = keys_at(i);
        if (!(r->screens & SCR_MAIN))
            continue;
        rows++;
        char line[256];
        snprintf(line, sizeof line, "\n%s\n", r->help);
        if (!strstr(keys, line)) {
            diag("not in the manual page's keys: %s", r->help);
            missing++;
        }
    }
    ok(keys && rows > 20 && missing == 0, "the manual page lists every key of the main screen (%d rows, "
                                          "%d missing)", rows, missing);
    free(page);
}

static void key_table(void)
{
    int n = keys_count(), bad = 0, known = SCR_MAIN | SCR_EXERCISE | SCR_CHOOSER | SCR_HELP |
                                  SCR_FACTS | SCR_PROMPT | SCR_LESSON;
    for (int i = 0; i < n; i++) {
        const struct key_row *r = keys_at(i);
        if (!r->help || !r->help[0] || !r->keys[0] || !r->screens || (r->screens & ~(unsigned)known)) {
            diag("row %d: no help text, no key or no screen", i);
            bad++;
        }
    }
    is_int(bad, 0, "every row of the key table has keys, a screen and help text (%d rows)", n);

    int twice = 0;
    for (int s = 0; s < NSCREENS; s++) {
        unsigned id = screens[s].screen->id;
        int seen[256], nseen = 0;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < KEY_ROW_KEYS && (keys_at(i)->screens & id) && keys_at(i)->keys[k]; k++) {
                int key = keys_at(i)->keys[k];
                for (int j = 0; j < nseen; j++)
                    if (seen[j] == key) {
                        diag("%s: key %d is bound twice (again in row %d)", screens[s].screen->name, key, i);
                        twice++;
                    }
                if (nseen < 256)
                    seen[nseen++] = key;
            }
    }
    is_int(twice, 0, "no key is bound twice on one screen");

    /* Every key of every row, pressed on each of its screens, is handled there.
     * In a scratch directory: e exports. */
    char cwd[4096], file[4200], dir[] = "/tmp/hetcast-keys-XXXXXX";
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(dir) || chdir(dir) != 0) {
        ok(0, "a scratch directory");
        return;
    }
    snprintf(file, sizeof file, "%s/clusters/counterexample.csv", cwd);
    int pressed = 0, dead = 0;
    for (int s = 0; s < NSCREENS; s++)
        for (int i = 0; i < n; i++) {
            const struct key_row *r = keys_at(i);
            if (!(r->screens & screens[s].screen->id))
                continue;
            for (int k = 0; k < KEY_ROW_KEYS && r->keys[k]; k++) {
                struct view v;
                int key = r->keys[k] == UK_ANY ? 'a' : r->keys[k];
                if (!view_on(&v, file, s)) {
                    diag("cannot open the %s screen", screens[s].screen->name);
                    dead++;
                    continue;
                }
                pressed++;
                if (!(view_key(&v, key) & UI_HANDLED)) {
                    diag("%s: key %d of row %d (%s) is not handled", screens[s].screen->name, key, i,
                         r->help);
                    dead++;
                }
                view_close(&v);
            }
        }
    ok(pressed > 60 && dead == 0, "every key in the table is handled on its screens (%d presses, %d dead)",
       pressed, dead);

    /* ... and no other key is: the dispatch knows no key the table does not list. */
    int tried[0x7f - 0x20 + 16], ntried = 0;
    for (int c = 0x20; c < 0x7f; c++)
        tried[ntried++] = c;
    static const int specials[] = {UK_UP, UK_DOWN, UK_LEFT, UK_RIGHT, UK_HOME, UK_END, UK_PGUP,
                                   UK_PGDN, UK_ENTER, UK_ESC, UK_BACKSPACE, '\t', 0x7f, 0xe9};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        tried[ntried++] = specials[i];
    int hidden = 0;
    for (int s = 0; s < NSCREENS - 1; s++) {   /* not the help screen: any key goes back */
        struct view v;
        if (!view_on(&v, file, s))
            continue;
        for (int i = 0; i < ntried; i++) {
            int step = v.step;
            if (keys_find(screens[s].screen->id, tried[i]))
                continue;
            if (view_key(&v, tried[i]) != 0 || v.screen != screens[s].screen || v.step != step) {
                diag("%s: key %d acts but is in no row", screens[s].screen->name, tried[i]);
                hidden++;
            }
        }
        view_close(&v);
    }
    is_int(hidden, 0, "a key in no row does nothing on any screen");

    /* The help is drawn from the rows: each row of the main screen and of the
     * exercise is on the help opened over it, keys and text. */
    for (int s = 0; s < 2; s++) {
        struct view v;
        if (!view_on(&v, file, s))
            continue;
        view_key(&v, '?');
        int missing = 0, rows = 0;
        for (int i = 0; i < n; i++) {
            const struct key_row *r = keys_at(i);
            char label[96];
            if (!(r->screens & screens[s].screen->id))
                continue;
            rows++;
            key_label(r, v.ascii, false, label, sizeof label);
            if (!key_help(r, view_kind(&v)) || !shows(&v, key_help(r, view_kind(&v))) || !shows(&v, label))
                missing++;
        }
        is_int(missing, 0, "the help over the %s screen lists its %d rows", screens[s].screen->name, rows);
        view_close(&v);
    }

    /* The key hints on the status bar name bound keys only. */
    int unbound = 0;
    for (int s = 0; s < NSCREENS; s++) {
        struct view v;
        if (screens[s].screen == &screen_chooser || !view_on(&v, file, s))
            continue;   /* a list is drawn over the screen below, and keeps its bar */
        for (int form = 0; form < 4; form++) {   /* Unicode and ASCII, 80 and 200 columns (every hint) */
            v.ascii = form & 1;
            cb_resize(&cb, form < 2 ? 80 : 200, 24);
            unbound += unbound_hints(&v, screens[s].screen->id);
            if (screens[s].screen == &screen_exercise) {   /* the receiver's pick has its own hints */
                view_key(&v, UK_ENTER);
                unbound += unbound_hints(&v, screens[s].screen->id);
                view_key(&v, UK_ESC);
            }
        }
        view_close(&v);
    }
    cb_resize(&cb, 80, 24);
    is_int(unbound, 0, "every key the status bar names is bound on its screen");

    /* One zoom limit: the main screen and the exercise stop at the same one. */
    int limit[2] = {-1, -2};
    for (int s = 0; s < 2; s++) {
        struct view v;
        if (!view_on(&v, file, s))
            continue;
        for (int i = 0; i < 40; i++)
            view_key(&v, '+');
        limit[s] = v.zoom;
        view_close(&v);
    }
    ok(limit[0] == limit[1] && limit[0] > 0, "zoom stops at the same limit in both screens (%d, %d)",
       limit[0], limit[1]);

    /* An exchange hides the rows that do not apply (x, o) but still answers them. */
    struct view v;
    if (open_with(&v, file, NULL, "sync", 0, "all-to-all", NULL, NULL) == 0) {
        view_key(&v, '?');
        char *h = screen(&v);
        ok(!strstr(h, "exercise:") && !strstr(h, "the source") && strstr(h, "sending orders"),
           "an exchange's help leaves out x and o and says what t shows");
        free(h);
        view_key(&v, 'a');
        ok(view_key(&v, 'x') & UI_HANDLED, "x is still answered there");
        ok(shows(&v, "the exercise builds a broadcast"), "with the reason");
        view_close(&v);
    }

    DIR *d = opendir(".");
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            unlink(de->d_name);
    if (d)
        closedir(d);
    if (chdir(cwd) != 0 || rmdir(dir) != 0)
        diag("could not clean up %s", dir);
}

/* A front door whose user cancels the first `cancel_first` computations at once. */
static volatile sig_atomic_t fake_flag;
static int fake_calls, cancel_first;
static void fake_computing(struct view *v, bool on)
{
    (void)v;
    if (on && ++fake_calls <= cancel_first)
        fake_flag = 1;
}

static void cancel_at_open(void)
{
    struct view hooks, v;
    memset(&hooks, 0, sizeof hooks);
    hooks.computing = fake_computing;
    hooks.cancel = &fake_flag;
    struct session_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    o.file = "clusters/counterexample.csv";
    o.sched[o.nsched++] = "slowest-first";
    char *cause = NULL;
    fake_calls = 0;
    cancel_first = 1;
    is_int(view_open_hooked(&v, &o, &hooks, &cause), 0, "the first run cancelled at open: the view opens");
    free(cause);
    cause = NULL;
    if (fake_calls > 0 && v.c) {
        ok(strcmp(vrun_sched_name(&v.runs[0]), "fnf") == 0, "on fnf instead (got %s)",
           vrun_sched_name(&v.runs[0]));
        ok(strstr(v.msg, "slowest-first: cancelled; showing fnf instead") != NULL, "and says so: %s", v.msg);
        view_close(&v);
    }
    fake_calls = 0;
    cancel_first = 99;
    is_int(view_open_hooked(&v, &o, &hooks, &cause), 1, "fnf cancelled too: status 1, no view");
    ok(cause && strstr(cause, "cancelled before the view opened, nothing to show"), "and it says: %s",
       cause ? cause : "(nothing)");
    free(cause);
    cause = NULL;
    o.sched[1] = "optimal";   /* compare mode's second run cancelled: one pane, and a message */
    o.nsched = 2;
    fake_calls = 0;
    cancel_first = 0;
    struct view w;
    is_int(view_open_hooked(&w, &o, &hooks, &cause), 0, "compare at open: the view opens");
    if (w.c) {
        is_int(w.nruns, 2, "with both panes when nothing is cancelled");
        view_close(&w);
    }
    fake_calls = 0;
    cancel_first = 99;
    o.sched[0] = "fnf";
    free(cause);
    cause = NULL;
    is_int(view_open_hooked(&w, &o, &hooks, &cause), 1, "everything cancelled in compare mode: status 1");
    free(cause);
}

int main(void)
{
    lua_sched_set_dir(HETCAST_SRCLUADIR);   /* as the program does from its data directory */
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    cb_init(&cb, 80, 24);
    stepping();
    compare_and_tree();
    help_and_size();
    lists_and_failures();
    exercise();
    export_and_reload();
    export_long_name();
    large();
    figueira_trees();
    exchange();
    pipeline();
    key_table();
    man_keys();
    cancel_at_open();
    cb_free(&cb);
    return tap_exit();
}
