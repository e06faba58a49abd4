/*
 * output/export_otf2.c - schedules as an OTF2 archive (output/export_otf2.h)
 * through libotf2, for Vampir, Trace Compass and Pipit: a system tree node
 * per run, a location group (process) per node, a location per track of a
 * busy node (tracks_make), an Enter and a Leave of the region "send",
 * "link" or "receive" per busy interval, with the transfer as attributes,
 * and an MPI message per transfer from its send to its receive.  Chunks of
 * 256 KiB (OTF2_CHUNK_SIZE_MIN) where they suffice (libotf2 clears a whole
 * chunk per writer); the communicator's groups (a record listing every
 * location) need a larger definitions chunk beyond about 19 000 locations.
 * libotf2 looks each new location up in a list of all it has seen, so the
 * event files are written a block of locations per archive object
 * (write_events) and the empty local definition files are hard links to the
 * first (copy_local_defs): at 10^5 nodes what is left is the file system's,
 * a file and a link a location, about one location a node.
 * The archive is written into a fresh directory beside DIR and swapped in
 * when it is whole (support/atomic_dir.h), so a failure leaves DIR as it was.  libotf2's own
 * error messages are kept from the terminal and handed back in *cause: any
 * error it reports on the way (a write it could not make) fails the export.
 */
#include "output/export_otf2.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "output/export_interop.h"
#include "output/export_lanes.h"
#include "support/atomic_dir.h"
#include "support/numfmt.h"

#define ARCHIVE "traces"      /* DIR/traces.otf2, DIR/traces.def, DIR/traces/ */
#define TICKS_PER_SECOND 1000000000ull

/* ---- libotf2's errors, kept for *cause ---- */

static char otf2_said[256];

