#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every repository path the docs name exists: README.md and docs/*.md are read for words that
# start with one of the tree's top folders (`kernel/...`, tools/..., in backticks or not), for
# paths rooted at kernel/ as its includes are (`chase/measure.c`, in backticks), and for
# the targets of their Markdown links (relative to the doc; a #section must be a heading there),
# and each must be a file or folder of the tree (git's files, new ones included). <name>, *
# and ... stand for any name, {a,b} for either. Build outputs (build/), paths outside the tree
# (../shared/..., /work/...) and run folders (\chase\runs) start with no top folder: not read.
#   tools/check-doc-paths.sh [DOC...]   (default: README.md docs/*.md)
set -u
. "$(dirname "$0")/check_lib.sh"
cd "$(dirname "$0")/.."

# DOC:PATH pairs a doc names on purpose although the tree has no such path, each with its reason.
ALLOWED=(
    # the guide's own experiment: tests/tools/test_guide.sh adds it to a copy of the tree
    docs/adding-an-experiment.md:kernel/experiments/example.c
    docs/adding-an-experiment.md:kernel/analysis/example.c
)

tree=$(git ls-files -co --exclude-standard 2>/dev/null)
[ -n "$tree" ] || { echo "not ok - docs name only paths that exist (no git tree here)"; exit 1; }
# The top folders: every first component of a path that has a folder, build/ never.
tops=$(echo "$tree" | grep / | cut -d/ -f1 | sort -u | grep -vx build | sed 's/\./\\./g' |
    paste -sd'|')
docs=("$@") what="${*:-}"
[ $# -le 3 ] || what="$# files"
[ $# -gt 0 ] || { docs=(README.md docs/*.md) && what="README.md, docs/*.md"; }

found=$(printf '%s\n' "$tree" | TOPS=$tops awk -v allowed="${ALLOWED[*]}" \
    -v debug="${CHECK_DOC_PATHS_DEBUG:-0}" '
    # The tree: each file and each folder above it (without a trailing slash); then each doc,
    # line by line, with its own folder for its links.
    BEGIN {
        tops = "(" ENVIRON["TOPS"] ")/"
        word = "(^|[^A-Za-z0-9_./$-])" tops "(\\{[^} ]*\\}|[^ \t`\"'"'"'(){}\\[\\],;|])*"
    }
    NR == FNR {
        have[$0] = 1; p = $0
        while (sub(/\/[^\/]*$/, "", p)) have[p] = 1
        if (split($0, part, "/") > 2 && part[1] == "kernel")
            rooted = rooted (index(rooted, "|" part[2] "|") ? "" : part[2] "|")
        next
    }
    FNR == 1 && !started {
        started = 1; sub(/\|$/, "", rooted)
        rooted = rooted == "" ? "^$" : "`(" rooted ")/[^` \t]*"
    }
    FNR == 1 { dir = FILENAME; if (!sub(/\/[^\/]*$/, "", dir)) dir = "" }
    { note_links($0); note_words($0) }

    # A Markdown link [text](target): a file of the tree relative to the doc, and its #section.
    # A one-letter target is mathematics (E[L](N)), a scheme (https:) another site.
    function note_links(s,    target, path, anchor) {
        while (match(s, /\]\([^) ]+\)/)) {
            target = substr(s, RSTART + 2, RLENGTH - 3)
            s = substr(s, RSTART + RLENGTH)
            if (target ~ /^[a-z]+:/ || target ~ /^#/ || target ~ /^[A-Z]$/) continue
            path = target; anchor = ""
            if (index(path, "#")) { anchor = substr(path, index(path, "#") + 1)
                                    sub(/#.*/, "", path) }
            path = normal((dir == "" ? "" : dir "/") path)
            if (path == "" || path ~ /^\.\.(\/|$)/) continue
            if (!(path in have)) { report(path); continue }
            if (anchor != "" && !has_anchor(path, anchor)) report(path "#" anchor)
        }
    }
    # Words that start with a top folder, not inside another path (build/tests/..., ../x/...),
    # and kernel/'"'"'s folders right after a backtick.
    function note_words(s,    w, k) {
        gsub(/\]\([^) ]+\)/, "]", s)             # the links: read above
        k = s
        while (match(s, word)) {
            w = substr(s, RSTART, RLENGTH)
            s = substr(s, RSTART + RLENGTH)
            if (w !~ "^" tops) w = substr(w, 2)
            check_word(w)
        }
        while (match(k, rooted)) {
            w = substr(k, RSTART + 1, RLENGTH - 1)
            k = substr(k, RSTART + RLENGTH)
            check_word("kernel/" w)
        }
    }
    function check_word(w,    re, p, said) {
        said = w
        sub(/#.*/, "", w)
        sub(/:[0-9]+(-[0-9]+)?$/, "", w)           # file.c:12 names a line of file.c
        if (w ~ /\.\.\.$/) { sub(/\.\.\.$/, "", w); w = w "*" }
        sub(/[.:]+$/, "", w)                        # the end of a sentence
        sub(/\/$/, "", w)
        if (debug) print "# " FILENAME ":" FNR ": " w > "/dev/stderr"
        if (w in have) return
        if (w ~ /[<*{]|[A-Z][A-Z0-9_]*[A-Z0-9]/) {
            re = "^" glob(w) "$"
            for (p in have) if (p ~ re) return
        }
        report(said)
    }
    # <x> and * for any run of name characters, {a,b} for either, the rest taken literally.
    function glob(w,    out, c, i) {
        out = ""
        for (i = 1; i <= length(w); i++) {
            c = substr(w, i, 1)
            if (c == "<") { out = out "[^/]*"; while (i < length(w) && substr(w, i, 1) != ">") i++ }
            else if (substr(w, i) ~ /^[A-Z][A-Z0-9_]*[A-Z0-9]/) {
                out = out "[^/]*"; while (substr(w, i + 1, 1) ~ /[A-Z0-9_]/) i++ }
            else if (c == "*") out = out "[^/]*"
            else if (c == "{") out = out "("
            else if (c == "}") out = out ")"
            else if (c == ",") out = out "|"
            else if (c ~ /[.+?()|^$\\\[\]]/) out = out "\\" c
            else out = out c
        }
        return out
    }
    function normal(p,    n, part, i, out, k) {
        n = split(p, part, "/"); k = 0
        for (i = 1; i <= n; i++) {
            if (part[i] == "" || part[i] == ".") continue
            if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
            out[++k] = part[i]
        }
        p = ""
        for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
        return p
    }
    # The anchor GitHub gives a heading: lower case, spaces to -, other punctuation dropped.
    function has_anchor(file, anchor,    l, slug, found) {
        found = 0
        while ((getline l < file) > 0) {
            if (l !~ /^#+ /) continue
            sub(/^#+ +/, "", l); slug = tolower(l)
            gsub(/[^a-z0-9 _-]/, "", slug); gsub(/ /, "-", slug)
            if (slug == anchor) found = 1
        }
        close(file)
        return found
    }
    function report(p) {
        if (index(" " allowed " ", " " FILENAME ":" p " ")) return
        print FILENAME ":" FNR ": " p
    }
' - "${docs[@]}")

check "every repository path the docs name exists ($what)" "$found"
exit $failed
