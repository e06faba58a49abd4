/*
 * glyphs.c - the view's alphabet (ui/glyphs.h): the two glyph sets, and
 * numbers rounded for reading.  Fill characters differ per kind of bar
 * (send, link, receive), so the picture reads without colour too.
 */
#include "ui/glyphs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/numfmt.h"

static const struct glyphs g_uni = {
    {0x2593, 0x2550, 0x2588}, {0x2591, 0x2504, 0x2591},
    0x2573, 0x00b7,
    0x2500, 0x2502, 0x252c, 0x2503, 0x254b, 0x251c, 0x2514, 0x2502, 0x25c6, 0x25b8, 0x2502, 0x258f,
    0x2523, 0x2517, 0x2501,
    "\xe2\x86\x92", "\xe2\x86\x90", "->", "\xe2\x86\x90", "\xe2\x86\x92", "\xe2\x86\x91\xe2\x86\x93",
    " \xc2\xb7 ",
    "\xe2\x86\x91", "\xe2\x86\x93",
    0x25ce,
};

static const struct glyphs g_ascii = {
    {'=', '-', '#'}, {'.', '.', '.'},
    'x', ':',
    '-', '|', '+', '!', '!', '|', '`', '|', '*', '>', '|', '|',
    '#', '#', '=',
    ">", "<", "->", "left", "right", "up/down", " | ",
    "up", "down",
    '@',
};

const struct glyphs *glyphs_for(bool ascii)
{
    return ascii ? &g_ascii : &g_uni;
}

/*
 * A number for reading on screen: four significant digits, no exponent in
 * the usual range (0.30000000000000004 is "0.3", 1/3 "0.3333"); CSV and
 * JSON keep every digit (output/report.c).  8 rotating buffers.
 */
const char *ui_num(double x)
{
    static char bufs[8][32];
    static int next;
    double a = fabs(x);
    if (!isfinite(x) || a == 0 || a >= 1e7 || a < 1e-4)
        return numfmt_txt(x);
    char *b = bufs[next++ & 7];
    int dec = 3 - (int)floor(log10(a));
    if (dec < 0)
        dec = 0;
    if (dec > 6)
        dec = 6;
    snprintf(b, sizeof bufs[0], "%.*f", dec, x);
    if (strchr(b, '.')) {   /* 2.500 -> 2.5, 6.000 -> 6 */
        char *e = b + strlen(b) - 1;
        while (*e == '0')
            *e-- = '\0';
        if (*e == '.')
            *e = '\0';
    }
    if (strcmp(b, "-0") == 0)
        snprintf(b, sizeof bufs[0], "0");
    return b;
}
