/*
 * term.c - the only file that talks to the terminal (ncursesw).
 *
 * Layer: flushes the view's cell buffer to the screen, turns curses keys
 * into the view's key codes, and runs the event loop.  The loop waits with
 * poll() on the keyboard and a self-pipe, with the play delay as timeout
 * (no busy loop); keys are then read without blocking.  SIGINT, SIGTERM and
 * SIGHUP only set a flag and write to the pipe; the loop then leaves,
 * restores the terminal and exits with 128 + the signal; so do SIGUSR1,
 * SIGUSR2 and SIGPIPE, whose default would kill the view with the terminal
 * raw.  SIGALRM is the view's own timer (below): one sent from outside
 * does nothing.  A crash (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
 * SIGSYS) cannot go back to the loop, and every other signal whose default
 * ends the process (signal(7): SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
 * SIGSTKFLT, the real-time ones) is not one to linger on: the handler
 * writes the terminal's own "leave" sequence (sgr0, cnorm, rmkx, rmcup,
 * taken from terminfo at start) and the terminal modes saved before curses
 * (tcsetattr), removes the temporary file of a save in progress
 * (support/atomic.h), all async-signal-safe, then dies of the signal with
 * its default action (the status is the signal's).  SIGXFSZ is ignored by the
 * front door (a write then fails with EFBIG and says so).  SIGWINCH also
 * writes to the pipe; the loop then asks the terminal for its size and
 * redraws.  An atexit handler restores the terminal on any other way out
 * (an exit() deep in the core).
 *
 * While the core computes (ui/view.h: computing), the loop cannot read keys,
 * so a SIGALRM every 100 ms looks at the keyboard from the handler (poll
 * and read, both async-signal-safe): q, Q or a lone Esc sets the cancel
 * flag the core polls, other keys typed meanwhile are dropped.  Ctrl-C
 * then cancels the computation instead of leaving; SIGTERM, SIGHUP and
 * SIGQUIT cancel it and leave as always.  But when keys typed before it
 * still wait to be worked through (read_typed), the view is behind the
 * keyboard: a q or Ctrl-C then leaves, whatever work the keys ahead of it
 * would have started.  The same handler keeps the
 * progress line's seconds up to date (write(2) of a sequence prepared
 * before: save the cursor, go to the field, the digits, restore it), so
 * the line says what is computed and for how long.
 *
 * The first computation, before curses starts (view_open_hooked), is
 * watched the same way with the terminal in non-canonical mode and the
 * progress on stderr: q or Esc cancels it and the view opens on the
 * default scheduler instead; Ctrl-C there leaves (status 130), as it
 * would any command that has not shown anything yet.
 */
/* The wide-character curses API and nl_langinfo (ncursesw's cflags may set these). */
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "ui/term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "support/atomic.h"
#include "support/diag.h"
#include "support/sigend.h"
#include "session/lesson.h"
#include "session/room.h"
#include "ui/room_pane.h"
#include "ui/view.h"

static volatile sig_atomic_t got_signal;   /* INT, TERM, HUP, QUIT, USR1/2, ALRM, PIPE: leave */
static volatile sig_atomic_t got_winch;    /* the terminal was resized */
static volatile sig_atomic_t computing;    /* the core computes: keys are read by on_alarm */
static volatile sig_atomic_t cancel_flag;  /* the view's cancel (ui/view.h), polled by the core */
static volatile sig_atomic_t opening;      /* the first computation, before curses: Ctrl-C leaves */
static bool play_only;   /* hetcast join plays a challenge: the loop ends when the exercise is left
                            (its help and log, screens over it, are not leaving it) */
static volatile sig_atomic_t quit_typed;  /* a q typed ahead of what the view works through: leave */
static volatile sig_atomic_t typed_len;   /* keys typed, not yet dispatched (below: read_typed) */
static void read_typed(void);
static bool quit_waiting(void);

/* The progress line's seconds, written by on_alarm: pre, the seconds, post. */
static volatile sig_atomic_t tick_fd = -1; /* where to (-1: no progress line) */
static volatile sig_atomic_t ticked;       /* written since the computation began */
static char tick_pre[600], tick_post[200];
static size_t tick_pre_len, tick_post_len;
static struct timespec tick_t0;
static long long tick_delay;   /* tenths of a second before the first write (at open: 5) */

/* Tenths of a second since tick_t0 (async-signal-safe). */
static long long tick_tenths(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)(now.tv_sec - tick_t0.tv_sec) * 10 + (now.tv_nsec - tick_t0.tv_nsec) / 100000000;
}

