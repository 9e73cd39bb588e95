// SPDX-License-Identifier: MIT
// Configuration: global keys and keyed sections, parsed from the config file and load options.
#include "config/config.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform.h"

const char *const profile_names[] = {"full", "quick", NULL};
const char *const on_exit_names[] = {"wait", "return", "shutdown", "reboot", NULL};
const char *const fault_test_names[] = {
    "none", "page_fault", "general_protection", "outside_window", "nmi", "machine_check", NULL};
const char *const page_names[] = {"auto", "4K", "2M", "1G", NULL};
const char *const prefetch_names[] = {"as-is", "off", NULL};
static const char *const section_prefetch_names[] = {"global", "as-is", "off", NULL};
static const char *const memtype_test_names[] = {"none", "uc_first", "uc_all", NULL};
const char *const serial_log_names[] = {"off", "on", NULL};

uint64_t cfg_page_bytes(unsigned index)
{
    static const uint64_t bytes[] = {0, 4096, 2ULL << 20, 1ULL << 30};
    return index < sizeof(bytes) / sizeof(bytes[0]) ? bytes[index] : 0;
}

#define GKEY(field) offsetof(struct global_params, field)

const struct key_desc global_keys[] = {
    {"experiments", KEY_EXPERIMENTS, GKEY(experiments), 0, 0, NULL, "",
     "experiments to run, in order (comma-separated), or all"},
    {"profile", KEY_CHOICE, GKEY(profile), 0, 0, profile_names, "",
     "full: characterize the machine; quick: small sizes, for emulators and smoke tests"},
    {"on_exit", KEY_CHOICE, GKEY(on_exit), 0, 0, on_exit_names, "",
     "what to do when done: wait for a key, return to the firmware, shutdown or reboot"},
    {"seed", KEY_U64, GKEY(seed), 0, UINT64_MAX, NULL, "", "seed of the random chain builders"},
    {"reps", KEY_U64, GKEY(reps), 1, REPS_MAX, NULL, "",
     "timed repetitions per point: the fewest, or all of them with precision=0"},
    {"precision", KEY_PERCENT, GKEY(precision_ppm), 0, PRECISION_MAX_PPM, NULL, "",
     "repeat a point until the 95% confidence interval of its median is within this of it "
     "either side (outliers left out); 0: exactly reps repetitions"},
    {"point_max_ms", KEY_U64, GKEY(point_max_ms), 1, POINT_MAX_MS_MAX, NULL, "ms",
     "time cap of one point's repetitions: past it, the precision reached is reported"},
    {"window_max_ms", KEY_U64, GKEY(window_max_ms), 1, WINDOW_MAX_MS_MAX, NULL, "ms",
     "longest a repetition's window (interrupts off, the untimed walk and the timed chase) "
     "may last; longer repetitions are shortened"},
    {"passes", KEY_U64, GKEY(passes), 1, PASSES_MAX, NULL, "",
     "measure a sweep (random, dual, ring; bandwidth's sizes x kernels; bw_cores' rows) in "
     "this many passes over all its points, in an order not monotonic "
     "in size, each taking a slice of every point's repetitions (a burst of contention or a "
     "clock change spreads over the curve instead of drawing a step); 1: one pass, each "
     "point's repetitions back to back"},
    {"warm_laps", KEY_U64_AUTO, GKEY(warm_laps), 0, WARM_LAPS_MAX, NULL, "laps",
     "chase each chain this often before timing it; auto: once (for chains far beyond "
     "the last-level cache enough to replace it twice; a lap longer than a tenth of "
     "point_max_ms stops once its pace is steady); 0: no warm-up, each repetition one lap "
     "(the way to the steady state)"},
    {"page", KEY_CHOICE, GKEY(page), 0, 0, page_names, "",
     "page size over the chase buffer; auto: the largest the CPU has (1G, else 2M)"},
    {"fault_test", KEY_CHOICE, GKEY(fault_test), 0, 0, fault_test_names, "",
     "tests only: make the first point fault, to show the recovery (firmware only)"},
    {"prefetch", KEY_CHOICE, GKEY(prefetch), 0, 0, prefetch_names, "",
     "hardware prefetchers while measuring: as-is, or off through their documented MSRs, "
     "restored after each experiment (firmware only); EXPERIMENT.prefetch overrides it"},
    {"serial_log", KEY_CHOICE, GKEY(serial_log), 0, 0, serial_log_names, "",
     "on: also write one machine-readable line (CHASE-LOG v=1 ... key=value) per finished "
     "point and per summary item straight to the serial port, for collection over "
     "serial-over-LAN (docs/serial-log.md); off: the console only"},
    {"node", KEY_U64_AUTO, GKEY(node), 0, CFG_NODE_MAX, NULL, "",
     "memory node of the chase buffer (index in run.json's memory_nodes): auto, the boot "
     "processor's (else the nearest by SLIT with room, said), never special-purpose or "
     "hot-pluggable memory; a number: that node only, its special-purpose and hot-pluggable "
     "memory allowed (firmware only)"},
    {"memtype_test", KEY_CHOICE, GKEY(memtype_test), 0, 0, memtype_test_names, "",
     "tests only: treat the buffer's first place (uc_first) or all memory (uc_all) as UC, to "
     "show chase moves the buffer or refuses (firmware only)"},
    {"results", KEY_TEXT, GKEY(results), 0, CFG_TEXT_MAX, NULL, "",
     "where the run folder goes besides the boot volume (firmware only; docs/fleet.md): "
     "http://HOST[:PORT][/PATH] or https://... (HTTP PUT of every file to "
     "PATH/<machine>/<run id>/<file>, manifest.json last), serial (framed CHASE-FILE lines on "
     "the serial port, docs/serial-log.md); empty: nowhere else"},
    {"results.token", KEY_SECRET, GKEY(results_token), 0, CFG_TEXT_MAX, NULL, "",
     "sent with every upload as 'Authorization: Bearer TOKEN' (never printed or written)"},
    {"results.retries", KEY_U64, GKEY(results_retries), 0, RESULTS_RETRIES_MAX, NULL, "",
     "an upload that fails is tried again this often, waiting 1, 2, 4 ... s (at most 30 s) "
     "between tries; then the run goes to a writable local volume"},
};
const size_t global_key_count = sizeof(global_keys) / sizeof(global_keys[0]);

