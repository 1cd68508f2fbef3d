#!/usr/bin/env python3
"""A TCP relay that delays every byte by a fixed one-way latency, both ways (benchmarks/cloud-cache).

This kernel has no sch_netem, so `tc netem delay` is unavailable; the rate is shaped by tc tbf on the
veth, and this relay, run inside the namespace in front of SeaweedFS, adds the delay. Each chunk read
from one side is written to the other DELAY ms after it arrived, in order, so a request's first byte
waits one delay and its answer another (a round trip of 2 x DELAY), while a long transfer still flows
at the link's rate (delay does not cap throughput, as on a real network with a large window).

usage: cloud-cache-delay.py LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS
"""
import asyncio
import sys


async def pipe(reader, writer, delay):
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def read():
        while True:
            data = await reader.read(65536)
            await queue.put((loop.time() + delay, data))
            if not data:
                return

    async def write():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                try:
                    writer.write_eof()
                except OSError:
                    pass
                return
            writer.write(data)
            await writer.drain()

    try:
        await asyncio.gather(read(), write())
    except (ConnectionError, OSError):
        writer.close()


async def main():
    host, port, target_host, target_port, delay_ms = sys.argv[1:6]
    delay = float(delay_ms) / 1000

    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host, int(target_port))
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pipe(client_reader, server_writer, delay),
            pipe(server_reader, client_writer, delay),
            return_exceptions=True,
        )
        server_writer.close()
        client_writer.close()

    # A deep accept queue: a reader opening many connections at once must not lose SYNs to a full
    # backlog (asyncio's default is 100), which TCP retries only after 1, 3 and 7 seconds.
    server = await asyncio.start_server(handle, host, int(port), backlog=4096)
    async with server:
        await server.serve_forever()


asyncio.run(main())
