/*
 * test_ui_teach.c - the view for a class, without a terminal:
 * compare panes that show every node and a legend true for both; numbers rounded for reading; the help's bottom line;
 * a third -s refused; the compare export holding both schedules; the
 * pipeline's and the sync model's narration; the first difference and the
 * critical path on the bars; the exercise's reasons; a lesson's slides,
 * every question kind's row on the bundled lessons' slides of its kind,
 * a slide whose file became a FIFO refused at open, and a slide change that
 * fails or is cancelled keeping the slide shown.  Keys go to view_key and the
 * screen is read back from the cell buffer, as in test_ui_view.c.
 */
#include <ctype.h>
#include <glob.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/cellbuf.h"
#include "config.h"
#include "ui/drawkit.h"
#include "ui/join_screen.h"
#include "session/lesson.h"
#include "sched/lua_sched.h"
#include "tap.h"
#include "ui/screen_chooser.h"
#include "ui/screen_exercise.h"
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

static bool shows_quiet(struct view *v, const char *text)
{
    char *s = screen(v);
    bool hit = strstr(s, text) != NULL;
    free(s);
    return hit;
}

/* How many lines of the screen start with name followed by a blank (a lane label). */
static int lanes_named(struct view *v, const char *name)
{
    char *s = screen(v);
    int n = 0;
    size_t len = strlen(name);
    for (char *line = s; line && *line;) {
        if (strncmp(line, name, len) == 0 && line[len] == ' ')
            n++;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    free(s);
    return n;
}

static int open_args(struct view *v, const char *file, const char *const *sched, int nsched,
                     const char *param, char **cause)
{
    struct session_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    o.file = file;
    for (int i = 0; i < nsched; i++)
        o.sched[o.nsched++] = sched[i];
    if (param) {
        o.params[0] = param;
        o.nparams = 1;
    }
    char *why = NULL;
    int rc = view_open(v, &o, &why);
    if (cause)
        *cause = why;
    else {
        if (rc)
            printf("# view_open: %s\n", why ? why : "?");
        free(why);
    }
    return rc;
}

/* Every node reaches both panes at every size, and the legend names the nodes both show. */
static void compare_panes(void)
{
    static const struct {
        const char *file, *param, *last;
        int w, h;
    } cases[] = {
        {"clusters/counterexample.csv", NULL, "p2", 60, 16},
        {"clusters/counterexample.csv", NULL, "p2", 80, 24},
        {"clusters/counterexample.csv", NULL, "p2", 200, 60},
        {"clusters/k-class.lua", "n=8", "slow-4", 80, 24},
        {"clusters/k-class.lua", "n=8", "slow-4", 60, 16},
    };
    const char *two[] = {"fnf", "optimal"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct view v;
        cb_resize(&cb, cases[i].w, cases[i].h);
        if (open_args(&v, cases[i].file, two, 2, cases[i].param, NULL) != 0) {
            ok(false, "%s opens in compare mode", cases[i].file);
            continue;
        }
        view_key(&v, UK_END);
        /* Walk the selection over every node: each shows in both panes when selected. */
        int missing = 0;
        for (int p = 0; p < v.c->n; p++) {
            v.sel = p;
            if (lanes_named(&v, v.c->nodes[p].name) != 2) {
                diag("%s at %dx%d: %s is not in both panes", cases[i].file, cases[i].w, cases[i].h,
                     v.c->nodes[p].name);
                missing++;
            }
        }
        is_int(missing, 0, "%s at %dx%d: every node reachable in both compare panes", cases[i].file,
               cases[i].w, cases[i].h);
        v.sel = v.c->n - 1;
        char *s = screen(&v);
        free(s);
        if (v.c->n > v.page) {
            char range[64];
            snprintf(range, sizeof range, "nodes %d-%d of %d", v.top + 1, v.top + v.page, v.c->n);
            ok(shows(&v, range) && lanes_named(&v, cases[i].last) == 2,
               "%s at %dx%d: the legend's range (%s) is what both panes show", cases[i].file,
               cases[i].w, cases[i].h, range);
        }
        view_close(&v);
    }
    cb_resize(&cb, 80, 24);
}

static void numbers_and_bars(void)
{
    is_string(ui_num(0.1 + 0.2), "0.3", "0.1 + 0.2 reads 0.3 on screen");
    is_string(ui_num(1.0 / 3), "0.3333", "1/3 reads 0.3333");
    is_string(ui_num(6), "6", "6 reads 6");
    is_string(ui_num(0.0125), "0.0125", "0.0125 keeps its digits");

    struct view v;
    const char *one[] = {"fnf"};
    if (open_args(&v, "clusters/counterexample.csv", one, 1, NULL, NULL) != 0)
        return;
    view_key(&v, '?');
    char *s = screen(&v);
    int y = cb.h - 1;
    char bar[512] = "";
    size_t at = 0;
    for (int x = 0; x < cb.w && at + 5 < sizeof bar; x++)
        at += utf8_encode(cb_at(&cb, x, y)->ch ? cb_at(&cb, x, y)->ch : ' ', bar + at);
    bar[at] = '\0';
    free(s);
    ok(strstr(bar, "quit") == NULL && strstr(bar, "back") != NULL,
       "the help's bottom line says back, not quit (q goes back there): %s", bar);
    view_key(&v, 'q');
    ok(v.screen == &screen_main, "q on the help goes back");
    view_close(&v);

    const char *three[] = {"fnf", "optimal", "slowest-first"};
    char *cause = NULL;
    int rc = open_args(&v, "clusters/counterexample.csv", three, 3, NULL, &cause);
    ok(rc == 2 && cause && strstr(cause, "two schedulers"), "a third -s is refused with a message: %s",
       cause ? cause : "(none)");
    free(cause);
}

/* e in compare mode: the CSV holds both schedules. */
static void compare_export(void)
{
    struct view v;
    const char *two[] = {"fnf", "optimal"};
    if (open_args(&v, "clusters/counterexample.csv", two, 2, NULL, NULL) != 0)
        return;
    char dir[] = "/tmp/hetcast-teach.XXXXXX";
    if (!mkdtemp(dir)) {
        ok(false, "a temporary directory");
        view_close(&v);
        return;
    }
    char stem[600], csv[700];
    snprintf(stem, sizeof stem, "%s/both", dir);
    is_int(view_export(&v, stem), 0, "compare exports");
    snprintf(csv, sizeof csv, "%s.csv", stem);
    FILE *fp = fopen(csv, "r");
    int fnf = 0, opt = 0, headers = 0;
    char line[1024];
    while (fp && fgets(line, sizeof line, fp)) {
        fnf += strncmp(line, "fnf,", 4) == 0;
        opt += strncmp(line, "optimal,", 8) == 0;
        headers += strncmp(line, "scheduler,", 10) == 0;
    }
    if (fp)
        fclose(fp);
    ok(fnf == 2 && opt == 2 && headers == 1,
       "the compare CSV holds both schedules under one header (fnf %d, optimal %d rows)", fnf, opt);
    char svg[700];
    snprintf(svg, sizeof svg, "%s.svg", stem);
    unlink(csv);
    unlink(svg);
    rmdir(dir);
    view_close(&v);
}

/* The narration: a pipeline's last slice is held by all 7, the sync port's busy time. */
static void narration(void)
{
    struct view v;
    struct session_opts o;
    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    o.file = "clusters/platform-small.csv";
    o.sched[o.nsched++] = "grow-tree";
    o.sopt.slices = 4;
    char *cause = NULL;
    if (view_open(&v, &o, &cause) != 0) {
        ok(false, "platform-small opens: %s", cause ? cause : "?");
        free(cause);
        return;
    }
    view_key(&v, UK_END);
    ok(shows(&v, "(7 of 7 nodes hold it). End: makespan 21."),
       "a pipeline's end: all 7 hold the last slice (the source holds every slice)");
    view_close(&v);

    memset(&o, 0, sizeof o);
    sched_opts_default(&o.sopt);
    o.file = "clusters/counterexample.csv";
    o.model = "sync";
    if (view_open(&v, &o, &cause) != 0) {
        free(cause);
        return;
    }
    cb_resize(&cb, 200, 24);
    view_key(&v, 'l');
    char *text = screen(&v);
    ok(strstr(text, "port busy until t=4") && !strstr(text, "done at t=1)"),
       "sync: the narration says the send port is busy until 4, not done at 1");
    free(text);
    cb_resize(&cb, 80, 24);
    view_close(&v);
}

/* The critical path on the bars, as a glyph (◆, * in ASCII); the first difference in compare. */
static void why(void)
{
    for (int ascii = 0; ascii < 2; ascii++) {
        struct view v;
        const char *one[] = {"fnf"};
        if (open_args(&v, "clusters/counterexample.csv", one, 1, NULL, NULL) != 0)
            return;
        v.ascii = ascii;
        view_key(&v, UK_END);
        char *s = screen(&v);
        free(s);
        int marks = 0;
        uint32_t crit = ascii ? '*' : 0x25c6;
        for (int y = 3; y < cb.h - 5; y++)   /* the lanes, not the legend */
            for (int x = 12; x < cb.w; x++)
                marks += cb_at(&cb, x, y)->ch == crit;
        ok(marks >= 2, "%s: the critical path is marked on its bars (%d marks)", ascii ? "ASCII" : "Unicode",
           marks);
        view_close(&v);
    }
    struct view v;
    const char *two[] = {"fnf", "optimal"};
    if (open_args(&v, "clusters/counterexample.csv", two, 2, NULL, NULL) != 0)
        return;
    char *s = screen(&v);
    ok(strstr(s, "first difference") == NULL, "compare at the start: the difference is not given away");
    free(s);
    view_key(&v, UK_END);
    ok(shows(&v, "first difference") && shows(&v, "fnf p0\xe2\x86\x92p1") && shows(&v, "optimal p0\xe2\x86\x92p2") &&
       shows(&v, "fnf loses 1 (p2: 6, not 5)"),
       "compare at the end: the first difference names both picks and p2, late");
    view_key(&v, 'L');
    for (int k = 0; k < 5; k++)
        view_key(&v, UK_PGUP);
    ok(shows(&v, "first difference: decision 1") && shows(&v, "fnf loses 1"), "the narration log starts with the first difference, whole, with the loss");
    view_key(&v, 'q');
    /* 60x16: no row between the panes; the message lines give it at the end
     * and at the step the cursor reaches it, and narrate the other steps. */
    cb_resize(&cb, 60, 16);
    view_step_to(&v, v.nsteps);
    ok(shows(&v, "first difference (t=0): fnf p0\xe2\x86\x92p1, optimal p0\xe2\x86\x92p2") &&
       shows(&v, "loses 1 (p2: 6, not 5)") && lanes_named(&v, "p2") == 2 && v.screen == &screen_main, "60x16, at the end: the first difference on screen, "
       "and p2 in both panes");
    view_step_to(&v, 1);
    ok(shows(&v, "first difference"), "60x16, at t=0 where they part: on screen");
    view_step_to(&v, 4);
    ok(!shows_quiet(&v, "first difference") && view_now(&v) > 0, "60x16, later steps: the narration");
    cb_resize(&cb, 80, 24);
    view_close(&v);
}

/* The exercise: the reason of a worse pick, keys that do not apply, what is known above 8 nodes. */
static void exercise(void)
{
    struct view v;
    const char *one[] = {"fnf"};
    if (open_args(&v, "clusters/counterexample.csv", one, 1, NULL, NULL) != 0)
        return;
    view_key(&v, 'x');
    const struct exercise *ex = exercise_of(&v);   /* the exercise's state, kept by the view */
    view_key(&v, UK_ENTER);
    view_key(&v, UK_ENTER);   /* p0 -> p1: costs 1 */
    ok(strstr(ex->feedback, "p2 ends up late: 6 at best, not 5 (late by 1)") &&
       strstr(ex->feedback, "p0 -> p2 would have kept 5"),
       "a worse pick: the late node, by how much, the better pick (%s)", ex->feedback);
    view_key(&v, 'z');
    ok(strstr(ex->feedback, "z does nothing in the exercise") && v.screen == &screen_exercise,
       "a key that does not apply says so, and stays");
    view_close(&v);

    /* Above 8 nodes the search runs when the view has proven the optimum
     * (the optimum ends it early; a time limit, after which it says it is
     * not proven). */
    if (open_args(&v, "clusters/k-class.lua", one, 1, "n=10", NULL) != 0)
        return;
    view_key(&v, 'x');
    ex = exercise_of(&v);
    ok(ex->search && ex->optimum_known && ex->best_known && ex->best_exact &&
       ex->best == v.runs[0].run.optimum && strstr(ex->feedback, "the optimum the view proved"),
       "10 nodes: the best reachable is the view's proven optimum (%s)", ex->feedback);
    view_key(&v, UK_ENTER);
    view_key(&v, UK_DOWN);
    view_key(&v, UK_ENTER);   /* the source to its second listed receiver */
    ok(ex->best_known && (ex->best_exact ? strstr(ex->feedback, "Best reachable") != NULL
                                         : strstr(ex->feedback, "not proven") != NULL),
       "10 nodes: a pick is searched; a proven best, or it says it is not proven (%s)", ex->feedback);
    ok(!ex->best_exact || ex->best >= ex->optimum, "the best reachable is never below the optimum");
    view_close(&v);

    if (open_args(&v, "clusters/k-class.lua", one, 1, "n=20", NULL) != 0)
        return;
    view_key(&v, 'x');
    ex = exercise_of(&v);
    ok(!ex->search && !ex->optimum_known && strstr(ex->feedback, "what is known: lower bound"),
       "20 nodes, no optimum: no search, and what is known: the lower bound and fnf (%s)", ex->feedback);
    view_close(&v);
}

/* The student's finished schedule: a third timeline "you" beside fnf and
 * the optimum, exported with them, kept when the exercise is left. */
static void you(void)
{
    struct view v;
    const char *one[] = {"fnf"};
    if (open_args(&v, "clusters/counterexample.csv", one, 1, NULL, NULL) != 0)
        return;
    view_key(&v, 'x');
    const struct exercise *ex = exercise_of(&v);   /* the exercise's state, kept by the view */
    view_key(&v, UK_ENTER);
    view_key(&v, UK_ENTER);   /* p0 -> p1 */
    view_key(&v, 'x');        /* unfinished: kept, not shown */
    ok(v.nruns == 1 && ex->nchoices == 1 && strstr(v.msg, "1 choice is kept"),
       "leaving unfinished keeps the choice and shows no timeline (%s)", v.msg);
    view_key(&v, 'x');
    ok(v.screen == &screen_exercise && ex->nchoices == 1 && ex->eng.nwaiting == 1 &&
       strstr(ex->feedback, "Back to your 1 choice"), "x resumes it (%s)", ex->feedback);
    view_key(&v, UK_ENTER);
    view_key(&v, UK_ENTER);   /* p0 -> p2: done, makespan 6 */
    view_key(&v, 'x');
    ok(v.screen == &screen_main && v.nruns == 3 && v.runs[2].you && v.runs[2].run.eng.makespan == 6 &&
       strcmp(vrun_sched_name(&v.runs[1]), "optimal") == 0,
       "leaving a finished exercise: fnf, optimal and you (%d runs)", v.nruns);
    ok(shows(&v, "you \xc2\xb7 makespan 6 (your exercise)") && shows(&v, "fnf vs optimal + you") &&
       shows(&v, "optimal \xc2\xb7 makespan 5"), "three panes on one axis, each headed");
    ok(v.step == v.nsteps && v.nsteps == 8 + 8 + 8, "the steps merge the three timelines (%d)", v.nsteps);
    view_step_to(&v, 0);
    for (int k = 0; k < v.nsteps; k++)
        view_key(&v, 'l');
    ok(v.applied[0] == 8 && v.applied[1] == 8 && v.applied[2] == 8, "stepping reaches the end of all three");

    char dir[] = "/tmp/hetcast-you.XXXXXX";
    if (mkdtemp(dir)) {
        char stem[600], path[700], line[1024];
        snprintf(stem, sizeof stem, "%s/three", dir);
        is_int(view_export(&v, stem), 0, "the three export");
        snprintf(path, sizeof path, "%s.csv", stem);
        FILE *fp = fopen(path, "r");
        int mine = 0;
        while (fp && fgets(line, sizeof line, fp))
            mine += strncmp(line, "you,", 4) == 0 && strstr(line, "your choice") != NULL;
        if (fp)
            fclose(fp);
        ok(mine == 2, "the CSV holds your two transfers (%d)", mine);
        unlink(path);
        snprintf(path, sizeof path, "%s.svg", stem);
        fp = fopen(path, "r");
        int head = 0;
        while (fp && fgets(line, sizeof line, fp))
            head += strstr(line, ">you: makespan 6<") != NULL;
        if (fp)
            fclose(fp);
        ok(head == 1, "the SVG draws your schedule");
        unlink(path);
        rmdir(dir);
    }
    view_set_model(&v, MODEL_SYNC);
    ok(v.nruns == 3 && v.runs[2].you && v.model == MODEL_SYNC,
       "a new model replays your choices under it (%g)", v.runs[2].run.eng.makespan);
    view_key(&v, 'c');
    ok(v.nruns == 1 && ex->nchoices == 2, "c hides the timelines; your choices stay");
    view_set_source(&v, 1);
    ok(ex->nchoices == 0, "a new source forgets them (they start from the old one)");
    view_close(&v);

    /* A Figueira tree: the summary's per-run values stay the two schedulers'. */
    const char *tree[] = {"balanced-path"};
    if (open_args(&v, "clusters/figueira-table1.csv", tree, 1, NULL, NULL) != 0)
        return;
    view_key(&v, 'x');
    for (int k = 0; k < 2 * v.c->n && exercise_of(&v)->eng.nwaiting > 0; k++)
        view_key(&v, UK_ENTER);
    view_key(&v, 'x');
    ok(v.nruns == 3 && v.runs[2].you && shows(&v, "tree cost 3 / 6") && shows(&v, "balanced-path vs binomial + you"),
       "a tree and the student's schedule: three timelines, the tree costs of the two trees");
    /* Figueira's LNOWs have no send or receive step: the facts speak of distances. */
    int n6 = cluster_find(v.c, "n6");
    char *facts = n6 >= 0 ? view_facts(&v, n6) : NULL;
    ok(facts && strstr(facts, "no send or receive step (s = r = 0)") && strstr(facts, "distances: n0 0,") &&
       !strstr(facts, "receive r=") && !strstr(facts, "its receive ["),
       "node facts on a latency matrix with s = r = 0: distances, no receive step");
    free(facts);
    view_close(&v);
}

/* A lesson: its slides, the answer on a key, the schedule of a slide, the next slide. */
static void lesson(void)
{
    struct lesson l;
    char *cause = NULL;
    if (lesson_load("lua/lessons/fnf-loses.lua", &l, &cause) < 0) {
        ok(false, "fnf-loses.lua loads: %s", cause ? cause : "?");
        free(cause);
        return;
    }
    struct view v;
    is_int(lesson_view_open(&v, &l, 0, &cause), 0, "the lesson opens on its first slide");
    ok(v.screen == &screen_lesson && shows(&v, "slide 1/4") && shows(&v, "Which node should p0 serve first?"),
       "slide 1: its title, text and question");
    char *s = screen(&v);
    ok(strstr(s, "p2, the slow one") == NULL, "the answer is hidden");
    free(s);
    view_key(&v, 'a');
    ok(shows(&v, "p2, the slow one"), "a reveals it");
    view_key(&v, ']');
    view_key(&v, ']');
    ok(shows(&v, "slide 3/4") && v.nruns == 2, "] ] : slide 3, two schedulers");
    view_key(&v, UK_ENTER);
    ok(v.screen == &screen_main && shows(&v, "fnf vs optimal") && shows(&v, "step 16/16"),
       "Enter shows its schedules at the slide's step (the end)");
    view_key(&v, '[');
    ok(v.slide == 1 && v.nruns == 1, "[ from the schedule: the previous slide");
    view_key(&v, UK_ENTER);
    view_key(&v, 'w');
    ok(v.screen == &screen_lesson, "w brings the slide's text back");
    view_close(&v);
    lesson_free(&l);
}

/* Write text to a fresh lesson file under a temporary folder; its path (caller frees both). */
static char *temp_lesson(const char *text, char **dir)
{
    char tmpl[] = "/tmp/hetcast-lessonq-XXXXXX";
    *dir = xstrdup(mkdtemp(tmpl) ? tmpl : "/tmp");
    char *path = xasprintf("%s/q.lua", *dir);
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
    return path;
}

/* Questions a student answers: choices and predictions, read, checked and graded. */
static void lesson_questions(void)
{
    static const char *ok_text =
        "local c = {latency = 1, nodes = {{'p0', 1, 2}, {'p1', 1, 2}, {'p2', 2, 3}}}\n"
        "return {title = 'q', slides = {\n"
        "  {title = 'pick', cluster = c, schedulers = 'fnf', question = 'Which first?',\n"
        "   choices = {'p1', 'p2'}, correct = 2, answer = 'p2: its receive is long'},\n"
        "  {title = 'end', cluster = c, schedulers = 'fnf', question = 'Makespan?', predict = 'makespan'},\n"
        "  {title = 'next', cluster = c, schedulers = 'fnf', question = 'Next?', predict = 'next',\n"
        "   decision = 2},\n"
        "}}\n";
    char *dir, *path = temp_lesson(ok_text, &dir);
    struct lesson l;
    char *cause = NULL;
    int rc = lesson_load(path, &l, &cause);
    ok(rc == 0, "a lesson with choices and predictions loads: %s", cause ? cause : "ok");
    free(cause);
    cause = NULL;
    if (rc == 0) {
        const struct slide *s = &l.slides[0];
        ok(s->nchoices == 2 && s->correct == 1 && !strcmp(s->choices[1], "p2") && slide_gradable(s),
           "choices = {'p1', 'p2'}, correct = 2: two choices, the second right");
        struct lesson_grade g;
        static const struct {
            const char *answer;
            bool right;
        } picks[] = {{"B", true}, {"b", true}, {"2", true}, {" p2 ", true}, {"P2", true},
                     {"A", false}, {"1", false}, {"p1", false}};
        for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
            rc = lesson_grade(s, NULL, picks[i].answer, &g, &cause);
            ok(rc == 0 && g.correct == picks[i].right && !strcmp(g.expected, "B: p2"),
               "choice \"%s\" is %s (expected \"%s\")", picks[i].answer, picks[i].right ? "right" : "wrong",
               g.expected);
            free(cause);
            cause = NULL;
        }
        rc = lesson_grade(s, NULL, "C", &g, &cause);
        ok(rc < 0 && cause && strstr(cause, "\"C\" is not one of the choices: answer with a letter from A to B"),
           "a letter past the choices is refused: %s", cause ? cause : "graded");
        free(cause);
        cause = NULL;
        rc = lesson_grade(s, NULL, "p\x1b[2J", &g, &cause);
        ok(rc < 0 && !strchr(g.given, '\x1b'), "a control character is refused and never echoed raw");
        free(cause);
        cause = NULL;
        ok(!slide_gradable(&(struct slide){.correct = -1}), "a slide without choices or predict grades nothing");

        struct view v;
        for (int k = 1; k <= 2; k++) {
            if (lesson_view_open(&v, &l, k, &cause) != 0) {
                ok(false, "slide %d opens: %s", k + 1, cause ? cause : "?");
                free(cause);
                cause = NULL;
                continue;
            }
            const struct run *r = &v.runs[0].run;
            s = &l.slides[k];
            if (k == 1) {   /* fnf on the counterexample: 6 */
                static const struct {
                    const char *answer;
                    bool right;
                } m[] = {{"6", true}, {"6.0", true}, {" 6 ", true}, {"5", false}, {"6.4", false},
                         {"5.5", false}, {"6.04", false}, {"6.004", true}, {"5.996", true},
                         {"6.006", false}};   /* within 0.005, as the GIFT export */
                for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
                    rc = lesson_grade(s, r, m[i].answer, &g, &cause);
                    ok(rc == 0 && g.correct == m[i].right && !strcmp(g.expected, "6"),
                       "makespan \"%s\" is %s (fnf makes %s)", m[i].answer, m[i].right ? "right" : "wrong",
                       g.expected);
                    free(cause);
                    cause = NULL;
                }
                rc = lesson_grade(s, r, "six", &g, &cause);
                ok(rc < 0 && cause && strstr(cause, "is not a number"), "\"six\" is not a number: %s",
                   cause ? cause : "graded");
            } else {   /* fnf's second booking on the counterexample: p0 -> p2 */
                static const char *const right[] = {"p0 -> p2", "p0->p2", "p0 p2", "p0, p2"};
                for (size_t i = 0; i < 4; i++) {
                    rc = lesson_grade(s, r, right[i], &g, &cause);
                    ok(rc == 0 && g.correct && !strcmp(g.expected, "p0 -> p2"), "next \"%s\" is right",
                       right[i]);
                    free(cause);
                    cause = NULL;
                }
                rc = lesson_grade(s, r, "p0 -> p1", &g, &cause);
                ok(rc == 0 && !g.correct, "next \"p0 -> p1\" (fnf's first booking) is wrong for decision 2");
                rc = lesson_grade(s, r, "p0 -> nobody", &g, &cause);
                ok(rc < 0 && cause && strstr(cause, "\"nobody\" is not a node of the slide's cluster"),
                   "a name that is no node is refused, not graded wrong: %s", cause ? cause : "graded");
                free(cause);
                cause = NULL;
                rc = lesson_grade(s, r, "p0", &g, &cause);
                ok(rc < 0 && cause && strstr(cause, "names one node"), "one name is refused: %s",
                   cause ? cause : "graded");
            }
            free(cause);
            cause = NULL;
            view_close(&v);
        }
        lesson_free(&l);
    }
    unlink(path);
    free(path);
    rmdir(dir);
    free(dir);

    static const struct {
        const char *slide, *want;
    } bad[] = {
        {"question = 'q', choices = {'a'}, correct = 1", "choices must list 2 to 8 answers"},
        {"question = 'q', choices = {'a', 'b'}", "choices need correct = K"},
        {"question = 'q', choices = {'a', 'b'}, correct = 3", "correct must be a number from 1 to 2"},
        {"question = 'q', choices = {'a', 'A'}, correct = 1", "choices 1 and 2 are the same"},
        {"question = 'q', choices = {'a', 'b\\27[2J'}, correct = 1", "choice 2 must be text"},
        {"question = 'q', correct = 1", "correct names one of the choices, and there are none"},
        {"question = 'q', predict = 'time'", "predict must be \"makespan\" or \"next\""},
        {"question = 'q', predict = 'makespan', choices = {'a', 'b'}, correct = 1", "choices or a prediction"},
        {"question = 'q', predict = 'makespan', decision = 2", "decision goes with predict = \"next\""},
        {"question = 'q', predict = 'next', decision = 0", "decision must be a number from 1"},
        {"predict = 'makespan'", "need the question they answer"},
        {"question = 'q', predict = 'next', schedulers = {'fnf', 'optimal'}", "one scheduler, no pattern"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text = xasprintf("return {title = 't', slides = {{title = 's', "
                               "cluster = {nodes = {{'p0', 1, 2}, {'p1', 1, 2}}}, %s}}}\n", bad[i].slide);
        path = temp_lesson(text, &dir);
        rc = lesson_load(path, &l, &cause);
        ok(rc < 0 && cause && strstr(cause, "slide 1: ") && strstr(cause, bad[i].want), "refused: %s",
           cause ? cause : "loaded");
        if (rc == 0)
            lesson_free(&l);
        free(cause);
        cause = NULL;
        unlink(path);
        free(path);
        rmdir(dir);
        free(dir);
        free(text);
    }
}

