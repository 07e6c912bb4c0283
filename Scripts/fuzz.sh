#!/usr/bin/env bash
# Builds the fuzzer of the archive reader and the save path (Fuzz/) with libFuzzer and
# AddressSanitizer and runs it for SECONDS (default 60) from the committed seed corpus. New
# inputs go into a working corpus under Fuzz/.build-fuzz; a crash is written to fuzz-artifacts/.
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."

swift build -c debug --package-path Fuzz --scratch-path Fuzz/.build-fuzz \
    --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --product ArchiveFuzzer

# Without its seeds (real archives, whose envelope and checksum a mutation keeps) a short run
# never gets past the first checks: stop rather than fuzz from nothing.
if ! compgen -G "Fuzz/corpus/*" > /dev/null; then
    echo "fuzz.sh: the seed corpus Fuzz/corpus is missing or empty;" \
        "write it with: swift run --package-path Fuzz write-corpus Fuzz/corpus" >&2
    exit 1
fi
work=Fuzz/.build-fuzz/corpus
mkdir -p "$work" fuzz-artifacts
# Overwritten: a working corpus kept from an earlier run must not keep seeds of an older format.
cp Fuzz/corpus/* "$work"/
SWIFT_BACKTRACE=enable=no Fuzz/.build-fuzz/debug/ArchiveFuzzer "$work" \
    -max_total_time="$seconds" -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 -rss_limit_mb=4096
