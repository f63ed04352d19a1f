"""``python -m insomnia_web``: the same as the ``insomnia-web`` console script."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
