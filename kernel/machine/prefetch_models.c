// SPDX-License-Identifier: MIT
// Which hardware prefetchers MSR 0x1a4 (MSR_MISC_FEATURE_CONTROL) turns off on each Intel
// family 6 model: the bit layout differs between Core/Xeon, newest Xeon, Atom and Xeon Phi.
#include "lib/kstring.h"
#include "machine/cpufacts.h"

#define PF_BIT(n) (1ULL << (n))

/*
 * Core and Xeon, Nehalem to Rocket Lake (Intel's disclosure of H/W prefetcher control, 2014;
 * SDM Vol. 4 MSR_MISC_FEATURE_CONTROL): bit 0 L2 streamer, 1 L2 adjacent line, 2 L1D next
 * line (DCU), 3 L1D IP stride.
 */
static const uint8_t core_models[] = {
    0x1a, 0x1e, 0x1f, 0x2e,             /* Nehalem */
    0x25, 0x2c, 0x2f,                   /* Westmere */
    0x2a, 0x2d, 0x3a, 0x3e,             /* Sandy Bridge, Ivy Bridge */
    0x3c, 0x3f, 0x45, 0x46,             /* Haswell */
    0x3d, 0x47, 0x4f, 0x56,             /* Broadwell */
    0x4e, 0x5e, 0x55,                   /* Skylake, Skylake-SP/Cascade Lake/Cooper Lake */
    0x8e, 0x9e, 0xa5, 0xa6, 0x66,       /* Kaby/Coffee/Comet Lake, Cannon Lake */
    0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d, /* Ice Lake (client, server), Tiger Lake */
    0xa7,                               /* Rocket Lake */
};

/* The same four bits on the client cores from Golden Cove on (Alder, Raptor, Meteor Lake):
 * their further prefetchers (the L2 AMP among them) have no bit in a source of Intel's that
 * names these models. */
static const uint8_t core_client_more_models[] = {
    0x97, 0x9a, 0xb7, 0xba, 0xbf, /* Alder Lake, Raptor Lake */
    0xaa, 0xac,                   /* Meteor Lake */
};

/* Alder Lake-N (06_BEH, Gracemont cores only; the model numbers here are those of the SDM vol. 4
 * table 2-1 signatures): Intel's pepc (MiscFeatureControl, its ALDERLAKE group holds
 * ALDERLAKE_N) gives it the four Core bits. */
#define ALDER_LAKE_N_MODEL 0xbe

/* Lion Cove and Skymont clients: Arrow Lake (06_C5H, 06_C6H, 06_B5H) and Lunar Lake (06_BDH).
 * No Intel table chase could read gives MSR 0x1a4's bits for them: the four Core bits, each
 * written alone and kept only where it holds (unsure). */
static const uint8_t lion_cove_models[] = {0xc5, 0xc6, 0xb5, 0xbd};

/*
 * Xeon on Golden Cove and Raptor Cove (Sapphire Rapids, Emerald Rapids), and on Redwood Cove
 * (Granite Rapids): Intel's PerfSpect prefetcher table (github.com/intel/PerfSpect,
 * prefetcher definitions) adds MSR 0x1a4 bit 4 DCU next page and bit 5 AMP on all three, bit 6
 * LLC page and bit 7 array of pointers on Granite Rapids; the homeless and LLC prefetchers are
 * MSR 0x6d bits 14 and 42 there, which chase does not write.
 */
static const uint8_t xeon_spr_models[] = {0x8f, 0xcf}; /* Sapphire, Emerald Rapids */
static const uint8_t xeon_gnr_models[] = {0xad, 0xae}; /* Granite Rapids X, D */

/* Sierra Forest (Crestmont, an Atom core in a Xeon): the LLC stream prefetcher is MSR 0x1320
 * bit 43 in the same table, which chase does not write. */
#define XEON_SRF_MODEL 0xaf

/* Atom cores (Silvermont-D, Goldmont, Goldmont Plus, Tremont, Crestmont): bit 0 L2, bit 2 DCU;
 * bits 1 and 3 are not defined there. */
static const uint8_t atom_models[] = {0x4d, 0x5c, 0x5f, 0x7a, 0x86, 0x96, 0x9c, 0xaf, 0xb6};

/* Bay Trail (06_37H, Silvermont, as Silvermont-D 06_4DH above): the SDM's MSR tables for 06_37H
 * do not list MSR 0x1a4, so the Atom bits 0 and 2 are each written alone and kept only where
 * they hold (unsure). */
#define BAY_TRAIL_MODEL 0x37

/* Xeon Phi (Knights Landing, Knights Mill): bit 0 DCU, bit 1 L2. */
static const uint8_t phi_models[] = {0x57, 0x85};

static const struct prefetcher core_prefetchers[] = {
    {"L2 streamer", PF_BIT(0)},
    {"L2 adjacent line", PF_BIT(1)},
    {"L1D next line (DCU)", PF_BIT(2)},
    {"L1D IP stride", PF_BIT(3)},
    {"L1D next page (DCU NP)", PF_BIT(4)},
    {"L2 AMP (adaptive multipath)", PF_BIT(5)},
    {"LLC page (LLCPP)", PF_BIT(6)},
    {"L2 array of pointers (AOP)", PF_BIT(7)},
};
#define CORE_BITS 4 /* core_prefetchers' first four: every Core and Xeon model */
#define SPR_BITS 6  /* ... and DCU NP, AMP: Sapphire and Emerald Rapids */
#define GNR_BITS 8  /* all eight: Granite Rapids */
static const struct prefetcher atom_prefetchers[] = {
    {"L2 streamer", PF_BIT(0)},
    {"L1D next line (DCU)", PF_BIT(2)},
};
static const struct prefetcher phi_prefetchers[] = {
    {"L1D next line (DCU)", PF_BIT(0)},
    {"L2 streamer", PF_BIT(1)},
};

