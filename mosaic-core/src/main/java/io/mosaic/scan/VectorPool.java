package io.mosaic.scan;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Decoded vectors that finished scans gave back, for later scans of the same columns to decode
 * into. Engines split a table into many short scans (Spark: a few row groups per task), so a scan's
 * own spares rarely meet a second row group; without the pool every row group allocated and zeroed
 * megabytes of fresh memory per column, which took a third of decoding time in profiles of TPC-H
 * scans (docs/benchmarks.md). Holds at most {@code limitBytes}, dropping the least recently given
 * vectors first. Vectors move between a scan's allocator and the pool's by ownership transfer, so
 * every scan still accounts for (and on close, checks) exactly the memory it holds.
 */
final class VectorPool implements AutoCloseable {
  private record Entry(String column, FieldVector vector, long bytes) {}

  private final BufferAllocator allocator;
  private final long limitBytes;
  // Most recently given first.
  private final Deque<Entry> free = new ArrayDeque<>();
  private long bytes;
  private long reused;

  VectorPool(BufferAllocator parent, long limitBytes) {
    this.allocator = parent.newChildAllocator("vector-pool", 0, Long.MAX_VALUE);
    this.limitBytes = limitBytes;
  }

  /**
   * The most recently given vector of column {@code column}, now owned by {@code owner}; null if
   * none. Its type and capacity may not suit the next chunk: the decoder checks, and frees it if
   * not.
   */
  synchronized FieldVector take(String column, BufferAllocator owner) {
    for (Iterator<Entry> it = free.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.column().equals(column)) {
        it.remove();
        bytes -= e.bytes();
        reused++;
        return moveTo(e.vector(), owner);
      }
    }
    return null;
  }

  /** Takes {@code vector} (no longer used by its scan) into the pool, or frees it if too large. */
  synchronized void give(String column, FieldVector vector) {
    long size = 0;
    for (ArrowBuf b : vector.getFieldBuffers()) {
      size += b.capacity();
    }
    if (size > limitBytes) {
      vector.close();
      return;
    }
    free.push(new Entry(column, moveTo(vector, allocator), size));
    bytes += size;
    while (bytes > limitBytes) {
      Entry oldest = free.removeLast();
      bytes -= oldest.bytes();
      oldest.vector().close();
    }
  }

  /** How many vectors scans took back from the pool. */
  synchronized long reused() {
    return reused;
  }

  /** Bytes the pool holds. */
  synchronized long bytes() {
    return bytes;
  }

  private static FieldVector moveTo(FieldVector vector, BufferAllocator owner) {
    if (vector.getAllocator() == owner) {
      return vector;
    }
    TransferPair pair = vector.getTransferPair(owner);
    pair.transfer();
    return (FieldVector) pair.getTo();
  }

  @Override
  public synchronized void close() {
    free.forEach(e -> e.vector().close());
    free.clear();
    bytes = 0;
    allocator.close();
  }
}
