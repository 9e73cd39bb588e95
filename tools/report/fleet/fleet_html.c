// SPDX-License-Identifier: MIT
// The fleet report's PNGs (one bar chart per figure, drawn by the report's plotting code) and
// fleet.html: one self-contained page, its plots inline as data: URIs, no script, nothing
// fetched from elsewhere.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet/fleet.h"
#include "fleet/fleet_text.h"
#include "lib/csv.h"
#include "outputs/plot.h"

#define PNG_MAX_BYTES (8u << 20) /* a bar chart is tens of KiB; a larger file is not ours */

/* Every figure, once (the first machine's that has it), in the tables' order. */
static size_t figure_list(const struct fleet *f, const struct fleet_figure **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->nmachines; i++)
        for (size_t k = 0; k < f->machine[i].nfig; k++) {
            const struct fleet_figure *x = &f->machine[i].fig[k];
            size_t j = 0;
            while (j < n && strcmp(out[j]->name, x->name) != 0)
                j++;
            if (j == n && n < max)
                out[n++] = x;
        }
    for (size_t i = 1; i < n; i++) /* insertion sort by rank: a few tens of figures */
        for (size_t k = i; k > 0 && out[k]->rank < out[k - 1]->rank; k--) {
            const struct fleet_figure *t = out[k];
            out[k] = out[k - 1];
            out[k - 1] = t;
        }
    return n;
}

/* One figure's bar chart: a bar per machine that has it, named "machine (group)". */
static int plot_figure(const struct fleet *f, const char *out, const char *name, const char *unit,
                       char *file, size_t cap)
{
    size_t len = 64 + f->nmachines * (FLEET_NAME + 48), n = 0;
    char *text = malloc(len), err[512];
    if (!text)
        return -1;
    n += (size_t)snprintf(text, len, "machine,value\n");
    for (size_t i = 0; i < f->nmachines && n < len; i++) {
        const struct fleet_figure *x = fleet_figure_of(&f->machine[i], name);
        char label[FLEET_NAME];
        snprintf(label, sizeof(label), "%s", f->machine[i].name);
        for (char *c = label; (c = strchr(c, ',')) != NULL;)
            *c = ';'; /* a comma would split the CSV row */
        if (x)
            n += (size_t)snprintf(text + n, len - n, "%s (g%d),%.6g\n", label,
                                  f->machine[i].group + 1, x->value);
    }
    struct csv t = {0};
    int rc = csv_parse(text, strlen(text), &t, err, sizeof(err));
    char stem[FLEET_NAME + 8], title[160];
    snprintf(stem, sizeof(stem), "fleet-%s", name);
    for (char *c = stem; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '-' || *c == '_' || *c == '.'))
            *c = '_'; /* a file name: "bw_cores_nt-write 1:1_gbs" has a blank and a colon */
    snprintf(title, sizeof(title), "%s, one bar per machine (its group after it)", name);
    struct plot_bars b = {.name = stem,
                          .title = title,
                          .xlabel = "machine",
                          .ylabel = unit,
                          .label = "machine",
                          .y = "value"};
    if (rc == 0)
        rc = plot_bars_render(out, &b, &t, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "chase-report fleet: warning: %s\n", err);
    snprintf(file, cap, "%s.png", stem);
    csv_free(&t);
    free(text);
    return rc;
}

size_t fleet_write_plots(const struct fleet *f, const char *out, char names[][FLEET_NAME * 2],
                         size_t max)
{
    static const struct fleet_figure *figs[FLEET_FIGURES * 2];
    size_t nf = figure_list(f, figs, FLEET_FIGURES * 2), n = 0;
    for (size_t i = 0; i < nf && n < max; i++)
        if (plot_figure(f, out, figs[i]->name, figs[i]->unit, names[n], sizeof(names[0])) == 0)
            n++;
    return n;
}

static void html_text(FILE *o, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", o);
            break;
        case '>':
            fputs("&gt;", o);
            break;
        case '&':
            fputs("&amp;", o);
            break;
        case '"':
            fputs("&quot;", o);
            break;
        default:
            fputc(*s, o);
        }
    }
}

