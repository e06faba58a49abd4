/*
 * test_numfmt.c - support/numfmt.h, the one number formatter: the edge cases (-0,
 * 1e308, subnormals, integers, 0.1 + 0.2, inf, nan) written as before, the
 * shortest text read back to the same double and one digit fewer not, the
 * cluster-file and people's forms, and a decimal point whatever the
 * program's locale.  And the fast path (support/numfmt_fast.c) against the
 * readable snprintf/strtod loop, string for string, on 500 000 random
 * doubles of every kind (5 000 at the small scale, tap_scale; HETCAST_NUMFMT_CHECK=N for
 * N: performance.md gives a run of 10 million).  TAP.
 */
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/fastpath.h"
#include "support/numfmt.h"
#include "support/numfmt_fast.h"
#include "support/rng.h"
#include "tap.h"

static void test_cases(void)
{
    static const struct {
        double x;
        const char *shortest, *text, *plain;
    } cases[] = {
        {0.0, "0", "0", "0"},
        {-0.0, "-0", "-0", "0"},
        {3, "3", "3", "3"},
        {-42, "-42", "-42", "-42"},
        {1e6, "1e+06", "1e+06", "1000000"},
        {123456789, "123456789", "123456789", "123456789"},
        {1e15, "1e+15", "1e+15", "1e+15"},
        {2.5, "2.5", "2.5", "2.5"},
        {0.1, "0.1", "0.1", "0.1"},
        {0.1 + 0.2, "0.30000000000000004", "0.3", "0.30000000000000004"},
        {1e308, "1e+308", "1e+308", "1e+308"},
        {1.7976931348623157e308, "1.7976931348623157e+308", "1.797693135e+308",
         "1.7976931348623157e+308"},
        {2.2250738585072014e-308, "2.2250738585072014e-308", "2.225073859e-308",
         "2.2250738585072014e-308"},
        {5e-324, "4.94066e-324", "4.94066e-324", "4.94065645841247e-324"},
        {1e-7, "1e-07", "1e-07", "1e-07"},
        {49.890000000000015, "49.890000000000015", "49.89", "49.890000000000015"},
        {1234567.5, "1234567.5", "1234567.5", "1234567.5"},
        {123456789012345678.0, "1.2345678901234568e+17", "1.23456789e+17",
         "1.2345678901234568e+17"},
        {INFINITY, "inf", "inf", NULL},
        {-INFINITY, "-inf", "-inf", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[NUMFMT_SIZE];
        is_string(numfmt_shortest(buf, cases[i].x), cases[i].shortest, "shortest %.17g",
                  cases[i].x);
        is_string(numfmt_text(buf, cases[i].x), cases[i].text, "text %.17g", cases[i].x);
        if (cases[i].plain)
            is_string(numfmt_plain(buf, cases[i].x), cases[i].plain, "plain %.17g", cases[i].x);
    }
    char buf[NUMFMT_SIZE];
    const char *nan_text = numfmt_shortest(buf, NAN);
    ok(strcmp(nan_text, "nan") == 0 || strcmp(nan_text, "-nan") == 0, "nan: %s", nan_text);
    is_double(numfmt_round(0.37499999999999983, 12), 0.375, 0, "round to 12 digits: 0.375");
    is_double(numfmt_round(0.19999999999999993, 12), 0.2, 0, "round to 12 digits: 0.2");
    is_double(numfmt_round(2.5, 1), 2, 0, "round to 1 digit: 2 (ties to even, as printf)");
}

/* Random doubles of every kind read back exactly, with the fewest digits. */
static void test_random(void)
{
    struct rng r;
    rng_seed(&r, 3);
    int back = 0, fewest = 0, plain_back = 0, n = 100000;
    for (int i = 0; i < n; i++) {
        uint64_t bits = rng_next(&r);
        double x;
        if (i % 3 == 0) {
            memcpy(&x, &bits, sizeof x);
            if (!isfinite(x))
                x = (double)(bits >> 12) / 4096;
        } else if (i % 3 == 1) {
            x = (double)(bits % 100000) / 100;
        } else {
            x = ldexp((double)(bits >> 11), -(int)(bits % 1100));
        }
        char buf[NUMFMT_SIZE], shorter[512];
        numfmt_shortest(buf, x);
        double y = strtod(buf, NULL);
        back += memcmp(&x, &y, sizeof x) == 0;
        int prec = 6;   /* the precision that wrote buf */
        for (; prec < 17; prec++) {
            snprintf(shorter, sizeof shorter, "%.*g", prec, x);
            if (strcmp(shorter, buf) == 0)
                break;
        }
        snprintf(shorter, sizeof shorter, "%.*g", prec - 1, x);
        fewest += prec == 6 || strtod(shorter, NULL) != x;
        numfmt_plain(buf, x);
        y = strtod(buf, NULL);
        plain_back += x == y;
    }
    is_int(back, n, "shortest: every random double reads back bit for bit");
    is_int(fewest, n, "shortest: one digit fewer would not read back (above 6 digits)");
    is_int(plain_back, n, "plain: every random double reads back");
}

/* A decimal comma locale changes nothing (the view calls setlocale). */
static void test_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    if (!got) {
        for (int i = 0; i < 4; i++)
            ok(1, "locale: decimal comma locale # SKIP none installed");
        return;
    }
    char buf[NUMFMT_SIZE];
    is_string(numfmt_shortest(buf, 2.5), "2.5", "locale %s: shortest has a decimal point", got);
    is_string(numfmt_text(buf, 49.890000000000015), "49.89", "locale %s: text too", got);
    is_string(numfmt_plain(buf, 0.25), "0.25", "locale %s: plain too", got);
    is_double(numfmt_round(0.37499999999999983, 12), 0.375, 0, "locale %s: round too", got);
    setlocale(LC_NUMERIC, "C");
}