/* tenths as "%6.1f" would write them seconds (async-signal-safe). */
static size_t tick_secs(char *out, long long tenths)
{
    if (tenths < 0)
        tenths = 0;
    if (tenths > 9999999)
        tenths = 9999999;
    char digits[12];
    int n = 0;
    digits[n++] = (char)('0' + tenths % 10);
    digits[n++] = '.';
    tenths /= 10;
    do {
        digits[n++] = (char)('0' + tenths % 10);
        tenths /= 10;
    } while (tenths > 0);
    size_t k = 0;
    for (int pad = n; pad < 6 && tick_fd == STDOUT_FILENO; pad++)   /* the view's fixed field */
        out[k++] = ' ';
    while (n > 0)
        out[k++] = digits[--n];
    return k;
}

static void tick(void)
{
    int fd = tick_fd;
    if (fd < 0)
        return;
    long long tenths = tick_tenths();
    if (tenths < tick_delay)
        return;
    char buf[sizeof tick_pre + sizeof tick_post + 16];
    size_t n = 0;
    memcpy(buf, tick_pre, tick_pre_len);
    n += tick_pre_len;
    n += tick_secs(buf + n, tenths);
    memcpy(buf + n, tick_post, tick_post_len);
    n += tick_post_len;
    ssize_t r = write(fd, buf, n);
    (void)r;
    ticked = 1;
}
static int sig_pipe[2] = {-1, -1};
static bool curses_on;

/* While computing: q or Q on the keyboard cancels; other keys are dropped. */
static void on_alarm(int sig)
{
    (void)sig;
    int saved = errno;
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    char buf[64];
    ssize_t got;
    while (computing && poll(&p, 1, 0) == 1 && (p.revents & POLLIN) &&
           (got = read(STDIN_FILENO, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < got; i++)
            if (buf[i] == 'q' || buf[i] == 'Q' ||
                (buf[i] == 0x1b && (i + 1 == got || (buf[i + 1] != '[' && buf[i + 1] != 'O')))) {
                cancel_flag = 1;   /* an Esc alone, not the start of an arrow key's sequence */
                if (buf[i] != 0x1b && typed_len > 0)
                    quit_typed = 1;   /* keys typed before still wait: the view is behind, q leaves */
            }
    if (computing && !got_winch)   /* a resize not drawn yet: the field is elsewhere */
        tick();
    errno = saved;
}

static void on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGWINCH) {
        got_winch = 1;
    } else if (sig == SIGINT && computing && !opening && typed_len == 0) {
        cancel_flag = 1;   /* Ctrl-C stops the computation, not the view (unless keys wait: read_typed) */
    } else {
        got_signal = sig;
        cancel_flag = 1;
    }
    if (sig_pipe[1] >= 0) {
        ssize_t r = write(sig_pipe[1], "s", 1);
        (void)r;
    }
    errno = saved;
}

/* What a crash handler writes: saved at start, used only while curses is on. */
static volatile sig_atomic_t raw_on;
static struct termios cooked;
static bool have_cooked;
static char leave_seq[256];
static size_t leave_len;

/* A crash, or a signal that ends the process: the terminal back, then its default. */
static void on_crash(int sig)
{
    atomic_remove_pending();
    if (raw_on) {
        raw_on = 0;
        if (leave_len) {
            ssize_t r = write(STDOUT_FILENO, leave_seq, leave_len);
            (void)r;
        }
        if (have_cooked)
            tcsetattr(STDIN_FILENO, TCSANOW, &cooked);
    }
    /* SA_RESETHAND put the default back; SA_NODEFER lets it strike now. */
    raise(sig);
}

/* The terminal's leave sequence from terminfo (after initscr). */
static void save_leave_seq(void)
{
    static const char *const caps[] = {"sgr0", "cnorm", "rmkx", "rmcup"};
    leave_len = 0;
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        const char *s = tigetstr(caps[i]);
        if (!s || s == (char *)-1)
            continue;
        size_t n = strlen(s);
        if (n < sizeof leave_seq - leave_len) {
            memcpy(leave_seq + leave_len, s, n);
            leave_len += n;
        }
    }
}

static void term_end(void)
{
    raw_on = 0;
    if (curses_on) {
        curses_on = false;
        curs_set(1);
        endwin();
    }
}

