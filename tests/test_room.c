/*
 * test_room.c - a live class's room without a terminal (session/room.h,
 * ui/room_pane.h): 300 students connected in this process, each voting,
 * the room served and the slide screen drawn into a cell buffer a frame at
 * a time, as ui/term.c's loop does.  Checks the counts, the histogram and
 * the database's rows; prints the frame time (room_service and the draw)
 * and the votes a second (docs/performance.md quotes them: a benchmark, not
 * a test -- nothing here asserts a speed).  Also: a second round beside the
 * first, a vote on a closed round refused, a reveal sent to every student,
 * and the room opened again on its database.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "model/cluster_simgrid.h"
#include "session/lesson.h"
#include "session/room.h"
#include "session/room_challenge.h"
#include "tap.h"
#include "ui/cellbuf.h"
#include "ui/room_pane.h"
#include "ui/screen_lesson.h"
#include "ui/view.h"

#define STUDENTS 300

static struct cellbuf cb;
static int fd[STUDENTS];
static char inbuf[STUDENTS][8192];
static size_t inlen[STUDENTS];
static int oks[STUDENTS], errs[STUDENTS], reveals[STUDENTS];
static double frame_max, frame_sum;
static int frames;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long now_ms(void)
{
    return (long long)(now() * 1000);
}

/* One turn of the instructor's loop: poll, serve, draw; the frame timed. */
static void frame(struct view *v, struct room *r)
{
    static struct pollfd fds[2 + ROOM_CLIENTS_MAX];
    int n = room_pollfds(r, fds, 2 + ROOM_CLIENTS_MAX);
    int rc = poll(fds, (nfds_t)n, 5);
    double t0 = now();
    room_service(r, fds, rc > 0 ? n : 0, now_ms());
    room_pane_follow(v);
    view_draw(v, &cb);
    double dt = now() - t0;
    frames++;
    frame_sum += dt;
    if (dt > frame_max)
        frame_max = dt;
}

/* What the students received: OK, ERR and EXPECTED lines counted. */
static void drain(void)
{
    for (int i = 0; i < STUDENTS; i++) {
        if (fd[i] < 0)
            continue;
        ssize_t got = recv(fd[i], inbuf[i] + inlen[i], sizeof inbuf[i] - inlen[i] - 1, MSG_DONTWAIT);
        if (got <= 0)
            continue;
        inlen[i] += (size_t)got;
        char *nl;
        while ((nl = memchr(inbuf[i], '\n', inlen[i])) != NULL) {
            *nl = '\0';
            oks[i] += strncmp(inbuf[i], "OK ", 3) == 0;
            errs[i] += strncmp(inbuf[i], "ERR ", 4) == 0;
            reveals[i] += strncmp(inbuf[i], "EXPECTED B: p2", 14) == 0;
            size_t used = (size_t)(nl - inbuf[i]) + 1;
            memmove(inbuf[i], nl + 1, inlen[i] - used);
            inlen[i] -= used;
        }
    }
}

static int total(const int *a)
{
    int s = 0;
    for (int i = 0; i < STUDENTS; i++)
        s += a[i];
    return s;
}

static void say(int i, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int i, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ssize_t w = send(fd[i], buf, (size_t)n, MSG_NOSIGNAL);
    (void)w;
}

/* Students vote answer(i) in round; frames until every one is acknowledged (10 s at most). */
static double vote_round(struct view *v, struct room *r, int round, char (*answer)(int))
{
    int before = total(oks);
    double t0 = now();
    for (int i = 0; i < STUDENTS; i++)
        say(i, "VOTE 1 %d %c\n", round, answer(i));
    while (total(oks) - before < STUDENTS && now() - t0 < 10) {
        frame(v, r);
        drain();
    }
    return now() - t0;
}

static char first(int i)
{
    return i < 90 ? 'A' : i < 240 ? 'B' : 'C';
}

static char second(int i)
{
    return i < 30 ? 'A' : i < 280 ? 'B' : 'C';
}

static bool screen_has(const char *text)
{
    char *s = cb_dump(&cb);
    bool hit = strstr(s, text) != NULL;
    if (!hit)
        printf("# screen without \"%s\":\n# %s\n", text, s);
    free(s);
    return hit;
}

