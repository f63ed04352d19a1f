"""Host syntax shared by the manifest, the permission rules and the URL policy.

Pure functions with no I/O and no dependency on the rest of the package, so every layer can
use them: :mod:`.addresses` (IP literals in every encoding, CIDR parsing, the blocked
ranges) and :mod:`.names` (host name normalisation, IDNA, domain patterns).
"""
