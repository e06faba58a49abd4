/*
 * output/class_report.c - the grade book's tables of a live class
 * (output/class_report.h).
 */
#include "output/class_report.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/report.h"
#include "support/csvfield.h"
#include "support/diag.h"

struct student {
    char course[200], user[64];
    int answered, right, first_right;
};

struct question {
    char course[200], lesson[200], question[400], expected[200];
    int slide, round, votes, right;
};

struct result {
    char course[200], lesson[200], user[64], picks[600], time[40];
    int slide;
    double makespan;
};

/* A database written before challenges existed has no table for them: none to report. */
static const char results_sql[] =
    "SELECT course, lesson, slide, user, makespan, picks, time FROM challenges"
    " ORDER BY course, lesson, slide, user";
static const char no_results_sql[] = "SELECT 1 WHERE 0";

static const char students_sql[] =
    "WITH last AS (SELECT course, lesson, slide, user, MAX(round) AS round FROM votes"
    "              GROUP BY course, lesson, slide, user)"
    " SELECT v.course, v.user, COUNT(*), SUM(v.correct),"
    "  (SELECT COUNT(*) FROM votes f WHERE f.course = v.course AND f.user = v.user AND f.round = 1"
    "   AND f.correct = 1)"
    " FROM votes v JOIN last l ON v.course = l.course AND v.lesson = l.lesson AND v.slide = l.slide"
    "  AND v.user = l.user AND v.round = l.round"
    " GROUP BY v.course, v.user ORDER BY v.course, v.user";

static const char questions_sql[] =
    "SELECT v.course, v.lesson, v.slide, COALESCE(q.question, ''), COALESCE(q.expected, ''), v.round,"
    " COUNT(*), SUM(v.correct)"
    " FROM votes v LEFT JOIN questions q ON q.course = v.course AND q.lesson = v.lesson AND q.slide = v.slide"
    " GROUP BY v.course, v.lesson, v.slide, v.round ORDER BY v.course, v.lesson, v.slide, v.round";

/* A column's text, checked: what is not text is shown escaped (SHOWN). */
static void col(sqlite3_stmt *q, int i, char *buf, size_t size)
{
    const char *s = (const char *)sqlite3_column_text(q, i);
    diag_shown(s ? s : "", buf, size);
}

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

/* A column's user as the report shows it: the name, or its pseudonym (anonymous). */
static void user_col(sqlite3_stmt *q, int i, const char *salt, bool anonymous, char *buf, size_t size)
{
    char user[200];
    col(q, i, user, sizeof user);
    if (anonymous)
        pseudonym(salt, user, buf, size);
    else
        text_fit(buf, size, "%s", user);
}

static int result_by_user(const void *a, const void *b)
{
    const struct result *x = a, *y = b;
    int c = strcmp(x->course, y->course);
    c = c ? c : strcmp(x->lesson, y->lesson);
    c = c ? c : x->slide - y->slide;
    return c ? c : strcmp(x->user, y->user);
}

