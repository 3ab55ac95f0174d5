"""Reading back what the command line wrote compressed, by extension."""

import bz2
import gzip
import io
import lzma


def decompress(ext, data):
    if ext == "gz":
        return gzip.decompress(data)
    if ext == "bz2":
        return bz2.decompress(data)
    if ext == "xz":
        return lzma.decompress(data)
    import zstandard

    return zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)).read()
