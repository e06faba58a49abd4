/*
 * session/room.c - the live class's room (session/room.h): the listening
 * socket, the connections and their buffers, the protocol, the rounds of
 * each slide and the votes (in memory for the projector's counts, in the
 * database for everything else).
 */
#define _GNU_SOURCE 1   /* struct ucred, SO_PEERCRED */
#include "session/room.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "model/cluster.h"
#include "session/room_challenge.h"
#include "sched/registry.h"
#include "support/diag.h"

struct client {
    unsigned long id;               /* a serial: a vote's acknowledgement finds its client by it */
    int fd;
    uid_t uid;
    char user[ROOM_USER_MAX + 1];   /* "" until HELLO */
    char in[ROOM_LINE_MAX];
    size_t inlen;
    char *out;
    size_t outlen, outcap;
    long long since;                /* connected (ms) */
    double tokens;                  /* the flood limit's bucket */
    long long filled;               /* when the bucket was last filled */
    bool dead;                      /* dropped: closed at the end of room_service */
};

struct play {
    char *user;
    double makespan;                /* computed by the room */
    char *picks;
};

struct vote {
    int round;
    char *user;
    char *answer;
    int choice;         /* choices: 0-based; else -1 */
    bool correct;
};

struct slide_room {
    int round;                      /* the last round; 0: none */
    enum room_round_state state;
    bool revealed;                  /* the answer was shown (even without a vote) */
    struct vote *votes;
    int nvotes, cap;
    struct cluster *c;              /* a prediction's own run (computed at its first vote) */
    struct run run;
    bool has_run;
    /* the slide's challenge: its cluster (prepared at its first c), open or not, and the results */
    struct challenge ch;
    bool ch_ready, ch_open;
    struct play *plays;
    int nplays, playcap;
    double *ms;                     /* the plays' makespans, sorted (the projector's histogram) */
};

/* A vote read, acknowledged once the batch it is in has committed. */
struct pending {
    unsigned long id;               /* its client's */
    char user[ROOM_USER_MAX + 1];
    int slide, round, choice;
    bool correct;
    char answer[ROOM_ANSWER_MAX + 1];
    char given[160];
    bool play;                      /* a challenge's result: makespan and picks, not a vote */
    double makespan;
    char picks[ROOM_PICKS_MAX + 1];
};

struct room {
    const struct lesson *l;
    char *path, *dbpath;
    bool test;
    uid_t me;
    int fd;
    struct client **cl;
    int ncl;
    struct slide_room *sl;
    int slide;
    struct room_store *st;
    struct pending *pend;           /* read, not yet handed to the writer */
    int npend, pendcap;
    char trouble[300];
    unsigned long serial;
    /* The writer thread: it commits a batch (its fsync off the projector's
     * frame) and then writes a byte to wake[1]; the loop polls wake[0] and
     * acknowledges the batch.  One batch at a time; db guards the store. */
    pthread_t writer;
    bool writer_on;
    pthread_mutex_t mu, db;
    pthread_cond_t cv;
    struct pending *batch;          /* the writer's while busy */
    int nbatch, batchcap;
    bool busy, done, quit;
    int batch_rc;
    char batch_cause[300];
    int wake[2];
};

/* ---- writing to a client ---- */

