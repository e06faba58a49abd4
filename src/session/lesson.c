/*
 * session/lesson.c - lesson files (session/lesson.h): run in the one Lua sandbox (no
 * io, os or package: a lesson only describes), their returned table read
 * inside the protected call, so a mistake is a message with file and line,
 * never a crash.
 */
#include "session/lesson.h"

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* getline */
#endif
#include <ctype.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched/lua_sched.h"
#include "support/csvfield.h"
#include "support/diag.h"
#include "support/lua_sandbox.h"
#include "support/numfmt.h"

/* A string field of the table at idx, copied; NULL when absent; an error when not a string. */
static char *str_field(lua_State *L, int idx, const char *key, int slide)
{
    char *s = NULL;
    lua_getfield(L, idx, key);
    if (lua_type(L, -1) == LUA_TSTRING)
        s = xstrdup(lua_tostring(L, -1));
    else if (!lua_isnil(L, -1))
        luaL_error(L, "slide %d: %s must be a string", slide, key);
    lua_pop(L, 1);
    return s;
}

/* The cluster file: relative names are relative to the lesson's directory. */
static char *resolve(const char *lesson_path, const char *file)
{
    if (file[0] == '/')
        return xstrdup(file);
    const char *slash = strrchr(lesson_path, '/');
    if (!slash)
        return xstrdup(file);
    return xasprintf("%.*s/%s", (int)(slash - lesson_path), lesson_path, file);
}

/* The field key of the table at idx pushed, checked to be of type want (or nil when optional). */
static void want_field(lua_State *L, int idx, const char *key, int want, bool optional, int slide,
                       const char *what)
{
    lua_getfield(L, idx, key);
    int got = lua_type(L, -1);
    if (got != want && !(optional && got == LUA_TNIL))
        luaL_error(L, "slide %d: %s must be %s", slide, what,
                   want == LUA_TNUMBER ? "a number" : want == LUA_TSTRING ? "a string" : "a table");
}

/* Node i of the nodes table at idx: its field pushed, positional pos or named key. */
static int node_field(lua_State *L, int idx, int pos, const char *key)
{
    lua_rawgeti(L, idx, pos);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, idx, key);
    }
    return lua_type(L, -1);
}

/*
 * An inline cluster, the table at idx, as the CSV text the loader reads
 * (so it is checked like any file): {csv = "TEXT"}, or a node table
 * {name =, description =, latency =, source =, nodes = {{"p0", 1, 2}, ...}}
 * (each node {NAME, SEND, RECV} or {name =, send =, recv =}).  Everything
 * is checked first (a mistake is a Lua error), then written (nothing left
 * to leak on an error).
 */
