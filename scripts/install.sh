#!/bin/sh
# Installs touchline, its systemd units (the system service and the user-session one), its udev
# rule and the opt-in uinput rule (inactive: 70-touchline-uinput.rules.disabled), an inert daemon
# config with examples beside the docs, the manual pages (`man touchline`, one per subcommand)
# and bash/zsh/fish completions, both generated here from the binary installed, so that they
# cannot drift from its commands (packaging/README.md). Never overwrites an existing
# /etc/touchline/daemon.toml. scripts/package-deb.sh builds the Debian package from it.
#
#   scripts/install.sh [--prefix /usr/local] [--destdir DIR] [--binary PATH] [--no-man] [--uninstall]
#
# --destdir DIR   install under DIR (packaging, tests): no user is created, no systemctl/udevadm run
# --binary PATH   install this binary instead of building one (`swift build -c release
#                 --static-swift-stdlib`); the touchline-view beside it too, when there is one
#                 (`touchline view`'s server, a process of its own: docs/view.md)
# --no-man        no manual pages (their generator, scripts/manual.sh, builds a tool once: the
#                 tests skip it; the package and the VM test do not)
# --uninstall     remove what this script installs; /etc/touchline/daemon.toml stays
set -eu

prefix=/usr/local
destdir=
binary=
uninstall=0
man=1
usage() { echo "usage: $0 [--prefix DIR] [--destdir DIR] [--binary PATH] [--no-man] [--uninstall]" >&2; exit 64; }
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --destdir) [ $# -ge 2 ] || usage; destdir=$2; shift 2 ;;
        --destdir=*) destdir=${1#*=}; shift ;;
        --binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
        --binary=*) binary=${1#*=}; shift ;;
        --uninstall) uninstall=1; shift ;;
        --no-man) man=0; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "$0: unknown argument: $1" >&2; usage ;;
    esac
