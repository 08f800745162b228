#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh VARIANT - configure and build bzImage for ours, base, debug,
# coverage, kcsan or lttng.
. "$(dirname "$0")/lib.sh"

variant=${1:?variant}
src=$(variant_src "$variant")
[ "$src" != "$SRC" ] || "$ROOT/harness/tree.sh"
obj=$(variant_obj "$variant")
frags=$(variant_fragments "$variant")
# shellcheck disable=SC2207
margs=($(variant_make_args "$variant"))
# The base is named with its Debian version, which base_fetch chose, and
# keeps it beside its objects.
debver=
if [ -z "${KSRC:-}" ]; then
	debver=$(base_debian_version)
fi
say "$variant kernel: base $BASE_PKG, version $(base_version "$src")${debver:+ (Debian $debver)}, objects in ${obj#$ROOT/}"
mkdir -p "$obj"
if [ -n "$debver" ]; then echo "$BASE_PKG $debver" > "$obj/.ts-base"; fi

stamp=$(cat $frags | sha1sum | cut -c1-16)
# UPTO=NNN lays the first components only (tree.sh): the options of the
# later ones are not in its Kconfig yet, and it is configured again when
# UPTO moves.
if [ -n "${UPTO:-}" ]; then stamp="$stamp upto $UPTO"; fi
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.ts-config" 2>/dev/null)" != "$stamp" ]; then
	say "configuring ($TS_ARCH): tinyconfig + $(for f in $frags; do printf '%s ' "${f#$ROOT/}"; done)"
	kmake -s -C "$src" O="$obj" tinyconfig >/dev/null
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >/dev/null
	kmake -s -C "$src" O="$obj" olddefconfig >/dev/null
	# shellcheck disable=SC2086
	if [ -n "${UPTO:-}" ]; then
		(cd "$obj" && config_check $frags) || say "UPTO=$UPTO: the options above come later"
	else
		(cd "$obj" && config_check $frags) || die "the configuration fragment does not apply"
	fi
	echo "$stamp" > "$obj/.ts-config"
fi

# build_modules SRC OBJ - when the configuration has modules, build them and
# gather every .ko into OBJ/modules/ (flat) for the VM's initramfs.
build_modules() {
	rm -rf "$2/modules"
	grep -qx 'CONFIG_MODULES=y' "$2/.config" || return 0
	grep -q '=m$' "$2/.config" || return 0
	say "building modules"
	if ! kmake -C "$1" O="$2" -j"$JOBS" ${margs[@]+"${margs[@]}"} modules >> "$2/build.log" 2>&1; then
		grep -E 'error|Error' "$2/build.log" | head -n 40 >&2
		die "module build failed, see ${2#$ROOT/}/build.log"
	fi
	mkdir -p "$2/modules"
	find "$2" \( -path "$2/modules" -o -path "$2/kmod-*" \) -prune -o -name '*.ko' -print | xargs -r cp -t "$2/modules"
}

# out_of_tree_modules SRC OBJ DIR - the modules of DIR (bench/kmod, the
# benchmarks', and tests/kmod, the tests'), built out of tree against
# this kernel, so that one source serves every kernel.
out_of_tree_modules() {
	local dst=$2/kmod-$(basename "$(dirname "$3")")
	[ -d "$2/modules" ] || return 0
	rm -rf "$dst" && cp -r "$3" "$dst"
	if ! kmake -C "$1" O="$2" M="$dst" modules >> "$2/build.log" 2>&1; then
		grep -E 'error|Error' "$2/build.log" | head -n 40 >&2
		die "${3#$ROOT/} build failed, see ${2#$ROOT/}/build.log"
	fi
	cp "$dst"/*.ko "$2/modules/"
}

say "building ${IMAGE##*/} (make -j$JOBS)"
log=$obj/build.log
if ! kmake -C "$src" O="$obj" -j"$JOBS" ${margs[@]+"${margs[@]}"} "${IMAGE##*/}" > "$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 40 >&2
	die "kernel build failed, see ${log#$ROOT/}"
fi
grep -E '(warning|error):' "$log" >&2 || true
build_modules "$src" "$obj"
out_of_tree_modules "$src" "$obj" "$ROOT/bench/kmod"
out_of_tree_modules "$src" "$obj" "$ROOT/tests/kmod"
kmake -s -C "$src" O="$obj" headers_install > /dev/null
say "kernel ready: $(bzimage "$variant")"
