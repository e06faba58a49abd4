/*
 * session/room.h - a live class (hetcast lesson FILE --class ROOM): a Unix
 * domain socket at the path ROOM where students' clients (hetcast join ROOM)
 * connect, follow the instructor's slide and vote; their votes go to the
 * room's SQLite database (session/room_store.h) before they are
 * acknowledged; on a key the slide's exercise becomes a class challenge
 * (room_challenge).  The protocol is line-based text, version ROOM_PROTO, every
 * field bounded (docs/class.md is its reference).
 *
 * Nothing here blocks: the instructor's view polls room_pollfds with its
 * keyboard and calls room_service (the database's commits run on a thread
 * of the room's own), which accepts, reads at most
 * ROOM_READ_MAX bytes a client, answers, and writes what the socket takes
 * (the rest waits in a bounded buffer; a client whose buffer overflows, who
 * sends a line longer than ROOM_LINE_MAX, floods past ROOM_RATE lines a
 * second or says nothing within ROOM_HELLO_MS is dropped).  A student is the
 * connecting process's user (SO_PEERCRED, then the password database's
 * name, kept for the room's life: one uid is one name however many
 * connections it opens; a uid the room cannot name is refused, never named
 * otherwise): nobody types a name.  The room takes at most ROOM_CLIENTS_MAX
 * connections, fewer when the descriptor limit (raised to its hard limit
 * when the room opens) leaves less than ROOM_FD_SPARE beside them; more are
 * told the room is full.  A test room (room_opts.test) also takes
 * "HELLO 1 AS NAME" from the room's own user, to simulate a class from one
 * account; from any other user it refuses it.  Student names never leave
 * this module but into the database: the projector gets counts
 * (room_tally), each student their own vote.
 */
#ifndef HETCAST_ROOM_H
#define HETCAST_ROOM_H

#include <poll.h>
#include <stdbool.h>

#include "session/lesson.h"
#include "session/room_net.h"
#include "session/room_proto.h"
#include "session/room_store.h"

#define ROOM_HELLO_MS 10000     /* a connection that has not said HELLO by then is dropped */

struct room_opts {
    const char *path;       /* the socket */
    const char *db;         /* the database; NULL: path + ".db" */
    const char *course;     /* NULL: the socket's file name */
    bool test;              /* take HELLO 1 AS NAME from the room's own user */
};

struct room;

/* Open the room for lesson l (kept alive by the caller): the socket (group
 * read/write, mode 0660; a stale socket replaced, a live room or any other
 * file refused) and the database, whose rounds and votes of this course and
 * lesson come back.  0, or -1 with *cause. */
int room_open(struct room **out, const struct room_opts *o, const struct lesson *l, char **cause);
/* Close the room: the connections, the socket file, the database. */
void room_close(struct room *r);

/* The descriptors to poll: the listening socket, the writer's wake-up,
 * then each client; at most max (2 + ROOM_CLIENTS_MAX is enough).  Returns
 * how many were filled. */
int room_pollfds(const struct room *r, struct pollfd *fds, int max);
/* Milliseconds until a connection's HELLO deadline (-1: none) from now (CLOCK_MONOTONIC ms). */
int room_timeout(const struct room *r, long long now);
/* Work after poll() returned on fds (room_pollfds' n): accept, read, vote,
 * answer.  The votes read go in one batch to the room's writer thread, which
 * commits them in one transaction (the fsync off the projector's frame) and
 * wakes the loop; the next room_service acknowledges them (OK), and only
 * then.  True when what room_tally says changed. */
bool room_service(struct room *r, const struct pollfd *fds, int n, long long now);

/* The instructor shows slide k (0-based): students follow. */
void room_follow(struct room *r, int k);
/* The vote on the slide shown, Peer Instruction's way: with a round open,
 * close it (no more votes in it: the class discusses); else open round 1,
 * or the next round.  0, or -1 with *cause (the slide asks nothing, or the
 * database failed). */
int room_vote(struct room *r, char **cause);
/* Open the slide's challenge (its exercise, played by every student on
 * their own terminal; session/room_challenge.h), or close it when open.
 * Results of a closed challenge stay (a second opening takes more).  0, or
 * -1 with *cause (the slide's cluster cannot be a challenge). */
int room_challenge(struct room *r, char **cause);
/* Every student their own random instance of the slide shown (session/instance.h), seeded by
 * their name and the slide, or (again) the slide's own cluster for all: each then sees their
 * instance's node table and the question asked of its run, is graded against that run, and the
 * grade book keeps their instance (seed, CSV) beside their vote.  Refused (-1 with *cause) on
 * a slide whose question cannot be asked of an instance, or while a round is open. */
int room_instances(struct room *r, char **cause);
/* Close the vote and show everyone the answer.  0, or -1 with *cause. */
int room_reveal(struct room *r, char **cause);

struct room_tally {
    int present;            /* students connected (users, not connections) */
    int slide;              /* 0-based */
    int round;              /* the slide's last round; 0: none */
    enum room_round_state state;
    int voted;              /* students who voted in that round */
    bool instances;         /* each student answers about their own instance (room_instances) */
    bool choices;           /* bars are the choices (A, B, ...); else right and wrong */
    int nbars;
    int bars[2][LESSON_MAX_CHOICES];    /* [1]: the last round, [0]: the one before (when round > 1) */
    int total[2], right[2];
    int correct;            /* the right choice (choices; -1: none) */
    /* the slide's challenge (room_challenge): open, or results in */
    bool challenge, ch_open;
    int finished;           /* students with a result */
    const double *makespans;    /* their makespans, sorted (finished of them; valid until room_service) */
    double fnf, optimum;    /* fnf's makespan (fnf_known: once the challenge was opened) and the optimum */
    bool fnf_known, optimum_known;
};
void room_tally(const struct room *r, struct room_tally *t);
/* The socket's path and the database's path (for messages). */
const char *room_path(const struct room *r);
/* What went wrong last with the database, or NULL; cleared by reading it. */
const char *room_trouble(struct room *r);

#endif
