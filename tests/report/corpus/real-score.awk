# SPDX-License-Identifier: MIT
# Scores real-score.sh's per-curve lines (tab-separated: format, true sizes, detected
# size:kind:confidence:lo:hi comma-separated, name): per format the true levels found (each by
# the nearest unmatched level whose interval lo..hi, or its size alone, comes within 1.5x; a
# level finds at most one), `cache` and other levels invented per 10 curves (no true level
# within 1.5x of the interval), and the share of `cache` levels that found a true level; then
# the tinymembench formats pooled and their levels by confidence band (how many found a true
# level, and how many lie within 1.5x of one: a second level near a true one is not invented).
# awk -F'\t' -f real-score.awk FILE; -v md=1 prints the same as docs/report.md's Markdown tables.
function near(t, lo, hi) { return t >= lo / 1.5 && t <= hi * 1.5 }
function dist(t, lo, hi) { return t < lo ? log(lo / t) : t > hi ? log(t / hi) : 0 }
{ f = $1; curves[f]++; nt = split($2, t, ","); ng = ($3 == "" || $3 == "ERROR") ? 0 : split($3, g, ",")
  if ($3 == "ERROR") errors[f]++
  for (k = 1; k <= ng; k++) { split(g[k], e, ":"); kind[k] = e[2]; used[k] = 0
      lo[k] = e[4] + 0 > 0 ? e[4] + 0 : e[1] + 0; hi[k] = e[5] + 0 > 0 ? e[5] + 0 : e[1] + 0 }
  for (i = 1; i <= nt; i++) { truths[f]++; best = 0
      for (k = 1; k <= ng; k++) if (!used[k] && near(t[i], lo[k], hi[k]) &&
          (!best || dist(t[i], lo[k], hi[k]) < dist(t[i], lo[best], hi[best]))) best = k
      if (best) { found[f]++; used[best] = 1 } }
  for (k = 1; k <= ng; k++) { m = used[k]
      for (i = 1; i <= nt; i++) if (near(t[i], lo[k], hi[k])) m = 1
      if (kind[k] == "cache") { caches[f]++; if (used[k]) real_caches[f]++ }
      if (f ~ /^tinymembench/) { split(g[k], e, ":"); b = int(4 * e[3]); b = b > 3 ? 3 : b < 0 ? 0 : b
          band_n[b]++; band_real[b] += used[k]; band_near[b] += m; band_cache[b] += kind[k] == "cache" }
      if (!m && kind[k] == "cache") inv_cache[f]++
      if (!m && kind[k] != "cache") inv_other[f]++ } }
END { if (md) { markdown(); exit }
  printf "real: %-20s %6s %6s %8s %14s %14s %12s\n", "format", "curves", "levels", "found",
          "cache inv/10", "uncert inv/10", "cache real"
  for (f in curves) {
      printf "real: %-20s %6d %6d %7.1f%% %14.2f %14.2f %11.1f%%%s\n", f, curves[f], truths[f],
          truths[f] ? 100 * found[f] / truths[f] : 100, 10 * inv_cache[f] / curves[f],
          10 * inv_other[f] / curves[f], caches[f] ? 100 * real_caches[f] / caches[f] : 100,
          errors[f] ? sprintf("  (%d unreadable)", errors[f]) : ""
      if (f ~ /^tinymembench/) { C += curves[f]; T += truths[f]; F += found[f]; IC += inv_cache[f]
          IO += inv_other[f]; CA += caches[f]; RC += real_caches[f] } }
  if (C) printf "real: %-20s %6d %6d %7.1f%% %14.2f %14.2f %11.1f%%\n", "tinymembench-all", C, T,
      100 * F / T, 10 * IC / C, 10 * IO / C, CA ? 100 * RC / CA : 100
  for (b = 0; b < 4; b++) if (band_n[b])
      printf "real: ~calibration confidence %.2f-%.2f: %3d levels (%3d cache), %3d found a true level " \
          "(%.0f%%), %3d within 1.5x of one (%.0f%%)\n", b / 4, (b + 1) / 4, band_n[b], band_cache[b],
          band_real[b], 100 * band_real[b] / band_n[b], band_near[b], 100 * band_near[b] / band_n[b] }
function pct(a, b) { return b ? sprintf("%.1f%%", 100 * a / b) : "-" }
# One row of the scores table: name, curves, true levels, found, invented / 10, `cache` real.
function md_row(name, c, t, fo, ic, io, ca, rc) {
    printf "| %s | %d | %d | %s | %.2f | %.2f | %s (%d of %d) |\n", name, c, t, pct(fo, t),
        10 * ic / c, 10 * io / c, pct(rc, ca), rc, ca }
function markdown(   f, C, T, F, IC, IO, CA, RC, b, n) {
  print "| format (intervals) | curves | true levels | found | `cache` invented / 10 | other invented / 10 | `cache` real |"
  print "|---|---|---|---|---|---|---|"
  n = split("tinymembench tinymembench-huge chase-host", order, " ")
  for (i = 1; i <= n; i++) { f = order[i]; if (!curves[f]) continue
      md_row(f == "tinymembench" ? "tinymembench, 4K pages" : f == "tinymembench-huge" ? \
          "tinymembench, huge pages" : "chase-host runs", curves[f], truths[f], found[f],
          inv_cache[f], inv_other[f], caches[f], real_caches[f])
      if (f ~ /^tinymembench/) { C += curves[f]; T += truths[f]; F += found[f]; IC += inv_cache[f]
          IO += inv_other[f]; CA += caches[f]; RC += real_caches[f] } }
  if (C) md_row("**tinymembench, all**", C, T, F, IC, IO, CA, RC)
  print ""
  print "| confidence | levels | of them `cache` | found a true level (real) | within 1.5x of one |"
  print "|---|---|---|---|---|"
  for (b = 0; b < 4; b++) if (band_n[b])
      printf "| %.2f-%.2f | %d | %d | %d (%.0f%%) | %d (%.0f%%) |\n", b / 4, (b + 1) / 4, band_n[b],
          band_cache[b], band_real[b], 100 * band_real[b] / band_n[b], band_near[b],
          100 * band_near[b] / band_n[b] }
