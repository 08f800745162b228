# SPDX-License-Identifier: GPL-2.0
# Shared settings and helpers of the harness scripts.  Sourced, not run.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The architecture the kernels are built for and booted on: x86_64 (the
# default, the host's), arm64 (cross-built, booted under
# qemu-system-aarch64) or i386 (cross-built only, by make cross).  `make
# check ARCH=arm64` passes ARCH; kbuild is given ARCH and CROSS_COMPILE by
# kmake alone, so the Makefile's variables must not reach it otherwise.
TS_ARCH=${TS_ARCH:-${ARCH:-x86_64}}
[ -n "$TS_ARCH" ] || TS_ARCH=x86_64
unset ARCH CROSS_COMPILE MAKEFLAGS MAKEOVERRIDES MFLAGS
export TS_ARCH
# The base: Debian's linux-source-$KBASE.  KBASE_DEFAULT is the one place
# the series' base version is named.  Every name that depends on the base
# (its packages, its tree in $CACHE, its build folder) derives from KBASE;
# the port to the next release adds its case here and builds beside the
# default with KBASE=VERSION (README, "Moving to the next release").
KBASE_DEFAULT=7.2
KBASE=${KBASE:-$KBASE_DEFAULT}
case $KBASE in
# not in bookworm: fetched from these suites of the machine's Debian
# mirror, with an apt state of the harness's own (base_fetch), the first
# suite that has it (apt's candidate: unstable's unless it is gone)
7.2) KBASE_SUITES="unstable trixie-backports" ;;
*) printf 'error: KBASE=%s: 7.2 is the base\n' "$KBASE" >&2; exit 1 ;;
esac
export KBASE
# build/ holds the x86_64 outputs and the laid-over tree (build/src) every
# architecture compiles; another architecture's kernels, programs, images
# and logs go to build/ARCH/.  Another base than the default builds in
# build/kbase-VERSION/, laid out the same way.
BROOT=$ROOT/build
[ "$KBASE" = "$KBASE_DEFAULT" ] || BROOT=$ROOT/build/kbase-$KBASE
SRC=$BROOT/src
case $TS_ARCH in
x86_64) B=$BROOT KARCH= CROSS= IMAGE=arch/x86/boot/bzImage ;;
arm64) B=$BROOT/arm64 KARCH=arm64 CROSS=aarch64-linux-gnu- IMAGE=arch/arm64/boot/Image ;;
i386) B=$BROOT/i386 KARCH=i386 CROSS=i686-linux-gnu- IMAGE=arch/x86/boot/bzImage ;;
*) printf 'error: ARCH=%s: x86_64, arm64 or i386\n' "$TS_ARCH" >&2; exit 1 ;;
esac
CACHE=${TS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracing-series}
BASE_PKG=linux-source-$KBASE
BASE_CONFIG_PKG=linux-config-$KBASE
JOBS=${JOBS:-$(nproc)}

# Directories of ours that mirror kernel paths and replace base files.
OVERLAY_DIRS="kernel include samples Documentation tools lib"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Every Debian package the harness, kbuild and the VM's clients use, as
# PROBE:PACKAGE; a probe is a command name or an absolute path that exists
# once the package is installed.  This is the one place a new tool is
# declared: harness scripts run with a PATH that holds only the programs of
# these packages, of what they depend on and of Debian's "required" base
# (see declared_path), so a tool used but not declared fails here, not on a
# user's fresh machine.
HARNESS_PKGS="
	gcc:gcc gcov:gcc make:make flex:flex bison:bison bc:bc perl:perl rsync:rsync
	patch:patch cpio:cpio xz:xz-utils git:git python3:python3
	/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev
	/usr/lib/x86_64-linux-gnu/libc.a:libc6-dev
	qemu-system-x86_64:qemu-system-x86 /bin/busybox:busybox-static
	perf:linux-perf trace-cmd:trace-cmd bpftrace:bpftrace
	/usr/include/tracefs/tracefs.h:libtracefs-dev
	/usr/include/traceevent/event-parse.h:libtraceevent-dev
	sparse:sparse gdb:gdb pahole:pahole
	i686-linux-gnu-gcc:gcc-i686-linux-gnu
	/usr/i686-linux-gnu/lib/libc.a:libc6-dev-i386-cross
	aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu
	/usr/aarch64-linux-gnu/lib/libc.a:libc6-dev-arm64-cross
	arm-linux-gnueabihf-gcc:gcc-arm-linux-gnueabihf
	/usr/arm-linux-gnueabihf/lib/libc.a:libc6-dev-armhf-cross
	qemu-system-aarch64:qemu-system-arm
	sphinx-build:python3-sphinx /usr/lib/python3/dist-packages/yaml/__init__.py:python3-yaml
	dot:graphviz
	/usr/src/linux-source-6.1.tar.xz:linux-source-6.1
	apt-get:apt dpkg-deb:dpkg
	/usr/share/keyrings/debian-archive-trixie-automatic.gpg:debian-archive-keyring
