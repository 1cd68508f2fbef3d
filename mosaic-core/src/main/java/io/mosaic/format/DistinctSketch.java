package io.mosaic.format;

import io.mosaic.MosaicException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.apache.parquet.column.values.bloomfilter.XxHash;

/**
 * A mergeable distinct-value sketch of one column in one row group: a HyperLogLog of 2^12 registers
 * over the 64-bit xxHash of each value's Parquet PLAIN encoding (the hash Parquet's bloom filters
 * use), estimated with Ertl's improved raw estimator ("New cardinality estimation algorithms for
 * HyperLogLog sketches", 2017, Algorithm 6), which needs no bias tables and is accurate from one
 * value up. The relative standard error is 1.04 / sqrt(4096), about 1.6 %.
 *
 * <p>Why not Apache DataSketches: datasketches-java 6.x serializes through datasketches-memory
 * 3.0.2, which refuses to load on JDK 25 (apache/datasketches-memory#270), and its 9.x needs Java
 * 25, while core compiles for Java 17. The format (docs/format.md, "Distinct-value sketches") is
 * small enough for any reader to decode.
 *
 * <p>Serialized form: byte 0 = format 1, byte 1 = log2 of the register count, then the registers
 * (one byte each) as a zlib stream; written in the manifest as base64.
 */
public final class DistinctSketch {
  static final int LOG_REGISTERS = 12;
  private static final int FORMAT = 1;
  private static final int MIN_LOG = 4;
  private static final int MAX_LOG = 16;

  private final int p;
  private final byte[] registers;

  public DistinctSketch() {
    this(LOG_REGISTERS);
  }

  private DistinctSketch(int p) {
    this.p = p;
    this.registers = new byte[1 << p];
  }

  /** Adds a value by its 64-bit hash (see {@link Hasher}). */
  public void update(long hash) {
    int index = (int) (hash >>> (64 - p));
    // Rank: leading zeros of the remaining 64 - p bits, plus one; the sentinel bit caps it at
    // 64 - p + 1.
    int rank = Long.numberOfLeadingZeros((hash << p) | (1L << (p - 1))) + 1;
    if (rank > registers[index]) {
      registers[index] = (byte) rank;
    }
  }

  /** Adds every value {@code other} saw (register-wise maximum): sketches of row groups union. */
  public void merge(DistinctSketch other) {
    if (other.p != p) {
      throw new IllegalArgumentException(
          "cannot merge a sketch of 2^" + other.p + " registers into one of 2^" + p);
    }
    for (int i = 0; i < registers.length; i++) {
      if (other.registers[i] > registers[i]) {
        registers[i] = other.registers[i];
      }
    }
  }

  public boolean isEmpty() {
    for (byte r : registers) {
      if (r != 0) {
        return false;
      }
    }
    return true;
  }

  /** The estimated number of distinct values (Ertl 2017, improved raw estimator). */
  public double estimate() {
    int m = registers.length;
    int q = 64 - p;
    int[] counts = new int[q + 2];
    for (byte r : registers) {
      counts[r]++;
    }
    if (counts[0] == m) {
      return 0;
    }
    double z = m * tau(1 - (double) counts[q + 1] / m);
    for (int k = q; k >= 1; k--) {
      z = 0.5 * (z + counts[k]);
    }
    z += m * sigma((double) counts[0] / m);
    return m * (m / (2 * Math.log(2))) / z;
  }

  private static double sigma(double x) {
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    double y = 1;
    double z = x;
    double previous;
    do {
      x *= x;
      previous = z;
      z += x * y;
      y += y;
    } while (z != previous);
    return z;
  }

  private static double tau(double x) {
    if (x == 0 || x == 1) {
      return 0;
    }
    double y = 1;
    double z = 1 - x;
    double previous;
    do {
      x = Math.sqrt(x);
      previous = z;
      y *= 0.5;
      z -= (1 - x) * (1 - x) * y;
    } while (z != previous);
    return z / 3;
  }

  /** The manifest's form: base64 of format, log2 registers and the zlib-compressed registers. */
  public String toBase64() {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
    try {
      deflater.setInput(registers);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(64);
      out.write(FORMAT);
      out.write(p);
      byte[] buffer = new byte[1024];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      return Base64.getEncoder().encodeToString(out.toByteArray());
    } finally {
      deflater.end();
    }
  }

  /**
   * Reads a sketch from the manifest's form; a sketch that is not one (bad base64, unknown format,
   * a damaged or short zlib stream, a register beyond its maximum) is INVALID_ARGUMENT with what is
   * wrong, which the manifest checker reports as a corrupt manifest.
   */
  public static DistinctSketch fromBase64(String text) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw MosaicException.invalid("is not base64 (" + e.getMessage() + ")");
    }
    if (bytes.length < 3 || bytes[0] != FORMAT) {
      throw MosaicException.invalid(
          "is not a distinct-value sketch of format " + FORMAT + " (" + bytes.length + " bytes)");
    }
    int p = bytes[1];
    if (p < MIN_LOG || p > MAX_LOG) {
      throw MosaicException.invalid(
          "has 2^" + p + " registers, not 2^" + MIN_LOG + " to 2^" + MAX_LOG);
    }
    DistinctSketch sketch = new DistinctSketch(p);
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(bytes, 2, bytes.length - 2);
      int n = 0;
      while (n < sketch.registers.length && !inflater.finished()) {
        int got = inflater.inflate(sketch.registers, n, sketch.registers.length - n);
        if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        n += got;
      }
      if (n != sketch.registers.length || !inflater.finished() || inflater.getRemaining() != 0) {
        throw MosaicException.invalid(
            "is damaged: its registers do not inflate to exactly "
                + sketch.registers.length
                + " bytes");
      }
    } catch (DataFormatException e) {
      throw MosaicException.invalid("is damaged: " + e.getMessage());
    } finally {
      inflater.end();
    }
    int max = 64 - p + 1;
    for (int i = 0; i < sketch.registers.length; i++) {
      if (sketch.registers[i] < 0 || sketch.registers[i] > max) {
        throw MosaicException.invalid(
            "is damaged: register " + i + " is " + sketch.registers[i] + ", above " + max);
      }
    }
    return sketch;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DistinctSketch s && s.p == p && Arrays.equals(s.registers, registers);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(registers);
  }

  /**
   * Hashes values as Parquet's bloom filters do: xxHash64 (seed 0) of the value's PLAIN encoding
   * (little-endian 4 or 8 bytes for numbers, the bytes of strings and binaries). One per writer
   * thread: it reuses a scratch buffer.
   */
  public static final class Hasher {
    private final XxHash xx = new XxHash();
    private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    public long int32(int v) {
      scratch.clear();
      scratch.putInt(v).flip();
      return xx.hashByteBuffer(scratch);
    }

    public long int64(long v) {
      scratch.clear();
      scratch.putLong(v).flip();
      return xx.hashByteBuffer(scratch);
    }

    public long float32(float v) {
      return int32(Float.floatToIntBits(v));
    }

    public long float64(double v) {
      return int64(Double.doubleToLongBits(v));
    }

    public long bool(boolean v) {
      scratch.clear();
      scratch.put((byte) (v ? 1 : 0)).flip();
      return xx.hashByteBuffer(scratch);
    }

    public long bytes(byte[] v) {
      return xx.hashBytes(v);
    }
  }
}
