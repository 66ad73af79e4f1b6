"""Byte buffers the worker can wipe: task data (reference code, hidden tests, expected values) is
read into one, handed to a forked child, then zeroed, so a later candidate forked from the same
worker finds no copy of it in the memory it inherits."""
import ctypes
import os


def zero(buf):
    """Overwrites a bytearray in place (no temporary copies)."""
    n = len(buf)
    if n:
        ctypes.memset((ctypes.c_char * n).from_buffer(buf), 0, n)


class SecureBuffer:
    """A growable bytearray whose superseded storage is zeroed, filled straight from a file descriptor."""

    def __init__(self, capacity=65536):
        self.data = bytearray(max(1, capacity))
        self.length = 0

    def _grow(self, needed):
        capacity = len(self.data)
        while capacity < needed:
            capacity *= 2
        bigger = bytearray(capacity)
        memoryview(bigger)[: self.length] = memoryview(self.data)[: self.length]
        zero(self.data)
        self.data = bigger

    def read_from(self, fd, limit):
        """One read of at most `limit` bytes from fd into the buffer; returns the byte count (0 = EOF)."""
        if self.length + limit > len(self.data):
            self._grow(self.length + limit)
        n = os.readv(fd, [memoryview(self.data)[self.length : self.length + limit]])
        self.length += n
        return n

    def read_exactly(self, fd, size):
        """Reads exactly `size` bytes (raises EOFError if the stream ends first)."""
        if self.length + size > len(self.data):
            self._grow(self.length + size)
        while size > 0:
            n = os.readv(fd, [memoryview(self.data)[self.length : self.length + size]])
            if n == 0:
                raise EOFError('stream ended inside a payload')
            self.length += n
            size -= n

    def view(self):
        return memoryview(self.data)[: self.length]

    def wipe(self):
        zero(self.data)
        self.length = 0
