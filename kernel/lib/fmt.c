// SPDX-License-Identifier: MIT
// A small printf for the freestanding kernel: the same output on the firmware and the host.
#include "lib/fmt.h"

#include <stdbool.h>
#include <stdint.h>

#include "lib/kmath.h"
#include "lib/kstring.h"

struct out {
    char *buf;
    size_t cap;
    size_t len;
};

static void out_char(struct out *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

static void out_pad(struct out *o, char c, int n)
{
    while (n-- > 0)
        out_char(o, c);
}

/* The length modifier: 'h' and 'hh' read an int like no modifier. */
enum arg_size { ARG_INT, ARG_LONG, ARG_LONG_LONG, ARG_SIZE };

/* One conversion: "%-08.3llx" is left, zero, width 8, prec 3, ARG_LONG_LONG, 'x'. */
struct spec {
    bool left, zero, plus, space;
    int width, prec; /* prec < 0: none given */
    enum arg_size size;
    char conv;
};

/* Emit a sign/prefix, a digit string and padding as the spec says. */
static void out_field(struct out *o, const struct spec *sp, const char *prefix, const char *digits,
                      int ndigits, int min_digits)
{
    int plen = (int)kstrlen(prefix);
    int zeros = min_digits > ndigits ? min_digits - ndigits : 0;
    int total = plen + zeros + ndigits;
    int pad = sp->width > total ? sp->width - total : 0;
    if (!sp->left && !sp->zero)
        out_pad(o, ' ', pad);
    for (int i = 0; i < plen; i++)
        out_char(o, prefix[i]);
    if (!sp->left && sp->zero)
        out_pad(o, '0', pad);
    out_pad(o, '0', zeros);
    for (int i = 0; i < ndigits; i++)
        out_char(o, digits[i]);
    if (sp->left)
        out_pad(o, ' ', pad);
}

static int utoa_rev(uint64_t v, unsigned base, bool upper, char *tmp)
{
    const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    do {
        tmp[n++] = dig[v % base];
        v /= base;
    } while (v);
    return n;
}

static void out_uint(struct out *o, const struct spec *sp, const char *prefix, uint64_t v,
                     unsigned base, bool upper)
{
    char rev[24], digits[24];
    int n = utoa_rev(v, base, upper, rev);
    for (int i = 0; i < n; i++)
        digits[i] = rev[n - 1 - i];
    if (sp->prec == 0 && v == 0)
        n = 0;
    out_field(o, sp, prefix, digits, n, sp->prec > 0 ? sp->prec : 0);
}

/*
 * Split v >= 0 (below 2^64) into its integer part and its fraction scaled by `scale`
 * (a power of ten up to 1e17), rounded to nearest with ties to even, exactly as the
 * C library does: the double is m * 2^e, worked out in 128-bit integers.
 */
static void split_fixed(double v, uint64_t scale, uint64_t *ip, uint64_t *fp)
{
    uint64_t bits;
    kmemcpy(&bits, &v, sizeof(bits));
    int biased = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((1ULL << 52) - 1);
    int e = biased ? biased - 1075 : -1074;
    if (biased)
        m |= 1ULL << 52;
    *fp = 0;
    if (e >= 0) {
        *ip = m << e;
        return;
    }
    int k = -e;
    if (k >= 128) {
        *ip = 0;
        return;
    }
    unsigned __int128 full = m, mask = ((unsigned __int128)1 << k) - 1;
    unsigned __int128 prod = (full & mask) * scale;
    unsigned __int128 rem = prod & mask, half = (unsigned __int128)1 << (k - 1);
    uint64_t q = (uint64_t)(prod >> k);
    *ip = (uint64_t)(full >> k);
    uint64_t last = scale > 1 ? q : *ip;
    if (rem > half || (rem == half && (last & 1)))
        q++;
    if (q >= scale) {
        q -= scale;
        (*ip)++;
    }
    *fp = q;
}

static void out_double(struct out *o, const struct spec *sp, double v)
{
    int prec = sp->prec < 0 ? 6 : (sp->prec > 17 ? 17 : sp->prec);
    const char *prefix = v < 0 ? "-" : (sp->plus ? "+" : (sp->space ? " " : ""));
    char digits[64];
    int n = 0;
    if (v != v) {
        out_field(o, sp, "", "nan", 3, 0);
        return;
    }
    if (v < 0)
        v = -v;
    if (v > 1.8e19) {
        out_field(o, sp, prefix, "inf", 3, 0);
        return;
    }
    uint64_t scale = 1;
    for (int i = 0; i < prec; i++)
        scale *= 10;
    uint64_t ip, fp;
    split_fixed(v, scale, &ip, &fp);
    char rev[24];
    int k = utoa_rev(ip, 10, false, rev);
    while (k)
        digits[n++] = rev[--k];
    if (prec > 0) {
        digits[n++] = '.';
        k = utoa_rev(fp, 10, false, rev);
        for (int z = prec - k; z > 0; z--)
            digits[n++] = '0';
        while (k)
            digits[n++] = rev[--k];
    }
    out_field(o, sp, prefix, digits, n, 0);
}

static int parse_int(const char **p)
{
    int v = 0;
    while (kisdigit(**p)) {
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    return v;
}

/* A width or precision given as '*': the next int argument. */
static int star_arg(const char **p, va_list *ap)
{
    (*p)++;
    return va_arg(*ap, int);
}

/* The flags '-', '0', '+' and ' ', in any order; returns the position after them. */
static const char *parse_flags(const char *p, struct spec *sp)
{
    for (;; p++) {
        if (*p == '-')
            sp->left = true;
        else if (*p == '0')
            sp->zero = true;
        else if (*p == '+')
            sp->plus = true;
        else if (*p == ' ')
            sp->space = true;
        else
            return p;
    }
}

/*
 * Read the conversion after a '%' (flags, width, precision, length, conversion character)
 * into sp; '*' arguments are taken from ap. Returns the conversion character's position.
 */
static const char *parse_spec(const char *p, va_list *ap, struct spec *sp)
{
    *sp = (struct spec){.prec = -1, .size = ARG_INT};
    p = parse_flags(p, sp);
    if (*p == '*') {
        sp->width = star_arg(&p, ap);
        if (sp->width < 0) {
            sp->left = true;
            sp->width = -sp->width;
        }
    } else {
        sp->width = parse_int(&p);
    }
    if (*p == '.') {
        p++;
        sp->prec = *p == '*' ? star_arg(&p, ap) : parse_int(&p);
    }
    for (; *p == 'l' || *p == 'h' || *p == 'z'; p++) {
        if (*p == 'l')
            sp->size = sp->size == ARG_LONG ? ARG_LONG_LONG : ARG_LONG;
        else if (*p == 'z')
            sp->size = ARG_SIZE;
    }
    sp->conv = *p;
    return p;
}

/* %d and %i: a sign (or '+'/' ' flag) before the magnitude. */
static void emit_signed(struct out *o, struct spec *sp, va_list *ap)
{
    int64_t v = sp->size == ARG_INT         ? va_arg(*ap, int)
                : sp->size == ARG_LONG      ? va_arg(*ap, long)
                : sp->size == ARG_LONG_LONG ? va_arg(*ap, long long)
                                            : (int64_t)va_arg(*ap, size_t);
    const char *prefix = v < 0 ? "-" : (sp->plus ? "+" : (sp->space ? " " : ""));
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (sp->prec >= 0)
        sp->zero = false;
    out_uint(o, sp, prefix, mag, 10, false);
}

/* %u, %x and %X. */
static void emit_unsigned(struct out *o, struct spec *sp, va_list *ap)
{
    uint64_t v = sp->size == ARG_INT         ? va_arg(*ap, unsigned)
                 : sp->size == ARG_LONG      ? va_arg(*ap, unsigned long)
                 : sp->size == ARG_LONG_LONG ? va_arg(*ap, unsigned long long)
                                             : va_arg(*ap, size_t);
    if (sp->prec >= 0)
        sp->zero = false;
    out_uint(o, sp, "", v, sp->conv == 'u' ? 10 : 16, sp->conv == 'X');
}

/* %s: a NULL pointer prints "(null)". */
static void emit_string(struct out *o, struct spec *sp, const char *s)
{
    if (!s)
        s = "(null)";
    /* With a precision the text need not be NUL-terminated: never read past it. */
    int n = 0;
    while ((sp->prec < 0 || n < sp->prec) && s[n])
        n++;
    sp->zero = false;
    out_field(o, sp, "", s, n, 0);
}

/*
 * Emit one conversion, its argument taken from ap. Returns false when the format ended
 * inside the spec (a '%' with nothing after it prints nothing).
 */
static bool emit_conversion(struct out *o, struct spec *sp, va_list *ap)
{
    switch (sp->conv) {
    case 'd':
    case 'i':
        emit_signed(o, sp, ap);
        break;
    case 'u':
    case 'x':
    case 'X':
        emit_unsigned(o, sp, ap);
        break;
    case 'p':
        out_uint(o, sp, "0x", (uintptr_t)va_arg(*ap, void *), 16, false);
        break;
    case 'c': {
        char c = (char)va_arg(*ap, int);
        out_field(o, sp, "", &c, 1, 0);
        break;
    }
    case 's':
        emit_string(o, sp, va_arg(*ap, const char *));
        break;
    case 'f':
        out_double(o, sp, va_arg(*ap, double));
        break;
    case '%':
        out_char(o, '%');
        break;
    case 0:
        return false;
    default: /* unknown: printed as it stands, flags and width dropped, no argument taken */
        out_char(o, '%');
        out_char(o, sp->conv);
        break;
    }
    return true;
}

int kvsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
    struct out o = {buf, cap, 0};
    va_list args; /* a copy, so the helpers can share it through a pointer */
    va_copy(args, ap);
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            out_char(&o, *p);
            continue;
        }
        struct spec sp;
        p = parse_spec(p + 1, &args, &sp);
        if (!emit_conversion(&o, &sp, &args))
            break;
    }
    va_end(args);
    if (cap)
        buf[o.len < cap ? o.len : cap - 1] = 0;
    return (int)o.len;
}

int ksnprintf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

void fmt_size(char *dst, size_t cap, double bytes)
{
    static const char unit[] = "KMGTPE";
    if (!kisfinite(bytes) || bytes < 0) {
        ksnprintf(dst, cap, "?");
        return;
    }
    if (bytes < 1024) {
        ksnprintf(dst, cap, "%.0f", bytes);
        return;
    }
    int u = -1;
    while (bytes >= 1024 && u < 5) {
        bytes /= 1024;
        u++;
    }
    /* Three significant digits without trailing zeros: 1.25M, 1.5M, 48K, 996K. */
    char num[32];
    ksnprintf(num, sizeof(num), "%.*f", bytes >= 99.95 ? 0 : bytes >= 9.995 ? 1 : 2, bytes);
    size_t k = kstrlen(num);
    while (kstrchr(num, '.') && k > 0 && num[k - 1] == '0')
        num[--k] = 0;
    if (k > 0 && num[k - 1] == '.')
        num[--k] = 0;
    ksnprintf(dst, cap, "%s%c", num, unit[u]);
}
