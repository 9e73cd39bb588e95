// SPDX-License-Identifier: MIT
// pe-nxcompat: set IMAGE_DLLCHARACTERISTICS_NX_COMPAT in a PE32+ image (chase.efi), after
// checking that the image keeps what the flag promises: no section both writable and executable.
//
// Usage: pe-nxcompat FILE. Exit 0 when FILE now carries the flag (its checksum redone where it
// had one), 1 when FILE breaks the promise (a W+X section, sections off page boundaries) and
// is left as it was, 2 when FILE is not a PE32+ image or cannot be read or written.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Microsoft PE/COFF specification, sections 2 and 3 (offsets within each header). */
#define DOS_MAGIC 0x5a4d            /* "MZ" */
#define DOS_LFANEW_OFFSET 0x3c      /* file offset of the PE signature */
#define PE_SIGNATURE 0x00004550u    /* "PE\0\0" */
#define COFF_HEADER_BYTES 20        /* after the signature */
#define COFF_NSECTIONS_OFFSET 2     /* NumberOfSections */
#define COFF_OPT_SIZE_OFFSET 16     /* SizeOfOptionalHeader */
#define OPT_MAGIC_PE32PLUS 0x20b    /* PE32+ (64-bit images) */
#define OPT_SECTION_ALIGN_OFFSET 32 /* SectionAlignment */
#define OPT_CHECKSUM_OFFSET 64      /* CheckSum */
#define OPT_DLLCHAR_OFFSET 70       /* DllCharacteristics */
#define SECTION_HEADER_BYTES 40     /* one section table entry */
#define SECTION_CHAR_OFFSET 36      /* its Characteristics */
#define SCN_MEM_EXECUTE 0x20000000u /* IMAGE_SCN_MEM_EXECUTE */
#define SCN_MEM_WRITE 0x80000000u   /* IMAGE_SCN_MEM_WRITE */
#define DLLCHAR_NX_COMPAT 0x0100    /* IMAGE_DLLCHARACTERISTICS_NX_COMPAT */
#define PAGE_BYTES 4096u            /* protection works on pages: sections must start on one */
#define IMAGE_MAX_BYTES (64u << 20) /* far above chase.efi (about 1 MiB): refuse anything else */

static uint32_t rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
static uint32_t rd32(const uint8_t *p)
{
    return rd16(p) | rd16(p + 2) << 16;
}
static void wr16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void wr32(uint8_t *p, uint32_t v)
{
    wr16(p, v & 0xffff);
    wr16(p + 2, v >> 16);
}

/* The PE checksum (as imagehlp's CheckSumMappedFile): 16-bit words summed with their carries
 * folded back, the CheckSum field itself counted as zero, plus the file's length. */
static uint32_t pe_checksum(const uint8_t *img, size_t n, size_t checksum_at)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i += 2) {
        uint32_t w = i + 1 < n ? rd16(img + i) : img[i];
        if (i >= checksum_at && i < checksum_at + 4)
            w = 0;
        sum += w;
        sum = (sum & 0xffff) + (sum >> 16);
    }
    sum = (sum & 0xffff) + (sum >> 16);
    return (uint32_t)(sum + n);
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(IMAGE_MAX_BYTES);
    *n = 0;
    if (f && buf)
        *n = fread(buf, 1, IMAGE_MAX_BYTES, f);
    if (f)
        fclose(f);
    if (!f || !buf || *n == 0 || *n == IMAGE_MAX_BYTES) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The optional header's offset in img, or 0 when img is not a PE32+ image. */
static size_t optional_header(const uint8_t *img, size_t n, unsigned *nsections, size_t *opt_size)
{
    if (n < DOS_LFANEW_OFFSET + 4 || rd16(img) != DOS_MAGIC)
        return 0;
    size_t pe = rd32(img + DOS_LFANEW_OFFSET);
    if (pe > n - 4 - COFF_HEADER_BYTES || rd32(img + pe) != PE_SIGNATURE)
        return 0;
    *nsections = rd16(img + pe + 4 + COFF_NSECTIONS_OFFSET);
    *opt_size = rd16(img + pe + 4 + COFF_OPT_SIZE_OFFSET);
    size_t opt = pe + 4 + COFF_HEADER_BYTES;
    if (*opt_size < OPT_DLLCHAR_OFFSET + 2 ||
        opt + *opt_size + (size_t)*nsections * SECTION_HEADER_BYTES > n ||
        rd16(img + opt) != OPT_MAGIC_PE32PLUS)
        return 0;
    return opt;
}

/* 0 when every section is writable or executable but not both and the sections start on
 * pages; else 1, with the offender named on stderr. */
static int check_sections(const char *path, const uint8_t *img, size_t opt, size_t opt_size,
                          unsigned nsections)
{
    if (rd32(img + opt + OPT_SECTION_ALIGN_OFFSET) % PAGE_BYTES) {
        fprintf(stderr, "pe-nxcompat: %s: SectionAlignment 0x%x is not a multiple of %u\n", path,
                rd32(img + opt + OPT_SECTION_ALIGN_OFFSET), PAGE_BYTES);
        return 1;
    }
    const uint8_t *sec = img + opt + opt_size;
    for (unsigned i = 0; i < nsections; i++, sec += SECTION_HEADER_BYTES) {
        uint32_t c = rd32(sec + SECTION_CHAR_OFFSET);
        if ((c & SCN_MEM_EXECUTE) && (c & SCN_MEM_WRITE)) {
            fprintf(stderr, "pe-nxcompat: %s: section %.8s is writable and executable (0x%08x)\n",
                    path, (const char *)sec, c);
            return 1;
        }
    }
    return 0;
}

static int write_all(const char *path, const uint8_t *img, size_t n)
{
    FILE *f = fopen(path, "r+b");
    int ok = f && fwrite(img, 1, n, f) == n;
    if (f && fclose(f))
        ok = 0;
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pe-nxcompat FILE.efi\n");
        return 2;
    }
    size_t n, opt_size;
    unsigned nsections;
    uint8_t *img = read_all(argv[1], &n);
    size_t opt = img ? optional_header(img, n, &nsections, &opt_size) : 0;
    if (!opt) {
        fprintf(stderr, "pe-nxcompat: %s: not a PE32+ image (or unreadable)\n", argv[1]);
        free(img);
        return 2;
    }
    int status = check_sections(argv[1], img, opt, opt_size, nsections);
    if (status == 0) {
        wr16(img + opt + OPT_DLLCHAR_OFFSET,
             rd16(img + opt + OPT_DLLCHAR_OFFSET) | DLLCHAR_NX_COMPAT);
        if (rd32(img + opt + OPT_CHECKSUM_OFFSET))
            wr32(img + opt + OPT_CHECKSUM_OFFSET, pe_checksum(img, n, opt + OPT_CHECKSUM_OFFSET));
        if (!write_all(argv[1], img, n)) {
            fprintf(stderr, "pe-nxcompat: %s: cannot write\n", argv[1]);
            status = 2;
        }
    }
    free(img);
    return status;
}
