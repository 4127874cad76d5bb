#!/usr/bin/env bash
# Times loading a profile compressed each way against the format's own
# decompressor (issue 37): `cgtui report --limit 1 FILE.EXT` beside
# `zcat`/`bzcat`/`xzcat`/`zstdcat FILE.EXT >/dev/null`, and the plain file
# beside `cat`. Runs are interleaved (each binary, then the tool, RUNS
# times) so that the load of a shared machine falls on all alike; prints
# the median wall time and the median CPU time (user + system) of each.
#
#   scripts/time-compressed.sh PROFILE [RUNS] [CGTUI...]
#
# PROFILE is a real Callgrind file (scripts/make-real-profile.sh makes
# some); its compressed copies PROFILE.gz/.bz2/.xz/.zst/.pz.zst are made
# beside it (gzip -6, bzip2 -9, xz -6, zstd -3, pzstd -p 2) if missing.
# CGTUI defaults to target/release/cgtui; give several to compare builds.
set -euo pipefail
profile=$1
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(target/release/cgtui)

make() { # EXT COMMAND...: PROFILE.EXT from PROFILE, unless it is there
    local out="$profile.$1"
    shift
    [ -e "$out" ] || "$@" <"$profile" >"$out"
}
make gz gzip -6 -c
make bz2 bzip2 -9 -c
make xz xz -6 -c
make zst zstd -q -3 -c
make pz.zst pzstd -q -p 2 -c

declare -A tool=([plain]=cat [gz]=zcat [bz2]=bzcat [xz]=xzcat [zst]=zstdcat [pz.zst]=zstdcat)
results=$(mktemp)
trap 'rm -f "$results" "$results.t"' EXIT
timed() { # LABEL COMMAND...: appends "LABEL WALL CPU" to the results
    local label=$1
    shift
    /usr/bin/time -o "$results.t" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
    echo "$label $(tail -1 "$results.t")" |
        awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' >>"$results"
}
for ext in plain gz bz2 xz zst pz.zst; do
    file=$profile
    [ "$ext" = plain ] || file="$profile.$ext"
    for _ in $(seq "$runs"); do
        for i in "${!binaries[@]}"; do
            timed "$ext:cgtui#$i" "${binaries[$i]}" report --limit 1 "$file"
        done
        timed "$ext:${tool[$ext]}" "${tool[$ext]}" "$file"
    done
done
for i in "${!binaries[@]}"; do echo "cgtui#$i = ${binaries[$i]}"; done
printf '%-22s %10s %10s\n' what "wall (s)" "cpu (s)"
awk '!seen[$1]++ { print $1 }' "$results" | while read -r label; do
    median() { grep "^$label " "$results" | awk "{ print \$$1 }" | sort -n |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    printf '%-22s %10s %10s\n' "$label" "$(median 2)" "$(median 3)"
done