"
# Packages that only make bench-lttng needs (lttng-tools, with its session
# daemon and consumer, is big and nothing else uses it): a script that
# needs them sets TS_WITH_LTTNG=1 before sourcing this file, and its
# declared PATH then holds them too.  The tracer, its library and
# babeltrace2 (which counts what LTTng recorded) go into the VM; gnuplot
# draws the plot on the host.
LTTNG_PKGS="
	lttng:lttng-tools lttng-sessiond:lttng-tools
	/usr/include/x86_64-linux-gnu/lttng/tracepoint.h:liblttng-ust-dev
	babeltrace2:babeltrace2 gnuplot:gnuplot-nox
"
# Packages that only make litmus needs, and only to build herd7 (the
# kernel memory model's simulator) from the herdtools7 sources when the
# user has no herd7 and none is built in $CACHE yet: OCaml, dune, menhir
# and zarith.  harness/litmus.sh sets TS_WITH_LITMUS=1 for that build.
LITMUS_PKGS="
	ocamlopt:ocaml-nox dune:ocaml-dune menhir:menhir
	/usr/lib/ocaml/menhirLib/META:libmenhir-ocaml-dev
	/usr/lib/ocaml/zarith/META:libzarith-ocaml-dev
"
# ts_pkgs - the packages this script declares: HARNESS_PKGS, LTTNG_PKGS
# under TS_WITH_LTTNG and LITMUS_PKGS under TS_WITH_LITMUS.
ts_pkgs() {
	echo "$HARNESS_PKGS"
	if [ -n "${TS_WITH_LTTNG:-}" ]; then echo "$LTTNG_PKGS"; fi
	if [ -n "${TS_WITH_LITMUS:-}" ]; then echo "$LITMUS_PKGS"; fi
}
TS_FULL_PATH=${TS_FULL_PATH:-$PATH}
export TS_FULL_PATH

