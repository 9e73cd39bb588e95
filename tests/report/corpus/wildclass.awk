# SPDX-License-Identifier: MIT
# What the corpus' wild points cost, per format: which curves that miss or invent a level have a
# wild point where it can move a step. At one point per octave a step's place is read from the
# last point before the true size and the first beyond it, so a wild point there is the only
# evidence of where the step is and no detector can place it from the others (docs/report.md,
# eighth and tenth passes). awk -F'\t' -v part=NAME -f wildclass.awk WILD_LOG FAILURES SCORED:
# WILD_LOG: gen.sh's and gen-sim.sh's CORPUS_WILD_LOG (curve file, size, factor; blank separated;
# a tinymembench64 curve is cut from its tinymembench file and has its points); FAILURES:
# score.awk's failures=OUT; SCORED: eval.sh's per-curve lines (format, true sizes, ..., file in
# the sixth column). A wild point is near a step when it lies within an
# octave of a true level's size (t / 2 < size <= 2 t: at one point per octave, the two points
# around the step). Prints per format: curves, those with a wild point near a step, and the true
# levels missed and the levels invented (as score.awk counts them) in all curves, in those with
# a wild point near a step, in those with wild points only elsewhere and in those without.
FILENAME == ARGV[1] { split($0, w, " "); sizes[w[1]] = sizes[w[1]] " " w[2]; next }
FILENAME == ARGV[2] { missed[$2] = $3; invented[$2] = $4; next }
$6 == "" { next }
{ f = $1; curves[f]++; file = $6; sub(/\.tinymembench64\.txt$/, ".tinymembench.txt", file)
  nw = split(sizes[file], w, " "); nt = split($2, t, ","); near = 0
  for (i = 1; i <= nw; i++) for (j = 1; j <= nt; j++) if (w[i] > t[j] / 2 && w[i] <= 2 * t[j]) near = 1
  with_near[f] += near
  if (!($6 in missed)) next
  c = near ? "near" : nw ? "else" : "none"
  m[f] += missed[$6]; v[f] += invented[$6]; m[f, c] += missed[$6]; v[f, c] += invented[$6] }
END {
  for (f in curves)
      printf "corpus %s: wild points, %-16s %3d curves, %2d with one near a step; levels missed / " \
          "invented: %2d / %2d, in curves with a wild point near a step %2d / %2d, with wild " \
          "points elsewhere %2d / %2d, without %2d / %2d\n", part, f, curves[f], with_near[f],
          m[f], v[f], m[f, "near"], v[f, "near"], m[f, "else"], v[f, "else"], m[f, "none"],
          v[f, "none"] }
