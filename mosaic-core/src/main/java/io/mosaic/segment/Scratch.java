package io.mosaic.segment;

/**
 * The arrays a decoding thread reuses from page to page (decompressed pages, levels, dictionary
 * ids, gathered values): allocated anew per page they were about half of all the bytes a scan
 * allocated, each zeroed and collected (docs/benchmarks.md, "Decoding scratch"). Each is grown to
 * the largest page seen, so callers use its first {@code n} entries only. A page larger than {@link
 * #KEPT} values gets arrays of its own, so one odd page does not pin its arrays to the thread.
 */
final class Scratch {
  /** The most values whose arrays a thread keeps: 1 MB pages of 1-byte values. */
  static final int KEPT = 1 << 20;

  private static final ThreadLocal<Scratch> OF_THREAD = ThreadLocal.withInitial(Scratch::new);

  /** The most bytes of decompressed pages a thread keeps ({@link ChunkPages}). */
  static final int KEPT_BYTES = 32 << 20;

  private byte[] bytes = new byte[0];
  // Levels, dictionary ids, and gathered ints or string offsets: three in use at once.
  private final int[][] ints = {new int[0], new int[0], new int[0]};
  private long[] longs = new long[0];
  private double[] doubles = new double[0];
  private float[] floats = new float[0];

  /** This thread's arrays; decoding of one page runs on one thread from start to end. */
  static Scratch ofThread() {
    return OF_THREAD.get();
  }

  /** A chunk's decompressed pages. */
  byte[] bytes(int n) {
    if (bytes.length >= n) {
      return bytes;
    }
    byte[] a = new byte[n];
    if (n <= KEPT_BYTES) {
      bytes = a;
    }
    return a;
  }

  /** Definition levels. */
  int[] defs(int n) {
    return ints(0, n);
  }

  /** Dictionary ids. */
  int[] ids(int n) {
    return ints(1, n);
  }

  /** Gathered int values, or a page's string end offsets. */
  int[] ints(int n) {
    return ints(2, n);
  }

  private int[] ints(int slot, int n) {
    if (ints[slot].length >= n) {
      return ints[slot];
    }
    int[] a = new int[n];
    if (n <= KEPT) {
      ints[slot] = a;
    }
    return a;
  }

  long[] longs(int n) {
    if (longs.length >= n) {
      return longs;
    }
    long[] a = new long[n];
    if (n <= 2 * KEPT) {
      longs = a;
    }
    return a;
  }

  double[] doubles(int n) {
    if (doubles.length >= n) {
      return doubles;
    }
    double[] a = new double[n];
    if (n <= KEPT) {
      doubles = a;
    }
    return a;
  }

  float[] floats(int n) {
    if (floats.length >= n) {
      return floats;
    }
    float[] a = new float[n];
    if (n <= KEPT) {
      floats = a;
    }
    return a;
  }
}
