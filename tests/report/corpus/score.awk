# SPDX-License-Identifier: MIT
# Scores per-curve lines of eval.sh (tab-separated: format, true sizes, detected size:kind,
# TLB reaches, sizes beyond the curve's end; lists comma-separated): per format the true levels
# found (a detected level within 1.5x) and the levels invented (none within 1.5x; a level near a
# TLB reach that chase-report does not call a cache, or near a true level beyond the curve's
# end, is neither). awk -F'\t' -v part=NAME -f score.awk FILE; exit 1 when a format (but the
# sim-half ones) misses the bar: 95% found, at most one invented per ten curves.
function near(a, b) { return a / b <= 1.5 && b / a <= 1.5 }
{ f = $1; curves[f]++; nt = split($2, t, ","); ng = $3 == "" ? 0 : split($3, g, ",")
  if ($3 == "ERROR") { errors[f]++; ng = 0 }
  for (k = 1; k <= ng; k++) { kind[k] = g[k]; sub(/^[0-9]*:?/, "", kind[k]); g[k] += 0 }
  for (i = 1; i <= nt; i++) { truths[f]++; for (k = 1; k <= ng; k++) if (near(t[i], g[k])) { found[f]++; break } }
  nr = split($4, r, ",")
  ns = split($5, s, ",")
  for (k = 1; k <= ng; k++) { m = 0; for (i = 1; i <= nt; i++) if (near(t[i], g[k])) m = 1
      for (i = 1; i <= nr; i++) if (near(r[i], g[k]) && kind[k] != "cache") m = 1
      for (i = 1; i <= ns; i++) if (near(s[i], g[k])) m = 1
      if (!m) invented[f]++ } }
END { bad = 0
  printf "corpus %s: %-18s %6s %6s %8s %9s %12s\n", part, "format", "curves", "levels", "found", "invented", "per 10 curves"
  for (f in curves) {
      pf = truths[f] ? 100 * found[f] / truths[f] : 100; pi = 10 * invented[f] / curves[f]
      printf "corpus %s: %-18s %6d %6d %7.1f%% %9d %12.2f%s\n", part, f, curves[f], truths[f], pf,
          invented[f], pi, errors[f] ? sprintf("  (%d unreadable)", errors[f]) : ""
      if ((pf < 95 || pi > 1) && f !~ /^sim-half/) bad = 1 }
  exit bad }
