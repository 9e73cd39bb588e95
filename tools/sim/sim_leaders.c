// SPDX-License-Identifier: MIT
// chase-sim's leader-set layout in run.json: the truth the offset verdict is checked against.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_leaders.h"
#include "sim_policy.h"

/* The sets of slice 0 of c with role r, as a JSON list, appended to buf (capacity cap). */
static void role_list(const struct sim_cache *c, uint8_t r, char *buf, size_t cap)
{
    size_t len = strlen(buf);
    int first = 1;
    len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "[");
    for (uint32_t s = 0; s < c->p.sets_per_slice && len < cap; s++)
        if (c->role[s] == r) {
            len += (size_t)snprintf(buf + len, cap - len, "%s%u", first ? "" : ", ", s);
            first = 0;
        }
    if (len < cap)
        snprintf(buf + len, cap - len, "]");
}

/* The "leader_sets" member for h: one object per level with set dueling; "" when none. */
static char *leaders_json(const struct sim_hier *h)
{
    size_t cap = 1 << 20;
    char *buf = calloc(1, cap);
    if (!buf)
        return NULL;
    size_t n = 0;
    for (unsigned i = 0; i < h->nlevels; i++) {
        const struct sim_cache *c = &h->level[i].cache;
        if (!c->duels)
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len,
                 "%s    {\"level\": \"%s\", \"sets_per_slice\": %u, \"slices\": %u, "
                 "\"line_bytes\": %u, \"a\": ",
                 n++ ? ",\n" : "", h->spec.level[i].name, c->p.sets_per_slice, c->p.slices,
                 1u << c->line_shift);
        role_list(c, SIM_LEADER_A, buf, cap);
        len = strlen(buf);
        snprintf(buf + len, cap - len, ", \"b\": ");
        role_list(c, SIM_LEADER_B, buf, cap);
        len = strlen(buf);
        snprintf(buf + len, cap - len, "}");
    }
    return buf;
}

/* The whole file at path, NUL-terminated (free it); NULL when it cannot be read. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1))) {
        if (fread(text, 1, (size_t)size, f) == (size_t)size) {
            text[size] = 0;
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

int sim_leaders_write(const struct sim_hier *h, const char *run_json_path)
{
    char *text = read_all(run_json_path), *list = leaders_json(h);
    char *end = text && list ? strrchr(text, '}') : NULL;
    int rc = -1;
    FILE *f = end ? fopen(run_json_path, "wb") : NULL;
    if (f) {
        /* Splice the member in before the document's closing brace. */
        while (end > text && (end[-1] == '\n' || end[-1] == ' '))
            end--;
        fwrite(text, 1, (size_t)(end - text), f);
        fprintf(f, ",\n  \"leader_sets\": [%s%s%s]\n}\n", list[0] ? "\n" : "", list,
                list[0] ? "\n  " : "");
        rc = fclose(f) == 0 ? 0 : -1;
    }
    free(text);
    free(list);
    return rc;
}
