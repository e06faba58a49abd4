/*
 * datadir.c - finding hetcast's data directory (app/datadir.h).
 */
#include "app/datadir.h"

#include <sys/stat.h>

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "app/opts.h"
#include "support/diag.h"
#include "sched/lua_sched.h"
#include "model/cluster_simgrid.h"
#include "session/session.h"

const char *const app_cluster_exts[] = {".csv", ".lua", ".xml", NULL};

static char found[PATH_MAX];

static bool has_clusters(const char *dir)
{
    char p[PATH_MAX];
    if (!dir || !*dir || snprintf(p, sizeof p, "%s/clusters", dir) >= (int)sizeof p)
        return false;
    DIR *d = opendir(p);
    if (d)
        closedir(d);
    return d != NULL;
}

static const char *take(const char *dir)
{
    if (!has_clusters(dir) || strlen(dir) >= sizeof found)
        return NULL;
    memmove(found, dir, strlen(dir) + 1);
    return found;
}

bool app_exe_path(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0 || (size_t)n >= size - 1)
        return false;
    buf[n] = '\0';
    return true;
}

/* The directory of the running binary; false if unknown. */
static bool exe_dir(char *buf, size_t size)
{
    if (!app_exe_path(buf, size))
        return false;
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}

const char *app_datadir(void)
{
    if (found[0])
        return found;
    const char *env = getenv("HETCAST_DATADIR");
    if (env && take(env))
        return found;
    char dir[PATH_MAX], p[PATH_MAX + 64];
    if (exe_dir(dir, sizeof dir)) {
        /* an uninstalled build: the source tree, named in a file beside the binary */
        snprintf(p, sizeof p, "%s/hetcast-uninstalled", dir);
        FILE *fp = fopen(p, "r");
        if (fp) {
            char src[PATH_MAX];
            bool got = fgets(src, sizeof src, fp) != NULL;
            fclose(fp);
            if (got) {
                src[strcspn(src, "\r\n")] = '\0';
                if (take(src))
                    return found;
            }
        }
        /* installed: PREFIX/bin/hetcast finds PREFIX/share/hetcast */
        if (HETCAST_BIN_TO_DATA[0] &&
            snprintf(p, sizeof p, "%s/%s", dir, HETCAST_BIN_TO_DATA) < (int)sizeof p && take(p))
            return found;
    }
    return take(HETCAST_INSTALL_DATADIR);
}

static bool executable_at(const char *path)
{
    return access(path, X_OK) == 0;
}

bool app_helper(const char *name, char *buf, size_t size)
{
    char dir[PATH_MAX], p[PATH_MAX + 64];
    if (exe_dir(dir, sizeof dir)) {
        snprintf(p, sizeof p, "%s/hetcast-uninstalled", dir);
        bool uninstalled = access(p, F_OK) == 0;
        if (uninstalled)
            snprintf(p, sizeof p, "%s/%s", dir, name);
        else if (HETCAST_BIN_TO_LIBEXEC[0])
            snprintf(p, sizeof p, "%s/%s/%s", dir, HETCAST_BIN_TO_LIBEXEC, name);
        else
            p[0] = '\0';
        if (p[0] && executable_at(p) && strlen(p) < size) {
            memcpy(buf, p, strlen(p) + 1);
            return true;
        }
        if (uninstalled)
            return false;
    }
    snprintf(p, sizeof p, "%s/%s", HETCAST_INSTALL_LIBEXECDIR, name);
    if (!executable_at(p) || strlen(p) >= size)
        return false;
    memcpy(buf, p, strlen(p) + 1);
    return true;
}

