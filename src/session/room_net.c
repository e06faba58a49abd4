/*
 * session/room_net.c - a live class's transport (session/room_net.h).
 */
#define _GNU_SOURCE 1   /* struct ucred, SO_PEERCRED, accept4 */
#include "session/room_net.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "support/diag.h"

/* ---- writing to a connection ---- */

/* A line for c (room_out's put): buffered, or c dropped when it does not read. */
static void put(void *ctx, const char *s, size_t n)
{
    struct room_conn *c = ctx;
    if (c->dead)
        return;
    if (c->outlen + n > ROOM_OUT_MAX) {   /* it does not read: drop it rather than wait */
        c->dead = true;
        return;
    }
    if (c->outlen + n > c->outcap) {
        c->outcap = c->outlen + n + 1024;
        c->out = xrealloc(c->out, c->outcap);
    }
    memcpy(c->out + c->outlen, s, n);
    c->outlen += n;
}

/* (a connection being dropped gets its last words, the refusal, when the socket has room) */
void room_net_flush(struct room_conn *c)
{
    while (c->outlen) {
        ssize_t w = send(c->fd, c->out, c->outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                c->dead = true;
                c->outlen = 0;
            }
            return;
        }
        memmove(c->out, c->out + w, c->outlen - (size_t)w);
        c->outlen -= (size_t)w;
    }
}

/* ---- opening ---- */

/* The socket at path: a stale one (nobody answers) is removed, a live room or another file refused. */
static int make_socket(const char *path, char **cause)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path)
        return set_cause(cause, "%s: a socket's path holds at most %zu bytes", path, sizeof a.sun_path - 1);
    memcpy(a.sun_path, path, strlen(path) + 1);
    struct stat sb;
    if (lstat(path, &sb) == 0) {
        if (!S_ISSOCK(sb.st_mode))
            return set_cause(cause, "%s: exists and is not a socket: choose another path for the room", path);
        int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (probe >= 0 && connect(probe, (struct sockaddr *)&a, sizeof a) == 0) {
            close(probe);
            return set_cause(cause, "%s: a room is open there already", path);
        }
        if (probe >= 0)
            close(probe);
        if (unlink(path) != 0)
            return set_cause(cause, "%s: cannot remove the old socket: %s", path, strerror(errno));
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return set_cause(cause, "socket: %s", strerror(errno));
    mode_t old = umask(0117);   /* rw for the user and the group, nothing for others */
    int rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (rc != 0 || listen(fd, 128) != 0) {
        set_cause(cause, "%s: cannot open the room: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* The descriptors the process may open: the soft limit, raised to the hard one first. */
static long open_max(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return ROOM_CLIENTS_MAX + ROOM_FD_SPARE;
    if (rl.rlim_cur < rl.rlim_max) {
        struct rlimit up = {rl.rlim_max, rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &up) == 0)
            rl.rlim_cur = rl.rlim_max;
    }
    return rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)1 << 30 ? 1L << 30 : (long)rl.rlim_cur;
}

int room_net_open(struct room_net *net, const char *path, char **cause)
{
    memset(net, 0, sizeof *net);
    net->spare = -1;
    long max = open_max();
    long n = max - ROOM_FD_SPARE;
    net->clients_max = n > ROOM_CLIENTS_MAX ? ROOM_CLIENTS_MAX : n < 0 ? 0 : (int)n;
    if (net->clients_max < 1) {
        net->fd = -1;
        return set_cause(cause, "the descriptor limit leaves no room for students (ulimit -n is %ld; the room "
                         "needs %d more than its students)", max, ROOM_FD_SPARE);
    }
    if ((net->fd = make_socket(path, cause)) < 0)
        return -1;
    net->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (net->spare < 0)
        return set_cause(cause, "cannot hold a spare descriptor: %s", strerror(errno));
    return 0;
}

static void drop(struct room_conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->out);
    free(c);
}

void room_net_close(struct room_net *net, const char *path)
{
    for (int i = 0; i < net->ncl; i++) {
        room_net_flush(net->cl[i]);
        drop(net->cl[i]);
    }
    free(net->cl);
    net->cl = NULL;
    net->ncl = 0;
    if (net->spare >= 0)
        close(net->spare);
    if (net->fd >= 0) {
        close(net->fd);
        if (path)
            unlink(path);
    }
    net->fd = net->spare = -1;
}

/* ---- connections ---- */