/* A random double of kind i % 9: any bits; two-decimal times and their sums
 * (the reports' numbers); long sums; scaled integers; powers of two (their
 * gap below is half the one above) and their neighbours; near powers of
 * ten; halfway cases; anything in 1e-25 .. 1e40. */
static double random_double(struct rng *r, long i)
{
    uint64_t b = rng_next(r);
    double x;
    switch (i % 9) {
    case 0:
        memcpy(&x, &b, sizeof x);
        return isfinite(x) ? x : (double)(b >> 12);
    case 1:
        return (double)(b % 10000000) / 100;
    case 2:
        return (double)(b % 100000) / 100 + (double)(b >> 20 & 0xfffff) / 100;
    case 3: {
        double s = 0;
        for (int k = 0; k < (int)(b % 64); k++)
            s += (double)(rng_next(r) % 1000) / 100;
        return s;
    }
    case 4:
        return (double)(int64_t)(b >> 9) / (double)(1 << (b & 15)) * (b >> 63 ? -1 : 1);
    case 5: {
        double p = ldexp(1.0, (int)(b % 200) - 100);
        int step = (int)(b >> 8 & 3) - 1;
        return step < 0 ? nextafter(p, 0) : step > 0 ? nextafter(p, INFINITY) : p;
    }
    case 6: {
        double p = pow(10, (int)(b % 60) - 25);
        for (int k = 0; k < (int)(b >> 8 & 3); k++)
            p = nextafter(p, (b >> 12 & 1) ? INFINITY : 0);
        return p;
    }
    case 7:   /* x.5 at many scales: ties for %.Pg */
        return ((double)(b % 1000000) + 0.5) * pow(10, -(int)(b >> 20 & 15));
    default:
        return ldexp((double)(b >> 11), (int)(b % 190) - 135) * (b & 1 ? -1 : 1);
    }
}

