#!/usr/bin/env bash
# Make the callgrind_annotate golden files for the sample profiles in
# samples/. Run from anywhere: bash tests/golden/make-goldens.sh
#
# For every sample S (a path relative to samples/, e.g. recursion.callgrind
# or threads/callgrind.out.1000-01) that callgrind_annotate can read:
#   tests/golden/S.annotate  = callgrind_annotate --inclusive=no  --threshold=100 --auto=no S
#   tests/golden/S.inclusive = callgrind_annotate --inclusive=yes --tree=both --threshold=100 --auto=no S
# Only standard output is kept. What callgrind_annotate prints on standard
# error (warnings about lines it does not understand) goes to
# tests/golden/warnings.txt.
#
# How it is run: the samples are copied into a fresh temporary directory,
# which becomes the current directory, and callgrind_annotate gets the
# sample's relative name. So the "Profile data file 'S'" line names the
# sample the same way on every machine, and callgrind_annotate's stripping of
# the current directory from fl= paths (it does not strip cfi= paths) never
# applies, because no path in the profiles starts with that temporary
# directory. PERL_HASH_SEED=0/PERL_PERTURB_KEYS=0 fix Perl's hash order, so
# functions with equal costs come out in the same order on every run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
GOLDEN=$(pwd -P)
SAMPLES=$(cd ../../samples && pwd -P)
ANNOTATE=${CALLGRIND_ANNOTATE:-/usr/bin/callgrind_annotate}

export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 LC_ALL=C

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Copy the profiles (not the programs in src/) into the temporary directory.
(cd "$SAMPLES" && find . -path ./src -prune -o -type f -print) | sed 's#^\./##' |
    sort > "$TMP/list"
while read -r rel; do
    mkdir -p "$TMP/run/$(dirname "$rel")"
    cp "$SAMPLES/$rel" "$TMP/run/$rel"
done < "$TMP/list"

# Old goldens go away, so that a removed sample leaves no stale golden.
find "$GOLDEN" -name '*.annotate' -delete
find "$GOLDEN" -name '*.inclusive' -delete
find "$GOLDEN" -mindepth 1 -type d -empty -delete

# (callgrind_annotate --version exits with 255 and prints no final newline)
{
    valgrind --version
    echo "$("$ANNOTATE" --version 2>&1 || true)"
} > "$GOLDEN/VERSION"

warnings="$GOLDEN/warnings.txt"
{
    echo "# Standard error of callgrind_annotate per sample (made by make-goldens.sh)."
    echo "# Samples not listed here gave no warnings."
} > "$warnings"

made=0
skipped=()
cd "$TMP/run"
while read -r rel; do
    case "$rel" in
        *.gz)
            skipped+=("$rel: gzip-compressed (callgrind_annotate cannot read gzip)")
            continue ;;
        README.md|*.sh)
            continue ;;
    esac
    if [ ! -s "$rel" ]; then
        skipped+=("$rel: empty file")
        continue
    fi
    mkdir -p "$GOLDEN/$(dirname "$rel")"
    ok=1
    for mode in annotate inclusive; do
        if [ $mode = annotate ]; then
            opts=(--inclusive=no --threshold=100 --auto=no)
        else
            opts=(--inclusive=yes --tree=both --threshold=100 --auto=no)
        fi
        if "$ANNOTATE" "${opts[@]}" "$rel" > "$TMP/out" 2> "$TMP/err"; then
            cp "$TMP/out" "$GOLDEN/$rel.$mode"
            if [ -s "$TMP/err" ]; then
                {
                    echo
                    echo "== $rel ($mode): $(wc -l < "$TMP/err") lines, first 5:"
                    head -5 "$TMP/err"
                } >> "$warnings"
            fi
        else
            ok=0
            skipped+=("$rel: callgrind_annotate failed: $(head -1 "$TMP/err")")
            rm -f "$GOLDEN/$rel.annotate" "$GOLDEN/$rel.inclusive"
            break
        fi
    done
    [ $ok = 1 ] && made=$((made + 1))
done < "$TMP/list"

# Make sure nothing machine-specific leaked into the goldens.
if grep -rl -e "$TMP" -e "$SAMPLES" "$GOLDEN" --include='*.annotate' \
        --include='*.inclusive' >/dev/null; then
    echo "ERROR: a golden file names the temporary or the checkout directory" >&2
    exit 1
fi

echo "made goldens for $made samples"
for s in "${skipped[@]}"; do
    echo "skipped $s"
done