static void install_signals(void)
{
    static bool installed;
    if (installed)
        return;
    installed = true;
    if (pipe(sig_pipe) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(sig_pipe[i], F_SETFL, fcntl(sig_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;   /* no SA_RESTART: poll() must wake up */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    crash.sa_handler = on_crash;
    sigemptyset(&crash.sa_mask);
    crash.sa_flags = (int)(SA_RESETHAND | SA_NODEFER);
    static const int crashes[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i], &crash, NULL);
    int others[SIGEND_MAX];
    int n = sigend_others(others);
    for (int i = 0; i < n; i++)
        sigaction(others[i], &crash, NULL);
    /* Ours, not curses': a resize must wake poll() up (curses only notices
     * it inside a blocking read). */
    sigaction(SIGWINCH, &sa, NULL);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;   /* the core's system calls go on */
    sigaction(SIGALRM, &sa, NULL);
}

/* ui/view.h's computing: the keyboard watched by on_alarm every 100 ms. */
static void set_computing(struct view *v, bool on)
{
    (void)v;
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (on) {
        it.it_interval.tv_usec = 100000;
        it.it_value.tv_usec = 100000;
        if (got_signal)   /* a signal before the computation began (at open): it stops at once */
            cancel_flag = 1;
        read_typed();   /* keys typed ahead of it: a q among them ends the view, not after it */
        if (quit_waiting()) {
            quit_typed = true;
            cancel_flag = 1;
        }
    } else {
        tick_fd = -1;
    }
    computing = on;
    setitimer(ITIMER_REAL, &it, NULL);
    if (!on && ticked) {
        ticked = 0;
        if (curses_on)
            clearok(curscr, TRUE);   /* the seconds were written behind curses' back */
        else {
            ssize_t r = write(STDERR_FILENO, "\r\033[K", 4);   /* the progress line goes */
            (void)r;
        }
    }
}

/* The progress line's field at (row, col) of the screen, for tick(). */
static void tick_at(int row, int col)
{
    tick_fd = -1;
    const char *sc = tigetstr("sc"), *rc = tigetstr("rc"), *cup = tigetstr("cup");
    const char *sgr0 = tigetstr("sgr0"), *bold = tigetstr("bold");
    if (!sc || sc == (char *)-1 || !rc || rc == (char *)-1 || !cup || cup == (char *)-1)
        return;   /* no way to put the cursor back: no seconds */
    const char *go = tparm(cup, row, col, 0, 0, 0, 0, 0, 0, 0);
    bool has_sgr0 = sgr0 && sgr0 != (char *)-1, has_bold = bold && bold != (char *)-1;
    int n = snprintf(tick_pre, sizeof tick_pre, "%s%s%s%s", sc, go ? go : "", has_sgr0 ? sgr0 : "",
                     has_bold ? bold : "");
    int m = snprintf(tick_post, sizeof tick_post, "%s%s", has_sgr0 ? sgr0 : "", rc);
    if (!go || n < 0 || (size_t)n >= sizeof tick_pre || m < 0 || (size_t)m >= sizeof tick_post)
        return;
    tick_pre_len = (size_t)n;
    tick_post_len = (size_t)m;
    clock_gettime(CLOCK_MONOTONIC, &tick_t0);
    tick_delay = 0;
    tick_fd = STDOUT_FILENO;
}

/* Take the terminal's new size (after SIGWINCH). */
static void resize(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
    /* Repaint everything: sizes that came and went while the core computed
     * (a resize storm ending at the old size) left the terminal's contents
     * reflowed, and resizeterm to the size curses already had does nothing. */
    clearok(curscr, TRUE);
}

/* ---- colours ---- */

struct style {
    short fg, bg;
    attr_t mono;    /* attributes without colour */
    attr_t extra;   /* attributes added with colour */
};

static short pair_of[R_COUNT];
static attr_t attr_of[R_COUNT];

/*
 * No style is A_DIM: a projector washes dim text out, and nothing on the
 * screen is there to be hard to read.  Planned bars differ by their fill
 * (░ ┄ ·), secondary text (R_DIM) by its place, not by its brightness.
 */
static void init_styles(bool colour)
{
    static const struct style styles[R_COUNT] = {
        [R_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
        [R_TITLE] = {COLOR_WHITE, COLOR_BLUE, A_REVERSE, A_NORMAL},
        [R_STATUS] = {COLOR_BLACK, COLOR_CYAN, A_REVERSE, A_NORMAL},
        [R_HEAD] = {COLOR_CYAN, -1, A_BOLD, A_NORMAL},
        [R_DIM] = {-1, -1, A_NORMAL, A_NORMAL},
        [R_SEND] = {COLOR_BLUE, COLOR_BLUE, A_NORMAL, A_NORMAL},
        [R_LINK] = {COLOR_YELLOW, COLOR_YELLOW, A_NORMAL, A_NORMAL},
        [R_RECV] = {COLOR_GREEN, COLOR_GREEN, A_NORMAL, A_NORMAL},
        [R_SEND_LABEL] = {COLOR_WHITE, COLOR_BLUE, A_REVERSE, A_NORMAL},
        [R_LINK_LABEL] = {COLOR_BLACK, COLOR_YELLOW, A_REVERSE, A_NORMAL},
        [R_RECV_LABEL] = {COLOR_BLACK, COLOR_GREEN, A_REVERSE, A_NORMAL},
        [R_SEND_PLAN] = {COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
        [R_LINK_PLAN] = {COLOR_YELLOW, -1, A_NORMAL, A_NORMAL},
        [R_RECV_PLAN] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
        [R_CURSOR] = {COLOR_RED, -1, A_BOLD, A_BOLD},
        [R_CRIT] = {COLOR_RED, -1, A_BOLD, A_BOLD},
        [R_SEL] = {COLOR_BLACK, COLOR_WHITE, A_REVERSE, A_NORMAL},
        [R_PATH] = {COLOR_MAGENTA, -1, A_UNDERLINE, A_NORMAL},
        [R_ERROR] = {COLOR_WHITE, COLOR_RED, A_REVERSE, A_BOLD},
        [R_INFO] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
        [R_GOOD] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
        [R_BAD] = {COLOR_RED, -1, A_NORMAL, A_NORMAL},
        [R_WAIT] = {COLOR_MAGENTA, -1, A_BOLD, A_BOLD},
        [R_WAIT_PLAN] = {COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL},
    };
    for (int r = 0; r < R_COUNT; r++) {
        pair_of[r] = 0;
        attr_of[r] = colour ? styles[r].extra : styles[r].mono;
        if (colour && (styles[r].fg >= 0 || styles[r].bg >= 0)) {
            init_pair((short)r, styles[r].fg, styles[r].bg);
            pair_of[r] = (short)r;
        }
    }
}

/* ---- flushing ---- */

static void flush(const struct cellbuf *cb, bool ascii)
{
    for (int y = 0; y < cb->h; y++)
        for (int x = 0; x < cb->w; x++) {
            const struct cell *c = cb_at(cb, x, y);
            if (c->ch == 0)
                continue;   /* right half of a wide character */
            unsigned role = c->attr & A_ROLE_MASK;
            attr_t a = role < R_COUNT ? attr_of[role] : A_NORMAL;
            short pair = role < R_COUNT ? pair_of[role] : 0;
            if (c->attr & AF_BOLD)
                a |= A_BOLD;
            if (c->attr & AF_REVERSE)
                a |= A_REVERSE;
            if (c->attr & AF_UNDERLINE)
                a |= A_UNDERLINE;
            wchar_t wc[2] = {(wchar_t)c->ch, L'\0'};
            if (ascii && c->ch > 0x7e)
                wc[0] = L'?';
            cchar_t cc;
            if (setcchar(&cc, wc, a, pair, NULL) == OK)
                mvadd_wch(y, x, &cc);
        }
    /* The bottom-right cell scrolls some terminals: curses handles it; park the cursor. */
    move(cb->h - 1, 0);
    wnoutrefresh(stdscr);
    doupdate();
}

/* ---- keys ---- */

static int map_key(int r, wint_t ch)
{
    if (r == KEY_CODE_YES) {
        switch (ch) {
        case KEY_UP: return UK_UP;
        case KEY_DOWN: return UK_DOWN;
        case KEY_LEFT: return UK_LEFT;
        case KEY_RIGHT: return UK_RIGHT;
        case KEY_HOME: return UK_HOME;
        case KEY_END: return UK_END;
        case KEY_PPAGE: return UK_PGUP;
        case KEY_NPAGE: return UK_PGDN;
        case KEY_ENTER: return UK_ENTER;
        case KEY_BACKSPACE: return UK_BACKSPACE;
        case KEY_RESIZE: return UK_RESIZE;
        default: return 0;
        }
    }
    switch (ch) {
    case '\n':
    case '\r': return UK_ENTER;
    case 27: return UK_ESC;
    case 127:
    case 8: return UK_BACKSPACE;
    default: return (int)ch;
    }
}

/*
 * The keys typed and not yet dispatched, in order.  The loop reads every
 * key waiting before it dispatches the first, and so does set_computing
 * before a computation starts (while it runs, on_alarm reads the keyboard
 * instead).  A q or Q among the keys waiting when a computation starts was
 * typed ahead of it, before any progress line asked "q: cancel": the
 * computation is cancelled at once and the view ends once the key that
 * started it returns, so a storm of keys, each a computation on a large
 * cluster, never holds up a quit.  Beyond TYPED_MAX keys waiting, the
 * newest are dropped (a q still counts).
 */
enum { TYPED_MAX = 4096 };
static int typed[TYPED_MAX];
static int typed_head;
static bool typed_quit_dropped;

static bool quits(int key)
{
    return key == 'q' || key == 'Q';
}

static void read_typed(void)
{
    if (!curses_on)
        return;
    wint_t ch;
    int r;
    while ((r = get_wch(&ch)) != ERR) {
        int key = map_key(r, ch);
        if (!key)
            continue;
        if (typed_len < TYPED_MAX)
            typed[(typed_head + typed_len++) % TYPED_MAX] = key;
        else if (quits(key))
            typed_quit_dropped = true;   /* no room to dispatch it: it still counts */
    }
}

/* The next key typed, or 0. */
static int next_typed(void)
{
    if (typed_len == 0)
        return 0;
    int key = typed[typed_head];
    typed_head = (typed_head + 1) % TYPED_MAX;
    typed_len--;
    return key;
}

/* Is a q among the keys waiting? */
static bool quit_waiting(void)
{
    if (typed_quit_dropped)
        return true;
    for (int i = 0; i < typed_len; i++)
        if (quits(typed[(typed_head + i) % TYPED_MAX]))
            return true;
    return false;
}

/*
 * Home and End differ between terminals (xterm: ESC O H, ESC [ H; tmux and
 * screen: ESC [ 1 ~, ESC [ 4 ~; rxvt: ESC [ 7 ~, ESC [ 8 ~), and TERM does not
 * always name the one in use (TERM=xterm-256color inside tmux is common).
 * Teach curses all of them; the terminfo ones stay.
 */
static void define_keys(void)
{
    static const struct {
        const char *seq;
        int key;
    } extra[] = {
        {"\033[1~", KEY_HOME}, {"\033[7~", KEY_HOME}, {"\033[H", KEY_HOME}, {"\033OH", KEY_HOME},
        {"\033[4~", KEY_END},  {"\033[8~", KEY_END},  {"\033[F", KEY_END},  {"\033OF", KEY_END},
        {"\033[5~", KEY_PPAGE}, {"\033[6~", KEY_NPAGE},
        {"\033[A", KEY_UP}, {"\033[B", KEY_DOWN}, {"\033[C", KEY_RIGHT}, {"\033[D", KEY_LEFT},
        {"\033OA", KEY_UP}, {"\033OB", KEY_DOWN}, {"\033OC", KEY_RIGHT}, {"\033OD", KEY_LEFT},
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (key_defined(extra[i].seq) == 0)
            define_key(extra[i].seq, extra[i].key);
}

/* ---- the loop ---- */

struct term {
    struct cellbuf cb;
    bool ascii, colour;
};

/* Shown while the core computes something long (an optimum, a search). */
static void show_busy(struct view *v, const char *what)
{
    struct term *t = v->busy_ctx;
    if (!curses_on || !t)
        return;
    int th, tw;
    getmaxyx(stdscr, th, tw);
    if (got_winch || tw != t->cb.w || th != t->cb.h || tw < UI_MIN_W || th < UI_MIN_H)
        return;   /* a resize not drawn yet: a buffer of the old size would wrap on the new screen */
    int w = t->cb.w;
    char line[200];   /* the seconds (tick() keeps them up to date), then the keys */
    snprintf(line, sizeof line, "   0.0 s %s q, Esc or Ctrl-C: cancel", t->ascii ? "-" : "\xc2\xb7");
    cb_fill(&t->cb, 0, t->cb.h - 3, w, 2, ' ', R_INFO);
    cb_text(&t->cb, 1, t->cb.h - 3, w - 2, what, R_INFO | AF_BOLD, t->ascii);
    cb_text(&t->cb, 1, t->cb.h - 2, w - 2, line, R_INFO | AF_BOLD, t->ascii);
    flush(&t->cb, t->ascii);
    tick_at(t->cb.h - 2, 1);
}

/* The one redraw, of the view or of hetcast join's screen: the buffer
 * sized to the screen, drawn by draw, flushed. */
void term_redraw(struct term *t, void (*draw)(void *ctx, struct cellbuf *cb), void *ctx)
{
    int h, w;
    getmaxyx(stdscr, h, w);
    if (w != t->cb.w || h != t->cb.h)
        cb_resize(&t->cb, w, h);
    draw(ctx, &t->cb);
    flush(&t->cb, t->ascii);
}

static void draw_view(void *ctx, struct cellbuf *cb)
{
    view_draw(ctx, cb);
}

/* Milliseconds on a clock that never jumps. */
static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The play timer keeps its own deadline: keys and resizes that arrive
 * between two steps do not restart the delay, so play keeps its rhythm
 * while the class presses keys (a step is due every view_play_ms).
 */
static int loop(struct view *v, struct term *t)
{
    bool dirty = true;
    long long due = -1;   /* when the next play step is due; -1: not playing */
    for (;;) {
        if (got_signal)
            return 128 + got_signal;
        if (quit_typed)   /* typed ahead of a computation the play timer started */
            return 0;
        if (dirty) {
            room_pane_follow(v);   /* a live class follows the slide shown */
            term_redraw(t, draw_view, v);
            dirty = false;
        }
        /* the keyboard, the signals' pipe, then a live class's room (never blocking) */
        static struct pollfd fds[2 + 2 + ROOM_CLIENTS_MAX];
        fds[0] = (struct pollfd){STDIN_FILENO, POLLIN, 0};
        fds[1] = (struct pollfd){sig_pipe[0], POLLIN, 0};
        int nfds = 2;
        int nroom = v->room ? room_pollfds(v->room, fds + 2, 2 + ROOM_CLIENTS_MAX) : 0;
        int timeout = -1;
        if (view_play_delay(v) < 0) {
            due = -1;
        } else {
            long long now = now_ms();
            if (due < 0 || due > now + view_play_ms(v))
                due = now + view_play_ms(v);
            timeout = due > now ? (int)(due - now) : 0;
        }
        if (v->room) {
            int rt = room_timeout(v->room, now_ms());
            if (rt >= 0 && (timeout < 0 || rt < timeout))
                timeout = rt;
        }
        int rc = poll(fds, (nfds_t)(nfds + nroom), timeout);
        if (got_signal)
            return 128 + got_signal;
        if (rc < 0 && errno != EINTR)
            return 1;
        if (v->room && rc >= 0) {
            if (room_service(v->room, fds + 2, rc > 0 ? nroom : 0, now_ms()))
                dirty = true;
            const char *trouble = room_trouble(v->room);
            if (trouble) {
                view_message(v, MSG_ERROR, "%s", trouble);
                dirty = true;
            }
        }
        if (sig_pipe[0] >= 0 && (fds[1].revents & POLLIN)) {
            char buf[16];
            while (read(sig_pipe[0], buf, sizeof buf) > 0)
                ;
        }
        if (got_winch) {
            got_winch = 0;
            resize();
            dirty = true;
            continue;
        }
        if (due >= 0 && now_ms() >= due) {   /* a play step is due, keys or not */
            due += view_play_ms(v);
            if (due < now_ms())   /* far behind (a stalled machine): no burst of steps */
                due = now_ms() + view_play_ms(v);
            if (view_tick(v) & UI_REDRAW)
                dirty = true;
        }
        if (rc == 0 || !fds[0].revents)
            continue;
        if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
            return 1;   /* the terminal went away */
        /* Read every key that is there (a resize interrupts poll with EINTR),
         * then dispatch them in order; a signal or a q typed ahead of a
         * computation (read_typed) ends the view between two keys. */
        read_typed();
        int key;
        while ((key = next_typed()) != 0) {
            unsigned res = view_key(v, key);
            if (res & UI_QUIT || quit_typed || (play_only && v->screen->id != SCR_EXERCISE && !v->screen->over))
                return 0;
            if (got_signal)
                return 128 + got_signal;
            if (res & UI_REDRAW || key == UK_RESIZE)
                dirty = true;
        }
    }
}

static int term_run(struct view *pv, const char *file);

/* At open, before curses: the progress line on stderr ("\r" and the line again). */
static void open_busy(struct view *v, const char *what)
{
    (void)v;
    tick_fd = -1;
    if (!isatty(STDERR_FILENO))
        return;
    struct winsize ws;
    int cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
    static const char keys[] = " s - q or Esc: cancel, Ctrl-C: quit";
    char *shown = text_escape(what);   /* names are not commands */
    /* One line, or "\r" would go back to the start of its last row only. */
    long room = (long)cols - 1 - (long)strlen(diag_who()) - (long)strlen(": , ") - 6 - (long)strlen(keys);
    size_t len = strlen(shown);
    if (room < 0)
        room = 0;
    bool cut = len > (size_t)room;
    if (cut)
        len = text_cut_len(shown, room > 3 ? (size_t)room - 3 : 0);
    int n = snprintf(tick_pre, sizeof tick_pre, "\r%s: %.*s%s, ", diag_who(), (int)len, shown,
                     cut ? "..." : "");
    free(shown);
    int m = snprintf(tick_post, sizeof tick_post, "%s\033[K", keys);
    if (n < 0 || (size_t)n >= sizeof tick_pre || m < 0 || (size_t)m >= sizeof tick_post)
        return;
    tick_pre_len = (size_t)n;
    tick_post_len = (size_t)m;
    clock_gettime(CLOCK_MONOTONIC, &tick_t0);
    tick_delay = 5;   /* a quick first schedule prints nothing: no flash before the view */
    tick_fd = STDERR_FILENO;   /* set_computing clears the line at the end */
}

/*
 * Open the view with its first computation watched (the header): on a
 * terminal, the keyboard in non-canonical mode without echo for on_alarm,
 * the signals caught; after it, the modes back and the keys typed
 * meanwhile dropped.  A signal there (Ctrl-C, SIGTERM, SIGHUP ...) leaves
 * with 128 + it, the view closed.
 */
struct opener {   /* what open_watched opens: a file (o) or a lesson's first slide (l) */
    const struct session_opts *o;
    const struct lesson *l;
};

static int open_with(struct view *v, const struct opener *op, const struct view *hooks, char **cause)
{
    return op->l ? screen_for(SCR_LESSON)->start(v, op->l, hooks, cause)   /* its first slide */
                 : view_open_hooked(v, op->o, hooks, cause);
}

static int open_watched(struct view *v, const struct opener *op, char **cause)
{
    if (!isatty(STDIN_FILENO))
        return open_with(v, op, NULL, cause);
    struct termios raw;
    have_cooked = tcgetattr(STDIN_FILENO, &cooked) == 0;
    install_signals();
    if (have_cooked) {
        raw = cooked;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        raw_on = 1;   /* a crash puts the modes back (no leave sequence yet) */
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    struct view hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.busy = open_busy;
    hooks.computing = set_computing;
    hooks.cancel = &cancel_flag;
    opening = 1;
    int status = open_with(v, op, &hooks, cause);
    opening = 0;
    if (have_cooked) {
        tcflush(STDIN_FILENO, TCIFLUSH);
        tcsetattr(STDIN_FILENO, TCSANOW, &cooked);
        raw_on = 0;
    }
    if (got_signal) {
        if (status == 0)
            view_close(v);
        free(*cause);
        *cause = xasprintf("interrupted (%s) before the view opened", strsignal(got_signal));
        return 128 + got_signal;
    }
    return status;
}

int term_view(const struct session_opts *o)
{
    setlocale(LC_CTYPE, "");   /* wide characters only: numbers stay in the C locale */
    /* The file first: a file that does not load says so, terminal or not. */
    struct view v;
    char *cause = NULL;
    struct opener op = {o, NULL};
    int status = open_watched(&v, &op, &cause);
    if (status != 0) {   /* "hetcast: why", as the command line says it */
        fputs(diag_who(), stderr);
        fputs(": ", stderr);
        text_put(cause ? cause : "cannot open the view", stderr);   /* names are not commands */
        fputc('\n', stderr);
        free(cause);
        return status;
    }
    return term_run(&v, o->file);
}

int term_lesson(const struct lesson *l, struct room *room)
{
    setlocale(LC_CTYPE, "");   /* as term_view: numbers stay in the C locale */
    struct view v;
    char *cause = NULL;
    struct opener op = {NULL, l};
    int status = open_watched(&v, &op, &cause);
    if (status != 0) {   /* names are not commands: escaped (text_put) */
        fputs(diag_who(), stderr);
        fputs(": ", stderr);
        text_put(l->path, stderr);
        fputs(": slide 1: ", stderr);
        text_put(cause ? cause : "cannot open the view", stderr);
        fputc('\n', stderr);
        free(cause);
        return status;
    }
    v.room = room;   /* the caller closes it after the view */
    return term_run(&v, l->slides[0].cluster);
}

/* Curses up on this terminal, the signals caught, the modes the view uses,
 * for what `file` names in a refusal.  0, or an exit status after a message
 * (the terminal as it was). */
static int curses_start(struct term *t, const char *file)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fputs(diag_who(), stderr);
        fputs(": the interactive view needs a terminal; for text output use hetcast run ", stderr);
        text_put(file ? file : "FILE", stderr);
        fputc('\n', stderr);
        return 2;
    }
    memset(t, 0, sizeof *t);
    const char *cs = nl_langinfo(CODESET);
    t->ascii = !(cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0));
    have_cooked = tcgetattr(STDIN_FILENO, &cooked) == 0;
    install_signals();
    atexit(term_end);
    if (!initscr()) {
        fprintf(stderr, "%s: cannot start the terminal\n", diag_who());
        return 1;
    }
    curses_on = true;
    /* A terminal that cannot move the cursor (TERM=dumb, an editor's shell)
     * would get a blank screen: say so instead. */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        term_end();
        const char *tn = getenv("TERM");
        fputs(diag_who(), stderr);
        fputs(": this terminal (TERM=", stderr);
        text_put(tn && tn[0] ? tn : "unset", stderr);
        fputs(") cannot draw the view: it cannot move the cursor; set TERM to your terminal's "
              "type (e.g. xterm-256color), or use hetcast run ", stderr);
        text_put(file ? file : "FILE", stderr);
        fputc('\n', stderr);
        return 2;
    }
    save_leave_seq();
    raw_on = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    define_keys();
    nodelay(stdscr, TRUE);
    set_escdelay(50);
    curs_set(0);
    const char *nc = getenv("NO_COLOR");
    t->colour = has_colors() && !(nc && nc[0]);
    if (t->colour) {
        start_color();
        use_default_colors();
    }
    init_styles(t->colour);
    int h, w;
    getmaxyx(stdscr, h, w);
    cb_init(&t->cb, w, h);
    return 0;
}

static void curses_stop(struct term *t)
{
    term_end();
    cb_free(&t->cb);
    if (sig_pipe[0] >= 0) {
        close(sig_pipe[0]);
        close(sig_pipe[1]);
        sig_pipe[0] = sig_pipe[1] = -1;
    }
}

/* The terminal around an opened view: curses up, the loop, everything restored. */
static int term_run(struct view *pv, const char *file)
{
    struct view *v = pv;
    struct term t;
    int status = curses_start(&t, file);
    if (status != 0) {
        view_close(v);
        return status;
    }
    v->colour = t.colour;
    v->ascii = t.ascii;
    v->busy = show_busy;
    v->busy_ctx = &t;
    v->computing = set_computing;
    v->cancel = &cancel_flag;

    status = loop(v, &t);

    curses_stop(&t);
    view_close(v);
    return status;
}

/* ---- for hetcast join (ui/join.c): the same terminal, its own screen ---- */

struct term *term_open(const char *file, int *status)
{
    struct term *t = xcalloc(1, sizeof *t);
    *status = curses_start(t, file);
    if (*status != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void term_close(struct term *t)
{
    curses_stop(t);
    free(t);
}

bool term_ascii(const struct term *t)
{
    return t->ascii;
}

int term_wait(struct term *t, int fd, bool *keys, short *ready)
{
    (void)t;
    *keys = false;
    *ready = 0;
    if (got_signal)
        return 128 + got_signal;
    struct pollfd fds[3] = {{STDIN_FILENO, POLLIN, 0}, {sig_pipe[0], POLLIN, 0}, {fd, POLLIN, 0}};
    int rc = poll(fds, fd >= 0 ? 3 : 2, -1);
    if (got_signal)
        return 128 + got_signal;
    if (rc < 0 && errno != EINTR)
        return 1;
    if (rc < 0)
        return 0;
    if (fds[1].revents & POLLIN) {
        char buf[16];
        while (read(sig_pipe[0], buf, sizeof buf) > 0)
            ;
    }
    if (got_winch) {
        got_winch = 0;
        resize();
    }
    *ready = fd >= 0 ? fds[2].revents : 0;
    if (fds[0].revents & POLLIN) {
        read_typed();
        *keys = true;
    }
    return 0;
}

int term_key(void)
{
    return next_typed();
}

int term_play(struct term *t, struct view *v, int arg)
{
    v->colour = t->colour;
    v->ascii = t->ascii;
    v->busy = show_busy;
    v->busy_ctx = t;
    v->computing = set_computing;
    v->cancel = &cancel_flag;
    if (view_screen_open(v, screen_for(SCR_EXERCISE), arg) < 0)
        return -1;
    play_only = true;
    int status = loop(v, t);
    play_only = false;
    quit_typed = 0;
    if (v->screen->id == SCR_EXERCISE)
        view_screen_close(v);   /* its choices stay for the next Enter */
    return status;
}
