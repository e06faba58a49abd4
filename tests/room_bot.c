/*
 * tests/room_bot.c - simulated students for the live-class tests
 * (tests/class.sh): many connections to a test room (hetcast lesson
 * --class-test), each HELLO 2 AS NAME, each voting, every answer waited for.
 *
 *   room_bot vote SOCK N PREFIX SLIDE ROUND SPEC [HOLD]
 *       N students PREFIX001.. vote in slide SLIDE round ROUND; SPEC gives
 *       the answers in order, "A*120,B*150,C*30" (the counts add up to N).
 *       Prints "acked USER ANSWER" for every OK, "refused USER REASON" for
 *       every ERR, then "votes K in S s (R votes/s)" and "acknowledged in
 *       median M ms, max X ms" (each vote sent to its OK); with HOLD, keeps the
 *       connections open HOLD seconds more (the room's count).
 *   room_bot play SOCK N PREFIX SLIDE 0 SPEC [HOLD]
 *       the same with a challenge's picks: SPEC "0>1 0>2*10,0>2 0>1*5";
 *       PLAY SLIDE PICKS, "acked USER MAKESPAN" for every DONE.
 *   room_bot raw SOCK [WAIT]
 *       sends standard input as it is, prints every line the room answers
 *       until it closes (or WAIT seconds, default 3), then "closed" or "open".
 *   room_bot idle SOCK SECONDS
 *       connects, says nothing; prints "closed after S s" or "open".
 *   room_bot flood SOCK N SLIDE ROUND ANSWER HOLD
 *       N connections of this user, each HELLO 2 and, once welcomed, VOTE
 *       SLIDE ROUND ANSWER; prints "name USER" for every WELCOME, "acked"
 *       for every OK, "refused REASON" for every ERR, "silent" for a
 *       connection that got no answer in 10 s, then "held" and keeps the
 *       connections open HOLD seconds more (reading what comes).
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dial(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        perror(path);
        exit(1);
    }
    return fd;
}

static void send_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

struct bot {
    int fd;
    char name[40], answer[200];
    char in[8192];
    size_t inlen;
    int stage;   /* 0: waiting for END of the first block, 1: voted, 2: answered */
    double sent;   /* when the vote was sent */
};

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The next whole line of b, or NULL (reads what is there). */
static char *next_line(struct bot *b, bool *closed)
{
    for (;;) {
        char *nl = memchr(b->in, '\n', b->inlen);
        if (nl) {
            static char line[8192];
            size_t n = (size_t)(nl - b->in);
            memcpy(line, b->in, n);
            line[n] = '\0';
            memmove(b->in, nl + 1, b->inlen - n - 1);
            b->inlen -= n + 1;
            return line;
        }
        ssize_t got = recv(b->fd, b->in + b->inlen, sizeof b->in - b->inlen - 1, MSG_DONTWAIT);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
            *closed = true;
            return NULL;
        }
        if (got < 0)
            return NULL;
        b->inlen += (size_t)got;
    }
}

/* Keep n connections open hold seconds (reading, so the room never waits on us), then close them. */
static void hold_open(struct bot *b, int n, double hold)
{
    double until = now() + hold;
    while (now() < until) {
        for (int i = 0; i < n; i++) {
            bool closed = false;
            while (next_line(&b[i], &closed))
                ;
        }
        usleep(20000);
    }
    for (int i = 0; i < n; i++)
        close(b[i].fd);
}

static int vote(int argc, char **argv)
{
    if (argc < 7)
        return 2;
    bool play = strcmp(argv[0], "play") == 0;
    int n = atoi(argv[2]), slide = atoi(argv[4]), round = atoi(argv[5]);
    double hold = argc > 7 ? atof(argv[7]) : 0;
    struct bot *b = calloc((size_t)n, sizeof *b);
    char *spec = strdup(argv[6]);
    int k = 0;
    for (char *part = strtok(spec, ","); part && k < n; part = strtok(NULL, ",")) {
        char *star = strrchr(part, '*');
        int times = star ? atoi(star + 1) : 1;
        if (star)
            *star = '\0';
        for (int i = 0; i < times && k < n; i++, k++)
            snprintf(b[k].answer, sizeof b[k].answer, "%s", part);
    }
    for (; k < n; k++)
        snprintf(b[k].answer, sizeof b[k].answer, "A");
    double t0 = now();
    for (int i = 0; i < n; i++) {
        b[i].fd = dial(argv[1]);
        snprintf(b[i].name, sizeof b[i].name, "%s%03d", argv[3], i + 1);
        char hello[80];
        int len = snprintf(hello, sizeof hello, "HELLO 2 AS %s\n", b[i].name);
        send_all(b[i].fd, hello, (size_t)len);
    }
    int done = 0, acked = 0;
    double first = 0, last = 0;
    double *lat = calloc((size_t)n, sizeof *lat);   /* each acknowledgement's wait, in s */
    struct pollfd *fds = calloc((size_t)n, sizeof *fds);
    while (done < n && now() - t0 < 90) {
        for (int i = 0; i < n; i++)
            fds[i] = (struct pollfd){b[i].stage < 2 ? b[i].fd : -1, POLLIN, 0};
        if (poll(fds, (nfds_t)n, 1000) <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            if (!fds[i].revents)
                continue;
            bool closed = false;
            char *line;
            while (b[i].stage < 2 && (line = next_line(&b[i], &closed)) != NULL) {
                if (b[i].stage == 0 && strcmp(line, "END") == 0) {
                    char v[300];
                    int len = play ? snprintf(v, sizeof v, "PLAY %d %s\n", slide, b[i].answer)
                                   : snprintf(v, sizeof v, "VOTE %d %d %s\n", slide, round, b[i].answer);
                    if (!first)
                        first = now();
                    b[i].sent = now();
                    send_all(b[i].fd, v, (size_t)len);
                    b[i].stage = 1;
                } else if (b[i].stage == 1 && strncmp(line, play ? "DONE " : "OK ", play ? 5 : 3) == 0) {
                    const char *ms = play ? strchr(line + 5, ' ') : NULL;
                    printf("acked %s %s\n", b[i].name, ms ? ms + 1 : b[i].answer);
                    b[i].stage = 2;
                    last = now();
                    lat[acked++] = last - b[i].sent;
                    done++;
                } else if (strncmp(line, "ERR ", 4) == 0) {
                    printf("refused %s %s\n", b[i].name, line + 4);
                    b[i].stage = 2;
                    done++;
                }
            }
            if (closed && b[i].stage < 2) {
                printf("closed %s\n", b[i].name);
                b[i].stage = 2;
                done++;
            }
        }
    }
    double s = last > first ? last - first : 0;
    printf("votes %d in %.3f s (%.0f votes/s)\n", acked, s, s > 0 ? acked / s : 0);
    if (acked > 0) {   /* from each vote sent to its OK */
        qsort(lat, (size_t)acked, sizeof *lat, by_value);
        printf("acknowledged in median %.1f ms, max %.1f ms\n", lat[acked / 2] * 1e3, lat[acked - 1] * 1e3);
    }
    free(lat);
    fflush(stdout);
    hold_open(b, n, hold);
    free(fds);
    free(b);
    free(spec);
    return 0;
}