static OTF2_ErrorCode keep_error(void *ud, const char *file, uint64_t line, const char *func,
                                 OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)ud, (void)file, (void)line, (void)func;
    char msg[192];
    vsnprintf(msg, sizeof msg, fmt ? fmt : "", va);
    text_fit(otf2_said, sizeof otf2_said, "%s%s%s", OTF2_Error_GetDescription(code),
             msg[0] ? ": " : "", msg);
    return code;
}

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)ud, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc)
{
    (void)ud, (void)type, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* ---- the directory ---- */

/* What an archive of this writer holds: traces.otf2, traces.def, traces/ (support/atomic_dir.h). */
static bool archive_entry(const char *name, bool is_dir)
{
    return is_dir ? strcmp(name, ARCHIVE) == 0
                  : strcmp(name, ARCHIVE ".otf2") == 0 || strcmp(name, ARCHIVE ".def") == 0;
}

#define ARCHIVE_WHAT "an OTF2 archive of hetcast (traces.otf2, traces.def, traces/)"

/* ---- the archive ---- */

/* The strings of the definitions, numbered as they are defined. */
struct strings {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
};

static OTF2_StringRef str(struct strings *s, const char *text)
{
    OTF2_GlobalDefWriter_WriteString(s->w, s->next, text);
    return s->next++;
}

/* A time of the run as ticks of the clock: 1e9 a second, seconds_per_unit seconds a unit. */
static OTF2_TimeStamp ticks(double t, double seconds_per_unit)
{
    return (OTF2_TimeStamp)llround(t * seconds_per_unit * (double)TICKS_PER_SECOND);
}

/*
 * The locations: a node's tracks.  Every busy interval of a node's ports (send port, link in,
 * receive port) is laid first-fit, in time order, on the node's tracks, so that no two intervals
 * of a track overlap: a node of a broadcast receives its message, then sends, all on one track.
 * A location is a file of the archive (two, with its definitions), so a location a track where a
 * location a port would take more than twice the files: the file system's time is most of the
 * writing.  A track is named for the ports whose intervals it holds.  A node never busy has no
 * location (libotf2 3.0's global event reader reads freed memory at a location without events).
 */
struct tracks {
    long nloc;
    long *loc_of;          /* the location of slot x */
    long *by_loc;          /* the slots, by location, each location's in time order */
    long *loc_first;       /* by_loc[loc_first[loc] .. loc_first[loc + 1]): location loc's */
    int *proc_of;          /* the process of location loc */
    unsigned char *ports;  /* the ports whose intervals location loc holds, a bit a port */
};

struct slot_key {
    double start, end;
    int port;
    long x;
};

static int slot_key_cmp(const void *pa, const void *pb)
{
    const struct slot_key *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    if (a->port != b->port)
        return a->port < b->port ? -1 : 1;
    return a->x < b->x ? -1 : a->x > b->x;
}

/* Lay the slots of ps (grouped by process) on tracks; key[i .. e) are process proc's. */
static void tracks_make(struct tracks *t, const struct run *runs, const struct port_slots *ps)
{
    size_t n = (size_t)(ps->n > 0 ? ps->n : 1);
    struct slot_key *key = xmalloc(n * sizeof *key);
    int *track = xmalloc(n * sizeof *track);
    t->loc_of = xmalloc(n * sizeof *t->loc_of);
    long cap = 16, nloc = 0;
    t->proc_of = xmalloc((size_t)cap * sizeof *t->proc_of);
    t->ports = xmalloc((size_t)cap);
    struct lane_fit fit = {0};   /* the tracks of a node */
    for (long i = 0, e; i < ps->n; i = e) {
        int proc = port_slots_proc(runs, ps->v[i].run, ps->v[i].node);
        for (e = i; e < ps->n && port_slots_proc(runs, ps->v[e].run, ps->v[e].node) == proc; e++)
            key[e] = (struct slot_key){ps->v[e].start, ps->v[e].end, ps->v[e].port, e};
        qsort(key + i, (size_t)(e - i), sizeof *key, slot_key_cmp);
        fit.n = 0;
        for (long y = i; y < e; y++)
            track[y] = lane_fit_place(&fit, key[y].start, key[y].end);
        int ntrack = fit.n;
        if (nloc + ntrack > cap) {
            cap = (nloc + ntrack) * 2;
            t->proc_of = xrealloc(t->proc_of, (size_t)cap * sizeof *t->proc_of);
            t->ports = xrealloc(t->ports, (size_t)cap);
        }
        for (int l = 0; l < ntrack; l++) {
            t->proc_of[nloc + l] = proc;
            t->ports[nloc + l] = 0;
        }
        for (long y = i; y < e; y++) {
            t->loc_of[key[y].x] = nloc + track[y];
            t->ports[nloc + track[y]] |= (unsigned char)(1u << key[y].port);
        }
        nloc += ntrack;
    }
    /* by location, stable: each location's slots keep their time order */
    t->nloc = nloc;
    t->loc_first = xcalloc((size_t)nloc + 1, sizeof *t->loc_first);
    for (long y = 0; y < ps->n; y++)
        t->loc_first[t->loc_of[key[y].x] + 1]++;
    for (long loc = 0; loc < nloc; loc++)
        t->loc_first[loc + 1] += t->loc_first[loc];
    t->by_loc = xmalloc(n * sizeof *t->by_loc);
    long *fill = xmalloc((size_t)(nloc > 0 ? nloc : 1) * sizeof *fill);
    memcpy(fill, t->loc_first, (size_t)nloc * sizeof *fill);
    for (long y = 0; y < ps->n; y++)
        t->by_loc[fill[t->loc_of[key[y].x]]++] = key[y].x;
    free(fill);
    free(fit.end);
    free(track);
    free(key);
}

static void tracks_free(struct tracks *t)
{
    free(t->loc_of);
    free(t->by_loc);
    free(t->loc_first);
    free(t->proc_of);
    free(t->ports);
}

enum { ATTR_SEQ, ATTR_FROM, ATTR_TO, ATTR_WHY, NATTRS };

/* What the events need: the runs' slots, their locations and the strings of the definitions. */
struct evt_job {
    const struct run *runs;
    const struct port_slots *ps;
    const struct tracks *tk;        /* the locations */
    const long *tr_base;            /* transfer i of run r: tr_base[r] + i */
    long ntr;                       /* transfers in all */
    const OTF2_StringRef *node_str, *why_str;
    double seconds_per_unit;
    uint64_t *nevents;              /* per location, counted here */
    OTF2_TimeStamp end;             /* the last Leave */
};

#define COMM_TRANSFERS 0   /* the communicator of the messages: its ranks are the locations */

/* One busy interval: Enter, the message it sends or receives, Leave. */
static void write_slot(OTF2_EvtWriter *w, OTF2_AttributeList *al, struct evt_job *j,
                       long x, long loc, const long *send_slot, const long *in_slot)
{
    const struct port_slot *v = &j->ps->v[x];
    const struct transfer *t = &j->runs[v->run].eng.tr[v->tr];
    long tx = j->tr_base[v->run] + v->tr;
    OTF2_AttributeList_AddUint32(al, ATTR_SEQ, (uint32_t)t->seq + 1);
    OTF2_AttributeList_AddStringRef(al, ATTR_FROM,
                                    j->node_str[port_slots_proc(j->runs, v->run, t->from) - 1]);
    OTF2_AttributeList_AddStringRef(al, ATTR_TO,
                                    j->node_str[port_slots_proc(j->runs, v->run, t->to) - 1]);
    OTF2_AttributeList_AddStringRef(al, ATTR_WHY, j->why_str[tx]);
    OTF2_TimeStamp t0 = ticks(v->start, j->seconds_per_unit), t1 = ticks(v->end, j->seconds_per_unit);
    OTF2_EvtWriter_Enter(w, al, t0, (OTF2_RegionRef)v->port);
    OTF2_AttributeList_RemoveAllAttributes(al);
    j->nevents[loc] += 2;
    /* the message: sent as the send begins, received as the receive ends (tag: seq) */
    if (send_slot[tx] == x && in_slot[tx] >= 0) {
        OTF2_EvtWriter_MpiSend(w, NULL, t0, (uint32_t)j->tk->loc_of[in_slot[tx]],
                               COMM_TRANSFERS, (uint32_t)t->seq + 1, 1);
        j->nevents[loc]++;
    }
    if (in_slot[tx] == x && send_slot[tx] >= 0) {
        OTF2_EvtWriter_MpiRecv(w, NULL, t1, (uint32_t)j->tk->loc_of[send_slot[tx]],
                               COMM_TRANSFERS, (uint32_t)t->seq + 1, 1);
        j->nevents[loc]++;
    }
    OTF2_EvtWriter_Leave(w, NULL, t1, (OTF2_RegionRef)v->port);
    if (t1 > j->end)
        j->end = t1;
}

/*
 * The event files, a block of locations per archive object.  libotf2 looks a new location up
 * in a list of every location its archive has seen, so one archive writing every location's
 * events takes time quadratic in the locations (minutes at 10^5 nodes).  The first block is
 * the archive's own; each further block is written by a part archive of its own in PATH/part,
 * whose folder of event files (nothing in them names their location or their archive) is a
 * symbolic link to PATH/traces/, so that they are written where they belong; where the file
 * system makes no symbolic links, they are written in PATH/part/traces/ and moved in one by
 * one.  The rest of the part archive is then removed.
 */
#define LOCATIONS_A_PART 2048

struct evt_out {
    OTF2_Archive *main, *cur;   /* the archive; the one writing the current block */
    const char *path;
    char *part;                 /* PATH/part */
    long block, nloc;
    bool moved;                 /* the current block's files are to be moved in */
    bool failed;
};

/* Close the part archive of the current block, move its event files into the archive if they
 * are not there, and remove what is left of it. */
static void part_close(struct evt_out *o)
{
    if (o->cur == o->main || !o->cur)
        return;
    OTF2_Archive_CloseEvtFiles(o->cur);
    if (OTF2_Archive_Close(o->cur) != OTF2_SUCCESS)
        o->failed = true;
    o->cur = NULL;
    long first = o->block * LOCATIONS_A_PART, end = first + LOCATIONS_A_PART;
    for (long loc = first; o->moved && loc < end && loc < o->nloc && !o->failed; loc++) {
        char *from = xasprintf("%s/" ARCHIVE "/%ld.evt", o->part, loc);
        char *to = xasprintf("%s/" ARCHIVE "/%ld.evt", o->path, loc);
        if (rename(from, to) != 0)
            o->failed = true;
        free(from);
        free(to);
    }
    static const char *const rest[] = {ARCHIVE ".otf2", ARCHIVE ".def"};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) {
        char *name = xasprintf("%s/%s", o->part, rest[i]);
        if (unlink(name) != 0 && errno != ENOENT)
            o->failed = true;
        free(name);
    }
    char *dir = xasprintf("%s/" ARCHIVE, o->part);
    if ((o->moved ? rmdir(dir) : unlink(dir)) != 0 || rmdir(o->part) != 0)
        o->failed = true;   /* something libotf2 wrote that is not moved: the export fails */
    free(dir);
}

