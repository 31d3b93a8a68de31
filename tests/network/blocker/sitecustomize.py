"""Test-only: no network for this process; every attempt is recorded.

Put this directory on PYTHONPATH and name a file in SERVELINT_NETWORK_LOG.
Creating an Internet socket, connecting, sending to an address and name
lookups raise (as with the network unplugged) and append a line to that
file, so a test can tell "worked offline" from "never tried".  Local
socketpairs (asyncio's self-pipe) and pipes keep working.
"""

import os
import socket
import traceback

_LOG = os.environ.get("SERVELINT_NETWORK_LOG")

if _LOG:
    # Proof for the tests that this process ran with the network blocked.
    with open(_LOG + ".active", "a") as _fh:
        _fh.write(f"{os.getpid()}\n")

    def _record(what: str) -> None:
        with open(_LOG, "a") as fh:
            fh.write(f"{what}\n{''.join(traceback.format_stack(limit=8))}\n")

    def _refuse(what: str):
        def refused(*args, **kwargs):
            _record(f"{what}{args[1:2] if what.startswith('socket.') else args[:1]}")
            raise OSError(101, "Network is unreachable (blocked by the servelint test suite)")

        return refused

    _init = socket.socket.__init__

    def _socket_init(self, family=-1, type=-1, proto=-1, fileno=None):
        if fileno is None and family in (socket.AF_INET, socket.AF_INET6, -1):
            _record(f"socket.socket(family={family})")
            raise OSError(101, "Network is unreachable (blocked by the servelint test suite)")
        _init(self, family, type, proto, fileno)

    socket.socket.__init__ = _socket_init
    for _name in ("connect", "connect_ex", "sendto"):
        setattr(socket.socket, _name, _refuse(f"socket.{_name}"))
    for _name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr", "create_connection"):
        setattr(socket, _name, _refuse(_name))
