#!/bin/sh
# Builds the Debian package touchline_VERSION_ARCH.deb (issue 35): what scripts/install.sh
# installs with --prefix /usr (the release binary as install.sh builds it, both systemd units,
# the udev rules with the uinput one inactive, the inert config, the examples, the docs, the
# manual pages and completions generated from the binary), with the maintainer scripts of
# packaging/debian/: they create the user and group `touchline`, reload udev and systemd and
# leave the service disabled; removing stops it; purging removes the config, the user and the
# group (packaging/README.md, "The Debian package").
#
#   scripts/package-deb.sh [--binary PATH] [--output DIR] [--lintian]
#
# --binary PATH  package this binary instead of building the release one (CI's VM test packages
#                its debug build: a package for that machine only, its Swift runtime not linked in)
# --output DIR   where the .deb goes (default .build-deb/); its path is the last line printed
# --lintian      then check it with lintian (apt install lintian): exit 1 on any error
#
#   sudo apt install ./.build-deb/touchline_0.1.0_amd64.deb
set -eu
umask 022
root=$(cd "$(dirname "$0")/.." && pwd)
binary=
out=$root/.build-deb
lint=0
usage() { echo "usage: $0 [--binary PATH] [--output DIR] [--lintian]" >&2; exit 64; }
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
        --binary=*) binary=${1#*=}; shift ;;
        --output) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --output=*) out=${1#*=}; shift ;;
        --lintian) lint=1; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done
for tool in dpkg-deb dpkg-shlibdeps; do
    command -v $tool >/dev/null 2>&1 || { echo "$0: needs $tool (apt install dpkg-dev)" >&2; exit 69; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -z "$binary" ]; then
    # Minutes with nothing on the terminal looked like a hang to a new user (issue 35): say
    # what runs, for how long, and where its progress is; on a failure show the compiler's end.
    log=$out/build.log
    echo "$0: building the release binaries (about 4 min on two idle cores with a fresh clone, far longer on a busy machine); progress: tail -f $log" >&2
    : > "$log"
    for product in touchline touchline-view; do
        # As install.sh builds them: the Swift runtime linked in, their own scratch path;
        # touchline-view is `touchline view`'s server, installed beside touchline (docs/view.md).
        start=$(date +%s)
        (cd "$root" && swift build -c release --product $product --static-swift-stdlib --scratch-path .build-static) >> "$log" 2>&1 \
            || { tail -n 20 "$log" >&2; echo "$0: swift build of $product failed (all of it in $log)" >&2; exit 1; }
        echo "$0: built $product in $(($(date +%s) - start)) s" >&2
    done
    binary=$root/.build-static/release/touchline
