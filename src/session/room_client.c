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

/* Copy text (it passed text_flaw) into a field of size n. */
static void keep(char *dst, size_t n, const char *src)
{
    text_fit(dst, n, "%s", src);
}

/* One line from the room into s; 1 if the screen changes, 0 not, -1 on an error of the protocol. */
static int take(struct room_seen *s, char *line, char **cause)
{
    if (text_flaw(line))
        return set_cause(cause, "the room sent something that is not text");
    char *arg = strchr(line, ' ');
    if (arg)
        *arg++ = '\0';
    else
        arg = line + strlen(line);
    struct room_seen *n = s->next;
    if (strcmp(line, "SLIDE") == 0) {
        if (!n)
            n = s->next = xcalloc(1, sizeof *n);
        else
            memset(n, 0, sizeof *n);
        if (sscanf(arg, "%d %d %d %15s %15s", &n->slide, &n->nslides, &n->round, n->state, n->kind) != 5)
            return set_cause(cause, "the room sent a SLIDE line this client cannot read");
        return 0;
    }
    if (n) {   /* inside a block */
        if (strcmp(line, "TITLE") == 0)
            keep(n->title, sizeof n->title, arg);
        else if (strcmp(line, "QUESTION") == 0)
            keep(n->question, sizeof n->question, arg);
        else if (strcmp(line, "CHOICE") == 0 && n->nchoices < LESSON_MAX_CHOICES && arg[0] && arg[1] == ' ')
            keep(n->choices[n->nchoices++], sizeof n->choices[0], arg + 2);
        else if (strcmp(line, "YOURS") == 0 && strchr(arg, ' '))
            keep(n->yours, sizeof n->yours, strchr(arg, ' ') + 1);
        else if (strcmp(line, "EXPECTED") == 0)
            keep(n->expected, sizeof n->expected, arg);
        else if (strcmp(line, "EXPLAIN") == 0)
            keep(n->explain, sizeof n->explain, arg);
        else if (strcmp(line, "RESULT") == 0)
            keep(n->result, sizeof n->result, arg);
        else if (strcmp(line, "CHALLENGE") == 0) {
            if (sscanf(arg, "%15s %d %31s", n->ch_state, &n->ch_nodes, n->ch_model) != 3 ||
                n->ch_nodes < 2 || n->ch_nodes > ROOM_CHALLENGE_NODES)
                return set_cause(cause, "the room sent a CHALLENGE line this client cannot read");
        } else if (strcmp(line, "CSV") == 0) {
            size_t len = strlen(arg);
            if (n->csvlen + len + 1 > ROOM_CHALLENGE_BYTES)
                n->csv_cut = true;
            else {
                memcpy(n->csv + n->csvlen, arg, len);
                n->csvlen += len;
                n->csv[n->csvlen++] = '\n';
                n->csv[n->csvlen] = '\0';
            }
        } else if (strcmp(line, "MINE") == 0)
            keep(n->mine, sizeof n->mine, arg);
        else if (strcmp(line, "END") == 0) {
            char user[sizeof s->user], said[sizeof s->said];
            bool err = s->said_error;
            memcpy(user, s->user, sizeof user);
            memcpy(said, s->said, sizeof said);
            bool same = s->slide == n->slide && s->round == n->round;
            /* the block's fields replace those shown; the connection's buffer stays */
            memcpy(n->in, s->in, s->inlen);
            n->inlen = s->inlen;
            n->next = NULL;
            *s = *n;
            free(n);
            memcpy(s->user, user, sizeof user);
            if (same) {   /* the same round: what the room said last still holds */
                memcpy(s->said, said, sizeof said);
                s->said_error = err;
            }
            return 1;
        }
        return 0;
    }
    if (strcmp(line, "WELCOME") == 0) {
        const char *u = strchr(arg, ' ');
        keep(s->user, sizeof s->user, u ? u + 1 : "");
        return 1;
    }
    if (strcmp(line, "OK") == 0) {
        int k, r, used = 0;
        if (sscanf(arg, "%d %d %n", &k, &r, &used) == 2 && used && k == s->slide && r == s->round) {
            keep(s->yours, sizeof s->yours, arg + used);
            text_fit(s->said, sizeof s->said, "your vote counts: %s", arg + used);
            s->said_error = false;
        }
        return 1;
    }
    if (strcmp(line, "DONE") == 0) {
        int k, used = 0;
        if (sscanf(arg, "%d %n", &k, &used) == 1 && used && k == s->slide) {
            keep(s->mine, sizeof s->mine, arg + used);
            text_fit(s->said, sizeof s->said, "your makespan counts: %s (the room replayed your picks)", arg + used);
            s->said_error = false;
        }
        return 1;
    }
    if (strcmp(line, "ERR") == 0) {
        keep(s->said, sizeof s->said, arg);
        s->said_error = true;
        return 1;
    }
    return 0;   /* PONG, and what a later version adds */
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
            int rc = take(s, s->in, cause);
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
    free(s->next);
    s->next = NULL;
}
