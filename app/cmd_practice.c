/*
 * cmd_practice.c - `hetcast practice LESSON [--in-a-row N] [--seed S]
 * [--room ROOM [--as NAME]]`: practice until mastery, outside class.  The
 * lesson's questions that can be asked of a random instance (a prediction
 * on a slide whose cluster has a random kind, session/instance.h) are drawn
 * one after the other, each on a fresh instance: its node table, model and
 * scheduler, the question asked of the instance's own run; the answer is
 * graded against that run, a wrong one shown with the right answer and the
 * reason hetcast computed for it (the scheduler's reason for the booking
 * asked about, the node that ends last).  It ends once N answers in a row
 * are right (3 by default), or at the end of the input or `q`, with a
 * one-line summary that names the seed replaying it.
 *
 * A plain prompt loop on standard input and output: a terminal of any size,
 * or answers piped in (then each answer is echoed after its prompt).  With
 * --room the result is a row of the room's grade book (ROOM.db, the course
 * ROOM's file name, as the room names them; session/room_store.h), the
 * student named by --as or the login name.  Texts from the lesson and node
 * names are printed with control characters replaced.
 */
#include <limits.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/cli_common.h"
#include "app/datadir.h"
#include "app/opts.h"
#include "session/instance.h"
#include "session/room_store.h"
#include "support/diag.h"
#include "support/rng.h"

struct practice_args {
    long in_a_row;
    unsigned long long seed;
    bool seed_given;    /* else one from the clock */
    const char *room, *as;
};

/* --seed S: a whole number a grade book's row can hold (0 to 2^63 - 1). */
static int practice_opt(void *ctx, int key, const char *name, const char *val)
{
    struct practice_args *a = ctx;
    (void)key;
    int rc = opt_u64(name, val, &a->seed);
    if (rc)
        return rc;
    if (a->seed > LLONG_MAX)
        return opt_fail(name, val, "a whole number from 0 to 9223372036854775807");
    a->seed_given = true;
    return 0;
}

static const struct opt practice_table[] = {
    {"in-a-row", 'n', "N", "right answers in a row that end the practice (default 3)", OPT_LONGINT,
     offsetof(struct practice_args, in_a_row), 1, 100, NULL},
    {"seed", OPT_LONG + 1, "S", "the seed of the questions and instances drawn (default: from the clock; the "
     "summary names it)", OPT_CALL, 0, 0, 0, NULL},
    {"room", OPT_LONG + 2, "ROOM", "record the result in the room's grade book ROOM.db (docs/class.md)",
     OPT_STRING, offsetof(struct practice_args, room), 0, 0, NULL},
    {"as", OPT_LONG + 3, "NAME", "with --room: the student's name in the grade book (default: your login name)",
     OPT_STRING, offsetof(struct practice_args, as), 0, 0, NULL},
    {NULL, 0, NULL, NULL, OPT_CALL, 0, 0, 0, NULL},
};

/* One practice: the slides drawn from, the draw, the counts. */
struct practice {
    const struct lesson *l;
    int slides[LESSON_MAX_SLIDES], nslides;
    struct rng rng;
    int goal, streak, answered, right;
    bool echo;          /* standard input is not a terminal: echo each answer read */
};

/* s with every control character shown as '?', on standard output. */
static void put_text(const char *s)
{
    char buf[2000];
    fputs(SHOWN(s ? s : "", buf), stdout);
}

