#!/bin/sh
# Every command of the quick starts (docs/quickstart-kiosk.md, docs/quickstart-desktop.md) is
# run by a test (issue 35). Each line of their ```sh blocks is one of:
#  - run HERE, as written, from the repository root: the lines that need no root, touchscreen
#    or session (`touchline …`, `install -D …`), with BINARY as `touchline`, the package's
#    files from `install.sh --destdir` (/usr/share/doc/touchline → there), HOME and the /tmp
#    sockets in a scratch directory; what the page says they print is checked too;
#  - run in the systemd VM, as written: scripts/vm/systemd-checks.sh runs it through its `qs`
#    (root) or `qsu` (the user at the seat) function, with the line quoted there;
#  - run elsewhere: scripts/setup.sh --package by .ci/run's first stage; scripts/package-deb.sh by
#    scripts/vm/systemd.sh (with --binary: CI packages its debug build; the release build as
#    written is run by hand, packaging/README.md);
#  - not run, with why: the kiosk menu's command line, whose /usr/local/bin/kiosk-menu is the
#    kiosk builder's program (the script itself is run by PackagingTests'
#    theKioskMenuClientOpensTheMenuOnALeftEdgeSwipe).
# A line that is none of these fails: a new command in a quick start needs its test.
#
#   scripts/check-quickstarts.sh BINARY      (PackagingTests runs it; exit 1 on any failure)
set -u
[ $# = 1 ] || { echo "usage: $0 BINARY" >&2; exit 64; }
root=$(cd "$(dirname "$0")/.." && pwd)
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$binary" ] || { echo "$0: $binary is not an executable" >&2; exit 66; }
vm=$root/scripts/vm/systemd-checks.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/bin"
ln -s "$binary" "$scratch/bin/touchline"
sh "$root/scripts/install.sh" --prefix /usr --destdir "$scratch/stage" --binary "$binary" --no-man > "$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log"; echo "FAIL install.sh --destdir for the quick starts' files"; exit 1; }
fails=0
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

for page in docs/quickstart-kiosk.md docs/quickstart-desktop.md; do
    home=$scratch/home-$(basename "$page" .md)
    mkdir -p "$home"
    n=0
    awk '/^```sh$/ { f = 1; next } /^```/ { f = 0; next } f && NF && !/^#/' "$root/$page" > "$scratch/lines"
    while IFS= read -r line; do
        n=$((n + 1))
        case $line in *"'"*) fail "$page: a quoted line cannot be matched in $vm: $line"; continue ;; esac
        where=
        if grep -qF -- "qs '$line'" "$vm" || grep -qF -- "qsu '$line'" "$vm"; then where="the systemd VM"; fi
        case $line in
            "touchline "*|"install -D "*)
                # Its socket in the scratch directory too: tests run in parallel.
                mapped=$(printf '%s\n' "$line" | sed -e "s# /tmp/\([a-z-]*\.sock\)# $scratch/\1#g" -e "s#/usr/share/doc/touchline#$scratch/stage/usr/share/doc/touchline#g")
                if (cd "$root" && PATH="$scratch/bin:$PATH" HOME="$home" sh -c "$mapped") < /dev/null > "$scratch/out" 2>&1; then
                    where="${where:+$where and }here"
                else
                    fail "$page: $line: exit $?: $(tail -n 3 "$scratch/out")"
                    continue
                fi
                # What the page says these print.
                case $line in
                    *"--dry-run --source trace:Recordings/edge-swipe-left.yml"*)
                        ! grep -q "dry run: pass-through" "$scratch/out" && grep -q "pass-through ends: 0 contacts sent at once, .* 1 dropped" "$scratch/out" \
                            || fail "$page: the consumed edge swipe reached the clone: $(grep -m1 'pass-through' "$scratch/out")" ;;
                    *"--dry-run --source trace:Recordings/tap.yml"*)
                        grep -q "dry run: pass-through (.* device 0) at 0.040000: EV_ABS ABS_MT_TRACKING_ID 0" "$scratch/out" \
                            || fail "$page: the tap's frames do not reach the clone: $(tail -n 3 "$scratch/out")" ;;
                    *"--dry-run --source trace:Recordings/four-finger-swipe-up.yml"*)
                        grep -q "dry run: would run keys KEY_LEFTMETA + KEY_S (action line" "$scratch/out" \
                            || fail "$page: no key chord would run: $(tail -n 3 "$scratch/out")" ;;
                esac
                ;;
            "scripts/setup.sh --package") where="${where:-.ci/run's setup stage}" ;;
            "scripts/package-deb.sh") where="${where:-scripts/vm/systemd.sh (with --binary)}" ;;
        esac
        # A script the page runs by its path must be executable in a fresh clone (git's mode):
        # package-deb.sh was not, and a new user got "Permission denied" (issue 35).
        case $line in
            scripts/*) script=${line%% *}; [ -x "$root/$script" ] || { fail "$page: $script is not executable (git update-index --chmod=+x $script)"; continue; } ;;
        esac
        case $line in
            "sh /usr/share/doc/touchline/examples/kiosk-menu.sh /usr/local/bin/kiosk-menu open")
                where="${where:-not as written (kiosk-menu is the builder's program): PackagingTests runs the script}" ;;
        esac
        if [ -z "$where" ]; then
            fail "$page: no test runs: $line (add it to $vm as qs '…', or run it in $0)"
        else
            echo "ok $page: $line  [$where]"
        fi
    done < "$scratch/lines"
    [ "$n" -gt 0 ] || fail "$page: no command found in its sh blocks"
done
echo "== quick starts: $fails failure(s)"
[ "$fails" = 0 ]
