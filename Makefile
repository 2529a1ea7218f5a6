# schedlab: every user-facing command.  "make help" lists them.
#
# Paths (override on the command line):
#   BUILD  build folder, git-ignored           (default: ./build)
#   KSRC   the student's kernel tree           (default: $(BUILD)/linux)
#   OBJ    its out-of-tree build folder        (default: $(BUILD)/obj)
#   LAB    one lab (or several: LAB="1 2")     (default: all)
#   TEST   one test of those labs, alone         (default: every test)
#   SEED   the seed of the random scenarios       (default: a new one each boot)
#   DURATIONS  make grade also lists the N slowest tests (0: all timed ones)
#   V=1    show every command of the kernel build (default: a progress line)

BUILD ?= $(CURDIR)/build
KSRC ?= $(BUILD)/linux
OBJ ?= $(BUILD)/obj
LAB ?=
OUT ?= $(BUILD)/results
export BUILD KSRC
# The kernel builds' compiler cache (grader/lib.sh: KERNEL_CC), its paths
# relative to the kit: a second tree or kit copy reuses the first's objects.
# Its depend mode never runs the preprocessor twice (a cold build costs
# about a tenth more than without the cache, not a quarter).
CCACHE_DIR ?= $(BUILD)/ccache
CCACHE_BASEDIR ?= $(CURDIR)
CCACHE_DEPEND ?= 1
export CCACHE_DIR CCACHE_BASEDIR CCACHE_DEPEND
# A course's kit (make release) holds the starter tree's files in starter/
# and nothing only instructors need: no reference solutions, no grading of
# submissions, no releases.
STUDENT_KIT := $(wildcard starter)
ifneq ($(STUDENT_KIT),)
ifdef SUBMISSION
$(error SUBMISSION=: not in a course's kit; make grade grades your own tree)
endif
endif

SHELL := /bin/bash
# A lab is a folder with a lab.conf (one being written has none yet).
LAB_DIRS := $(sort $(patsubst %/lab.conf,%,$(wildcard labs/[0-9][0-9]-*/lab.conf)))
LAB_NUMS := $(foreach d,$(LAB_DIRS),$(firstword $(subst -, ,$(notdir $(d)))))
LABS := $(sort $(if $(LAB),$(foreach n,$(LAB),$(shell printf %02d $$((10#$(n))))),$(LAB_NUMS)))

SYSROOT := $(BUILD)/sysroot
CROSS_CC := aarch64-linux-gnu-gcc
# Only arm64 headers: the compiler's own, the arm64 C library's
# (libc6-dev-arm64-cross) and the sysroot's (check).  Without -nostdinc the
# cross compiler also searches the host's /usr/include.
TEST_CFLAGS = -O2 -Wall -Wextra -Wno-unused-parameter -Werror=unused-result -static -nostdinc \
	-isystem $(shell $(CROSS_CC) -print-file-name=include) \
	-isystem /usr/aarch64-linux-gnu/include -I$(SYSROOT)/usr/include -Ilabs/lib
TEST_LIBS := -L$(SYSROOT)/usr/lib/aarch64-linux-gnu -lcheck -lsubunit -lm -lrt -lpthread
HOST_CFLAGS := -O2 -Wall -Wextra -Werror

.PHONY: help setup build grade grade-all gradescope reference release test coverage bench clean tools tests initramfs \
	shell gdb console image

help:
	@echo "schedlab - capacity-aware SCHED_DEADLINE and uclamp labs"
	@echo
	@echo "  make setup            install what is missing, set up the kernel tree ($(KSRC))"
	@echo "  make build            build the kernel of that tree (log: $(OBJ)/build.log)"
	@echo "  make grade [LAB=N] [TEST=name]  build, boot in QEMU and score every lab (or lab N,"
	@echo "                        or one test); make says 'Error 1' when a test failed, 'Error 2'"
	@echo "                        when the grader failed (and exits 2 for both, as make does);"
	@echo "                        the grader's own status, 0 1 or 2, is in $(OUT)/status;"
	@echo "                        SEED=n replays a random scenario a failure named"
	@echo "                        DURATIONS=N also lists the N slowest tests (0: all)"
	@echo "  make shell [LAB=N]    your kernel on lab N's machine, a shell on its console"
	@echo "  make gdb [LAB=N]      the same boot under gdb (a debug build, $(BUILD)/obj-debug);"
	@echo "                        'make console' in another terminal is its console"
ifeq ($(STUDENT_KIT),)
	@echo "  make grade SUBMISSION=path  grade a patch, a folder of patches or a bundle;"
	@echo "    a student's repository with SUBMISSION_KIND=repo [BRANCH=b] (sandboxed: grader/README.md)"
	@echo "  make grade-all SUBMISSIONS=dir [J=n]  grade a class; gradebook in $(OUT)/batch"
	@echo "    (any grade: HIDDEN_TESTS=dir adds an instructor's own tests, reported apart)"
	@echo "  make reference [LAB=N] commit the reference solution(s) onto your tree"
	@echo "  make gradescope       build/gradescope/autograder.zip (Gradescope autograder)"
	@echo "  make release OUT=dir  a course's kit for its students: no solutions, and a tree"
	@echo "                        whose history starts at the starter"
	@echo "  make test [PARTS=..]  the kit's own test suite (starter scores 0, reference full,"
	@echo "                        every mutant killed; parts: grader/selftest/run.sh)"
	@echo "  make coverage [LAB=N] the lines the reference patches add that no public test runs"
	@echo "                        (gcov in kernel/sched/ of a tree of its own: $(BUILD)/coverage)"
	@echo "  make bench [RUNS=3] [FLAKE=n]  what grading costs, beside the bare make Image;"
	@echo "                        FLAKE=n also grades the reference n times in a row;"
	@echo "                        GRADESCOPE=\"0.5 1\" instead: run_autograder in podman at those"
	@echo "                        CPU shares (MEMORY=768m), RUNS uploads each (GS_WHO=reference:"
	@echo "                        the reference's only)"
else
	@echo "  make test             this course's kit on this machine: the grader's own tests, and"
	@echo "                        the starter scores 0 on every lab (it has no solutions to check)"
endif
	@echo "  make image            the kit's container image (Containerfile), with podman"
	@echo "                        (ENGINE=docker: docker); README.md says how to use it"
	@echo "  make clean            remove build outputs (keeps the kernel tree and sysroot)"
	@echo "  V=1                   with build, grade, shell, gdb: every compiler command"
	@echo
	@echo "  Your work is 'git -C $(KSRC) diff starter'.  Results: $(OUT)/"

# ---- stage 0-1: machine and tree --------------------------------------------
setup: $(BUILD)/host.ok
	@grader/prepare-tree.sh

$(BUILD)/host.ok: grader/setup-host.sh grader/setup-check.c
	@grader/setup-host.sh

# The program setup-host.sh builds to prove the cross compiler works.
$(BUILD)/setup-check/check-program: grader/setup-check.c
	@mkdir -p $(@D)
	@$(CROSS_CC) $(TEST_CFLAGS) -o $@ $< $(TEST_LIBS)

# ---- stage 3: kernel ----------------------------------------------------------
build: setup
	@grader/build-kernel.sh $(KSRC) $(OBJ)

# ---- host tools: parser, report writer, timeline renderer, similarity, -----
# ---- the cleaner of a build's messages,                                 -----
# ---- the launcher every boot runs QEMU with, the sandbox's no-network -------
QEMU_LAUNCHER := $(BUILD)/grader/small-pages
# The sandbox's uid isolation runs each stage through no-network.
LAUNCHERS := $(QEMU_LAUNCHER) $(BUILD)/grader/no-network
TOOLS := $(BUILD)/grader/parse $(BUILD)/grader/report $(BUILD)/grader/timeline \
	$(BUILD)/grader/similarity $(BUILD)/grader/clean $(LAUNCHERS)
tools: $(TOOLS)
$(BUILD)/grader/%: grader/%.c grader/results.c grader/results.h
	@mkdir -p $(@D)
	@gcc $(HOST_CFLAGS) -o $@ $< grader/results.c
$(LAUNCHERS): $(BUILD)/grader/%: grader/%.c
	@mkdir -p $(@D)
	@gcc $(HOST_CFLAGS) -o $@ $<

# ---- stage 4: test binaries and the initramfs -------------------------------
# The guest's init (initramfs/init.c); test binaries and it are stripped:
# the kernel unpacks every byte of the archive at each boot.
INIT := $(BUILD)/initramfs/init
$(INIT): initramfs/init.c labs/lib/rqclamp.c labs/lib/rqclamp.h $(BUILD)/host.ok
	@mkdir -p $(@D)
	@$(CROSS_CC) $(TEST_CFLAGS) -Ilabs/lib -s -o $@ initramfs/init.c labs/lib/rqclamp.c

# A suite binary is a folder's .c files linked with labs/lib/; NAME.tests
# lists its tests (every sl_add_test), which the parser expects to see.
# SUITE_RULES(binary, sources[, what else both depend on])
define SUITE_RULES
$(1): $(2) $(wildcard labs/lib/*) $(BUILD)/host.ok $(3)
	@mkdir -p $$(@D)
	@$(CROSS_CC) $$(TEST_CFLAGS) -s -o $$@ $(2) $(wildcard labs/lib/*.c) $(TEST_LIBS)
$(1).tests: $(2) $(3)
	@mkdir -p $$(@D)
	@sed -n 's/.*sl_add_test([^,]*, *\([A-Za-z0-9_]*\)).*/\1/p' $(2) >$$@
endef
$(foreach n,$(LAB_NUMS),$(eval $(call SUITE_RULES,$(BUILD)/tests/lab$(n),$(wildcard labs/$(n)-*/tests/*.c))))
TEST_BINS := $(foreach n,$(LAB_NUMS),$(BUILD)/tests/lab$(n) $(BUILD)/tests/lab$(n).tests)
tests: $(TEST_BINS)

# HIDDEN_TESTS=dir: an instructor's tests the students do not have, one
# folder a lab (dir/NN/*.c, each defining lab_suite()), graded in the same
# boot as the lab and reported apart.  They go into an initramfs of their own.
ifdef HIDDEN_TESTS
HIDDEN_NUMS := $(filter $(LAB_NUMS),$(notdir $(wildcard $(HIDDEN_TESTS)/[0-9][0-9])))
# The folder the hidden binaries were last built from: another one rebuilds
# them, even when its files are older than those binaries.
HIDDEN_SOURCE := $(BUILD)/hidden.source
$(shell mkdir -p "$(BUILD)" && { [ "$$(cat "$(HIDDEN_SOURCE)" 2>/dev/null)" = "$(abspath $(HIDDEN_TESTS))" ] || \
	echo "$(abspath $(HIDDEN_TESTS))" >"$(HIDDEN_SOURCE)"; })
$(foreach n,$(HIDDEN_NUMS),$(eval $(call SUITE_RULES,$(BUILD)/hidden/hidden$(n),$(wildcard $(HIDDEN_TESTS)/$(n)/*.c),$(HIDDEN_SOURCE))))
HIDDEN_BINS := $(foreach n,$(HIDDEN_NUMS),$(BUILD)/hidden/hidden$(n) $(BUILD)/hidden/hidden$(n).tests)
INITRAMFS := $(BUILD)/initramfs-hidden.cpio
$(INITRAMFS): $(TEST_BINS) $(HIDDEN_BINS) $(INIT) initramfs/build.sh
	@rm -f $(filter-out $(HIDDEN_BINS),$(wildcard $(BUILD)/hidden/hidden*))
	@initramfs/build.sh base $@ $(INIT) $(BUILD)/tests $(BUILD)/hidden
export HIDDEN_DIR := $(BUILD)/hidden
else
INITRAMFS := $(BUILD)/initramfs.cpio
endif
$(BUILD)/initramfs.cpio: $(TEST_BINS) $(INIT) initramfs/build.sh
	@initramfs/build.sh base $@ $(INIT) $(BUILD)/tests
export INITRAMFS
initramfs: $(INITRAMFS)

# make shell's initramfs: grading's (the kit's tests only), and busybox,
# util-linux's chrt, taskset and uclampset, rt-app and trace-cmd with their
# libraries, the guest's shell.sh, each lab's shell.txt (what to try).
$(BUILD)/shell-root/.done: grader/shell-root.sh $(BUILD)/host.ok
	@rm -f $@
	@grader/shell-root.sh
SHELL_INITRAMFS := $(BUILD)/initramfs-shell.cpio
$(SHELL_INITRAMFS): $(BUILD)/initramfs.cpio $(BUILD)/shell-root/.done initramfs/build.sh \
		initramfs/shell.sh $(wildcard initramfs/rt-app/*.json labs/*/shell.txt)
	@initramfs/build.sh shell $@ $< $(BUILD)/shell-root $(BUILD)/tests

# ---- stages 5-7: boot, parse, report ----------------------------------------
# $(call shq,VAR): VAR's value exactly as given, quoted for the shell and
# never expanded by make: a submission's name (spaces, ";", "$(...)",
# quotes, newlines) reaches the grader as it is.
define newline


endef
shq = '$(subst $(newline),'$$'\n'',$(subst ','\'',$(value $(1))))'
# The grader's exit status: 0 every test passed, 1 a test failed, 2 the
# grader failed.  Make itself can only exit 2 for a failed recipe, but it
# names the recipe's status ("Error 1", "Error 2"); the status is also kept
# in $(OUT)/status for scripts and CI.
STATUS_BEGIN = mkdir -p "$(OUT)"; rm -f "$(OUT)/status"; st=0;
STATUS_END = || st=$$?; [ $$st -le 2 ] || st=2; echo $$st >"$(OUT)/status"; exit $$st
grade: setup initramfs tools
ifdef SUBMISSION
	@$(STATUS_BEGIN) grader/grade-submission.sh --submission $(call shq,SUBMISSION) --out "$(OUT)" \
		--labs "$(LABS)" $(if $(value BRANCH),--branch $(call shq,BRANCH)) \
		$(if $(value SUBMISSION_KIND),--kind $(call shq,SUBMISSION_KIND)) $(if $(TEST),--test "$(TEST)") \
		$(if $(SEED),--seed "$(SEED)") $(STATUS_END)
else
	@$(STATUS_BEGIN) grader/grade.sh --src "$(KSRC)" --obj "$(OBJ)" --out "$(OUT)" --labs "$(LABS)" \
		$(if $(TEST),--test "$(TEST)") $(if $(SEED),--seed "$(SEED)") \
		$(if $(DURATIONS),--durations "$(DURATIONS)") $(STATUS_END)
endif

test: setup initramfs tools
	@grader/selftest/run.sh $(PARTS)

# ---- looking inside: a shell on the kernel under test, gdb on it -------------
# One lab's machine (default: lab 1).
shell: setup $(SHELL_INITRAMFS) $(QEMU_LAUNCHER)
	@grader/explore.sh shell $(or $(LAB),1)

gdb: setup $(SHELL_INITRAMFS) $(QEMU_LAUNCHER)
	@grader/explore.sh gdb $(or $(LAB),1)

console:
	@grader/explore.sh console

# ---- the kit's container image ------------------------------------------------
image:
	@grader/container.sh build

ifeq ($(STUDENT_KIT),)
grade-all: setup initramfs tools
	@[ -n $(call shq,SUBMISSIONS) ] || { echo "usage: make grade-all SUBMISSIONS=dir [J=n]"; exit 2; }
	@grader/grade-all.sh --submissions $(call shq,SUBMISSIONS) --out "$(OUT)/batch" --labs "$(LABS)" \
		$(if $(value J),-j $(call shq,J)) $(if $(value SUBMISSION_KIND),--kind $(call shq,SUBMISSION_KIND))

reference: setup
	@grader/reference.sh $(LABS)

gradescope: setup
	@grader/gradescope/pack.sh $(BUILD)/gradescope/autograder.zip

release: setup
	@[ "$(origin OUT)" != file ] || { echo "usage: make release OUT=dir"; exit 2; }
	@grader/release.sh "$(OUT)"

coverage: setup initramfs tools
	@grader/coverage.sh $(LABS)

bench: setup initramfs tools
	@FLAKE="$(FLAKE)" CLASS="$(CLASS)" GRADESCOPE="$(GRADESCOPE)" GS_WHO="$(GS_WHO)" MEMORY="$(or $(MEMORY),768m)" grader/bench.sh $(RUNS)
else
grade-all reference gradescope release coverage bench:
	@echo "make $@: not in a course's kit (no solutions; your instructor grades submissions)"; exit 2
endif

clean:
	rm -rf $(OBJ) $(BUILD)/obj-debug $(BUILD)/tests $(BUILD)/hidden $(BUILD)/grader \
		$(BUILD)/initramfs $(BUILD)/initramfs*.cpio $(OUT) $(BUILD)/dtb $(BUILD)/shell $(BUILD)/gdb