/* A fake row's grade: every answer right. */
static int grade_all_right(const struct slide *s, const struct run *r, const char *a, struct lesson_grade *g,
                           char **cause)
{
    (void)s;
    (void)r;
    (void)a;
    (void)cause;
    g->correct = true;
    return 0;
}

static int hold_at_one(const struct slide *s, const struct engine *e, int nsteps)
{
    (void)s;
    (void)e;
    return nsteps > 1 ? 1 : -1;
}

/*
 * Every row of the question kinds on the bundled lessons' slides of its kind:
 * the slide points to the row; its right answer (the row's expected, the
 * letter of a choice) grades right and a wrong one wrong; the view holds
 * where the row's hold says and hides what its hides says.  Each kind that
 * grades is asked somewhere in the bundled lessons.  Then a slide pointed to
 * a made-up row: grading, the hold and the hiding follow that row.
 */
static void question_rows(void)
{
    static const char *const files[] = {"lua/lessons/fnf-loses.lua", "lua/lessons/fnf-sum.lua",
                                        "lua/lessons/peer-instruction.lua", "lua/lessons/port-models.lua"};
    int asked[16] = {0};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        struct lesson l;
        char *cause = NULL;
        if (lesson_load(files[f], &l, &cause) < 0) {
            ok(false, "%s loads: %s", files[f], cause ? cause : "?");
            free(cause);
            continue;
        }
        for (int k = 0; k < l.n; k++) {
            struct slide *s = &l.slides[k];
            int row = (int)(s->kind - question_kinds);
            if (!s->kind->grade)
                continue;
            asked[row]++;
            struct view v;
            if (lesson_view_open(&v, &l, k, &cause) != 0) {
                ok(false, "%s slide %d opens: %s", files[f], k + 1, cause ? cause : "?");
                free(cause);
                cause = NULL;
                continue;
            }
            const struct run *r = s->kind->predicts ? &v.runs[0].run : NULL;
            char want[160] = "", right[160], wrong[160];
            bool known = s->kind->expected(s, r, want, sizeof want);
            struct lesson_grade g, h;
            if (s->kind == question_choices()) {   /* "B: p2": B is right, any other letter wrong */
                snprintf(right, sizeof right, "%c", want[0]);
                snprintf(wrong, sizeof wrong, "%c", want[0] == 'A' ? 'B' : 'A');
            } else if (s->kind->hides & HIDE_END) {   /* a number: one more is wrong */
                snprintf(right, sizeof right, "%s", want);
                snprintf(wrong, sizeof wrong, "%g", atof(want) + 1);
            } else {   /* "S -> R": "S -> S" is no transfer */
                snprintf(right, sizeof right, "%s", want);
                snprintf(wrong, sizeof wrong, "%.*s -> %.*s", (int)strcspn(want, " "), want,
                         (int)strcspn(want, " "), want);
            }
            int rg = lesson_grade(s, r, right, &g, NULL), rh = lesson_grade(s, r, wrong, &h, NULL);
            ok(known && rg == 0 && g.correct && !strcmp(g.expected, want) && rh == 0 && !h.correct,
               "%s slide %d (%s): \"%s\" right, \"%s\" wrong, as its row says", files[f], k + 1, s->kind->name,
               right, wrong);
            int hold = s->kind->hold ? s->kind->hold(s, vrun_engine(&v.runs[0]), v.nsteps) : -1;
            ok(hold < 0 || v.step <= hold, "%s slide %d opens at step %d, not past its hold %d", files[f],
               k + 1, v.step, hold);
            view_step_to(&v, v.nsteps);   /* G: as far as the question lets it go */
            ok(view_hold(&v) == hold && (view_hides(&v) & s->kind->hides) == s->kind->hides &&
               v.step == (hold < 0 ? v.nsteps : hold), "%s slide %d: held at %d, hiding %u, as its row says", files[f],
               k + 1, view_hold(&v), view_hides(&v));
            lesson_reveal(&v);
            ok(view_hold(&v) < 0 && view_hides(&v) == 0, "%s slide %d: revealed, nothing held or hidden",
               files[f], k + 1);
            view_close(&v);
        }
        if (f == 2) {   /* peer-instruction's makespan slide on a made-up row */
            struct slide *s = NULL;
            for (int k = 0; k < l.n && !s; k++)
                if (l.slides[k].kind->hides & HIDE_END)
                    s = &l.slides[k];
            struct question_kind fake = *s->kind;
            fake.grade = grade_all_right;
            fake.hold = hold_at_one;
            fake.hides = 0;
            s->kind = &fake;
            s->step = -1;   /* opened at the end: the row holds it at 1 from the start */
            struct view v;
            if (lesson_view_open(&v, &l, (int)(s - l.slides), &cause) == 0) {
                struct lesson_grade g;
                int opened = v.step;
                view_step_to(&v, v.nsteps);
                ok(lesson_grade(s, &v.runs[0].run, "12345", &g, NULL) == 0 && g.correct && view_hold(&v) == 1 &&
                   opened == 1 && v.step == 1 && !(view_hides(&v) & HIDE_END),
                   "a slide on a made-up row grades, holds and hides by that row");
                view_close(&v);
            } else {
                ok(false, "the made-up row's slide opens: %s", cause ? cause : "?");
                free(cause);
                cause = NULL;
            }
        }
        lesson_free(&l);
    }
    for (const struct question_kind *q = question_kinds; q->name; q++)
        if (q->grade)
            ok(asked[q - question_kinds] > 0, "the kind \"%s\" is asked in a bundled lesson (%d slides)", q->name,
               asked[q - question_kinds]);
}

