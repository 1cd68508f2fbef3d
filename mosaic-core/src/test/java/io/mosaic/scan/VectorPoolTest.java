package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class VectorPoolTest {
  private static BigIntVector vector(BufferAllocator allocator, String name, int rows) {
    BigIntVector v = new BigIntVector(name, allocator);
    v.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      v.set(i, i);
    }
    v.setValueCount(rows);
    return v;
  }

  @Test
  void vectorsMoveBetweenOwnersAndTheOldestLeaveFirstBeyondTheLimit() {
    try (RootAllocator root = new RootAllocator()) {
      BufferAllocator scan = root.newChildAllocator("scan", 0, Long.MAX_VALUE);
      VectorPool pool = new VectorPool(root, 3 * (8L << 10) + (4L << 10));
      pool.give("a", vector(scan, "a", 1000)); // about 8 KiB of values each
      pool.give("b", vector(scan, "b", 1000));
      pool.give("a", vector(scan, "a", 1000));
      assertThat(scan.getAllocatedMemory()).as("ownership left the scan").isZero();
      pool.give("c", vector(scan, "c", 1000)); // over the limit: the first "a" leaves
      assertThat(pool.bytes()).isLessThanOrEqualTo(3 * (8L << 10) + (4L << 10));

      FieldVector a = pool.take("a", scan);
      assertThat(a).isNotNull();
      assertThat(a.getAllocator()).isSameAs(scan);
      assertThat(a.getValueCapacity()).isGreaterThanOrEqualTo(1000);
      assertThat(pool.take("a", scan)).as("the oldest a was dropped").isNull();
      assertThat(pool.take("nope", scan)).isNull();
      assertThat(pool.reused()).isEqualTo(1);
      a.close();
      scan.close(); // would throw if the pool's transfers had left buffers accounted to the scan
      pool.close(); // frees b and c; the root then closes clean
    }
  }
}
