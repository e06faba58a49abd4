/*
 * session/room_net.h - a live class's transport (session/room.h): the
 * listening Unix socket, the connections with their bounded buffers, and
 * nothing that blocks.  A connection's bytes become whole lines, each
 * handed to the room (the flood limit and the line limit applied first); what the
 * room says to a connection (session/room_proto.h's lines) waits in a
 * bounded buffer until the socket takes it.  The descriptors are counted:
 * the soft limit is raised to the hard one, and connections are capped so
 * that ROOM_FD_SPARE stay free for the database and the view; one spare
 * descriptor more is held back to take and refuse a connection when none
 * is left all the same (no busy loop on a queue that cannot be emptied).
 */
#ifndef HETCAST_ROOM_NET_H
#define HETCAST_ROOM_NET_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "session/room_proto.h"

#define ROOM_CLIENTS_MAX 1024   /* connections at once; more are told the room is full */
#define ROOM_FD_SPARE 64        /* descriptors kept free of clients (the database, the view's files) */
#define ROOM_OUT_MAX 65536      /* bytes waiting for a client that does not read: then dropped */
#define ROOM_READ_MAX 4096      /* bytes read from one client in one turn */
#define ROOM_RATE 20            /* lines a second a client may send (a burst of 2 * ROOM_RATE) */

struct room_conn {
    unsigned long id;               /* a serial: a vote's acknowledgement finds its connection by it */
    int fd;
    uid_t uid;                      /* SO_PEERCRED */
    char user[ROOM_USER_MAX + 1];   /* "" until HELLO (the room names it) */
    struct room_out say;            /* the protocol's lines to it */
    char in[ROOM_LINE_MAX];
    size_t inlen;
    char *out;
    size_t outlen, outcap;
    long long since;                /* connected (ms) */
    double tokens;                  /* the flood limit's bucket */
    long long filled;               /* when the bucket was last filled */
    bool dead;                      /* dropped: closed at the end of the turn */
};

struct room_net {
    int fd;                         /* the listening socket (-1: none) */
    int spare;                      /* the descriptor held back (-1: none) */
    int clients_max;                /* ROOM_CLIENTS_MAX, or fewer under a low descriptor limit */
    struct room_conn **cl;
    int ncl;
    unsigned long serial;
};

/* The socket at path (mode 0660; a stale one replaced, a live room or any
 * other file refused) and the descriptor budget.  0, or -1 with *cause
 * (net->fd stays -1 when the path is not the room's). */
int room_net_open(struct room_net *net, const char *path, char **cause);
/* Close every connection (their last words flushed when the socket takes
 * them) and the socket; its file removed when path is given. */
void room_net_close(struct room_net *net, const char *path);
/* Take every connection waiting: a room_conn each, or "the room is full". */
void room_net_accept(struct room_net *net, long long now);
/* Read what c has, at most ROOM_READ_MAX bytes, each whole line (its
 * newline removed) through line; a line too long or a flood drops c. */
void room_net_read(struct room_conn *c, long long now,
                   void (*line)(void *ctx, struct room_conn *c, char *s, size_t n), void *ctx);
/* What waits for c, as far as its socket takes it. */
void room_net_flush(struct room_conn *c);
/* Flush every connection, close the dead ones.  True when one that had said HELLO left. */
bool room_net_sweep(struct room_net *net);
/* The connections' descriptors into fds (at most max).  How many. */
int room_net_pollfds(const struct room_net *net, struct pollfd *fds, int max);
struct room_conn *room_net_find(const struct room_net *net, unsigned long id);

#endif
