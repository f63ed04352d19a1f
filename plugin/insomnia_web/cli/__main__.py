"""``python -m insomnia_web.cli``: the same as the ``insomnia-web`` console script."""

from __future__ import annotations

import sys

from .main import main

sys.exit(main())