static void put(struct client *c, const char *s, size_t n)
{
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

static void say(struct client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct client *c, const char *fmt, ...)
{
    char buf[ROOM_TEXT_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof buf - 2)
        n = (int)text_cut_len(buf, sizeof buf - 2);
    buf[n++] = '\n';
    put(c, buf, (size_t)n);
}

/* What waits for c, as far as its socket takes it (a client being dropped
 * gets its last words, the refusal, when the socket has room). */
static void flush_client(struct client *c)
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

/* Lesson text as one line a client can hold: breaks and tabs become spaces,
 * anything that is not text is shown escaped (diag.h), cut to ROOM_TEXT_MAX. */
static const char *one_line(const char *s, char *buf, size_t size)
{
    char flat[ROOM_TEXT_MAX * 2];
    size_t n = 0;
    for (; s && *s && n < sizeof flat - 1; s++)
        flat[n++] = *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s;
    flat[n] = '\0';
    n = text_cut_len(flat, n);
    flat[n] = '\0';
    return diag_shown(flat, buf, size);
}

static const char *kind_word(const struct slide *s)
{
    return s->kind->name;
}

static const struct vote *vote_of(const struct slide_room *sr, int round, const char *user)
{
    for (int i = 0; i < sr->nvotes; i++)
        if (sr->votes[i].round == round && strcmp(sr->votes[i].user, user) == 0)
            return &sr->votes[i];
    return NULL;
}

static void expected_of(struct room *r, int k, char *buf, size_t size);

static const struct play *play_of(const struct slide_room *sr, const char *user)
{
    for (int i = 0; i < sr->nplays; i++)
        if (strcmp(sr->plays[i].user, user) == 0)
            return &sr->plays[i];
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A challenge's result (a second one of the user replaces the first), and the sorted makespans. */
static void remember_play(struct slide_room *sr, const char *user, double makespan, const char *picks)
{
    struct play *p = (struct play *)play_of(sr, user);
    if (!p) {
        if (sr->nplays == sr->playcap) {
            sr->playcap = sr->playcap ? 2 * sr->playcap : 64;
            sr->plays = xrealloc(sr->plays, (size_t)sr->playcap * sizeof *sr->plays);
            sr->ms = xrealloc(sr->ms, (size_t)sr->playcap * sizeof *sr->ms);
        }
        p = &sr->plays[sr->nplays++];
        *p = (struct play){xstrdup(user), 0, NULL};
    }
    free(p->picks);
    p->picks = xstrdup(picks);
    p->makespan = makespan;
    for (int i = 0; i < sr->nplays; i++)
        sr->ms[i] = sr->plays[i].makespan;
    qsort(sr->ms, (size_t)sr->nplays, sizeof *sr->ms, by_value);
}

/* The slide shown, as one client sees it (docs/class.md: the SLIDE block). */
static void send_slide(struct room *r, struct client *c)
{
    const struct slide *s = &r->l->slides[r->slide];
    const struct slide_room *sr = &r->sl[r->slide];
    char t[ROOM_TEXT_MAX + 1];
    say(c, "SLIDE %d %d %d %s %s", r->slide + 1, r->l->n, sr->round,
        sr->revealed ? "revealed" : room_round_word(sr->state), kind_word(s));
    say(c, "TITLE %s", one_line(s->title ? s->title : "", t, sizeof t));
    if (s->question)
        say(c, "QUESTION %s", one_line(s->question, t, sizeof t));
    for (int i = 0; i < s->nchoices; i++)
        say(c, "CHOICE %c %s", 'A' + i, one_line(s->choices[i], t, sizeof t));
    if (sr->ch_ready && (sr->ch_open || play_of(sr, c->user))) {
        say(c, "CHALLENGE %s %d %s", sr->ch_open ? "open" : "closed", sr->ch.c->n, sr->ch.model);
        for (const char *p = sr->ch_open ? sr->ch.csv : ""; *p;) {   /* each line within ROOM_TEXT_MAX */
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            say(c, "CSV %.*s", n, p);
            p += n + (nl != NULL);
        }
        const struct play *mine = play_of(sr, c->user);
        if (mine)
            say(c, "MINE %.17g", mine->makespan);
    }
    const struct vote *v = sr->round ? vote_of(sr, sr->round, c->user) : NULL;
    if (v)
        say(c, "YOURS %d %s", sr->round, one_line(v->answer, t, sizeof t));
    if (sr->revealed) {
        char e[160];
        if (slide_gradable(s)) {
            expected_of(r, r->slide, e, sizeof e);
            say(c, "EXPECTED %s", one_line(e, t, sizeof t));
        }
        if (s->answer)
            say(c, "EXPLAIN %s", one_line(s->answer, t, sizeof t));
        if (v)
            say(c, "RESULT %s", v->correct ? "right" : "wrong");
    }
    say(c, "END");
}

static void broadcast_slide(struct room *r)
{
    for (int i = 0; i < r->ncl; i++)
        if (r->cl[i]->user[0])
            send_slide(r, r->cl[i]);
}

/* ---- the slide's own run, for predictions ---- */

static const struct run *run_of(struct room *r, int k, char **cause)
{
    struct slide_room *sr = &r->sl[k];
    if (sr->has_run)
        return &sr->run;
    const struct slide *s = &r->l->slides[k];
    if (!s->kind->predicts)
        return NULL;
    struct session_opts o;
    lesson_session(r->l, k, &o);
    struct diag warn;
    diag_init(&warn);
    struct cluster *c = session_load(&o, &warn, cause);
    diag_free(&warn);
    if (!c)
        return NULL;
    enum model m;
    const struct sched_ops *ops = NULL;
    if (session_model(&o, c, &m, cause) == 0)
        ops = s->nsched ? session_sched(s->sched[0], cause) : sched_default(c, m);
    if (!ops || sched_check(ops, c, m, cause) < 0 ||
        session_run(&sr->run, &o, c, m, ops, false, RUN_OPT_SMALL, cause) < 0) {
        cluster_free(c);
        return NULL;
    }
    sr->c = c;
    sr->has_run = true;
    return &sr->run;
}

static void expected_of(struct room *r, int k, char *buf, size_t size)
{
    char *cause = NULL;
    const struct run *run = run_of(r, k, &cause);
    free(cause);
    lesson_expected(&r->l->slides[k], run, buf, size);
}

/* ---- votes in memory ---- */

static void remember(struct slide_room *sr, int round, const char *user, const char *answer, int choice,
                     bool correct)
{
    for (int i = 0; i < sr->nvotes; i++) {
        struct vote *v = &sr->votes[i];
        if (v->round == round && strcmp(v->user, user) == 0) {   /* a second vote replaces the first */
            free(v->answer);
            v->answer = xstrdup(answer);
            v->choice = choice;
            v->correct = correct;
            return;
        }
    }
    if (sr->nvotes == sr->cap) {
        sr->cap = sr->cap ? 2 * sr->cap : 64;
        sr->votes = xrealloc(sr->votes, (size_t)sr->cap * sizeof *sr->votes);
    }
    sr->votes[sr->nvotes++] = (struct vote){round, xstrdup(user), xstrdup(answer), choice, correct};
}

static int choice_of(const struct slide *s, const char *answer)
{
    if (!s->nchoices || !answer[0] || answer[1])
        return -1;
    int k = answer[0] >= 'a' && answer[0] <= 'h' ? answer[0] - 'a' : answer[0] - 'A';
    return k >= 0 && k < s->nchoices ? k : -1;
}

static void loaded_round(void *ctx, int slide, int round, enum room_round_state state)
{
    struct room *r = ctx;
    if (slide < 1 || slide > r->l->n || round < 1)
        return;   /* the lesson has fewer slides now */
    struct slide_room *sr = &r->sl[slide - 1];
    if (round >= sr->round) {
        sr->round = round;
        sr->state = state;
        sr->revealed = state == ROUND_REVEALED;
    }
}

static void loaded_play(void *ctx, int slide, const char *user, double makespan, const char *picks)
{
    struct room *r = ctx;
    if (slide >= 1 && slide <= r->l->n && makespan >= 0)
        remember_play(&r->sl[slide - 1], user, makespan, picks);
}

static void loaded_challenge(void *ctx, int slide, bool open)
{
    struct room *r = ctx;
    if (slide >= 1 && slide <= r->l->n)
        r->sl[slide - 1].ch_open = open;   /* prepared when the room has opened */
}

static void loaded_vote(void *ctx, int slide, int round, const char *user, const char *answer, bool correct)
{
    struct room *r = ctx;
    if (slide < 1 || slide > r->l->n || round < 1)
        return;
    remember(&r->sl[slide - 1], round, user, answer, choice_of(&r->l->slides[slide - 1], answer), correct);
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

/* The file name of path, for the default course. */
static const char *base_of(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

static void *writer_main(void *arg);

int room_open(struct room **out, const struct room_opts *o, const struct lesson *l, char **cause)
{
    *out = NULL;
    const char *course = o->course ? o->course : base_of(o->path);
    if (!course[0] || text_flaw(course) || strlen(course) > 64)
        return set_cause(cause, "--course: a course's name is text of 1 to 64 bytes");
    struct room *r = xcalloc(1, sizeof *r);
    r->l = l;
    r->fd = -1;
    r->test = o->test;
    r->me = geteuid();
    r->path = xstrdup(o->path);
    r->dbpath = o->db ? xstrdup(o->db) : xasprintf("%s.db", o->path);
    r->sl = xcalloc((size_t)l->n, sizeof *r->sl);
    char lesson[200];
    SHOWN(base_of(l->path), lesson);
    struct room_store_cb cb = {r, loaded_round, loaded_vote, loaded_play, loaded_challenge};
    r->wake[0] = r->wake[1] = -1;
    pthread_mutex_init(&r->mu, NULL);
    pthread_mutex_init(&r->db, NULL);
    pthread_cond_init(&r->cv, NULL);
    if (room_store_open(&r->st, r->dbpath, course, lesson, cause) < 0 ||
        room_store_load(r->st, &cb, cause) < 0 || (r->fd = make_socket(r->path, cause)) < 0) {
        if (r->fd < 0) {   /* the socket is not ours: leave it */
            free(r->path);
            r->path = NULL;
        }
        room_close(r);
        return -1;
    }
    if (pipe2(r->wake, O_NONBLOCK | O_CLOEXEC) != 0 || pthread_create(&r->writer, NULL, writer_main, r) != 0) {
        set_cause(cause, "cannot start the room's writer: %s", strerror(errno));
        room_close(r);
        return -1;
    }
    r->writer_on = true;
    for (int k = 0; k < l->n; k++) {   /* challenges came back: open again, fnf and the optimum marked */
        struct slide_room *sr = &r->sl[k];
        char *why = NULL;
        if ((sr->nplays || sr->ch_open) && challenge_prepare(&sr->ch, l, k, &why) == 0)
            sr->ch_ready = true;
        sr->ch_open = sr->ch_open && sr->ch_ready;   /* the slide cannot be one any more: closed */
        free(why);
    }
    *out = r;
    return 0;
}

static void drop(struct client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->out);
    free(c);
}

void room_close(struct room *r)
{
    if (!r)
        return;
    if (r->writer_on) {   /* the batch being written is finished first */
        pthread_mutex_lock(&r->mu);
        r->quit = true;
        pthread_cond_signal(&r->cv);
        pthread_mutex_unlock(&r->mu);
        pthread_join(r->writer, NULL);
    }
    if (r->wake[0] >= 0) {
        close(r->wake[0]);
        close(r->wake[1]);
    }
    pthread_mutex_destroy(&r->mu);
    pthread_mutex_destroy(&r->db);
    pthread_cond_destroy(&r->cv);
    for (int i = 0; i < r->ncl; i++) {
        flush_client(r->cl[i]);
        drop(r->cl[i]);
    }
    free(r->cl);
    if (r->fd >= 0) {
        close(r->fd);
        unlink(r->path);
    }
    for (int k = 0; k < r->l->n; k++) {
        struct slide_room *sr = &r->sl[k];
        for (int i = 0; i < sr->nvotes; i++) {
            free(sr->votes[i].user);
            free(sr->votes[i].answer);
        }
        free(sr->votes);
        if (sr->has_run) {
            run_free(&sr->run);
            cluster_free(sr->c);
        }
        for (int i = 0; i < sr->nplays; i++) {
            free(sr->plays[i].user);
            free(sr->plays[i].picks);
        }
        free(sr->plays);
        free(sr->ms);
        if (sr->ch_ready)
            challenge_free(&sr->ch);
    }
    free(r->sl);
    free(r->pend);
    free(r->batch);
    room_store_close(r->st);
    free(r->path);
    free(r->dbpath);
    free(r);
}

const char *room_path(const struct room *r)
{
    return r->path;
}

const char *room_trouble(struct room *r)
{
    if (!r->trouble[0])
        return NULL;
    static char shown[sizeof r->trouble];
    memcpy(shown, r->trouble, sizeof shown);
    r->trouble[0] = '\0';
    return shown;
}

/* ---- the loop's side ---- */

int room_pollfds(const struct room *r, struct pollfd *fds, int max)
{
    int n = 0;
    if (max < 2)
        return 0;
    fds[n++] = (struct pollfd){r->fd, POLLIN, 0};
    fds[n++] = (struct pollfd){r->wake[0], POLLIN, 0};   /* the writer's batch committed */
    for (int i = 0; i < r->ncl && n < max; i++)
        fds[n++] = (struct pollfd){r->cl[i]->fd, (short)(POLLIN | (r->cl[i]->outlen ? POLLOUT : 0)), 0};
    return n;
}

int room_timeout(const struct room *r, long long now)
{
    long long next = -1;
    for (int i = 0; i < r->ncl; i++)
        if (!r->cl[i]->user[0]) {
            long long due = r->cl[i]->since + ROOM_HELLO_MS;
            if (next < 0 || due < next)
                next = due;
        }
    return next < 0 ? -1 : next <= now ? 0 : (int)(next - now);
}

static void accept_all(struct room *r, long long now)
{
    for (;;) {
        int fd = accept4(r->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;   /* EAGAIN, or a connection that went away: nothing to do */
        struct ucred cr;
        socklen_t len = sizeof cr;
        if (r->ncl >= ROOM_CLIENTS_MAX || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0) {
            static const char full[] = "ERR the room is full\n";
            ssize_t w = send(fd, full, sizeof full - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            (void)w;
            close(fd);
            continue;
        }
        struct client *c = xcalloc(1, sizeof *c);
        c->fd = fd;
        c->id = ++r->serial;
        c->uid = cr.uid;
        c->since = c->filled = now;
        c->tokens = 2 * ROOM_RATE;
        r->cl = xrealloc(r->cl, (size_t)(r->ncl + 1) * sizeof *r->cl);
        r->cl[r->ncl++] = c;
    }
}

/* The user of uid as the password database names it (text, no blank), or "uid-N". */
static void user_of(uid_t uid, char *buf, size_t size)
{
    struct passwd pw, *res = NULL;
    char tmp[4096];
    if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &res) == 0 && res && res->pw_name && res->pw_name[0] &&
        !text_flaw(res->pw_name) && strlen(res->pw_name) <= ROOM_USER_MAX && !strpbrk(res->pw_name, " \t"))
        text_fit(buf, size, "%s", res->pw_name);
    else
        text_fit(buf, size, "uid-%lu", (unsigned long)uid);
}

/* A test name: letters, digits, '.', '_' and '-', 1 to ROOM_USER_MAX bytes. */
static bool test_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > ROOM_USER_MAX)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-'))
            return false;
    return true;
}

static void hello(struct room *r, struct client *c, const char *args)
{
    char *end;
    long v = strtol(args, &end, 10);
    if (end == args || v != ROOM_PROTO || (*end && *end != ' ')) {
        say(c, "ERR this room speaks protocol %d: say HELLO %d", ROOM_PROTO, ROOM_PROTO);
        c->dead = true;
        return;
    }
    if (*end == ' ') {
        if (strncmp(end, " AS ", 4) != 0 || !test_name(end + 4)) {
            say(c, "ERR HELLO %d takes nothing more (HELLO %d AS NAME: test rooms only)", ROOM_PROTO, ROOM_PROTO);
            c->dead = true;
            return;
        }
        if (!r->test || c->uid != r->me) {
            say(c, "ERR HELLO AS: only a test room takes it, from its own user; you are who you logged in as");
            c->dead = true;
            return;
        }
        text_fit(c->user, sizeof c->user, "%s", end + 4);
    } else {
        user_of(c->uid, c->user, sizeof c->user);
    }
    say(c, "WELCOME %d %s", ROOM_PROTO, c->user);
    send_slide(r, c);
}

static struct pending *add_pending(struct room *r)
{
    if (r->npend == r->pendcap) {
        r->pendcap = r->pendcap ? 2 * r->pendcap : 64;
        r->pend = xrealloc(r->pend, (size_t)r->pendcap * sizeof *r->pend);
    }
    return &r->pend[r->npend++];
}

static void vote(struct room *r, struct client *c, const char *args)
{
    int slide, round, used = 0;
    if (sscanf(args, "%d %d %n", &slide, &round, &used) != 2 || used == 0 || !args[used]) {
        say(c, "ERR write VOTE SLIDE ROUND ANSWER");
        return;
    }
    const char *answer = args + used;
    const struct slide_room *sr = &r->sl[r->slide];
    if (slide != r->slide + 1 || round != sr->round || sr->state != ROUND_OPEN || sr->revealed) {
        if (sr->state == ROUND_OPEN && !sr->revealed)
            say(c, "ERR slide %d round %d is not open: the vote open is slide %d round %d", slide, round,
                r->slide + 1, sr->round);
        else
            say(c, "ERR slide %d round %d is not open: no vote is open now", slide, round);
        return;
    }
    if (strlen(answer) > ROOM_ANSWER_MAX) {
        say(c, "ERR an answer holds at most %d bytes", ROOM_ANSWER_MAX);
        return;
    }
    const struct slide *s = &r->l->slides[r->slide];
    int choice = choice_of(s, answer);
    if (s->nchoices && choice < 0) {
        say(c, "ERR answer with a letter from A to %c", 'A' + s->nchoices - 1);
        return;
    }
    char *cause = NULL;
    const struct run *run = run_of(r, r->slide, &cause);
    struct lesson_grade g;
    if ((s->kind->predicts && !run) || lesson_grade(s, run, answer, &g, &cause) < 0) {
        char t[ROOM_TEXT_MAX + 1];
        say(c, "ERR %s", one_line(cause ? cause : "the answer cannot be graded", t, sizeof t));
        free(cause);
        return;
    }
    free(cause);
    struct pending *p = add_pending(r);
    p->play = false;
    p->id = c->id;
    memcpy(p->user, c->user, sizeof p->user);
    p->slide = r->slide;
    p->round = round;
    p->choice = choice;
    p->correct = g.correct;
    text_fit(p->answer, sizeof p->answer, "%s", choice >= 0 ? (char[]){(char)('A' + choice), 0} : answer);
    text_fit(p->given, sizeof p->given, "%s", g.given);
}

/* PLAY SLIDE PICKS: the room replays the picks on its own cluster and keeps the makespan it finds. */
static void play(struct room *r, struct client *c, const char *args)
{
    int slide, used = 0;
    if (sscanf(args, "%d %n", &slide, &used) != 1 || used == 0) {
        say(c, "ERR write PLAY SLIDE PICKS (PICKS: F>T F>T ..., node numbers)");
        return;
    }
    const struct slide_room *sr = &r->sl[r->slide];
    if (slide != r->slide + 1 || !sr->ch_open) {
        say(c, "ERR slide %d has no challenge open%s", slide, sr->ch_open ? ": the one open is on the slide shown"
            : "");
        return;
    }
    char *cause = NULL, canon[ROOM_PICKS_MAX + 1];
    double makespan;
    if (challenge_replay(&sr->ch, args + used, &makespan, canon, sizeof canon, &cause) < 0) {
        char t[ROOM_TEXT_MAX + 1];
        say(c, "ERR %s", one_line(cause ? cause : "the picks cannot be replayed", t, sizeof t));
        free(cause);
        return;
    }
    struct pending *p = add_pending(r);
    memset(p, 0, sizeof *p);
    p->id = c->id;
    memcpy(p->user, c->user, sizeof p->user);
    p->slide = r->slide;
    p->play = true;
    p->makespan = makespan;
    memcpy(p->picks, canon, sizeof p->picks);
}

/* One line from c (its newline removed). */
static void line(struct room *r, struct client *c, char *s)
{
    size_t n = strlen(s);
    if (n && s[n - 1] == '\r')
        s[--n] = '\0';
    if (memchr(s, '\0', n) || text_flaw(s)) {
        say(c, "ERR a line is UTF-8 text without control characters");
        return;
    }
    if (!c->user[0]) {
        if (strncmp(s, "HELLO ", 6) == 0)
            hello(r, c, s + 6);
        else {
            say(c, "ERR say HELLO %d first", ROOM_PROTO);
            c->dead = true;
        }
    } else if (strncmp(s, "VOTE ", 5) == 0) {
        vote(r, c, s + 5);
    } else if (strncmp(s, "PLAY ", 5) == 0) {
        play(r, c, s + 5);
    } else if (strcmp(s, "BYE") == 0) {
        flush_client(c);
        c->dead = true;
    } else if (strcmp(s, "PING") == 0) {
        say(c, "PONG");
    } else {
        char t[64];
        say(c, "ERR unknown message \"%s\": HELLO, VOTE, PLAY, PING or BYE", diag_shown(s, t, sizeof t));
    }
}

static void read_client(struct room *r, struct client *c, long long now)
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
            /* the flood limit: a bucket of 2 * ROOM_RATE lines, ROOM_RATE a second */
            c->tokens += (double)(now - c->filled) * ROOM_RATE / 1000.0;
            c->filled = now;
            if (c->tokens > 2 * ROOM_RATE)
                c->tokens = 2 * ROOM_RATE;
            if (c->tokens < 1) {
                say(c, "ERR too many messages: at most %d a second", ROOM_RATE);
                c->dead = true;
                return;
            }
            c->tokens -= 1;
            *nl = '\0';
            line(r, c, c->in);
            size_t used = (size_t)(nl - c->in) + 1;
            memmove(c->in, c->in + used, c->inlen - used);
            c->inlen -= used;
        }
        if (c->inlen == sizeof c->in) {
            say(c, "ERR a line holds at most %d bytes", ROOM_LINE_MAX);
            c->dead = true;
        }
    }
}

