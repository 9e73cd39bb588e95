// SPDX-License-Identifier: MIT
// The buffer a run's plan needs: the largest any selected experiment asks for, and the alignment
// its strides want (moved out of run.c as it was).
#include "run/buffer_plan.h"

#include "experiments/experiment.h"
#include "lib/kstring.h"

uint64_t run_buffer_need(const struct chase_config *cfg, const struct machine *m)
{
    uint64_t need = 0;
    for (unsigned i = 0; i < cfg->global.n_experiments; i++) {
        unsigned idx = cfg->global.experiments[i];
        uint64_t b = experiment_table[idx]->cfg.buffer_bytes(cfg_params_const(cfg, idx), m);
        need = b > need ? b : need;
    }
    return need;
}

static uint64_t largest_pow2_stride_of(const struct key_desc *k, const void *params)
{
    const char *field = (const char *)params + k->offset;
    uint64_t best = 0;
    size_t n = kstrlen(k->name);
    if (n < 6 || kstrcmp(k->name + n - 6, "stride") != 0) {
        if (k->type != KEY_SIZE_LIST || kstrcmp(k->name, "strides") != 0)
            return 0;
    }
    if (k->type == KEY_SIZE) {
        best = *(const uint64_t *)field;
    } else if (k->type == KEY_SIZE_LIST) {
        const struct cfg_list *l = (const struct cfg_list *)field;
        for (unsigned i = 0; i < l->n; i++)
            best = l->v[i] > best && !(l->v[i] & (l->v[i] - 1)) ? l->v[i] : best;
    }
    return best && !(best & (best - 1)) ? best : 0;
}

/*
 * The buffer's alignment: 2 MiB (so the physical address bits that pick cache sets are
 * known), or the largest power-of-two stride any selected experiment uses (every
 * slot of such a chain then maps to the same sets as on any other run), up to 1 GiB.
 */
uint64_t run_plan_alignment(const struct chase_config *cfg)
{
    uint64_t align = BUFFER_ALIGN_BYTES;
    for (unsigned i = 0; i < cfg->global.n_experiments; i++) {
        unsigned idx = cfg->global.experiments[i];
        const struct cfg_section *x = &experiment_table[idx]->cfg;
        for (size_t k = 0; k < x->nkeys; k++) {
            uint64_t s = largest_pow2_stride_of(&x->keys[k], cfg_params_const(cfg, idx));
            align = s > align ? s : align;
        }
    }
    return align > BUFFER_ALIGN_MAX ? BUFFER_ALIGN_MAX : align;
}
