// SPDX-License-Identifier: MIT
// libFuzzer target: chase-collect's request-path parser and manifest reader, the two places
// bytes from the network meet the collector's file system. The input is read as a path (with
// and without a prefix) and as a manifest.json; what either accepts must hold only good names.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "names.h"

/* A name the parser let through must be one the collector may create: never "/", "..", NUL. */
static void name_safe(const char *name)
{
    size_t n = strlen(name);
    if (!collect_name_ok(name, n) || strchr(name, '/') || strstr(name, "..") || name[0] == '.')
        abort();
}

static void path_case(const uint8_t *data, size_t size, const char *prefix)
{
    struct collect_target t;
    if (!collect_path_parse((const char *)data, size, prefix, &t))
        return;
    name_safe(t.machine);
    name_safe(t.run_id);
    name_safe(t.file);
    /* Accepted: the path is exactly the prefix and the three names. */
    size_t want = strlen(prefix) + 3 + strlen(t.machine) + strlen(t.run_id) + strlen(t.file);
    if (want != size || memchr(data, '\0', size))
        abort();
}

static void manifest_case(const uint8_t *data, size_t size)
{
    struct manifest m;
    char err[200];
    if (!manifest_parse((const char *)data, size, UINT64_C(1) << 30, &m, err, sizeof(err))) {
        if (!memchr(err, '\0', sizeof(err)) || m.files || m.nfiles)
            abort();
        return;
    }
    name_safe(m.machine);
    name_safe(m.run_id);
    if (m.nfiles > MANIFEST_MAX_FILES)
        abort();
    for (size_t i = 0; i < m.nfiles; i++) {
        name_safe(m.files[i].name);
        if (!strcmp(m.files[i].name, MANIFEST_NAME) || m.files[i].size > UINT64_C(1) << 30 ||
            manifest_find(&m, m.files[i].name) != &m.files[i])
            abort();
    }
    manifest_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    path_case(data, size, "");
    path_case(data, size, "/chase/fleet");
    manifest_case(data, size);
    return 0;
}
