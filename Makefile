# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of the RDMA subsystem.
#
#   make                  build every selected module against KDIR
#   make KDIR=<tree>      ... against another kernel build tree
#   make install          install into /lib/modules/<release>/updates, depmod
#   make deb              the DKMS Debian package (packaging/, README "Install")
#   make abi-check        compare our symbol CRCs with the target's Module.symvers
#   make check            every test (both kernels, in VMs); see README.md
#   make demo             the main job: a VM with our stack loaded
#                         (DEMO_FLAGS="--rxe ours": on our own rdma_rxe)
#   make mutate           do the KUnit suites catch bugs? (not part of check;
#                         MUTATIONS=<list>, MUTATE_FLAGS=<options of
#                         lab/host/mutate.sh>; Documentation/mutation.rst)
#   make fuzz             a long uverbs fuzzer run in the test-kernel VM (not
#                         part of check; FUZZ_FLAGS=<options of
#                         lab/host/fuzz.sh>, e.g. --calls 1000000 --seed 1)
#   make soak             long pingpong/perftest, link and module cycles over
#                         soft RoCE in the test-kernel VM (not part of check;
#                         SOAK_FLAGS=<options of lab/host/soak.sh>, e.g.
#                         --mode links --runs 100, --driver ours)
#   make bench            perftest and rdma_traffic side by side on the in-tree
#                         stack, Debian's rdma_rxe on our core and our rdma_rxe,
#                         in one stock-kernel VM; ratios, CSV and plot under
#                         build/bench/ (not part of check; BENCH_FLAGS=<options
#                         of lab/host/bench.sh>)
#   make defconfig | olddefconfig | menuconfig   choose what builds (Kconfig)
#
# Objects are built in build/<kernel release>/, so builds for several
# kernels live side by side.
#
# "make demo" and "make check" install the kernel headers themselves, so
# nothing that needs a kernel tree may be evaluated while this file is
# read: every such variable is deferred (=), and the targets that build
# stop with a clear message, when they run, if there is no tree.

TOP := $(CURDIR)

# The newest installed Debian headers; looked up once, on first use.
newest_headers = $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n1)
KDIR ?= $(eval KDIR := $(newest_headers))$(KDIR)
TARGET_SYMVERS ?= $(eval TARGET_SYMVERS := $(newest_headers)/Module.symvers)$(TARGET_SYMVERS)

KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
BUILD = $(TOP)/build/$(KREL)

KCONF = $(firstword $(wildcard $(KDIR)/scripts/kconfig/conf) \
		    $(wildcard /usr/lib/linux-kbuild-6.1/scripts/kconfig/conf))
KCONFIG_ENV := srctree=$(TOP) KCONFIG_CONFIG=$(TOP)/.config \
	KCONFIG_AUTOCONFIG=$(TOP)/.kconfig/auto.conf \
	KCONFIG_AUTOHEADER=$(TOP)/.kconfig/autoconf.h \
	KCONFIG_RUSTCCFG=$(TOP)/.kconfig/rustc_cfg

# Expanded in recipes only: stop there, not while parsing.
need_kdir = $(if $(wildcard $(KDIR)/include/generated/utsrelease.h),,$(error \
	no kernel build tree$(if $(KDIR), in KDIR=$(KDIR)): install linux-headers-amd64 \
	or pass KDIR=<kernel build tree>))
need_kconf = $(if $(KCONF),,$(error no kconfig tool: install linux-headers-amd64 \
	(it brings linux-kbuild-6.1) or pass KDIR=<kernel build tree>))

SRC_DIRS := Kbuild core hw uverbs ulp include kunit

# The stack's version (scripts/version.sh: from git, or VERSION in a tree
# without git such as the DKMS package's); every module's MODULE_VERSION.
RDMA_VERSION ?= $(eval RDMA_VERSION := $(shell $(TOP)/scripts/version.sh))$(RDMA_VERSION)
KBUILD_ARGS = -C $(KDIR) M=$(BUILD) KBUILD_SYMTYPES=1 $(if $(C),C=$(C)) $(if $(W),W=$(W))

.PHONY: all modules kbuild install abi-check check demo mutate fuzz soak bench deb deb-check clean \
	package-sources print-krel \
	defconfig olddefconfig menuconfig syncconfig sources kdir

all: modules

