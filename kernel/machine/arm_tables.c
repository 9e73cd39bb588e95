// SPDX-License-Identifier: MIT
// AArch64 translation tables (4 KiB granule): the walk and the MAIR attributes' meaning.
#include "machine/arm_tables.h"

#include "lib/fmt.h"

#define VA_BITS_MIN 25 /* T0SZ 39: the largest T0SZ a 4 KiB granule allows without FEAT_TTST */
#define VA_BITS_MAX 48 /* T0SZ 16: no 52-bit addresses (FEAT_LPA2) */
#define PAGE_SHIFT 12
#define LEVEL_BITS 9

int a64_start_level(unsigned va_bits)
{
    if (va_bits < VA_BITS_MIN || va_bits > VA_BITS_MAX)
        return -1;
    return va_bits > 39 ? 0 : va_bits > 30 ? 1 : 2;
}

static unsigned level_shift(unsigned level)
{
    return PAGE_SHIFT + LEVEL_BITS * (3 - level);
}

bool a64_walk(uint64_t ttbr, uint64_t tcr, uint64_t va, a64_read_fn read, void *ctx,
              struct a64_leaf *leaf, char *why, unsigned why_cap)
{
    *leaf = (struct a64_leaf){0};
    if (((tcr >> A64_TCR_TG0_SHIFT) & A64_TCR_TG0_MASK) != A64_TCR_TG0_4K) {
        ksnprintf(why, why_cap, "TCR.TG0 = %u: not the 4 KiB granule",
                  (unsigned)((tcr >> A64_TCR_TG0_SHIFT) & A64_TCR_TG0_MASK));
        return false;
    }
    unsigned va_bits = 64 - (unsigned)(tcr & A64_TCR_T0SZ_MASK);
    int start = a64_start_level(va_bits);
    if (start < 0 || (va_bits < 64 && (va >> va_bits) != 0)) {
        ksnprintf(why, why_cap, "address 0x%llx is outside the %u-bit range TCR.T0SZ gives",
                  (unsigned long long)va, va_bits);
        return false;
    }
    uint64_t table = ttbr & A64_TTBR_BADDR_MASK & A64_DESC_OA_MASK;
    for (unsigned level = (unsigned)start; level <= 3; level++) {
        unsigned shift = level_shift(level);
        unsigned index = (unsigned)(va >> shift) & (A64_ENTRIES - 1);
        uint64_t d = read(ctx, table + 8ULL * index);
        if (!(d & A64_DESC_VALID) || (level == 3 && !(d & A64_DESC_TABLE)) ||
            (level == 0 && !(d & A64_DESC_TABLE))) {
            leaf->level = level; /* a fault: not mapped (a level 0 block needs 52-bit addresses) */
            leaf->bytes = 1ULL << shift;
            return true;
        }
        if (level < 3 && (d & A64_DESC_TABLE)) {
            table = d & A64_DESC_OA_MASK;
            continue;
        }
        uint64_t bytes = 1ULL << shift;
        leaf->mapped = true;
        leaf->level = level;
        leaf->bytes = bytes;
        leaf->desc = d;
        leaf->out = (d & A64_DESC_OA_MASK & ~(bytes - 1)) | (va & (bytes - 1));
        leaf->attr_indx = (unsigned)((d >> A64_DESC_ATTRINDX_SHIFT) & A64_DESC_ATTRINDX_MASK);
        return true;
    }
    return true;
}

/* A MAIR nibble of Normal memory is write-back when it reads 0b01RW (transient, RW not 00)
   or 0b11RW (non-transient) (Arm ARM D17.2, MAIR_EL1). */
static bool nibble_wb(unsigned n)
{
    return (n & 0xc) == 0xc || ((n & 0xc) == 0x4 && (n & 0x3) != 0);
}

bool a64_attr_is_normal_wb(unsigned attr)
{
    return nibble_wb(attr >> 4) && nibble_wb(attr & 0xf);
}

const char *a64_attr_name(unsigned attr)
{
    static const char *const device[] = {"Device-nGnRnE", "Device-nGnRE", "Device-nGRE",
                                         "Device-GRE"};
    if ((attr & 0xf0) == 0)
        return (attr & 0x3) == 0 ? device[(attr >> 2) & 3] : "reserved";
    if (a64_attr_is_normal_wb(attr))
        return "Normal WB";
    if (attr == 0x44)
        return "Normal NC";
    if ((attr & 0xc0) == 0x80 || (attr & 0xc0) == 0x00)
        return "Normal WT";
    return "Normal (mixed)";
}
