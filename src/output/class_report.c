/*
 * output/class_report.c - the grade book's tables of a live class
 * (output/class_report.h).
 */
#include "output/class_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/report.h"
#include "session/room_store.h"
#include "support/csvfield.h"
#include "support/diag.h"

/* FNV-1a over salt and name: a stable pseudonym for this database. */
static void pseudonym(const char *salt, const char *user, char *buf, size_t size)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = salt; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
    for (const char *p = user; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    text_fit(buf, size, "student-%012llx", (unsigned long long)(h >> 16));
}

/* A user as the report shows it: the name, or its pseudonym (anonymous). */
static void shown_user(char *user, size_t size, const char *salt, bool anonymous)
{
    char name[200];
    text_fit(name, sizeof name, "%s", user);
    if (anonymous)
        pseudonym(salt, name, user, size < 64 ? size : 64);
    else
        text_fit(user, size < 64 ? size : 64, "%s", name);
}

static int result_by_user(const void *a, const void *b)
{
    const struct room_book_result *x = a, *y = b;
    int c = strcmp(x->course, y->course);
    c = c ? c : strcmp(x->lesson, y->lesson);
    c = c ? c : x->slide - y->slide;
    return c ? c : strcmp(x->user, y->user);
}

static int practice_by_user(const void *a, const void *b)
{
    const struct room_book_practice *x = a, *y = b;
    int c = strcmp(x->course, y->course);
    c = c ? c : strcmp(x->lesson, y->lesson);
    c = c ? c : strcmp(x->user, y->user);
    return c ? c : strcmp(x->time, y->time);
}

static int by_user(const void *a, const void *b)
{
    const struct room_book_student *x = a, *y = b;
    int c = strcmp(x->course, y->course);
    return c ? c : strcmp(x->user, y->user);
}

static void csv_row(FILE *fp, const char *const *fields, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', fp);
        csvfield_put(fp, fields[i]);
    }
    fputc('\n', fp);
}

static void csv_students(FILE *fp, const struct room_book *b)
{
    static const char *const head[] = {"course", "user", "answered", "right", "right_first_round"};
    csv_row(fp, head, 5);
    for (int i = 0; i < b->nstudents; i++) {
        const struct room_book_student *s = &b->students[i];
        char a[16], r[16], fr[16];
        snprintf(a, sizeof a, "%d", s->answered);
        snprintf(r, sizeof r, "%d", s->right);
        snprintf(fr, sizeof fr, "%d", s->first_right);
        const char *row[] = {s->course, s->user, a, r, fr};
        csv_row(fp, row, 5);
    }
}

static void csv_results(FILE *fp, const struct room_book *b)
{
    static const char *const head[] = {"course", "lesson", "slide", "user", "makespan", "picks", "time", "transfers"};
    csv_row(fp, head, 8);
    for (int i = 0; i < b->nresults; i++) {
        const struct room_book_result *x = &b->results[i];
        char sl[16], ms[40];
        snprintf(sl, sizeof sl, "%d", x->slide);
        snprintf(ms, sizeof ms, "%.17g", x->makespan);
        const char *row[] = {x->course, x->lesson, sl, x->user, ms, x->picks, x->time, x->transfers};
        csv_row(fp, row, 8);
    }
}

static void csv_questions(FILE *fp, const struct room_book *b)
{
    static const char *const head[] = {"course", "lesson", "slide", "question", "expected", "round", "votes", "right"};
    csv_row(fp, head, 8);
    for (int i = 0; i < b->nquestions; i++) {
        const struct room_book_question *x = &b->questions[i];
        char sl[16], ro[16], vo[16], ri[16];
        snprintf(sl, sizeof sl, "%d", x->slide);
        snprintf(ro, sizeof ro, "%d", x->round);
        snprintf(vo, sizeof vo, "%d", x->votes);
        snprintf(ri, sizeof ri, "%d", x->right);
        const char *row[] = {x->course, x->lesson, sl, x->question, x->expected, ro, vo, ri};
        csv_row(fp, row, 8);
    }
}

