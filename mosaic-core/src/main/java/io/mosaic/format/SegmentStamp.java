package io.mosaic.format;

import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageCapabilities;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a segment file records about itself in its Parquet key-value metadata (docs/format.md,
 * "Segment files"): the table, column and table row groups it holds. Statistics and row counts
 * match any file of the same shape, so without this a manifest that gives two segments each other's
 * row groups reads every check clean and returns rows in the wrong place; with it, {@link
 * SegmentFooterCheck} refuses such a manifest.
 *
 * <p>A task's segments learn their row groups only when the driver commits them, after the file is
 * written; the writer records its best guess at a fixed width, and {@link #restamp} corrects it in
 * place before the commit publishes (updating the whole-file checksum without reading the file).
 * Segments written before this metadata existed have only {@link #COLUMN}; they keep reading, with
 * only that checked.
 */
public final class SegmentStamp {
  /** The table's id ({@link Manifest#tableId}): a UUID, the name of the table's folders. */
  public static final String TABLE = "mosaic.table";

  public static final String COLUMN = "mosaic.column";

  /** The first table row group, zero-padded to {@link #WIDTH} digits so it can be rewritten. */
  public static final String FIRST_ROW_GROUP = "mosaic.firstRowGroup";

  public static final String ROW_GROUPS = "mosaic.rowGroups";
  public static final String ROWS = "mosaic.rows";
  static final int WIDTH = 10;

  private SegmentStamp() {}

  /**
   * The metadata a writer records in a new segment. {@code firstRowGroup} is null on a storage that
   * cannot overwrite in place ({@link StorageCapabilities#inPlaceWrite()}): the commit could not
   * correct a guess there, so the record leaves the first row group out (docs/format.md, "Layout").
   */
  public static Map<String, String> of(
      String tableId, String column, Integer firstRowGroup, List<Long> rowCounts) {
    Map<String, String> kv = new LinkedHashMap<>();
    kv.put(COLUMN, column);
    kv.put(TABLE, tableId);
    if (firstRowGroup != null) {
      kv.put(FIRST_ROW_GROUP, first(firstRowGroup));
    }
    kv.put(ROW_GROUPS, Integer.toString(rowCounts.size()));
    kv.put(ROWS, Long.toString(rowCounts.stream().mapToLong(Long::longValue).sum()));
    return kv;
  }

  private static String first(int firstRowGroup) {
    return String.format(Locale.ROOT, "%0" + WIDTH + "d", firstRowGroup);
  }

  /** How the recorded metadata differs from the manifest's entry, or null. */
  static String problem(Manifest m, SegmentEntry s, Map<String, String> kv) {
    // The recorded column name is the one at write time, not compared: a renamed column keeps its
    // segments (docs/format.md, "Column ids"), and the path's folder is the column's id.
    String table = kv.get(TABLE);
    if (table != null && !table.equals(m.tableId())) {
      return "its own metadata says it belongs to table id "
          + table
          + ", not to this table ("
          + m.tableId()
          + ")";
    }
    String first = kv.get(FIRST_ROW_GROUP);
    String count = kv.get(ROW_GROUPS);
    if (first != null
        && count != null
        && (!Long.valueOf(s.firstRowGroup()).equals(number(first))
            || !Long.valueOf(s.rowGroupCount()).equals(number(count)))) {
      return "its own metadata says it holds table row groups "
          + range(number(first), number(count))
          + ", the manifest places it at row groups "
          + range(s.firstRowGroup(), s.rowGroupCount())
          + " (segments exchanged or renumbered)";
    }
    String rows = kv.get(ROWS);
    if (rows != null) {
      long want = 0;
      for (int g = s.firstRowGroup(); g < s.firstRowGroup() + s.rowGroupCount(); g++) {
        want += m.rowGroups().get(g);
      }
      // A damaged record that is no number differs too (number gives null).
      if (!Long.valueOf(want).equals(number(rows))) {
        return "its own metadata says it holds " + rows + " rows, the manifest says " + want;
      }
    }
    return null;
  }

  private static Long number(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String range(Long first, Long count) {
    return first == null || count == null ? "(unreadable)" : first + " to " + (first + count - 1);
  }

  private static String range(int first, int count) {
    return range((long) first, (long) count);
  }

  /**
   * Rewrites, in place, the table id and first row group recorded in the new segment file {@code
   * key} of {@code storage}, if they differ from {@code tableId} and {@code firstRowGroup}; both
   * have fixed widths, so nothing else moves. Returns the file's checksum afterwards, computed from
   * {@code checksum} (the file's checksum now) and the bytes changed. A file without the metadata
   * (written before it existed, or on a storage that cannot overwrite) is left as it is. On a
   * storage without {@link StorageCapabilities#inPlaceWrite()} a record that would have to change
   * is refused with an {@link IOException}: the file cannot be corrected there.
   */
  public static String restamp(
      Storage storage, String key, String checksum, String tableId, int firstRowGroup)
      throws IOException {
    Footer footer = footer(storage, key);
    if (footer == null) {
      return checksum; // not a Parquet file: the footer check refuses it on read
    }
    String sum = checksum;
    for (Map.Entry<String, String> want :
        Map.of(TABLE, tableId, FIRST_ROW_GROUP, first(firstRowGroup)).entrySet()) {
      Patch patch = change(footer, key, want.getKey(), want.getValue());
      if (patch == null) {
        continue;
      }
      if (!storage.capabilities().inPlaceWrite()) {
        throw new IOException(
            key
                + " records "
                + want.getKey()
                + " = "
                + new String(patch.old(), StandardCharsets.UTF_8)
                + ", not "
                + want.getValue()
                + ", and its storage "
                + storage.root()
                + " cannot overwrite a file in place to correct it");
      }
      storage.overwrite(key, patch.position(), patch.now());
      sum = patch.checksum(sum, footer.size());
    }
    return sum;
  }

  /** A Parquet file's footer: the file's size, where the footer starts, and its bytes. */
  private record Footer(long size, long start, byte[] bytes) {}

  /** The footer of file {@code key}, or null when the file is no Parquet file. */
  private static Footer footer(Storage storage, String key) throws IOException {
    try (Storage.ReadFile in = storage.open(key)) {
      long size = in.length();
      if (size < 12) {
        return null;
      }
      ByteBuffer end = ByteBuffer.allocate(8);
      in.readFully(end, size - 8);
      int footerLength = end.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
      long footerStart = size - 8 - footerLength;
      if (footerLength <= 0 || footerStart < 4) {
        return null;
      }
      byte[] footer = new byte[footerLength];
      in.readFully(ByteBuffer.wrap(footer), footerStart);
      return new Footer(size, footerStart, footer);
    }
  }

  /**
   * Bytes of a file replaced by others of the same length at {@code position}, as a copy writes
   * them: the file's checksum after the change follows from the one before ({@link
   * Checksums#patched}, CRC-32C is affine).
   */
  public record Patch(long position, byte[] old, byte[] now) {
    public Patch {
      if (old.length != now.length) {
        throw new IllegalArgumentException("a patch keeps the length");
      }
      old = old.clone();
      now = now.clone();
    }

    /** Overlays the patch on {@code buf[0, n)}, which holds the file's bytes from {@code at}. */
    public void apply(byte[] buf, int n, long at) {
      long from = Math.max(at, position);
      long to = Math.min(at + n, position + now.length);
      for (long p = from; p < to; p++) {
        buf[(int) (p - at)] = now[(int) (p - position)];
      }
    }

    /** The checksum of the patched file of {@code size} bytes whose checksum was {@code sum}. */
    public String checksum(String sum, long size) {
      return Checksums.patched(sum, old, now, size - position - now.length);
    }
  }

  /**
   * The change that makes a copy of segment file {@code key} record table id {@code tableId}
   * instead of the source's, or empty when it records no table id or that one already. A clone
   * applies it while copying (docs/format.md, "Layout"), so its copies are right as written, also
   * on a storage that cannot overwrite in place.
   */
  public static java.util.Optional<Patch> retag(Storage storage, String key, String tableId)
      throws IOException {
    Footer footer = footer(storage, key);
    return java.util.Optional.ofNullable(
        footer == null ? null : change(footer, key, TABLE, tableId));
  }

  /**
   * The change of key-value entry {@code field}'s value to {@code value} (same width), or null when
   * the footer has no such entry or that value already.
   */
  private static Patch change(Footer footer, String key, String field, String value)
      throws IOException {
    int at = valueAt(footer.bytes(), field);
    if (at < 0) {
      return null;
    }
    byte[] now = value.getBytes(StandardCharsets.UTF_8);
    int length = footer.bytes()[at - 1];
    if (length != now.length) {
      throw new IOException(
          key + ": its " + field + " has " + length + " bytes, not " + now.length);
    }
    byte[] old = Arrays.copyOfRange(footer.bytes(), at, at + length);
    return Arrays.equals(old, now) ? null : new Patch(footer.start() + at, old, now);
  }

  /**
   * Where the value of key-value entry {@code key} starts in a Thrift compact footer, or -1: the
   * key's bytes, then the value's field header and one-byte length. The key-value list follows the
   * schema and row groups, so the last occurrence is the entry, not a column named alike.
   */
  private static int valueAt(byte[] footer, String key) {
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    for (int at = footer.length - k.length - 2; at >= 1; at--) {
      if (footer[at - 1] == k.length && Arrays.equals(footer, at, at + k.length, k, 0, k.length)) {
        int value = at + k.length + 2;
        return footer[at + k.length] == 0x18 && value < footer.length ? value : -1;
      }
    }
    return -1;
  }
}