static char *inline_cluster(lua_State *L, int idx, int slide)
{
    char *csv = str_field(L, idx, "csv", slide);
    if (csv)
        return csv;
    static const char *const strs[] = {"name", "description", "source"};
    for (int i = 0; i < 3; i++) {   /* each a line of the file's header (description: lines) */
        want_field(L, idx, strs[i], LUA_TSTRING, true, slide, strs[i]);
        const char *v = lua_tostring(L, -1);
        if (v && strpbrk(v, i == 1 ? "\r" : "\r\n"))
            luaL_error(L, "slide %d: the cluster's %s must be one line", slide, strs[i]);
        lua_pop(L, 1);
    }
    want_field(L, idx, "latency", LUA_TNUMBER, true, slide, "latency");
    lua_pop(L, 1);
    lua_getfield(L, idx, "nodes");
    if (!lua_istable(L, -1) || luaL_len(L, -1) < 1)
        luaL_error(L, "slide %d: an inline cluster needs csv = \"...\" or nodes = {{NAME, SEND, RECV}, ...}",
                   slide);
    int nodes = lua_gettop(L);
    lua_Integer n = luaL_len(L, nodes);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, nodes, i);
        int nd = lua_gettop(L);
        if (!lua_istable(L, nd))
            luaL_error(L, "slide %d: node %d is not a table {NAME, SEND, RECV}", slide, (int)i);
        if (node_field(L, nd, 1, "name") != LUA_TSTRING)
            luaL_error(L, "slide %d: node %d: its name must be a string", slide, (int)i);
        if (node_field(L, nd, 2, "send") != LUA_TNUMBER || node_field(L, nd, 3, "recv") != LUA_TNUMBER)
            luaL_error(L, "slide %d: node %d: its send and receive times must be numbers", slide, (int)i);
        lua_settop(L, nodes);
    }
    char *text = NULL, num[NUMFMT_SIZE];
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    lua_getfield(L, idx, "name");
    fprintf(fp, "# name: %s\n", lua_isstring(L, -1) ? lua_tostring(L, -1) : "inline");
    lua_getfield(L, idx, "description");
    for (const char *line = lua_tostring(L, -1); line && *line;) {   /* a # description: a line */
        const char *nl = strchr(line, '\n');
        fprintf(fp, "# description: %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
        line = nl ? nl + 1 : NULL;
    }
    lua_getfield(L, idx, "source");
    if (lua_isstring(L, -1))
        fprintf(fp, "# source: %s\n", lua_tostring(L, -1));
    lua_getfield(L, idx, "latency");
    if (lua_isnumber(L, -1))
        fprintf(fp, "# latency: %s\n", numfmt_shortest(num, lua_tonumber(L, -1)));
    lua_settop(L, nodes);
    fprintf(fp, "name,send,recv\n");
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, nodes, i);
        int nd = lua_gettop(L);
        node_field(L, nd, 1, "name");
        csvfield_put(fp, lua_tostring(L, -1));
        node_field(L, nd, 2, "send");
        fprintf(fp, ",%s", numfmt_shortest(num, lua_tonumber(L, -1)));
        node_field(L, nd, 3, "recv");
        fprintf(fp, ",%s\n", numfmt_shortest(num, lua_tonumber(L, -1)));
        lua_settop(L, nodes);
    }
    lua_pop(L, 1);
    fclose(fp);
    return text;
}

/* The first line of the lesson file that holds name as a quoted string, or 0
 * (a name built by the script).  Reads only a regular file, never waits. */
static int line_of(const char *path, const char *name)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    FILE *fp = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
    if (!fp) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char *dq = xasprintf("\"%s\"", name), *sq = xasprintf("'%s'", name);
    char *line = NULL;
    size_t cap = 0;
    int no = 0, found = 0;
    while (!found && getline(&line, &cap, fp) > 0) {
        no++;
        if (strstr(line, dq) || strstr(line, sq))
            found = no;
    }
    free(line);
    free(dq);
    free(sq);
    fclose(fp);
    return found;
}

/* The lesson file's text (a regular file, at most 1 MiB), or NULL. */
static char *lesson_text(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    FILE *fp = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 20)
                   ? fdopen(fd, "r") : NULL;
    if (!fp) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *text = xcalloc((size_t)st.st_size + 1, 1);
    size_t n = fread(text, 1, (size_t)st.st_size, fp);
    text[n] = '\0';
    fclose(fp);
    return text;
}

/* p past a Lua long bracket's opening "[" "="* "[" (level into *level), or NULL. */
static const char *long_open(const char *p, int *level)
{
    if (*p != '[')
        return NULL;
    int n = 0;
    while (p[1 + n] == '=')
        n++;
    if (p[1 + n] != '[')
        return NULL;
    *level = n;
    return p + 2 + n;
}

/* p past a string, comment or long bracket starting at p (lines counted into *line), or p
 * itself when none starts there. */
static const char *skip_lexeme(const char *p, int *line)
{
    int level;
    const char *q;
    if (p[0] == '-' && p[1] == '-') {
        if ((q = long_open(p + 2, &level)) == NULL) {
            while (*p && *p != '\n')
                p++;
            return p;
        }
        p = q;
    } else if ((q = long_open(p, &level)) != NULL) {
        p = q;
    } else if (*p == '"' || *p == '\'') {
        char quote = *p++;
        for (; *p && *p != quote && *p != '\n'; p++)
            if (*p == '\\' && p[1])
                *line += *++p == '\n';
        return *p == quote ? p + 1 : p;
    } else {
        return p;
    }
    for (; *p; p++) {   /* to the long bracket's close "]" "="*level "]" */
        *line += *p == '\n';
        if (*p == ']' && strspn(p + 1, "=") == (size_t)level && p[1 + level] == ']')
            return p + 2 + level;
    }
    return p;
}

