package io.mosaic.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * The deleted positions of one row group, a deletion vector (docs/format.md, "Deletion vectors"): a
 * Roaring bitmap of positions within the row group, as Iceberg v3 and Delta keep them, so a DELETE
 * marks rows instead of rewriting their segments. Immutable: the bitmap is never handed out.
 */
public final class DeletedRows {
  private final RoaringBitmap positions;

  private DeletedRows(RoaringBitmap positions) {
    this.positions = positions;
    positions.runOptimize();
  }

  /** The positions of {@code deleted} (copied). */
  public static DeletedRows of(RoaringBitmap deleted) {
    return new DeletedRows(deleted.clone());
  }

  public static DeletedRows of(int... deleted) {
    return new DeletedRows(RoaringBitmap.bitmapOf(deleted));
  }

  /**
   * Reads the portable Roaring serialization, base64-encoded, as the manifest stores it.
   *
   * @throws IllegalArgumentException when the text is not one
   */
  public static DeletedRows fromBase64(String text) {
    byte[] bytes = Base64.getDecoder().decode(text);
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(ByteBuffer.wrap(bytes));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a serialized Roaring bitmap: " + e.getMessage(), e);
    }
    return new DeletedRows(bitmap);
  }

  public String toBase64() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(positions.serializedSizeInBytes());
    try (DataOutputStream data = new DataOutputStream(out)) {
      positions.serialize(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Base64.getEncoder().encodeToString(out.toByteArray());
  }

  public boolean contains(int position) {
    return positions.contains(position);
  }

  /** How many positions are deleted. */
  public int count() {
    return positions.getCardinality();
  }

  public boolean isEmpty() {
    return positions.isEmpty();
  }

  /** The last deleted position, or -1 when none is. */
  public int last() {
    return positions.isEmpty() ? -1 : positions.last();
  }

  /** The positions of {@code [0, rows)} that are not deleted, ascending. */
  public int[] livePositions(int rows) {
    int[] live = new int[rows - (int) positions.rangeCardinality(0, rows)];
    int n = 0;
    int next = 0;
    // The runs between deleted positions, in one pass over the bitmap: a lookup per row cost about
    // a tenth of a scan of the same rows (docs/benchmarks.md, "Table operations").
    org.roaringbitmap.IntIterator deleted = positions.getIntIterator();
    while (deleted.hasNext()) {
      int d = deleted.next();
      if (d >= rows) {
        break;
      }
      while (next < d) {
        live[n++] = next++;
      }
      next = d + 1;
    }
    while (next < rows) {
      live[n++] = next++;
    }
    return live;
  }

  /**
   * The live rows among positions {@code [from, from + n)}, as offsets from {@code from} into the
   * first entries of {@code out}; returns how many. One pass over the bitmap's positions in the
   * range, as {@link #livePositions(int)} (an engine's page of rows at a time).
   */
  public int livePositions(int from, int n, int[] out) {
    org.roaringbitmap.PeekableIntIterator deleted = positions.getIntIterator();
    deleted.advanceIfNeeded(from);
    int end = from + n;
    int kept = 0;
    int next = from;
    while (deleted.hasNext()) {
      int d = deleted.peekNext();
      if (d >= end) {
        break;
      }
      deleted.next();
      while (next < d) {
        out[kept++] = next++ - from;
      }
      next = d + 1;
    }
    while (next < end) {
      out[kept++] = next++ - from;
    }
    return kept;
  }

  /** These positions and {@code other}'s. */
  public DeletedRows union(DeletedRows other) {
    return new DeletedRows(RoaringBitmap.or(positions, other.positions));
  }

  /**
   * A row's id as the engines' DELETE, UPDATE and MERGE read it: its row group in the high 32 bits,
   * its position within the row group in the low ones.
   */
  public static long rowId(int rowGroup, int position) {
    return ((long) rowGroup << 32) | position;
  }

  /**
   * Collects deleted rows by their ids, or as other collectors' {@link #encoded} parts (a task's
   * share of a statement, sent to the one that commits).
   */
  public static final class Collector {
    private final Map<Integer, RoaringBitmap> rows = new TreeMap<>();

    public void add(long rowId) {
      rows.computeIfAbsent((int) (rowId >>> 32), g -> new RoaringBitmap()).add((int) rowId);
    }

    /** Adds another collector's {@link #encoded} rows. */
    public void addAll(Map<Integer, String> encoded) {
      encoded.forEach(
          (g, text) ->
              rows.computeIfAbsent(g, k -> new RoaringBitmap()).or(fromBase64(text).positions));
    }

    /** Per row group, the positions in base64 (serializable, as tasks send them). */
    public HashMap<Integer, String> encoded() {
      HashMap<Integer, String> out = new HashMap<>();
      rows.forEach((g, b) -> out.put(g, of(b).toBase64()));
      return out;
    }

    /** Per row group, the positions collected: what {@code MosaicTable.changeRows} takes. */
    public Map<Integer, DeletedRows> deletions() {
      Map<Integer, DeletedRows> out = new TreeMap<>();
      rows.forEach((g, b) -> out.put(g, of(b)));
      return out;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletedRows d && positions.equals(d.positions);
  }

  @Override
  public int hashCode() {
    return positions.hashCode();
  }

  @Override
  public String toString() {
    return "DeletedRows" + positions;
  }
}
