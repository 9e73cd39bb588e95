// SPDX-License-Identifier: MIT
// Staging and completion on the file system: every path is opened relative to DIR's descriptor,
// one checked name at a time, never following a link, so nothing lands outside DIR.
#include "staging.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"
#include "lib/sha256.h"

/* Largest manifest.json read: MANIFEST_MAX_FILES entries of about 150 bytes each, with room. */
#define MANIFEST_MAX_BYTES (1u << 20)

static enum stage_result say(enum stage_result r, char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return r;
}

/* The folder name inside dfd (made when create and missing), opened; -1 with errno. */
static int open_dir_at(int dfd, const char *name, bool create)
{
    if (create && mkdirat(dfd, name, 0755) != 0 && errno != EEXIST)
        return -1;
    return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

bool collect_root_open(struct collect_root *r, const char *path, uint64_t max_file)
{
    r->path = path;
    r->max_file = max_file;
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return false;
    r->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (r->fd < 0)
        return false;
    int s = open_dir_at(r->fd, STAGING_DIR, true);
    if (s < 0)
        return false;
    close(s);
    return true;
}

bool staging_run_complete(const struct collect_root *r, const char *machine, const char *run_id)
{
    int m = open_dir_at(r->fd, machine, false);
    if (m < 0)
        return false;
    struct stat st;
    bool there = fstatat(m, run_id, &st, AT_SYMLINK_NOFOLLOW) == 0;
    close(m);
    return there;
}

/* DIR/.staging/<machine>/<run id>, opened (made when create); -1 with errno. */
static int open_run_staging(const struct collect_root *r, const char *machine, const char *run_id,
                            bool create)
{
    int s = open_dir_at(r->fd, STAGING_DIR, create);
    if (s < 0)
        return -1;
    int m = open_dir_at(s, machine, create);
    close(s);
    if (m < 0)
        return -1;
    int run = open_dir_at(m, run_id, create);
    close(m);
    return run;
}

int staging_part_open(const struct collect_root *r, const struct collect_target *t,
                      unsigned long serial, char part[STAGING_PART_MAX])
{
    int dir = open_run_staging(r, t->machine, t->run_id, true);
    if (dir < 0)
        return -1;
    /* Unique to this process and request; one left by an earlier process that had the same
       number is stale (its writer is gone) and is replaced. */
    snprintf(part, STAGING_PART_MAX, "%s" STAGING_PART_MARK "%d-%lu", t->file, (int)getpid(),
             serial);
    int fd = openat(dir, part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST && unlinkat(dir, part, 0) == 0)
        fd = openat(dir, part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int saved = errno;
    close(dir);
    errno = saved;
    return fd;
}

bool staging_part_commit(const struct collect_root *r, const struct collect_target *t,
                         const char *part)
{
    int dir = open_run_staging(r, t->machine, t->run_id, false);
    if (dir < 0)
        return false;
    bool ok = renameat(dir, part, dir, t->file) == 0 && fsync(dir) == 0;
    close(dir);
    return ok;
}

void staging_part_discard(const struct collect_root *r, const struct collect_target *t,
                          const char *part)
{
    int s = open_dir_at(r->fd, STAGING_DIR, false);
    int m = s >= 0 ? open_dir_at(s, t->machine, false) : -1;
    int dir = m >= 0 ? open_dir_at(m, t->run_id, false) : -1;
    if (dir >= 0) {
        unlinkat(dir, part, 0);
        close(dir);
        unlinkat(m, t->run_id, AT_REMOVEDIR); /* the folders it made, when nothing else is there */
        unlinkat(s, t->machine, AT_REMOVEDIR);
    }
    if (m >= 0)
        close(m);
    if (s >= 0)
        close(s);
}

static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

bool staging_write(const struct collect_root *r, const struct collect_target *t, const void *data,
                   size_t len)
{
    char part[STAGING_PART_MAX];
    static unsigned long writes;
    int fd = staging_part_open(r, t, ++writes, part);
    if (fd < 0)
        return false;
    bool ok = write_all(fd, data, len) && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (ok && staging_part_commit(r, t, part))
        return true;
    staging_part_discard(r, t, part);
    return false;
}

/* Read the file name in dir whole (at most max bytes) into a malloc'd buffer. */
static char *read_small(int dir, const char *name, size_t max, size_t *len)
{
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max) {
        buf = malloc((size_t)st.st_size + 1);
        ssize_t n = buf ? read(fd, buf, (size_t)st.st_size) : -1;
        if (n != (ssize_t)st.st_size) {
            free(buf);
            buf = NULL;
        } else {
            *len = (size_t)n;
        }
    }
    close(fd);
    return buf;
}

/* Whether the file f.name in dir is a regular file of f.size bytes whose SHA-256 is f.sha256;
   why (of capacity cap) says what differs. */
static bool file_matches(int dir, const struct manifest_file *f, char *why, size_t cap)
{
    int fd = openat(dir, f->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "%s is missing", f->name);
        if (fd >= 0)
            close(fd);
        return false;
    }
    bool ok = (uint64_t)st.st_size == f->size;
    if (!ok)
        snprintf(why, cap, "%s has %lld bytes, the manifest says %llu", f->name,
                 (long long)st.st_size, (unsigned long long)f->size);
    struct sha256 c;
    sha256_init(&c);
    char buf[65536];
    ssize_t n;
    while (ok && (n = read(fd, buf, sizeof(buf))) > 0)
        sha256_update(&c, buf, (size_t)n);
    close(fd);
    uint8_t digest[SHA256_DIGEST_BYTES];
    sha256_final(&c, digest);
    if (ok && memcmp(digest, f->sha256, sizeof(digest)) != 0) {
        snprintf(why, cap, "%s does not match its SHA-256 in the manifest", f->name);
        ok = false;
    }
    return ok;
}

