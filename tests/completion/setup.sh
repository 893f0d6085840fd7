#!/bin/sh
# Installs what tests/completion/ needs on Debian 12: bash-completion (the
# helpers the completion uses on real systems), groff-base and man-db (man
# page lint: groff, man, lexgrog).
set -e
missing=""
for pkg in bash-completion groff-base man-db; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
