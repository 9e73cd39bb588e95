// SPDX-License-Identifier: MIT
// Reading a resolved configuration's values by key name ("random.min"), for configuration tests.
#ifndef CHASE_CFG_VALUES_H
#define CHASE_CFG_VALUES_H

#include "config/config.h"

/* The field of key name in cfg (include cmocka.h first); fails the test when there is none. */
static inline const void *cfg_field(const struct chase_config *cfg, const char *name)
{
    const void *params = NULL;
    const struct key_desc *k = cfg_key(cfg, name, &params);
    if (!k)
        fail_msg("no key '%s'", name);
    return (const char *)params + k->offset;
}

/* A plain or size value (KEY_U64, KEY_SIZE). */
static inline uint64_t cfg_u64(const struct chase_config *cfg, const char *name)
{
    return *(const uint64_t *)cfg_field(cfg, name);
}

/* An auto value (KEY_U64_AUTO, KEY_SIZE_AUTO). */
static inline const struct cfg_auto *cfg_auto_value(const struct chase_config *cfg,
                                                    const char *name)
{
    return cfg_field(cfg, name);
}

/* A list value (KEY_SIZE_LIST). */
static inline const struct cfg_list *cfg_list_value(const struct chase_config *cfg,
                                                    const char *name)
{
    return cfg_field(cfg, name);
}

#endif
