/*
 * datadir.c - finding hetcast's data directory (app/datadir.h).
 */
#include "app/datadir.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "sched/lua_sched.h"
#include "model/cluster_simgrid.h"
#include "session/session.h"

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

/* The directory of the running binary (Linux: /proc/self/exe); false if unknown. */
static bool exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0 || (size_t)n >= size - 1)
        return false;
    buf[n] = '\0';
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
