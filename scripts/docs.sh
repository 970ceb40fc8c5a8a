#!/usr/bin/env bash
# Builds the DocC documentation of every library module, without a plugin or a new dependency:
# SwiftPM's own `dump-symbol-graph` (which reuses the debug build in .build) and the toolchain's
# `docc`. Fails on any docc warning, a symbol link that does not resolve first of all.
#
#   scripts/docs.sh            # all modules → .build/docs/MODULE.doccarchive
#   scripts/docs.sh TouchlineGestures
#   docc preview .build/docs/catalogs/TouchlineGestures.docc \
#       --additional-symbol-graph-dir .build/docs/graphs/TouchlineGestures   # browse one locally
#
# Why no plugin: swift-docc-plugin 1.5.0 would be a dependency of the main package, resolved by
# every adopter, and its first `generate-documentation` took 33 s here for a one-file package
# (resolve 3 s; 2026-11-24) before documenting anything; this script adds nothing to the
# package and takes about 20-30 s after `swift build --build-tests`.
#
# The TouchlineGestures catalog gets docs/events.md as its EventSchema article here, at build
# time, so that the schema has one text (docs/events.md) and the article never lags behind it.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(TouchlineCore TouchlineTrace TouchlineConfig TouchlineGestures TouchlineSettings TouchlinePlot TouchlineTesting TouchlineInput TouchlineLive)
fi

docc=$(command -v docc || true)
if [ -z "$docc" ]; then docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"; fi
[ -x "$docc" ] || { echo "docs.sh: no docc beside swift ($docc)" >&2; exit 1; }

out=.build/docs
rm -rf "$out"
mkdir -p "$out/graphs" "$out/catalogs"

# Symbol graphs of every module, public API only (what an adopter sees).
dump_log="$out/dump-symbol-graph.log"
if ! swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members >"$dump_log" 2>&1; then
    tail -n 30 "$dump_log" >&2
    echo "docs.sh: swift package dump-symbol-graph failed" >&2
    exit 1
fi
graphs=$(sed -n 's/^Files written to //p' "$dump_log" | tail -n 1)
[ -d "$graphs" ] || { tail -n 5 "$dump_log" >&2; echo "docs.sh: no symbol graph folder in the output above" >&2; exit 1; }

status=0
for m in "${modules[@]}"; do
    [ -d "Sources/$m/$m.docc" ] || { echo "docs.sh: Sources/$m/$m.docc is missing" >&2; status=1; continue; }
    mkdir -p "$out/graphs/$m"
    # The module's own graph and its extensions of other modules' types (MODULE@OTHER).
    cp "$graphs/$m.symbols.json" "$out/graphs/$m/"
    for f in "$graphs/$m@"*.symbols.json; do [ -e "$f" ] && cp "$f" "$out/graphs/$m/"; done
    catalog="$out/catalogs/$m.docc"
    cp -R "Sources/$m/$m.docc" "$catalog"
    if [ "$m" = TouchlineGestures ]; then
        cp docs/events.md "$catalog/EventSchema.md"
    fi
    log="$out/$m.log"
    if "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$out/graphs/$m" \
        --fallback-display-name "$m" --fallback-bundle-identifier "org.touchline.$m" \
        --output-path "$out/$m.doccarchive" \
        --warnings-as-errors >"$log" 2>&1; then
        echo "$m: $out/$m.doccarchive"
    else
        # docc names the staged copy; point at the file in the repository instead.
        sed -e "s|$PWD/$out/catalogs/|Sources/$m/|" \
            -e "s|Sources/TouchlineGestures/TouchlineGestures.docc/EventSchema.md|docs/events.md|" "$log" >&2
        echo "docs.sh: $m has documentation warnings (above)" >&2
        status=1
    fi
done
exit $status
