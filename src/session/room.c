/*
 * session/room.c - the live class's room (session/room.h): the rounds of
 * each slide and the votes (in memory for the projector's counts, in the
 * database for everything else), the challenges' results, and what each
 * client's line asks of them.  The socket and the connections are
 * session/room_net.c's, the lines themselves session/room_proto.c's.
 */
#define _GNU_SOURCE 1   /* pipe2 */
#include "session/room.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cluster.h"
#include "session/instance.h"
#include "session/room_challenge.h"
#include "sched/registry.h"
#include "support/diag.h"

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

/* A student's own random instance of a slide (room_instances). */
struct user_inst {
    char *user;
    struct instance in;
    bool ok;                        /* drawn (else: none could be, the slide's own is shown) */
    bool stored;                    /* written to the grade book */
};

struct slide_room {
    int round;                      /* the last round; 0: none */
    enum room_round_state state;
    bool revealed;                  /* the answer was shown (even without a vote) */
    struct vote *votes;
    int nvotes, cap;
    struct cluster *c;              /* a prediction's own run (computed at its first vote) */
    struct cluster *table;          /* the slide's cluster for the students' node table (loaded once) */
    bool table_tried;
    struct run run;
    bool has_run;
    /* the slide's challenge: its cluster (prepared at its first c), open or not, and the results */
    struct challenge ch;
    bool ch_ready, ch_open;
    bool ch_nohints;                /* opened without hints (C): no best reachable, no optimum shown
                                       until the answer is revealed (room_reveal clears it) */
    struct play *plays;
    int nplays, playcap;
    double *ms;                     /* the plays' makespans, sorted (the projector's histogram) */
    /* every student their own instance (room_instances): drawn at the first need, kept */
    bool inst_on;
    struct user_inst **insts;      /* each allocated: an instance never moves (its run points into it) */
    int ninsts, instcap;
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

/* A user id and the name the room gave it: one name a uid for the room's life. */
struct named {
    uid_t uid;
    char user[ROOM_USER_MAX + 1];
};

struct room {
    const struct lesson *l;
    char *path, *dbpath;
    bool test;
    uid_t me;
    struct room_net net;            /* the socket and the connections */
    struct named *names;
    int nnames;
    struct slide_room *sl;
    int slide;
    struct room_store *st;
    struct pending *pend;           /* read, not yet handed to the writer */
    int npend, pendcap;
    char trouble[300];
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
static const struct cluster *table_of(struct room *r, int k);

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

/* The seed of user's instance of slide k: FNV-1a of the name, then the slide; 1 to 10^6. */
static int instance_seed(const char *user, int k)
{
    unsigned long long h = 1469598103934665603ull;
    for (const char *p = user; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ (unsigned)k) * 1099511628211ull;
    return 1 + (int)(h % 1000000);
}

/* user's own instance of slide k, drawn at the first need; NULL when the slide's instances are
 * off or none could be drawn (the student then sees the slide's own cluster). */
static const struct instance *instance_for(struct room *r, int k, const char *user)
{
    struct slide_room *sr = &r->sl[k];
    if (!sr->inst_on)
        return NULL;
    for (int i = 0; i < sr->ninsts; i++)
        if (strcmp(sr->insts[i]->user, user) == 0)
            return sr->insts[i]->ok ? &sr->insts[i]->in : NULL;
    if (sr->ninsts == sr->instcap) {
        sr->instcap = sr->instcap ? 2 * sr->instcap : 64;
        sr->insts = xrealloc(sr->insts, (size_t)sr->instcap * sizeof *sr->insts);
    }
    struct user_inst *u = xcalloc(1, sizeof *u);
    sr->insts[sr->ninsts++] = u;
    u->user = xstrdup(user);
    char *cause = NULL;
    u->ok = instance_make(r->l, k, instance_seed(user, k), NULL, &u->in, &cause) == 0;
    if (!u->ok)
        text_fit(r->trouble, sizeof r->trouble, "%s's instance: %s", user, cause ? cause : "none drawn");
    free(cause);
    return u->ok ? &u->in : NULL;
}

/* The instances drawn and not yet in the grade book, written in one transaction. */
static void store_instances(struct room *r, int k)
{
    struct slide_room *sr = &r->sl[k];
    char *cause = NULL;
    bool any = false;
    for (int i = 0; i < sr->ninsts && !any; i++)
        any = sr->insts[i]->ok && !sr->insts[i]->stored;
    if (!any)
        return;
    pthread_mutex_lock(&r->db);   /* the writer may be committing votes */
    int rc = room_store_begin(r->st, &cause);
    for (int i = 0; i < sr->ninsts && rc == 0; i++) {
        struct user_inst *u = sr->insts[i];
        if (u->ok && !u->stored)
            rc = room_store_instance(r->st, k + 1, u->user, u->in.seed, u->in.csv, &cause);
    }
    if (rc == 0)
        rc = room_store_commit(r->st, &cause);
    else
        room_store_rollback(r->st);
    pthread_mutex_unlock(&r->db);
    for (int i = 0; i < sr->ninsts && rc == 0; i++)
        sr->insts[i]->stored = true;
    if (rc < 0)
        text_fit(r->trouble, sizeof r->trouble, "%s", cause ? cause : "the instances were not saved");
    free(cause);
}

/* The slide shown, as one client sees it (docs/class.md: the SLIDE block); with instances on,
 * the student's own instance: its node table, the question asked of its run, its answer. */
static void send_slide(struct room *r, struct room_conn *c)
{
    const struct slide *s = &r->l->slides[r->slide];
    const struct slide_room *sr = &r->sl[r->slide];
    const struct play *mine = play_of(sr, c->user);
    const struct vote *v = sr->round ? vote_of(sr, sr->round, c->user) : NULL;
    const struct instance *in = instance_for(r, r->slide, c->user);
    char e[160] = "", q[600], why[600], text[200];
    if (in) {
        instance_question(r->l, r->slide, in, q, sizeof q);
        instance_reason(r->l, r->slide, in, why, sizeof why);
        text_fit(text, sizeof text, "Your own random instance of this slide (seed %d): the node table below is "
                 "yours, and so is the question.", in->seed);
    }
    if (sr->revealed && slide_gradable(s) && in)
        lesson_expected(s, &in->run, e, sizeof e);
    else if (sr->revealed && slide_gradable(s))
        expected_of(r, r->slide, e, sizeof e);
    struct room_block b = {
        .slide = r->slide + 1, .nslides = r->l->n, .round = sr->round,
        .state = sr->revealed ? "revealed" : room_round_word(sr->state), .kind = kind_word(s),
        .title = s->title, .question = in ? q : s->question, .text = in ? text : s->text,
        .nodes = in ? in->c : table_of(r, r->slide),
        .choices = (const char *const *)s->choices, .nchoices = s->nchoices,
        .challenge = sr->ch_ready && (sr->ch_open || mine), .ch_open = sr->ch_open,
        .ch_nodes = sr->ch_ready ? sr->ch.c->n : 0, .ch_model = sr->ch.model, .ch_csv = sr->ch.csv,
        .ch_nohints = sr->ch_nohints,
        .mine = mine != NULL, .mine_makespan = mine ? mine->makespan : 0,
        .yours = v ? v->answer : NULL,
        .revealed = sr->revealed, .expected = slide_gradable(s) ? e : NULL,
        .explain = in ? (why[0] ? why : NULL) : s->answer,
        .result = v ? v->correct : -1,
    };
    room_proto_block(&c->say, &b);
}

static void broadcast_slide(struct room *r)
{
    for (int i = 0; i < r->net.ncl; i++)
        if (r->net.cl[i]->user[0])
            send_slide(r, r->net.cl[i]);
    store_instances(r, r->slide);
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

/* The slide's cluster, for the node table a student sees (NULL: it has none, or it does not load). */
static const struct cluster *table_of(struct room *r, int k)
{
    struct slide_room *sr = &r->sl[k];
    if (sr->has_run)
        return sr->c;
    if (!sr->table_tried) {
        sr->table_tried = true;
        struct session_opts o;
        lesson_session(r->l, k, &o);
        struct diag warn;
        diag_init(&warn);
        char *cause = NULL;
        sr->table = session_load(&o, &warn, &cause);
        diag_free(&warn);
        free(cause);
    }
    return sr->table;
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
    r->net.fd = r->net.spare = -1;
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
        room_store_load(r->st, &cb, cause) < 0 || room_net_open(&r->net, r->path, cause) < 0) {
        if (r->net.fd < 0) {   /* the socket is not ours: leave it */
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
    room_net_close(&r->net, r->path);
    free(r->names);
    for (int k = 0; k < r->l->n; k++) {
        struct slide_room *sr = &r->sl[k];
        for (int i = 0; i < sr->nvotes; i++) {
            free(sr->votes[i].user);
            free(sr->votes[i].answer);
        }
        free(sr->votes);
        cluster_free(sr->table);
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
        for (int i = 0; i < sr->ninsts; i++) {
            free(sr->insts[i]->user);
            if (sr->insts[i]->ok)
                instance_free(&sr->insts[i]->in);
            free(sr->insts[i]);
        }
        free(sr->insts);
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
    fds[n++] = (struct pollfd){r->net.fd, POLLIN, 0};
    fds[n++] = (struct pollfd){r->wake[0], POLLIN, 0};   /* the writer's batch committed */
    return n + room_net_pollfds(&r->net, fds + n, max - n);
}

int room_timeout(const struct room *r, long long now)
{
    long long next = -1;
    for (int i = 0; i < r->net.ncl; i++)
        if (!r->net.cl[i]->user[0]) {
            long long due = r->net.cl[i]->since + ROOM_HELLO_MS;
            if (next < 0 || due < next)
                next = due;
        }
    return next < 0 ? -1 : next <= now ? 0 : (int)(next - now);
}

/* The user of uid: the name the room gave it before, or the password
 * database's (text, no blank, at most ROOM_USER_MAX bytes), kept for the
 * room's life, so one uid is one student whatever its connections.  0, or
 * -1 with why it has none (the lookup failed: the connection is refused,
 * never named otherwise). */
static int user_of(struct room *r, uid_t uid, char *buf, size_t size, const char **why)
{
    for (int i = 0; i < r->nnames; i++)
        if (r->names[i].uid == uid) {
            text_fit(buf, size, "%s", r->names[i].user);
            return 0;
        }
    struct passwd pw, *res = NULL;
    char tmp[4096];
    int e = getpwuid_r(uid, &pw, tmp, sizeof tmp, &res);
    if (e != 0 || !res) {
        *why = e ? "the password database cannot be read now: try again" : "your user id has no name";
        return -1;
    }
    if (!res->pw_name || !res->pw_name[0] || text_flaw(res->pw_name) || strlen(res->pw_name) > ROOM_USER_MAX ||
        strpbrk(res->pw_name, " \t")) {
        *why = "your user name is not 1 to 32 bytes of text without blanks";
        return -1;
    }
    r->names = xrealloc(r->names, (size_t)(r->nnames + 1) * sizeof *r->names);
    r->names[r->nnames].uid = uid;
    text_fit(r->names[r->nnames].user, sizeof r->names[r->nnames].user, "%s", res->pw_name);
    r->nnames++;
    text_fit(buf, size, "%s", res->pw_name);
    return 0;
}

static void hello(struct room *r, struct room_conn *c, const struct room_msg *m)
{
    if (m->as[0]) {
        if (!r->test || c->uid != r->me) {
            room_proto_err(&c->say, "HELLO AS: only a test room takes it, from its own user; you are who you "
                           "logged in as");
            c->dead = true;
            return;
        }
        text_fit(c->user, sizeof c->user, "%s", m->as);
    } else {
        const char *why = NULL;
        if (user_of(r, c->uid, c->user, sizeof c->user, &why) < 0) {
            room_proto_err(&c->say, "the room cannot name user id %lu: %s", (unsigned long)c->uid, why);
            c->user[0] = '\0';
            c->dead = true;
            return;
        }
    }
    room_proto_welcome(&c->say, c->user);
    send_slide(r, c);
    store_instances(r, r->slide);
}

static struct pending *add_pending(struct room *r)
{
    if (r->npend == r->pendcap) {
        r->pendcap = r->pendcap ? 2 * r->pendcap : 64;
        r->pend = xrealloc(r->pend, (size_t)r->pendcap * sizeof *r->pend);
    }
    return &r->pend[r->npend++];
}

static void vote(struct room *r, struct room_conn *c, const struct room_msg *m)
{
    int slide = m->slide, round = m->round;
    const char *answer = m->text;
    const struct slide_room *sr = &r->sl[r->slide];
    if (slide != r->slide + 1 || round != sr->round || sr->state != ROUND_OPEN || sr->revealed) {
        if (sr->state == ROUND_OPEN && !sr->revealed)
            room_proto_err(&c->say, "slide %d round %d is not open: the vote open is slide %d round %d", slide,
                           round, r->slide + 1, sr->round);
        else
            room_proto_err(&c->say, "slide %d round %d is not open: no vote is open now", slide, round);
        return;
    }
    const struct slide *s = &r->l->slides[r->slide];
    int choice = choice_of(s, answer);
    if (s->nchoices && choice < 0) {
        room_proto_err(&c->say, "answer with a letter from A to %c", 'A' + s->nchoices - 1);
        return;
    }
    char *cause = NULL;
    const struct instance *in = instance_for(r, r->slide, c->user);   /* theirs, with instances on */
    const struct run *run = in ? &in->run : run_of(r, r->slide, &cause);
    struct lesson_grade g;
    if ((s->kind->predicts && !run) || lesson_grade(s, run, answer, &g, &cause) < 0) {
        room_proto_err(&c->say, "%s", cause ? cause : "the answer cannot be graded");
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
static void play(struct room *r, struct room_conn *c, const struct room_msg *m)
{
    int slide = m->slide;
    const struct slide_room *sr = &r->sl[r->slide];
    if (slide != r->slide + 1 || !sr->ch_open) {
        room_proto_err(&c->say, "slide %d has no challenge open%s", slide,
                       sr->ch_open ? ": the one open is on the slide shown" : "");
        return;
    }
    char *cause = NULL, canon[ROOM_PICKS_MAX + 1];
    double makespan;
    if (challenge_replay(&sr->ch, m->text, &makespan, canon, sizeof canon, &cause) < 0) {
        room_proto_err(&c->say, "%s", cause ? cause : "the picks cannot be replayed");
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

/* One line from c (its newline removed; room_net_read's callback). */
static void line(void *ctx, struct room_conn *c, char *s, size_t n)
{
    struct room *r = ctx;
    struct room_msg m;
    room_proto_parse(s, n, c->user[0] != '\0', &m);
    switch (m.kind) {
    case RMSG_HELLO:
        hello(r, c, &m);
        break;
    case RMSG_VOTE:
        vote(r, c, &m);
        break;
    case RMSG_PLAY:
        play(r, c, &m);
        break;
    case RMSG_BYE:
        room_net_flush(c);
        c->dead = true;
        break;
    case RMSG_PING:
        room_proto_pong(&c->say);
        break;
    case RMSG_BAD:
        room_proto_err(&c->say, "%s", m.why);
        c->dead |= m.fatal;
        break;
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
            if (p->play) {   /* the picks by name too, on the challenge's own cluster */
                char *names = challenge_transfers(&r->sl[p->slide].ch, p->picks);
                rc = room_store_play(r->st, p->slide + 1, p->user, p->makespan, p->picks, names, &cause);
                free(names);
                continue;
            }
            rc = room_store_vote(r->st, p->slide + 1, p->round, p->user, p->answer, p->correct, &cause);
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
            struct room_conn *c = room_net_find(&r->net, p->id);
            if (r->batch_rc != 0) {
                if (c)
                    room_proto_err(&c->say, "the %s was not saved: try again", p->play ? "result" : "vote");
                continue;
            }
            if (p->play) {
                remember_play(&r->sl[p->slide], p->user, p->makespan, p->picks);
                if (c)
                    room_proto_done(&c->say, p->slide + 1, p->makespan);
                continue;
            }
            remember(&r->sl[p->slide], p->round, p->user, p->answer, p->choice, p->correct);
            if (c)
                room_proto_ok(&c->say, p->slide + 1, p->round, p->given);
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
    int before = r->net.ncl;
    bool changed = pass_votes(r);   /* the writer's batch done: acknowledged first */
    if (n > 0 && fds[0].revents & POLLIN)
        room_net_accept(&r->net, now);
    /* fds[2..] are the clients room_pollfds listed, in order; new ones are read next time */
    for (int i = 2; i < n && i - 2 < before; i++) {
        struct room_conn *c = r->net.cl[i - 2];
        if (fds[i].fd != c->fd)
            continue;
        bool had = c->user[0] != '\0';
        if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
            room_net_read(c, now, line, r);
        if (!had && c->user[0])
            changed = true;
    }
    if (pass_votes(r))   /* the votes just read go to the writer (if it is free) */
        changed = true;
    for (int i = 0; i < r->net.ncl; i++) {
        struct room_conn *c = r->net.cl[i];
        if (!c->user[0] && now - c->since >= ROOM_HELLO_MS) {
            room_proto_err(&c->say, "nothing said in %d s: say HELLO %d", ROOM_HELLO_MS / 1000, ROOM_PROTO);
            c->dead = true;
        }
    }
    if (room_net_sweep(&r->net))
        changed = true;
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
    if (r->sl[r->slide].inst_on)   /* each student's own: their instance's answer */
        text_fit(e, sizeof e, "each student's own instance");
    return room_store_round(r->st, r->slide + 1, round, state, room_proto_line_text(s->question, q, sizeof q), e, cause);
}

/* The round's new state in the grade book, in a transaction of its own (the
 * writer may be committing votes meanwhile); -1 with *cause, nothing kept. */
static int store_round(struct room *r, int round, enum room_round_state state, char **cause)
{
    pthread_mutex_lock(&r->db);
    int rc = room_store_begin(r->st, cause);
    if (rc == 0 && (write_round(r, round, state, cause) < 0 || room_store_commit(r->st, cause) < 0)) {
        room_store_rollback(r->st);
        rc = -1;
    }
    pthread_mutex_unlock(&r->db);
    return rc;
}

int room_vote(struct room *r, char **cause)
{
    const struct slide *s = &r->l->slides[r->slide];
    struct slide_room *sr = &r->sl[r->slide];
    if (!slide_gradable(s))
        return set_cause(cause, "slide %d asks nothing to vote on (no choices, no prediction)", r->slide + 1);
    if (s->kind->predicts && !run_of(r, r->slide, cause))
        return -1;
    /* Peer Instruction: a round open closes (the class discusses); the next v opens the next round */
    bool closing = sr->round && sr->state == ROUND_OPEN && !sr->revealed;
    int round = closing ? sr->round : sr->round + 1;
    if (store_round(r, round, closing ? ROUND_CLOSED : ROUND_OPEN, cause) < 0)
        return -1;
    sr->round = round;
    sr->state = closing ? ROUND_CLOSED : ROUND_OPEN;
    sr->revealed = false;
    broadcast_slide(r);
    return 0;
}

int room_reveal(struct room *r, char **cause)
{
    struct slide_room *sr = &r->sl[r->slide];
    if (sr->round) {
        if (store_round(r, sr->round, ROUND_REVEALED, cause) < 0)
            return -1;
        sr->state = ROUND_REVEALED;
    }
    sr->revealed = true;
    sr->ch_nohints = false;   /* the challenge's hints too, for good (a round opened later keeps them) */
    broadcast_slide(r);
    return 0;
}

void room_tally(const struct room *r, struct room_tally *t)
{
    memset(t, 0, sizeof *t);
    /* users, not connections: one student with two terminals is one */
    for (int i = 0; i < r->net.ncl; i++) {
        const char *u = r->net.cl[i]->user;
        if (!u[0] || r->net.cl[i]->dead)
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(r->net.cl[j]->user, u) == 0 && !r->net.cl[j]->dead;
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
    t->instances = sr->inst_on;
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
    t->ch_nohints = sr->ch_nohints;
}

int room_challenge(struct room *r, bool hints, char **cause)
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
    if (sr->ch_open)
        sr->ch_nohints = !hints;
    broadcast_slide(r);
    return 0;
}

int room_instances(struct room *r, char **cause)
{
    const struct slide *s = &r->l->slides[r->slide];
    struct slide_room *sr = &r->sl[r->slide];
    char why[300];
    if (!slide_gradable(s) || !s->kind->ask)
        return set_cause(cause, "slide %d: its question cannot be asked of a student's own instance (a "
                         "prediction can; a choice's answer is about the slide's own cluster)", r->slide + 1);
    if (instance_family(r->l, r->slide, why, sizeof why) == INSTANCE_NONE)
        return set_cause(cause, "slide %d: %s", r->slide + 1, why);
    if (sr->round && sr->state == ROUND_OPEN && !sr->revealed)
        return set_cause(cause, "round %d is open: v closes it first (the class's answers are about what "
                         "they see)", sr->round);
    sr->inst_on = !sr->inst_on;
    broadcast_slide(r);
    return 0;
}
