package io.mosaic.format;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.CRC32C;

/** The checksums the manifest records ({@code crc32c:<8 hex>}, docs/format.md). */
public final class Checksums {
  private static final int BUFFER = 1 << 20;

  private Checksums() {}

  /** {@code crc32c:<hex>} of {@code length} bytes of {@code bytes} from {@code offset}. */
  public static String of(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return format(crc.getValue());
  }

  /**
   * The checksum of a file whose bytes {@code old}, {@code tail} bytes before its end, became
   * {@code now}, from its checksum before: CRC-32C is affine, so for messages of one length {@code
   * crc(a ^ d) = crc(a) ^ crc(d) ^ crc(zeros)}, and the zeros before the change add nothing to
   * {@code crc(d) ^ crc(zeros)}. Only the changed bytes and the tail are hashed.
   */
  static String patched(String checksum, byte[] old, byte[] now, long tail) {
    byte[] delta = new byte[old.length];
    for (int i = 0; i < delta.length; i++) {
      delta[i] = (byte) (old[i] ^ now[i]);
    }
    CRC32C changed = new CRC32C();
    changed.update(delta);
    zeros(changed, tail);
    CRC32C none = new CRC32C();
    zeros(none, delta.length + tail);
    long before = Long.parseLong(checksum.substring(checksum.indexOf(':') + 1), 16);
    return format(before ^ changed.getValue() ^ none.getValue());
  }

  private static void zeros(CRC32C crc, long count) {
    byte[] zeros = new byte[(int) Math.min(count, BUFFER)];
    for (long left = count; left > 0; left -= zeros.length) {
      crc.update(zeros, 0, (int) Math.min(left, zeros.length));
    }
  }

  static String format(long crc) {
    return String.format(Locale.ROOT, "crc32c:%08x", crc);
  }

  /** The checksum of the file at {@code key} of a device, read through its throttle. */
  public static String ofFile(Device device, String key) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocate(BUFFER);
    try (DeviceReadChannel ch = device.openForRead(key)) {
      long position = 0;
      for (int n = ch.read(buf, position); n > 0; n = ch.read(buf, position)) {
        crc.update(buf.array(), 0, n);
        position += n;
        buf.clear();
      }
    }
    return format(crc.getValue());
  }
}
