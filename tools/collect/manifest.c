// SPDX-License-Identifier: MIT
// Reading manifest.json strictly (tools/report's JSON reader), before any file is trusted.
#include "manifest.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/rjson.h"

static bool fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return false;
}

static bool hex_digit(char c, uint8_t *v)
{
    if (c >= '0' && c <= '9')
        *v = (uint8_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
        *v = (uint8_t)(c - 'a' + 10);
    else
        return false;
    return true;
}

/* 64 lower-case hex digits into 32 bytes. */
static bool parse_digest(const char *hex, uint8_t out[SHA256_DIGEST_BYTES])
{
    if (!hex || strlen(hex) != 2 * SHA256_DIGEST_BYTES)
        return false;
    for (unsigned i = 0; i < SHA256_DIGEST_BYTES; i++) {
        uint8_t hi, lo;
        if (!hex_digit(hex[2 * i], &hi) || !hex_digit(hex[2 * i + 1], &lo))
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

static bool copy_name(const struct rjson *v, char out[COLLECT_NAME_MAX + 1])
{
    const char *s = rjson_string(v);
    if (!s || !collect_name_ok(s, strlen(s)))
        return false;
    memcpy(out, s, strlen(s) + 1);
    return true;
}

static bool parse_file(const struct rjson *e, uint64_t max_size, struct manifest_file *f, char *err,
                       size_t cap)
{
    double size;
    if (!e || e->type != RJSON_OBJECT)
        return fail(err, cap, "a files entry is not an object");
    if (!copy_name(rjson_get(e, "name"), f->name))
        return fail(err, cap, "a file name is missing or not [A-Za-z0-9._-]+");
    if (strcmp(f->name, MANIFEST_NAME) == 0)
        return fail(err, cap, "the manifest lists itself");
    if (!rjson_number(rjson_get(e, "size"), &size) || !(size >= 0) || size > (double)max_size ||
        floor(size) != size)
        return fail(err, cap, "%s: size is not a whole number of bytes up to %llu", f->name,
                    (unsigned long long)max_size);
    f->size = (uint64_t)size;
    if (!parse_digest(rjson_string(rjson_get(e, "sha256")), f->sha256))
        return fail(err, cap, "%s: sha256 is not 64 lower-case hex digits", f->name);
    return true;
}

static bool parse_files(const struct rjson *files, uint64_t max_size, struct manifest *m, char *err,
                        size_t cap)
{
    if (!files || files->type != RJSON_ARRAY)
        return fail(err, cap, "no \"files\" array");
    size_t n = rjson_count(files);
    if (n > MANIFEST_MAX_FILES)
        return fail(err, cap, "%zu files listed, more than %d", n, MANIFEST_MAX_FILES);
    m->files = calloc(n ? n : 1, sizeof(*m->files));
    if (!m->files)
        return fail(err, cap, "out of memory");
    for (const struct rjson *e = files->child; e; e = e->next) {
        struct manifest_file *f = &m->files[m->nfiles];
        if (!parse_file(e, max_size, f, err, cap))
            return false;
        if (manifest_find(m, f->name))
            return fail(err, cap, "%s is listed twice", f->name);
        m->nfiles++;
    }
    return true;
}

bool manifest_parse(const char *text, size_t len, uint64_t max_size, struct manifest *m, char *err,
                    size_t cap)
{
    char jerr[160];
    double version;
    memset(m, 0, sizeof(*m));
    struct rjson *root = rjson_parse(text, len, jerr, sizeof(jerr));
    bool ok = false;
    if (!root) {
        fail(err, cap, "not JSON: %s", jerr);
    } else if (root->type != RJSON_OBJECT) {
        fail(err, cap, "not a JSON object");
    } else if (!rjson_string(rjson_get(root, "format")) ||
               strcmp(rjson_string(rjson_get(root, "format")), "chase-manifest") != 0) {
        fail(err, cap, "format is not \"chase-manifest\"");
    } else if (!rjson_number(rjson_get(root, "version"), &version) || version != 1) {
        fail(err, cap, "version is not 1");
    } else if (!copy_name(rjson_get(root, "machine"), m->machine) ||
               !copy_name(rjson_get(root, "run_id"), m->run_id)) {
        fail(err, cap, "machine or run_id is missing or not [A-Za-z0-9._-]+");
    } else {
        ok = parse_files(rjson_get(root, "files"), max_size, m, err, cap);
    }
    rjson_free(root);
    if (!ok)
        manifest_free(m);
    return ok;
}

void manifest_free(struct manifest *m)
{
    free(m->files);
    memset(m, 0, sizeof(*m));
}

const struct manifest_file *manifest_find(const struct manifest *m, const char *name)
{
    for (size_t i = 0; i < m->nfiles; i++)
        if (strcmp(m->files[i].name, name) == 0)
            return &m->files[i];
    return NULL;
}
