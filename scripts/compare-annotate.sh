#!/usr/bin/env bash
# Side by side on the same files, in one run: cgtui's load (cgtui report,
# which reads, parses, builds the model and computes inclusive costs) against
# callgrind_annotate reading the same profile. Prints each wall time and the
# ratio. Usage: scripts/compare-annotate.sh FILE... (default: bench-data/*.callgrind)
#
# Build first: cargo build --release. Each command runs once after one warm-up
# read of the file (warm page cache); callgrind_annotate takes minutes on
# files of hundreds of MB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CGTUI=${CGTUI:-target/release/cgtui}
ANNOTATE=${CALLGRIND_ANNOTATE:-callgrind_annotate}
[ -x "$CGTUI" ] || { echo "build first: cargo build --release" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(bench-data/*.callgrind)

seconds() { # wall time of a command, in seconds
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

printf '%-34s %10s %12s %14s %8s\n' file MB cgtui callgrind_annotate ratio
for f in "${files[@]}"; do
    cat "$f" > /dev/null
    mb=$(echo "$(stat -c %s "$f") / 1000000" | bc -l)
    ours=$(seconds "$CGTUI" report --limit 1 "$f")
    theirs=$(seconds "$ANNOTATE" --auto=no --threshold=100 "$f")
    printf '%-34s %10.1f %11.3fs %13.2fs %7.0fx\n' "$(basename "$f")" "$mb" "$ours" "$theirs" \
        "$(echo "$theirs / $ours" | bc -l)"
done