const struct key_desc section_common_keys[] = {
    {"prefetch", KEY_CHOICE, offsetof(struct section_common, prefetch), 0, 0,
     section_prefetch_names, "",
     "this experiment's prefetchers: global (the prefetch key), as-is, off"},
};
const size_t section_common_key_count =
    sizeof(section_common_keys) / sizeof(section_common_keys[0]);

void cfg_error(struct cfg_errors *errs, const struct cfg_source *src, const char *fmt, ...)
{
    va_list ap;
    if (src->line)
        strbuf_printf(&errs->text, "%s:%u: ", src->name, src->line);
    else
        strbuf_printf(&errs->text, "%s: ", src->name);
    va_start(ap, fmt);
    strbuf_vprintf(&errs->text, fmt, ap);
    va_end(ap);
    strbuf_puts(&errs->text, "\n");
    errs->count++;
}

/* Copy [s, s+n) with blanks trimmed from both ends into dst (capacity cap); false if too long. */
static bool copy_trimmed(char *dst, size_t cap, const char *s, size_t n)
{
    while (n && kisspace(*s)) {
        s++;
        n--;
    }
    while (n && kisspace(s[n - 1]))
        n--;
    if (n + 1 > cap)
        return false;
    kmemcpy(dst, s, n);
    dst[n] = 0;
    return true;
}

static struct cfg_entry *add_entry(struct cfg_entries *entries, const struct cfg_source *src,
                                   struct cfg_errors *errs)
{
    if (entries->n >= CFG_ENTRIES_MAX) {
        cfg_error(errs, src, "too many settings (at most %d)", CFG_ENTRIES_MAX);
        return NULL;
    }
    struct cfg_entry *e = &entries->e[entries->n++];
    kmemset(e, 0, sizeof(*e));
    e->src = *src;
    return e;
}

/* Parse one "key = value" text into a new entry, prefixing section when given. */
static void parse_setting(struct cfg_entries *entries, const char *s, size_t n, const char *section,
                          const struct cfg_source *src, struct cfg_errors *errs)
{
    const char *eq = NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '=') {
            eq = s + i;
            break;
        }
    }
    char key[64], value[192];
    if (!eq) {
        cfg_error(errs, src, "expected 'key = value', found '%.*s'", (int)(n > 60 ? 60 : n), s);
        return;
    }
    if (!copy_trimmed(key, sizeof(key), s, (size_t)(eq - s)) || !key[0]) {
        cfg_error(errs, src, "missing or overlong key before '='");
        return;
    }
    if (!copy_trimmed(value, sizeof(value), eq + 1, n - (size_t)(eq - s) - 1)) {
        cfg_error(errs, src, "key '%s': value longer than %zu characters", key, sizeof(value) - 1);
        return;
    }
    if (!value[0]) {
        cfg_error(errs, src, "key '%s': missing value after '='", key);
        return;
    }
    struct cfg_entry *e = add_entry(entries, src, errs);
    if (!e)
        return;
    if (section[0] && !kstrchr(key, '.')) {
        if (ksnprintf(e->key, sizeof(e->key), "%s.%s", section, key) >= (int)sizeof(e->key)) {
            cfg_error(errs, src, "key '%s': too long", key);
            entries->n--;
            return;
        }
    } else {
        kstrlcpy(e->key, key, sizeof(e->key));
    }
    kstrlcpy(e->value, value, sizeof(e->value));
}

int cfg_table_find(const struct cfg_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++) {
        if (kstrcmp(t->section(i)->name, name) == 0)
            return (int)i;
    }
    return -1;
}