.config:
	$(need_kconf)
	@$(KCONFIG_ENV) $(KCONF) --alldefconfig Kconfig >/dev/null

defconfig:
	$(need_kconf)
	@$(KCONFIG_ENV) $(KCONF) --alldefconfig Kconfig

olddefconfig: .config
	@$(KCONFIG_ENV) $(KCONF) --olddefconfig Kconfig

menuconfig: .config
	@$(KCONFIG_ENV) $(TOP)/lab/host/kconfig-tool.sh mconf Kconfig

syncconfig: .config
	@mkdir -p .kconfig
	@cd .kconfig && $(KCONFIG_ENV) $(KCONF) --syncconfig $(TOP)/Kconfig >/dev/null

kdir:
	$(need_kdir)

# Mirror the sources into the per-kernel build directory; kbuild writes its
# objects next to them.
sources: kdir syncconfig
	@mkdir -p $(BUILD)
	@rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude='*.symtypes' --exclude='Module.symvers' \
		--exclude=modules.order \
		$(wildcard $(addprefix $(TOP)/,$(SRC_DIRS))) $(TOP)/.kconfig $(BUILD)/
	@mkdir -p $(BUILD)/generated
	@echo '#define RDMA_VERSION_STRING "$(RDMA_VERSION)"' >$(BUILD)/generated/rdma_version.h.new
	@cmp -s $(BUILD)/generated/rdma_version.h.new $(BUILD)/generated/rdma_version.h || \
		mv $(BUILD)/generated/rdma_version.h.new $(BUILD)/generated/rdma_version.h
	@rm -f $(BUILD)/generated/rdma_version.h.new

modules: sources
	$(MAKE) $(KBUILD_ARGS) modules

# What the DKMS package ships (packaging/mkdeb.sh): the sources "sources"
# mirrors, with what builds them, copied to DEST.
package-sources:
	@test -n "$(DEST)" || { echo "package-sources: DEST=<dir> needed" >&2; exit 1; }
	@mkdir -p $(DEST)/scripts
	@rsync -a --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
		--exclude='*.symtypes' --exclude=__pycache__ \
		$(TOP)/Makefile $(TOP)/Kconfig $(TOP)/VERSION \
		$(wildcard $(addprefix $(TOP)/,$(SRC_DIRS))) $(DEST)/
	@cp $(TOP)/scripts/version.sh $(DEST)/scripts/

print-krel: kdir
	@echo $(KREL)

# kbuild in $(BUILD) as it stands, without mirroring the sources first:
# make mutate edits the mirror and rebuilds it with this.
kbuild: kdir
	$(MAKE) $(KBUILD_ARGS) modules

install: modules
	$(MAKE) $(KBUILD_ARGS) INSTALL_MOD_DIR=updates \
		$(if $(INSTALL_MOD_PATH),INSTALL_MOD_PATH=$(INSTALL_MOD_PATH)) modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KREL)

abi-check: modules
	@python3 $(TOP)/scripts/abi-check.py --ours $(BUILD) \
		--target $(TARGET_SYMVERS) \
		$(if $(ULP_MODULES),--ulp-modules $(ULP_MODULES)) \
		$(if $(REF_SYMTYPES),--ref-symtypes $(REF_SYMTYPES))

# The DKMS package of what Kconfig's defaults select, in build/deb/.
deb: kdir
	@$(TOP)/packaging/mkdeb.sh KDIR=$(KDIR) $(if $(W),W=$(W))

# The package installed, updated to a second kernel and removed in a
# throwaway chroot (lab/host/deb-check.sh; make check skips the update).
deb-check: kdir
	@deb=$$($(MAKE) -s --no-print-directory deb) && \
		$(TOP)/lab/host/deb-check.sh "$$deb" $(BUILD)/deb-modules

check:
	@$(TOP)/lab/host/check.sh

demo:
	@$(TOP)/lab/host/demo.sh $(DEMO_FLAGS)

mutate:
	@$(TOP)/lab/host/mutate.sh $(MUTATE_FLAGS) $(MUTATIONS)

fuzz:
	@$(TOP)/lab/host/fuzz.sh $(FUZZ_FLAGS)

soak:
	@$(TOP)/lab/host/soak.sh $(SOAK_FLAGS)

bench:
	@$(TOP)/lab/host/bench.sh $(BENCH_FLAGS)

clean:
	rm -rf $(TOP)/build $(TOP)/.kconfig
