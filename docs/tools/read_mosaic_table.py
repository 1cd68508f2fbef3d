#!/usr/bin/env python3
"""Reads a Mosaic table with no Mosaic code, following docs/format.md: Python's json and zlib-free
CRC32C check, and pyarrow for the Parquet segments. Prints the table's schema, row count and the
first rows. Usage: read_mosaic_table.py DEVICES_TOML TABLE_DIR  (needs Python 3.11+ and pyarrow).
"""
import json
import os
import re
import sys
import tomllib

import pyarrow as pa
import pyarrow.parquet as pq


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def device_roots(devices_toml):
    with open(devices_toml, "rb") as f:
        config = tomllib.load(f)
    base = os.path.dirname(os.path.abspath(devices_toml))
    return {str(d["id"]): os.path.normpath(os.path.join(base, d["path"])) for d in config["device"]}


def latest_manifest(table_dir):
    names = [n for n in os.listdir(os.path.join(table_dir, "_manifests")) if re.fullmatch(r"v\d{20}\.json", n)]
    with open(os.path.join(table_dir, "_manifests", max(names)), "rb") as f:
        raw = f.read()
    head = re.match(rb'\{"format":"mosaic-manifest","formatVersion":1,"crc32c":"([0-9a-f]{8})","manifest":', raw)
    body = raw[head.end():-2]  # the file ends with "}\n"
    if int(head.group(1), 16) != crc32c(body):
        raise SystemExit("manifest checksum mismatch")
    return json.loads(body)


def main(devices_toml, table_dir):
    roots = device_roots(devices_toml)
    m = latest_manifest(table_dir)
    columns = {}
    for c in m["schema"]:
        segments = sorted((s for s in m["segments"] if s["column"] == c["name"]), key=lambda s: s["firstRowGroup"])
        parts = [pq.read_table(os.path.join(roots[s["device"]], s["path"])).column(0) for s in segments]
        columns[c["name"]] = pa.chunked_array([chunk for p in parts for chunk in p.chunks])
    table = pa.table(columns)
    assert table.num_rows == sum(m["rowGroups"])
    print(f"version {m['version']}: {table.num_rows} rows")
    print(table.schema)
    print(table.slice(0, 3).to_pylist())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