fi
[ -x "$binary" ] || { echo "$0: $binary is not an executable" >&2; exit 66; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

version=$("$binary" --version)
arch=$(dpkg --print-architecture)
stage=$out/touchline_${version}_$arch
rm -rf "$stage"
mkdir -p "$stage"
# Silent too, and on a fresh clone not short: the manual pages' generator is built once.
echo "$0: staging the files with install.sh, manual pages and completions from the binary (the pages' generator, swift-argument-parser's generate-manual, is built the first time: a minute or more)" >&2
sh "$root/scripts/install.sh" --prefix /usr --destdir "$stage" --binary "$binary" > "$out/install.log" 2>&1 \
    || { cat "$out/install.log" >&2; echo "$0: install.sh into $stage failed" >&2; exit 1; }

doc=$stage/usr/share/doc/touchline
install -m 0644 "$root/packaging/debian/copyright" "$doc/copyright"
# A native package's changelog (policy 12.7), gzipped without name or time.
when=$(git -C "$root" log -1 --format=%cD 2>/dev/null || date -R)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf 'touchline (%s) unstable; urgency=medium\n\n  * Built from the source repository at %s by scripts/package-deb.sh.\n\n -- Touchline maintainers <touchline@example.org>  %s\n' \
    "$version" "$commit" "$when" | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

install -d "$stage/DEBIAN"
for script in postinst prerm postrm; do
    install -m 0755 "$root/packaging/debian/$script" "$stage/DEBIAN/$script"
done
# Every file under /etc is a conffile: dpkg keeps an edited daemon.toml on upgrade and asks,
# and removes them on purge.
(cd "$stage" && find etc -type f | sort | sed 's|^|/|') > "$stage/DEBIAN/conffiles"

# The shared libraries the binary needs, with their packages' minimum versions.
# --ignore-missing-info: a --binary debug build links the Swift runtime of the toolchain,
# which no package provides.
shlibs=$(mktemp -d)
mkdir "$shlibs/debian"
printf 'Source: touchline\n\nPackage: touchline\nArchitecture: any\n' > "$shlibs/debian/control"
# The executables (touchline-view when the binary given had one beside it), as -e options.
set -- -e "$stage/usr/bin/touchline"
if [ -x "$stage/usr/bin/touchline-view" ]; then set -- "$@" -e "$stage/usr/bin/touchline-view"; fi
depends=$(cd "$shlibs" && dpkg-shlibdeps -O --ignore-missing-info "$@" 2>"$out/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlibs"
[ -n "$depends" ] || { cat "$out/shlibdeps.log" >&2; echo "$0: dpkg-shlibdeps found no dependency" >&2; exit 1; }
# dpkg-shlibdeps derives libc6's minimum from the symbols the binaries import; a version node
# they need without importing a symbol of it escapes it. The packed relocations lld writes
# (DT_RELR, Package.swift) are such a node: the binaries need GLIBC_ABI_DT_RELR, which glibc
# 2.36 (Debian 12's) was the first to define, so an older loader refuses to start them
# ("version `GLIBC_ABI_DT_RELR' not found"), yet shlibdeps says libc6 (>= 2.35). So every node
# the binaries need from a library of libc6 is looked up in libc6's symbols file (where each
# node is listed as NODE@NODE VERSION) and the highest version raises libc6's minimum.
# The package's own architecture named: on a host with a second one (libc6:i386 beside
# libc6:amd64) a bare `libc6` is ambiguous.
libc_symbols=$(dpkg-query --control-path "libc6:$arch" symbols 2>/dev/null | head -n 1)
[ -r "$libc_symbols" ] || { echo "$0: no symbols file for libc6:$arch (dpkg-query --control-path libc6:$arch symbols)" >&2; exit 1; }
libc_min=
for arg in "$@"; do
    [ "$arg" = -e ] && continue
    # Pairs "SONAME NODE VERSION" for the nodes this binary needs from libc6's libraries.
    nodes=$(objdump -p "$arg" | awk -v symbols="$libc_symbols" '
        BEGIN {
            while ((getline line < symbols) > 0) {
                if (line ~ /^[^ |*#]/) { split(line, h, " "); lib = h[1]; libs[lib] = 1; continue }
                if (line !~ /^ /) continue
                split(line, f, " "); split(f[1], v, "@")
                if (v[1] == v[2] && v[1] != "") node[lib " " v[1]] = f[2]
            }
        }
        /^  required from / { from = $3; sub(/:$/, "", from); next }
        /^    0x/ && (from in libs) { key = from " " $4; print key, ((key in node) ? node[key] : "?") }
        /^[^ ]/ { from = "" }')
    bad=$(printf '%s\n' "$nodes" | awk '$3 == "?"')
    [ -z "$bad" ] || { echo "$0: $arg needs version nodes that $libc_symbols does not list: $bad" >&2; exit 1; }
    for v in $(printf '%s\n' "$nodes" | awk 'NF == 3 { print $3 }'); do
        if [ -z "$libc_min" ] || dpkg --compare-versions "$v" gt "$libc_min"; then libc_min=$v; fi
    done
done
shlibs_libc=$(printf '%s\n' "$depends" | sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p')
if [ -n "$libc_min" ] && { [ -z "$shlibs_libc" ] || dpkg --compare-versions "$libc_min" gt "$shlibs_libc"; }; then
    if [ -n "$shlibs_libc" ]; then
        depends=$(printf '%s\n' "$depends" | sed "s/libc6 (>= $shlibs_libc)/libc6 (>= $libc_min)/")
    else
        depends="libc6 (>= $libc_min), $depends"
    fi
fi
# The libinput source loads libinput when it starts (dlopen: CLibinput/shim.h), unseen by shlibdeps.
depends="$depends, libinput10"

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    "$root/packaging/debian/control.in" > "$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | LC_ALL=C sort | xargs md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

deb=$out/touchline_${version}_$arch.deb
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null
# The package's own check, on the control field as dpkg and apt will read it, and by another
# fact than the one above (the dynamic tag, not the version node): a binary with packed
# relocations needs a loader that applies them, glibc 2.36's or later.
declared=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -n 's/^ *libc6 (>= \([^)]*\)) *$/\1/p')
for exe in "$stage/usr/bin/touchline" "$stage/usr/bin/touchline-view"; do
    [ -x "$exe" ] || continue
    if readelf -d "$exe" | grep -q '(RELR)'; then
        [ -n "$declared" ] && dpkg --compare-versions "$declared" ge 2.36 \
            || { echo "$0: ${exe#$stage} has packed relocations (DT_RELR: glibc >= 2.36) but $deb says Depends: $(dpkg-deb -f "$deb" Depends)" >&2; exit 1; }
    fi
done
echo "package: $(du -h "$deb" | cut -f1) with $(grep -c . "$stage/DEBIAN/md5sums") files; Depends: $depends, adduser, init-system-helpers"
if [ "$lint" = 1 ]; then
    command -v lintian >/dev/null 2>&1 || { echo "$0: --lintian needs lintian (apt install lintian)" >&2; exit 69; }
    lintian --fail-on error --display-info "$deb" || { echo "$0: lintian found errors in $deb" >&2; exit 1; }
    echo "lintian: no error"
fi
echo "$deb"
