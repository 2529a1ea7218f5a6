#!/bin/sh
# make shell's guest side: the init (init.c) runs this in place of the lab
# suites (SHELL= in /etc/schedlab.conf), after mounting /proc, /sys,
# debugfs, cgroup2, tracefs and /tmp, with the suites' environment.
#
# A busybox script rather than more of init.c: nothing here is timed, and
# what it does (an interactive shell on the console's tty, job control,
# poweroff) is a shell's job.  It stays PID 1: busybox's poweroff signals
# PID 1 (SIGUSR2; halt SIGUSR1, reboot SIGTERM), which powers off here.
/bin/busybox --install -s
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp
. /etc/schedlab.conf
rm -f /etc/schedlab.conf
export TERM="${TERM:-vt100}" PS1='schedlab \w # '
# The host terminal's size (a serial line has none of its own).
[ "${ROWS:-0}" = 0 ] || stty rows "$ROWS" cols "$COLS"

cat <<EOF

schedlab shell: lab $LAB ($TITLE), your kernel on $TOPOLOGY
  CPU capacities: $(cat /sys/devices/system/cpu/cpu*/cpu_capacity | tr '\n' ' ')
  leave: poweroff (or exit), or Ctrl-A X (QEMU's own key)
  the lab's tests: /tests/lab$LAB (names: cat /tests/lab$LAB.tests); one alone:
    CK_RUN_CASE=$(head -n 1 /tests/lab$LAB.tests) /tests/lab$LAB
  tools: chrt taskset uclampset (util-linux), rt-app (an example in
    /etc/rt-app), trace-cmd; busybox for the rest
  mounted: /proc /sys /sys/kernel/debug /sys/kernel/tracing /sys/fs/cgroup /tmp

what to try:
EOF
sed 's/^/  /' /etc/tips/$LAB 2>/dev/null
echo

trap 'poweroff -f' USR1 USR2 TERM
cd /tmp
# cttyhack: the console's own tty (ttyAMA0) as the shell's controlling
# terminal, so that Ctrl-C and job control work.
setsid cttyhack sh -l &
wait
poweroff -f
