#!/usr/bin/env bash
# Installs what Gatehouse and its tests need beyond npm packages, from Debian's packages:
# Chromium for browser tests, OpenSSH server as the test asset, OpenLDAP (slapd, ldap-utils) as the
# test directory of LDAP sign-in and sync, a CJK font so screenshots of the Chinese and Japanese
# console are legible, ansible-core (playbooks and modules of jobs) with sshpass (Ansible's SSH
# password logins) and bubblewrap (hides Gatehouse's data from it), and the unprivileged
# `gatehouse-runner` OS user that ansible-playbook runs as when Gatehouse runs as root (docs/ops.md,
# "Ansible"). Does nothing when all are present. Gatehouse starts without Ansible; jobs that need it
# then say it is not installed.
set -euo pipefail
RUNNER_USER=gatehouse-runner
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
[ -x /usr/sbin/slapd ] || need+=(slapd)
command -v ldapadd >/dev/null 2>&1 || need+=(ldap-utils)
# Not `grep -q`: with pipefail, grep quitting at the first match makes fc-list die of SIGPIPE and the
# pipeline fail, so the font was "missing" (and reinstalled) on every run.
fc-list 2>/dev/null | grep -i 'wqy\|noto.*cjk' >/dev/null || need+=(fonts-wqy-zenhei)
[ -x /usr/bin/ansible-playbook ] || need+=(ansible-core)
command -v sshpass >/dev/null 2>&1 || need+=(sshpass)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
# RADIUS sign-in's test server; the graphical sessions' VNC and RDP test servers and the pieces an RDP
# session runs on (a virtual display, the FreeRDP client, x11vnc); the settings' network tools.
[ -x /usr/sbin/freeradius ] || need+=(freeradius)
command -v radclient >/dev/null 2>&1 || need+=(freeradius-utils)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v x11vnc >/dev/null 2>&1 || need+=(x11vnc)
command -v Xtigervnc >/dev/null 2>&1 || need+=(tigervnc-standalone-server)
[ -x /usr/sbin/xrdp ] || need+=(xrdp)
command -v xfreerdp >/dev/null 2>&1 || need+=(freerdp2-x11)
# An RDP session's bridge asks whether xfreerdp's window is shown (rdpBridge.ts).
command -v xwininfo >/dev/null 2>&1 || need+=(x11-utils)
# The VNC test server's desktop program: keys typed in the browser reach a shell in it.
command -v xterm >/dev/null 2>&1 || need+=(xterm)
command -v nmap >/dev/null 2>&1 || need+=(nmap)
command -v tcpdump >/dev/null 2>&1 || [ -x /usr/bin/tcpdump ] || need+=(tcpdump)
command -v traceroute >/dev/null 2>&1 || need+=(traceroute)
command -v ping >/dev/null 2>&1 || need+=(iputils-ping)
command -v mysql >/dev/null 2>&1 || need+=(mariadb-client)
command -v psql >/dev/null 2>&1 || need+=(postgresql-client)
# The load balancer of the scale-out deployment (docs/deploy.md) and of the soak (bench/soak/).
[ -x /usr/sbin/haproxy ] || need+=(haproxy)
runner_missing=0
id -u "$RUNNER_USER" >/dev/null 2>&1 || runner_missing=1
[ ${#need[@]} -eq 0 ] && [ $runner_missing -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  [ ${#need[@]} -gt 0 ] && echo "setup-machine: missing ${need[*]}; run as root: apt-get update && apt-get install -y ${need[*]}" >&2
  [ $runner_missing -eq 1 ] && echo "setup-machine: missing the OS user $RUNNER_USER; run as root: useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin $RUNNER_USER" >&2
  exit 1
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup-machine: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ $runner_missing -eq 1 ]; then
  echo "setup-machine: adding the OS user $RUNNER_USER (runs ansible-playbook without access to Gatehouse's data)"
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$RUNNER_USER"
fi
