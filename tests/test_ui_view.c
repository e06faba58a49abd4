/*
 * test_ui_view.c - the view without a terminal: keys go to view_key, the
 * screen is drawn into a cell buffer and read back as text.  Covers the
 * counterexample stepped to the end (fnf 6), compare mode (optimal 5), the
 * tree (p0 -> p1, p0 -> p2), back-then-forward giving the same screen, help
 * listing every key, too small a terminal, fills without colour, exercise
 * mode, the scheduler and model lists, failures that keep the state,
 * export, reload, the source, a 100-node cluster, zoom, play and resize.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cellbuf.h"
#include "tap.h"
#include "view.h"

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
    struct cli_opts o;
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
    for (int i = 0; i < v->ch.n; i++)
        if (strcmp(v->ch.items[i], item) == 0)
            return i;
    return -1;
}

static void choose(struct view *v, int open_key, const char *item)
{
    view_key(v, open_key);
    int want = index_of(v, item);
    while (v->ch.sel > want && want >= 0)
        view_key(v, UK_UP);
    while (v->ch.sel < want)
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
    for (int i = 0; i < v.ch.n; i++)
        if (strstr(v.ch.items[i], "/fnf.lua"))
            lua = i;
    view_key(&v, UK_ESC);
    ok(lua >= 0, "the list has the bundled Lua heuristics");
    if (lua >= 0) {
        is_int(view_set_scheduler(&v, v.ch.items[lua]), 0, "fnf.lua runs");
        view_key(&v, 'G');
        ok(shows(&v, "makespan 6") && shows(&v, "fnf.lua"), "fnf.lua: makespan 6, like fnf");
        view_set_scheduler(&v, "fnf");
    }
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
    ok(strstr(v.ex.feedback, "The best makespan reachable is 5."), "it announces the best reachable");
    ok(shows(&v, "best reachable 5"), "and shows it");
    ok(shows(&v, "pick a sender"), "first a sender");
    view_key(&v, UK_ENTER);
    ok(shows(&v, "p0 sends to:") && shows(&v, "holds at 4") && shows(&v, "holds at 5"),
       "then a receiver, with the receive time each would give");
    view_key(&v, UK_ENTER);   /* p0 -> p1, as fnf does */
    ok(shows(&v, "You: p0 -> p1") && shows(&v, "fnf picks the same."), "fnf's choice recognised");
    ok(strstr(v.ex.feedback, "Best reachable now 6, was 5: this choice costs 1."),
       "and its cost: the best is now 6");
    view_key(&v, UK_LEFT);
    ok(shows(&v, "Undone: p0 -> p1"), "left undoes it");
    is_int(v.ex.nchoices, 0, "back to no choices");
    const int better[] = {UK_ENTER, UK_DOWN, UK_ENTER};
    keys(&v, better, 3);
    ok(shows(&v, "You: p0 -> p2") && shows(&v, "fnf would pick p0 -> p1"), "another choice than fnf's");
    ok(strstr(v.ex.feedback, "Best reachable still 5."), "that keeps the optimum in reach");
    view_key(&v, UK_ENTER);
    view_key(&v, UK_ENTER);
    ok(shows(&v, "Done: your makespan 5, fnf 6, best possible 5."), "done: the student beats fnf");
    ok(shows(&v, "your makespan 5") && shows(&v, "best possible 5"), "the panel sums it up");
    is_int(v.ex.phase, EX_DONE, "nothing left to pick");
    view_key(&v, 'x');
    ok(v.screen == &screen_main && !v.ex.live, "x leaves the exercise");
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

    struct cli_opts o;
    memset(&o, 0, sizeof o);
    o.file = "/nonexistent/cluster.csv";
    char *cause = NULL;
    is_int(view_open(&v, &o, &cause), 2, "a file that cannot be loaded: status 2");
    ok(cause && strstr(cause, "/nonexistent/cluster.csv") != NULL, "the cause names it: %s",
       cause ? cause : "(null)");
    free(cause);
}

static void large(void)
{
    struct view v;
    if (open_view(&v, "clusters/fig6-100.csv", NULL) != 0) {
        ok(0, "the 100-node cluster opens");
        return;
    }
    ok(shows(&v, "100 nodes"), "100 nodes");
    ok(shows(&v, "nodes 1-"), "the lanes scroll");
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

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    cb_init(&cb, 80, 24);
    stepping();
    compare_and_tree();
    help_and_size();
    lists_and_failures();
    exercise();
    export_and_reload();
    large();
    cb_free(&cb);
    return tap_exit();
}