# need_pkgs PROBE:PKG ... - install the packages whose probe fails.
need_pkgs() {
	local want="" p probe pkg
	for p in "$@"; do
		probe=${p%%:*} pkg=${p#*:}
		case $probe in
		/*) [ -e "$probe" ] && continue ;;
		*) PATH=$TS_FULL_PATH command -v "$probe" >/dev/null 2>&1 && continue ;;
		esac
		want="$want $pkg"
	done
	[ -z "$want" ] && return 0
	say "installing:$want"
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages:$want (run as root or install them)"
	fi
	(
		export PATH=$TS_FULL_PATH DEBIAN_FRONTEND=noninteractive
		[ -n "$(find /var/lib/apt/lists -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ] ||
			apt-get update -qq >&2
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $want >&2
	)
}

# declared_path - install what ts_pkgs lacks, then print a folder of
# links to the programs of the declared packages (less those named in
# $TS_UNDECLARE, which harness-selftest uses to prove the check), of their
# dependencies and of the "required" base.  Made again when dpkg's
# database or the list changes.
declared_path() {
	local pkgs dir key
	# shellcheck disable=SC2046
	need_pkgs $(ts_pkgs)
	pkgs=$(for p in $(ts_pkgs); do echo "${p#*:}"; done |
		grep -vxF -e "${TS_UNDECLARE:-//}" | sort -u | tr '\n' ' ')
	key=$(echo "$pkgs" "$(stat -c %Y /var/lib/dpkg/status)" | sha1sum | cut -c1-12)
	dir=$CACHE/path-$key
	# a fresh machine has no cache folder yet
	mkdir -p "$CACHE"
	if [ ! -f "$dir/.done" ]; then
		# Made aside and renamed into place: another harness script
		# may be running with this folder as its PATH, or making it
		local tmp
		tmp=$(mktemp -d "$CACHE/.path-XXXXXX")
		# shellcheck disable=SC2086
		PATH=$TS_FULL_PATH python3 "$ROOT/harness/declared-path.py" "$tmp" $pkgs >&2
		touch "$tmp/.done"
		if ! mv -T "$tmp" "$dir" 2>/dev/null; then
			# another made it meanwhile; or a run died half-way
			[ -f "$dir/.done" ] || { rm -rf "$dir" && mv -T "$tmp" "$dir"; }
			rm -rf "$tmp"
		fi
	fi
	echo "$dir"
}

if [ -z "${TS_DECLARED_PATH:-}" ]; then
	TS_DECLARED_PATH=$(declared_path)
	export TS_DECLARED_PATH PATH=$TS_DECLARED_PATH
fi

file_static() { ! LC_ALL=C ldd "$1" >/dev/null 2>&1; }

# copy_dynamic_into ROOT PROGRAM DEST - install a dynamically linked program
# (or library) of the host at ROOT/DEST, and every library ldd names at its
# host path under ROOT.
copy_dynamic_into() {
	local lib
	install -D -m 755 "$2" "$1$3"
	for lib in $(LC_ALL=C ldd "$2" | grep -o '/[^ ]*'); do
		[ -e "$1$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$1$lib"
	done
}

# debian_mirror - the URI of the Debian archive the machine's apt sources
# name for its own release (a deb822 stanza or a one-line entry), else
# deb.debian.org.
debian_mirror() {
	local codename uri
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
			/etc/apt/sources.list.d/*.list 2>/dev/null | awk -v want="$codename" '
		function flush() {
			if (found && uri != "" && !done) { print uri; done = 1 }
			uri = ""; found = 0
		}
		/^[ \t]*$/ { flush(); next }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want) found = 1 }
		/^deb[ \t]/ {
			flush(); line = $0; sub(/\[[^]]*\]/, "", line); split(line, f, /[ \t]+/)
			if (f[3] == want && !done) { print f[2]; done = 1 }
		}
		END { flush() }')
	echo "${uri:-http://deb.debian.org/debian}"
}

# base_fetch DEBARCH PKG - print the .deb of PKG (for Debian architecture
# DEBARCH) from KBASE_SUITES, fetched once into
# $CACHE/apt-kbase-KBASE-DEBARCH/debs by an apt-get of its own state there
# (kbase_apt).  With no KBASE_SUITES, the machine's own apt sources serve
# PKG.
base_fetch() {
	local darch=$1 pkg=$2 dir=$CACHE/apt-kbase-$KBASE-$1 deb
	deb=$(ls "$dir/debs/${pkg}_"*"_$darch.deb" "$dir/debs/${pkg}_"*_all.deb 2>/dev/null | head -n1 || true)
	if [ -n "$deb" ]; then echo "$deb"; return; fi
	kbase_apt "$dir" deb "$darch"
	mkdir -p "$dir/debs"
	if [ -n "$KBASE_SUITES" ]; then
		say "fetching $pkg ($darch) from $(debian_mirror) $KBASE_SUITES"
		"${KBASE_APT[@]}" update >&2 || die "apt-get update of $KBASE_SUITES failed"
	else
		say "fetching $pkg ($darch) from the machine's apt sources"
	fi
	(cd "$dir/debs" && "${KBASE_APT[@]}" download "$pkg:$darch" >&2) ||
		die "cannot fetch $pkg ($darch)"
	ls "$dir/debs/${pkg}_"*.deb | head -n1
}

# kbase_apt DIR KIND DEBARCH - set KBASE_APT to an apt-get of its own state
# in DIR (its lists, cache, sources and preferences) for KIND (deb or
# deb-src) lines of KBASE_SUITES, so that the machine's apt configuration
# and dpkg are left as they are and nothing is installed; with no
# KBASE_SUITES, the machine's own apt sources.  The suites are read from
# the machine's Debian mirror and checked against Debian's archive keyring
# (debian-archive-keyring, with trixie's keys since bookworm's
# 2023.3+deb12u2: unstable and trixie-backports are signed with them).
kbase_apt() {
	local dir=$1 kind=$2 darch=$3 s
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/parts"
	KBASE_APT=(apt-get -qq -o "APT::Architecture=$darch" -o "APT::Architectures=$darch"
		-o Acquire::Languages=none -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	[ -n "$KBASE_SUITES" ] || return 0
	for s in $KBASE_SUITES; do
		echo "$kind [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $s main"
	done > "$dir/sources.list"
	: > "$dir/preferences"
	# The machine's apt.conf.d is left out too (its hooks would run on the
	# machine's caches), all but how it reaches its mirror (Acquire::,
	# less the index lists: a proxy, a snapshot mirror's
	# Check-Valid-Until).  apt reads apt.conf.d before the command line:
	# APT_CONFIG names an empty folder in its stead.
	echo "Dir::Etc::Parts \"$dir/parts\";" > "$dir/apt.conf"
	KBASE_APT=(env "APT_CONFIG=$dir/apt.conf" "${KBASE_APT[@]}"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/parts"
		-o "Dir::Etc::Preferences=$dir/preferences" -o "Dir::Etc::PreferencesParts=$dir/parts")
	while read -r s; do
		KBASE_APT+=(-o "$s")
	done < <(apt-config dump --format '%f=%v%n' Acquire |
		grep -v -e '^Acquire::IndexTargets' -e '::=' | grep '=.' || true)
}

# base_sparse - print the sparse that checks the base: the machine's when
# the base's scripts/checker-valid.sh takes it, else one built once into
# $CACHE from the source of the newest sparse of KBASE_SUITES (7.2's
# headers use __typeof_unqual__, which bookworm's sparse 0.6.4 does not
# know; its make sparse needs a C compiler only).
base_sparse() {
	local base dir tmp
	base=$(base_tree)
	if [ "$(sh "$base/scripts/checker-valid.sh" sparse 2>/dev/null)" = 1 ]; then
		command -v sparse
		return
	fi
	dir=$CACHE/sparse-kbase-$KBASE
	if [ ! -x "$dir/bin/sparse" ]; then
		[ -n "$KBASE_SUITES" ] || die "the machine's sparse cannot check the base"
		kbase_apt "$CACHE/apt-src-kbase-$KBASE" deb-src "$(dpkg --print-architecture)"
		say "building sparse from its source in $(debian_mirror) $KBASE_SUITES (once)"
		"${KBASE_APT[@]}" update >&2 || die "apt-get update of $KBASE_SUITES (sources) failed"
		tmp=$(mktemp -d "$CACHE/.sparse-XXXXXX")
		(cd "$tmp" && "${KBASE_APT[@]}" source --download-only sparse >&2) ||
			die "cannot fetch the source of sparse"
		tar -xf "$tmp"/sparse_*.orig.tar.* -C "$tmp"
		make -s -C "$tmp"/sparse-*/ sparse >&2 || die "cannot build sparse"
		install -D -m 755 "$tmp"/sparse-*/sparse "$dir/bin/sparse"
		ls "$tmp"/sparse_*.dsc | sed 's|.*/||' > "$dir/source"
		rm -rf "$tmp"
	fi
	[ "$(sh "$base/scripts/checker-valid.sh" "$dir/bin/sparse" 2>/dev/null)" = 1 ] ||
		die "$(cat "$dir/source"): still not a sparse that checks the base"
	echo "$dir/bin/sparse"
}

# base_tree - print the pristine base tree: $KSRC, or the unpacked Debian
# linux-source-$KBASE package kept in $CACHE.  The default base's package
# is installed from the machine's apt sources; another base's is fetched
# by base_fetch and its Debian version kept in $CACHE/linux-source-KBASE.version.
base_tree() {
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
		(cd "$KSRC" && pwd)
		return
	fi
	local dir=$CACHE/$BASE_PKG tarball=/usr/src/$BASE_PKG.tar.xz deb tmp=
	if [ ! -f "$dir/.unpacked" ]; then
		if [ -z "$KBASE_SUITES" ]; then
			need_pkgs "$tarball:$BASE_PKG"
		else
			deb=$(base_fetch "$(dpkg --print-architecture)" "$BASE_PKG")
			mkdir -p "$CACHE"
			tmp=$(mktemp -d "$CACHE/.deb-XXXXXX")
			dpkg-deb -x "$deb" "$tmp"
			tarball=$tmp/usr/src/$BASE_PKG.tar.xz
		fi
		say "unpacking $tarball into $CACHE (once)"
		rm -rf "$dir" && mkdir -p "$CACHE"
		tar -xf "$tarball" -C "$CACHE"
		if [ -n "$tmp" ]; then
			dpkg-deb -f "$deb" Version > "$CACHE/$BASE_PKG.version"
			rm -rf "$tmp"
			say "$BASE_PKG $(cat "$CACHE/$BASE_PKG.version") unpacked in $dir"
		fi
		touch "$dir/.unpacked"
	fi
	echo "$dir"
}

# base_debian_version - the Debian version of the base package (none for
# a KSRC tree).
base_debian_version() {
	[ -z "${KSRC:-}" ] || return 0
	if [ -z "$KBASE_SUITES" ]; then
		dpkg-query -W -f '${Version}' "$BASE_PKG"
	else
		base_tree > /dev/null
		cat "$CACHE/$BASE_PKG.version"
	fi
}

# base_debian_config - print the path of Debian's kernel configuration for
# the base and $TS_ARCH (linux-config-KBASE's generic flavour), fetched
# and unpacked into $CACHE once.
base_debian_config() {
	local darch flavour dir deb
	case $TS_ARCH in
	x86_64) darch=amd64 flavour=amd64 ;;
	arm64) darch=arm64 flavour=arm64 ;;
	i386) darch=i386 flavour=686-pae ;;
	esac
	dir=$CACHE/$BASE_CONFIG_PKG-$darch
	if [ ! -f "$dir/.unpacked" ]; then
		deb=$(base_fetch "$darch" "$BASE_CONFIG_PKG")
		rm -rf "$dir" && mkdir -p "$dir"
		dpkg-deb -x "$deb" "$dir"
		dpkg-deb -f "$deb" Version > "$dir/.version"
		touch "$dir/.unpacked"
	fi
	local conf=$dir/usr/src/$BASE_CONFIG_PKG/config.${darch}_none_$flavour
	[ -f "$conf" ] || xz -dk "$conf.xz" || die "no $flavour configuration in $BASE_CONFIG_PKG ($darch)"
	echo "$conf"
}