/* The student's screen of a live class: a letter past a slide's three choices is said, not
 * ignored; the status line offers the letters there are. */
static void join_letters(void)
{
    struct join_state j;
    memset(&j, 0, sizeof j);
    j.room = "room";
    struct room_seen *s = &j.seen;
    s->slide = s->nslides = s->round = 1;
    snprintf(s->state, sizeof s->state, "open");
    snprintf(s->kind, sizeof s->kind, "choices");
    snprintf(s->question, sizeof s->question, "Which first?");
    for (int i = 0; i < 3; i++)
        snprintf(s->choices[s->nchoices++], sizeof s->choices[0], "p%d", i);
    char out[128] = "";
    enum join_act a = join_key(&j, 'D', out, sizeof out);
    ok(a == JOIN_REDRAW && s->said_error && strstr(s->said, "D is not a choice here: vote A-C") && !out[0],
       "join: D on a three-choice slide is said (%s), nothing sent", s->said);
    a = join_key(&j, 'c', out, sizeof out);
    ok(a == JOIN_SEND && strstr(out, "VOTE 1 1 C"), "join: c votes C (%.*s)", (int)strcspn(out, "\r\n"), out);
    join_draw(&j, &cb);
    char *text = cb_dump(&cb);
    ok(strstr(text, "A-C vote") && !strstr(text, "A-H vote"), "join: the status line offers A-C");
    free(text);
}

