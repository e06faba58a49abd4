/*
 * support/numfmt_fast.c - "%.*g" and the shortest of them that reads back, in
 * 128-bit integers (support/numfmt_fast.h), beside support/numfmt.c's snprintf and strtod.
 */
#include "support/numfmt_fast.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* 10^k for 0 <= k <= 38. */
static u128 pow10_128(int k)
{
    static const uint64_t p[20] = {
        1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
        100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
        10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
        100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
    };
    return k < 20 ? (u128)p[k] : (u128)p[19] * p[k - 19];
}

static int bits_of(u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
    return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

/* A positive normal double as m 2^e (m < 2^53, the hidden bit in). */
struct dbl {
    uint64_t m;
    int e;
    bool pow2;   /* m = 2^52 above the least exponent: the gap below is half the gap above */
};

static bool split(double x, struct dbl *d)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int be = (int)(b >> 52 & 0x7ff);
    if (be == 0 || be == 0x7ff)
        return false;   /* zero, subnormal, inf, nan */
    d->m = (b & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
    d->e = be - 1075;
    d->pow2 = d->m == UINT64_C(1) << 52 && be > 1;
    return true;
}

/* x 10^k = num / den, with room for the checks' factor 4 and one more bit. */
struct frac {
    u128 num, den, g;   /* g = 2^max(e,0) 10^max(k,0): x's gap is 2g in den units of num */
    int shift;          /* den is 2^shift exactly (then the division is a shift), or -1 */
};

static bool scale(const struct dbl *d, int k, struct frac *f)
{
    if (k > 38 || k < -38 || d->e > 70 || d->e < -120)
        return false;
    u128 num = d->m, g = 1, den10 = 1;
    int sh = d->e < 0 ? -d->e : 0;
    if (d->e > 0) {
        num <<= d->e;
        g <<= d->e;
    }
    if (k > 0) {
        u128 t = pow10_128(k);
        if (bits_of(num) + bits_of(t) > 124)
            return false;
        num *= t;
        g *= t;
    } else if (k < 0) {
        den10 = pow10_128(-k);
    }
    if (sh + bits_of(den10) > 124)
        return false;
    f->num = num;
    f->g = g;
    f->den = den10 << sh;
    f->shift = den10 == 1 ? sh : -1;
    return true;
}

/* num / den rounded half to even, and whether that reads back as x. */
static u128 round_frac(const struct frac *f, const struct dbl *d, bool *back)
{
    u128 q, r;
    if (f->shift >= 0) {
        q = f->num >> f->shift;
        r = f->num - (q << f->shift);
    } else {
        q = f->num / f->den;
        r = f->num - q * f->den;
    }
    if (2 * r > f->den || (2 * r == f->den && (q & 1)))
        q++;
    if (back) {
        /* distance from x, times 4 den, against half the gap: 2g above, g or 2g below */
        u128 a = 4 * q * f->den, b = 4 * f->num, hi = 2 * f->g, lo = d->pow2 ? f->g : 2 * f->g;
        bool even = !(d->m & 1);
        if (a >= b)
            *back = a - b < hi || (a - b == hi && even);
        else
            *back = b - a < lo || (b - a == lo && even);
    }
    return q;
}

/* The decimal exponent X of x: 10^X <= x < 10^(X+1), from floor(x 10^(16-X))
 * (a shift, not a division, while X <= 16). */
static bool exponent(const struct dbl *d, int *X)
{
    int x = (int)((d->e + 52) * 0.30102999566398120);   /* log10(2) */
    if (d->e + 52 < 0)
        x--;   /* truncation toward zero */
    u128 lo = pow10_128(16), hi = pow10_128(17);
    for (int tries = 0; tries < 4; tries++) {
        struct frac f;
        if (!scale(d, 16 - x, &f))
            return false;
        u128 q = f.shift >= 0 ? f.num >> f.shift : f.num / f.den;
        if (q >= hi)
            x++;
        else if (q < lo)
            x--;
        else {
            *X = x;
            return true;
        }
    }
    return false;
}

/* x's P digits as %.Pg rounds them: *digits in [10^(P-1), 10^P), *X the exponent. */
static bool digits_at(const struct dbl *d, int X, int P, u128 *digits, int *outX, bool *back)
{
    struct frac f;
    if (!scale(d, P - 1 - X, &f))
        return false;
    u128 q = round_frac(&f, d, back);
    if (q == pow10_128(P)) {   /* rounded up to the next power of ten */
        q = pow10_128(P - 1);
        X++;
    }
    *digits = q;
    *outX = X;
    return true;
}

/* Lay out P digits with exponent X as %.Pg does (no '#': trailing zeros dropped). */
static void layout(char *buf, bool neg, u128 digits128, int P, int X)
{
    char dg[40];
    uint64_t digits = (uint64_t)digits128;   /* < 10^17 */
    for (int i = P - 1; i >= 0; i--) {
        dg[i] = (char)('0' + (int)(digits % 10));
        digits /= 10;
    }
    int nd = P;
    char *o = buf;
    if (neg)
        *o++ = '-';
    if (X < -4 || X >= P) {
        while (nd > 1 && dg[nd - 1] == '0')
            nd--;
        *o++ = dg[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, dg + 1, (size_t)nd - 1);
            o += nd - 1;
        }
        *o++ = 'e';
        *o++ = X < 0 ? '-' : '+';
        int ax = X < 0 ? -X : X;
        if (ax >= 100)
            *o++ = (char)('0' + ax / 100);
        *o++ = (char)('0' + ax / 10 % 10);
        *o++ = (char)('0' + ax % 10);
    } else if (X >= 0) {
        /* X + 1 integer digits, then P - 1 - X decimals */
        int frac = P - 1 - X;
        while (frac > 0 && dg[X + frac] == '0')
            frac--;
        memcpy(o, dg, (size_t)X + 1);
        o += X + 1;
        if (frac > 0) {
            *o++ = '.';
            memcpy(o, dg + X + 1, (size_t)frac);
            o += frac;
        }
    } else {
        /* 0.000ddd: -X - 1 zeros, then the digits */
        while (nd > 1 && dg[nd - 1] == '0')
            nd--;
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -X - 1; i++)
            *o++ = '0';
        memcpy(o, dg, (size_t)nd);
        o += nd;
    }
    *o = '\0';
}

