/*
 * test_ui_cellbuf.c - the view's neutral screen (ui/cellbuf.c): clipping,
 * UTF-8 decoding, wide characters and their continuation cells, text cut
 * with an ellipsis, ASCII fallback, and reading rows back as text.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "ui/cellbuf.h"
#include "tap.h"

static void row_is(const struct cellbuf *cb, int y, const char *want, const char *what)
{
    char *got = cb_row(cb, y);
    is_string(got, want, "%s", what);
    free(got);
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        setlocale(LC_ALL, "");
    struct cellbuf cb;
    cb_init(&cb, 10, 3);
    is_int(cb.w * cb.h, 30, "10x3 cells");
    row_is(&cb, 0, "", "a new buffer is blank");

    is_int(cb_text(&cb, 0, 0, -1, "hello", R_NORMAL, false), 5, "text returns its width");
    row_is(&cb, 0, "hello", "text lands in the row");
    is_int(cb_text(&cb, 0, 1, 6, "broadcast", R_NORMAL, false), 6, "cut to 6 columns");
    row_is(&cb, 1, "broad\xe2\x80\xa6", "with an ellipsis");
    cb_text(&cb, 0, 2, 6, "broadcast", R_NORMAL, true);
    row_is(&cb, 2, "broad~", "ASCII ellipsis");

    cb_clear(&cb);
    cb_text(&cb, 7, 0, -1, "clipped", R_NORMAL, false);
    row_is(&cb, 0, "       cl\xe2\x80\xa6", "clipped at the right edge");
    cb_put(&cb, -1, 0, 'x', R_NORMAL);
    cb_put(&cb, 0, 5, 'x', R_NORMAL);
    cb_fill(&cb, 8, 1, 5, 5, '#', R_SEND);
    row_is(&cb, 1, "        ##", "fill clipped to the grid");
    is_int(cb_at(&cb, 9, 1)->attr, R_SEND, "attribute stored");
    ok(cb_at(&cb, 10, 0) == NULL && cb_at(&cb, 0, -1) == NULL, "outside is NULL");

    cb_clear(&cb);
    int len;
    is_int(utf8_decode("\xe2\x96\x93", &len), 0x2593, "decodes a 3-byte character");
    is_int(len, 3, "of 3 bytes");
    is_int(utf8_decode("\xff", &len), '?', "invalid byte -> ?");
    is_int(utf8_decode("\xe2\x96", &len), '?', "truncated sequence -> ?");
    is_int(text_width("p0 \xe2\x86\x92 p1"), 7, "arrows are one column");
    is_int(text_width("\xe7\xaf\x80\xe7\x82\xb9"), 4, "CJK is two columns each");

    /* A wide character and what overwriting half of it does. */
    cb_text(&cb, 0, 0, -1, "\xe7\xaf\x80x", R_NORMAL, false);
    is_int(cb_at(&cb, 0, 0)->ch, 0x7bc0, "wide character in its cell");
    is_int(cb_at(&cb, 1, 0)->ch, 0, "and a continuation cell");
    row_is(&cb, 0, "\xe7\xaf\x80x", "reads back as written");
    cb_put(&cb, 1, 0, 'y', R_NORMAL);
    row_is(&cb, 0, " yx", "overwriting the right half blanks the left");
    cb_put(&cb, 9, 1, 0x7bc0, R_NORMAL);
    is_int(cb_at(&cb, 9, 1)->ch, ' ', "no room for a wide character at the edge");
    is_int(cb_text(&cb, 9, 1, -1, "\xe7\xaf\x80", R_NORMAL, false), 1, "as text: an ellipsis");
    cb_put(&cb, 9, 1, ' ', R_NORMAL);
    cb_text(&cb, 0, 2, -1, "a\tb", R_NORMAL, false);
    row_is(&cb, 2, "a?b", "control characters show as ?");
    cb_text(&cb, 4, 2, -1, "\xe2\x86\x92", R_NORMAL, true);
    row_is(&cb, 2, "a?b ?", "non-ASCII in ASCII mode shows as ?");

    int x, y;
    ok(cb_find(&cb, "yx", &x, &y) && x == 1 && y == 0, "cb_find gives the column");
    ok(!cb_find(&cb, "zz", NULL, NULL), "cb_find misses what is not there");
    char *all = cb_dump(&cb);
    is_string(all, " yx\n\na?b ?\n", "cb_dump joins the rows");
    free(all);

    cb_textf(&cb, 0, 1, -1, R_NORMAL, false, "%d/%d", 3, 8);
    row_is(&cb, 1, "3/8", "cb_textf formats");
    cb_resize(&cb, 4, 2);
    ok(cb.w == 4 && cb.h == 2, "resized");
    row_is(&cb, 0, "", "a resized buffer is blank");
    cb_free(&cb);
    return tap_exit();
}
