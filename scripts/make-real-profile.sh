#!/usr/bin/env bash
# Makes a real, large profile for the benchmarks: callgrind with every
# option that adds data, on rustc compiling one of the samples.
# Writes bench-data/rustc-dump-instr.callgrind (about 70 MB; a few minutes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p bench-data
sysroot=$(rustc --print sysroot)
LD_LIBRARY_PATH="$sysroot/lib" valgrind --tool=callgrind \
    --dump-instr=yes --collect-jumps=yes --cache-sim=yes --branch-sim=yes \
    --callgrind-out-file=bench-data/rustc-dump-instr.callgrind \
    "$sysroot/bin/rustc" -O --edition 2021 --crate-type bin \
    -o "$(mktemp -d)/rust_names" samples/src/rust_names.rs
ls -la bench-data/rustc-dump-instr.callgrind