/* Does text hold w as a word of its own (no letter, digit, '_' or '.' digit around it)? */
static bool names_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = text ? strstr(text, w) : NULL; p; p = strstr(p + 1, w)) {
        char before = p > text ? p[-1] : ' ', after = p[n];
        bool glued = isalnum((unsigned char)before) || before == '_' || isalnum((unsigned char)after) ||
                     after == '_' || (after == '.' && isdigit((unsigned char)p[n + 1])) ||
                     (before == '.' && p - 1 > text && isdigit((unsigned char)p[-2]));
        if (!glued)
            return true;
    }
    return false;
}

/*
 * The lint of the shipped lessons: a slide whose answer hetcast computes
 * never gives it away before the reveal -- its title, text and question
 * name neither the makespan asked for nor the receiver of the transfer
 * asked about.
 */
static void lessons_keep_their_answers(void)
{
    glob_t g;
    if (glob("lua/lessons/*.lua", 0, NULL, &g) != 0) {
        ok(false, "the shipped lessons are found");
        return;
    }
    int checked = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        struct lesson l;
        char *cause = NULL;
        if (lesson_load(g.gl_pathv[f], &l, &cause) < 0) {
            ok(false, "%s loads: %s", g.gl_pathv[f], cause ? cause : "?");
            free(cause);
            continue;
        }
        for (int k = 0; k < l.n; k++) {
            const struct slide *s = &l.slides[k];
            struct view v;
            if (!s->kind->predicts || lesson_view_open(&v, &l, k, &cause) != 0) {
                free(cause);
                cause = NULL;
                continue;
            }
            char want[160];
            lesson_expected(s, &v.runs[0].run, want, sizeof want);
            const char *arrow = strstr(want, "-> ");
            const char *told = arrow ? arrow + 3 : want;   /* the receiver, or the number */
            bool gives = names_word(s->title, told) || names_word(s->text, told) ||
                         names_word(s->question, told);
            ok(!gives, "%s slide %d keeps its answer (%s) to the reveal", g.gl_pathv[f], k + 1, want);
            checked++;
            view_close(&v);
        }
        lesson_free(&l);
    }
    globfree(&g);
    ok(checked >= 6, "the lint read every prediction of the shipped lessons (%d)", checked);
}

