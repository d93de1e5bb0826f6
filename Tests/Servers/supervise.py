#!/usr/bin/env python3
"""Runs a daemon in the foreground on behalf of a test, and stops it when the test process goes.

    python3 -u supervise.py --parent-pid PID -- /usr/sbin/lighttpd -D -f CONFIG

SIGTERM, SIGINT and SIGHUP are passed on to the daemon; when the daemon exits, so does this
script, with the daemon's status. If the process PID (the test runner that started us) is gone,
the daemon is sent SIGTERM, then SIGKILL after 3 seconds: a test runner that crashes does not
leave lighttpd or sshd running. For tests only.
"""

import argparse
import os
import signal
import subprocess
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser(description="Run a daemon for a test; stop it when the test goes.")
    parser.add_argument("--parent-pid", type=int, required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    if not command:
        parser.error("no command given")

    child = subprocess.Popen(command)

    def forward(signum, _frame):
        try:
            child.send_signal(signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)

    def watch_parent():
        while child.poll() is None:
            if os.getppid() != arguments.parent_pid:
                sys.stderr.write("supervise: the test process is gone, stopping %s\n" % command[0])
                forward(signal.SIGTERM, None)
                deadline = time.monotonic() + 3
                while child.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                if child.poll() is None:
                    forward(signal.SIGKILL, None)
                return
            time.sleep(0.5)

    threading.Thread(target=watch_parent, daemon=True).start()
    while True:
        try:
            status = child.wait()
            break
        except InterruptedError:
            continue
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
