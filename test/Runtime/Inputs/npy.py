# Writes a NumPy .npy file without NumPy:
#   npy.py FILE DTYPE SHAPE EXPR
# DTYPE is f2, f4 or f8; SHAPE is comma-separated ("1000", "4,8", "" for 0-d);
# element i (flat, C order) is the Python expression EXPR of i.
import struct
import sys

path, dtype, shape_text, expr = sys.argv[1:5]
shape = tuple(int(s) for s in shape_text.split(",") if s)
count = 1
for extent in shape:
    count *= extent
code = {"f2": "e", "f4": "f", "f8": "d"}[dtype]
values = [eval(expr, {"i": i}) for i in range(count)]
shape_repr = "(%s)" % "".join("%d," % s for s in shape) if shape else "()"
header = "{'descr': '<%s', 'fortran_order': False, 'shape': %s, }" % (
    dtype, shape_repr)
# Magic (6) + version (2) + length (2) + header + "\n", padded to 64.
padding = 64 - (10 + len(header) + 1) % 64
header = header + " " * (padding % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00")
    f.write(struct.pack("<H", len(header)))
    f.write(header.encode("latin1"))
    f.write(struct.pack("<%d%s" % (count, code), *values))