base_version() {
	make -s -C "$1" kernelversion 2>/dev/null
}

# base_label - "Linux VERSION, Debian DEBVERSION" of the base (no Debian
# part for a KSRC tree), as the figures files name it.
base_label() {
	local v
	v=$(base_debian_version)
	echo "Linux $(base_version "$(base_tree)")${v:+, Debian $v}"
}

# kmake ARGS... - make for the kernel of $TS_ARCH (cross-compiled unless
# x86_64).
kmake() {
	if [ -n "$KARCH" ]; then
		make ARCH="$KARCH" CROSS_COMPILE="$CROSS" "$@"
	else
		make "$@"
	fi
}

# Build variants: where the sources and objects live and which fragments apply.
variant_src() { case $1 in base) base_tree ;; *) echo "$SRC" ;; esac; }
variant_obj() { echo "$B/obj-$1"; }
# variant_fragments VARIANT - the fragments of VARIANT's kernel, then the
# base's own when it has one (config/kbase-KBASE.config: the options
# another base names otherwise), which wins.
variant_fragments() {
	local kbase=$ROOT/config/kbase-$KBASE.config
	if [ -f "$kbase" ]; then
		echo "$(variant_fragments_of "$1") $kbase"
	else
		variant_fragments_of "$1"
	fi
}
variant_fragments_of() {
	local arch=$ROOT/config/arch-$TS_ARCH.config
	# the fuzzer's kernels: the machine's RTC driver
	local rtc=$ROOT/config/rtc-$TS_ARCH.config
	case $1 in
	base) echo "$ROOT/config/tracing.config $arch" ;;
	ours) echo "$ROOT/config/tracing.config $arch $ROOT/config/ours.config" ;;
	debug) echo "$ROOT/config/tracing.config $arch $ROOT/config/ours.config $ROOT/config/debug.config $rtc" ;;
	coverage) echo "$ROOT/config/tracing.config $arch $ROOT/config/ours.config $ROOT/config/coverage.config" ;;
	kcsan) echo "$ROOT/config/tracing.config $arch $ROOT/config/ours.config $ROOT/config/kcsan.config $rtc" ;;
	# make bench-lttng's
	lttng) echo "$ROOT/config/tracing.config $arch $ROOT/config/ours.config $ROOT/config/lttng.config" ;;
	*) die "unknown variant $1" ;;
	esac
}
# ours_syms VARIANT - the names of the functions of our kernel files in
# VARIANT's objects (without .isra or .constprop suffixes): a KCSAN report
# is ours when one of its stacks passes through one (report.py).
ours_syms() {
	local f o
	for f in $(cd "$ROOT" && owned_files | grep '^kernel/.*\.c$'); do
		o=$(variant_obj "$1")/${f%.c}.o
		[ -f "$o" ] || continue
		nm "$o" | awk '$2 ~ /^[tTwW]$/ { sub(/\..*/, "", $3); print $3 }'
	done | sort -u | grep . || die "no function of ours found in the $1 kernel's objects"
}

