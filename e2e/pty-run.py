"""Runs a command in a pseudo-terminal (80x24), answering the terminal queries a TUI sends at start
(cursor position, device attributes), and copies its output to stdout. Ends when the child does."""
import os, pty, select, sys, struct, fcntl, termios, signal
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 24, 80, 0, 0))
signal.signal(signal.SIGTERM, lambda *_: (os.kill(pid, signal.SIGKILL), sys.exit(143)))
while True:
    try:
        r, _, _ = select.select([fd, 0], [], [], 0.2)
    except InterruptedError:
        continue
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        if b'\x1b[6n' in data:
            os.write(fd, b'\x1b[1;1R')
        if b'\x1b[c' in data:
            os.write(fd, b'\x1b[?62;c')
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    if 0 in r:
        data = os.read(0, 1024)
        if data:
            os.write(fd, data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