/* The file name of path (the room's course, the lesson's name in the grade book). */
static const char *base_of(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

/* The slides of l whose question is asked of a random instance. */
static int practice_slides(const struct lesson *l, int *slides)
{
    int n = 0;
    for (int k = 0; k < l->n; k++) {
        const struct slide *s = &l->slides[k];
        char why[300];
        if (slide_gradable(s) && s->kind->ask && instance_family(l, k, why, sizeof why) != INSTANCE_NONE)
            slides[n++] = k;
    }
    return n;
}

/* A line of standard input, its line end cut, into a fresh string; NULL at its end. */
static char *read_answer(const struct practice *p)
{
    char *line = NULL;
    size_t cap = 0;
    fflush(stdout);
    ssize_t len = getline(&line, &cap, stdin);
    if (len < 0) {
        free(line);
        return NULL;
    }
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
    if (p->echo) {
        put_text(line);
        printf("\n");
    }
    return line;
}

/* Ask the question of slide k on instance in until an answer is read and graded: 1 right,
 * 0 wrong, -1 the input ended or the student stopped (q). */
static int ask(struct practice *p, int k, const struct instance *in)
{
    const struct slide *s = &p->l->slides[k];
    char q[600];
    instance_question(p->l, k, in, q, sizeof q);
    printf("\nquestion %d: slide %d \"", p->answered + 1, k + 1);
    put_text(s->title ? s->title : "");
    printf("\", a random instance (seed %d)\n", in->seed);
    lesson_print_nodes(in->c);
    printf("model: %s   scheduler: ", run_model_text(&in->run));
    put_text(in->run.sched.ops->name);
    printf("\n");
    put_text(q);
    printf("\n");
    for (;;) {
        printf("answer (q: stop)> ");
        char *a = read_answer(p);
        if (!a || strcmp(a, "q") == 0) {
            free(a);
            return -1;
        }
        struct lesson_grade g;
        char *cause = NULL;
        int rc = instance_grade(p->l, k, in, a, &g, &cause);
        free(a);
        if (rc < 0) {   /* not an answer: how to write one, and the same question again */
            put_text(cause ? cause : "that answer cannot be read");
            printf("\n");
            free(cause);
            continue;
        }
        p->answered++;
        if (g.correct) {
            p->right++;
            p->streak++;
            printf("right: ");
            put_text(g.expected);
            printf(" (%d in a row of %d)\n", p->streak, p->goal);
            return 1;
        }
        p->streak = 0;
        char why[1200];
        instance_reason(p->l, k, in, why, sizeof why);
        printf("not quite: ");
        put_text(g.given);
        printf("; the answer is ");
        put_text(g.expected);
        printf("\n");
        if (why[0]) {
            printf("why: ");
            put_text(why);
            printf("\n");
        }
        return 0;
    }
}

/* Draw and ask until the goal or the end: 0, or -1 with *cause (an instance not drawn). */
static int practise(struct practice *p, char **cause)
{
    while (p->streak < p->goal) {
        int k = p->slides[rng_below(&p->rng, (uint64_t)p->nslides)];
        int seed = 1 + (int)rng_below(&p->rng, 1000000);
        struct instance in;
        char *why = NULL;
        if (instance_make(p->l, k, seed, NULL, &in, &why) < 0) {
            set_cause(cause, "slide %d: %s", k + 1, why ? why : "no instance");
            free(why);
            return -1;
        }
        int rc = ask(p, k, &in);
        instance_free(&in);
        if (rc < 0)
            break;
    }
    return 0;
}

/* The grade book's name for the student: NAME checked, or the login name; NULL after a message. */
static const char *student_name(const char *as)
{
    if (!as) {
        struct passwd *pw = getpwuid(geteuid());
        as = pw ? pw->pw_name : NULL;
        if (!as) {
            opts_error(2, "--room: your user id has no name: give one with --as NAME");
            return NULL;
        }
    }
    if (!as[0] || strlen(as) > 64 || text_flaw(as)) {
        opts_error(2, "--as: a student's name is text of 1 to 64 bytes on one line, no control characters");
        return NULL;
    }
    return as;
}

int cmd_practice(int argc, char **argv, const struct cli_views *v)
{
    (void)v;
    struct practice_args a = {3, 0, false, NULL, NULL};
    const char *files[2];
    int nfiles = 0;
    int rc = opts_parse("hetcast practice", practice_table, argc, argv, practice_opt, &a, files, 2, &nfiles);
    if (rc == OPTS_HELP) {
        printf("usage: hetcast practice LESSON [--in-a-row N] [--seed S] [--room ROOM [--as NAME]]\n"
               "  practice a lesson's predictions on random instances until N answers in a row are right\n"
               "  (answers on standard input, a line each; q stops)\n");
        opts_help(stdout, practice_table);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    }
    if (rc)
        return rc;
    if (nfiles != 1)
        return opts_error(2, "which lesson? hetcast practice LESSON (a file, or a bundled lesson's name)");
    if (a.as && !a.room)
        return opts_error(2, "--as names the student in a grade book: add --room ROOM");
    const char *course = a.room ? base_of(a.room) : NULL;
    if (course && (!course[0] || text_flaw(course) || strlen(course) > 64))   /* as the room names it */
        return opts_error(2, "--room: the course is the room's file name, text of 1 to 64 bytes");
    const char *user = a.room ? student_name(a.as) : NULL;
    if (a.room && !user)
        return 2;
    struct lesson l;
    char *cause = NULL;
    if (lesson_load(app_bundled("lua/lessons", files[0], (const char *const[]){".lua", NULL}), &l, &cause) < 0)
        return cli_fail(cause, 2);
    struct practice p = {.l = &l, .goal = (int)a.in_a_row, .echo = !isatty(STDIN_FILENO)};
    p.nslides = practice_slides(&l, p.slides);
    if (p.nslides == 0) {
        rc = cli_fail(xasprintf("%s: no question of this lesson can be asked of a random instance (a prediction "
                                "on a slide whose cluster is a node table or a Lua script with a seed param)",
                                l.path), 2);
        lesson_free(&l);
        return rc;
    }
    struct room_store *st = NULL;
    char lesson[200];
    SHOWN(base_of(l.path), lesson);
    if (a.room) {
        char *db = xasprintf("%s.db", a.room);
        rc = room_store_open(&st, db, course, lesson, &cause);
        free(db);
        if (rc < 0) {
            lesson_free(&l);
            return cli_fail(cause, 2);
        }
    }
    unsigned long long seed = a.seed_given ? a.seed : (unsigned long long)time(NULL);
    rng_seed(&p.rng, seed);
    printf("practice: ");
    put_text(lesson);
    printf(", %d question%s asked of random instances; %d right in a row to finish\n", p.nslides,
           p.nslides == 1 ? "" : "s", p.goal);
    rc = practise(&p, &cause);
    bool mastered = p.streak >= p.goal;
    if (rc == 0 && st && room_store_practice(st, user, (long long)seed, p.goal, p.answered, p.right, mastered,
                                             &cause) < 0)
        rc = -1;
    if (rc == 0) {
        printf("\n%s: %d right in a row of %d after %d question%s (%d right); again: --seed %llu", mastered ?
               "mastered" : "stopped", p.streak, p.goal, p.answered, p.answered == 1 ? "" : "s", p.right, seed);
        if (st) {
            printf("; recorded for ");
            put_text(user);
            printf(" in ");
            put_text(a.room);
            printf(".db");
        }
        printf("\n");
    }
    room_store_close(st);
    lesson_free(&l);
    if (rc < 0)
        return cli_fail(cause, 1);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