static bool listed(const uint8_t *models, size_t n, unsigned model)
{
    for (size_t i = 0; i < n; i++)
        if (models[i] == model)
            return true;
    return false;
}

#define LISTED(a, model) listed((a), sizeof(a) / sizeof((a)[0]), (model))

static void set(struct prefetch_ctl *p, const struct prefetcher *list, unsigned n)
{
    p->nprefetchers = n;
    p->disable_bits = 0;
    for (unsigned i = 0; i < n; i++) {
        p->prefetcher[i] = list[i];
        p->disable_bits |= list[i].bit;
    }
}

/* Core and Xeon: the first n of core_prefetchers, and what else the model has. */
static void core_model(unsigned model, struct prefetch_ctl *p)
{
    static const char *const names[] = {
        [CORE_BITS] = "L2 streamer, L2 adjacent line, L1D (DCU) next line, L1D IP stride",
        [SPR_BITS] = "L2 streamer, L2 adjacent line, L1D (DCU) next line, L1D IP stride, L1D "
                     "next page, L2 AMP",
        [GNR_BITS] = "L2 streamer, L2 adjacent line, L1D (DCU) next line, L1D IP stride, L1D "
                     "next page, L2 AMP, LLC page, L2 array of pointers",
    };
    unsigned n = LISTED(xeon_gnr_models, model)   ? GNR_BITS
                 : LISTED(xeon_spr_models, model) ? SPR_BITS
                                                  : CORE_BITS;
    set(p, core_prefetchers, n);
    p->names = names[n];
    p->doc = n == CORE_BITS ? "Intel: disclosure of H/W prefetcher control, MSR 0x1a4 bits 0..3"
                            : "Intel PerfSpect's prefetcher table: MSR 0x1a4 bits 0..5 (Sapphire, "
                              "Emerald Rapids), 0..7 (Granite Rapids)";
    if (n != CORE_BITS)
        p->uncontrolled = "the homeless and LLC prefetchers (MSR 0x6d bits 14 and 42) are not "
                          "written by chase: they stay as they are";
    else if (LISTED(core_client_more_models, model))
        p->uncontrolled = "this core's further prefetchers (L2 AMP among them) have no bit "
                          "documented for this model: they stay as they are";
    else if (model == ALDER_LAKE_N_MODEL)
        p->doc = "Alder Lake-N (06_BEH, Gracemont): MSR 0x1a4 bits 0..3 as on Core (Intel's pepc, "
                 "MiscFeatureControl)";
    else if (LISTED(lion_cove_models, model)) {
        p->unsure = true;
        p->doc = "Arrow Lake (06_C5H, 06_C6H, 06_B5H) or Lunar Lake (06_BDH): no table of Intel's "
                 "names MSR 0x1a4's bits here: bits 0..3 as on Core, each written alone and kept "
                 "only where it holds";
        p->uncontrolled = "Lion Cove's and Skymont's further prefetchers have no bit documented "
                          "for this model: they stay as they are";
    } else if (!LISTED(core_models, model)) {
        p->unsure = true;
        p->doc = "Intel family 6 model not in chase's table: MSR 0x1a4 bits 0..3 as on "
                 "Core, each written alone and kept only where it holds";
    }
}

void prefetch_models_intel(unsigned model, struct prefetch_ctl *p)
{
    p->msr = MSR_INTEL_MISC_FEATURE_CONTROL;
    p->unsure = false;
    p->uncontrolled = NULL;
    if (LISTED(atom_models, model)) {
        set(p, atom_prefetchers, 2);
        p->names = "L2 streamer, L1D next line (DCU)";
        p->doc = "Intel Atom cores: MSR 0x1a4 bit 0 (L2), bit 2 (DCU); bits 1 and 3 undefined";
        if (model == XEON_SRF_MODEL)
            p->uncontrolled = "the LLC stream prefetcher (MSR 0x1320 bit 43) is not written by "
                              "chase: it stays as it is";
    } else if (model == BAY_TRAIL_MODEL) {
        set(p, atom_prefetchers, 2);
        p->names = "L2 streamer, L1D next line (DCU)";
        p->unsure = true;
        p->doc = "Bay Trail (06_37H, Silvermont): MSR 0x1a4 bit 0 (L2), bit 2 (DCU) as on "
                 "Silvermont-D (06_4DH), not listed for 06_37H: each written alone, kept where "
                 "it holds";
    } else if (LISTED(phi_models, model)) {
        set(p, phi_prefetchers, 2);
        p->names = "L1D next line (DCU), L2 streamer";
        p->doc = "Intel Xeon Phi: MSR 0x1a4 bit 0 (DCU), bit 1 (L2)";
    } else {
        core_model(model, p);
    }
}