/* The archive that writes location loc's events, opened when its block begins; NULL when a
 * part archive cannot be made. */
static OTF2_Archive *evt_archive(struct evt_out *o, long loc)
{
    long b = loc / LOCATIONS_A_PART;
    if (b == o->block)
        return o->cur;
    part_close(o);
    o->block = b;
    if (b == 0 || o->failed)
        return o->cur = b == 0 ? o->main : NULL;
    o->cur = OTF2_Archive_Open(o->part, ARCHIVE, OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                               OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!o->cur) {
        o->failed = true;
        return NULL;
    }
    OTF2_Archive_SetFlushCallbacks(o->cur, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(o->cur);
    /* libotf2 has made PATH/part/traces/ and writes nothing in it before OpenEvtFiles */
    char *dir = xasprintf("%s/" ARCHIVE, o->part);
    o->moved = rmdir(dir) != 0 || symlink("../" ARCHIVE, dir) != 0;
    if (o->moved && mkdir(dir, 0777) != 0 && errno != EEXIST)
        o->failed = true;
    free(dir);
    OTF2_Archive_OpenEvtFiles(o->cur);
    if (o->failed) {
        part_close(o);
        return NULL;
    }
    return o->cur;
}

/* The events, location by location, each location's in time order.  A transfer's message goes from its send
 * slot to its receive slot (its link slot when the receive takes no time).  0, or -1 when a
 * part archive could not be written or moved in. */
static int write_events(OTF2_Archive *a, const char *path, long nloc, struct evt_job *j)
{
    const struct port_slots *ps = j->ps;
    long total = j->ntr;
    long *send_slot = xmalloc((size_t)(total > 0 ? total : 1) * sizeof *send_slot);
    long *in_slot = xmalloc((size_t)(total > 0 ? total : 1) * sizeof *in_slot);
    for (long x = 0; x < total; x++)
        send_slot[x] = in_slot[x] = -1;
    for (long x = 0; x < ps->n; x++) {   /* per node: link before receive, so the receive wins */
        long tx = j->tr_base[ps->v[x].run] + ps->v[x].tr;
        if (ps->v[x].port == PORT_SEND)
            send_slot[tx] = x;
        else
            in_slot[tx] = x;
    }
    OTF2_Archive_OpenEvtFiles(a);
    struct evt_out o = {a, a, path, xasprintf("%s/part", path), 0, nloc, false, false};
    OTF2_AttributeList *al = OTF2_AttributeList_New();
    for (long loc = 0; loc < nloc; loc++) {
        OTF2_Archive *w_of = evt_archive(&o, loc);
        OTF2_EvtWriter *w = w_of ? OTF2_Archive_GetEvtWriter(w_of, (OTF2_LocationRef)loc) : NULL;
        for (long y = j->tk->loc_first[loc]; y < j->tk->loc_first[loc + 1] && w; y++)
            write_slot(w, al, j, j->tk->by_loc[y], loc, send_slot, in_slot);
        if (w)
            OTF2_Archive_CloseEvtWriter(w_of, w);
    }
    part_close(&o);
    OTF2_AttributeList_Delete(al);
    OTF2_Archive_CloseEvtFiles(a);
    free(o.part);
    free(send_slot);
    free(in_slot);
    return o.failed ? -1 : 0;
}

/* The reasons, one string a transfer: [tr_base[r] + i] for transfer i of run r (malloc'd). */
static OTF2_StringRef *reason_strings(struct strings *sp, const struct run *runs, int k,
                                      const long *tr_base, OTF2_StringRef empty)
{
    OTF2_StringRef *why_str = xmalloc((size_t)(tr_base[k] > 0 ? tr_base[k] : 1) * sizeof *why_str);
    for (int r = 0; r < k; r++)
        for (int i = 0; i < runs[r].eng.ntr; i++) {
            char *tmp;
            const char *why = engine_reason(&runs[r].eng, &runs[r].eng.tr[i], &tmp);
            if (!*why) {
                why_str[tr_base[r] + i] = empty;
            } else if (text_flaw(why)) {   /* a Lua policy's bytes that are not text: as \xNN */
                char *shown = text_escape(why);
                why_str[tr_base[r] + i] = str(sp, shown);
                free(shown);
            } else {
                why_str[tr_base[r] + i] = str(sp, why);
            }
            free(tmp);
        }
    return why_str;
}

/* A location's name: the ports whose intervals it holds ("link in, receive port"), and a number
 * from 2 on where an earlier track of its node holds the same ports (same of them); names[mask]
 * keeps each first name's string. */
static OTF2_StringRef track_name(struct strings *s, unsigned mask, int same,
                                 OTF2_StringRef names[1u << NPORTS])
{
    if (same == 0 && names[mask] != OTF2_UNDEFINED_STRING)
        return names[mask];
    static const int order[NPORTS] = {PORT_LINK, PORT_RECV, PORT_SEND};   /* a node's day */
    char name[128] = "";
    for (int i = 0, nports = 0; i < NPORTS; i++)
        if (mask & (1u << order[i])) {
            size_t len = strlen(name);
            snprintf(name + len, sizeof name - len, "%s%s", nports++ ? ", " : "",
                     port_names[order[i]]);
        }
    if (same > 0) {
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " %d", same + 1);
        return str(s, name);
    }
    return names[mask] = str(s, name);
}

