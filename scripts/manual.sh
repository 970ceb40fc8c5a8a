#!/bin/sh
# Writes touchline's manual pages into DIR, gzipped: touchline.1.gz and one page per subcommand
# (touchline.daemon.1.gz, …: `man touchline.daemon`), generated from the command definitions
# of the BINARY given, so that they cannot drift from it. scripts/install.sh (and through it
# scripts/package-deb.sh) runs this on the binary it installs.
#
#   scripts/manual.sh BINARY DIR
#
# The generator is swift-argument-parser's own `generate-manual` (the tool its GenerateManual
# plugin runs: `swift package plugin generate-manual` builds every product of the package
# first, then runs it on the build's executable; here it runs on the binary being installed,
# which may be another build). It is built once from the package's resolved
# swift-argument-parser, the version linked into touchline, into .build-manual/ (about a
# minute; then reused). The pages' date is the last commit's (SOURCE_DATE_EPOCH if set), so
# the same tree gives the same bytes.
set -eu
[ $# = 2 ] || { echo "usage: $0 BINARY DIR" >&2; exit 64; }
binary=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$binary" ] || { echo "$0: $binary is not an executable" >&2; exit 66; }
[ -d "$out" ] || { echo "$0: $out is not a directory" >&2; exit 66; }
scratch=$root/.build-manual
tool=$scratch/tool/debug/generate-manual
if [ ! -x "$tool" ]; then
    (cd "$root" && swift package --scratch-path "$scratch" resolve >/dev/null)
    parser=$scratch/checkouts/swift-argument-parser
    [ -f "$parser/Package.swift" ] || { echo "$0: no swift-argument-parser checkout in $scratch/checkouts" >&2; exit 69; }
    swift build --package-path "$parser" --scratch-path "$scratch/tool" --product generate-manual 2>&1 | tail -n 3
    [ -x "$tool" ] || { echo "$0: building generate-manual failed" >&2; exit 70; }
fi
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
    date=$(git -C "$root" log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
fi
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
# generate-manual keeps only ASCII (its escaping drops every other character, so "would run …"
# became "would run "): the help it reads passes through a wrapper that spells the few others
# out. The wrapper is what it runs with --experimental-dump-help.
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
cat > "$pages/touchline" <<WRAPPER
#!/bin/sh
"$binary" "\$@" | sed -e 's/…/.../g' -e 's/µs/us/g' -e 's/×/x/g' -e 's/→/->/g' -e 's/°/ degrees/g'
WRAPPER
chmod 0755 "$pages/touchline"
mkdir "$pages/out"
"$tool" "$pages/touchline" --multi-page --date "$date" --output-directory "$pages/out"
count=0
for page in "$pages"/out/*.1; do
    name=$(basename "$page")
    # A discussion's blank line between paragraphs is an error to mdoc ("Empty input line"):
    # .Pp is its paragraph break. A subcommand's NAME, `.Nm "touchline daemon"`, is one that
    # man-db's lexgrog cannot parse (so apropos never lists the page; lintian:
    # bad-whatis-entry): NAME says the page's name, touchline.daemon (as git-commit(1) does),
    # and SYNOPSIS the command as typed, `touchline daemon`. -n: no name or time in the gzip
    # header (reproducible, as Debian asks).
    awk '
        /^\.Sh NAME$/ { print; getline
            if ($0 ~ /^\.Nm ".* .*"$/) { typed = substr($0, 5); title = typed; gsub(/"/, "", title); gsub(/ /, ".", title); print ".Nm " title; next } }
        /^\.Sh SYNOPSIS$/ { print; getline
            if ($0 == ".Nm" && typed != "") { print ".Nm " typed; next } }
        /^$/ { print ".Pp"; next }
        { print }' "$page" | gzip -9n > "$out/$name.gz"
    chmod 0644 "$out/$name.gz"
    count=$((count + 1))
done
[ "$count" -gt 1 ] || { echo "$0: generate-manual wrote $count page(s)" >&2; exit 70; }
echo "manual: $count pages in $out"
