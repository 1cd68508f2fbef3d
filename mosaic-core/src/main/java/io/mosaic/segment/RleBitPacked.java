package io.mosaic.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/** Parquet's levels and dictionary ids: the RLE / bit-packed hybrid, unpacked a run at a time. */
final class RleBitPacked {
  private RleBitPacked() {}

  /**
   * A page's bytes as a little-endian heap buffer starting at 0, without copying them where they
   * already are on the heap (parquet-java's decompressed pages are).
   */
  static ByteBuffer heap(BytesInput input) throws IOException {
    ByteBuffer b = input.toByteBuffer();
    if (!b.hasArray() || b.isReadOnly()) {
      ByteBuffer copy = ByteBuffer.allocate(b.remaining());
      copy.put(b).flip();
      b = copy;
    }
    return b.slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Parquet's RLE / bit-packed hybrid (definition levels, dictionary ids) unpacked into {@code n}
   * ints, a run at a time: RLE runs by a fill, bit-packed values 32 or 8 at a time by
   * parquet-java's {@link BytePacker} (parquet-java's own decoder returns one value per call, which
   * cost a quarter of a Spark scan's decoding). {@code in} is left after the encoded bytes, at
   * {@code end}.
   */
  static int[] unpack(ByteBuffer in, int end, int bitWidth, int n) throws IOException {
    return unpack(in, end, bitWidth, n, new int[n]);
  }

  /** As above, into the first {@code n} entries of {@code out} (a thread's {@link Scratch}). */
  static int[] unpack(ByteBuffer in, int end, int bitWidth, int n, int[] out) throws IOException {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IOException("RLE/bit-packed bit width " + bitWidth + " is not in [0, 32]");
    }
    // The pages are heap buffers: their array is read directly, as the unpackers' ByteBuffer
    // variants paid a bounds check per byte (a quarter of decoding TPC-H's key columns).
    byte[] bytes = in.array();
    int base = in.arrayOffset();
    int pos = in.position();
    BytePacker packer = PACKERS[bitWidth];
    int valueBytes = (bitWidth + 7) / 8;
    int i = 0;
    while (i < n) {
      if (pos >= end) {
        throw new IOException("RLE/bit-packed data ends after " + i + " of " + n + " values");
      }
      int header = 0;
      for (int shift = 0; ; shift += 7) { // ULEB128
        int b = bytes[base + pos++] & 0xff;
        header |= (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
      }
      if ((header & 1) == 0) {
        int value = 0;
        for (int b = 0; b < valueBytes; b++) {
          value |= (bytes[base + pos++] & 0xff) << (8 * b);
        }
        int count = Math.min(header >>> 1, n - i);
        Arrays.fill(out, i, i + count, value);
        i += count;
      } else {
        int group = header >>> 1;
        for (; group >= 4 && i + 32 <= n && pos + 4 * bitWidth <= end; group -= 4) {
          packer.unpack32Values(bytes, base + pos, out, i);
          pos += 4 * bitWidth;
          i += 32;
        }
        for (; group > 0 && i < n; group--) {
          if (i + 8 <= n && pos + bitWidth <= end) {
            packer.unpack8Values(bytes, base + pos, out, i);
          } else {
            // The last group: fewer than 8 values wanted, or its bytes cut short by the writer.
            byte[] padded = new byte[bitWidth];
            for (int b = 0; b < bitWidth && pos + b < end; b++) {
              padded[b] = bytes[base + pos + b];
            }
            int[] eight = new int[8];
            packer.unpack8Values(padded, 0, eight, 0);
            System.arraycopy(eight, 0, out, i, Math.min(8, n - i));
          }
          pos += bitWidth;
          i += 8;
        }
      }
    }
    in.position(end);
    return out;
  }

  private static final BytePacker[] PACKERS = new BytePacker[33];

  static {
    for (int w = 0; w <= 32; w++) {
      PACKERS[w] = Packer.LITTLE_ENDIAN.newBytePacker(w);
    }
  }
}
