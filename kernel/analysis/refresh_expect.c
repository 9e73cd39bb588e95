// SPDX-License-Identifier: MIT
// What the DIMMs' type implies for refresh (JEDEC tREFI and tRFC), and the summary's line.
#include "analysis/refresh_expect.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

/* One type's JEDEC figures: tREFI (JESD79-3/4/5: 7.8 us below 85 C, halved above it or, for
 * DDR4, in 2x fine-granularity mode; DDR5's normal REFab interval is 3.9 us; JESD209-4/5:
 * LPDDR4's and LPDDR5's all-bank interval is 3.9 us, halved when hot) and tRFC (tRFC1 for DDR4,
 * tRFC for DDR3, tRFC1 all-bank for DDR5, tRFCab for LPDDR4/5) by die density. */
struct type_refresh {
    uint8_t smbios_type;
    const char *name;
    double trefi_ns, trefi_alt_ns;
    unsigned density_gbit[5];
    double trfc_ns[5];
};

static const struct type_refresh type_table[] = {
    {REFRESH_SMBIOS_DDR3, "DDR3", 7800, 3900, {1, 2, 4, 8}, {110, 160, 260, 350}},
    {REFRESH_SMBIOS_DDR4, "DDR4", 7800, 3900, {2, 4, 8, 16}, {160, 260, 350, 550}},
    {REFRESH_SMBIOS_DDR5, "DDR5", 3900, 1950, {8, 16, 24, 32}, {195, 295, 410, 410}},
    {REFRESH_SMBIOS_LPDDR4, "LPDDR4", 3900, 1950, {4, 8, 16}, {130, 180, 280}},
    {REFRESH_SMBIOS_LPDDR5, "LPDDR5", 3900, 1950, {8, 16, 32}, {210, 280, 380}},
};

bool refresh_expect_for(uint8_t type, unsigned density_gbit, struct refresh_expect *out)
{
    for (size_t i = 0; i < sizeof(type_table) / sizeof(type_table[0]); i++) {
        const struct type_refresh *t = &type_table[i];
        if (t->smbios_type != type)
            continue;
        *out = (struct refresh_expect){t->name, t->trefi_ns, t->trefi_alt_ns, 0, 0};
        unsigned n = 0;
        while (n < 5 && t->density_gbit[n])
            n++;
        out->trfc_lo_ns = t->trfc_ns[0];
        out->trfc_hi_ns = t->trfc_ns[n - 1];
        for (unsigned d = 0; d < n; d++)
            if (t->density_gbit[d] == density_gbit)
                out->trfc_lo_ns = out->trfc_hi_ns = t->trfc_ns[d];
        return true;
    }
    return false;
}

/* An interval in us with the digits it needs: 7.8, 3.9, 1.95. */
static int us_digits(double ns)
{
    long long tens = (long long)(ns / 10 + 0.5);
    return tens % 10 ? 2 : 1;
}

/* " (DDR4 implies every 7.8 us, 3.9 us fine-granularity or hot; tRFC 160-550 ns by density)" */
static void expect_words(const struct refresh_expect *e, const char *us, char *buf, size_t cap)
{
    char trfc[48];
    if (e->trfc_lo_ns == e->trfc_hi_ns)
        ksnprintf(trfc, sizeof(trfc), "%.0f ns", e->trfc_lo_ns);
    else
        ksnprintf(trfc, sizeof(trfc), "%.0f-%.0f ns by density", e->trfc_lo_ns, e->trfc_hi_ns);
    ksnprintf(buf, cap, " (%s implies every %.*f %s, %.*f %s %s; tRFC %s)", e->type,
              us_digits(e->trefi_ns), e->trefi_ns / 1000, us, us_digits(e->trefi_alt_ns),
              e->trefi_alt_ns / 1000, us,
              e->trefi_alt_ns < 3000 ? "when hot" : "fine-granularity or hot", trfc);
}

int refresh_summary_line(const struct refresh_result *r, const struct refresh_expect *e,
                         const char *us, char *buf, size_t cap)
{
    char head[96], tail[192] = "";
    if (r && r->found)
        ksnprintf(head, sizeof(head), "DRAM refresh: every %.*f %s, about %.0f ns",
                  us_digits(r->period_ns), r->period_ns / 1000, us, r->stall_ns);
    else
        ksnprintf(head, sizeof(head), "DRAM refresh: no period stands out");
    if (e)
        expect_words(e, us, tail, sizeof(tail));
    return ksnprintf(buf, cap, "%s%s", head, tail);
}

uint8_t refresh_smbios_type(const char *name)
{
    for (size_t i = 0; name && i < sizeof(type_table) / sizeof(type_table[0]); i++)
        if (kstrcmp(type_table[i].name, name) == 0)
            return type_table[i].smbios_type;
    return 0;
}

int refresh_summary_for(const struct refresh_result *r, const char *dram_type, const char *us,
                        char *buf, size_t cap)
{
    struct refresh_expect e;
    char head[300];
    if (dram_type && refresh_expect_for(refresh_smbios_type(dram_type), 0, &e))
        return refresh_summary_line(r, &e, us, buf, cap);
    refresh_summary_line(r, NULL, us, head, sizeof(head));
    if (!dram_type || !dram_type[0])
        return ksnprintf(buf, cap, "%s", head); /* a table from before the column */
    if (kstrcmp(dram_type, "none") == 0)
        return ksnprintf(buf, cap, "%s (the DIMMs' type is unknown: no SMBIOS table was read)",
                         head);
    if (kstrcmp(dram_type, "unknown") == 0 || kstrcmp(dram_type, "mixed") == 0)
        return ksnprintf(buf, cap, "%s (SMBIOS gives the DIMMs' type as %s)", head, dram_type);
    return ksnprintf(buf, cap,
                     "%s (SMBIOS gives the memory type as %s: no JEDEC refresh "
                     "interval is known for it here)",
                     head, dram_type);
}
