# Developer shortcuts; the README's two commands do not need make.
.PHONY: run test bench bench-compare fuzz sanitize samples release release-dev clean

run:
	scripts/setup-and-open.sh

test:
	scripts/test.sh

release:
	swift build -c release --static-swift-stdlib --product bibread

# The development tools (bibread-dev: the reader's test hooks, write-stress, the benchmarks' commands).
release-dev:
	swift build -c release --static-swift-stdlib --product bibread-dev

bench: release release-dev
	scripts/install-deps.sh bench
	bench/parse-bench.sh
	bench/search-bench.sh
	bench/reader-bench.sh
	bench/pdf-bench.sh
	bench/reading-bench.sh
	bench/sync-bench.sh
	bench/fulltext-bench.sh
	bench/edit-bench.sh
	bench/state-bench.sh
	bench/rclone-bench.sh
	bench/sortmem-bench.sh
	bench/groups-bench.sh
	bench/startup-bench.sh

# libFuzzer on every parser and decoder, FUZZ_SECONDS (default 60) each; report in .build-fuzz/report.txt.
fuzz:
	scripts/fuzz.sh

# The whole test suite under AddressSanitizer and ThreadSanitizer.
sanitize:
	scripts/sanitize.sh

samples:
	/usr/bin/python3 Samples/make-samples.py

clean:
	rm -rf .build

# The whole bench before and after a change, script by script: BEFORE is a folder with the old
# bibread and bibread-dev (e.g. built from the change's base with make release release-dev).
bench-compare: release release-dev
	scripts/install-deps.sh bench
	BEFORE_BIBREAD=$(BEFORE)/bibread BEFORE_BIBREAD_DEV=$(BEFORE)/bibread-dev bench/compare-bench.sh
