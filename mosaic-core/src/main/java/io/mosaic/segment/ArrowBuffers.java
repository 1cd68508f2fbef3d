package io.mosaic.segment;

import io.mosaic.format.ColumnSpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/** Arrow vectors and buffers as the chunk decoder fills them. */
final class ArrowBuffers {
  private ArrowBuffers() {}

  /** An empty vector of the column's Arrow type, allocated for {@code rows} values. */
  static FieldVector newVector(ColumnSpec column, int rows, BufferAllocator allocator) {
    FieldVector vector = column.arrowField().createVector(allocator);
    vector.setInitialCapacity(rows);
    vector.allocateNew();
    return vector;
  }

  /** {@code bytes} bytes of {@code buf} from {@code from}, little-endian as Arrow lays them out. */
  static ByteBuffer littleEndian(ArrowBuf buf, long from, int bytes) {
    return buf.nioBuffer(from, bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Marks {@code [from, from + n)} valid: whole bytes at once, the ragged ends bit by bit. */
  static void setValid(ArrowBuf validity, int from, int n) {
    int i = from;
    int end = from + n;
    while (i < end && (i & 7) != 0) {
      BitVectorHelper.setBit(validity, i++);
    }
    int bytes = (end - i) >>> 3;
    if (bytes > 0) {
      validity.setOne((long) (i >>> 3), bytes);
      i += bytes << 3;
    }
    while (i < end) {
      BitVectorHelper.setBit(validity, i++);
    }
  }
}