/* The system tree: a node per run, a location group (process) per node of it, a location per
 * track of a busy node. */
static void write_tree(struct strings *s, const struct run *runs, int k, const struct tracks *t,
                       const uint64_t *nevents, const OTF2_StringRef *node_str)
{
    OTF2_StringRef names[1u << NPORTS];
    for (unsigned m = 0; m < 1u << NPORTS; m++)
        names[m] = OTF2_UNDEFINED_STRING;
    OTF2_StringRef cls_root = str(s, "hetcast"), cls_run = str(s, "run");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, 0, cls_root, cls_root,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; r < k; r++) {
        char name[320];
        text_fit(name, sizeof name, "%s (%s%s)", runs[r].sched.ops->name,
                 model_name(runs[r].model), runs[r].measured ? ", measured" : "");
        OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, (OTF2_SystemTreeNodeRef)r + 1, str(s, name),
                                                 cls_run, 0);
    }
    long loc = 0;
    for (int r = 0; r < k; r++)
        for (int p = 0; p < runs[r].c->n; p++) {
            int proc = port_slots_proc(runs, r, p);
            OTF2_StringRef gname = node_str[proc - 1];
            if (k > 1) {
                char name[512];
                text_fit(name, sizeof name, "%s%s: %s", runs[r].sched.ops->name, run_tag(&runs[r]),
                         runs[r].c->nodes[p].name);
                gname = str(s, name);
            }
            OTF2_GlobalDefWriter_WriteLocationGroup(s->w, (OTF2_LocationGroupRef)proc - 1, gname,
                                                    OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                    (OTF2_SystemTreeNodeRef)r + 1,
                                                    OTF2_UNDEFINED_LOCATION_GROUP);
            int seen[1u << NPORTS] = {0};   /* this node's tracks so far, by their ports */
            for (; loc < t->nloc && t->proc_of[loc] == proc; loc++)
                OTF2_GlobalDefWriter_WriteLocation(s->w, (OTF2_LocationRef)loc,
                                                   track_name(s, t->ports[loc], seen[t->ports[loc]]++, names),
                                                   OTF2_LOCATION_TYPE_CPU_THREAD, nevents[loc],
                                                   (OTF2_LocationGroupRef)proc - 1);
        }
}

