/*
 * session/room_store.c - the room's SQLite database (session/room_store.h).
 * WAL journal with synchronous=FULL: a COMMIT returns once the log is on
 * disk, so what the room acknowledged after it survives a SIGKILL (and a
 * power cut).  Prepared statements, bound parameters: no text is ever
 * pasted into SQL.
 */
#include "session/room_store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "support/diag.h"

struct room_store {
    sqlite3 *db;
    char *course, *lesson;
    sqlite3_stmt *vote, *round, *question, *play, *chstate, *practice, *instance;
};

static const char schema[] =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=FULL;"
    "CREATE TABLE IF NOT EXISTS room(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT OR IGNORE INTO room VALUES('format', 'hetcast room 1');"
    "INSERT OR IGNORE INTO room VALUES('salt', lower(hex(randomblob(16))));"
    "CREATE TABLE IF NOT EXISTS questions("
    " course TEXT NOT NULL, lesson TEXT NOT NULL, slide INTEGER NOT NULL CHECK(slide >= 1),"
    " question TEXT NOT NULL, expected TEXT NOT NULL,"
    " PRIMARY KEY(course, lesson, slide));"
    "CREATE TABLE IF NOT EXISTS rounds("
    " course TEXT NOT NULL, lesson TEXT NOT NULL, slide INTEGER NOT NULL CHECK(slide >= 1),"
    " round INTEGER NOT NULL CHECK(round >= 1),"
    " state TEXT NOT NULL CHECK(state IN ('open', 'closed', 'revealed')), time TEXT NOT NULL,"
    " PRIMARY KEY(course, lesson, slide, round));"
    "CREATE TABLE IF NOT EXISTS votes("
    " course TEXT NOT NULL, lesson TEXT NOT NULL, slide INTEGER NOT NULL CHECK(slide >= 1),"
    " round INTEGER NOT NULL CHECK(round >= 1),"
    " user TEXT NOT NULL CHECK(length(user) BETWEEN 1 AND 64),"
    " answer TEXT NOT NULL CHECK(length(CAST(answer AS BLOB)) BETWEEN 1 AND 160),"
    " correct INTEGER NOT NULL CHECK(correct IN (0, 1)), time TEXT NOT NULL,"
    " PRIMARY KEY(course, lesson, slide, round, user));"
    "CREATE TABLE IF NOT EXISTS challenges("
    " course TEXT NOT NULL, lesson TEXT NOT NULL, slide INTEGER NOT NULL CHECK(slide >= 1),"
    " user TEXT NOT NULL CHECK(length(user) BETWEEN 1 AND 64),"
    " makespan REAL NOT NULL CHECK(makespan >= 0),"
    " picks TEXT NOT NULL CHECK(length(picks) BETWEEN 3 AND 512 AND picks NOT GLOB '*[^0-9> ]*'),"
    " time TEXT NOT NULL, transfers TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY(course, lesson, slide, user));"
    "CREATE TABLE IF NOT EXISTS challenge_rounds("
    " course TEXT NOT NULL, lesson TEXT NOT NULL, slide INTEGER NOT NULL CHECK(slide >= 1),"
    " state TEXT NOT NULL CHECK(state IN ('open', 'closed')), time TEXT NOT NULL,"
    " PRIMARY KEY(course, lesson, slide));"
    "CREATE TABLE IF NOT EXISTS practice("
    " course TEXT NOT NULL, lesson TEXT NOT NULL,"
    " user TEXT NOT NULL CHECK(length(user) BETWEEN 1 AND 64),"
    " seed INTEGER NOT NULL, goal INTEGER NOT NULL CHECK(goal >= 1),"
    " answered INTEGER NOT NULL CHECK(answered >= 0),"
    " correct INTEGER NOT NULL CHECK(correct BETWEEN 0 AND answered),"
    " mastered INTEGER NOT NULL CHECK(mastered IN (0, 1)), time TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS instances("
    " course TEXT NOT NULL, lesson TEXT NOT NULL, slide INTEGER NOT NULL CHECK(slide >= 1),"
    " user TEXT NOT NULL CHECK(length(user) BETWEEN 1 AND 64),"
    " seed INTEGER NOT NULL, csv TEXT NOT NULL, time TEXT NOT NULL,"
    " PRIMARY KEY(course, lesson, slide, user));";