# opt_kernels - the kernels make bench and make profile compare: those of
# the tests, built -O2 as Debian builds its kernels (config/tracing.config)
opt_kernels() {
	case ${OPT:-2} in
	2) echo "ours base" ;;
	*) die "OPT=$OPT: every kernel is built -O2 (config/tracing.config)" ;;
	esac
}

# The kernel image QEMU boots (bzImage on x86, Image on arm64).
bzimage() { echo "$(variant_obj "$1")/$IMAGE"; }

# config_check FRAGMENT... - fail naming every option the fragments set
# (the last fragment that names an option wins, as in merge_config.sh)
# that the .config in the current folder does not have.
config_check() {
	awk '
		FILENAME == ".config" { have[$0] = 1; next }
		/^CONFIG_[A-Za-z0-9_]+=/ { n = $0; sub(/=.*/, "", n); want[n] = $0; next }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "unset"; next }
		END {
			bad = 0
			for (n in want) {
				if (want[n] == "unset") {
					if ((n "=y") in have || (n "=m") in have) {
						print "config: " n " is set, the fragments unset it" > "/dev/stderr"; bad = 1
					}
				} else if (!(want[n] in have)) {
					print "config: " want[n] " did not take" > "/dev/stderr"; bad = 1
				}
			}
			exit bad
		}' "$@" .config
}

