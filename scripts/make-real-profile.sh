#!/usr/bin/env bash
# Makes real, large profiles for the benchmarks: callgrind on rustc compiling
# one of the samples, (1) with every option that adds data, (2) with name and
# position compression off (what `--compress-strings=no --compress-pos=no`
# users get), (3) as (1) with cache use simulation too (`--cacheuse=yes`: 17
# events). Writes bench-data/rustc-dump-instr.callgrind (about 70 MB),
# bench-data/rustc-nocompress.callgrind (about 90 MB) and
# bench-data/rustc-cacheuse.callgrind; a few minutes each.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p bench-data
sysroot=$(rustc --print sysroot)
profile() { # OUT OPTIONS...: callgrind on rustc -O samples/src/rust_names.rs
    local out=$1
    shift
    LD_LIBRARY_PATH="$sysroot/lib" valgrind --tool=callgrind "$@" \
        --callgrind-out-file="bench-data/$out" \
        "$sysroot/bin/rustc" -O --edition 2021 --crate-type bin \
        -o "$(mktemp -d)/rust_names" samples/src/rust_names.rs
    ls -la "bench-data/$out"
}
profile rustc-dump-instr.callgrind \
    --dump-instr=yes --collect-jumps=yes --cache-sim=yes --branch-sim=yes
profile rustc-nocompress.callgrind \
    --dump-instr=yes --collect-jumps=yes --compress-strings=no --compress-pos=no
profile rustc-cacheuse.callgrind \
    --dump-instr=yes --collect-jumps=yes --cache-sim=yes --branch-sim=yes --cacheuse=yes