void app_find_data(void)
{
    const char *data = app_datadir();
    if (data) {
        char lua[4096];
        snprintf(lua, sizeof lua, "%s/lua", data);
        lua_sched_set_dir(lua);
        snprintf(lua, sizeof lua, "%s/clusters", data);
        session_set_clusters_dir(lua);   /* where a lesson's files may be, besides its own folder */
    }
#if HETCAST_HAVE_SIMGRID
    char helper[4096];
    if (app_helper("hetcast-simgrid", helper, sizeof helper))
        simgrid_set_helper(helper);
#endif
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *app_bundled(const char *sub, const char *name, const char *const *exts)
{
    static char *kept[64];   /* the paths handed out: reachable until the end */
    static int nkept;
    const char *data = app_datadir();
    if (!name || !*name || strchr(name, '/') || access(name, F_OK) == 0 || !data)
        return name;
    char p[PATH_MAX];
    bool got = snprintf(p, sizeof p, "%s/%s/%s", data, sub, name) < (int)sizeof p && is_file(p);
    for (int i = 0; !got && exts && exts[i]; i++)
        got = snprintf(p, sizeof p, "%s/%s/%s%s", data, sub, name, exts[i]) < (int)sizeof p &&
              is_file(p);
    if (!got)
        return name;
    for (int i = 0; i < nkept; i++)
        if (strcmp(kept[i], p) == 0)
            return kept[i];
    if (nkept == (int)(sizeof kept / sizeof kept[0]))
        return name;
    return kept[nkept++] = xstrdup(p);
}

static bool ends_in(const char *name, const char *const *exts)
{
    size_t n = strlen(name);
    for (int i = 0; exts[i]; i++) {
        size_t k = strlen(exts[i]);
        if (n > k && strcmp(name + n - k, exts[i]) == 0)
            return true;
    }
    return false;
}

/* "# latency: 1": a CSV comment that sets a key, not a description's line. */
static bool is_key(const char *t)
{
    t += strspn(t, "# ");
    size_t n = strspn(t, "abcdefghijklmnopqrstuvwxyz_");
    return n > 0 && t[n] == ':';
}

/* What a bundled file is, from its text: a lesson's title = "...", a CSV's
 * first "# description:", a script's "-- NAME - what" line; "" if none. */
static void what_it_is(const char *path, const char *name, char *out, size_t size)
{
    out[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[512], lead[300];
    bool going = false;   /* the last line was the description's */
    snprintf(lead, sizeof lead, "-- %s - ", name);
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *t = line + strspn(line, " \t"), *q;
        if (strncmp(t, "title", 5) == 0 && (q = strchr(t, '"')) && strchr(q + 1, '"')) {
            snprintf(out, size, "%.*s", (int)(strchr(q + 1, '"') - q - 1), q + 1);
            break;
        }
        size_t k = strlen(out);
        const char *more = NULL;   /* what this line adds to the description */
        if (strncmp(t, "# description:", 14) == 0)
            more = t + 14;
        else if (!k && strncmp(t, lead, strlen(lead)) == 0)
            more = t + strlen(lead);
        else if (k && going && (t[0] == '#' || strncmp(t, "--", 2) == 0) &&
                 t[strspn(t, "#-")] == ' ' && !is_key(t))
            more = t + strspn(t, "#-");   /* the sentence goes on */
        going = more != NULL;
        if (more && k + 2 < size)
            snprintf(out + k, size - k, "%s%s", k ? " " : "", more + strspn(more, " "));
    }
    fclose(fp);
    if (strlen(out) > 72) {   /* one line of a terminal: cut at a word, "..." */
        size_t cut = 69;
        while (cut > 40 && out[cut] != ' ')
            cut--;
        memcpy(out + cut, "...", 4);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int app_list_bundled(FILE *fp, const char *sub, const char *const *exts)
{
    const char *data = app_datadir();
    char dir[PATH_MAX];
    DIR *d = data && snprintf(dir, sizeof dir, "%s/%s", data, sub) < (int)sizeof dir
                 ? opendir(dir) : NULL;
    if (!d)
        return opts_error(1, "the bundled %s are not installed (set HETCAST_DATADIR to a folder "
                             "holding clusters/ and lua/)", strcmp(sub, "clusters") == 0 ? "clusters" : "lessons");
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !ends_in(e->d_name, exts))
            continue;
        if (n == cap)
            names = xrealloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX + 300], what[300];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        what_it_is(path, names[i], what, sizeof what);
        fprintf(fp, what[0] ? "  %-24s " : "  %s", names[i]);
        text_put(what, fp);
        fputc('\n', fp);
        free(names[i]);
    }
    free(names);
    return 0;
}