/* Where the slides of the lesson's text lie: the lines of slide k's "{" and "}" into
 * first[k] and last[k] (for k < max) when the lesson writes them out in slides = {...};
 * the count found. */
static int slide_lines(const char *text, int *first, int *last, int max)
{
    int line = 1, depth = 0, at = -1, n = 0;   /* at: the depth of slides = { */
    bool want = false;   /* after "slides =" */
    for (const char *p = text; *p;) {
        const char *q = skip_lexeme(p, &line);
        if (q != p) {
            p = q;
            continue;
        }
        if (*p == '\n') {
            line++;
        } else if (*p == '{') {
            depth++;
            if (want && at < 0)
                at = depth;
            else if (at >= 0 && depth == at + 1 && n < max)
                first[n] = line;
        } else if (*p == '}') {
            if (at >= 0 && depth == at + 1 && n < max)
                last[n++] = line;
            if (depth == at)
                return n;
            depth--;
        } else if (!strncmp(p, "slides", 6) && (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            p += 6;
            while (*p == ' ' || *p == '\t')
                p++;
            want = *p == '=' && p[1] != '=';
            continue;
        }
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '=')
            want = want && *p == '{';
        p++;
    }
    return n;
}

/* The line of "field =" in lines first..last of text, or 0. */
static int field_line(const char *text, int first, int last, const char *field)
{
    int line = 1;
    size_t len = strlen(field);
    for (const char *p = text; *p && line <= last;) {
        const char *q = skip_lexeme(p, &line);
        if (q != p) {
            p = q;
            continue;
        }
        if (*p == '\n')
            line++;
        if (line >= first && !strncmp(p, field, len) &&
            (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))) {
            const char *e = p + len;
            while (*e == ' ' || *e == '\t')
                e++;
            if (*e == '=' && e[1] != '=')
                return line;
        }
        p++;
    }
    return 0;
}

/* The fields of a slide a message may name, the most telling first. */
static const char *const slide_fields[] = {"correct", "choices", "predict", "decision", "tolerance", "show",
                                           "schedulers", "model", "pattern", "params", "slices", "size",
                                           "step", "trace", "cluster", "question", "answer", "title", "text", NULL};

/* lesson_line of the lesson file path. */
static int path_line(const char *path, int k, const char *about)
{
    char *text = lesson_text(path);
    if (!text)
        return 0;
    int first[LESSON_MAX_SLIDES], last[LESSON_MAX_SLIDES];
    int n = slide_lines(text, first, last, LESSON_MAX_SLIDES), line = 0;
    if (k >= 0 && k < n) {
        line = first[k];
        const char *best = NULL;   /* the field named first in about */
        for (const char *const *f = slide_fields; *f && about; f++) {
            const char *at = strstr(about, *f);
            size_t len = strlen(*f);
            bool word = at && !isalnum((unsigned char)at[len]) && (at == about || !isalnum((unsigned char)at[-1]));
            if (word && (!best || at < best) && field_line(text, first[k], last[k], *f) > 0) {
                best = at;
                line = field_line(text, first[k], last[k], *f);
            }
        }
    }
    free(text);
    return line;
}

/* The line of slide k's field in the lesson file path, else the slide's first line, or 0. */
static int slide_field_line(const char *path, int k, const char *field)
{
    char *text = lesson_text(path);
    if (!text)
        return 0;
    int first[LESSON_MAX_SLIDES], last[LESSON_MAX_SLIDES], line = 0;
    int n = slide_lines(text, first, last, LESSON_MAX_SLIDES);
    if (k >= 0 && k < n) {
        line = field_line(text, first[k], last[k], field);
        line = line ? line : first[k];
    }
    free(text);
    return line;
}

int lesson_line(const struct lesson *l, int k, const char *about)
{
    return path_line(l->path, k, about);
}

/* A loader's message about a slide ("PATH slide 2: choices need correct = K", raised without
 * a line) given its file and line: "PATH:LINE: slide 2: ...".  Others are left as they are. */
