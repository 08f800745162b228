# SPDX-License-Identifier: GPL-2.0
# The project's entry points; each target runs a script under harness/.
# See README.md.

H := harness
# ARCH=arm64 builds and boots the arm64 kernel (see README); the scripts
# read it from TS_ARCH and hand kbuild ARCH and CROSS_COMPILE themselves.
export TS_ARCH := $(ARCH)
# KBASE=7.2 takes Debian's linux-source-7.2 as the base (the port in
# progress; harness/lib.sh); the scripts read it from the environment.

.PHONY: all kernel kernel-base kernel-debug run shell check check-debug \
	compare bench bench-lttng profile patches checkpatch w1 harness-selftest ftrace-table \
	reference unused-events fuzz litmus kunit \
	fuzz-min fuzz-planted stress coverage wide cross bisect htmldocs clean

all: check

kernel:
	@$(H)/build-kernel.sh ours

kernel-base:
	@$(H)/build-kernel.sh base

kernel-debug:
	@$(H)/build-kernel.sh debug

run:
	@$(H)/run.sh

shell:
	@$(H)/run.sh shell

check:
	@$(H)/check.sh ours "$(T)"

check-debug:
	@$(H)/check.sh debug "$(T)"

kunit:
	@$(H)/kunit.sh

compare:
	@$(H)/compare.sh "$(SCRIPT)"

bench:
	@BENCH="$(BENCH)" OPT="$(OPT)" $(H)/bench.sh

bench-lttng:
	@$(H)/bench-lttng.sh

profile:
	@PROF_COND='$(value COND)' OPT="$(OPT)" $(H)/profile.sh "$(SCRIPT)" "$(FUNC)" "$(BASE_FUNC)"

patches:
	@$(H)/patches.sh

checkpatch:
	@$(H)/checkpatch.sh

harness-selftest:
	@$(H)/selftest.sh

ftrace-table:
	@$(H)/ftrace-table.sh

litmus:
	@$(H)/litmus.sh

reference:
	@TS_REFERENCE_AGAIN=1 $(H)/base-reference.sh

fuzz:
	@SEED="$(SEED)" N="$(N)" T="$(T)" J="$(J)" E="$(E)" REPLAY="$(REPLAY)" STOP="$(STOP)" \
		KEEP="$(KEEP)" SERIAL="$(SERIAL)" $(H)/fuzz.sh

fuzz-min:
	@REPLAY="$(REPLAY)" TRIES="$(TRIES)" $(H)/fuzz-min.sh

fuzz-planted:
	@SEED="$(SEED)" N="$(N)" T="$(T)" PLANT="$(PLANT)" $(H)/fuzz-planted.sh

unused-events:
	@$(H)/unused-events.sh

stress:
	@KCSAN="$(KCSAN)" $(H)/stress.sh

coverage:
	@SEED="$(SEED)" N="$(N)" T="$(T)" J="$(J)" E="$(E)" FUZZ="$(FUZZ)" $(H)/coverage.sh

w1:
	@$(H)/w1.sh

wide:
	@$(H)/wide.sh

cross:
	@$(H)/cross.sh

bisect:
	@$(H)/bisect.sh

htmldocs:
	@$(H)/htmldocs.sh

clean:
	rm -rf build
