"""One module per LSP feature; ``register`` puts them all on a server.

* ``lifecycle``: initialize, initialized, shutdown
* ``documents``: didOpen, didChange, didSave, didClose
* ``diagnostics``: pull diagnostics (document and workspace); pushing them
  is ``Session.show``, after each lint
* ``settings``: configuration and watched files
* ``actions``: code actions (fixes, suppressions, fix-all)
* ``hover``, ``completion``
* ``scan``: the workspace's files that are not open (workspace diagnostics)
* ``commands``: ``servelint.releaseFor``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions, commands, completion, documents, hover, lifecycle, settings

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer


def register(server: "ServelintServer") -> None:
    for module in (lifecycle, documents, settings, commands, actions, hover, completion):
        module.register(server)