/* The writer thread: each batch in one transaction, then the loop woken. */
static void *writer_main(void *arg)
{
    struct room *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!(r->busy && !r->done) && !r->quit)
            pthread_cond_wait(&r->cv, &r->mu);
        if (!(r->busy && !r->done))
            break;   /* quit, nothing left to write */
        pthread_mutex_unlock(&r->mu);
        char *cause = NULL;
        pthread_mutex_lock(&r->db);
        int rc = room_store_begin(r->st, &cause);
        for (int i = 0; i < r->nbatch && rc == 0; i++) {
            struct pending *p = &r->batch[i];
            rc = p->play ? room_store_play(r->st, p->slide + 1, p->user, p->makespan, p->picks, &cause)
                         : room_store_vote(r->st, p->slide + 1, p->round, p->user, p->answer, p->correct, &cause);
        }
        if (rc == 0)
            rc = room_store_commit(r->st, &cause);
        else
            room_store_rollback(r->st);
        pthread_mutex_unlock(&r->db);
        pthread_mutex_lock(&r->mu);
        r->batch_rc = rc;
        text_fit(r->batch_cause, sizeof r->batch_cause, "%s", cause ? cause : "the database failed");
        free(cause);
        r->done = true;
        char one = 1;
        ssize_t w = write(r->wake[1], &one, 1);
        (void)w;
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static struct client *client_by_id(struct room *r, unsigned long id)
{
    for (int i = 0; i < r->ncl; i++)
        if (r->cl[i]->id == id)
            return r->cl[i];
    return NULL;   /* gone: its vote is in the database all the same */
}

