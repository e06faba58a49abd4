/*
 * session/room_store.h - a class room's votes in SQLite (ROOM.db beside the
 * room's socket): every vote is written in its own committed transaction (or
 * a batch's) before the room acknowledges it, so a teacher's process killed
 * at any moment loses no acknowledged vote, and a room opened again on the
 * same database carries on with the same rounds.  One row a (course, lesson,
 * slide, round, user): a second vote in a round replaces the first.  Only
 * text that passed diag.h's text rules reaches a row; the table's CHECKs
 * refuse any other shape (docs/class.md lists the tables).  A class
 * challenge's results (the exercise played by every student) have a table
 * of their own, one row a (course, lesson, slide, user); so do the students'
 * own instances of a slide (room_instances), and practices (hetcast
 * practice --room), one row a practice.
 */
#ifndef HETCAST_ROOM_STORE_H
#define HETCAST_ROOM_STORE_H

#include <stdbool.h>

struct room_store;

enum room_round_state {
    ROUND_NONE,       /* no vote yet on this slide */
    ROUND_OPEN,       /* students vote */
    ROUND_CLOSED,     /* a later round was opened, or the vote was closed */
    ROUND_REVEALED,   /* the answer was shown to everyone: no more votes */
};

/* The state's word in the database and the protocol ("open", ...). */
const char *room_round_word(enum room_round_state s);

/* What room_store_load hands back, row by row. */
struct room_store_cb {
    void *ctx;
    void (*round)(void *ctx, int slide, int round, enum room_round_state state);
    void (*vote)(void *ctx, int slide, int round, const char *user, const char *answer, bool correct);
    /* a challenge's result (NULL: not read) */
    void (*play)(void *ctx, int slide, const char *user, double makespan, const char *picks);
    /* a challenge opened or closed last (NULL: not read) */
    void (*challenge)(void *ctx, int slide, bool open);
};

/* Open (create) the database at path for this course and lesson.  0, or -1 with *cause. */
int room_store_open(struct room_store **out, const char *path, const char *course, const char *lesson,
                    char **cause);
void room_store_close(struct room_store *st);
/* Every round and vote of this course and lesson, in the order they were written. */
int room_store_load(struct room_store *st, const struct room_store_cb *cb, char **cause);
/* A transaction around several writes (room_store_commit makes them durable). */
int room_store_begin(struct room_store *st, char **cause);
int room_store_commit(struct room_store *st, char **cause);
void room_store_rollback(struct room_store *st);
/* A round's state, and the question it asked (slide 1-based). */
int room_store_round(struct room_store *st, int slide, int round, enum room_round_state state,
                     const char *question, const char *expected, char **cause);
/* A vote (it replaces the user's earlier one in that round). */
int room_store_vote(struct room_store *st, int slide, int round, const char *user, const char *answer,
                    bool correct, char **cause);

/* A challenge's result: the makespan the room computed by replaying picks
 * ("F>T F>T ...", node numbers) and the same picks by name (transfers,
 * "p0 -> p1, ..."); it replaces the user's earlier one on that slide. */
int room_store_play(struct room_store *st, int slide, const char *user, double makespan, const char *picks,
                    const char *transfers, char **cause);
#define ROOM_BOOK_TRANSFERS 20000      /* bytes of a result's transfers read back (32 nodes' names) */

/* A slide's challenge opened or closed (a room opened again opens it again). */
int room_store_challenge(struct room_store *st, int slide, bool open, char **cause);

/* A student's own random instance of a slide (room_instances, session/room.h): its seed and its
 * cluster as CSV; it replaces the user's earlier one on that slide.  Their answer is their vote. */
int room_store_instance(struct room_store *st, int slide, const char *user, int seed, const char *csv,
                        char **cause);

/* A practice's result (hetcast practice LESSON --room ROOM): user drew random instances of the
 * lesson's questions from seed until goal right in a row (mastered) or stopped; answered,
 * correct of them right.  One row a practice (user: text of 1 to 64 bytes, diag.h's rules). */
int room_store_practice(struct room_store *st, const char *user, long long seed, int goal, int answered,
                        int correct, bool mastered, char **cause);

/* ---- the grade book: a room's database read back (hetcast class report) ---- */

struct room_book_student {
    char course[200], user[200];
    int answered, right, first_right;   /* right: in the last round voted; first_right: in round 1 */
};
struct room_book_question {
    char course[200], lesson[200], question[400], expected[200];
    int slide, round, votes, right;
};
struct room_book_result {
    char course[200], lesson[200], user[200], picks[600], time[40];
    char *transfers;                     /* the picks by name ("p0 -> p1, ..."; "" in an older database) */
    int slide;
    double makespan;                     /* finite, >= 0 */
};
struct room_book_practice {
    char course[200], lesson[200], user[200], time[40];
    long long seed;
    int goal, answered, right;           /* right <= answered */
    bool mastered;                       /* goal right in a row reached */
};
/* Every row, each text checked (diag.h's SHOWN), each count consistent
 * (right <= answered, right <= votes, makespans numbers >= 0): a database
 * that breaks one is refused, the row named. */
struct room_book {
    char salt[64];                       /* the database's own random salt (pseudonyms) */
    struct room_book_student *students;
    int nstudents;
    struct room_book_question *questions;
    int nquestions;
    struct room_book_result *results;   /* none in a database older than challenges */
    int nresults;
    struct room_book_practice *practice;   /* none in a database older than practice */
    int npractice;
};

/* Read the database at path (read only) into b.  0, or -1 with *cause. */
int room_book_read(const char *path, struct room_book *b, char **cause);
void room_book_free(struct room_book *b);

#endif
