/*
 * session/room_client.h - a student's side of a live class (hetcast join
 * ROOM): the connection to the room's socket, and what comes through it
 * read whole, bounded, into what the student's screen shows (struct
 * room_seen: the slide, its question and choices, the student's own vote,
 * after the reveal the right answer, a challenge's cluster).  The lines
 * themselves, both ways, are session/room_proto.h's.
 */
#ifndef HETCAST_ROOM_CLIENT_H
#define HETCAST_ROOM_CLIENT_H

#include "session/room_proto.h"

/* Connect to the room at path: the socket, or -1 with *cause. */
int room_client_connect(const char *path, char **cause);
/* Write all of line to the room (a client's line is short: the socket
 * takes it).  0, or -1 when the room closed the connection. */
int room_client_send(int fd, const char *line);
/* Read what fd has (non-blocking) into s: 1 something changed, 0 nothing,
 * -1 the room closed or broke the protocol (*cause). */
int room_client_read(int fd, struct room_seen *s, char **cause);
void room_client_free(struct room_seen *s);

#endif