static void slide_message_line(const char *path, char **cause)
{
    char *at = *cause ? strstr(*cause, "slide ") : NULL;
    int k, used = 0;
    if (!at || sscanf(at, "slide %d:%n", &k, &used) != 1 || !used || k < 1)
        return;
    size_t plen = strlen(path);
    if (!strncmp(*cause, path, plen) && (*cause)[plen] == ':' && isdigit((unsigned char)(*cause)[plen + 1]))
        return;   /* already at its line */
    int line = path_line(path, k - 1, at + used);
    char *msg = line > 0 ? xasprintf("%s:%d: %s", path, line, at) : xasprintf("%s: %s", path, at);
    free(*cause);
    *cause = msg;
}

/* The slide's field key, naming name (resolved to file), refused at its line unless file is
 * one of the lesson's files (session_confined). */
static void confine_name(lua_State *L, const struct lesson *les, int slide, const char *key, const char *name,
                         const char *file)
{
    const char *why = file ? session_confined(les->dir, file) : NULL;
    if (!why)
        return;
    int line = line_of(les->path, name);
    if (line > 0)
        luaL_error(L, "%s:%d: slide %d: %s \"%s\" %s", les->path, line, slide, key, name, why);
    luaL_error(L, "slide %d: %s \"%s\" %s", slide, key, name, why);
}

/* The slide's file field key (resolved to file) refused at its line unless it is
 * one of the lesson's files (session_confined). */
static void confine_field(lua_State *L, const struct lesson *les, int t, int slide, const char *key,
                          const char *file)
{
    lua_getfield(L, t, key);
    confine_name(L, les, slide, key, lua_tostring(L, -1), file);
    lua_pop(L, 1);
}

/* A Lua heuristic a slide names (schedulers = "NAME.lua"): resolved against the lesson's
 * folder and confined to it like its cluster, unless it is a bundled one named bare
 * ("fnf.lua", not beside the lesson).  The scheduler's name made its path. */
static void resolve_heuristic(lua_State *L, const struct lesson *les, struct slide *s, int i, int slide)
{
    const char *name = s->sched[i];
    size_t len = strlen(name);
    if (len < 4 || strcmp(name + len - 4, ".lua") != 0)
        return;
    char *path = name[0] == '/' ? xstrdup(name) : xasprintf("%s/%s", les->dir, name);   /* a path, always */
    bool theirs = false;
    if (!strchr(name, '/') && access(path, F_OK) != 0) {   /* not beside the lesson: a bundled one? */
        struct lua_sched_info *list;
        int n = lua_sched_list(&list);
        for (int k = 0; k < n && !theirs; k++)
            theirs = strcmp(list[k].name, name) == 0;
        lua_sched_list_free(list, n);
    }
    if (theirs) {
        free(path);
        return;
    }
    s->sched[i] = path;   /* lesson_free frees it, even when refused below */
    lua_pushstring(L, name);   /* the name as written, for the message */
    free((char *)name);
    confine_name(L, les, slide, "schedulers", lua_tostring(L, -1), path);
    lua_pop(L, 1);
}

/* The question a student answers (session/question.h): choices = {...} or predict = "NAME"
 * picks the kind, whose row reads its own fields; checked here so that the view, the room
 * and the handouts can trust it. */
static void read_question(lua_State *L, struct slide *s, int t, int no)
{
    s->correct = -1;
    s->kind = QUESTION_NONE;
    char *predict = str_field(L, t, "predict", no);
    if (predict) {
        s->kind = question_predict(predict);
        free(predict);
        if (!s->kind) {
            char names[200];
            question_predict_names(names, sizeof names);
            luaL_error(L, "slide %d: predict must be %s", no, names);
        }
    }
    lua_getfield(L, t, "choices");
    bool choices = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (choices && s->kind != QUESTION_NONE)
        luaL_error(L, "slide %d: a question has choices or a prediction, not both", no);
    if (choices)
        s->kind = question_choices();
    if (s->kind->parse)
        s->kind->parse(L, s, t, no);
    for (const struct question_kind *k = question_kinds; k->name; k++) {   /* another kind's field */
        if (k == s->kind || !k->field)
            continue;
        lua_getfield(L, t, k->field);
        if (!lua_isnil(L, -1))
            luaL_error(L, "slide %d: %s", no, k->stray);
        lua_pop(L, 1);
    }
    if (s->kind != QUESTION_NONE && !s->question)
        luaL_error(L, "slide %d: choices and predict need the question they answer (question = \"...\")",
                   no);
}