static void csv_practice(FILE *fp, const struct room_book *b)
{
    static const char *const head[] = {"course", "lesson", "user", "goal", "answered", "right", "mastered", "seed",
                                       "time"};
    csv_row(fp, head, 9);
    for (int i = 0; i < b->npractice; i++) {
        const struct room_book_practice *x = &b->practice[i];
        char g[16], a[16], r[16], sd[32];
        snprintf(g, sizeof g, "%d", x->goal);
        snprintf(a, sizeof a, "%d", x->answered);
        snprintf(r, sizeof r, "%d", x->right);
        snprintf(sd, sizeof sd, "%lld", x->seed);
        const char *row[] = {x->course, x->lesson, x->user, g, a, r, x->mastered ? "yes" : "no", sd, x->time};
        csv_row(fp, row, 9);
    }
}

static void json_practice(FILE *fp, const struct room_book *b)
{
    fprintf(fp, "\"practice\": [");
    for (int i = 0; i < b->npractice; i++) {
        const struct room_book_practice *x = &b->practice[i];
        fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
        report_json_string(fp, x->course);
        fprintf(fp, ", \"lesson\": ");
        report_json_string(fp, x->lesson);
        fprintf(fp, ", \"user\": ");
        report_json_string(fp, x->user);
        fprintf(fp, ", \"goal\": %d, \"answered\": %d, \"right\": %d, \"mastered\": %s, \"seed\": %lld, \"time\": ",
                x->goal, x->answered, x->right, x->mastered ? "true" : "false", x->seed);
        report_json_string(fp, x->time);
        fprintf(fp, "}");
    }
    fprintf(fp, "\n]");
}

static void text_practice(FILE *fp, const struct room_book *b)
{
    fprintf(fp, "%-20s %-20s %-24s %4s %8s %6s %8s  %s\n", "course", "lesson", "user", "goal", "answered", "right",
            "mastered", "seed");
    for (int i = 0; i < b->npractice; i++) {
        const struct room_book_practice *x = &b->practice[i];
        fprintf(fp, "%-20s %-20s %-24s %4d %8d %6d %8s  %lld\n", x->course, x->lesson, x->user, x->goal,
                x->answered, x->right, x->mastered ? "yes" : "no", x->seed);
    }
}

static void json_students(FILE *fp, const struct room_book *b)
{
    fprintf(fp, "\"students\": [");
    for (int i = 0; i < b->nstudents; i++) {
        const struct room_book_student *s = &b->students[i];
        fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
        report_json_string(fp, s->course);
        fprintf(fp, ", \"user\": ");
        report_json_string(fp, s->user);
        fprintf(fp, ", \"answered\": %d, \"right\": %d, \"right_first_round\": %d}", s->answered, s->right,
                s->first_right);
    }
    fprintf(fp, "\n]");
}

static void json_questions(FILE *fp, const struct room_book *b)
{
    fprintf(fp, "\"questions\": [");
    for (int i = 0; i < b->nquestions; i++) {
        const struct room_book_question *x = &b->questions[i];
        fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
        report_json_string(fp, x->course);
        fprintf(fp, ", \"lesson\": ");
        report_json_string(fp, x->lesson);
        fprintf(fp, ", \"slide\": %d, \"question\": ", x->slide);
        report_json_string(fp, x->question);
        fprintf(fp, ", \"expected\": ");
        report_json_string(fp, x->expected);
        fprintf(fp, ", \"round\": %d, \"votes\": %d, \"right\": %d}", x->round, x->votes, x->right);
    }
    fprintf(fp, "\n]");
}

static void json_results(FILE *fp, const struct room_book *b)
{
    fprintf(fp, "\"challenges\": [");
    for (int i = 0; i < b->nresults; i++) {
        const struct room_book_result *x = &b->results[i];
        fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
        report_json_string(fp, x->course);
        fprintf(fp, ", \"lesson\": ");
        report_json_string(fp, x->lesson);
        fprintf(fp, ", \"slide\": %d, \"user\": ", x->slide);
        report_json_string(fp, x->user);
        fprintf(fp, ", \"makespan\": %.17g, \"picks\": ", x->makespan);
        report_json_string(fp, x->picks);
        fprintf(fp, ", \"time\": ");
        report_json_string(fp, x->time);
        fprintf(fp, ", \"transfers\": ");
        report_json_string(fp, x->transfers);
        fprintf(fp, "}");
    }
    fprintf(fp, "\n]");
}