/* The file at path as base64 (RFC 4648, with padding) onto o; false when it cannot be read. */
static bool base64_file(FILE *o, const char *path)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE *in = fopen(path, "rb");
    unsigned char *buf = in ? malloc(PNG_MAX_BYTES) : NULL;
    size_t n = buf ? fread(buf, 1, PNG_MAX_BYTES, in) : 0;
    if (in)
        fclose(in);
    if (!buf || n == 0 || n == PNG_MAX_BYTES) {
        free(buf);
        return false;
    }
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)buf[i] << 16 | (i + 1 < n ? (unsigned)buf[i + 1] << 8 : 0) |
                     (i + 2 < n ? buf[i + 2] : 0);
        fputc(abc[v >> 18 & 63], o);
        fputc(abc[v >> 12 & 63], o);
        fputc(i + 1 < n ? abc[v >> 6 & 63] : '=', o);
        fputc(i + 2 < n ? abc[v & 63] : '=', o);
    }
    free(buf);
    return true;
}

/* A Markdown table row ("| a | b |") as an HTML row; separator rows are left out. */
static void html_md_table_from(FILE *o, FILE *md)
{
    char line[16384];
    bool in_table = false;
    while (fgets(line, sizeof(line), md)) {
        line[strcspn(line, "\n")] = '\0';
        bool row = line[0] == '|';
        if (row && strncmp(line, "|---", 4) == 0)
            continue;
        if (row != in_table)
            fputs(row ? "<table>\n" : "</table>\n", o);
        in_table = row;
        if (!row) {
            if (strncmp(line, "### ", 4) == 0 || strncmp(line, "## ", 3) == 0 ||
                strncmp(line, "# ", 2) == 0) {
                int h = line[1] == ' ' ? 1 : line[2] == ' ' ? 2 : 3;
                fprintf(o, "<h%d>", h);
                html_text(o, line + h + 1);
                fprintf(o, "</h%d>\n", h);
            } else if (strncmp(line, "- ", 2) == 0) {
                fputs("<p class=\"flag\">", o);
                html_text(o, line + 2);
                fputs("</p>\n", o);
            } else if (line[0]) {
                fputs("<p>", o);
                html_text(o, line);
                fputs("</p>\n", o);
            }
            continue;
        }
        fputs("<tr>", o);
        for (char *c = line + 1, *e; (e = strchr(c, '|')) != NULL; c = e + 1) {
            *e = '\0';
            fputs("<td>", o);
            html_text(o, c);
            fputs("</td>", o);
        }
        fputs("</tr>\n", o);
    }
    if (in_table)
        fputs("</table>\n", o);
}

int fleet_write_html(const struct fleet *f, const char *out, char names[][FLEET_NAME * 2],
                     size_t nplots, char *err, size_t cap)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/fleet.md", out);
    FILE *md = fopen(path, "r");
    snprintf(path, sizeof(path), "%s/fleet.html", out);
    FILE *o = md ? fopen(path, "w") : NULL;
    if (!o) {
        snprintf(err, cap, "cannot write %s (from fleet.md)", path);
        if (md)
            fclose(md);
        return -1;
    }
    fprintf(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<title>chase fleet report</title>\n<style>\n"
               "body{font-family:sans-serif;margin:1.5em;color:#111}\n"
               "table{border-collapse:collapse;margin:0.6em 0;font-size:0.85em}\n"
               "td{border:1px solid #bbb;padding:0.2em 0.5em}\n"
               "tr:first-child td{background:#e8eef8;font-weight:bold}\n"
               "p.flag{background:#fde8e8;border-left:4px solid #c33;padding:0.3em 0.6em}\n"
               "img{max-width:100%%;border:1px solid #ddd;margin:0.4em 0}\n"
               "</style></head><body>\n");
    html_md_table_from(o, md);
    fclose(md);
    fprintf(o, "<h2>Plots</h2>\n");
    for (size_t i = 0; i < nplots; i++) {
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", out, names[i]);
        if (stat(path, &st) != 0 || st.st_size <= 0 || st.st_size >= PNG_MAX_BYTES) {
            fprintf(stderr, "chase-report fleet: warning: %s left out of fleet.html\n", path);
            continue; /* never an image that cannot decode */
        }
        fprintf(o, "<figure><img alt=\"");
        html_text(o, names[i]);
        fprintf(o, "\" src=\"data:image/png;base64,");
        if (!base64_file(o, path))
            fprintf(stderr, "chase-report fleet: warning: cannot read %s\n", path);
        fprintf(o, "\"><figcaption>");
        html_text(o, names[i]);
        fprintf(o, "</figcaption></figure>\n");
    }
    fprintf(o, "</body></html>\n");
    (void)f;
    return fclose(o) == 0 ? 0 : -1;
}