const char *const lesson_show_values[] = {"makespan", "lower bound", "optimum", "2T+beta", "tree cost",
                                          "LP optimum", "LP bound", "difference", "sum", NULL};

bool slide_shows(const struct slide *s, const char *name)
{
    for (int i = 0; i < s->nshow; i++)
        if (strcmp(s->show[i], name) == 0)
            return true;
    return false;
}

/* show = {"p2", "optimum"}: the nodes and summary values a slide is about (texts; the
 * nodes are checked against the cluster when the slide opens). */
static void read_show(lua_State *L, struct slide *s, int t, int no)
{
    lua_getfield(L, t, "show");
    if (lua_istable(L, -1)) {
        lua_Integer n = luaL_len(L, -1);
        if (n < 1 || n > LESSON_MAX_SHOW)
            luaL_error(L, "slide %d: show must list 1 to %d names (nodes or summary values)", no, LESSON_MAX_SHOW);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            size_t len;
            const char *c = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
            if (!c || !len || text_flaw(c) || strlen(c) != len)
                luaL_error(L, "slide %d: show's name %d must be text on one line", no, (int)i);
            s->show[s->nshow++] = xstrdup(c);
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        luaL_error(L, "slide %d: show must be a list of names {\"p2\", \"optimum\"}", no);
    }
    lua_pop(L, 1);
}

/* The fields a slide reads: any other is a warning (a misspelling hetcast would ignore). */
static const char *const slide_known[] = {"title", "text", "question", "answer", "choices", "correct",
                                          "predict", "decision", "tolerance", "show", "cluster", "params",
                                          "schedulers", "model", "pattern", "slices", "size", "step", "trace",
                                          NULL};

/* Each key of the slide's table at t that no slide reads: a warning at its line in les. */
static void warn_unknown_fields(lua_State *L, struct lesson *les, int t, int no)
{
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            continue;   /* a list entry: not a field */
        const char *key = lua_tostring(L, -1);
        bool known = false;
        for (const char *const *f = slide_known; *f && !known; f++)
            known = strcmp(*f, key) == 0;
        if (known)
            continue;
        char shown[96];
        SHOWN(key, shown);
        const char *near = text_nearest(key, slide_known, -1);
        int line = slide_field_line(les->path, no - 1, key);
        char where[64] = "";
        if (line > 0)
            snprintf(where, sizeof where, ":%d", line);
        char *w = xasprintf("%s%s%s: warning: slide %d: unknown field \"%s\"%s%s%s: it is ignored\n",
                            les->warnings ? les->warnings : "", les->path, where, no, shown,
                            near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
        free(les->warnings);
        les->warnings = w;
    }
}