/* A slide whose file became a FIFO after the lesson loaded: refused when the
 * slide opens, never waited on (alarm: a hang ends the test). */
static void lesson_fifo_later(void)
{
    char dir[] = "/tmp/hetcast-lesson.XXXXXX";
    if (!mkdtemp(dir)) {
        ok(false, "a temporary folder");
        return;
    }
    char *les = xasprintf("%s/l.lua", dir), *csv = xasprintf("%s/c.csv", dir);
    FILE *fp = fopen(les, "w");
    if (fp) {
        fputs("return {slides = {{title = \"x\", cluster = \"c.csv\"}}}\n", fp);
        fclose(fp);
    }
    fp = fopen(csv, "w");
    if (fp) {
        fputs("name,send,recv\np0,1,2\np1,1,2\n", fp);
        fclose(fp);
    }
    struct lesson l;
    char *cause = NULL;
    int rc = lesson_load(les, &l, &cause);
    ok(rc == 0, "a lesson with its cluster beside it loads: %s", cause ? cause : "ok");
    free(cause);
    cause = NULL;
    if (rc == 0) {
        unlink(csv);
        mkfifo(csv, 0600);
        alarm(10);
        struct view v;
        rc = lesson_view_open(&v, &l, 0, &cause);
        alarm(0);
        ok(rc != 0 && cause && strstr(cause, "c.csv is a FIFO, not a regular file: refused"),
           "its cluster turned into a FIFO: the slide refused at open, not waited on (%s)",
           cause ? cause : "opened");
        if (rc == 0)
            view_close(&v);
        free(cause);
        lesson_free(&l);
    }
    unlink(csv);
    unlink(les);
    rmdir(dir);
    free(csv);
    free(les);
}

