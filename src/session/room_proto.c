/*
 * session/room_proto.c - a live class's protocol (session/room_proto.h):
 * the lines of both sides, written and read.
 */
#include "session/room_proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "support/numfmt.h"

/* ---- a client's lines ---- */

/* A line built into buf by snprintf: its length, or -1 when it does not fit buf or a client's line. */
static int built(int n, size_t size)
{
    return n < 0 || (size_t)n >= size || n > ROOM_LINE_MAX ? -1 : n;
}

int room_proto_hello(char *buf, size_t size, const char *as)
{
    return built(snprintf(buf, size, "HELLO %d%s%s\n", ROOM_PROTO, as ? " AS " : "", as ? as : ""), size);
}

int room_proto_vote(char *buf, size_t size, int slide, int round, const char *answer)
{
    return built(snprintf(buf, size, "VOTE %d %d %s\n", slide, round, answer), size);
}

int room_proto_play(char *buf, size_t size, int slide, const int *from, const int *to, int n)
{
    int at = snprintf(buf, size, "PLAY %d", slide);
    for (int i = 0; i < n && at >= 0 && (size_t)at < size; i++)
        at += snprintf(buf + at, size - (size_t)at, " %d>%d", from[i], to[i]);
    if (at < 0 || (size_t)at + 2 > size)
        return -1;
    buf[at++] = '\n';
    buf[at] = '\0';
    return built(at, size);
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

/* m refused with a reason (-1). */
static int bad(struct room_msg *m, bool fatal, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(struct room_msg *m, bool fatal, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
    m->kind = RMSG_BAD;
    m->fatal = fatal;
    return -1;
}

static int parse_hello(const char *args, struct room_msg *m)
{
    char *end;
    long v = strtol(args, &end, 10);
    if (end == args || v != ROOM_PROTO || (*end && *end != ' '))
        return bad(m, true, "this room speaks protocol %d: say HELLO %d", ROOM_PROTO, ROOM_PROTO);
    if (*end == ' ') {
        if (strncmp(end, " AS ", 4) != 0 || !test_name(end + 4))
            return bad(m, true, "HELLO %d takes nothing more (HELLO %d AS NAME: test rooms only)", ROOM_PROTO,
                       ROOM_PROTO);
        text_fit(m->as, sizeof m->as, "%s", end + 4);
    }
    m->kind = RMSG_HELLO;
    return 0;
}

static int parse_vote(const char *args, struct room_msg *m)
{
    int used = 0;
    if (sscanf(args, "%d %d %n", &m->slide, &m->round, &used) != 2 || used == 0 || !args[used])
        return bad(m, false, "write VOTE SLIDE ROUND ANSWER");
    if (strlen(args + used) > ROOM_ANSWER_MAX)
        return bad(m, false, "an answer holds at most %d bytes", ROOM_ANSWER_MAX);
    m->text = args + used;
    m->kind = RMSG_VOTE;
    return 0;
}

static int parse_play(const char *args, struct room_msg *m)
{
    int used = 0;
    if (sscanf(args, "%d %n", &m->slide, &used) != 1 || used == 0)
        return bad(m, false, "write PLAY SLIDE PICKS (PICKS: F>T F>T ..., node numbers)");
    m->text = args + used;
    m->kind = RMSG_PLAY;
    return 0;
}

void room_proto_parse(char *s, size_t n, bool hello, struct room_msg *m)
{
    char t[64];
    memset(m, 0, sizeof *m);
    if (n && s[n - 1] == '\r')
        s[--n] = '\0';
    if (memchr(s, '\0', n) || text_flaw(s))
        bad(m, false, "a line is UTF-8 text without control characters");
    else if (!hello)
        strncmp(s, "HELLO ", 6) == 0 ? parse_hello(s + 6, m) : bad(m, true, "say HELLO %d first", ROOM_PROTO);
    else if (strncmp(s, "VOTE ", 5) == 0)
        parse_vote(s + 5, m);
    else if (strncmp(s, "PLAY ", 5) == 0)
        parse_play(s + 5, m);
    else if (strcmp(s, "BYE") == 0 || strcmp(s, "PING") == 0)
        m->kind = s[0] == 'B' ? RMSG_BYE : RMSG_PING;
    else
        bad(m, false, "unknown message \"%s\": HELLO, VOTE, PLAY, PING or BYE", diag_shown(s, t, sizeof t));
}

/* ---- the room's lines ---- */

const char *room_proto_line_text(const char *s, char *buf, size_t size)
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

static void say(const struct room_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vsay(const struct room_out *o, const char *fmt, va_list ap)
{
    char buf[ROOM_TEXT_MAX + 64];
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof buf - 2)
        n = (int)text_cut_len(buf, sizeof buf - 2);
    buf[n++] = '\n';
    o->put(o->ctx, buf, (size_t)n);
}

static void say(const struct room_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(o, fmt, ap);
    va_end(ap);
}

void room_proto_err(const struct room_out *o, const char *fmt, ...)
{
    char why[ROOM_TEXT_MAX * 2], t[ROOM_TEXT_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    say(o, "ERR %s", room_proto_line_text(why, t, sizeof t));
}

void room_proto_welcome(const struct room_out *o, const char *user)
{
    say(o, "WELCOME %d %s", ROOM_PROTO, user);
}

void room_proto_ok(const struct room_out *o, int slide, int round, const char *given)
{
    char t[ROOM_TEXT_MAX + 1];
    say(o, "OK %d %d %s", slide, round, room_proto_line_text(given, t, sizeof t));
}

void room_proto_done(const struct room_out *o, int slide, double makespan)
{
    say(o, "DONE %d %.17g", slide, makespan);
}

void room_proto_pong(const struct room_out *o)
{
    say(o, "PONG");
}

static void block_challenge(const struct room_out *o, const struct room_block *b)
{
    say(o, "CHALLENGE %s %d %s%s", b->ch_open ? "open" : "closed", b->ch_nodes, b->ch_model,
        b->ch_nohints ? " nohints" : "");
    for (const char *p = b->ch_open ? b->ch_csv : ""; *p;) {   /* each line within ROOM_TEXT_MAX */
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        say(o, "CSV %.*s", n, p);
        p += n + (nl != NULL);
    }
    if (b->mine)
        say(o, "MINE %.17g", b->mine_makespan);
}

/* NODES N LATENCY (- for a latency matrix), then NODE NAME SEND RECV for the first ROOM_NODES_SENT. */
static void block_nodes(const struct room_out *o, const struct cluster *c)
{
    char t[ROOM_TEXT_MAX + 1], a[NUMFMT_SIZE], b[NUMFMT_SIZE];
    say(o, "NODES %d %s", c->n, c->kind == CLUSTER_MATRIX ? "-" : numfmt_shortest(a, c->latency));
    for (int i = 0; i < c->n && i < ROOM_NODES_SENT; i++) {
        say(o, "NODE %s %s %s", room_proto_line_text(c->nodes[i].name, t, 64), numfmt_shortest(a, c->nodes[i].send), numfmt_shortest(b, c->nodes[i].recv));
    }
}

void room_proto_block(const struct room_out *o, const struct room_block *b)
{
    char t[ROOM_TEXT_MAX + 1];
    say(o, "SLIDE %d %d %d %s %s", b->slide, b->nslides, b->round, b->state, b->kind);
    say(o, "TITLE %s", room_proto_line_text(b->title ? b->title : "", t, sizeof t));
    if (b->question)
        say(o, "QUESTION %s", room_proto_line_text(b->question, t, sizeof t));
    for (int i = 0; i < b->nchoices; i++)
        say(o, "CHOICE %c %s", 'A' + i, room_proto_line_text(b->choices[i], t, sizeof t));
    if (b->text)
        say(o, "TEXT %s", room_proto_line_text(b->text, t, sizeof t));
    if (b->nodes)
        block_nodes(o, b->nodes);
    if (b->challenge)
        block_challenge(o, b);
    if (b->yours)
        say(o, "YOURS %d %s", b->round, room_proto_line_text(b->yours, t, sizeof t));
    if (b->revealed) {
        if (b->expected)
            say(o, "EXPECTED %s", room_proto_line_text(b->expected, t, sizeof t));
        if (b->explain)
            say(o, "EXPLAIN %s", room_proto_line_text(b->explain, t, sizeof t));
        if (b->result >= 0)
            say(o, "RESULT %s", b->result ? "right" : "wrong");
    }
    say(o, "END");
}

/* ---- the room's lines, read by a client ---- */

static const char *const states[] = {"none", "open", "closed", "revealed", NULL};
static const char *const kinds[] = {"choices", "makespan", "next", "none", NULL};
static const char *const ch_states[] = {"open", "closed", NULL};

static bool one_of(const char *w, const char *const *words)
{
    for (; *words; words++)
        if (strcmp(w, *words) == 0)
            return true;
    return false;
}

/* Copy text (it passed text_flaw) into a field of size n. */
static void keep(char *dst, size_t n, const char *src)
{
    text_fit(dst, n, "%s", src);
}

/* NODES N LATENCY, or NODE NAME SEND RECV, into the block n.  0, or -1 with *cause. */
static int take_node(struct room_seen *n, const char *word, char *arg, char **cause)
{
    if (strcmp(word, "NODES") == 0) {
        if (sscanf(arg, "%d %31s", &n->nodes_total, n->latency) != 2 || n->nodes_total < 1)
            return set_cause(cause, "the room sent a NODES line this client cannot read");
        if (strcmp(n->latency, "-") == 0)
            n->latency[0] = '\0';
        return 0;
    }
    if (n->nnodes >= ROOM_NODES_SENT || n->nnodes >= n->nodes_total)
        return 0;   /* more than announced: not shown */
    char *recv = strrchr(arg, ' '), *send = NULL;   /* NAME SEND RECV: the name may hold blanks */
    if (recv) {
        *recv++ = '\0';
        send = strrchr(arg, ' ');
    }
    if (!send)
        return set_cause(cause, "the room sent a NODE line this client cannot read");
    *send++ = '\0';
    struct room_node *d = &n->nodes[n->nnodes++];
    keep(d->name, sizeof d->name, arg);
    keep(d->send, sizeof d->send, send);
    keep(d->recv, sizeof d->recv, recv);
    return 0;
}

int room_proto_take(struct room_seen *s, char *line, char **cause)
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
        if (sscanf(arg, "%d %d %d %15s %15s", &n->slide, &n->nslides, &n->round, n->state, n->kind) != 5 ||
            n->slide < 1 || n->slide > n->nslides || n->nslides > ROOM_SLIDES_MAX || n->round < 0 ||
            !one_of(n->state, states) || !one_of(n->kind, kinds))
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
        else if (strcmp(line, "TEXT") == 0)
            keep(n->text, sizeof n->text, arg);
        else if ((strcmp(line, "NODES") == 0 || strcmp(line, "NODE") == 0) && take_node(n, line, arg, cause) < 0)
            return -1;
        else if (strcmp(line, "CHALLENGE") == 0) {
            char hints[16] = "";
            int got = sscanf(arg, "%15s %d %31s %15s", n->ch_state, &n->ch_nodes, n->ch_model, hints);
            if (got < 3 || (got == 4 && strcmp(hints, "nohints") != 0) || n->ch_nodes < 2 ||
                n->ch_nodes > ROOM_CHALLENGE_NODES || !one_of(n->ch_state, ch_states))
                return set_cause(cause, "the room sent a CHALLENGE line this client cannot read");
            n->ch_nohints = got == 4;
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

void room_proto_seen_free(struct room_seen *s)
{
    free(s->next);
    s->next = NULL;
}