static void read_slide(lua_State *L, struct lesson *les, int k)
{
    struct slide *s = &les->slides[k];
    int t = lua_gettop(L), no = k + 1;
    warn_unknown_fields(L, les, t, no);
    s->step = 0;
    s->title = str_field(L, t, "title", no);
    s->text = str_field(L, t, "text", no);
    s->question = str_field(L, t, "question", no);
    s->answer = str_field(L, t, "answer", no);
    read_question(L, s, t, no);
    read_show(L, s, t, no);
    s->model = str_field(L, t, "model", no);
    s->pattern = str_field(L, t, "pattern", no);
    lua_getfield(L, t, "cluster");
    if (lua_istable(L, -1)) {   /* built inline: the lesson is the file messages name */
        s->cluster_text = inline_cluster(L, lua_gettop(L), no);
        s->cluster = xasprintf("%s (slide %d, inline)", les->path, no);
    }
    lua_pop(L, 1);
    char *file = s->cluster_text ? NULL : str_field(L, t, "cluster", no);
    if (!file && !s->cluster_text)
        luaL_error(L, "slide %d: cluster = \"FILE\" is missing (or cluster = {...}, built inline)", no);
    if (file)
        s->cluster = resolve(les->path, file);
    free(file);
    char *trace = str_field(L, t, "trace", no);
    if (trace)
        s->trace = resolve(les->path, trace);
    free(trace);
    lua_getfield(L, t, "schedulers");
    if (lua_type(L, -1) == LUA_TSTRING) {
        s->sched[s->nsched++] = xstrdup(lua_tostring(L, -1));
    } else if (lua_istable(L, -1)) {
        for (int i = 1; i <= 2; i++) {
            lua_rawgeti(L, -1, i);
            if (lua_type(L, -1) == LUA_TSTRING)
                s->sched[s->nsched++] = xstrdup(lua_tostring(L, -1));
            lua_pop(L, 1);
        }
        if (luaL_len(L, -1) > 2)
            luaL_error(L, "slide %d: at most two schedulers (the view compares two)", no);
    } else if (!lua_isnil(L, -1)) {
        luaL_error(L, "slide %d: schedulers must be a name or a list of names", no);
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "params");
    if (lua_istable(L, -1)) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (s->nparams == LESSON_MAX_PARAMS)
                luaL_error(L, "slide %d: at most %d params", no, LESSON_MAX_PARAMS);
            lua_pushvalue(L, -2);
            const char *key = lua_tostring(L, -1), *val = luaL_tolstring(L, -2, NULL);
            s->params[s->nparams++] = xasprintf("%s=%s", key ? key : "?", val);
            lua_pop(L, 3);
        }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "slices");
    s->slices = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    lua_getfield(L, t, "size");
    if (!lua_isnil(L, -1) && !(lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) > 0 &&
                               lua_tonumber(L, -1) <= 1e15))
        luaL_error(L, "slide %d: size must be the message's bytes, a number from 1 to 1e15 (size = 1e7)", no);
    s->size = lua_isnil(L, -1) ? 0 : lua_tonumber(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, t, "step");
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "end") == 0)
        s->step = -1;
    else if (lua_isinteger(L, -1))
        s->step = (int)lua_tointeger(L, -1);
    else if (!lua_isnil(L, -1))
        luaL_error(L, "slide %d: step must be a number or \"end\"", no);
    lua_pop(L, 1);
    if (s->kind->one_run && (s->nsched > 1 || s->pattern))
        luaL_error(L, "slide %d: predict = \"%s\" asks about one broadcast: one scheduler, no pattern", no,
                   s->kind->name);
    if (s->trace && (s->nsched > 1 || s->pattern))
        luaL_error(L, "slide %d: a trace is the measured run of one broadcast: one scheduler "
                      "(schedulers = \"fnf\"), no pattern", no);
    confine_field(L, les, t, no, "cluster", s->cluster_text ? NULL : s->cluster);
    confine_field(L, les, t, no, "trace", s->trace);
    for (int i = 0; i < s->nsched; i++)
        resolve_heuristic(L, les, s, i, no);
}

static int load_fn(lua_State *L)
{
    struct lesson *les = lua_touserdata(L, 1);
    lua_settop(L, 0);
    sandbox_load(L);
    sandbox_call(L, 0, 1);
    if (!lua_istable(L, -1))
        return luaL_error(L, "%s: a lesson returns a table {title = ..., slides = {...}}", les->path);
    les->title = str_field(L, 1, "title", 0);
    lua_getfield(L, 1, "slides");
    if (!lua_istable(L, -1) || luaL_len(L, -1) < 1)
        return luaL_error(L, "%s: slides = {{...}, ...} is missing or empty", les->path);
    lua_Integer n = luaL_len(L, -1);
    if (n > LESSON_MAX_SLIDES)
        return luaL_error(L, "%s: at most %d slides", les->path, LESSON_MAX_SLIDES);
    les->slides = xcalloc((size_t)n, sizeof *les->slides);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        if (!lua_istable(L, -1))
            return luaL_error(L, "%s: slide %d is not a table", les->path, (int)i);
        les->n = (int)i;
        read_slide(L, les, (int)i - 1);
        lua_pop(L, 1);
    }
    return 0;
}

