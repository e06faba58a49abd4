/*
 * fuzz_output.h - the validity of what hetcast writes, as the harnesses
 * check it (fuzz_common.h's fuzz_schedule, fuzz_names.c): every JSON report
 * parses as JSON (RFC 8259: one value, strings of valid UTF-8 with no raw
 * control character, numbers as the grammar says, no inf or nan), every
 * SVG is well-formed XML (libxml2 when the build has it, else a smaller
 * check of the characters, the references and the tags' balance), and a
 * text report holds no control byte but '\n' and only valid UTF-8.
 *
 * Each check returns NULL, or what is wrong (a static string).  Everything
 * here is static: each harness is one translation unit.
 */
#ifndef HETCAST_FUZZ_OUTPUT_H
#define HETCAST_FUZZ_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "support/diag.h"

#ifdef HETCAST_FUZZ_LIBXML2
#include <libxml/parser.h>
#endif

/* ---- JSON ---- */

struct jp {
    const char *p, *end;
    int depth;
    const char *why;
};

static void jp_ws(struct jp *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static bool jp_fail(struct jp *j, const char *why)
{
    if (!j->why)
        j->why = why;
    return false;
}

static bool jp_value(struct jp *j);

static bool jp_string(struct jp *j)
{
    j->p++;   /* the opening quote */
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20)
            return jp_fail(j, "a raw control character in a string");
        if (c == '\\') {
            j->p++;
            if (j->p >= j->end)
                return jp_fail(j, "a string that does not end");
            char e = *j->p;
            if (e == 'u') {
                for (int i = 1; i <= 4; i++) {
                    char h = j->p + i < j->end ? j->p[i] : 0;
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                        return jp_fail(j, "a \\u escape without four hex digits");
                }
                j->p += 5;
            } else if (strchr("\"\\/bfnrt", e) && e) {
                j->p++;
            } else {
                return jp_fail(j, "an unknown escape in a string");
            }
            continue;
        }
        if (c < 0x80) {
            j->p++;
            continue;
        }
        /* a multi-byte character: valid UTF-8 (C1 controls are fine in JSON) */
        int k = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (!k || j->end - j->p < k)
            return jp_fail(j, "a string that is not UTF-8");
        unsigned cp = c & (k == 2 ? 0x1fu : k == 3 ? 0x0fu : 0x07u);
        for (int i = 1; i < k; i++) {
            unsigned char b = (unsigned char)j->p[i];
            if ((b & 0xc0) != 0x80)
                return jp_fail(j, "a string that is not UTF-8");
            cp = cp << 6 | (b & 0x3fu);
        }
        if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return jp_fail(j, "a string that is not UTF-8 (overlong, surrogate or too large)");
        j->p += k;
    }
    if (j->p >= j->end)
        return jp_fail(j, "a string that does not end");
    j->p++;
    return true;
}

static bool jp_digits(struct jp *j)
{
    const char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > s;
}

static bool jp_number(struct jp *j)
{
    if (*j->p == '-')
        j->p++;
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (!jp_digits(j))
        return jp_fail(j, "a number without digits (inf? nan?)");
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!jp_digits(j))
            return jp_fail(j, "a number with no digit after its point");
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!jp_digits(j))
            return jp_fail(j, "a number with an empty exponent");
    }
    return true;
}

static bool jp_word(struct jp *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
        return jp_fail(j, "a word that is not true, false or null (inf? nan?)");
    j->p += n;
    return true;
}

static bool jp_items(struct jp *j, char close, bool keyed)
{
    if (++j->depth > 64)
        return jp_fail(j, "nested deeper than 64");
    j->p++;
    jp_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        j->depth--;
        return true;
    }
    for (;;) {
        jp_ws(j);
        if (keyed) {
            if (j->p >= j->end || *j->p != '"' || !jp_string(j))
                return jp_fail(j, "an object key that is not a string");
            jp_ws(j);
            if (j->p >= j->end || *j->p != ':')
                return jp_fail(j, "an object key without ':'");
            j->p++;
        }
        if (!jp_value(j))
            return false;
        jp_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            j->depth--;
            return true;
        }
        return jp_fail(j, "a list or an object that does not go on or end");
    }
}

static bool jp_value(struct jp *j)
{
    jp_ws(j);
    if (j->p >= j->end)
        return jp_fail(j, "a value is missing");
    char c = *j->p;
    if (c == '{')
        return jp_items(j, '}', true);
    if (c == '[')
        return jp_items(j, ']', false);
    if (c == '"')
        return jp_string(j);
    if (c == '-' || (c >= '0' && c <= '9'))
        return jp_number(j);
    if (c == 't')
        return jp_word(j, "true");
    if (c == 'f')
        return jp_word(j, "false");
    return jp_word(j, "null");
}

/* NULL if text[0..len) is one JSON value (with blanks around it). */
static const char *fuzz_json_flaw(const char *text, size_t len)
{
    struct jp j = {text, text + len, 0, NULL};
    if (jp_value(&j)) {
        jp_ws(&j);
        if (j.p != j.end)
            jp_fail(&j, "more after the value");
    }
    return j.why;
}

/* ---- SVG as XML ---- */

#ifdef HETCAST_FUZZ_LIBXML2
static void xml_quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}
#endif

/* NULL if text[0..len) is well-formed XML. */
static const char *fuzz_xml_flaw(const char *text, size_t len)
{
    /* The characters first (XML 1.0 Char: no C0 but tab, LF, CR), in both builds. */
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\t' || c == '\n' || c == '\r') {
            i++;
            continue;
        }
        int k = text_char(text + i);
        if (k <= 0 && !(c == 0xc2 && i + 1 < len && ((unsigned char)text[i + 1] & 0xe0) == 0x80))
            return c < 0x20 || c == 0x7f ? "a control character in the XML" : "bytes that are not UTF-8";
        i += k > 0 ? (size_t)k : 2;
    }
#ifdef HETCAST_FUZZ_LIBXML2
    xmlSetGenericErrorFunc(NULL, xml_quiet);
    xmlDocPtr doc = xmlReadMemory(text, (int)len, "out.svg", "UTF-8",
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc)
        return "libxml2 does not read it as XML";
    xmlFreeDoc(doc);
    return NULL;
#else
    /* Without libxml2: every '&' starts a reference, every tag closes in order. */
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '&') {
            size_t k = i + 1;
            while (k < len && k < i + 12 && text[k] != ';')
                k++;
            if (k >= len || text[k] != ';')
                return "an '&' that is not a reference";
        } else if (text[i] == '<') {
            if (i + 1 < len && (text[i + 1] == '?' || text[i + 1] == '!'))
                continue;
            bool closing = i + 1 < len && text[i + 1] == '/';
            size_t k = i;
            while (k < len && text[k] != '>')
                k++;
            if (k >= len)
                return "a tag that does not end";
            if (closing)
                depth--;
            else if (text[k - 1] != '/')
                depth++;
            if (depth < 0)
                return "a closing tag without its opening";
        }
    }
    return depth == 0 ? NULL : "a tag left open";
#endif
}

/* ---- text ---- */

/* NULL if text[0..len) is UTF-8 text whose only control byte is '\n'. */
static const char *fuzz_text_flaw(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        if (text[i] == '\n') {
            i++;
            continue;
        }
        int k = text_char(text + i);
        if (k <= 0)
            return (unsigned char)text[i] < 0x20 || text[i] == 0x7f ? "a control byte in text output"
                                                                    : "text output that is not UTF-8";
        i += (size_t)k;
    }
    return NULL;
}

#endif