/* The messages' communicator, "transfers": rank i is location i (Vampir draws a message from
 * the location that sent it to the one that received it). */
static void write_comm(struct strings *s, long nloc)
{
    uint64_t *members = xmalloc((size_t)(nloc > 0 ? nloc : 1) * sizeof *members);
    for (long loc = 0; loc < nloc; loc++)
        members[loc] = (uint64_t)loc;
    OTF2_GlobalDefWriter_WriteGroup(s->w, 0, str(s, "the locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nloc, members);
    OTF2_GlobalDefWriter_WriteGroup(s->w, 1, str(s, "transfers"), OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nloc, members);
    OTF2_GlobalDefWriter_WriteComm(s->w, COMM_TRANSFERS, str(s, "transfers"), 1, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
    free(members);
}

/* The definitions' chunk: the least libotf2 takes (it clears one per location), unless the
 * communicator's groups, one record of up to 10 bytes a location, need more (then a power of
 * two, up to OTF2_CHUNK_SIZE_MAX). */
static uint64_t def_chunk_size(long nloc)
{
    uint64_t need = (uint64_t)nloc * 10 + 65536, size = OTF2_CHUNK_SIZE_MIN;
    while (size < need && size < OTF2_CHUNK_SIZE_MAX)
        size *= 2;
    return size;
}

/* Write len bytes to a new file name; false with errno on failure. */
static bool write_copy(const char *name, const char *bytes, size_t len)
{
    errno = 0;
    FILE *fp = fopen(name, "wb");
    bool wrote = fp && fwrite(bytes, 1, len, fp) == len;
    if (fp && fclose(fp) != 0)
        wrote = false;
    return wrote;
}

/*
 * Locations 1 .. nloc - 1's local definition files: the bytes libotf2 wrote for location 0
 * (no local definition: the same bytes for every location).  Asking libotf2 for each costs a
 * scan of its list of locations per location (quadratic: minutes at 10^5 nodes) and clears a
 * definitions chunk (up to 4 MiB) each.  Each is a hard link to the last file written, which
 * costs the file system a name and no block (half the files' time at 10^5 nodes); a copy is
 * written where a file has all the links it may have (EMLINK, 65 000 on ext4), and for the
 * rest where the file system makes no links.  0, or -1 with *cause.
 */
static int copy_local_defs(const char *path, long nloc, char **cause)
{
    if (nloc <= 1)
        return 0;
    char *src = xasprintf("%s/" ARCHIVE "/0.def", path);
    errno = 0;
    FILE *fp = fopen(src, "rb");
    char bytes[4096];
    size_t len = fp ? fread(bytes, 1, sizeof bytes, fp) : 0;
    bool whole = fp && !ferror(fp) && feof(fp);
    if (fp)
        fclose(fp);
    int rc = 0;
    if (!whole)
        rc = set_cause(cause, "cannot write the OTF2 archive: cannot read back %s: %s", src,
                       errno ? strerror(errno) : "longer than an empty definition file");
    bool links = true;
    for (long loc = 1; rc == 0 && loc < nloc; loc++) {
        char *name = xasprintf("%s/" ARCHIVE "/%ld.def", path, loc);
        if (links && link(src, name) == 0) {
            free(name);
            continue;
        }
        if (links && errno != EMLINK)
            links = false;   /* EPERM, ENOTSUP, ...: copies from here on */
        if (!write_copy(name, bytes, len)) {
            rc = set_cause(cause, "cannot write %s: %s", name, strerror(errno ? errno : EIO));
            free(name);
        } else {
            free(src);
            src = name;
        }
    }
    free(src);
    return rc < 0 ? -1 : 0;
}

static int write_archive(const char *path, const struct run *runs, int k, double seconds_per_unit,
                         const struct port_slots *ps, char **cause)
{
    struct tracks tk;
    tracks_make(&tk, runs, ps);
    long nloc = tk.nloc;
    OTF2_Archive *a = OTF2_Archive_Open(path, ARCHIVE, OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                                        def_chunk_size(nloc), OTF2_SUBSTRATE_POSIX,
                                        OTF2_COMPRESSION_NONE);
    if (!a) {
        set_cause(cause, "cannot write the OTF2 archive: %s",
                  otf2_said[0] ? otf2_said : "libotf2 could not open it");
        tracks_free(&tk);
        return -1;
    }
    OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);
    OTF2_Archive_SetCreator(a, "hetcast");
    char unit[160];
    text_fit(unit, sizeof unit, "a time unit of the cluster is %s s (unit: %s)",
             numfmt_num(seconds_per_unit), k > 0 ? export_unit_text(runs[0].c) : "none");
    OTF2_Archive_SetDescription(a, "broadcast schedules of hetcast: per node its send port, the "
                                   "link in and its receive port");
    OTF2_Archive_SetProperty(a, "HETCAST::TIME_UNIT", unit, true);

    uint64_t *nevents = xcalloc((size_t)(nloc > 0 ? nloc : 1), sizeof *nevents);
    OTF2_TimeStamp end = 0;

    /* strings first, so that the events' attributes can name them */
    struct strings s = {OTF2_Archive_GetGlobalDefWriter(a), 0};
    OTF2_StringRef empty = str(&s, "");
    const char *region_names[NPORTS] = {"send", "link", "receive"};
    const char *region_what[NPORTS] = {
        "the sender's send port is busy with the transfer",
        "the transfer is on its way to the receiver", "the receiver's receive port is busy with it"};
    OTF2_StringRef region_str[NPORTS], region_desc[NPORTS];
    for (int p = 0; p < NPORTS; p++) {
        region_str[p] = str(&s, region_names[p]);
        region_desc[p] = str(&s, region_what[p]);
    }
    static const char *const attr_names[NATTRS] = {"seq", "from", "to", "why"};
    static const char *const attr_what[NATTRS] = {
        "the transfer's booking order, from 1", "the sender", "the receiver",
        "why the scheduler chose it"};
    OTF2_StringRef attr_str[NATTRS][2];
    for (int i = 0; i < NATTRS; i++) {
        attr_str[i][0] = str(&s, attr_names[i]);
        attr_str[i][1] = str(&s, attr_what[i]);
    }
    int nodes = 0;
    for (int r = 0; r < k; r++)
        nodes += runs[r].c->n;
    OTF2_StringRef *node_str = xmalloc((size_t)(nodes > 0 ? nodes : 1) * sizeof *node_str);
    for (int r = 0; r < k; r++)
        for (int p = 0; p < runs[r].c->n; p++)
            node_str[port_slots_proc(runs, r, p) - 1] = str(&s, runs[r].c->nodes[p].name);
    /* the reasons, one string a transfer: why_str[tr_base[r] + i] for transfer i of run r */
    long *tr_base = xcalloc((size_t)k + 1, sizeof *tr_base);
    for (int r = 0; r < k; r++)
        tr_base[r + 1] = tr_base[r] + runs[r].eng.ntr;
    OTF2_StringRef *why_str = reason_strings(&s, runs, k, tr_base, empty);

    struct evt_job job = {runs, ps, &tk, tr_base, tr_base[k], node_str, why_str,
                          seconds_per_unit, nevents, 0};
    if (write_events(a, path, nloc, &job) < 0 && !otf2_said[0])
        text_fit(otf2_said, sizeof otf2_said, "cannot move the event files into %s: %s", path,
                 strerror(errno ? errno : EIO));
    end = job.end;
    /* an empty local definition file per location, as readers expect: libotf2 writes the
     * first, the others are copies of it (copy_local_defs) */
    OTF2_Archive_OpenDefFiles(a);
    if (nloc > 0)
        OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, 0));
    OTF2_Archive_CloseDefFiles(a);

    /* the global definitions: the clock, the regions and attributes, the system tree */
    OTF2_GlobalDefWriter *g = s.w;
    OTF2_GlobalDefWriter_WriteClockProperties(g, TICKS_PER_SECOND, 0, end + 1,
                                              OTF2_UNDEFINED_TIMESTAMP);
    for (int p = 0; p < NPORTS; p++)
        OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)p, region_str[p], region_str[p],
                                         region_desc[p],
                                         p == PORT_LINK ? OTF2_REGION_ROLE_DATA_TRANSFER
                                                        : OTF2_REGION_ROLE_POINT2POINT,
                                         OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    static const OTF2_Type attr_type[NATTRS] = {OTF2_TYPE_UINT32, OTF2_TYPE_STRING, OTF2_TYPE_STRING,
                                                OTF2_TYPE_STRING};
    for (int i = 0; i < NATTRS; i++)
        OTF2_GlobalDefWriter_WriteAttribute(g, (OTF2_AttributeRef)i, attr_str[i][0], attr_str[i][1],
                                            attr_type[i]);
    write_tree(&s, runs, k, &tk, nevents, node_str);
    write_comm(&s, nloc);
    free(node_str);
    free(why_str);
    free(tr_base);
    tracks_free(&tk);
    free(nevents);
    OTF2_ErrorCode rc = OTF2_Archive_Close(a);
    if (rc != OTF2_SUCCESS) {
        set_cause(cause, "cannot write the OTF2 archive: %s",
                  otf2_said[0] ? otf2_said : OTF2_Error_GetDescription(rc));
        return -1;
    }
    return copy_local_defs(path, nloc, cause);
}