/* Refuse a connection: its one line, then closed. */
static void refuse(int fd)
{
    ssize_t w = send(fd, ROOM_PROTO_FULL, strlen(ROOM_PROTO_FULL), MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;
    close(fd);
}

/* Out of descriptors all the same (the view opened files meanwhile): the
 * spare one is freed to take the connection and refuse it, so it does not
 * wait in the queue with the socket readable for ever (a busy loop). */
static bool refuse_without_fd(struct room_net *net)
{
    if (net->spare < 0)
        return false;
    close(net->spare);
    int fd = accept4(net->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0)
        refuse(fd);
    net->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
    return fd >= 0;
}

void room_net_accept(struct room_net *net, long long now)
{
    for (;;) {
        int fd = accept4(net->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if ((errno == EMFILE || errno == ENFILE) && refuse_without_fd(net))
                continue;
            return;   /* EAGAIN, or a connection that went away: nothing to do */
        }
        struct ucred cr;
        socklen_t len = sizeof cr;
        if (net->ncl >= net->clients_max || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0) {
            refuse(fd);
            continue;
        }
        struct room_conn *c = xcalloc(1, sizeof *c);
        c->fd = fd;
        c->id = ++net->serial;
        c->uid = cr.uid;
        c->say = (struct room_out){put, c};
        c->since = c->filled = now;
        c->tokens = 2 * ROOM_RATE;
        net->cl = xrealloc(net->cl, (size_t)(net->ncl + 1) * sizeof *net->cl);
        net->cl[net->ncl++] = c;
    }
}

/* The flood limit: a bucket of 2 * ROOM_RATE lines, ROOM_RATE a second.  False: c floods. */
static bool take_token(struct room_conn *c, long long now)
{
    c->tokens += (double)(now - c->filled) * ROOM_RATE / 1000.0;
    c->filled = now;
    if (c->tokens > 2 * ROOM_RATE)
        c->tokens = 2 * ROOM_RATE;
    if (c->tokens < 1)
        return false;
    c->tokens -= 1;
    return true;
}

void room_net_read(struct room_conn *c, long long now,
                   void (*line)(void *ctx, struct room_conn *c, char *s, size_t n), void *ctx)
{
    size_t budget = ROOM_READ_MAX;
    while (!c->dead && budget > 0) {
        size_t want = sizeof c->in - c->inlen;
        if (want > budget)
            want = budget;
        ssize_t got = recv(c->fd, c->in + c->inlen, want, MSG_DONTWAIT);
        if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
            c->dead = true;   /* gone; its votes stay */
            return;
        }
        if (got < 0)
            return;
        budget -= (size_t)got;
        c->inlen += (size_t)got;
        char *nl;
        while (!c->dead && (nl = memchr(c->in, '\n', c->inlen)) != NULL) {
            if (!take_token(c, now)) {
                room_proto_err(&c->say, "too many messages: at most %d a second", ROOM_RATE);
                c->dead = true;
                return;
            }
            *nl = '\0';
            line(ctx, c, c->in, (size_t)(nl - c->in));
            size_t used = (size_t)(nl - c->in) + 1;
            memmove(c->in, c->in + used, c->inlen - used);
            c->inlen -= used;
        }
        if (c->inlen == sizeof c->in) {
            room_proto_err(&c->say, "a line holds at most %d bytes", ROOM_LINE_MAX);
            c->dead = true;
        }
    }
}

bool room_net_sweep(struct room_net *net)
{
    bool left = false;
    int k = 0;
    for (int i = 0; i < net->ncl; i++) {
        struct room_conn *c = net->cl[i];
        room_net_flush(c);
        if (c->dead) {
            left |= c->user[0] != '\0';
            drop(c);
        } else {
            net->cl[k++] = c;
        }
    }
    net->ncl = k;
    return left;
}

int room_net_pollfds(const struct room_net *net, struct pollfd *fds, int max)
{
    int n = 0;
    for (int i = 0; i < net->ncl && n < max; i++)
        fds[n++] = (struct pollfd){net->cl[i]->fd, (short)(POLLIN | (net->cl[i]->outlen ? POLLOUT : 0)), 0};
    return n;
}

struct room_conn *room_net_find(const struct room_net *net, unsigned long id)
{
    for (int i = 0; i < net->ncl; i++)
        if (net->cl[i]->id == id)
            return net->cl[i];
    return NULL;   /* gone: its vote is in the database all the same */
}
