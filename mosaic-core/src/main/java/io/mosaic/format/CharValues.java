package io.mosaic.format;

import io.mosaic.MosaicException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The stored form of {@code char(n)} values: without trailing spaces (U+0020), as Trino keeps them
 * and as Spark's read-side padding expects. Padding is not data: {@code 'ab'} and {@code 'ab '} are
 * the same {@code char(4)} value in both engines, so they are stored, counted and compared as one.
 */
public final class CharValues {
  private CharValues() {}

  /** {@code utf8} without its trailing spaces (the same array when it has none). */
  public static byte[] trim(byte[] utf8) {
    int end = utf8.length;
    while (end > 0 && utf8[end - 1] == ' ') {
      end--;
    }
    return end == utf8.length ? utf8 : Arrays.copyOf(utf8, end);
  }

  /** {@code value} without its trailing spaces. */
  public static String trim(String value) {
    int end = value.length();
    while (end > 0 && value.charAt(end - 1) == ' ') {
      end--;
    }
    return value.substring(0, end);
  }

  /**
   * The value to store for {@code utf8} in {@code column}: trimmed, and refused if it still holds
   * more than n characters (engines check this before writing; this keeps a bad writer from storing
   * what neither engine could read back).
   */
  public static byte[] stored(ColumnSpec column, byte[] utf8) {
    byte[] trimmed = trim(utf8);
    int n = column.type().precision();
    // A UTF-8 character is at least one byte: only values longer than n bytes need counting.
    if (trimmed.length > n) {
      String s = new String(trimmed, StandardCharsets.UTF_8);
      int chars = s.codePointCount(0, s.length());
      if (chars > n) {
        throw MosaicException.invalid(
            "column '"
                + column.name()
                + "' is "
                + column.type()
                + ", but a value has "
                + chars
                + " characters (without trailing spaces); cast or truncate it to "
                + n);
      }
    }
    return trimmed;
  }
}