const char *room_round_word(enum room_round_state s)
{
    switch (s) {
    case ROUND_OPEN:
        return "open";
    case ROUND_CLOSED:
        return "closed";
    case ROUND_REVEALED:
        return "revealed";
    default:
        return "none";
    }
}

static int fail(struct room_store *st, char **cause, const char *what)
{
    return set_cause(cause, "the room's database: %s: %s", what, st->db ? sqlite3_errmsg(st->db) : "no memory");
}

/* Now in UTC, ISO 8601 to the millisecond. */
static void now_text(char *buf, size_t size)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char day[32];
    strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
    text_fit(buf, size, "%s.%03ldZ", day, ts.tv_nsec / 1000000);
}

/* The folder of path: this user's, and nobody else may write in it -- so
 * nobody else made the database or its -wal and -shm files, or can. */
static int check_folder(const char *path, char **cause)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    const char *d = !slash ? "." : slash == dir ? "/" : (*slash = '\0', dir);
    struct stat sb;
    int rc = 0;
    if (stat(d, &sb) != 0)
        rc = set_cause(cause, "%s: cannot read the room's folder %s: %s", path, d, strerror(errno));
    else if (sb.st_uid != geteuid())
        rc = set_cause(cause, "%s: the folder %s is another user's (uid %lu): the room's database (names and "
                       "votes) goes in a folder of yours", path, d, (unsigned long)sb.st_uid);
    else if (sb.st_mode & (S_IWGRP | S_IWOTH))
        rc = set_cause(cause, "%s: others may write in the folder %s (mode %04o): they could make the room's "
                       "database theirs; open the room in a folder only you can write", path, d,
                       (unsigned)(sb.st_mode & 07777));
    free(dir);
    return rc;
}

/* A file of the database that is there already (itself, its -wal or -shm):
 * a regular file of this user's that nobody else may read or write. */
static int check_mine(const char *path, const char *what, int fd, char **cause)
{
    struct stat sb;
    if ((fd >= 0 ? fstat(fd, &sb) : lstat(what, &sb)) != 0)
        return errno == ENOENT ? 0 : set_cause(cause, "%s: %s", what, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return set_cause(cause, "%s: not a regular file: not the room's database", what);
    if (sb.st_uid != geteuid())
        return set_cause(cause, "%s: another user's file (uid %lu), not the room's database: remove it or choose "
                         "another path", what, (unsigned long)sb.st_uid);
    if (sb.st_mode & 077)
        return set_cause(cause, "%s: others may read or write it (mode %04o): the room's database is yours alone "
                         "(chmod 600 %s)", what, (unsigned)(sb.st_mode & 07777), path);
    return 0;
}

/* The database's file: made new (O_EXCL, 0600), or the one there already
 * when it is this user's alone; its -wal and -shm files likewise. */
static int claim(const char *path, char **cause)
{
    if (check_folder(path, cause) < 0)
        return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return set_cause(cause, "%s: cannot open the room's database: %s", path, strerror(errno));
    int rc = check_mine(path, path, fd, cause);
    close(fd);
    for (int i = 0; i < 2 && rc == 0; i++) {
        char *side = xasprintf("%s%s", path, i ? "-shm" : "-wal");
        rc = check_mine(path, side, -1, cause);
        free(side);
    }
    return rc;
}

/* A database a room made before the picks were kept by name: its challenges get the column. */
static int add_transfers(sqlite3 *db)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info('challenges') WHERE name = 'transfers'", -1, &q,
                           NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE && sqlite3_exec(db, "ALTER TABLE challenges ADD COLUMN transfers TEXT NOT NULL DEFAULT ''",
                                             NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int room_store_open(struct room_store **out, const char *path, const char *course, const char *lesson,
                    char **cause)
{
    *out = NULL;
    /* names and answers: the teacher's alone (SQLite gives its -wal and -shm the same mode) */
    if (claim(path, cause) < 0)
        return -1;
    struct room_store *st = xcalloc(1, sizeof *st);
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW,
                        NULL) != SQLITE_OK) {
        fail(st, cause, "cannot open it");
        room_store_close(st);
        return -1;
    }
    sqlite3_busy_timeout(st->db, 2000);
    if (sqlite3_exec(st->db, schema, NULL, NULL, NULL) != SQLITE_OK || add_transfers(st->db) < 0 ||
        sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO votes VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1,
                           &st->vote, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO rounds VALUES(?1, ?2, ?3, ?4, ?5, ?6)", -1,
                           &st->round, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO questions VALUES(?1, ?2, ?3, ?4, ?5)", -1,
                           &st->question, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO challenges VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1,
                           &st->play, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO challenge_rounds VALUES(?1, ?2, ?3, ?4, ?5)", -1,
                           &st->chstate, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "INSERT INTO practice VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", -1,
                           &st->practice, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO instances VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1,
                           &st->instance, NULL) != SQLITE_OK) {
        fail(st, cause, "not a room's database");
        room_store_close(st);
        return -1;
    }
    st->course = xstrdup(course);
    st->lesson = xstrdup(lesson);
    *out = st;
    return 0;
}