/* Copy file from into to; false if it cannot. */
static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    bool good = in && out;
    char buf[4096];
    size_t n;
    while (good && (n = fread(buf, 1, sizeof buf, in)) > 0)
        good = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        good = false;
    return good;
}

/* The front door's computing hook when Ctrl-C came during the load: every computation cancelled. */
static volatile sig_atomic_t cancel_now;
static void cancel_every_computation(struct view *v, bool on)
{
    (void)v;
    if (on)
        cancel_now = 1;
}

/*
 * A slide change that fails or is cancelled leaves the slide shown as it
 * was: ] to a slide whose cluster went, with the trace of the slide shown
 * gone too (it cannot be opened again); then ] cancelled (Ctrl-C while the
 * next slide loads).  Each time the view still draws the old slide, says
 * why, and closes once (the cluster was freed at the change and again at
 * the close).
 */
static void lesson_change_fails(void)
{
    char dir[] = "/tmp/hetcast-lesson.XXXXXX";
    if (!mkdtemp(dir)) {
        ok(false, "a temporary folder");
        return;
    }
    char *les = xasprintf("%s/l.lua", dir), *a = xasprintf("%s/a.csv", dir),
         *b = xasprintf("%s/b.csv", dir), *m = xasprintf("%s/m.csv", dir);
    FILE *fp = fopen(les, "w");
    if (fp) {
        fputs("return {slides = {\n"
              "  {title = \"measured\", cluster = \"a.csv\", schedulers = \"fnf\", trace = \"m.csv\"},\n"
              "  {title = \"next\", cluster = \"b.csv\"},\n"
              "  {title = \"third\", cluster = \"a.csv\"}}}\n", fp);
        fclose(fp);
    }
    bool made = copy_file("clusters/counterexample.csv", a) && copy_file("clusters/counterexample.csv", b) &&
                copy_file("lua/lessons/counterexample-measured.csv", m);
    struct lesson l;
    char *cause = NULL;
    int rc = made ? lesson_load(les, &l, &cause) : -1;
    ok(rc == 0, "a lesson of three slides with a trace loads: %s", cause ? cause : made ? "ok" : "not made");
    free(cause);
    cause = NULL;
    struct view v;
    if (rc == 0 && (rc = lesson_view_open(&v, &l, 0, &cause)) != 0) {
        ok(false, "its first slide opens: %s", cause ? cause : "?");
        free(cause);
        lesson_free(&l);
    }
    if (rc == 0) {
        unlink(b);   /* the next slide cannot open, nor can this one again */
        unlink(m);
        view_key(&v, ']');
        ok(v.slide == 0 && v.c && v.nruns == 2 && shows(&v, "slide 1/3") && strstr(v.msg, "slide 2 does not open (line 3): "),
           "] to a slide whose cluster went, the trace shown gone too: slide 1 stays, and says why (%s)", v.msg);
        view_key(&v, UK_ENTER);
        ok(v.screen == &screen_main && shows(&v, "fnf (measured)"), "and its schedule still shows, measured run and all");
        copy_file("clusters/counterexample.csv", b);
        v.computing = cancel_every_computation;   /* Ctrl-C while the next slide loads */
        v.cancel = &cancel_now;
        view_key(&v, ']');
        ok(v.slide == 0 && v.c && v.nruns == 2 && strcmp(v.msg, "slide 2: cancelled; slide 1 stays") == 0,
           "] cancelled: slide 1 stays, and says so (%s)", v.msg);
        ok(shows(&v, "fnf (measured)"), "and still draws");
        v.computing = NULL;
        cancel_now = 0;
        view_key(&v, ']');
        ok(v.slide == 1 && shows(&v, "slide 2/3"), "] once it can: slide 2");
        view_close(&v);
        lesson_free(&l);
    }
    unlink(a);
    unlink(b);
    unlink(m);
    unlink(les);
    rmdir(dir);
    free(a);
    free(b);
    free(m);
    free(les);
}

