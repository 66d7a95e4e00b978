#!/usr/bin/env python3
"""Writes and reads small .npy files without NumPy, for the utac run tests.

  npy.py write OUT.npy DESCR SHAPE V1,V2,...   e.g. write a.npy '<f4' 2,3 1,2,3,4,5,6
  npy.py print IN.npy                          prints descr, shape and values
"""
import ast
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<f2": "e", "<i4": "i"}


def write(path, descr, shape, values, version=1):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}, " for d in shape).rstrip(" ") if len(shape) != 1
        else f"{shape[0]},")
    prefix = 10 if version == 1 else 12
    pad = (-(prefix + len(header) + 1)) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes([version, 0]))
        f.write(struct.pack("<H" if version == 1 else "<I", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<" + FORMATS[descr] * len(values), *values))


def read(path):
    data = open(path, "rb").read()
    version = data[6]
    length = struct.unpack("<H" if version == 1 else "<I",
                           data[8:10] if version == 1 else data[8:12])[0]
    start = 10 if version == 1 else 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    body = data[start + length:]
    fmt = FORMATS[header["descr"]]
    count = len(body) // struct.calcsize(fmt)
    return header, struct.unpack("<" + fmt * count, body)


if sys.argv[1] == "write":
    shape = [int(d) for d in sys.argv[4].split(",") if d]
    cast = int if sys.argv[3] == "<i4" else float
    values = [cast(float(v)) for v in sys.argv[5].split(",")]
    write(sys.argv[2], sys.argv[3], shape, values)
else:
    header, values = read(sys.argv[2])
    print(header["descr"], header["shape"], " ".join(repr(v) for v in values))