/* A committed batch acknowledged (or refused, when it failed), then the
 * votes read meanwhile handed to the writer.  True when the tally changed. */
static bool pass_votes(struct room *r)
{
    bool changed = false;
    pthread_mutex_lock(&r->mu);
    if (r->busy && r->done) {
        char buf[64];
        while (read(r->wake[0], buf, sizeof buf) > 0)
            ;
        for (int i = 0; i < r->nbatch; i++) {
            struct pending *p = &r->batch[i];
            struct client *c = client_by_id(r, p->id);
            if (r->batch_rc != 0) {
                if (c)
                    say(c, "ERR the %s was not saved: try again", p->play ? "result" : "vote");
                continue;
            }
            if (p->play) {
                remember_play(&r->sl[p->slide], p->user, p->makespan, p->picks);
                if (c)
                    say(c, "DONE %d %.17g", p->slide + 1, p->makespan);
                continue;
            }
            remember(&r->sl[p->slide], p->round, p->user, p->answer, p->choice, p->correct);
            char t[ROOM_TEXT_MAX + 1];
            if (c)
                say(c, "OK %d %d %s", p->slide + 1, p->round, one_line(p->given, t, sizeof t));
        }
        if (r->batch_rc != 0)
            text_fit(r->trouble, sizeof r->trouble, "%s", r->batch_cause);
        changed = r->batch_rc == 0 && r->nbatch > 0;
        r->busy = r->done = false;
        r->nbatch = 0;
    }
    if (!r->busy && r->npend) {   /* swap: the read votes become the batch */
        struct pending *t = r->batch;
        int cap = r->batchcap;
        r->batch = r->pend;
        r->batchcap = r->pendcap;
        r->nbatch = r->npend;
        r->pend = t;
        r->pendcap = cap;
        r->npend = 0;
        r->busy = true;
        pthread_cond_signal(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
    return changed;
}

bool room_service(struct room *r, const struct pollfd *fds, int n, long long now)
{
    int before = r->ncl;
    bool changed = pass_votes(r);   /* the writer's batch done: acknowledged first */
    if (n > 0 && fds[0].revents & POLLIN)
        accept_all(r, now);
    /* fds[2..] are the clients room_pollfds listed, in order; new ones are read next time */
    for (int i = 2; i < n && i - 2 < before; i++) {
        struct client *c = r->cl[i - 2];
        if (fds[i].fd != c->fd)
            continue;
        bool had = c->user[0] != '\0';
        if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
            read_client(r, c, now);
        if (!had && c->user[0])
            changed = true;
    }
    if (pass_votes(r))   /* the votes just read go to the writer (if it is free) */
        changed = true;
    int k = 0;
    for (int i = 0; i < r->ncl; i++) {
        struct client *c = r->cl[i];
        if (!c->user[0] && now - c->since >= ROOM_HELLO_MS) {
            say(c, "ERR nothing said in %d s: say HELLO %d", ROOM_HELLO_MS / 1000, ROOM_PROTO);
            c->dead = true;
        }
        flush_client(c);
        if (c->dead) {
            changed |= c->user[0] != '\0';
            drop(c);
        } else {
            r->cl[k++] = c;
        }
    }
    r->ncl = k;
    return changed;
}

/* ---- the instructor's side ---- */

void room_follow(struct room *r, int k)
{
    if (k < 0 || k >= r->l->n || k == r->slide)
        return;
    r->slide = k;
    broadcast_slide(r);
}

static int write_round(struct room *r, int round, enum room_round_state state, char **cause)
{
    char q[ROOM_TEXT_MAX + 1], e[160];
    const struct slide *s = &r->l->slides[r->slide];
    expected_of(r, r->slide, e, sizeof e);
    return room_store_round(r->st, r->slide + 1, round, state, one_line(s->question, q, sizeof q), e, cause);
}

int room_vote(struct room *r, char **cause)
{
    const struct slide *s = &r->l->slides[r->slide];
    struct slide_room *sr = &r->sl[r->slide];
    if (!slide_gradable(s))
        return set_cause(cause, "slide %d asks nothing to vote on (no choices, no prediction)", r->slide + 1);
    if (s->kind->predicts && !run_of(r, r->slide, cause))
        return -1;
    pthread_mutex_lock(&r->db);   /* the writer may be committing votes */
    int rc = room_store_begin(r->st, cause);
    if (rc == 0 &&
        ((sr->round && sr->state == ROUND_OPEN && write_round(r, sr->round, ROUND_CLOSED, cause) < 0) ||
         write_round(r, sr->round + 1, ROUND_OPEN, cause) < 0 || room_store_commit(r->st, cause) < 0)) {
        room_store_rollback(r->st);
        rc = -1;
    }
    pthread_mutex_unlock(&r->db);
    if (rc < 0)
        return -1;
    sr->round++;
    sr->state = ROUND_OPEN;
    sr->revealed = false;
    broadcast_slide(r);
    return 0;
}

int room_reveal(struct room *r, char **cause)
{
    struct slide_room *sr = &r->sl[r->slide];
    if (sr->round) {
        pthread_mutex_lock(&r->db);
        int rc = room_store_begin(r->st, cause);
        if (rc == 0 && (write_round(r, sr->round, ROUND_REVEALED, cause) < 0 ||
                        room_store_commit(r->st, cause) < 0)) {
            room_store_rollback(r->st);
            rc = -1;
        }
        pthread_mutex_unlock(&r->db);
        if (rc < 0)
            return -1;
        sr->state = ROUND_REVEALED;
    }
    sr->revealed = true;
    broadcast_slide(r);
    return 0;
}

void room_tally(const struct room *r, struct room_tally *t)
{
    memset(t, 0, sizeof *t);
    /* users, not connections: one student with two terminals is one */
    for (int i = 0; i < r->ncl; i++) {
        const char *u = r->cl[i]->user;
        if (!u[0] || r->cl[i]->dead)
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(r->cl[j]->user, u) == 0 && !r->cl[j]->dead;
        t->present += !seen;
    }
    const struct slide *s = &r->l->slides[r->slide];
    const struct slide_room *sr = &r->sl[r->slide];
    t->slide = r->slide;
    t->round = sr->round;
    t->state = sr->revealed ? ROUND_REVEALED : sr->state;
    t->choices = s->nchoices > 0;
    t->nbars = s->nchoices ? s->nchoices : 2;
    t->correct = s->nchoices ? s->correct : -1;
    for (int i = 0; i < sr->nvotes; i++) {
        const struct vote *v = &sr->votes[i];
        int side = v->round == sr->round ? 1 : v->round == sr->round - 1 ? 0 : -1;
        if (side < 0)
            continue;
        t->total[side]++;
        t->right[side] += v->correct;
        int b = s->nchoices ? v->choice : v->correct ? 0 : 1;
        if (b >= 0 && b < t->nbars)
            t->bars[side][b]++;
    }
    t->voted = t->total[1];
    t->challenge = sr->ch_open || sr->nplays > 0;
    t->ch_open = sr->ch_open;
    t->finished = sr->nplays;
    t->makespans = sr->ms;
    t->fnf = t->optimum = 0;
    t->fnf_known = t->optimum_known = false;
    if (sr->ch_ready) {
        t->fnf = sr->ch.fnf;
        t->fnf_known = true;
        t->optimum = sr->ch.optimum;
        t->optimum_known = sr->ch.optimum_known;
    }
}

int room_challenge(struct room *r, char **cause)
{
    struct slide_room *sr = &r->sl[r->slide];
    if (!sr->ch_open && !sr->ch_ready) {
        if (challenge_prepare(&sr->ch, r->l, r->slide, cause) < 0)
            return -1;
        sr->ch_ready = true;
    }
    pthread_mutex_lock(&r->db);   /* the writer may be committing results */
    int rc = room_store_begin(r->st, cause);
    if (rc == 0 && (room_store_challenge(r->st, r->slide + 1, !sr->ch_open, cause) < 0 ||
                    room_store_commit(r->st, cause) < 0)) {
        room_store_rollback(r->st);
        rc = -1;
    }
    pthread_mutex_unlock(&r->db);
    if (rc < 0)
        return -1;
    sr->ch_open = !sr->ch_open;
    broadcast_slide(r);
    return 0;
}
