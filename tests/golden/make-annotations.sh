#!/usr/bin/env bash
# Make the per-line golden files: callgrind_annotate's --auto=yes source
# annotation for every sample whose sources are in samples/src.
# Run from anywhere: bash tests/golden/make-annotations.sh
#
#   tests/golden/auto/S.auto = callgrind_annotate --auto=yes --inclusive=no
#                              --threshold=100 --context=1000000 S
#
# A context of a million lines makes callgrind_annotate print whole files, so
# every line's number follows from its position. As in make-goldens.sh, the
# run happens in a fresh temporary directory holding copies of the profiles
# and of samples/src (so `fl=samples/src/...` paths resolve the same way on
# every machine), with Perl's hash order fixed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
GOLDEN=$(pwd -P)
SAMPLES=$(cd ../../samples && pwd -P)
ANNOTATE=${CALLGRIND_ANNOTATE:-/usr/bin/callgrind_annotate}
export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 LC_ALL=C

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/samples"
cp -r "$SAMPLES/src" "$TMP/samples/src"
rm -rf "$GOLDEN/auto"
mkdir -p "$GOLDEN/auto"

made=0
cd "$SAMPLES"
for rel in $(grep -l -s '^fl=.*samples/src/' -- * threads/* dumps/* | sort); do
    mkdir -p "$TMP/$(dirname "$rel")" "$GOLDEN/auto/$(dirname "$rel")"
    cp "$rel" "$TMP/$rel"
    (cd "$TMP" && "$ANNOTATE" --auto=yes --inclusive=no --threshold=100 \
        --context=1000000 "$rel") > "$GOLDEN/auto/$rel.auto" 2>/dev/null
    made=$((made + 1))
done
echo "made $made annotation goldens in tests/golden/auto"