/* A file's name for messages: whole when it fits, else "..." and its end (the file's own name). */
static void source_name_copy(char *dst, size_t cap, const char *name)
{
    size_t len = kstrlen(name);
    if (len < cap) {
        kstrlcpy(dst, name, cap);
        return;
    }
    kstrlcpy(dst, "...", cap);
    kstrlcpy(dst + 3, name + len - (cap - 4), cap - 3);
}

unsigned cfg_read_file(struct cfg_entries *entries, const struct cfg_table *t, const char *text,
                       size_t len, const char *source_name, struct cfg_errors *errs)
{
    unsigned before = errs->count;
    struct cfg_source src;
    source_name_copy(src.name, sizeof(src.name), source_name);
    char section[32] = "";
    size_t pos = 0;
    for (unsigned line = 1; pos < len; line++) {
        size_t start = pos;
        while (pos < len && text[pos] != '\n')
            pos++;
        size_t end = pos;
        pos++; /* past the newline */
        for (size_t i = start; i < end; i++) {
            if (text[i] == '#' || text[i] == 0) {
                end = i;
                break;
            }
        }
        src.line = line;
        while (start < end && kisspace(text[start]))
            start++;
        while (end > start && kisspace(text[end - 1]))
            end--;
        if (start == end)
            continue; /* blank or comment-only */
        if (text[start] == '[') {
            char name[32];
            if (text[end - 1] != ']' ||
                !copy_trimmed(name, sizeof(name), text + start + 1, end - start - 2)) {
                cfg_error(errs, &src, "malformed section header; expected '[experiment]'");
                continue;
            }
            if (cfg_table_find(t, name) < 0) {
                cfg_error(errs, &src, "unknown section '[%s]'; sections are experiment names",
                          name);
                section[0] = 0;
                continue;
            }
            kstrlcpy(section, name, sizeof(section));
            continue;
        }
        parse_setting(entries, text + start, end - start, section, &src, errs);
    }
    return errs->count - before;
}

static bool is_program_word(const char *w, size_t n)
{
    if (kstrchr(w, '=') && (size_t)(kstrchr(w, '=') - w) < n)
        return false;
    if (n >= 4 && ktolower(w[n - 1]) == 'i' && ktolower(w[n - 2]) == 'f' &&
        ktolower(w[n - 3]) == 'e' && w[n - 4] == '.')
        return true;
    for (size_t i = 0; i < n; i++) {
        if (w[i] == '\\' || w[i] == '/')
            return true;
    }
    return false;
}

unsigned cfg_read_options(struct cfg_entries *entries, const char *cmdline, struct cfg_errors *errs)
{
    unsigned before = errs->count;
    /* Join "key = value" written with blanks around '=' into one word. */
    char buf[1024];
    size_t n = 0;
    for (const char *p = cmdline; *p && n + 1 < sizeof(buf); p++) {
        if (kisspace(*p)) {
            const char *q = p;
            while (kisspace(*q))
                q++;
            if (*q == '=' || (n && buf[n - 1] == '=')) {
                p = q - 1;
                continue;
            }
            buf[n++] = ' ';
            continue;
        }
        buf[n++] = *p;
    }
    buf[n] = 0;
    struct cfg_source src;
    kstrlcpy(src.name, "load options", sizeof(src.name));
    unsigned word = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && buf[i] == ' ')
            i++;
        if (i >= n)
            break;
        size_t start = i;
        while (i < n && buf[i] != ' ')
            i++;
        buf[i] = 0;
        word++;
        const char *w = buf + start;
        size_t wl = i - start;
        src.line = word;
        i++;
        if (word == 1 && is_program_word(w, wl))
            continue;
        if (kstrcasecmp(w, "help") == 0 || kstrcmp(w, "--help") == 0 || kstrcmp(w, "-h") == 0) {
            entries->want_help = true;
            continue;
        }
        parse_setting(entries, w, wl, "", &src, errs);
    }
    return errs->count - before;
}

bool cfg_parse_size(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    unsigned base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    const char *digits = p;
    for (;; p++) {
        unsigned d;
        if (kisdigit(*p))
            d = (unsigned)(*p - '0');
        else if (base == 16 && ktolower(*p) >= 'a' && ktolower(*p) <= 'f')
            d = (unsigned)(ktolower(*p) - 'a' + 10);
        else
            break;
        if (v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    if (p == digits)
        return false;
    unsigned shift = 0;
    switch (ktolower(*p)) {
    case 'k':
        shift = 10;
        break;
    case 'm':
        shift = 20;
        break;
    case 'g':
        shift = 30;
        break;
    case 't':
        shift = 40;
        break;
    }
    if (shift) {
        p++;
        if (ktolower(p[0]) == 'i' && ktolower(p[1]) == 'b')
            p += 2;
        else if (ktolower(p[0]) == 'b')
            p++;
    }
    if (*p)
        return false;
    if (shift && v > (UINT64_MAX >> shift))
        return false;
    *out = v << shift;
    return true;
}
