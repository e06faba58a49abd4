/*
 * fuzz_proto.c - libFuzzer harness for a live class's protocol, the room's
 * side: a real test room (session/room.h, its database in a private
 * folder) on a four-slide lesson (choices, a makespan, the next transfer,
 * a challenge open), and for each input one client that connects and says
 * the input's bytes (after its first byte, which picks the slide shown and
 * whether a new round opens or the answer is revealed), then stops
 * writing.  The room is served turn by turn on a clock of its own (a second
 * a turn: the flood limit refills, a silent client meets its deadline).
 * Promises:
 *   - the room closes the connection within a bounded number of turns
 *     (no hang) and never crashes (ASan, UBSan);
 *   - every line it says is text of at most ROOM_TEXT_MAX + 64 bytes that
 *     starts with a word of the protocol, and the student's client
 *     (room_proto_take) reads all of it without a protocol error;
 *   - the projector's counts stay counts (room_tally: bars and right within
 *     the votes, the present within the connections).
 * Built by tests/fuzz/run.sh; replay.c replays saved inputs in every build.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "fuzz_common.h"
#include "session/lesson.h"
#include "session/room.h"

#define TRIANGLE "{ csv = \"# latency: 1\\n# source: p0\\nname,send,recv\\np0,1,2\\np1,1,2\\np2,2,3\\n\" }"
static const char lesson_text[] =
    "return { title = \"fuzz\", slides = {\n"
    "  { title = \"choices\", cluster = " TRIANGLE ", schedulers = \"fnf\", step = 0,\n"
    "    question = \"Which node first?\", choices = {\"p1\", \"p2\", \"either\"}, correct = 2, answer = \"p2\" },\n"
    "  { title = \"makespan\", cluster = " TRIANGLE ", schedulers = \"fnf\", step = 0,\n"
    "    question = \"What will fnf take?\", predict = \"makespan\", answer = \"6\" },\n"
    "  { title = \"next\", cluster = " TRIANGLE ", schedulers = \"fnf\", step = 0,\n"
    "    question = \"fnf's first move?\", predict = \"next\", answer = \"p0 -> p1\" },\n"
    "  { title = \"challenge\", cluster = " TRIANGLE ", schedulers = \"fnf\", step = 0, text = \"play\" },\n"
    "} }\n";

static struct lesson lesson;
static struct room *room;
static char sock_path[300];
static long long clock_ms = 1000;

/* At exit, before fuzz_cleanup (atexit runs in reverse): the room closed, its files gone. */
static void close_room(void)
{
    room_close(room);   /* its socket removed */
    room = NULL;
    lesson_free(&lesson);
    static const char *const ends[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        char path[320];
        snprintf(path, sizeof path, "%s.db%s", sock_path, ends[i]);
        unlink(path);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_setup();
    const char *path = fuzz_file("lesson.lua", (const uint8_t *)lesson_text, sizeof lesson_text - 1);
    char *cause = NULL;
    if (lesson_load(path, &lesson, &cause) < 0)
        fuzz_fail("the harness's lesson does not load", cause);
    snprintf(sock_path, sizeof sock_path, "%s/room", fuzz_dir);
    struct room_opts o = {sock_path, NULL, "fuzz", true};
    if (room_open(&room, &o, &lesson, &cause) < 0)
        fuzz_fail("the harness's room does not open", cause);
    atexit(close_room);
    for (int k = 0; k < 3; k++) {
        room_follow(room, k);
        if (room_vote(room, &cause) < 0)
            fuzz_fail("a vote does not open", cause);
    }
    room_follow(room, 3);
    if (room_challenge(room, true, &cause) < 0)
        fuzz_fail("the challenge does not open", cause);
    return 0;
}

/* One turn of the instructor's loop on the room's clock. */
static void turn(int wait_ms)
{
    static struct pollfd fds[2 + ROOM_CLIENTS_MAX];
    int n = room_pollfds(room, fds, 2 + ROOM_CLIENTS_MAX);
    int rc = poll(fds, (nfds_t)n, wait_ms);
    clock_ms += 1000;
    room_service(room, fds, rc > 0 ? n : 0, clock_ms);
}

static const char *const words[] = {"WELCOME", "SLIDE", "TITLE", "QUESTION", "CHOICE", "CHALLENGE", "CSV",
                                    "MINE", "YOURS", "EXPECTED", "EXPLAIN", "RESULT", "TEXT", "NODES", "NODE", "END", "OK", "DONE",
                                    "ERR", "PONG", NULL};

/* The room's lines to the client: each checked, and read as hetcast join reads them. */
static void check_said(char *in, size_t len)
{
    static struct room_seen seen;
    memset(&seen, 0, sizeof seen);
    char *line = in;
    for (char *nl; (nl = memchr(line, '\n', len - (size_t)(line - in))) != NULL; line = nl + 1) {
        *nl = '\0';
        if (text_flaw(line) || strlen(line) > ROOM_TEXT_MAX + 64 || (size_t)(nl - line) != strlen(line))
            fuzz_fail("the room said a line that is not one line of text", line);
        size_t w = strcspn(line, " ");
        bool known = false;
        for (int i = 0; words[i] && !known; i++)
            known = strlen(words[i]) == w && strncmp(line, words[i], w) == 0;
        if (!known)
            fuzz_fail("the room said a line that starts with no word of the protocol", line);
        char copy[ROOM_TEXT_MAX + 128], *cause = NULL;
        memcpy(copy, line, strlen(line) + 1);
        if (room_proto_take(&seen, copy, &cause) < 0)
            fuzz_fail("hetcast join refuses what the room said", cause);
    }
    if (line != in + len)
        fuzz_fail("the room's last line has no newline", line);
    room_proto_seen_free(&seen);
}

static void check_tally(void)
{
    struct room_tally t;
    room_tally(room, &t);
    for (int side = 0; side < 2; side++) {
        int bars = 0;
        for (int b = 0; b < t.nbars; b++)
            bars += t.bars[side][b];
        if (bars > t.total[side] || t.right[side] > t.total[side] || t.right[side] < 0)
            fuzz_fail("the projector's counts do not add up", NULL);
    }
    if (t.voted != t.total[1] || t.present < 0)
        fuzz_fail("the projector's counts do not add up", NULL);
}

static int dial(void)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, sock_path, strlen(sock_path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
        fuzz_fail("cannot connect to the room", strerror(errno));
    return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int k = data[0] % 4;
    room_follow(room, k);
    char *cause = NULL;
    if (k < 3 && (data[0] & 0x10))
        room_vote(room, &cause);
    else if (k < 3 && (data[0] & 0x20))
        room_reveal(room, &cause);
    free(cause);
    int fd = dial();
    size_t sent = 0, cap = 1 << 20, len = 0;
    char *in = xmalloc(cap + 1);
    bool closed = false, shut = false;
    int quiet = 0;   /* turns in a row that brought nothing, once everything was sent */
    for (int turns = 0; !closed; turns++) {
        if (turns > 400)
            fuzz_fail("the room keeps a connection that stopped writing", NULL);
        while (sent < size - 1) {
            ssize_t w = send(fd, data + 1 + sent, size - 1 - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w <= 0)
                break;
            sent += (size_t)w;
        }
        if (sent == size - 1 && !shut && quiet >= 2) {   /* the answers to what was sent are in */
            shutdown(fd, SHUT_WR);
            shut = true;
        }
        turn(sent == size - 1 ? 10 : 0);   /* waits only for the room's writer (its wake-up ends the wait) */
        size_t before = len;
        for (;;) {
            ssize_t got = recv(fd, in + len, cap - len, MSG_DONTWAIT);
            if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                closed = true;
                break;
            }
            if (got < 0)
                break;
            len += (size_t)got;
            if (len == cap)
                fuzz_fail("the room said more than a megabyte to one client", NULL);
        }
        quiet = len == before && sent == size - 1 ? quiet + 1 : 0;
    }
    close(fd);
    if (getenv("HETCAST_FUZZ_VERBOSE"))   /* replaying one input by hand: what the room said */
        fwrite(in, 1, len, stderr);
    check_said(in, len);
    free(in);
    check_tally();
    return 0;
}
