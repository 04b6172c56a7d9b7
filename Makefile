# hugetlb pre-zeroing: a patch series on Debian's linux-source-7.3, its
# backport to linux-source-6.12, and the harness that builds, boots and
# tests them. "make" lists the targets.

S := scripts
.DEFAULT_GOAL := help
# The base kernel (a line of the file BASE; the first by default, which
# scripts/lib.sh reads).
BASE ?= $(shell SERIES= $(S)/build/base.sh DEFAULT_BASE)
export BASE
# The work tree; SERIES=v1 has its own (scripts/lib.sh).
WORK := build/$(BASE)$(if $(SERIES),-$(SERIES))/linux/.git
.PHONY: help deps tree export kernel selftests image check check-long demo \
	bench bench-scale lint letters series post-prep series-diff bisect-check config-matrix stable-check clean

help:
	@echo "make check        build the debug and KASAN kernels, boot them in QEMU, run every test (CI runs this)"
	@echo "make demo         stock and patched bench kernels: QEMU start (stock, dirty, pre-zeroed pool), fault-in"
	@echo "make bench        unpatched and patched bench kernels, every benchmark, one table (docs/generated/BENCHMARKS.md)"
	@echo "make bench-scale  lock_stat kernels: hugetlb_lock work per allocation with 1, 8, 32 workers (64 vCPUs), then fault latency, lock hold, irqsoff and refill rate against stock (2 vCPUs)"
	@echo "make check-long   the slow tests (1000-round leak loop, 50 hotplug cycles, upstream suite under pressure) that CI does not run"
	@echo "make tree         unpack the base into build/BASE/linux and apply its series (KERNEL_SRC=... for your tree)"
	@echo "make export       write build/BASE/linux's commits back to the base's series"
	@echo "make kernel       build one kernel flavour (FLAVOUR=debug|bench|kasan)"
	@echo "make lint         shellcheck the harness, unit tests of the result reader (tests/report), make letters, checkpatch --strict every patch"
	@echo "make letters      the cover letters: every figure found in the file it cites, each 0000-cover-letter.patch's text its letter's (no kernel tree)"
	@echo "make series       a ready-to-send series in build/BASE/series/"
	@echo "make post-prep    the series to post in build/BASE/post/: From: and Signed-off-by: yours (git config user.name, user.email), checkpatch --strict"
	@echo "make series-diff  patches/ against patches-6.12/ patch by patch: fails on a difference not in tests/series-differences (UPDATE=1 records them)"
	@echo "make bisect-check build the tree after every patch"
	@echo "make config-matrix the touched objects with W=1 + sparse in 8 configs, against the base (CONFIGS=...)"
	@echo "make stable-check the fixes of docs/stable/BASE/ on the base alone: its HVO reproducers fail before, pass after (BASE=6.12)"
	@echo "make clean        remove build/BASE/ (refuses if build/BASE/linux has unexported commits)"
	@echo "Variables: BASE=7.3|6.12 (the file BASE; 7.3 by default)  ACCEL=auto|kvm|tcg  ONLY=\"boot-glob ...\""
	@echo "           SERIES=v1 (v1 alone, without part 2, in build/BASE-v1/)"
	@echo "           TESTS=test-glob  VMS=n (boots at once, 2)  BOOT_FLAVOUR=debug|kasan (all boots on it)"
	@echo "           BOOT_LIST=check|ci-6.12|ci-v1 (the list of tests/boots/ make check boots; check by default)"
	@echo "           SHOW=n  JOBS=n  FLAVOUR=debug  CONFIGS=\"debian i386\""

deps:
	@$(S)/build/install-deps.sh

$(WORK):
	@$(S)/build/tree.sh

tree: deps
	@$(S)/build/tree.sh

export:
	@$(S)/series/export.sh

FLAVOUR ?= debug
kernel: deps $(WORK)
	@$(S)/build/build-kernel.sh $(FLAVOUR)

selftests: deps $(WORK)
	@$(S)/build/build-selftests.sh

image: deps $(WORK)
	@$(S)/build/build-userspace.sh

# The boot list make check boots: tests/boots/check, or CI's ci-6.12 and
# ci-v1 (tests/boots/README.md).
BOOT_LIST ?= check
check: deps $(WORK)
	@$(S)/boot/pipeline.sh tests/boots/$(BOOT_LIST)

check-long: deps $(WORK)
	@$(S)/boot/pipeline.sh tests/boots/check-long

demo: deps $(WORK)
	@$(S)/boot/demo.sh

bench: deps $(WORK)
	@$(S)/boot/bench.sh

bench-scale: deps $(WORK)
	@$(S)/boot/bench-scale.sh

lint: deps $(WORK)
	@$(S)/series/lint.sh

letters:
	@python3 $(S)/series/letters.py
	@python3 -m unittest discover -s tests/letters

series: $(WORK)
	@$(S)/series/series.sh

post-prep:
	@$(S)/series/post-prep.sh

series-diff:
	@$(S)/series/series-diff.sh

bisect-check: deps $(WORK)
	@$(S)/series/bisect-check.sh

config-matrix: deps $(WORK)
	@$(S)/series/config-matrix.sh

stable-check: deps $(WORK)
	@$(S)/boot/stable-check.sh

clean:
	@$(S)/build/clean.sh