int lesson_load(const char *path, struct lesson *out, char **cause)
{
    memset(out, 0, sizeof *out);
    out->path = xstrdup(path);
    const char *slash = strrchr(path, '/');
    out->dir = slash ? xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path) : xstrdup(".");
    struct sandbox *sb = sandbox_new(path, NULL, 1, cause);
    if (!sb) {
        lesson_free(out);
        return -1;
    }
    int rc = sandbox_run(sb, load_fn, out, cause);
    sandbox_free(sb);
    /* A mistake found in the returned table is raised from C: its traceback
     * says nothing ("[C]: in ?"), the slide and the field say it all. */
    char *tb = rc < 0 && *cause ? strstr(*cause, "\nstack traceback:\n\t[C]: in ?") : NULL;
    if (tb && tb[strlen("\nstack traceback:\n\t[C]: in ?")] == '\0')
        *tb = '\0';
    if (rc < 0) {
        slide_message_line(path, cause);
        lesson_free(out);
        return -1;
    }
    return 0;
}

void lesson_free(struct lesson *l)
{
    for (int k = 0; k < l->n; k++) {
        struct slide *s = &l->slides[k];
        free(s->title);
        free(s->text);
        free(s->question);
        free(s->answer);
        for (int i = 0; i < s->nchoices; i++)
            free(s->choices[i]);
        for (int i = 0; i < s->nshow; i++)
            free(s->show[i]);
        free(s->cluster);
        free(s->cluster_text);
        free(s->model);
        free(s->pattern);
        free(s->trace);
        for (int i = 0; i < s->nparams; i++)
            free(s->params[i]);
        for (int i = 0; i < s->nsched; i++)
            free(s->sched[i]);
    }
    free(l->slides);
    free(l->warnings);
    free(l->title);
    free(l->path);
    free(l->dir);
    memset(l, 0, sizeof *l);
}

void lesson_session(const struct lesson *l, int k, struct session_opts *o)
{
    const struct slide *s = &l->slides[k];
    session_opts_init(o);
    o->file = s->cluster;
    o->text = s->cluster_text;
    for (int i = 0; i < s->nsched; i++)
        o->sched[o->nsched++] = s->sched[i];
    for (int i = 0; i < s->nparams; i++)
        o->params[o->nparams++] = s->params[i];
    o->model = s->model;
    o->pattern = s->pattern;
    o->trace = s->trace;
    o->confine = l->dir;
    if (s->slices > 0)
        o->sopt.slices = s->slices;
    if (s->size > 0) {
        o->size = s->size;
        o->has_size = true;
    }
}

bool slide_gradable(const struct slide *s)
{
    return s->kind && s->kind->grade;
}

/* s without its surrounding spaces, into buf (cut to size); returns buf. */
static char *trimmed(const char *s, char *buf, size_t size)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    n = text_cut_len(s, n < size - 1 ? n : size - 1);
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

bool lesson_expected(const struct slide *s, const struct run *r, char *buf, size_t size)
{
    if (s->kind && s->kind->expected && s->kind->expected(s, r, buf, size))
        return true;
    text_fit(buf, size, "(not known)");
    return false;
}

char *lesson_unanswerable(const struct slide *s, const struct run *r)
{
    char why[200];
    if (s->kind->predicts && !r)
        text_fit(why, sizeof why, "the slide's run is not there to compute the answer from");
    else if (s->kind->unknown)
        s->kind->unknown(s, r, why, sizeof why);
    else
        text_fit(why, sizeof why, "hetcast finds no right answer to grade against");
    return xstrdup(why);
}

int lesson_grade(const struct slide *s, const struct run *r, const char *answer, struct lesson_grade *g,
                 char **cause)
{
    char a[160];
    memset(g, 0, sizeof *g);
    lesson_expected(s, r, g->expected, sizeof g->expected);
    SHOWN(trimmed(answer ? answer : "", a, sizeof a), g->given);
    if (!slide_gradable(s))
        return set_cause(cause, "this slide's question takes no answer to grade");
    if (text_flaw(a))
        a[0] = '\0';   /* told how to answer */
    if (a[0] && s->kind->predicts && !r)
        return set_cause(cause, "the slide's run is not there to grade against");
    return s->kind->grade(s, r, a, g, cause);
}
