// SPDX-License-Identifier: MIT
// Reading a serial log's CHASE-FILE lines into runs and files, then writing the good ones
// through the collector's staging, so a run is complete only when its manifest checks.
#include "serial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "manifest.h"
#include "lib/crc32.h"
#include "lib/sha256.h"

/* Runs one log may hold (a console kept over many boots), and lines longer than any CHASE-FILE
   line (a data line is under 400 characters) are skipped. */
#define SERIAL_MAX_RUNS 64
#define SERIAL_LINE_MAX 4096

struct sfile {
    char name[COLLECT_NAME_MAX + 1];
    uint64_t size;
    char sha256[SHA256_HEX_CHARS + 1]; /* as its begin line gives it */
    uint8_t *data;
    size_t len;
    unsigned next_seq;
    bool ended;
    char why[160]; /* "" while good */
};

struct srun {
    char run_id[COLLECT_NAME_MAX + 1], machine[COLLECT_NAME_MAX + 1];
    struct sfile *files;
    size_t nfiles;
    bool done;
};

struct slog {
    struct srun runs[SERIAL_MAX_RUNS];
    size_t nruns;
    uint64_t max_file;
};

/* The value of key=... in the fields after the tag, copied into out; false when absent. */
static bool field(const char *fields, const char *key, char *out, size_t cap)
{
    size_t klen = strlen(key);
    for (const char *p = fields; *p; p += strcspn(p, " "), p += strspn(p, " ")) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t n = strcspn(p + klen + 1, " ");
            if (n >= cap)
                return false;
            memcpy(out, p + klen + 1, n);
            out[n] = '\0';
            return true;
        }
    }
    return false;
}

static bool field_name(const char *fields, const char *key, char out[COLLECT_NAME_MAX + 1])
{
    return field(fields, key, out, COLLECT_NAME_MAX + 1) && collect_name_ok(out, strlen(out));
}

static bool field_u64(const char *fields, const char *key, uint64_t *v)
{
    char s[24];
    if (!field(fields, key, s, sizeof(s)) || !*s || strspn(s, "0123456789") != strlen(s))
        return false;
    *v = strtoull(s, NULL, 10);
    return true;
}

static struct srun *find_run(struct slog *l, const char *run_id)
{
    for (size_t i = 0; i < l->nruns; i++)
        if (!strcmp(l->runs[i].run_id, run_id))
            return &l->runs[i];
    return NULL;
}

static struct sfile *find_file(struct srun *r, const char *name)
{
    for (size_t i = 0; r && i < r->nfiles; i++)
        if (!strcmp(r->files[i].name, name))
            return &r->files[i];
    return NULL;
}

static void run_reset(struct srun *r)
{
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i].data);
    free(r->files);
    r->files = NULL;
    r->nfiles = 0;
    r->done = false;
}

/* kind=run: a run starts (again, when the log holds it twice: the last copy counts). */
static void on_run(struct slog *l, const char *run_id, const char *f)
{
    struct srun *r = find_run(l, run_id);
    if (!r && l->nruns < SERIAL_MAX_RUNS) {
        r = &l->runs[l->nruns++];
        memset(r, 0, sizeof(*r));
        snprintf(r->run_id, sizeof(r->run_id), "%s", run_id);
    }
    if (!r)
        return;
    run_reset(r);
    if (!field_name(f, "machine", r->machine))
        r->machine[0] = '\0';
}

/* kind=begin: a file starts; its size and digest are what its end is checked against. */
static void on_begin(struct slog *l, struct srun *r, const char *f)
{
    char name[COLLECT_NAME_MAX + 1], hex[SHA256_HEX_CHARS + 1];
    uint64_t size;
    if (!field_name(f, "name", name) || !field_u64(f, "size", &size) ||
        !field(f, "sha256", hex, sizeof(hex)) || strlen(hex) != SHA256_HEX_CHARS ||
        strspn(hex, "0123456789abcdef") != SHA256_HEX_CHARS)
        return;
    struct sfile *s = find_file(r, name);
    if (!s && r->nfiles < MANIFEST_MAX_FILES) {
        struct sfile *more = realloc(r->files, (r->nfiles + 1) * sizeof(*more));
        if (!more)
            return;
        r->files = more;
        s = &r->files[r->nfiles++];
        memset(s, 0, sizeof(*s));
    }
    if (!s)
        return;
    free(s->data);
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->size = size;
    memcpy(s->sha256, hex, sizeof(s->sha256));
    if (size > l->max_file)
        snprintf(s->why, sizeof(s->why), "%llu bytes, over the limit", (unsigned long long)size);
    else if (!(s->data = malloc(size ? size : 1)))
        snprintf(s->why, sizeof(s->why), "out of memory");
}

