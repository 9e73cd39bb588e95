#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Scores chase-report's level detection on real machines' curves: the published tinymembench
# curves of ../shared/real-curves (REAL_CURVES=DIR elsewhere; skipped with a line when absent)
# and chase-host's own runs in tests/report/corpus/real. Per format (tinymembench, tinymembench
# with huge pages, chase-host): curves, true levels, the share of true levels found, the `cache`
# levels invented per 10 curves, the `uncertain` or `tlb` levels invented per 10 curves, and the
# share of `cache` levels that are real. A level is the interval of sizes it is reported in
# (size_lo_bytes..size_hi_bytes, or its size_bytes alone where the JSON has no interval); a
# true level is found by the nearest unmatched level whose interval comes within 1.5x of it, each
# level finding at most one; a level that finds none and has no true level within 1.5x is
# invented. REAL_SCORED=FILE keeps the per-curve lines. Exit 0 always: this measures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
report=${CHASE_REPORT:-$root/build/chase-report}
real=${REAL_CURVES:-$root/../shared/real-curves}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One line per curve: format, true sizes, detected size:kind:confidence (comma-separated), name.
levels='[.levels[] | select(.size_known) |
    "\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)"] | join(",")'
if [ -f "$real/truth.tsv" ]; then
    while IFS=$'\t' read -r name truth _; do
        fmt=tinymembench
        [[ $name == *_hugepage ]] && fmt=tinymembench-huge
        got=$("$report" --json "$real/native/$name.out" 2>/dev/null | jq -r "$levels") || got=ERROR
        printf '%s\t%s\t%s\t%s\n' "$fmt" "${truth// /,}" "$got" "$name"
    done <"$real/truth.tsv" >>"$work/scored.tsv"
else
    echo "real-score: no $real/truth.tsv: published curves not scored"
fi
# chase-host's runs: only sizes below the bound the truth gives (a shared L3's share is unknown).
grep -v '^#' "$here/real/truth.tsv" | while IFS=$'\t' read -r dir truth bound _; do
    got=$("$report" --json "$here/real/$dir" 2>/dev/null |
        jq -r --argjson b "$bound" "[.levels[] | select(.size_known and .size_bytes < \$b) |
            \"\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)\"] |
            join(\",\")") || got=ERROR
    printf 'chase-host\t%s\t%s\t%s\n' "$truth" "$got" "$dir"
done >>"$work/scored.tsv"
[ -z "${REAL_SCORED:-}" ] || cp "$work/scored.tsv" "$REAL_SCORED"
awk -F'\t' '
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
      100 * F / T, 10 * IC / C, 10 * IO / C, CA ? 100 * RC / CA : 100 }' "$work/scored.tsv" | sort
