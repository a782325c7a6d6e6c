"""Two hosts in network namespaces of their own joined by one faulty link (tests/server/
test_netfault.py): the server's host and the players' host, made and removed by the test.

:func:`why_not` says why they cannot be made here (not root, no ``ip``, no TUN device), or
None. :class:`Hosts` makes them: ``netem`` where the kernel has it (a veth pair, ``tc qdisc
... netem`` on both ends), else netfault_link.py's emulation over two TAP devices. Its
:meth:`Hosts.impair` sets the delay, jitter and loss of both directions; :meth:`Hosts.cut` and
:meth:`Hosts.mend` drop every frame and stop doing so. :meth:`Hosts.close` removes everything,
whatever failed (processes first, then the namespaces)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

LINK = Path(__file__).with_name("netfault_link.py")
SERVER_IP = "10.203.77.1"
PLAYERS_IP = "10.203.77.2"


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=20)


def why_not() -> str | None:
    """Why the namespaces cannot be made here, or None."""
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns add)"
    if shutil.which("ip") is None:
        return "no ip command (iproute2)"
    name = f"hxf-probe-{os.getpid()}"
    made = _ip("netns", "add", name, check=False)
    if made.returncode != 0:
        return f"ip netns add fails here: {made.stderr.strip()}"
    try:
        if os.path.exists("/dev/net/tun") or _netem_in(name):
            return None
        return "neither tc netem nor a TUN device (/dev/net/tun) to make a faulty link"
    finally:
        _ip("netns", "del", name, check=False)


def _netem_in(ns: str) -> bool:
    """Whether ``tc qdisc ... netem`` works (on a veth pair in namespace ``ns``)."""
    if shutil.which("tc") is None:
        return False
    _ip("-n", ns, "link", "add", "hxfp0", "type", "veth", "peer", "name", "hxfp1", check=False)
    tc = ["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "hxfp0", "root", "netem"]
    return subprocess.run([*tc, "delay", "0ms"], capture_output=True).returncode == 0


class Hosts:
    """The server's namespace and the players' namespace, one faulty link between them."""

    def __init__(self, tag: str, seed: int = 1):
        self.server_ns = f"hxf-srv-{tag}"
        self.players_ns = f"hxf-ply-{tag}"
        self.a, self.b = f"hxfa{tag}"[:15], f"hxfb{tag}"[:15]
        self.procs: list[subprocess.Popen] = []
        self.link: subprocess.Popen | None = None
        self.kind = ""
        self._settings = (0.0, 0.0, 0.0)
        try:
            _ip("netns", "add", self.server_ns)
            _ip("netns", "add", self.players_ns)
            if self._veth_netem():
                self.kind = "netem"
            else:
                self._tap_link(seed)
                self.kind = "tap emulation (no netem in this kernel)"
            for ns, dev, addr in (
                (self.server_ns, self.a, SERVER_IP),
                (self.players_ns, self.b, PLAYERS_IP),
            ):
                _ip("-n", ns, "link", "set", "lo", "up")
                _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
                _ip("-n", ns, "link", "set", dev, "up")
        except BaseException:
            self.close()
            raise

    def _veth_netem(self) -> bool:
        """A veth pair between the namespaces if netem can shape it (else nothing made)."""
        if shutil.which("tc") is None:
            return False
        _ip("link", "add", self.a, "netns", self.server_ns, "type", "veth", "peer", "name",
            self.b, "netns", self.players_ns)  # fmt: skip
        probe = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                self.server_ns,
                "tc",
                "qdisc",
                "add",
                "dev",
                self.a,
                "root",
                "netem",
                "delay",
                "0ms",
            ],  # fmt: skip
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0:
            subprocess.run(
                [
                    "ip",
                    "netns",
                    "exec",
                    self.players_ns,
                    "tc",
                    "qdisc",
                    "add",
                    "dev",
                    self.b,
                    "root",
                    "netem",
                    "delay",
                    "0ms",
                ],  # fmt: skip
                check=True,
                capture_output=True,
            )
            return True
        _ip("-n", self.server_ns, "link", "del", self.a, check=False)
        return False

    def _tap_link(self, seed: int) -> None:
        self.link = subprocess.Popen(
            [sys.executable, str(LINK), self.a, self.b, str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.link.stdout is not None
        line = self.link.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"the link emulation did not start: {line!r}")
        _ip("link", "set", self.a, "netns", self.server_ns)
        _ip("link", "set", self.b, "netns", self.players_ns)

    # --- faults -------------------------------------------------------------------------------

    def impair(self, delay_ms: float, jitter_ms: float, loss_percent: float) -> None:
        """Each direction: ``delay_ms`` +- ``jitter_ms``, ``loss_percent`` of frames lost."""
        self._settings = (delay_ms, jitter_ms, loss_percent)
        self._apply(delay_ms, jitter_ms, loss_percent)

    def cut(self) -> None:
        """Every frame lost, both ways (the settings kept for :meth:`mend`)."""
        self._apply(self._settings[0], self._settings[1], 100.0)

    def mend(self) -> None:
        self._apply(*self._settings)

    def _apply(self, delay_ms: float, jitter_ms: float, loss_percent: float) -> None:
        if self.link is not None:
            assert self.link.stdin is not None
            self.link.stdin.write(f"{delay_ms} {jitter_ms} {loss_percent}\n")
            self.link.stdin.flush()
            return
        for ns, dev in ((self.server_ns, self.a), (self.players_ns, self.b)):
            subprocess.run(
                [
                    "ip",
                    "netns",
                    "exec",
                    ns,
                    "tc",
                    "qdisc",
                    "change",
                    "dev",
                    dev,
                    "root",
                    "netem",
                    "delay",
                    f"{delay_ms}ms",
                    f"{jitter_ms}ms",
                    "loss",
                    f"{loss_percent}%",
                ],  # fmt: skip
                check=True,
                capture_output=True,
            )

    def frames(self) -> tuple[int, int]:
        """The frames the link passed and dropped (the emulation's counts; netem's statistics
        of both ends)."""
        if self.link is not None:
            assert self.link.stdin is not None and self.link.stdout is not None
            self.link.stdin.write("stats\n")
            self.link.stdin.flush()
            words = self.link.stdout.readline().split()  # passed N dropped M
            return int(words[1]), int(words[3])
        passed = dropped = 0
        for ns, dev in ((self.server_ns, self.a), (self.players_ns, self.b)):
            out = subprocess.run(
                ["ip", "netns", "exec", ns, "tc", "-s", "qdisc", "show", "dev", dev],
                capture_output=True,
                text=True,
            ).stdout
            m = re.search(r"(\d+) pkt \(dropped (\d+)", out)
            if m:
                passed, dropped = passed + int(m[1]), dropped + int(m[2])
        return passed, dropped

    # --- processes in a namespace -------------------------------------------------------------

    def spawn(self, ns: str, args: list[str], **options) -> subprocess.Popen:
        """``args`` run in namespace ``ns`` (stopped by :meth:`close`)."""
        proc = subprocess.Popen(["ip", "netns", "exec", ns, *args], **options)
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in [*self.procs, *([self.link] if self.link else [])]:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        for ns in (self.server_ns, self.players_ns):
            _ip("netns", "del", ns, check=False)