int numfmt_fast_g(char buf[NUMFMT_SIZE], double x, int p)
{
    struct dbl d;
    int X;
    u128 dg;
    if (p < 1 || p > 17 || !split(x < 0 ? -x : x, &d) || !exponent(&d, &X) ||
        !digits_at(&d, X, p, &dg, &X, NULL))
        return 0;
    layout(buf, x < 0, dg, p, X);
    return 1;
}

int numfmt_fast_shortest(char buf[NUMFMT_SIZE], double x, int lo)
{
    struct dbl d;
    int X;
    if (lo < 1 || lo > 17 || !split(x < 0 ? -x : x, &d) || !exponent(&d, &X))
        return 0;
    u128 dg[18];
    int ex[18];
    bool back[18] = {0};
    /* does precision P read back? (computed once each) */
    signed char known[18] = {0};
#define TRY(P)                                                                     \
    (known[P] ? back[P]                                                            \
              : (known[P] = 1, digits_at(&d, X, P, &dg[P], &ex[P], &back[P]) ? back[P] \
                                                                             : (known[P] = -1, false)))
    int best = -1;
    if (d.pow2) {
        /* not monotone at a power of two: every precision in turn, as the loop does */
        for (int P = lo; P <= 17 && best < 0; P++)
            if (TRY(P))
                best = P;
    } else if (TRY(lo)) {
        best = lo;
    } else if (lo < 16 && !TRY(16)) {
        best = 17;   /* a sum's rounding shows: 17 digits (they always read back) */
        TRY(17);
    } else {
        /* lo fails, 16 or 17 reads back: the least P that does, by halving */
        int a = lo, b = lo < 16 ? 16 : 17;   /* a fails, b reads back */
        while (b - a > 1) {
            int mid = (a + b) / 2;
            if (TRY(mid))
                b = mid;
            else
                a = mid;
        }
        if (TRY(b))
            best = b;
    }
#undef TRY
    for (int P = lo; P <= 17; P++)
        if (known[P] < 0)
            return 0;   /* a precision out of the integers' reach: the readable path */
    if (best < 0)
        return 0;
    layout(buf, x < 0, dg[best], best, ex[best]);
    return 1;
}
