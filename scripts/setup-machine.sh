#!/usr/bin/env bash
# Installs what Gatehouse's tests need beyond npm packages, from Debian's packages:
# Chromium for browser tests, OpenSSH server as the test asset, a CJK font so screenshots of
# the Chinese and Japanese console are legible. Does nothing when all are present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
fc-list 2>/dev/null | grep -qi 'wqy\|noto.*cjk' || need+=(fonts-wqy-zenhei)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-machine: missing ${need[*]}; run as root: apt-get update && apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "setup-machine: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
