# SPDX-License-Identifier: GPL-2.0
# Shared settings and helpers of the harness scripts.  Sourced, not run.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$ROOT/build
CACHE=${TS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracing-series}
BASE_PKG=linux-source-6.12
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
	gcc:gcc make:make flex:flex bison:bison bc:bc perl:perl rsync:rsync
	patch:patch cpio:cpio xz:xz-utils git:git python3:python3
	/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev
	/usr/lib/x86_64-linux-gnu/libc.a:libc6-dev
	qemu-system-x86_64:qemu-system-x86 /bin/busybox:busybox-static
	perf:linux-perf trace-cmd:trace-cmd
	/usr/include/tracefs/tracefs.h:libtracefs-dev
	/usr/include/traceevent/event-parse.h:libtraceevent-dev
	sparse:sparse gdb:gdb
"
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

# declared_path - install what HARNESS_PKGS lacks, then print a folder of
# links to the programs of the declared packages (less those named in
# $TS_UNDECLARE, which harness-selftest uses to prove the check), of their
# dependencies and of the "required" base.  Made again when dpkg's
# database or the list changes.
declared_path() {
	local pkgs dir key
	# shellcheck disable=SC2086
	need_pkgs $HARNESS_PKGS
	pkgs=$(for p in $HARNESS_PKGS; do echo "${p#*:}"; done |
		grep -vxF -e "${TS_UNDECLARE:-//}" | sort -u | tr '\n' ' ')
	key=$(echo "$pkgs" "$(stat -c %Y /var/lib/dpkg/status)" | sha1sum | cut -c1-12)
	dir=$CACHE/path-$key
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir"
		# shellcheck disable=SC2086
		PATH=$TS_FULL_PATH python3 "$ROOT/harness/declared-path.py" "$dir" $pkgs >&2
		touch "$dir/.done"
	fi
	echo "$dir"
}

if [ -z "${TS_DECLARED_PATH:-}" ]; then
	TS_DECLARED_PATH=$(declared_path)
	export TS_DECLARED_PATH PATH=$TS_DECLARED_PATH
fi

file_static() { ! LC_ALL=C ldd "$1" >/dev/null 2>&1; }

# base_tree - print the pristine base tree: $KSRC, or the unpacked Debian
# linux-source-6.12 package kept in $CACHE.
base_tree() {
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
		(cd "$KSRC" && pwd)
		return
	fi
	local dir=$CACHE/$BASE_PKG tarball=/usr/src/$BASE_PKG.tar.xz
	if [ ! -f "$dir/.unpacked" ]; then
		need_pkgs "$tarball:$BASE_PKG"
		say "unpacking $tarball into $CACHE (once)"
		rm -rf "$dir" && mkdir -p "$CACHE"
		tar -xf "$tarball" -C "$CACHE"
		touch "$dir/.unpacked"
	fi
	echo "$dir"
}

base_version() {
	make -s -C "$1" kernelversion 2>/dev/null
}

# Build variants: where the sources and objects live and which fragments apply.
variant_src() { if [ "$1" = base ]; then base_tree; else echo "$B/src"; fi; }
variant_obj() { echo "$B/obj-$1"; }
variant_fragments() {
	case $1 in
	base) echo "$ROOT/config/tracing.config" ;;
	ours) echo "$ROOT/config/tracing.config $ROOT/config/ours.config" ;;
	debug) echo "$ROOT/config/tracing.config $ROOT/config/ours.config $ROOT/config/debug.config" ;;
	kcsan) echo "$ROOT/config/tracing.config $ROOT/config/ours.config $ROOT/config/kcsan.config" ;;
	*) die "unknown variant $1" ;;
	esac
}
bzimage() { echo "$(variant_obj "$1")/arch/x86/boot/bzImage"; }
