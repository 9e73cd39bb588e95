# SPDX-License-Identifier: MIT
# Scores real-score.sh's per-curve lines (tab-separated: format, true sizes, detected
# size:kind:confidence:lo:hi comma-separated, name): per format the true levels found (each by
# the nearest unmatched level whose interval lo..hi, or its size alone, comes within 1.5x; a
# level finds at most one), `cache` and other levels invented per 10 curves (no true level
# within 1.5x of the interval), and the share of `cache` levels that found a true level; then
# the tinymembench formats pooled. awk -F'\t' -f real-score.awk FILE.
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
      if (!m && kind[k] == "cache") inv_cache[f]++
      if (!m && kind[k] != "cache") inv_other[f]++ } }
END { printf "real: %-18s %6s %6s %8s %14s %14s %12s\n", "format", "curves", "levels", "found",
          "cache inv/10", "uncert inv/10", "cache real"
  for (f in curves) {
      printf "real: %-18s %6d %6d %7.1f%% %14.2f %14.2f %11.1f%%%s\n", f, curves[f], truths[f],
          truths[f] ? 100 * found[f] / truths[f] : 100, 10 * inv_cache[f] / curves[f],
          10 * inv_other[f] / curves[f], caches[f] ? 100 * real_caches[f] / caches[f] : 100,
          errors[f] ? sprintf("  (%d unreadable)", errors[f]) : ""
      if (f ~ /^tinymembench/) { C += curves[f]; T += truths[f]; F += found[f]; IC += inv_cache[f]
          IO += inv_other[f]; CA += caches[f]; RC += real_caches[f] } }
  if (C) printf "real: %-18s %6d %6d %7.1f%% %14.2f %14.2f %11.1f%%\n", "tinymembench-all", C, T,
      100 * F / T, 10 * IC / C, 10 * IO / C, CA ? 100 * RC / CA : 100 }