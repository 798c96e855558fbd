"""Runs a command in a pseudo-terminal, as in a terminal window, and types Ctrl-C once its output
contains MARKER (at most once); with PTY_HANGUP=1 in the environment it closes the terminal instead
(a window or ssh connection closing: the command gets SIGHUP, and its terminal is gone). Prints everything
the command wrote to the terminal as one JSON string, then its exit status on a line of its own.
Usage: python3 ptyrun.py MARKER CMD ARGS..."""
import json, os, pty, select, sys

marker = sys.argv[1].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
out = b''
sent = False
while True:
    if not sent and marker in out:
        sent = True
        if os.environ.get('PTY_HANGUP') == '1':
            os.close(fd)
            break
        os.write(fd, b'\x03')
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            d = os.read(fd, 65536)
        except OSError:
            break
        if not d:
            break
        out += d
_, st = os.waitpid(pid, 0)
print(json.dumps(out.decode('utf8', 'replace')))
print(os.waitstatus_to_exitcode(st))