static void text_tables(FILE *fp, const struct room_book *b, bool students, bool questions, bool results)
{
    if (students) {
        fprintf(fp, "%-20s %-24s %8s %6s %12s\n", "course", "user", "answered", "right", "right 1st");
        for (int i = 0; i < b->nstudents; i++) {
            const struct room_book_student *s = &b->students[i];
            fprintf(fp, "%-20s %-24s %8d %6d %12d\n", s->course, s->user, s->answered, s->right, s->first_right);
        }
    }
    if (students && questions)
        fprintf(fp, "\n");
    if (questions) {
        fprintf(fp, "%-20s %-20s %5s %5s %6s %6s  %s\n", "course", "lesson", "slide", "round", "votes", "right",
                "question (expected)");
        for (int i = 0; i < b->nquestions; i++) {
            const struct room_book_question *x = &b->questions[i];
            fprintf(fp, "%-20s %-20s %5d %5d %6d %6d  %s (%s)\n", x->course, x->lesson, x->slide, x->round,
                    x->votes, x->right, x->question, x->expected);
        }
    }
    if (results) {
        if (students || questions)
            fprintf(fp, "\n");
        fprintf(fp, "%-20s %-20s %5s %-24s %9s  %s\n", "course", "lesson", "slide", "user", "makespan",
                "picks (the transfers in order; node numbers in a database older than names)");
        for (int i = 0; i < b->nresults; i++) {
            const struct room_book_result *x = &b->results[i];
            fprintf(fp, "%-20s %-20s %5d %-24s %9g  %s\n", x->course, x->lesson, x->slide, x->user, x->makespan,
                    x->transfers[0] ? x->transfers : x->picks);
        }
    }
}

int class_report(FILE *fp, const char *path, enum class_format f, enum class_table t, bool anonymous,
                 char **cause)
{
    struct room_book b;
    if (room_book_read(path, &b, cause) < 0)
        return -1;
    for (int i = 0; i < b.nstudents; i++)
        shown_user(b.students[i].user, sizeof b.students[i].user, b.salt, anonymous);
    for (int i = 0; i < b.npractice; i++) {
        shown_user(b.practice[i].user, sizeof b.practice[i].user, b.salt, anonymous);
        if (anonymous && strlen(b.practice[i].time) > 16)   /* to the minute, as a challenge's */
            b.practice[i].time[16] = '\0';
    }
    if (anonymous && b.npractice)
        qsort(b.practice, (size_t)b.npractice, sizeof *b.practice, practice_by_user);
    for (int i = 0; i < b.nresults; i++) {
        shown_user(b.results[i].user, sizeof b.results[i].user, b.salt, anonymous);
        if (anonymous && strlen(b.results[i].time) > 16)   /* to the minute: a time to the millisecond names */
            b.results[i].time[16] = '\0';                 /* its student to whoever saw them hand in */
    }
    if (anonymous && b.nstudents)   /* name order would tell who is who */
        qsort(b.students, (size_t)b.nstudents, sizeof *b.students, by_user);
    if (anonymous && b.nresults)
        qsort(b.results, (size_t)b.nresults, sizeof *b.results, result_by_user);
    bool students = t == CLASS_BOTH || t == CLASS_STUDENTS, questions = t == CLASS_BOTH || t == CLASS_QUESTIONS;
    bool results = t == CLASS_CHALLENGES || (t == CLASS_BOTH && (b.nresults > 0 || f == CLASS_JSON));
    bool practice = t == CLASS_PRACTICE || (t == CLASS_BOTH && (b.npractice > 0 || f == CLASS_JSON));
    if (f == CLASS_CSV) {
        report_csv_version(fp);   /* the two lines of every CSV (output/report.h) */
        if (students)
            csv_students(fp, &b);
        else if (results)
            csv_results(fp, &b);
        else if (practice)
            csv_practice(fp, &b);
        else
            csv_questions(fp, &b);
    } else if (f == CLASS_JSON) {
        report_json_open(fp);   /* the schema of every JSON output (output/report.h) */
        fprintf(fp, ", ");
        if (students)
            json_students(fp, &b);
        if (questions) {
            fprintf(fp, "%s", students ? ",\n" : "");
            json_questions(fp, &b);
        }
        if (results) {
            fprintf(fp, "%s", students || questions ? ",\n" : "");
            json_results(fp, &b);
        }
        if (practice) {
            fprintf(fp, "%s", students || questions || results ? ",\n" : "");
            json_practice(fp, &b);
        }
        fprintf(fp, "}\n");
    } else {
        text_tables(fp, &b, students, questions, results);
        if (practice) {
            fprintf(fp, "%s", students || questions || results ? "\n" : "");
            text_practice(fp, &b);
        }
    }
    room_book_free(&b);
    return 0;
}