done
case "$prefix" in /*) ;; *) echo "$0: --prefix must be absolute, found $prefix" >&2; exit 64 ;; esac
prefix=${prefix%/}
destdir=${destdir%/}

root=$(cd "$(dirname "$0")/.." && pwd)
bindir=$prefix/bin
docdir=$prefix/share/doc/touchline
# systemd and udev read /usr/lib (and /usr/local/lib/systemd/system); udev has no /usr/local.
case "$prefix" in
    /usr) unitdir=/usr/lib/systemd/system; userunitdir=/usr/lib/systemd/user; rulesdir=/usr/lib/udev/rules.d ;;
    /usr/local) unitdir=/usr/local/lib/systemd/system; userunitdir=/usr/local/lib/systemd/user; rulesdir=/etc/udev/rules.d ;;
    *) unitdir=/etc/systemd/system; userunitdir=/etc/systemd/user; rulesdir=/etc/udev/rules.d ;;
esac
examples="kiosk.toml kiosk-menu.toml kiosk-menu.sh desktop-shortcuts.toml"
docs="live.md config.md events.md gestures.md tuning.md labels.md quickstart-kiosk.md quickstart-desktop.md"
mandir=$prefix/share/man/man1
# Completions where each shell looks for a package's (bash-completion and fish also search
# /usr/local/share; Debian's zsh reads vendor-completions under /usr, site-functions elsewhere).
bashdir=$prefix/share/bash-completion/completions
fishdir=$prefix/share/fish/vendor_completions.d
case "$prefix" in /usr) zshdir=$prefix/share/zsh/vendor-completions ;; *) zshdir=$prefix/share/zsh/site-functions ;; esac
confdir=/etc/touchline
live=0
[ -z "$destdir" ] && [ "$(id -u)" = 0 ] && live=1

if [ "$uninstall" = 1 ]; then
    if [ "$live" = 1 ] && command -v systemctl >/dev/null 2>&1; then
        systemctl disable --now touchline.service 2>/dev/null || true
    fi
    rm -f "$destdir$bindir/touchline" "$destdir$bindir/touchline-view" "$destdir$unitdir/touchline.service" \
        "$destdir$userunitdir/touchline-session.service" \
        "$destdir$rulesdir/70-touchline.rules" "$destdir$rulesdir/70-touchline-uinput.rules.disabled" \
        "$destdir$confdir/daemon.toml.example" \
        "$destdir$confdir/example-config.toml" "$destdir$docdir/README.md" \
        "$destdir$docdir/packaging.md"
    for f in $docs; do rm -f "$destdir$docdir/$f"; done
    for f in $examples; do rm -f "$destdir$docdir/examples/$f"; done
    rmdir "$destdir$docdir/examples" "$destdir$docdir" 2>/dev/null || true
    rm -f "$destdir$mandir"/touchline.1.gz "$destdir$mandir"/touchline.*.1.gz "$destdir$bashdir/touchline" \
        "$destdir$zshdir/_touchline" "$destdir$fishdir/touchline.fish"
    if [ -f "$destdir/etc/udev/rules.d/70-touchline-uinput.rules" ]; then
        echo "kept $destdir/etc/udev/rules.d/70-touchline-uinput.rules (the uinput rule you enabled); remove it by hand if you want"
    fi
    if [ -f "$destdir$confdir/daemon.toml" ]; then
        echo "kept $destdir$confdir/daemon.toml (yours); remove it and $confdir by hand if you want"
    else
        rmdir "$destdir$confdir" 2>/dev/null || true
    fi
    if [ "$live" = 1 ]; then
        command -v systemctl >/dev/null 2>&1 && systemctl daemon-reload || true
        command -v udevadm >/dev/null 2>&1 && udevadm control --reload || true
        [ "$(stat -c %U /dev/uinput 2>/dev/null)" = touchline ] && chown root /dev/uinput && chmod 0600 /dev/uinput || true
        echo "the user and group touchline stay (userdel touchline to remove them)"
    fi
    echo "touchline uninstalled from ${destdir:-/}"
    exit 0
fi

if [ -z "$binary" ]; then
    # The Swift runtime linked in (--static-swift-stdlib): the installed daemon needs no Swift
    # toolchain at run time, and starts faster (fewer relocations: docs/performance.md). Its own
    # scratch path leaves the development build alone.
    # touchline-view: `touchline view`'s HTTP server (SwiftNIO), which touchline starts from
    # beside itself; apart, so that touchline does not carry NIO (docs/view.md).
    (cd "$root" && swift build -c release --product touchline --static-swift-stdlib --scratch-path .build-static)
    (cd "$root" && swift build -c release --product touchline-view --static-swift-stdlib --scratch-path .build-static)
    binary=$root/.build-static/release/touchline
fi
[ -x "$binary" ] || { echo "$0: $binary is not an executable" >&2; exit 66; }
viewbinary=$(dirname "$binary")/touchline-view

install -d "$destdir$bindir" "$destdir$unitdir" "$destdir$userunitdir" "$destdir$rulesdir" "$destdir$confdir" "$destdir$docdir/examples"
# Stripped (install -s): the symbol tables and debug info are 4/5 of a static binary, and a
# service needs neither (a crash's backtrace then shows addresses; `--binary` an unstripped
# build to debug). The binary given or built stays as it was.
install -s -m 0755 "$binary" "$destdir$bindir/touchline"
if [ -x "$viewbinary" ]; then
    install -s -m 0755 "$viewbinary" "$destdir$bindir/touchline-view"
else
    echo "$0: no $viewbinary: installed without \`touchline view\` (build it: swift build --product touchline-view)" >&2
fi
sed "s#/usr/local/bin/touchline#$bindir/touchline#; s#/usr/local/share/doc/touchline#$docdir#" \
    "$root/packaging/touchline.service" > "$destdir$unitdir/touchline.service"
chmod 0644 "$destdir$unitdir/touchline.service"
sed "s#/usr/local/bin/touchline#$bindir/touchline#; s#/usr/local/share/doc/touchline#$docdir#" \
    "$root/packaging/touchline-session.service" > "$destdir$userunitdir/touchline-session.service"
chmod 0644 "$destdir$userunitdir/touchline-session.service"
install -m 0644 "$root/packaging/70-touchline.rules" "$destdir$rulesdir/70-touchline.rules"
# Inactive until copied to /etc/udev/rules.d/70-touchline-uinput.rules (its comment says how
# and what it risks); its enabling line names where this prefix put it.
sed "s|sudo cp /etc/udev/rules.d/70-touchline-uinput.rules.disabled |sudo cp $rulesdir/70-touchline-uinput.rules.disabled |" \
    "$root/packaging/70-touchline-uinput.rules.disabled" > "$destdir$rulesdir/70-touchline-uinput.rules.disabled"
chmod 0644 "$destdir$rulesdir/70-touchline-uinput.rules.disabled"
sed "s#/usr/local/share/doc/touchline#$docdir#g" "$root/packaging/daemon.toml" > "$destdir$confdir/daemon.toml.example"
chmod 0644 "$destdir$confdir/daemon.toml.example"
install -m 0644 "$root/docs/example-config.toml" "$destdir$confdir/example-config.toml"
if [ -e "$destdir$confdir/daemon.toml" ]; then
    echo "kept $destdir$confdir/daemon.toml; the new example is $confdir/daemon.toml.example"
else
    install -m 0644 "$destdir$confdir/daemon.toml.example" "$destdir$confdir/daemon.toml"
fi
install -m 0644 "$root/README.md" "$destdir$docdir/README.md"
install -m 0644 "$root/packaging/README.md" "$destdir$docdir/packaging.md"
# The docs the installed config and units cite, and the examples it points to.
for f in $docs; do install -m 0644 "$root/docs/$f" "$destdir$docdir/$f"; done
for f in $examples; do install -m 0644 "$root/packaging/examples/$f" "$destdir$docdir/examples/$f"; done

# Completions and manual pages, made from the installed binary's own command definitions
# (swift-argument-parser), never from a copy kept in the repository: they cannot drift.
install -d "$destdir$bashdir" "$destdir$zshdir" "$destdir$fishdir"
# bash-completion sources its files: the generated script's #!/bin/bash line is dropped.
"$destdir$bindir/touchline" --generate-completion-script bash | sed '1{/^#!/d}' > "$destdir$bashdir/touchline"
"$destdir$bindir/touchline" --generate-completion-script zsh > "$destdir$zshdir/_touchline"
"$destdir$bindir/touchline" --generate-completion-script fish > "$destdir$fishdir/touchline.fish"
chmod 0644 "$destdir$bashdir/touchline" "$destdir$zshdir/_touchline" "$destdir$fishdir/touchline.fish"
if [ "$man" = 1 ]; then
    install -d "$destdir$mandir"
    rm -f "$destdir$mandir"/touchline.1.gz "$destdir$mandir"/touchline.*.1.gz
    sh "$root/scripts/manual.sh" "$destdir$bindir/touchline" "$destdir$mandir"
fi

if [ "$live" = 1 ]; then
    if ! getent passwd touchline >/dev/null; then
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin --comment "touchline gesture daemon" touchline
        echo "created the system user touchline"
    fi
    command -v udevadm >/dev/null 2>&1 && { udevadm control --reload; udevadm trigger --subsystem-match=input --action=change; udevadm trigger --subsystem-match=misc --sysname-match=uinput --action=change; } || true
    command -v systemctl >/dev/null 2>&1 && systemctl daemon-reload || true
    echo "installed. Start it with: systemctl enable --now touchline"
    echo "or, for actions in a user's desktop session: systemctl --user enable --now touchline-session (as that user)"
else
    echo "installed into ${destdir:-/}. On the target: useradd --system --user-group touchline;"
    echo "udevadm control --reload; systemctl daemon-reload; systemctl enable --now touchline"
fi