static void test_fast_switch(void)
{
    const char *want = getenv("HETCAST_NUMFMT_CHECK");
    long n = want ? atol(want) : tap_scale(500000, 5000);
    long same = 0, taken = 0, shown = 0;
    struct rng r;
    rng_seed(&r, 19);
    for (long i = 0; i < n; i++) {
        double x = random_double(&r, i);
        char a[3][NUMFMT_SIZE], b[3][NUMFMT_SIZE];
        fastpath_set(true);
        numfmt_shortest(a[0], x);
        numfmt_text(a[1], x);
        numfmt_plain(a[2], x);
        fastpath_set(false);
        numfmt_shortest(b[0], x);
        numfmt_text(b[1], x);
        numfmt_plain(b[2], x);
        int digits = 1 + (int)(i % 17);   /* numfmt_round: the digits from the bits, or snprintf's */
        fastpath_set(true);
        double ra = numfmt_round(x, digits);
        fastpath_set(false);
        double rb = numfmt_round(x, digits);
        bool eq = strcmp(a[0], b[0]) == 0 && strcmp(a[1], b[1]) == 0 && strcmp(a[2], b[2]) == 0 &&
                  memcmp(&ra, &rb, sizeof ra) == 0;
        if (!eq && shown++ < 5)
            diag("%a: fast %s %s %s %a, readable %s %s %s %a (round to %d)", x, a[0], a[1], a[2], ra,
                 b[0], b[1], b[2], rb, digits);
        same += eq;
        double ax = fabs(x);
        taken += ax > 1e-20 && ax < 1e35;
    }
    for (int z = 0; z < 2; z++) {   /* +0 and -0 round to themselves, sign and all */
        double x = z ? -0.0 : 0.0;
        fastpath_set(true);
        double ra = numfmt_round(x, 12);
        fastpath_set(false);
        double rb = numfmt_round(x, 12);
        bool eq = memcmp(&ra, &rb, sizeof ra) == 0 && memcmp(&ra, &x, sizeof ra) == 0;
        if (!eq)
            diag("numfmt_round(%g, 12): fast %g, readable %g", x, ra, rb);
        same += eq;
    }
    n += 2;
    fastpath_set(true);
    is_int(same, n, "fast path: the same shortest, text and plain strings and the same "
                    "numfmt_round as snprintf and strtod on %ld random doubles", n);
    ok(taken > n / 2, "most of them are in the fast path's range (%ld)", taken);
}

/* numfmt_fast_g against snprintf's "%.*g" (the list policies' reasons print their numbers with
 * it, at P = 6, as %g): where it takes x, the same text, on the edges (zeros, subnormals, 1e300,
 * ties at six digits, powers of two and ten) and on the random doubles of every kind. */
static void test_fast_g(void)
{
    static const double edges[] = {0.0, -0.0, 0x1p-1074, 4e-320, 0x1p-1022, 1e300, -1e300, 1e-300,
                                   0.5, 2.5, 1234565, 1234575, 0.1234565, 999999.5, 9999995,
                                   1e35, 1e-20, 1e100, 1 + 0x1p-52, 3.0000005, 0.30000000000000004};
    struct rng r;
    rng_seed(&r, 23);
    long n = tap_scale(200000, 2000), cases = 0, same = 0, taken = 0, shown = 0;
    int nedges = (int)(sizeof edges / sizeof edges[0]);
    for (long i = 0; i < n + nedges; i++) {
        double x = i < nedges ? edges[i] : random_double(&r, i);
        for (int p = i < nedges ? 1 : 6; p <= (i < nedges ? 17 : 6); p++) {
            char fast[NUMFMT_SIZE], slow[NUMFMT_SIZE];
            snprintf(slow, sizeof slow, "%.*g", p, x);
            cases++;
            if (!numfmt_fast_g(fast, x, p)) {
                same++;   /* not taken: the caller prints it with snprintf */
                continue;
            }
            taken++;
            bool eq = strcmp(fast, slow) == 0;
            if (!eq && shown++ < 5)
                diag("%a at %d digits: fast %s, snprintf %s", x, p, fast, slow);
            same += eq;
        }
    }
    is_int(same, cases, "numfmt_fast_g writes what %%.*g writes wherever it takes the number "
                        "(%ld cases, %ld taken: edges at every precision, random doubles at 6)",
           cases, taken);
    ok(taken > cases / 2, "most of them are taken (%ld of %ld)", taken, cases);
}

int main(void)
{
    test_cases();
    test_fast_switch();
    test_fast_g();
    test_random();
    test_locale();
    return tap_exit();
}
