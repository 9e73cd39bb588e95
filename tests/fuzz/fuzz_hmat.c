// SPDX-License-Identifier: MIT
// libFuzzer target: the HMAT reader and its questions over any bytes, under ASan and UBSan.
#include <stddef.h>
#include <stdint.h>

#include "machine/hmat.h"

static struct hmat h;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[200];
    if (!hmat_read(data, size, &h, why, sizeof(why)))
        return 0;
    for (unsigned i = 0; i < h.npairs; i++) {
        const struct hmat_pair *p = hmat_pair_of(&h, h.pair[i].initiator, h.pair[i].target);
        double ns;
        uint64_t mbs;
        const char *kind;
        (void)hmat_latency_ns(p, &ns, &kind);
        (void)hmat_bandwidth_mbs(p, &mbs, &kind);
    }
    for (unsigned i = 0; i < h.ndomains; i++) {
        uint32_t init;
        (void)hmat_attached_initiator(&h, h.domain[i].mem_domain, &init);
    }
    for (unsigned i = 0; i < h.ncaches; i++) {
        (void)hmat_cache_associativity(h.cache[i].associativity);
        (void)hmat_cache_policy(h.cache[i].write_policy);
    }
    return 0;
}