/* S in compare mode changes the second scheduler. */
static void second_scheduler(void)
{
    struct view v;
    const char *two[] = {"fnf", "optimal"};
    if (open_args(&v, "clusters/counterexample.csv", two, 2, NULL, NULL) != 0)
        return;
    view_key(&v, 'S');
    ok(v.screen == &screen_chooser, "S opens the scheduler list in compare mode");
    int k = 0;
    while (k < chooser_of(&v)->n && strcmp(chooser_of(&v)->items[k], "slowest-first") != 0)
        k++;
    chooser_of(&v)->sel = k;
    view_key(&v, UK_ENTER);
    ok(v.nruns == 2 && strcmp(vrun_sched_name(&v.runs[0]), "fnf") == 0 &&
       strcmp(vrun_sched_name(&v.runs[1]), "slowest-first") == 0,
       "and the choice replaces the second pane's scheduler (%s vs %s)", vrun_sched_name(&v.runs[0]),
       vrun_sched_name(&v.runs[1]));
    view_close(&v);
}

/* An export over a few MB asks first: e again writes it. */
static void large_export(void)
{
    struct view v;
    const char *one[] = {"fnf"};
    if (open_args(&v, "clusters/k-class.lua", one, 1, "n=40000", NULL) != 0)
        return;
    char dir[] = "/tmp/hetcast-teach.XXXXXX";
    if (!mkdtemp(dir)) {
        view_close(&v);
        return;
    }
    char stem[600], csv[700], svg[700];
    snprintf(stem, sizeof stem, "%s/big", dir);
    snprintf(csv, sizeof csv, "%s.csv", stem);
    snprintf(svg, sizeof svg, "%s.svg", stem);
    view_export(&v, stem);
    ok(strstr(v.msg, "would be about") && access(csv, F_OK) != 0,
       "40000 nodes: e says how large the export would be, and writes nothing yet (%s)", v.msg);
    view_export(&v, stem);
    ok(access(csv, F_OK) == 0 && access(svg, F_OK) == 0, "e again writes it");
    unlink(csv);
    unlink(svg);
    rmdir(dir);
    view_close(&v);
}

