"""A faulty link between two network namespaces, for the tests of a real network under faults
(tests/server/test_netfault.py).

Where the kernel has ``tc qdisc ... netem`` the link is a veth pair with netem on both ends.
Where it has not (``CONFIG_NET_SCH_NETEM`` unset, as on the machine these tests were written
on) the link is two TAP devices, one in each namespace, and this module, run as a program,
passes the Ethernet frames between them as netem would: each frame held for the delay plus a
uniform jitter (frames may overtake each other, as netem's jitter lets them), a share of them
dropped at random, and all of them dropped while the link is cut. It reads its settings on its
standard input, one line each: ``DELAY_MS JITTER_MS LOSS_PERCENT`` (loss 100: the link cut);
``stats`` prints the frames passed and dropped.

    python3 netfault_link.py TAP_A TAP_B SEED
"""

from __future__ import annotations

import fcntl
import heapq
import os
import random
import select
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000


def open_tap(name: str) -> int:
    """A TAP device ``name`` (made by this process, gone when it exits): its descriptor."""
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return fd


def main(argv: list[str]) -> int:
    a_name, b_name, seed = argv
    rng = random.Random(int(seed))
    a, b = open_tap(a_name), open_tap(b_name)
    other = {a: b, b: a}
    delay = jitter = loss = 0.0
    held: list[tuple[float, int, int, bytes]] = []
    passed = dropped = n = 0
    print("ready", flush=True)
    stdin = sys.stdin.fileno()
    while True:
        timeout = max(0.0, held[0][0] - time.monotonic()) if held else 1.0
        ready, _, _ = select.select([a, b, stdin], [], [], timeout)
        for fd in ready:
            if fd == stdin:
                line = sys.stdin.readline()
                if not line:
                    return 0
                if line.strip() == "stats":
                    print(f"passed {passed} dropped {dropped}", flush=True)
                    continue
                d, j, lo = (float(x) for x in line.split())
                delay, jitter, loss = d / 1000, j / 1000, lo / 100
                continue
            while True:
                try:
                    frame = os.read(fd, 65536)
                except BlockingIOError:
                    break
                if loss and rng.random() < loss:
                    dropped += 1
                    continue
                due = time.monotonic() + max(0.0, delay + rng.uniform(-jitter, jitter))
                n += 1
                heapq.heappush(held, (due, n, other[fd], frame))
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, _, out, frame = heapq.heappop(held)
            try:
                os.write(out, frame)
                passed += 1
            except OSError:  # the device is down (its namespace going): the frame is lost
                dropped += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