/* kind=data: the next chunk, its sequence number and CRC-32 checked. */
static void on_data(struct sfile *s, const char *f)
{
    char b64[SERIAL_LINE_MAX], crc_hex[16];
    uint8_t chunk[SERIAL_CHUNK_MAX];
    uint64_t seq;
    size_t n = 0;
    if (!s || s->ended || s->why[0])
        return;
    if (!field_u64(f, "seq", &seq) || !field(f, "crc32", crc_hex, sizeof(crc_hex)) ||
        !field(f, "b64", b64, sizeof(b64))) {
        snprintf(s->why, sizeof(s->why), "a data line lacks seq, crc32 or b64");
    } else if (seq != s->next_seq) {
        snprintf(s->why, sizeof(s->why), "chunk %u missing (the next one is %llu)", s->next_seq,
                 (unsigned long long)seq);
    } else if (!serial_base64(b64, strlen(b64), chunk, sizeof(chunk), &n)) {
        snprintf(s->why, sizeof(s->why), "chunk %llu is not base64 of at most %d bytes",
                 (unsigned long long)seq, SERIAL_CHUNK_MAX);
    } else {
        char want[9];
        snprintf(want, sizeof(want), "%08x", crc32_ieee(chunk, n));
        if (strcmp(want, crc_hex) != 0)
            snprintf(s->why, sizeof(s->why), "chunk %llu fails its CRC-32 (%s, computed %s)",
                     (unsigned long long)seq, crc_hex, want);
        else if (s->len + n > s->size)
            snprintf(s->why, sizeof(s->why), "more bytes than its size (%llu)",
                     (unsigned long long)s->size);
    }
    if (s->why[0])
        return;
    memcpy(s->data + s->len, chunk, n);
    s->len += n;
    s->next_seq++;
}

/* kind=end: the chunk count, the size and the SHA-256 of the whole file. */
static void on_end(struct sfile *s, const char *f)
{
    uint64_t chunks;
    char digest[SHA256_HEX_CHARS + 1];
    if (!s || s->ended)
        return;
    s->ended = true;
    if (s->why[0])
        return;
    sha256_hex(s->data, s->len, digest);
    if (!field_u64(f, "chunks", &chunks) || chunks != s->next_seq)
        snprintf(s->why, sizeof(s->why), "%u chunks arrived, the end line says otherwise",
                 s->next_seq);
    else if (s->len != s->size)
        snprintf(s->why, sizeof(s->why), "%zu bytes arrived, its size is %llu", s->len,
                 (unsigned long long)s->size);
    else if (strcmp(digest, s->sha256) != 0)
        snprintf(s->why, sizeof(s->why), "its SHA-256 does not match");
}

static void on_line(struct slog *l, const char *line)
{
    const char *tag = strstr(line, SERIAL_TAG);
    char run_id[COLLECT_NAME_MAX + 1], kind[16], name[COLLECT_NAME_MAX + 1];
    if (!tag)
        return;
    const char *f = tag + strlen(SERIAL_TAG);
    if (!field_name(f, "run", run_id) || !field(f, "kind", kind, sizeof(kind)))
        return;
    if (!strcmp(kind, "run")) {
        on_run(l, run_id, f);
        return;
    }
    struct srun *r = find_run(l, run_id);
    if (!r)
        return; /* its run line was not captured */
    struct sfile *s = field_name(f, "name", name) ? find_file(r, name) : NULL;
    if (!strcmp(kind, "begin"))
        on_begin(l, r, f);
    else if (!strcmp(kind, "data"))
        on_data(s, f);
    else if (!strcmp(kind, "end"))
        on_end(s, f);
    else if (!strcmp(kind, "done"))
        r->done = true;
}

/* Stage a run's good files and complete it when all check; 0 when it is complete. */
static int write_run(struct srun *r, struct collect_root *root, const char *report)
{
    struct collect_target t;
    int bad = 0;
    if (!r->machine[0]) {
        fprintf(stderr, "chase-collect: run %s: its run line names no machine\n", r->run_id);
        return 1;
    }
    snprintf(t.machine, sizeof(t.machine), "%s", r->machine);
    snprintf(t.run_id, sizeof(t.run_id), "%s", r->run_id);
    for (size_t i = 0; i < r->nfiles; i++) {
        struct sfile *s = &r->files[i];
        if (!s->ended && !s->why[0])
            snprintf(s->why, sizeof(s->why), "it has no end line (the log stops inside it)");
        snprintf(t.file, sizeof(t.file), "%s", s->name);
        if (s->why[0] || !staging_write(root, &t, s->data, s->len)) {
            fprintf(stderr, "chase-collect: %s/%s: %s damaged: %s\n", r->machine, r->run_id,
                    s->name, s->why[0] ? s->why : "cannot be staged");
            bad++;
        }
    }
    char msg[300], err[400], rel[2 * COLLECT_NAME_MAX + 2];
    enum stage_result res = staging_try_complete(root, r->machine, r->run_id, msg, sizeof(msg));
    printf("%s/%s: %zu files, %d damaged%s; %s\n", r->machine, r->run_id, r->nfiles - (size_t)bad,
           bad, r->done ? "" : ", no done line", res == STAGE_COMPLETE ? "complete" : msg);
    if (res != STAGE_COMPLETE)
        return 1;
    snprintf(rel, sizeof(rel), "%s/%s", r->machine, r->run_id);
    struct sqlite3 *db = index_open(root->path, err, sizeof(err));
    if (!db || !index_run(db, root->path, rel, report, err, sizeof(err)))
        fprintf(stderr, "chase-collect: %s: not indexed: %s\n", rel, err);
    index_close(db);
    return 0;
}

int serial_rebuild(const char *path, struct collect_root *root, const char *report)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 2;
    }
    struct slog *l = calloc(1, sizeof(*l));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    if (!l) {
        fclose(f);
        return 2;
    }
    l->max_file = root->max_file;
    while ((n = getline(&line, &cap, f)) >= 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (n < SERIAL_LINE_MAX)
            on_line(l, line);
    }
    free(line);
    fclose(f);
    int failed = 0;
    for (size_t i = 0; i < l->nruns; i++) {
        failed |= write_run(&l->runs[i], root, report);
        run_reset(&l->runs[i]);
    }
    if (l->nruns == 0) {
        fprintf(stderr, "chase-collect: %s holds no CHASE-FILE run\n", path);
        failed = 1;
    }
    free(l);
    return failed;
}
