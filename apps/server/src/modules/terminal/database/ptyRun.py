"""Runs a program under a pseudo-terminal for the web terminal's database clients (dbShell.ts).

Usage: ptyRun.py <cols> <rows> <program> [args...]  (an argument list: no shell is involved)
stdin goes to the terminal, the terminal's output to stdout; lines "<cols> <rows>" on fd 3 resize
it. Exits with the program's status once the terminal is closed.
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios


def main() -> int:
    cols, rows, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)

    def resize(c: int, r: int) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", r, c, 0, 0))
        os.kill(pid, signal.SIGWINCH)

    resize(cols, rows)
    watched = [fd, 0, 3]
    pending = b""
    while True:
        ready, _, _ = select.select(watched, [], [])
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                break
            os.write(1, data)
        if 0 in ready:
            data = os.read(0, 65536)
            if data:
                os.write(fd, data)
            else:
                watched.remove(0)
                os.kill(pid, signal.SIGHUP)
        if 3 in ready:
            data = os.read(3, 1024)
            if not data:
                watched.remove(3)
                continue
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                parts = line.split()
                if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                    resize(int(parts[0]), int(parts[1]))
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