void room_store_close(struct room_store *st)
{
    if (!st)
        return;
    sqlite3_finalize(st->vote);
    sqlite3_finalize(st->round);
    sqlite3_finalize(st->question);
    sqlite3_finalize(st->play);
    sqlite3_finalize(st->chstate);
    sqlite3_finalize(st->practice);
    sqlite3_finalize(st->instance);
    sqlite3_close(st->db);
    free(st->course);
    free(st->lesson);
    free(st);
}

static enum room_round_state state_of(const char *w)
{
    return !w ? ROUND_NONE : strcmp(w, "open") == 0 ? ROUND_OPEN : strcmp(w, "closed") == 0 ? ROUND_CLOSED
           : strcmp(w, "revealed") == 0 ? ROUND_REVEALED : ROUND_NONE;
}

int room_store_load(struct room_store *st, const struct room_store_cb *cb, char **cause)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT slide, round, state FROM rounds WHERE course = ?1 AND lesson = ?2"
                           " ORDER BY slide, round", -1, &q, NULL) != SQLITE_OK)
        return fail(st, cause, "reading the rounds");
    sqlite3_bind_text(q, 1, st->course, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, st->lesson, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        cb->round(cb->ctx, sqlite3_column_int(q, 0), sqlite3_column_int(q, 1),
                  state_of((const char *)sqlite3_column_text(q, 2)));
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return fail(st, cause, "reading the rounds");
    if (sqlite3_prepare_v2(st->db, "SELECT slide, round, user, answer, correct FROM votes"
                           " WHERE course = ?1 AND lesson = ?2 ORDER BY rowid", -1, &q, NULL) != SQLITE_OK)
        return fail(st, cause, "reading the votes");
    sqlite3_bind_text(q, 1, st->course, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, st->lesson, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *user = (const char *)sqlite3_column_text(q, 2);
        const char *answer = (const char *)sqlite3_column_text(q, 3);
        if (user && answer && !text_flaw(user) && !text_flaw(answer))
            cb->vote(cb->ctx, sqlite3_column_int(q, 0), sqlite3_column_int(q, 1), user, answer,
                     sqlite3_column_int(q, 4) != 0);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return fail(st, cause, "reading the votes");
    if (!cb->play)
        return 0;
    if (sqlite3_prepare_v2(st->db, "SELECT slide, user, makespan, picks FROM challenges"
                           " WHERE course = ?1 AND lesson = ?2 ORDER BY rowid", -1, &q, NULL) != SQLITE_OK)
        return fail(st, cause, "reading the challenges");
    sqlite3_bind_text(q, 1, st->course, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, st->lesson, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *user = (const char *)sqlite3_column_text(q, 1);
        const char *picks = (const char *)sqlite3_column_text(q, 3);
        if (user && picks && !text_flaw(user) && !text_flaw(picks))
            cb->play(cb->ctx, sqlite3_column_int(q, 0), user, sqlite3_column_double(q, 2), picks);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return fail(st, cause, "reading the challenges");
    if (sqlite3_prepare_v2(st->db, "SELECT slide, state FROM challenge_rounds WHERE course = ?1 AND lesson = ?2",
                           -1, &q, NULL) != SQLITE_OK)
        return fail(st, cause, "reading the challenges");
    sqlite3_bind_text(q, 1, st->course, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, st->lesson, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *w = (const char *)sqlite3_column_text(q, 1);
        if (cb->challenge && w)
            cb->challenge(cb->ctx, sqlite3_column_int(q, 0), strcmp(w, "open") == 0);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return fail(st, cause, "reading the challenges");
    return 0;
}

int room_store_begin(struct room_store *st, char **cause)
{
    return sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(st, cause, "BEGIN");
}

int room_store_commit(struct room_store *st, char **cause)
{
    if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    fail(st, cause, "COMMIT");
    room_store_rollback(st);
    return -1;
}

void room_store_rollback(struct room_store *st)
{
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Bind the course and lesson as ?1 and ?2, run s once; 0 or -1. */
static int step(struct room_store *st, sqlite3_stmt *s, char **cause, const char *what)
{
    sqlite3_bind_text(s, 1, st->course, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, st->lesson, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_DONE ? 0 : fail(st, cause, what);
}

int room_store_round(struct room_store *st, int slide, int round, enum room_round_state state,
                     const char *question, const char *expected, char **cause)
{
    char now[40];
    now_text(now, sizeof now);
    sqlite3_bind_int(st->round, 3, slide);
    sqlite3_bind_int(st->round, 4, round);
    sqlite3_bind_text(st->round, 5, room_round_word(state), -1, SQLITE_STATIC);
    sqlite3_bind_text(st->round, 6, now, -1, SQLITE_TRANSIENT);
    if (step(st, st->round, cause, "writing a round") < 0)
        return -1;
    sqlite3_bind_int(st->question, 3, slide);
    sqlite3_bind_text(st->question, 4, question, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st->question, 5, expected, -1, SQLITE_TRANSIENT);
    return step(st, st->question, cause, "writing a question");
}

int room_store_vote(struct room_store *st, int slide, int round, const char *user, const char *answer,
                    bool correct, char **cause)
{
    char now[40];
    now_text(now, sizeof now);
    sqlite3_bind_int(st->vote, 3, slide);
    sqlite3_bind_int(st->vote, 4, round);
    sqlite3_bind_text(st->vote, 5, user, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st->vote, 6, answer, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st->vote, 7, correct ? 1 : 0);
    sqlite3_bind_text(st->vote, 8, now, -1, SQLITE_TRANSIENT);
    return step(st, st->vote, cause, "writing a vote");
}

int room_store_play(struct room_store *st, int slide, const char *user, double makespan, const char *picks,
                    const char *transfers, char **cause)
{
    char now[40];
    now_text(now, sizeof now);
    sqlite3_bind_int(st->play, 3, slide);
    sqlite3_bind_text(st->play, 4, user, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st->play, 5, makespan);
    sqlite3_bind_text(st->play, 6, picks, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st->play, 7, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st->play, 8, transfers, -1, SQLITE_TRANSIENT);
    return step(st, st->play, cause, "writing a challenge's result");
}

int room_store_challenge(struct room_store *st, int slide, bool open, char **cause)
{
    char now[40];
    now_text(now, sizeof now);
    sqlite3_bind_int(st->chstate, 3, slide);
    sqlite3_bind_text(st->chstate, 4, open ? "open" : "closed", -1, SQLITE_STATIC);
    sqlite3_bind_text(st->chstate, 5, now, -1, SQLITE_TRANSIENT);
    return step(st, st->chstate, cause, "writing a challenge's state");
}

int room_store_practice(struct room_store *st, const char *user, long long seed, int goal, int answered,
                        int correct, bool mastered, char **cause)
{
    char now[40];
    now_text(now, sizeof now);
    sqlite3_bind_text(st->practice, 3, user, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st->practice, 4, seed);
    sqlite3_bind_int(st->practice, 5, goal);
    sqlite3_bind_int(st->practice, 6, answered);
    sqlite3_bind_int(st->practice, 7, correct);
    sqlite3_bind_int(st->practice, 8, mastered ? 1 : 0);
    sqlite3_bind_text(st->practice, 9, now, -1, SQLITE_TRANSIENT);
    return step(st, st->practice, cause, "writing a practice's result");
}

int room_store_instance(struct room_store *st, int slide, const char *user, int seed, const char *csv,
                        char **cause)
{
    char now[40];
    now_text(now, sizeof now);
    sqlite3_bind_int(st->instance, 3, slide);
    sqlite3_bind_text(st->instance, 4, user, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st->instance, 5, seed);
    sqlite3_bind_text(st->instance, 6, csv, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st->instance, 7, now, -1, SQLITE_TRANSIENT);
    return step(st, st->instance, cause, "writing a student's instance");
}

/* ---- the grade book ---- */

/* A database written before challenges existed has no table for them: none to report. */
static const char book_results_sql[] =
    "SELECT course, lesson, slide, user, makespan, picks, time, transfers FROM challenges"
    " ORDER BY course, lesson, slide, user";
/* One written before the picks were kept by name: none. */
static const char book_old_results_sql[] =
    "SELECT course, lesson, slide, user, makespan, picks, time, '' FROM challenges"
    " ORDER BY course, lesson, slide, user";
static const char book_no_results_sql[] = "SELECT 1 WHERE 0";
static const char book_practice_sql[] =
    "SELECT course, lesson, user, seed, goal, answered, correct, mastered, time FROM practice"
    " ORDER BY course, lesson, user, time";

static const char book_students_sql[] =
    "WITH last AS (SELECT course, lesson, slide, user, MAX(round) AS round FROM votes"
    "              GROUP BY course, lesson, slide, user)"
    " SELECT v.course, v.user, COUNT(*), SUM(v.correct),"
    "  (SELECT COUNT(*) FROM votes f WHERE f.course = v.course AND f.user = v.user AND f.round = 1"
    "   AND f.correct = 1)"
    " FROM votes v JOIN last l ON v.course = l.course AND v.lesson = l.lesson AND v.slide = l.slide"
    "  AND v.user = l.user AND v.round = l.round"
    " GROUP BY v.course, v.user ORDER BY v.course, v.user";

static const char book_questions_sql[] =
    "SELECT v.course, v.lesson, v.slide, COALESCE(q.question, ''), COALESCE(q.expected, ''), v.round,"
    " COUNT(*), SUM(v.correct)"
    " FROM votes v LEFT JOIN questions q ON q.course = v.course AND q.lesson = v.lesson AND q.slide = v.slide"
    " GROUP BY v.course, v.lesson, v.slide, v.round ORDER BY v.course, v.lesson, v.slide, v.round";

/* A column's text, checked: what is not text is shown escaped (SHOWN). */
static void book_col(sqlite3_stmt *q, int i, char *buf, size_t size)
{
    const char *s = (const char *)sqlite3_column_text(q, i);
    diag_shown(s ? s : "", buf, size);
}

/* A column as a message shows it: its text checked, "empty" for NULL. */
static const char *book_shown(sqlite3_stmt *q, int i, char *buf, size_t size)
{
    if (sqlite3_column_type(q, i) == SQLITE_NULL)
        return "empty";
    book_col(q, i, buf, size);
    return buf;
}

/* A count that must be a whole number from lo to hi (a foreign database may hold anything). */
static bool book_count(sqlite3_stmt *q, int i, long long lo, long long hi, int *out)
{
    if (sqlite3_column_type(q, i) != SQLITE_INTEGER)
        return false;
    long long v = sqlite3_column_int64(q, i);
    *out = (int)v;
    return v >= lo && v <= hi;
}

/* One row of the query being read into b; 0, or -1 with *cause (the row that is not a room's). */
typedef int (*book_row_fn)(sqlite3_stmt *q, struct room_book *b, char **cause);

static int book_student(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    b->students = xrealloc(b->students, (size_t)(b->nstudents + 1) * sizeof *b->students);
    struct room_book_student *s = &b->students[b->nstudents++];
    book_col(q, 0, s->course, sizeof s->course);
    book_col(q, 1, s->user, sizeof s->user);
    if (!book_count(q, 2, 1, INT_MAX, &s->answered) || !book_count(q, 3, 0, s->answered, &s->right) ||
        !book_count(q, 4, 0, s->answered, &s->first_right))
    {
        char a[3][32];
        return set_cause(cause, "user %s of course %s: %s answered, %s right, %s right in round 1 (whole numbers, "
                         "right at most answered, expected)", s->user, s->course, book_shown(q, 2, a[0], 32),
                         book_shown(q, 3, a[1], 32), book_shown(q, 4, a[2], 32));
    }
    return 0;
}

static int book_question(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    b->questions = xrealloc(b->questions, (size_t)(b->nquestions + 1) * sizeof *b->questions);
    struct room_book_question *x = &b->questions[b->nquestions++];
    book_col(q, 0, x->course, sizeof x->course);
    book_col(q, 1, x->lesson, sizeof x->lesson);
    book_col(q, 3, x->question, sizeof x->question);
    book_col(q, 4, x->expected, sizeof x->expected);
    if (!book_count(q, 2, 1, INT_MAX, &x->slide) || !book_count(q, 5, 1, INT_MAX, &x->round) ||
        !book_count(q, 6, 1, INT_MAX, &x->votes) || !book_count(q, 7, 0, x->votes, &x->right))
    {
        char a[4][32];
        return set_cause(cause, "lesson %s of course %s: slide %s round %s: %s votes, %s right (whole numbers, "
                         "right at most votes, expected)", x->lesson, x->course, book_shown(q, 2, a[0], 32),
                         book_shown(q, 5, a[1], 32), book_shown(q, 6, a[2], 32), book_shown(q, 7, a[3], 32));
    }
    return 0;
}

static int book_result(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    b->results = xrealloc(b->results, (size_t)(b->nresults + 1) * sizeof *b->results);
    struct room_book_result *x = &b->results[b->nresults++];
    book_col(q, 0, x->course, sizeof x->course);
    book_col(q, 1, x->lesson, sizeof x->lesson);
    book_col(q, 3, x->user, sizeof x->user);
    book_col(q, 5, x->picks, sizeof x->picks);
    book_col(q, 6, x->time, sizeof x->time);
    char names[ROOM_BOOK_TRANSFERS];
    book_col(q, 7, names, sizeof names);
    x->transfers = xstrdup(names);
    int type = sqlite3_column_type(q, 4);
    x->makespan = sqlite3_column_double(q, 4);
    if (!book_count(q, 2, 1, INT_MAX, &x->slide) || (type != SQLITE_INTEGER && type != SQLITE_FLOAT) ||
        !isfinite(x->makespan) || x->makespan < 0)
    {
        char a[2][32];
        return set_cause(cause, "lesson %s of course %s: slide %s: %s's makespan is %s (a number >= 0 expected)",
                         x->lesson, x->course, book_shown(q, 2, a[0], 32), x->user, book_shown(q, 4, a[1], 32));
    }
    return 0;
}

static int book_practice(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    b->practice = xrealloc(b->practice, (size_t)(b->npractice + 1) * sizeof *b->practice);
    struct room_book_practice *x = &b->practice[b->npractice++];
    book_col(q, 0, x->course, sizeof x->course);
    book_col(q, 1, x->lesson, sizeof x->lesson);
    book_col(q, 2, x->user, sizeof x->user);
    book_col(q, 8, x->time, sizeof x->time);
    x->seed = sqlite3_column_int64(q, 3);
    int mastered = 0;
    if (sqlite3_column_type(q, 3) != SQLITE_INTEGER || !book_count(q, 4, 1, INT_MAX, &x->goal) ||
        !book_count(q, 5, 0, INT_MAX, &x->answered) || !book_count(q, 6, 0, x->answered, &x->right) ||
        !book_count(q, 7, 0, 1, &mastered))
    {
        char a[4][32];
        return set_cause(cause, "lesson %s of course %s: %s's practice: %s answered, %s right, goal %s, mastered %s "
                         "(whole numbers, right at most answered, mastered 0 or 1, expected)", x->lesson, x->course,
                         x->user, book_shown(q, 5, a[0], 32), book_shown(q, 6, a[1], 32), book_shown(q, 4, a[2], 32),
                         book_shown(q, 7, a[3], 32));
    }
    x->mastered = mastered != 0;
    return 0;
}

/* Run sql on db, each row through row.  0, or -1 with *cause. */
static int book_query(sqlite3 *db, const char *sql, book_row_fn row, struct room_book *b, char **cause)
{
    sqlite3_stmt *q = NULL;
    char why[300];   /* SQLite's message may quote the file's own names: shown as text */
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return set_cause(cause, "%s", SHOWN(sqlite3_errmsg(db), why));
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        if (row(q, b, cause) < 0) {
            sqlite3_finalize(q);
            return -1;
        }
    sqlite3_finalize(q);   /* once: the error, if any, stays on db */
    return rc == SQLITE_DONE ? 0 : set_cause(cause, "%s", SHOWN(sqlite3_errmsg(db), why));
}

static int book_salt(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    (void)cause;
    book_col(q, 0, b->salt, sizeof b->salt);
    return 0;
}

static int book_has(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    (void)q;
    (void)cause;
    b->nresults = -1;   /* marked: the table is there */
    return 0;
}

/* PRAGMA quick_check's rows: "ok", or what is damaged (the first row said). */
static int book_intact(sqlite3_stmt *q, struct room_book *b, char **cause)
{
    (void)b;
    const char *row = (const char *)sqlite3_column_text(q, 0);
    char why[300];
    if (row && strcmp(row, "ok") == 0)
        return 0;
    return set_cause(cause, "the file is damaged (SQLite: %s)", SHOWN(row ? row : "no answer", why));
}

int room_book_read(const char *path, struct room_book *b, char **cause)
{
    memset(b, 0, sizeof *b);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        set_cause(cause, "%s: cannot open it: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, 2000);
    char *why = NULL;
    /* A damaged file is refused whole: what SQLite reads of a damaged page can
       differ from run to run, and a grade book must not differ with it. */
    int rc = book_query(db, "PRAGMA quick_check(1)", book_intact, b, &why);
    rc = rc < 0 ? rc : book_query(db, "SELECT value FROM room WHERE key = 'salt'", book_salt, b, &why);
    rc = rc < 0 ? rc : book_query(db, book_students_sql, book_student, b, &why);
    rc = rc < 0 ? rc : book_query(db, book_questions_sql, book_question, b, &why);
    rc = rc < 0 ? rc : book_query(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'challenges'",
                                  book_has, b, &why);
    bool has = b->nresults < 0;
    b->nresults = 0;
    rc = rc < 0 || !has ? rc : book_query(db, "SELECT 1 FROM pragma_table_info('challenges') WHERE name = 'transfers'",
                                          book_has, b, &why);
    bool named = b->nresults < 0;
    b->nresults = 0;
    rc = rc < 0 ? rc : book_query(db, !has ? book_no_results_sql : named ? book_results_sql : book_old_results_sql,
                                  book_result, b, &why);
    int nresults = b->nresults;   /* book_has marks nresults: the practice table is there */
    b->nresults = 0;
    rc = rc < 0 ? rc : book_query(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'practice'",
                                  book_has, b, &why);
    bool practice = b->nresults < 0;
    b->nresults = nresults;
    rc = rc < 0 || !practice ? rc : book_query(db, book_practice_sql, book_practice, b, &why);
    sqlite3_close(db);
    if (rc < 0) {
        set_cause(cause, "%s: not a room's database (hetcast lesson --class writes one): %s", path,
                  why ? why : "unreadable");
        free(why);
        room_book_free(b);
        return -1;
    }
    return 0;
}

void room_book_free(struct room_book *b)
{
    free(b->students);
    free(b->questions);
    for (int i = 0; i < b->nresults; i++)
        free(b->results[i].transfers);
    free(b->results);
    free(b->practice);
    memset(b, 0, sizeof *b);
}