static int by_user(const void *a, const void *b)
{
    const struct student *x = a, *y = b;
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

int class_report(FILE *fp, const char *path, enum class_format f, enum class_table t, bool anonymous,
                 char **cause)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        set_cause(cause, "%s: cannot open it: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, 2000);
    char salt[64] = "";
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, "SELECT value FROM room WHERE key = 'salt'", -1, &q, NULL) != SQLITE_OK) {
        set_cause(cause, "%s: not a room's database (hetcast lesson --class writes one): %s", path,
                  sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    if (sqlite3_step(q) == SQLITE_ROW)
        col(q, 0, salt, sizeof salt);
    sqlite3_finalize(q);
    struct student *st = NULL;
    int nst = 0;
    struct question *qs = NULL;
    int nq = 0;
    struct result *rs = NULL;
    int nr = 0;
    int rc = SQLITE_DONE;
    if (sqlite3_prepare_v2(db, students_sql, -1, &q, NULL) != SQLITE_OK)
        goto bad;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        st = xrealloc(st, (size_t)(nst + 1) * sizeof *st);
        struct student *s = &st[nst++];
        col(q, 0, s->course, sizeof s->course);
        user_col(q, 1, salt, anonymous, s->user, sizeof s->user);
        s->answered = sqlite3_column_int(q, 2);
        s->right = sqlite3_column_int(q, 3);
        s->first_right = sqlite3_column_int(q, 4);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE || sqlite3_prepare_v2(db, questions_sql, -1, &q, NULL) != SQLITE_OK)
        goto bad;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        qs = xrealloc(qs, (size_t)(nq + 1) * sizeof *qs);
        struct question *x = &qs[nq++];
        col(q, 0, x->course, sizeof x->course);
        col(q, 1, x->lesson, sizeof x->lesson);
        x->slide = sqlite3_column_int(q, 2);
        col(q, 3, x->question, sizeof x->question);
        col(q, 4, x->expected, sizeof x->expected);
        x->round = sqlite3_column_int(q, 5);
        x->votes = sqlite3_column_int(q, 6);
        x->right = sqlite3_column_int(q, 7);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        goto bad;
    bool has_table = false;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'challenges'", -1,
                           &q, NULL) != SQLITE_OK)
        goto bad;
    has_table = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    if (sqlite3_prepare_v2(db, has_table ? results_sql : no_results_sql, -1, &q, NULL) != SQLITE_OK)
        goto bad;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        rs = xrealloc(rs, (size_t)(nr + 1) * sizeof *rs);
        struct result *x = &rs[nr++];
        col(q, 0, x->course, sizeof x->course);
        col(q, 1, x->lesson, sizeof x->lesson);
        x->slide = sqlite3_column_int(q, 2);
        user_col(q, 3, salt, anonymous, x->user, sizeof x->user);
        x->makespan = sqlite3_column_double(q, 4);
        col(q, 5, x->picks, sizeof x->picks);
        col(q, 6, x->time, sizeof x->time);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        goto bad;
    sqlite3_close(db);
    if (anonymous) {   /* name order would tell who is who */
        qsort(st, (size_t)nst, sizeof *st, by_user);
        qsort(rs, (size_t)nr, sizeof *rs, result_by_user);
    }

    bool students = t == CLASS_BOTH || t == CLASS_STUDENTS, questions = t == CLASS_BOTH || t == CLASS_QUESTIONS;
    bool results = t == CLASS_CHALLENGES || (t == CLASS_BOTH && (nr > 0 || f == CLASS_JSON));
    if (f == CLASS_CSV) {
        if (students) {
            static const char *const head[] = {"course", "user", "answered", "right", "right_first_round"};
            csv_row(fp, head, 5);
            for (int i = 0; i < nst; i++) {
                char a[16], r[16], fr[16];
                snprintf(a, sizeof a, "%d", st[i].answered);
                snprintf(r, sizeof r, "%d", st[i].right);
                snprintf(fr, sizeof fr, "%d", st[i].first_right);
                const char *row[] = {st[i].course, st[i].user, a, r, fr};
                csv_row(fp, row, 5);
            }
        } else if (results) {
            static const char *const head[] = {"course", "lesson", "slide", "user", "makespan", "picks", "time"};
            csv_row(fp, head, 7);
            for (int i = 0; i < nr; i++) {
                char sl[16], ms[40];
                snprintf(sl, sizeof sl, "%d", rs[i].slide);
                snprintf(ms, sizeof ms, "%.17g", rs[i].makespan);
                const char *row[] = {rs[i].course, rs[i].lesson, sl, rs[i].user, ms, rs[i].picks, rs[i].time};
                csv_row(fp, row, 7);
            }
        } else {
            static const char *const head[] = {"course", "lesson", "slide", "question", "expected", "round",
                                               "votes", "right"};
            csv_row(fp, head, 8);
            for (int i = 0; i < nq; i++) {
                char sl[16], ro[16], vo[16], ri[16];
                snprintf(sl, sizeof sl, "%d", qs[i].slide);
                snprintf(ro, sizeof ro, "%d", qs[i].round);
                snprintf(vo, sizeof vo, "%d", qs[i].votes);
                snprintf(ri, sizeof ri, "%d", qs[i].right);
                const char *row[] = {qs[i].course, qs[i].lesson, sl, qs[i].question, qs[i].expected, ro, vo, ri};
                csv_row(fp, row, 8);
            }
        }
    } else if (f == CLASS_JSON) {
        report_json_open(fp);   /* the schema of every JSON output (output/report.h) */
        fprintf(fp, ", ");
        if (students) {
            fprintf(fp, "\"students\": [");
            for (int i = 0; i < nst; i++) {
                fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
                report_json_string(fp, st[i].course);
                fprintf(fp, ", \"user\": ");
                report_json_string(fp, st[i].user);
                fprintf(fp, ", \"answered\": %d, \"right\": %d, \"right_first_round\": %d}", st[i].answered,
                        st[i].right, st[i].first_right);
            }
            fprintf(fp, "\n]%s", questions ? ",\n" : "");
        }
        if (questions) {
            fprintf(fp, "\"questions\": [");
            for (int i = 0; i < nq; i++) {
                fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
                report_json_string(fp, qs[i].course);
                fprintf(fp, ", \"lesson\": ");
                report_json_string(fp, qs[i].lesson);
                fprintf(fp, ", \"slide\": %d, \"question\": ", qs[i].slide);
                report_json_string(fp, qs[i].question);
                fprintf(fp, ", \"expected\": ");
                report_json_string(fp, qs[i].expected);
                fprintf(fp, ", \"round\": %d, \"votes\": %d, \"right\": %d}", qs[i].round, qs[i].votes,
                        qs[i].right);
            }
            fprintf(fp, "\n]");
        }
        if (results) {
            fprintf(fp, "%s\"challenges\": [", students || questions ? ",\n" : "");
            for (int i = 0; i < nr; i++) {
                fprintf(fp, "%s\n  {\"course\": ", i ? "," : "");
                report_json_string(fp, rs[i].course);
                fprintf(fp, ", \"lesson\": ");
                report_json_string(fp, rs[i].lesson);
                fprintf(fp, ", \"slide\": %d, \"user\": ", rs[i].slide);
                report_json_string(fp, rs[i].user);
                fprintf(fp, ", \"makespan\": %.17g, \"picks\": ", rs[i].makespan);
                report_json_string(fp, rs[i].picks);
                fprintf(fp, ", \"time\": ");
                report_json_string(fp, rs[i].time);
                fprintf(fp, "}");
            }
            fprintf(fp, "\n]");
        }
        fprintf(fp, "}\n");
    } else {
        if (students) {
            fprintf(fp, "%-20s %-24s %8s %6s %12s\n", "course", "user", "answered", "right", "right 1st");
            for (int i = 0; i < nst; i++)
                fprintf(fp, "%-20s %-24s %8d %6d %12d\n", st[i].course, st[i].user, st[i].answered,
                        st[i].right, st[i].first_right);
        }
        if (students && questions)
            fprintf(fp, "\n");
        if (questions) {
            fprintf(fp, "%-20s %-20s %5s %5s %6s %6s  %s\n", "course", "lesson", "slide", "round", "votes",
                    "right", "question (expected)");
            for (int i = 0; i < nq; i++)
                fprintf(fp, "%-20s %-20s %5d %5d %6d %6d  %s (%s)\n", qs[i].course, qs[i].lesson, qs[i].slide,
                        qs[i].round, qs[i].votes, qs[i].right, qs[i].question, qs[i].expected);
        }
        if (results) {
            if (students || questions)
                fprintf(fp, "\n");
            fprintf(fp, "%-20s %-20s %5s %-24s %9s  %s\n", "course", "lesson", "slide", "user", "makespan",
                    "picks (sender>receiver, node numbers)");
            for (int i = 0; i < nr; i++)
                fprintf(fp, "%-20s %-20s %5d %-24s %9g  %s\n", rs[i].course, rs[i].lesson, rs[i].slide, rs[i].user,
                        rs[i].makespan, rs[i].picks);
        }
    }
    free(st);
    free(qs);
    free(rs);
    return 0;
bad:
    set_cause(cause, "%s: not a room's database (hetcast lesson --class writes one): %s", path,
              sqlite3_errmsg(db));
    sqlite3_finalize(q);
    sqlite3_close(db);
    free(st);
    free(qs);
    free(rs);
    return -1;
}
