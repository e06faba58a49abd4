/*
 * model/csvread_fast.c - docs/formats.md's short decimals read without strtod
 * (model/csvread_fast.h), to the very double strtod gives.
 */
#include "model/csvread_fast.h"

#include <stdint.h>

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/*
 * At most 15 significant digits and a power of ten within 22 make the
 * digits m and 10^|e| exact doubles, so m * 10^e or m / 10^-e is one
 * correctly rounded operation, the very double strtod gives (Clinger's
 * fast path).  It checks the syntax as it goes, so a true answer means s
 * has the SPEC's syntax too.
 */
bool csvread_fast_decimal(const char *s, double *out)
{
    static const double pow10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                                     1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                                     1e20, 1e21, 1e22};
    bool neg = *s == '-';
    if (*s == '+' || *s == '-')
        s++;
    uint64_t m = 0;
    int digits = 0, seen = 0, scale = 0;   /* significant digits, all digits */
    for (; is_digit(*s); s++, seen++)
        if (digits || *s != '0') {
            m = m * 10 + (uint64_t)(*s - '0');
            if (++digits > 15)
                return false;
        }
    if (*s == '.')
        for (s++; is_digit(*s); s++, seen++) {
            scale--;
            if (digits || *s != '0') {
                m = m * 10 + (uint64_t)(*s - '0');
                if (++digits > 15)
                    return false;
            }
        }
    if (!seen)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        bool eneg = *s == '-';
        if (*s == '+' || *s == '-')
            s++;
        if (!is_digit(*s))
            return false;
        int x = 0;
        for (; is_digit(*s); s++)
            if ((x = x * 10 + (*s - '0')) > 1000)
                return false;
        scale += eneg ? -x : x;
    }
    if (*s != '\0' || scale < -22 || scale > 22)
        return false;
    double v = (double)m;
    v = scale < 0 ? v / pow10[-scale] : v * pow10[scale];
    *out = neg ? -v : v;
    return true;
}
