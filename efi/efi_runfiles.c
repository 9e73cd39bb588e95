// SPDX-License-Identifier: MIT
// The run folder in memory: the latest version of every file the run writes, so that a run with
// no writable volume (a network boot) loses nothing before it is uploaded or streamed.
#include "efi_net.h"
#include "lib/kstring.h"

#define RUNFILES_MAX 64 /* run.json, console.txt, errors.txt and two files per experiment */

static struct ship_file files[RUNFILES_MAX];
static char names[RUNFILES_MAX][64];
static unsigned nfiles;

BOOLEAN efi_runfiles_put(const char *name, const void *data, size_t len)
{
    unsigned i = 0;
    while (i < nfiles && kstrcmp(names[i], name) != 0)
        i++;
    if (i == RUNFILES_MAX || kstrlen(name) >= sizeof(names[0]))
        return FALSE;
    void *copy = plat_alloc(len + 1); /* +1: an empty file still has a buffer */
    if (!copy)
        return FALSE;
    kmemcpy(copy, data, len);
    if (i == nfiles) {
        kstrlcpy(names[i], name, sizeof(names[i]));
        files[i].name = names[i];
        nfiles++;
    } else {
        plat_free((void *)files[i].data);
    }
    files[i].data = copy;
    files[i].len = len;
    return TRUE;
}

unsigned efi_runfiles(const struct ship_file **out)
{
    *out = files;
    return nfiles;
}

void efi_runfiles_release(void)
{
    for (unsigned i = 0; i < nfiles; i++)
        plat_free((void *)files[i].data);
    kmemset(files, 0, sizeof(files));
    nfiles = 0;
}
