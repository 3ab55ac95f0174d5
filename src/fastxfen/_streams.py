"""Reading a binary stream whose reads may come back short (pipes,
decompressors, sockets)."""


def read_exact(f, n: int) -> bytes:
    """n bytes of ``f`` (anything with ``read(size)``), fewer only at its end."""
    parts, got = [], 0
    while got < n:
        part = f.read(n - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)
