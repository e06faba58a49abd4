/*
 * session/room_challenge.h - a live class's challenge: the slide's exercise
 * played by every student (hetcast join), each result computed by the room.
 * The room sends the slide's cluster as CSV text (bounded: at most
 * ROOM_CHALLENGE_NODES nodes, ROOM_CHALLENGE_BYTES bytes, lines of at most
 * ROOM_TEXT_MAX bytes); the student sends back the picks, and the room
 * replays them with engine_book on its own copy of that cluster -- loaded
 * back from the very text it sent, so both sides play the same nodes in
 * the same order -- and takes the makespan it computed itself, never one a
 * client claims.  fnf's makespan and the optimum (when proven) are computed
 * once, when the challenge is prepared, for the projector.
 */
#ifndef HETCAST_ROOM_CHALLENGE_H
#define HETCAST_ROOM_CHALLENGE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/cluster.h"
#include "session/lesson.h"

#define ROOM_CHALLENGE_NODES 32       /* nodes of a challenge's cluster */
#define ROOM_CHALLENGE_BYTES 8192     /* bytes of its CSV text */
#define ROOM_CHALLENGE_LINE 400       /* bytes of one of its lines (ROOM_TEXT_MAX) */
#define ROOM_PICKS_MAX 512            /* bytes of a pick list "F>T F>T ..." */

struct challenge {
    struct cluster *c;          /* loaded back from csv: what the students play */
    enum model m;
    char model[32];             /* m's name, as sent */
    char *csv;                  /* the cluster as sent, lines ended by '\n' */
    double fnf;                 /* fnf's makespan on it */
    double optimum;             /* the optimum, when optimum_known (proven) */
    bool optimum_known;
};

/* Prepare slide k's challenge: its cluster (one message from the source:
 * not an exchange, not pipelined), within the limits above.  0, or -1 with
 * *cause (a sentence for the instructor: why this slide cannot be one). */
int challenge_prepare(struct challenge *ch, const struct lesson *l, int k, char **cause);
void challenge_free(struct challenge *ch);
/* The picks canon (challenge_replay's) by the nodes' names: "p0 -> p4, p0 -> p2"
 * (allocated; the grade book's transfers). */
char *challenge_transfers(const struct challenge *ch, const char *canon);

/* Replay picks ("F>T F>T ...": 0-based node numbers in the order of the
 * CSV's rows, as many as it takes to reach every node, separated by one
 * space) on ch's cluster.  0 with *makespan and canon (the picks written
 * again, canonical), or -1 with *cause: the first pick that cannot be read
 * or booked and why, or the nodes still waiting. */
int challenge_replay(const struct challenge *ch, const char *picks, double *makespan, char *canon,
                     size_t size, char **cause);

#endif
