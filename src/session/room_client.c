/*
 * session/room_client.c - a student's connection to a room
 * (session/room_client.h).
 */
#include "session/room_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "support/diag.h"

int room_client_connect(const char *path, char **cause)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path)
        return set_cause(cause, "%s: a socket's path holds at most %zu bytes", path, sizeof a.sun_path - 1);
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return set_cause(cause, "socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(fd);
        return set_cause(cause, "%s: %s", path, e == ENOENT || e == ECONNREFUSED ? "no room is open there"
                         : e == EACCES ? "permission denied (is the room's folder shared with your group?)"
                         : strerror(e));
    }
    return fd;
}

int room_client_send(int fd, const char *line)
{
    size_t n = strlen(line);
    while (n) {
        ssize_t w = send(fd, line, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        line += w;
        n -= (size_t)w;
    }
    return 0;
}

int room_client_read(int fd, struct room_seen *s, char **cause)
{
    int changed = 0;
    for (;;) {
        ssize_t got = recv(fd, s->in + s->inlen, sizeof s->in - s->inlen, MSG_DONTWAIT);
        if (got == 0)
            return set_cause(cause, "the room closed%s%s", s->said_error ? ": " : "",
                             s->said_error ? s->said : "");
        if (got < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return changed;
            return set_cause(cause, "the room: %s", strerror(errno));
        }
        s->inlen += (size_t)got;
        char *nl;
        while ((nl = memchr(s->in, '\n', s->inlen)) != NULL) {
            *nl = '\0';
            int rc = room_proto_take(s, s->in, cause);
            if (rc < 0)
                return -1;
            changed |= rc;
            size_t used = (size_t)(nl - s->in) + 1;
            memmove(s->in, s->in + used, s->inlen - used);
            s->inlen -= used;
        }
        if (s->inlen == sizeof s->in)
            return set_cause(cause, "the room sent a line longer than this client reads");
    }
}

void room_client_free(struct room_seen *s)
{
    room_proto_seen_free(s);
}