/* Remove every entry of dir that the manifest does not list (part files, stray uploads). */
static bool remove_unlisted(int dir, const struct manifest *m)
{
    int fd = dup(dir);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d)
        return false;
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            !strcmp(e->d_name, MANIFEST_NAME) || manifest_find(m, e->d_name))
            continue;
        if (unlinkat(dir, e->d_name, 0) != 0)
            ok = false;
    }
    closedir(d);
    return ok;
}

/* Move the checked staging folder to DIR/<machine>/<run id>, never over an existing one. */
static enum stage_result move_complete(const struct collect_root *r, const char *machine,
                                       const char *run_id, char *msg, size_t cap)
{
    int s = open_dir_at(r->fd, STAGING_DIR, false);
    int from = s >= 0 ? open_dir_at(s, machine, false) : -1;
    int to = open_dir_at(r->fd, machine, true);
    enum stage_result res = STAGE_ERROR;
    if (from < 0 || to < 0) {
        say(res, msg, cap, "cannot open %s/%s: %s", machine, run_id, strerror(errno));
    } else if (renameat2(from, run_id, to, run_id, RENAME_NOREPLACE) != 0) {
        bool exists = errno == EEXIST;
        res = exists ? STAGE_EXISTS : STAGE_ERROR;
        say(res, msg, cap, exists ? "%s/%s is complete already" : "cannot move %s/%s: %s", machine,
            run_id, strerror(errno));
    } else {
        fsync(to);
        fsync(from);
        unlinkat(from, ".", AT_REMOVEDIR); /* fails quietly while other runs stage there */
        res = say(STAGE_COMPLETE, msg, cap, "%s/%s complete", machine, run_id);
    }
    if (s >= 0 && from >= 0)
        unlinkat(s, machine, AT_REMOVEDIR); /* the machine's staging folder, once empty */
    for (int fd = 0, fds[3] = {s, from, to}; fd < 3; fd++)
        if (fds[fd] >= 0)
            close(fds[fd]);
    return res;
}

/* Check every listed file; msg says the first that does not match. */
static enum stage_result check_listed(int dir, const struct manifest *m, char *msg, size_t cap)
{
    for (size_t i = 0; i < m->nfiles; i++)
        if (!file_matches(dir, &m->files[i], msg, cap))
            return STAGE_MISMATCH;
    return STAGE_COMPLETE;
}

enum stage_result staging_try_complete(const struct collect_root *r, const char *machine,
                                       const char *run_id, char *msg, size_t cap)
{
    if (staging_run_complete(r, machine, run_id))
        return say(STAGE_EXISTS, msg, cap, "%s/%s is complete already", machine, run_id);
    int dir = open_run_staging(r, machine, run_id, false);
    if (dir < 0)
        return say(STAGE_WAITING, msg, cap, "nothing staged for %s/%s", machine, run_id);
    size_t len = 0;
    char *text = read_small(dir, MANIFEST_NAME, MANIFEST_MAX_BYTES, &len);
    if (!text) {
        close(dir);
        return say(STAGE_WAITING, msg, cap, "%s/%s waits for its manifest", machine, run_id);
    }
    struct manifest m;
    char err[200];
    enum stage_result res;
    if (!manifest_parse(text, len, r->max_file, &m, err, sizeof(err)))
        res = say(STAGE_BAD_MANIFEST, msg, cap, "manifest: %s", err);
    else if (strcmp(m.machine, machine) != 0 || strcmp(m.run_id, run_id) != 0)
        res = say(STAGE_BAD_MANIFEST, msg, cap, "the manifest names %s/%s, not %s/%s", m.machine,
                  m.run_id, machine, run_id);
    else
        res = check_listed(dir, &m, msg, cap);
    if (res == STAGE_COMPLETE && !remove_unlisted(dir, &m))
        res = say(STAGE_ERROR, msg, cap, "cannot clear %s/%s's staging folder", machine, run_id);
    free(text);
    close(dir);
    if (res == STAGE_COMPLETE)
        res = move_complete(r, machine, run_id, msg, cap);
    manifest_free(&m);
    return res;
}
