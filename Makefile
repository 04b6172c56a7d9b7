# hugetlb pre-zeroing: a patch series on Debian's linux-source-6.12 and the
# harness that builds, boots and tests it. "make" lists the targets.

S := scripts
.DEFAULT_GOAL := help
.PHONY: help deps tree export kernel selftests image check check-long demo \
	bench lint series bisect-check config-matrix clean

help:
	@echo "make check        build the debug and KASAN kernels, boot them in QEMU, run every test (CI runs this)"
	@echo "make demo         bench kernel: fault-in times and zero contents, stock vs pre-zeroed"
	@echo "make bench        unpatched and patched bench kernels, every benchmark, one table (docs/BENCHMARKS.md)"
	@echo "make check-long   the slow tests (1000-round leak loop, 50 hotplug cycles, upstream suite under pressure) that CI does not run"
	@echo "make tree         unpack the base into build/linux and apply patches/ (KERNEL_SRC=... for your tree)"
	@echo "make export       write build/linux's commits back to patches/"
	@echo "make kernel       build one kernel flavour (FLAVOUR=debug|bench|kasan)"
	@echo "make lint         shellcheck the harness, checkpatch --strict every patch"
	@echo "make series       a ready-to-send series in build/series/"
	@echo "make bisect-check build the tree after every patch"
	@echo "make config-matrix the touched objects with W=1 + sparse in 8 configs, against the base (CONFIGS=...)"
	@echo "make clean        remove build/ (refuses if build/linux has unexported commits)"
	@echo "Variables: ACCEL=auto|kvm|tcg  ONLY=boot-glob  TESTS=test-glob  SHOW=n  JOBS=n  FLAVOUR=debug  CONFIGS=\"debian i386\""

deps:
	@$(S)/install-deps.sh

build/linux/.git:
	@$(S)/tree.sh

tree: deps
	@$(S)/tree.sh

export:
	@$(S)/export.sh

FLAVOUR ?= debug
kernel: deps build/linux/.git
	@$(S)/build-kernel.sh $(FLAVOUR)

selftests: deps build/linux/.git
	@$(S)/build-selftests.sh

image: selftests
	@$(S)/build-image.sh

check: deps build/linux/.git
	@$(S)/check-all.sh tests/check.plan

check-long: deps build/linux/.git
	@$(S)/check-all.sh tests/check-long.plan

demo: deps build/linux/.git
	@$(S)/demo.sh

bench: deps build/linux/.git
	@$(S)/bench.sh

lint: deps build/linux/.git
	@$(S)/lint.sh

series: build/linux/.git
	@$(S)/series.sh

bisect-check: deps build/linux/.git
	@$(S)/bisect-check.sh

config-matrix: deps build/linux/.git
	@$(S)/config-matrix.sh

clean:
	@$(S)/clean.sh