int export_otf2_check(const char *dir, const struct run *runs, int k, double seconds_per_unit,
                      char **cause)
{
    char *why = NULL;
    if (atomic_dir_check(dir, archive_entry, ARCHIVE_WHAT, &why) < 0) {
        set_cause(cause, "--output %s: %s", dir, why);
        free(why);
        return -1;
    }
    double most = (double)UINT64_MAX / 2 / (double)TICKS_PER_SECOND / seconds_per_unit;
    for (int r = 0; r < k; r++)
        if (!(runs[r].eng.makespan <= most)) {
            set_cause(cause, "the run ends at %s, past what OTF2's clock holds at a nanosecond "
                             "a tick (%s)", numfmt_num(runs[r].eng.makespan), numfmt_num(most));
            return -1;
        }
    return 0;
}

int export_otf2(const char *dir, const struct run *runs, int k, double seconds_per_unit,
                char **cause)
{
    struct atomic_dir ad;
    char *why = NULL;
    if (atomic_dir_open(&ad, dir, archive_entry, ARCHIVE_WHAT, &why) < 0) {
        set_cause(cause, "--output %s: %s", dir, why);
        free(why);
        return -1;
    }
    OTF2_ErrorCallback was = OTF2_Error_RegisterCallback(keep_error, NULL);
    otf2_said[0] = '\0';
    struct port_slots ps;
    port_slots_make(&ps, runs, k);
    int rc = write_archive(ad.tmp, runs, k, seconds_per_unit, &ps, cause);
    port_slots_free(&ps);
    OTF2_Error_RegisterCallback(was, NULL);
    if (rc == 0 && otf2_said[0]) {   /* libotf2 said so on the way (a write it could not make) */
        set_cause(cause, "cannot write the OTF2 archive %s: %s", dir, otf2_said);
        rc = -1;
    }
    if (rc != 0) {
        atomic_dir_abort(&ad);
        return -1;
    }
    if (atomic_dir_commit(&ad) != 0)
        return set_cause(cause, "cannot write %s: %s", dir, strerror(errno)), -1;
    return 0;
}