static int raw(int argc, char **argv)
{
    double wait = argc > 2 ? atof(argv[2]) : 3;
    int fd = dial(argv[1]);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        send_all(fd, buf, n);
    struct bot b = {.fd = fd};
    double t0 = now();
    bool closed = false;
    while (!closed && now() - t0 < wait) {
        struct pollfd p = {fd, POLLIN, 0};
        poll(&p, 1, 100);
        char *line;
        while ((line = next_line(&b, &closed)) != NULL)
            printf("%s\n", line);
    }
    printf("%s\n", closed ? "closed" : "open");
    return 0;
}

static int idle(int argc, char **argv)
{
    double secs = argc > 2 ? atof(argv[2]) : 1;
    int fd = dial(argv[1]);
    double t0 = now();
    struct bot b = {.fd = fd};
    bool closed = false;
    while (!closed && now() - t0 < secs) {
        struct pollfd p = {fd, POLLIN, 0};
        poll(&p, 1, 100);
        while (next_line(&b, &closed))
            ;
    }
    if (closed)
        printf("closed after %.0f s\n", now() - t0);
    else
        printf("open\n");
    return 0;
}

static int flood(int argc, char **argv)
{
    if (argc < 7)
        return 2;
    int n = atoi(argv[2]), slide = atoi(argv[3]), round = atoi(argv[4]);
    double hold = atof(argv[6]);
    struct bot *b = calloc((size_t)n, sizeof *b);
    for (int i = 0; i < n; i++) {
        b[i].fd = dial(argv[1]);
        send_all(b[i].fd, "HELLO 2\n", 8);
    }
    double t0 = now();
    int done = 0;
    while (done < n && now() - t0 < 10) {
        usleep(20000);
        for (int i = 0; i < n; i++) {
            bool closed = false;
            char *line;
            while (b[i].stage < 2 && (line = next_line(&b[i], &closed)) != NULL) {
                if (strncmp(line, "WELCOME 2 ", 10) == 0) {
                    printf("name %s\n", line + 10);
                } else if (b[i].stage == 0 && strcmp(line, "END") == 0) {
                    char v[300];
                    int len = snprintf(v, sizeof v, "VOTE %d %d %s\n", slide, round, argv[5]);
                    send_all(b[i].fd, v, (size_t)len);
                    b[i].stage = 1;
                } else if (b[i].stage == 1 && strncmp(line, "OK ", 3) == 0) {
                    printf("acked\n");
                    b[i].stage = 2;
                    done++;
                } else if (strncmp(line, "ERR ", 4) == 0) {
                    printf("refused %s\n", line + 4);
                    b[i].stage = 2;
                    done++;
                }
            }
            if (closed && b[i].stage < 2) {
                printf("closed\n");
                b[i].stage = 2;
                done++;
            }
        }
    }
    for (int i = 0; i < n; i++)
        if (b[i].stage < 2)
            printf("silent\n");
    printf("held\n");
    fflush(stdout);
    hold_open(b, n, hold);
    free(b);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && (strcmp(argv[1], "vote") == 0 || strcmp(argv[1], "play") == 0))
        return vote(argc - 1, argv + 1);
    if (argc >= 3 && strcmp(argv[1], "raw") == 0)
        return raw(argc - 1, argv + 1);
    if (argc >= 3 && strcmp(argv[1], "idle") == 0)
        return idle(argc - 1, argv + 1);
    if (argc >= 3 && strcmp(argv[1], "flood") == 0)
        return flood(argc - 1, argv + 1);
    fprintf(stderr, "usage: room_bot vote|play|raw|idle|flood SOCK ...\n");
    return 2;
}