/* A tall terminal: a 3-node chart grows to use the rows (it used 11 of 60). */
static void tall(void)
{
    struct view v;
    const char *one[] = {"fnf"};
    if (open_args(&v, "clusters/counterexample.csv", one, 1, NULL, NULL) != 0)
        return;
    cb_resize(&cb, 200, 60);
    view_key(&v, UK_END);
    char *s = screen(&v);
    free(s);
    int x, y = -1;
    bool found = cb_find(&cb, "time", &x, &y);
    ok(found && y >= 30, "200x60: the lanes grow (the axis at row %d, was 14)", y);
    int rows = 0;   /* receive rows of p2 drawn as bars */
    for (int r = 0; r < cb.h; r++)
        rows += cb_at(&cb, 150, r)->ch == 0x2588;
    ok(rows >= 2, "and the bars are thicker (%d rows of receive at one column)", rows);
    cb_resize(&cb, 80, 24);
    view_close(&v);
}

int main(void)
{
    lua_sched_set_dir(HETCAST_SRCLUADIR);
    session_set_clusters_dir("clusters");   /* the bundled lessons' clusters (run from the source root) */
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    cb_init(&cb, 80, 24);
    compare_panes();
    numbers_and_bars();
    compare_export();
    narration();
    why();
    exercise();
    you();
    lesson();
    lesson_questions();
    question_rows();
    join_letters();
    lessons_keep_their_answers();
    lesson_fifo_later();
    lesson_change_fails();
    tall();
    second_scheduler();
    large_export();
    cb_free(&cb);
    return tap_exit();
}
