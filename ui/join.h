/*
 * ui/join.h - hetcast join ROOM: the student's side of a live class on a
 * terminal.  The connection (session/room_client.h), the lines both ways
 * (session/room_proto.h), the screen (ui/join_screen.h), a challenge played
 * in the exercise (ui/screen_exercise.h); the terminal itself is ui/term.c's.
 */
#ifndef HETCAST_JOIN_H
#define HETCAST_JOIN_H

/* Join the room at path; as: a test room's simulated user (HELLO 2 AS
 * NAME), NULL for the one logged in.  The exit status. */
int join_run(const char *room, const char *as);

#endif
