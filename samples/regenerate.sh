#!/usr/bin/env bash
# Rebuild every sample profile in samples/ from the programs in samples/src,
# using the real writers: valgrind 3.19 (callgrind, cachegrind, cg_diff,
# memcheck's xtree), xdebug (PHP), pyprof2calltree and yappi (Python).
#
# Run from anywhere: bash samples/regenerate.sh
#
# Needs: gcc, g++, rustc, valgrind, gzip, python3 with pyprof2calltree and
# yappi (pip install pyprof2calltree yappi), php-cli with php-xdebug
# (apt-get install php-cli php-xdebug). A writer that is missing is skipped
# with a warning, its old sample is kept.
#
# Determinism:
# - binaries are built in the fixed directory $BUILD (default
#   /tmp/cgtui-samples), so ob=/cob=/cmd: lines name the same paths on every
#   machine;
# - programs are compiled inside samples/src with
#   -fdebug-prefix-map=<abs samples/src>=samples/src and -gdwarf-4, so fl=
#   paths read samples/src/foo.c (valgrind 3.19 doubles a relative DWARF 5
#   comp_dir into samples/src/samples/src/foo.c, hence -gdwarf-4);
# - valgrind runs with a minimal environment (env -i) so that ld.so/libc
#   start-up costs do not depend on the caller's environment;
# - the process id is replaced by 1000, in file names (callgrind.out.1000-01)
#   and in the pid: header lines; nothing else in the profiles is edited,
#   except for the PHP/Python profiles, where the absolute path of
#   samples/src is replaced by "samples/src" (xdebug and Python write
#   absolute or caller-relative paths) and the pid: of yappi is set to 1000.
# Timings in the xdebug/Python profiles differ from run to run; thread
# interleaving can change the per-thread files slightly.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
SAMPLES=$(pwd -P)
ROOT=$(cd .. && pwd -P)
SRC="$SAMPLES/src"
BUILD=${BUILD:-/tmp/cgtui-samples}
FAKEPID=1000
# Fixed cache geometry for every cache simulation (otherwise valgrind takes
# the host CPU's caches and the numbers differ between machines).
CACHES=(--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$BUILD"

# Run a program under valgrind with a clean, fixed environment.
# Valgrind's own messages are shown, except the cache auto-detection
# warnings that appear even when the caches are given explicitly.
vg() {
    local rc=0
    env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C valgrind -q "$@" \
        >/dev/null 2>"$WORK/vg.err" || rc=$?
    grep -v -E 'warning: (L3 cache found|specified LL cache|simulated LL cache)' \
        "$WORK/vg.err" >&2 || true
    return $rc
}

# Replace the real pid in the pid: header lines of a profile with FAKEPID.
fix_pid() {
    sed -i -E "s/^pid: [0-9]+\$/pid: $FAKEPID/" "$@"
}

# Move valgrind's callgrind.out.<pid>* files from $1 into directory $2,
# renaming <pid> to FAKEPID and fixing the pid: lines.
collect_pid_files() {
    local from=$1 to=$2 f base rest
    rm -rf "$to"
    mkdir -p "$to"
    for f in "$from"/callgrind.out.*; do
        base=$(basename "$f")
        rest=${base#callgrind.out.}
        rest=$(printf '%s' "$rest" | sed -E "s/^[0-9]+/$FAKEPID/")
        cp "$f" "$to/callgrind.out.$rest"
        chmod 644 "$to/callgrind.out.$rest"
        [ -s "$to/callgrind.out.$rest" ] && fix_pid "$to/callgrind.out.$rest"
    done
}

# callgrind OUTPUT.callgrind PROGRAM [valgrind options...] -- [program args]
callgrind() {
    local out=$1 prog=$2
    shift 2
    local opts=() args=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    args=("$@")
    vg --tool=callgrind "${opts[@]}" --callgrind-out-file="$WORK/cg.out" \
        "$BUILD/$prog" "${args[@]}"
    cp "$WORK/cg.out" "$SAMPLES/$out"
    chmod 644 "$SAMPLES/$out"
    fix_pid "$SAMPLES/$out"
    rm -f "$WORK/cg.out"
    echo "  $out ($(stat -c %s "$SAMPLES/$out") bytes)"
}

echo "== compiling into $BUILD"
(
    cd "$SRC"
    CMAP="-fdebug-prefix-map=$SRC=samples/src"
    gcc -O0 -gdwarf-4 "$CMAP" -o "$BUILD/recursion" recursion.c
    gcc -O2 -gdwarf-4 "$CMAP" -o "$BUILD/inline" inline.c inline_other.c
    gcc -O0 -gdwarf-4 "$CMAP" -o "$BUILD/branches" branches.c
    gcc -O2 -gdwarf-4 "$CMAP" -o "$BUILD/branches_O2" branches.c
    gcc -O0 -gdwarf-4 "$CMAP" -pthread -o "$BUILD/threads" threads.c
    gcc -O0 -gdwarf-4 "$CMAP" -o "$BUILD/phases" phases.c
    gcc -O0 -gdwarf-4 "$CMAP" -o "$BUILD/alloc" alloc.c
    gcc -O0 -gdwarf-4 "$CMAP" -o "$BUILD/active_call" active_call.c
    gcc -O0 -gdwarf-4 "$CMAP" -o "$BUILD/cycle_entry" cycle_entry.c
    gcc -O2 -gdwarf-4 "$CMAP" -o "$BUILD/asm-hash" asm_hash.c
    g++ -O0 -gdwarf-4 "$CMAP" -o "$BUILD/cpp_names" cpp_names.cpp
    g++ -O2 -gdwarf-4 "$CMAP" -o "$BUILD/cpp_names_O2" cpp_names.cpp
    rustc -g -C opt-level=0 --remap-path-prefix="$SRC=samples/src" \
        -o "$BUILD/rust_names" rust_names.rs
    rustc -g -C opt-level=0 -C symbol-mangling-version=v0 \
        --remap-path-prefix="$SRC=samples/src" \
        -o "$BUILD/rust_names_v0" rust_names.rs
)

echo "== callgrind"
# Recursion: default options (--separate-recs=2 gives fib'2, is_even'2, ...)
callgrind recursion.callgrind recursion
callgrind recursion-separate-recs1.callgrind recursion --separate-recs=1
callgrind recursion-nocompress.callgrind recursion \
    --compress-strings=no --compress-pos=no
gzip -n -9 -c "$SAMPLES/recursion.callgrind" > "$SAMPLES/recursion.callgrind.gz"
echo "  recursion.callgrind.gz ($(stat -c %s "$SAMPLES/recursion.callgrind.gz") bytes)"
callgrind separate-callers.callgrind recursion --separate-callers=2
# A cycle entered from outside it (step'2 <-> vdbe_exec'2, called from
# vdbe_exec), shaped like SQLite's sqlite3_step
callgrind cycle-entry.callgrind cycle_entry

# Inlining: -O2, fi=/fe= lines
callgrind inline.callgrind inline
callgrind inline-instr.callgrind inline --dump-instr=yes --collect-jumps=yes

# The assembly listing (annotate --asm): main and below only, and the
# small binary itself kept in src/ (its ob= names $BUILD/asm-hash; read it
# with --object-root /tmp/cgtui-samples=samples/src)
callgrind asm-hash.callgrind asm-hash --dump-instr=yes --collect-jumps=yes \
    --collect-atstart=no --toggle-collect=main
cp "$BUILD/asm-hash" "$SRC/asm-hash"
echo "  src/asm-hash ($(stat -c %s "$SRC/asm-hash") bytes)"

# Instruction level positions and jumps
callgrind jumps.callgrind branches --dump-instr=yes --collect-jumps=yes
callgrind jumps-lines.callgrind branches --collect-jumps=yes
# Cache and branch simulation
callgrind cachesim.callgrind branches --cache-sim=yes --branch-sim=yes \
    "${CACHES[@]}"
# ... and cache use: 17 events, the 4 of `--cacheuse=yes` after the 13
callgrind cacheuse.callgrind branches --cache-sim=yes --branch-sim=yes \
    --cacheuse=yes "${CACHES[@]}"
# Extra events / extra line kinds
callgrind systime.callgrind branches --collect-systime=nsec
callgrind dump-bbs.callgrind branches --dump-bbs=yes

# C++ and Rust names
callgrind cpp-names.callgrind cpp_names
callgrind rust-names.callgrind rust_names
callgrind rust-names-mangled.callgrind rust_names --demangle=no
callgrind cpp-names-mangled.callgrind cpp_names --demangle=no
callgrind rust-names-v0.callgrind rust_names_v0

# Threads: one file per thread, plus the empty callgrind.out.<pid>
mkdir -p "$WORK/threads"
(cd "$WORK/threads" && vg --tool=callgrind --separate-threads=yes \
    "$BUILD/threads")
collect_pid_files "$WORK/threads" "$SAMPLES/threads"
echo "  threads/: $(cd "$SAMPLES/threads" && echo *)"

# Several dumps: one file per dump (callgrind.out.<pid>.N) plus the final one
mkdir -p "$WORK/dumps"
(cd "$WORK/dumps" && vg --tool=callgrind --dump-before='phase_*' \
    "$BUILD/phases")
collect_pid_files "$WORK/dumps" "$SAMPLES/dumps"
echo "  dumps/: $(cd "$SAMPLES/dumps" && echo *)"

# Several dumps in one file (part: 1, 2, ...)
callgrind combined-dumps.callgrind phases --dump-before='phase_*' \
    --combine-dumps=yes
# A dump while a call started in an earlier part is still active: the row
# after calls= is relative and not "*" (see src/active_call.c)
callgrind active-call.callgrind active_call --separate-recs=1 \
    --dump-before=trigger --combine-dumps=yes

echo "== pairs to compare (cgtui --base)"
# The same program with two inputs; built at -O0 and -O2 (objects,
# addresses and inlining differ); instruction level; C++ at -O0 and -O2.
callgrind diff-branches-64.callgrind branches -- 64
callgrind diff-branches-16.callgrind branches -- 16
callgrind diff-branches-O2.callgrind branches_O2 -- 64
callgrind diff-jumps-O0.callgrind branches --dump-instr=yes --collect-jumps=yes -- 64
callgrind diff-jumps-O2.callgrind branches_O2 --dump-instr=yes --collect-jumps=yes -- 64
callgrind diff-cpp-O2.callgrind cpp_names_O2

echo "== cachegrind / cg_diff"
vg --tool=cachegrind "${CACHES[@]}" --cachegrind-out-file="$WORK/cachegrind.64" \
    "$BUILD/branches" 64
vg --tool=cachegrind "${CACHES[@]}" --cachegrind-out-file="$WORK/cachegrind.16" \
    "$BUILD/branches" 16
cp "$WORK/cachegrind.64" "$SAMPLES/branches.cachegrind"
cp "$WORK/cachegrind.16" "$SAMPLES/branches-n16.cachegrind"
# cg_diff writes to stdout; "file 2 minus file 1": the smaller run minus the
# bigger one, so most costs are negative.
# (cg_diff is Perl and writes functions in hash order: fix the hash seed)
(cd "$SAMPLES" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 \
    cg_diff branches.cachegrind branches-n16.cachegrind \
    > "$SAMPLES/branches-diff.cachegrind")
chmod 644 "$SAMPLES"/branches*.cachegrind
echo "  branches.cachegrind branches-n16.cachegrind branches-diff.cachegrind"

echo "== xtree (memcheck)"
vg --tool=memcheck --xtree-memory=full \
    --xtree-memory-file="$WORK/xtmemory.kcg" "$BUILD/alloc" 2>/dev/null
cp "$WORK/xtmemory.kcg" "$SAMPLES/xtree-memory.callgrind"
vg --tool=memcheck --xtree-leak=yes --leak-check=full \
    --xtree-leak-file="$WORK/xtleak.kcg" "$BUILD/alloc" 2>/dev/null
cp "$WORK/xtleak.kcg" "$SAMPLES/xtree-leak.callgrind"
chmod 644 "$SAMPLES"/xtree-*.callgrind
fix_pid "$SAMPLES"/xtree-*.callgrind
echo "  xtree-memory.callgrind xtree-leak.callgrind"

echo "== xdebug (PHP)"
php_modules=$(php -m 2>/dev/null || true)
if command -v php >/dev/null && grep -qi '^xdebug$' <<<"$php_modules"; then
    mkdir -p "$WORK/xdebug"
    (
        cd "$ROOT"
        php -d xdebug.mode=profile -d xdebug.start_with_request=yes \
            -d xdebug.output_dir="$WORK/xdebug" \
            -d xdebug.profiler_output_name=single.out \
            samples/src/profile.php >/dev/null
        # Two runs appended to one file: ==== NEW PROFILING FILE ====
        for _ in 1 2; do
            php -d xdebug.mode=profile -d xdebug.start_with_request=yes \
                -d xdebug.output_dir="$WORK/xdebug" \
                -d xdebug.profiler_append=1 \
                -d xdebug.profiler_output_name=appended.out \
                samples/src/profile.php >/dev/null
        done
    )
    for n in single appended; do
        dest="$SAMPLES/xdebug.callgrind"
        [ $n = appended ] && dest="$SAMPLES/xdebug-appended.callgrind"
        # xdebug writes absolute script paths: make them repository-relative
        sed "s#$SRC#samples/src#g" "$WORK/xdebug/$n.out" > "$dest"
    done
    echo "  xdebug.callgrind xdebug-appended.callgrind"
else
    echo "  WARNING: php or php-xdebug missing, xdebug samples not rebuilt" >&2
fi

echo "== Python (cProfile + pyprof2calltree, yappi)"
if python3 -c 'import pyprof2calltree, yappi' 2>/dev/null; then
    (
        cd "$ROOT"
        python3 -B -m cProfile -o "$WORK/profile.pstats" samples/src/pysample.py \
            >/dev/null
        python3 -m pyprof2calltree -i "$WORK/profile.pstats" \
            -o "$WORK/pyprof2calltree.out" >/dev/null 2>&1
        python3 samples/src/run_yappi.py "$WORK/yappi.out"
    )
    sed "s#$SRC#samples/src#g" "$WORK/pyprof2calltree.out" \
        > "$SAMPLES/pyprof2calltree.callgrind"
    # (GNU sed keeps yappi's missing final newline as it is)
    sed -e "s#$SRC#samples/src#g" -e "s#$WORK/##g" \
        -e "s/^pid: [0-9]*\$/pid: $FAKEPID/" "$WORK/yappi.out" \
        > "$SAMPLES/yappi.callgrind"
    echo "  pyprof2calltree.callgrind yappi.callgrind"
else
    echo "  WARNING: pyprof2calltree/yappi missing, Python samples not rebuilt" >&2
fi

echo "== sizes"
du -ab "$SAMPLES" | sort -n | tail -5
big=$(find "$SAMPLES" -type f -size +1000k)
if [ -n "$big" ]; then
    echo "ERROR: samples over 1 MB: $big" >&2
    exit 1
fi
echo "done; now run tests/golden/make-goldens.sh to refresh the goldens"
