#!/usr/bin/env bash
# Builds the archive fuzzer (Fuzz/) with libFuzzer and AddressSanitizer and runs
# it for SECONDS (default 60) from the committed seed corpus. New inputs go into a
# working corpus under Fuzz/.build-fuzz; a crash is written to fuzz-artifacts/.
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."

swift build -c debug --package-path Fuzz --scratch-path Fuzz/.build-fuzz \
    --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --product ArchiveFuzzer

work=Fuzz/.build-fuzz/corpus
mkdir -p "$work" fuzz-artifacts
cp -n Fuzz/corpus/* "$work"/ 2>/dev/null || true
SWIFT_BACKTRACE=enable=no Fuzz/.build-fuzz/debug/ArchiveFuzzer "$work" \
    -max_total_time="$seconds" -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 -rss_limit_mb=4096