/* Does the screen hold a student's name (s001 ... s300)? */
static bool screen_has_quiet_name(void)
{
    char *s = cb_dump(&cb);
    bool hit = false;
    for (char *p = s; *p && !hit; p++)
        hit = p[0] == 's' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '9' && p[3] >= '0' && p[3] <= '9';
    free(s);
    return hit;
}

static int count_rows(const char *db, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    int n = -1;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW)
            n = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    sqlite3_close(h);
    return n;
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    session_set_clusters_dir("clusters");   /* the lesson's cluster (run from the source root) */
    char dir[64];   /* TMPDIR: where the database is measured (its fsyncs) */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/hetcast-room.XXXXXX", tmp && tmp[0] && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return 1;
    char path[80], db[96];
    snprintf(path, sizeof path, "%s/room", dir);
    snprintf(db, sizeof db, "%s/room.db", dir);
    struct lesson l;
    char *cause = NULL;
    ok(lesson_load("tests/data/class.lua", &l, &cause) == 0, "the class lesson loads %s", cause ? cause : "");
    struct room *r;
    struct room_opts o = {path, NULL, "course", true};
    ok(room_open(&r, &o, &l, &cause) == 0, "the room opens %s", cause ? cause : "");
    struct view v;
    ok(lesson_view_open(&v, &l, 0, &cause) == 0, "the lesson's view opens");
    v.room = r;
    cb_init(&cb, 160, 45);
    ok(room_vote(r, &cause) == 0, "round 1 opens");

    /* 300 students join, a frame served between two connections (the backlog is 128) */
    double t0 = now();
    for (int i = 0; i < STUDENTS; i++) {
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        memcpy(a.sun_path, path, strlen(path) + 1);   /* under 70 bytes: it fits */
        fd[i] = socket(AF_UNIX, SOCK_STREAM, 0);
        if (connect(fd[i], (struct sockaddr *)&a, sizeof a) != 0) {
            fd[i] = -1;
            continue;
        }
        say(i, "HELLO 2 AS s%03d\n", i + 1);
        frame(&v, r);
        drain();
    }
    for (int k = 0; k < 20; k++) {
        frame(&v, r);
        drain();
    }
    diag("300 students joined in %.3f s", now() - t0);
    struct room_tally t;
    room_tally(r, &t);
    is_int(t.present, STUDENTS, "300 students in the room");

    frames = 0, frame_sum = frame_max = 0;
    double s1 = vote_round(&v, r, 1, first);
    is_int(total(oks), STUDENTS, "every vote of round 1 acknowledged");
    diag("round 1: %d votes in %.3f s: %.0f votes/s; %d frames, frame time mean %.3f ms, max %.3f ms", STUDENTS,
         s1, STUDENTS / s1, frames, 1e3 * frame_sum / frames, 1e3 * frame_max);
    room_tally(r, &t);
    ok(t.voted == STUDENTS && t.bars[1][0] == 90 && t.bars[1][1] == 150 && t.bars[1][2] == 60,
       "the tally: 300 voted, 90 A, 150 B, 60 C");
    is_int(count_rows(db, "SELECT count(*) FROM votes WHERE round = 1 AND answer = 'B'"), 150,
           "the database: 150 B in round 1");

    ok(room_vote(r, &cause) == 0, "v again: round 1 closes");
    room_tally(r, &t);
    ok(t.round == 1 && t.state == ROUND_CLOSED && t.voted == STUDENTS, "round 1 closed, its 300 votes kept");
    ok(room_vote(r, &cause) == 0, "v once more: round 2 opens");
    say(0, "VOTE 1 1 A\n");
    for (int k = 0; k < 5; k++) {
        frame(&v, r);
        drain();
    }
    is_int(total(errs), 1, "a vote for round 1, closed now, is refused");
    frames = 0, frame_sum = frame_max = 0;
    double s2 = vote_round(&v, r, 2, second);
    is_int(total(oks), 2 * STUDENTS, "every vote of round 2 acknowledged");
    diag("round 2: %d votes in %.3f s: %.0f votes/s; %d frames, frame time mean %.3f ms, max %.3f ms", STUDENTS,
         s2, STUDENTS / s2, frames, 1e3 * frame_sum / frames, 1e3 * frame_max);
    v.room_bars = true;
    view_draw(&v, &cb);
    ok(screen_has("round 1: 300 voted") && screen_has("round 2: 300 voted") && screen_has(" 250"),
       "the histogram: both rounds, 250 B in round 2");
    double d0 = now();
    int reps = 1000;
    for (int k = 0; k < reps; k++)
        view_draw(&v, &cb);
    diag("the slide screen with the histogram, 160x45: %.3f ms a draw", 1e3 * (now() - d0) / reps);

    ok(room_reveal(r, &cause) == 0, "reveal");
    for (int k = 0; k < 20 && total(reveals) < STUDENTS; k++) {
        frame(&v, r);
        drain();
    }
    is_int(total(reveals), STUDENTS, "every student gets the right answer with the reveal");
    view_draw(&v, &cb);
    ok(!screen_has_quiet_name(), "no student's name on the projector");

    /* the room again, on its database */
    room_close(r);
    for (int i = 0; i < STUDENTS; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    ok(room_open(&r, &o, &l, &cause) == 0, "the room opens again on its database");
    room_tally(r, &t);
    ok(t.round == 2 && t.state == ROUND_REVEALED && t.bars[0][0] == 90 && t.bars[1][1] == 250,
       "its rounds and votes are back (round 2 revealed, 90 A then 250 B)");
    room_close(r);
    v.room = NULL;

    /* a class challenge (slide 5: five nodes): every pick list replayed by the room's engine */
    struct challenge ch;
    ok(challenge_prepare(&ch, &l, 4, &cause) == 0, "slide 5's challenge is prepared %s", cause ? cause : "");
    ok(ch.c && ch.c->n == 5 && ch.fnf == 8 && ch.optimum_known && ch.optimum == 6 && strstr(ch.csv, "p4,3,3"),
       "its cluster as CSV text (five nodes), fnf 8, the optimum 6");
    static const struct {
        const char *picks;
        double makespan;    /* < 0: refused, with why */
        const char *why;
    } plays[] = {
        {"0>4 0>2 0>1 0>3", 6, NULL},
        {"0>1 0>2 1>3 0>4", 7, NULL},
        {"0>1 0>2 0>3 0>4", 8, NULL},
        {"0>2 0>1 1>3 2>4", 11, NULL},
        {"", -1, "the broadcast is not finished: 4 nodes still wait"},
        {"0>1 0>2", -1, "the broadcast is not finished: 2 nodes still wait"},
        {"0>1 1>0", -1, "pick 2 (1>0): p0 holds the message already"},
        {"1>2", -1, "pick 1 (1>2): p1 does not hold the message yet"},
        {"0>1 0>1", -1, "pick 2 (0>1): p1 holds the message already"},
        {"0>5", -1, "pick 1 \"0>5\" is not SENDER>RECEIVER with node numbers 0 to 4"},
        {"0>01 0>2 0>3 0>4", -1, "pick 1 \"0>01\" is not"},
        {"-1>2", -1, "pick 1 \"-1>2\" is not"},
        {"0>1 0>2 0>3 0>4 0>1", -1, "pick 5: every node holds the message already after 4 picks"},
        {"0>1  0>2", -1, "pick 2 \"\" is not"},
        {"0>1 0>2 0>3 0>4 ", -1, "the picks end with a space"},
        {"99999999999>1", -1, "is not SENDER>RECEIVER"},
    };
    for (size_t i = 0; i < sizeof plays / sizeof plays[0]; i++) {
        double ms = -1;
        char canon[ROOM_PICKS_MAX + 1];
        free(cause);
        cause = NULL;
        int rc = challenge_replay(&ch, plays[i].picks, &ms, canon, sizeof canon, &cause);
        if (plays[i].makespan >= 0)
            ok(rc == 0 && ms == plays[i].makespan && strcmp(canon, plays[i].picks) == 0,
               "\"%s\": makespan %g (%g) %s", plays[i].picks, plays[i].makespan, ms, cause ? cause : "");
        else
            ok(rc < 0 && cause && strstr(cause, plays[i].why), "\"%s\" refused: %s", plays[i].picks,
               cause ? cause : "(no reason)");
    }
    challenge_free(&ch);
    free(cause);
    cause = NULL;

    /* slides that cannot be a challenge: an exchange, a cluster over ROOM_CHALLENGE_NODES */
    char lpath[120];
    snprintf(lpath, sizeof lpath, "%s/big.lua", dir);
    FILE *lf = fopen(lpath, "w");
    fprintf(lf, "return { title = 't', slides = {\n"
                " { title = 'x', cluster = { csv = '# latency: 1\\nname,send,recv\\np0,1,1\\np1,1,1\\np2,1,1\\n' },"
                "   schedulers = 'caterpillar', pattern = 'all-to-all' },\n"
                " { title = 'big', cluster = { csv = '# latency: 1\\nname,send,recv\\n");
    for (int i = 0; i < ROOM_CHALLENGE_NODES + 1; i++)
        fprintf(lf, "p%d,1,2\\n", i);
    fprintf(lf, "' } } } }\n");
    fclose(lf);
    struct lesson big;
    ok(lesson_load(lpath, &big, &cause) == 0, "a lesson with an exchange and a big cluster loads %s",
       cause ? cause : "");
    free(cause);
    cause = NULL;
    ok(challenge_prepare(&ch, &big, 0, &cause) < 0 && cause &&
       strstr(cause, "an exchange: the exercise books one message from the source"),
       "an exchange is no challenge: %s", cause ? cause : "");
    free(cause);
    cause = NULL;
    ok(challenge_prepare(&ch, &big, 1, &cause) < 0 && cause && strstr(cause, "has 33 nodes: a challenge takes 2 to 32"),
       "33 nodes are too many: %s", cause ? cause : "");
    free(cause);
    cause = NULL;
    lesson_free(&big);
    unlink(lpath);
#if HETCAST_HAVE_SIMGRID
    /* a platform's slide: a challenge under a model with private routes, none on shared links
       (the build's helper, whose presence the platform reader checks first: meson passes it) */
    simgrid_set_helper(getenv("HETCAST_SIMGRID_HELPER"));
    char xpath[120];
    snprintf(xpath, sizeof xpath, "%s/bb.xml", dir);
    FILE *xf = fopen(xpath, "w");
    fprintf(xf, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                "<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-5\" "
                "speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" bb_bw=\"200MBps\" bb_lat=\"500us\"/>\n</platform>\n");
    fclose(xf);
    lf = fopen(lpath, "w");
    fprintf(lf, "return { title = 't', slides = {\n"
                " { title = 'shared', cluster = 'bb.xml', size = 1e6, schedulers = 'fnf', model = 'one-port' },\n"
                " { title = 'private', cluster = 'bb.xml', size = 1e6, schedulers = 'fnf', model = 'sync' } } }\n");
    fclose(lf);
    struct lesson plat;
    ok(lesson_load(lpath, &plat, &cause) == 0, "a lesson on a platform loads %s", cause ? cause : "");
    free(cause);
    cause = NULL;
    int prc = challenge_prepare(&ch, &plat, 0, &cause);
    ok(prc < 0 && cause &&
       strstr(cause, "slide 1 is timed on shared links: the exercise books each pick by its route's cost alone"),
       "shared links are no challenge: %s", cause ? cause : "");
    free(cause);
    cause = NULL;
    prc = challenge_prepare(&ch, &plat, 1, &cause);
    ok(prc == 0, "the same platform under sync (private routes) is a challenge %s", cause ? cause : "");
    challenge_free(&ch);
    free(cause);
    cause = NULL;
    lesson_free(&plat);
    unlink(lpath);
    unlink(xpath);
    simgrid_set_helper(NULL);
#endif
    view_close(&v);
    lesson_free(&l);
    cb_free(&cb);
    unlink(db);
    char side[320];
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
    rmdir(dir);
    return tap_exit();
}
