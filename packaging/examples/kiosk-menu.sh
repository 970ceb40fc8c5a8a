#!/bin/sh
# The kiosk's admin menu from the system service's gestures (docs/quickstart-kiosk.md): run in
# the kiosk's graphical session (its autostart), as a member of the group touchline, so that
# COMMAND runs with the session's display. Each swipe in from the left edge runs COMMAND once
# (default: /usr/local/bin/kiosk-menu open), in the background. The service's config is
# kiosk-menu.toml beside this file, which also keeps that swipe from the app underneath.
#
#   sh kiosk-menu.sh [--once] [COMMAND [ARG...]]
#
# It reconnects 2 s after the service stops or restarts; --once ends instead (and waits for
# the commands it started): the test in Tests/TouchlineCLITests/PackagingTests.swift.
# TOUCHLINE_SOCKET: the socket (default: listen's search, the service's
# /run/touchline/touchline.sock). TOUCHLINE: the touchline binary (default: from PATH).
set -u
once=0
if [ "${1:-}" = --once ]; then once=1; shift; fi
[ $# -gt 0 ] || set -- /usr/local/bin/kiosk-menu open
touchline=${TOUCHLINE:-touchline}
listen() {
    if [ -n "${TOUCHLINE_SOCKET:-}" ]; then
        "$touchline" listen --socket "$TOUCHLINE_SOCKET" --subscribe edgeSwipe
    else
        "$touchline" listen --subscribe edgeSwipe
    fi
}
while :; do
    # An edge swipe's events: began, changed…, then ended once the finger lifts (or
    # cancelled); `edge` says which. The menu opens at the end of the swipe, once.
    listen | {
        while IFS= read -r event; do
            case $event in
                *'"phase":"ended"'*'"edge":"left"'*) "$@" < /dev/null & ;;
            esac
        done
        wait
    }
    [ "$once" = 1 ] && break
    sleep 2
done