# foreign_root ARCH PKG... - unpack Debian's packages of another
# architecture (the arm64 VM's busybox, dash and nice) into
# $CACHE/root-ARCH and print that folder.  apt-get fetches them with a
# state of its own in $CACHE/apt-ARCH: the host's dpkg is not told of the
# architecture and installs nothing.
foreign_root() {
	local arch=$1 dir=$CACHE/apt-$1 root=$CACHE/root-$1 p deb
	shift
	local apt=(apt-get -qq -o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs" "$root"
	for p in "$@"; do
		[ -f "$root/.$p" ] && continue
		if [ -z "$(ls "$dir/debs/${p}_"*.deb 2>/dev/null)" ]; then
			[ -n "$(ls "$dir/lists/"*Packages* 2>/dev/null)" ] ||
				PATH=$TS_FULL_PATH "${apt[@]}" update >&2 || die "apt-get update ($arch) failed"
			(cd "$dir/debs" && PATH=$TS_FULL_PATH "${apt[@]}" download "$p" >&2) ||
				die "cannot fetch the $arch package $p"
		fi
		for deb in "$dir/debs/${p}_"*.deb; do
			dpkg-deb -x "$deb" "$root"
		done
		touch "$root/.$p"
	done
	echo "$root"
}

# ftrace_reasons - the reasons of the upstream ftrace tests that do not
# pass on the base (the "PATH: reason" lines read by harness/vm/ftracetest.sh
# and ftrace-table.sh, where a test's first line counts): on a base other
# than the default, its own first, tests/ftrace-kbase-$KBASE.list; those of
# every architecture, tests/ftrace.list; then the VM architecture's own,
# tests/ftrace-$TS_ARCH.list if there is one.
ftrace_reasons() {
	ftrace_kbase_reasons
	cat "$ROOT/tests/ftrace.list"
	if [ -f "$ROOT/tests/ftrace-$TS_ARCH.list" ]; then cat "$ROOT/tests/ftrace-$TS_ARCH.list"; fi
}

# ftrace_kbase_reasons - tests/ftrace-kbase-$KBASE.list on a base other
# than the default, when there is one
ftrace_kbase_reasons() {
	local f=$ROOT/tests/ftrace-kbase-$KBASE.list
	if [ "$KBASE" != "$KBASE_DEFAULT" ] && [ -f "$f" ]; then cat "$f"; fi
}

# owned_files - every file of ours that exists, from the components'
# Files: lines (globs of the work tree expanded), relative to $ROOT, in
# the components' order.
owned_files() {
	local f
	(cd "$ROOT" && for f in $(sed -n 's/^Files: //p' harness/components/*.txt); do
		[ -f "$f" ] && echo "$f"
	done)
}

# The series: harness/components/*.txt, one patch each, in name order.  A
# component file holds the commit subject on its first line, a `Files:`
# line with the paths (globs) of our files and of our patches/ it brings,
# an optional `Checkpatch-ignore:` line, a blank line and the message.
series_components() {
	ls "$ROOT"/harness/components/*.txt | LC_ALL=C sort
}

# component_members COMP - the files COMP brings (its Files: globs expanded
# in the work tree), in the order its Files: line names them.
component_members() {
	local g f
	(cd "$ROOT" && for g in $(sed -n '2,/^$/s/^Files: //p' "$1"); do
		for f in $g; do
			if [ -e "$f" ]; then echo "$f"; fi
		done
	done)
}

# component_without COMP - the patches of later components that COMP lays
# reversed (its `Without:` line, in the order those components apply
# them): what a later patch adds to a file of COMP is taken out of COMP's
# commit, so that a file of ours can grow over several patches while the
# work tree holds it whole.
component_without() {
	local g f
	(cd "$ROOT" && for g in $(sed -n '2,/^$/s/^Without: //p' "$1"); do
		for f in $g; do
			if [ -e "$f" ]; then echo "$f"; fi
		done
	done)
}

# Patches per base.  A patch is written against the default base; on
# another base (KBASE), patches/kbase-KBASE/NNNN-x.patch, when it exists,
# is laid in the place of patches/NNNN-x.patch, and an empty one there
# drops it (the base has that change already).  Such a replacement is not
# named on a Files: line: it belongs to the component of the patch it
# replaces.  A patch that one base alone needs is named on its
# component's Files: line as patches/kbase-KBASE/NNNN-x.patch, with no
# patches/NNNN-x.patch beside it, and is laid on that base only.  The
# default base has no folder of its own and lays patches/*.patch as
# they are.
#
# base_patches - read a component's patches (paths relative to $ROOT),
# print those this base lays, in the same order.
base_patches() {
	local p alt
	while read -r p; do
		case $p in
		patches/kbase-"$KBASE"/*) ;;
		patches/kbase-*/*) continue ;;
		*)
			alt=patches/kbase-$KBASE/${p#patches/}
			if [ "$KBASE" != "$KBASE_DEFAULT" ] && [ -e "$ROOT/$alt" ]; then p=$alt; fi
			;;
		esac
		if [ -s "$ROOT/$p" ]; then echo "$p"; fi
	done
}

# series_patches - the patches this base lays, every component's, as paths
# under $ROOT: patches/*.patch on the default base.
series_patches() {
	local c
	if [ "$KBASE" = "$KBASE_DEFAULT" ]; then
		ls "$ROOT"/patches/*.patch
		return
	fi
	for c in $(series_components); do
		component_members "$c" | grep '^patches/' | base_patches | sed "s|^|$ROOT/|"
	done
}

# kbase_patches_unclaimed - the files of patches/kbase-*/ that neither
# replace a patch of patches/ nor are named by a component.
kbase_patches_unclaimed() {
	local f claimed
	claimed=$(for c in $(series_components); do component_members "$c"; done | grep '^patches/kbase-' || true)
	(cd "$ROOT" && for f in $(find patches -mindepth 2 -type f -path 'patches/kbase-*/*' | LC_ALL=C sort); do
		[ -e "patches/$(basename "$f")" ] && continue
		echo "$claimed" | grep -qxF "$f" || echo "$f"
	done)
}

# laid_components - the components make kernel lays: every one, or with
# UPTO=NNN those up to NNN (the first NNN of a port, built one component
# at a time).
laid_components() {
	local c n
	for c in $(series_components); do
		if [ -n "${UPTO:-}" ]; then
			n=${c##*/} n=${n%%-*}
			[ "$((10#$n))" -le "$((10#$UPTO))" ] || break
		fi
		echo "$c"
	done
}

# lay_component COMP DIR - what COMP does to the tree DIR: its files are
# laid over it, the patches of its Without: line taken out (reversed,
# last first), then its patches applied in the order its Files: line
# names them (those of this base: base_patches).  make kernel (tree.sh)
# and make patches (patches.sh) both lay the components this way, in
# series order, so a patch of one component may change a base file that
# a later component replaces.
#
# A header of ours laid so far keeps only the sections of what is laid
# (harness/header-sections.py); with a third argument, check, a
# declaration laid before the file that defines it fails.
lay_component() {
	local f c n laid owned headers
	for f in $(component_members "$1" | grep -v '^patches/' || true); do
		install -D -m 644 "$ROOT/$f" "$2/$f"
	done
	# "NNN FILE" for every file of ours and the number of its component,
	# "NNN PATCH" for the patches each component applies and those it
	# lays reversed (its Without: line), made once per run
	if [ -z "${LAY_OWNERS:-}" ]; then
		LAY_OWNERS=$(mktemp) LAY_WITHOUT=$(mktemp) LAY_PATCHES=$(mktemp)
		for c in $(series_components); do
			n=${c##*/} n=${n%%-*}
			component_members "$c" | grep -v '^patches/' | sed "s|^|$n |" || true
			component_without "$c" | base_patches | sed "s|^|$n |" >> "$LAY_WITHOUT" || true
			component_members "$c" | grep '^patches/' | base_patches |
				sed "s|^|$n |" >> "$LAY_PATCHES" || true
		done > "$LAY_OWNERS"
	fi
	laid=$(mktemp) owned=$(mktemp) n=${1##*/} n=${n%%-*}
	awk -v n="$n" '$1 + 0 <= n + 0 { print $2 }' "$LAY_OWNERS" > "$laid"
	awk '{ print $2 }' "$LAY_OWNERS" > "$owned"
	headers=$(python3 "$ROOT/harness/header-sections.py" "$ROOT" "$2" "$laid" "$owned" ${3:+--$3}) ||
		die "$(basename "$1"): a header of ours declares what is not laid yet"
	rm -f "$laid" "$owned"
	# The headers just laid again hold what the Without: patches of
	# earlier components took out of them, until their own component
	# applies them: take it out again.
	for f in $(without_pending "$n" | tac); do
		for c in $headers; do
			patch_part "$ROOT/$f" "$c" > "$2.part"
			if [ -s "$2.part" ]; then
				patch -R -s -p1 -d "$2" --no-backup-if-mismatch < "$2.part" ||
					die "$f does not come out of $c reversed at $(basename "$1")"
			fi
		done
		rm -f "$2.part"
	done
	for f in $(component_without "$1" | base_patches | tac || true); do
		patch -R -s -p1 -d "$2" --no-backup-if-mismatch < "$ROOT/$f" ||
			die "$f does not come out of $(basename "$1") reversed"
	done
	for f in $(component_members "$1" | grep '^patches/' | base_patches || true); do
		patch -s -p1 -d "$2" --no-backup-if-mismatch < "$ROOT/$f" ||
			die "$f ($(basename "$1")) does not apply"
	done
}

# without_pending N - the patches that a component before N lays reversed
# and that N or a later component applies, in the order they apply.
without_pending() {
	awk -v n="$1" 'NR == FNR { if ($1 + 0 < n + 0) w[$2] = 1; next }
		$1 + 0 >= n + 0 && ($2 in w) { print $2 }' "$LAY_WITHOUT" "$LAY_PATCHES"
}

# patch_part PATCH FILE - the part of the unified diff PATCH that changes
# FILE (nothing when it does not)
patch_part() {
	awk -v f="$2" '
	/^--- / { hdr = $0; if ((getline nxt) > 0 && nxt ~ /^\+\+\+ /) {
			p = hdr; sub(/^--- (a\/)?/, "", p); sub(/[\t ].*/, "", p)
			on = (p == f)
		}
		if (on) { print hdr; print nxt }
		next }
	on { print }' "$1"
}

# patch_targets PATCH... - the files the patches create, change or delete
# (a deletion has only "--- a/").
patch_targets() {
	local p
	for p in "$@"; do
		sed -n 's|^[-+][-+][-+] [ab]/\([^	 ]*\).*|\1|p' "$p"
	done | LC_ALL=C sort -u
}

# stage_series DIR - lay the whole series in DIR: the base's version of
# every file the series touches, then every component in order (up to
# UPTO: laid_components).  DIR then holds what make kernel copies over the
# base tree; a file the series deletes is absent.
stage_series() {
	local base f c
	base=$(base_tree)
	for f in $( (owned_files | grep -v '^patches/'; patch_targets $(series_patches)) |
			LC_ALL=C sort -u); do
		if [ -f "$base/$f" ]; then install -D -m 644 "$base/$f" "$1/$f"; fi
	done
	for c in $(laid_components); do
		lay_component "$c" "$1"
	done
}

# owned_kernel_sources - the C files of ours under kernel/, less the
# KUnit suites: the code the coverage variant profiles and make coverage
# measures.
owned_kernel_sources() {
	owned_files | grep '^kernel/.*\.c$' | grep -v '_kunit\.c$' | sort -u
}

# variant_make_args VARIANT - what kbuild is given for this variant on top
# of the configuration.  The coverage kernel profiles our files alone
# (GCOV_PROFILE_<stem>.o=y on the command line, which kbuild reads for
# every object of that name; ours are the only ones with their names),
# so the patches and the other variants build exactly as before.
variant_make_args() {
	local f
	[ "$1" = coverage ] || return 0
	for f in $(owned_kernel_sources); do
		f=${f##*/}
		echo "GCOV_PROFILE_${f%.c}.o=y"
	done
}
