"""Settings for the whole suite.

``SERVELINT_CHECK_REQUIRES=1``: the engine also runs the rules a launch's
flags left out (``Rule.requires``) and reports one that finds something as
an internal error, so every test doubles as a check of those declarations.
Set here, before servelint is imported, and inherited by the servers and CLI
processes the tests start.
"""

import os

os.environ.setdefault("SERVELINT_CHECK_REQUIRES", "1")
